import Testing
import Foundation
import FramedTestSupport
import FramedRaster
import CCodecs

/// HEIC and AVIF through libheif. Fixtures are encoded by `heif-enc` (x265, libheif-examples) and
/// `avifenc` (aom, libavif-bin: it also writes `irot`, `imir`, `clap`, EXIF, ICC and nclx) from PNGs
/// made here; lossless files must decode to their source pixels, and transformations must come
/// out as libheif's own `heif-convert` shows them.
@Suite final class HEIFTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.make("framed-heif") }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Where two pictures differ: nil when they are the same, else how many samples differ and
    /// by how much at most (short, for the test's message).
    static func differs(_ a: RasterImage, _ b: RasterImage) -> String? {
        guard a.width == b.width && a.height == b.height else { return "\(a.width)x\(a.height) vs \(b.width)x\(b.height)" }
        let d = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }
        let count = d.filter { $0 != 0 }.count
        return count == 0 ? nil : "\(count) samples differ, by up to \(d.max()!)"
    }

    /// Runs an encoder; a missing tool fails the test (the Makefile's TEST_PACKAGES install them).
    func encode(_ tool: String, _ arguments: [String]) throws {
        #expect(Tool.exists(tool), "\(tool) is needed (libheif-examples, libavif-bin in TEST_PACKAGES)")
        let r = try Tool.run(tool, arguments, in: folder)
        #expect(r.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(r.stderr)")
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], _ name: String) throws { try Data(bytes).write(to: folder.appendingPathComponent(name)) }

    func decode(_ name: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodedPicture {
        try Pictures.decode(contentsOf: path(name), options: options)
    }

    /// An 8-bit picture with every kind of detail (even sizes: 4:2:0 needs none, but the tools like them).
    static func picture(_ width: Int, _ height: Int, alpha: Bool = false) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8((x * 255) / max(1, width - 1)), UInt8((y * 7 + x * 3) % 256), UInt8(((x ^ y) * 9) % 256),
                           alpha ? UInt8((x + y * 3) % 256) : 255]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
    }

    /// A 16-bit RGB PNG whose samples are the `bits`-bit values `value(i)` with their bits
    /// repeated (v << (16 - bits) | ...): any encoder's 16-to-`bits` conversion gives them back.
    static func deepPNG(_ width: Int, _ height: Int, bits: Int, alpha: Bool = false, value: (Int) -> Int) -> [UInt8] {
        var scanlines: [UInt8] = []
        let channels = alpha ? 4 : 3
        for y in 0..<height {
            scanlines.append(0)
            for x in 0..<width {
                for c in 0..<channels {
                    let v = value((y * width + x) * channels + c)
                    var wide = 0, filled = 0
                    while filled < 16 { wide = wide << bits | v; filled += bits }
                    wide >>= filled - 16
                    scanlines += [UInt8(wide >> 8), UInt8(wide & 255)]
                }
            }
        }
        return Fixture.png(width: UInt32(width), height: UInt32(height), depth: 16, colorType: alpha ? 6 : 2,
                           scanlines: scanlines)
    }

    @Test func losslessHEICAndAVIFAreTheirPixels() throws {
        let image = Self.picture(64, 48)
        try write(PictureEncoder.png(image, dropAlpha: true), "source.png")
        try encode("heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", "lossless.heic", "source.png"])
        try encode("avifenc", ["-l", "source.png", "lossless.avif"])
        let heic = try decode("lossless.heic"), avif = try decode("lossless.avif")
        #expect(heic.format == .heif && avif.format == .avif)
        #expect(Self.differs(avif.image, image) == nil && !avif.image.hasAlpha)
        // heif-enc's lossless HEIC is a level off here and there (its own RGB to GBR samples):
        // libheif's own decode (heif-convert) is the judge, the source within a level.
        let r = try Tool.run("heif-convert", [path("lossless.heic"), path("libheif.png")])
        #expect(r.status == 0, "heif-convert: \(r.stderr)")
        var stored = DecodeOptions()
        stored.autoOrient = false
        let libheif = try Pictures.decode(contentsOf: path("libheif.png"), options: stored).image
        #expect(Self.differs(heic.image, libheif) == nil && !heic.image.hasAlpha)
        #expect(zip(heic.image.pixels, image.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        let info = try Pictures.info(.file(path("lossless.heic")))
        #expect(info.width == 64 && info.height == 48 && info.storedWidth == 64 && info.orientation == .up)
    }

    @Test func alphaComesOutStraight() throws {
        let image = Self.picture(48, 32, alpha: true)
        try write(PictureEncoder.png(image), "alpha.png")
        try encode("avifenc", ["-l", "alpha.png", "alpha.avif"])
        let avif = try decode("alpha.avif")
        #expect(avif.image.hasAlpha && Self.differs(avif.image, image) == nil)
        #expect(try Pictures.info(.file(path("alpha.avif"))).hasAlpha == true)
        // 10 bits with alpha (libheif's planes, alpha among them); alpha never 0 so that the colour
        // is defined.
        let value = { (i: Int) in i % 4 == 3 ? 1023 - (i / 4 % 1000) : (i * 37) % 1024 }
        try write(Self.deepPNG(32, 16, bits: 10, alpha: true, value: value), "alpha10.png")
        try encode("avifenc", ["-l", "-d", "10", "alpha10.png", "alpha10.avif"])
        let expected = (0..<32 * 16 * 4).map { UInt8((value($0) * 255 + 511) / 1023) }
        let deep = try decode("alpha10.avif")
        #expect(deep.image.hasAlpha && Self.differs(deep.image, RasterImage(width: 32, height: 16, pixels: expected)) == nil)
    }

    @Test func lossyHEICStaysCloseToItsSource() throws {
        let image = Fixture.gradient(128, 96)
        try write(PictureEncoder.png(image, dropAlpha: true), "smooth.png")
        try encode("heif-enc", ["-q", "90", "-o", "lossy.heic", "smooth.png"])
        let decoded = try decode("lossy.heic").image
        var total = 0, worst = 0
        for i in 0..<decoded.pixels.count where i % 4 != 3 {
            let d = abs(Int(decoded.pixels[i]) - Int(image.pixels[i]))
            total += d
            worst = max(worst, d)
        }
        let mean = Double(total) / Double(128 * 96 * 3)
        #expect(mean <= 1.5 && worst <= 12, "quality 90 HEIC: mean \(mean), worst \(worst) levels from the source")
    }

    @Test func tenAndTwelveBitSamplesRoundToTheNearestEightBitValue() throws {
        for bits in [10, 12] {
            let max = (1 << bits) - 1
            let value = { (i: Int) in (i * 37 + i / 3 * 11) % (max + 1) }
            try write(Self.deepPNG(64, 32, bits: bits, value: value), "deep\(bits).png")
            try encode("heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-b", "\(bits)",
                                    "-o", "deep\(bits).heic", "deep\(bits).png"])
            try encode("avifenc", ["-l", "-d", "\(bits)", "deep\(bits).png", "deep\(bits).avif"])
            var expected: [UInt8] = []
            for p in 0..<64 * 32 {
                expected += (0..<3).map { UInt8((value(p * 3 + $0) * 255 + max / 2) / max) } + [255]
            }
            // avifenc's lossless AVIF holds the samples exactly: they must round exactly.
            let want = RasterImage(width: 64, height: 32, pixels: expected)
            #expect(try Pictures.info(.file(path("deep\(bits).avif"))).width == 64)
            #expect(Self.differs(try decode("deep\(bits).avif").image, want) == nil, "\(bits)-bit AVIF samples rounded")
            // heif-enc's lossless HEIC is a level off here and there (as at 8 bits).
            let heic = try decode("deep\(bits).heic").image
            #expect(heic.width == 64 && zip(heic.pixels, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                    "\(bits)-bit HEIC: \(Self.differs(heic, want) ?? "")")
        }
    }

    @Test func transformationsAreLibheifsAndTheEXIFOrientationIsNotAppliedOnTop() throws {
        let image = Self.picture(40, 24)
        try write(PictureEncoder.png(image, dropAlpha: true), "t.png")
        // avifenc turns an EXIF orientation into irot/imir and keeps the EXIF too, as phones do:
        // "exif6" has irot 3 and an EXIF orientation of 6, which must turn the picture once.
        try write(PictureBytes.exif(orientation: 6, bigEndian: false), "exif.bin")
        let cases: [(name: String, arguments: [String], size: (Int, Int))] = [
            ("plain", [], (40, 24)),
            ("irot1", ["--irot", "1"], (24, 40)),
            ("irot3", ["--irot", "3"], (24, 40)),
            ("imir0", ["--imir", "0"], (40, 24)),
            ("imir1", ["--imir", "1"], (40, 24)),
            ("both", ["--irot", "1", "--imir", "1"], (24, 40)),
            ("clap", ["--crop", "4,6,20,12"], (20, 12)),
            ("exif6", ["--exif", "exif.bin"], (24, 40)),
        ]
        var stored = DecodeOptions()
        stored.autoOrient = false
        for c in cases {
            try encode("avifenc", ["-l"] + c.arguments + ["t.png", "\(c.name).avif"])
            let r = try Tool.run("heif-convert", [path("\(c.name).avif"), path("\(c.name)-libheif.png")])
            #expect(r.status == 0, "heif-convert: \(r.stderr)")
            // heif-convert copies the EXIF into the PNG: read its pixels as stored.
            let libheif = try Pictures.decode(contentsOf: path("\(c.name)-libheif.png"), options: stored).image
            let info = try Pictures.info(.file(path("\(c.name).avif")))
            let decoded = try decode("\(c.name).avif")
            #expect(info.width == c.size.0 && info.height == c.size.1 && info.orientation == .up, "\(c.name) header")
            #expect(Self.differs(decoded.image, libheif) == nil, "\(c.name): as heif-convert shows it")
            #expect(decoded.image.width == c.size.0 && decoded.image.height == c.size.1, "\(c.name) size")
            // --no-auto-orient: the coded pixels, untransformed.
            #expect(Self.differs(try decode("\(c.name).avif", stored).image, image) == nil, "\(c.name) stored")
            #expect(info.decodedSize(autoOrient: false) == (40, 24))
        }
        // irot 1 is a quarter turn anticlockwise: the stored top-right pixel is the top-left one.
        let turned = try decode("irot1.avif").image
        #expect(Array(turned.pixels[0..<4]) == Array(image.pixels[39 * 4..<40 * 4]))
        #expect(Self.differs(try decode("exif6.avif").image, try decode("irot3.avif").image) == nil,
                "irot 3 with EXIF 6 is turned once, as irot 3 alone")
        // A HEIC whose EXIF says 6 and that has no irot (heif-enc copies a JPEG's EXIF as it is):
        // not turned.
        try write(PictureBytes.withEXIF(PictureEncoder.jpeg(image), PictureBytes.exif(orientation: 6, bigEndian: false)),
                  "exif.jpg")
        try encode("heif-enc", ["-q", "80", "-o", "exif.heic", "exif.jpg"])
        let heic = try decode("exif.heic")
        #expect(heic.image.width == 40 && heic.image.height == 24 && heic.orientation == .up)
    }

    @Test func nclxAndICCColourConvertAsForTheOtherFormats() throws {
        let image = Self.picture(32, 16)
        try write(PictureEncoder.png(image, dropAlpha: true), "c.png")
        // Display P3 primaries with sRGB's transfer (nclx 12/13, identity matrix for lossless).
        try encode("avifenc", ["-l", "--cicp", "12/13/0", "c.png", "p3.avif"])
        let p3: [Double] = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]
        var profile = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        #expect(ccodecs_icc_profile_h273(p3, 13, &profile, &message) == CCODECS_OK)
        let p3Profile = Array(UnsafeBufferPointer(start: profile.data, count: profile.size))
        ccodecs_free(profile.data)
        #expect(try Pictures.info(.file(path("p3.avif"))).hasICCProfile)
        let fromNCLX = try decode("p3.avif")
        let fromPNG = try Pictures.decode(data: Self.pngWithProfile(image, p3Profile))
        #expect(fromNCLX.colorConverted && fromNCLX.image.pixels == fromPNG.image.pixels, "nclx P3 as a PNG with a P3 profile")
        #expect(fromNCLX.image.pixels != image.pixels)
        // sRGB's own nclx: nothing to convert.
        try encode("avifenc", ["-l", "--cicp", "1/13/0", "c.png", "srgb.avif"])
        let srgb = try decode("srgb.avif")
        #expect(!srgb.colorConverted && srgb.image.pixels == image.pixels)
        // An ICC profile (colr prof).
        let adobe = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        try write(adobe, "adobe.icc")
        try encode("avifenc", ["-l", "--icc", "adobe.icc", "c.png", "icc.avif"])
        let fromICC = try decode("icc.avif")
        let adobePNG = try Pictures.decode(data: Self.pngWithProfile(image, adobe))
        #expect(fromICC.colorConverted && fromICC.image.pixels == adobePNG.image.pixels, "prof as iCCP")
        // PQ has no ICC profile: taken as sRGB, with a warning.
        try encode("avifenc", ["-l", "--cicp", "9/16/0", "c.png", "pq.avif"])
        let pq = try decode("pq.avif")
        #expect(pq.warningSummary?.contains("taken as sRGB") == true, "\(pq.warningSummary ?? "no warning")")
    }

    /// An opaque picture as a PNG with an iCCP chunk.
    static func pngWithProfile(_ image: RasterImage, _ profile: [UInt8]) -> [UInt8] {
        var scanlines: [UInt8] = []
        for y in 0..<image.height {
            scanlines.append(0)
            for x in 0..<image.width { scanlines += image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3] }
        }
        return Fixture.png(width: UInt32(image.width), height: UInt32(image.height), depth: 8, colorType: 2,
                           chunks: [Fixture.iCCP(profile)], scanlines: scanlines)
    }

    @Test func aStoredThumbnailIsUsedWhenItHasThePixelsNeeded() throws {
        try write(PictureEncoder.png(Fixture.gradient(256, 192), dropAlpha: true), "big.png")
        try encode("heif-enc", ["-q", "90", "-t", "64", "-o", "thumb.heic", "big.png"])
        func decode(need: (Int, Int)) throws -> DecodedPicture {
            var options = DecodeOptions()
            (options.neededWidth, options.neededHeight) = need
            return try self.decode("thumb.heic", options)
        }
        let small = try decode(need: (60, 40))
        #expect(small.image.width == 64 && small.image.height == 48)
        #expect(small.scaleNumerator == 1 && small.scaleDenominator == 4)
        let full = try decode(need: (65, 40))
        #expect(full.image.width == 256 && full.scaleDenominator == 1)
        #expect(try self.decode("thumb.heic").image.width == 256)
    }

    @Test func resizingFromLibheifsBufferGivesThePixelsOfResizingAfterwards() throws {
        let adobe = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        try write(adobe, "adobe.icc")
        try write(PictureEncoder.png(Self.picture(96, 64), dropAlpha: true), "opaque.png")
        try write(PictureEncoder.png(Self.picture(96, 64, alpha: true)), "alpha.png")
        try encode("avifenc", ["-l", "opaque.png", "opaque.avif"])
        try encode("avifenc", ["-l", "alpha.png", "alpha.avif"])
        try encode("avifenc", ["-l", "--icc", "adobe.icc", "opaque.png", "icc.avif"])
        try encode("avifenc", ["-l", "-d", "10", "opaque.png", "deep.avif"])
        for name in ["opaque.avif", "alpha.avif", "icc.avif", "deep.avif"] {
            let whole = try decode(name)
            var options = DecodeOptions()
            options.resize = ResizeRequest(width: 31, height: 20, minimumPixels: 0)
            let resized = try decode(name, options)
            // 8-bit pictures are resized from libheif's buffer; deeper ones come whole, to be resized after.
            #expect(resized.resampled == (name != "deep.avif"), "\(name)")
            let got = resized.resampled ? resized.image : Resampler.resize(resized.image, width: 31, height: 20)
            #expect(got == Resampler.resize(whole.image, width: 31, height: 20), "\(name)")
            #expect(resized.colorConverted == whole.colorConverted)
        }
    }

    @Test func sizesAreCheckedBeforeDecodingAndBadFilesRefused() throws {
        try write(PictureEncoder.png(Self.picture(64, 48), dropAlpha: true), "s.png")
        try encode("heif-enc", ["-q", "50", "-o", "s.heic", "s.png"])
        var options = DecodeOptions()
        options.maxPixels = 3000
        #expect(throws: RasterError.tooLarge(width: 64, height: 48, limit: 3000)) { try decode("s.heic", options) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("s.heic"))))
        for cut in [bytes.count / 2, bytes.count - 10, 40] {
            do {
                _ = try Pictures.decode(data: Array(bytes.prefix(cut)))
                Issue.record("a HEIC cut at \(cut) of \(bytes.count) bytes decoded")
            } catch {
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
    }

    // MARK: Grid pictures

    /// A box: its 4-byte size, type and payload (sizes below 4 GB, as here).
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        PictureBytes.be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A full box: version and 24-bit flags before the payload.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 255), UInt8(flags >> 8 & 255), UInt8(flags & 255)] + payload)
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }

    /// The boxes in `bytes[range]`: type and the whole box's range.
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [(type: String, range: Range<Int>)] {
        var found: [(String, Range<Int>)] = [], at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, at + size <= range.upperBound else { break }
            found.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), at..<at + size))
            at += size
        }
        return found
    }

    /// What a grid needs of one of heif-enc's files: the tile's decoder configuration (`hvcC`)
    /// and its coded bytes (the `mdat` payload: heif-enc stores the one picture there, and wraps
    /// it in a 1x1 grid of its own, which is left behind).
    static func tile(_ file: [UInt8]) throws -> (hvcC: [UInt8], data: [UInt8]) {
        let top = boxes(file, 0..<file.count)
        let meta = try #require(top.first { $0.type == "meta" }).range
        let iprp = try #require(boxes(file, meta.lowerBound + 12..<meta.upperBound).first { $0.type == "iprp" }).range
        let ipco = try #require(boxes(file, iprp.lowerBound + 8..<iprp.upperBound).first { $0.type == "ipco" }).range
        let hvcC = try #require(boxes(file, ipco.lowerBound + 8..<ipco.upperBound).first { $0.type == "hvcC" }).range
        let mdat = try #require(top.first { $0.type == "mdat" }).range
        return (Array(file[hvcC]), Array(file[mdat.lowerBound + 8..<mdat.upperBound]))
    }

    /// A HEIF file whose primary picture is a `grid` item (ISO/IEC 23008-12 6.6.2.3) of
    /// `columns` x `rows` hidden HEVC tiles, `width` x `height` once put together and cropped, as
    /// cameras write them (an iPhone's photo is 512x512 tiles). Debian's heif-enc cannot write
    /// one, so it is put together here, box by box, from tiles heif-enc encoded.
    static func grid(tiles: [(hvcC: [UInt8], data: [UInt8])], columns: Int, rows: Int, tileSide: Int,
                     width: Int, height: Int) -> [UInt8] {
        let gridID = tiles.count + 1
        let ftyp = box("ftyp", Array("heic".utf8) + PictureBytes.be32(0) + Array("mif1heic".utf8))
        let hdlr = fullBox("hdlr", PictureBytes.be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = fullBox("pitm", be16(gridID))
        var entries: [UInt8] = []
        for id in 1...gridID {
            // infe version 2: item ID, protection index, type, empty name; tiles hidden (flag 1).
            entries += fullBox("infe", version: 2, flags: id == gridID ? 0 : 1,
                               be16(id) + be16(0) + Array((id == gridID ? "grid" : "hvc1").utf8) + [0])
        }
        let iinf = fullBox("iinf", be16(gridID) + entries)
        let iref = fullBox("iref", box("dimg", be16(gridID) + be16(tiles.count) + (1...tiles.count).flatMap { be16($0) }))
        // The grid's description: version 0, flags 0 (16-bit sizes), rows and columns less one.
        let descriptor: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(width) + be16(height)
        let idat = box("idat", descriptor)
        // Properties: one hvcC per tile, then the tile's ispe, the grid's ispe.
        var ipco = tiles.flatMap { $0.hvcC }
        ipco += fullBox("ispe", PictureBytes.be32(UInt32(tileSide)) + PictureBytes.be32(UInt32(tileSide)))
        ipco += fullBox("ispe", PictureBytes.be32(UInt32(width)) + PictureBytes.be32(UInt32(height)))
        var ipma: [UInt8] = PictureBytes.be32(UInt32(gridID))
        for id in 1...tiles.count { ipma += be16(id) + [2, 0x80 | UInt8(id), UInt8(tiles.count + 1)] }
        ipma += be16(gridID) + [1, UInt8(tiles.count + 2)]
        let iprp = box("iprp", box("ipco", ipco) + fullBox("ipma", ipma))
        // iloc version 1, 4-byte offsets and lengths: tiles in the mdat (construction method 0,
        // offsets from the file's start), the grid's description in the idat (method 1).
        func iloc(mdatStart: Int) -> [UInt8] {
            var items: [UInt8] = [0x44, 0x00] + be16(gridID)
            var offset = mdatStart
            for (index, tile) in tiles.enumerated() {
                items += be16(index + 1) + be16(0) + be16(0) + be16(1)
                items += PictureBytes.be32(UInt32(offset)) + PictureBytes.be32(UInt32(tile.data.count))
                offset += tile.data.count
            }
            items += be16(gridID) + be16(1) + be16(0) + be16(1) + PictureBytes.be32(0)
                + PictureBytes.be32(UInt32(descriptor.count))
            return fullBox("iloc", version: 1, items)
        }
        func meta(mdatStart: Int) -> [UInt8] {
            fullBox("meta", hdlr + pitm + iloc(mdatStart: mdatStart) + iinf + iref + idat + iprp)
        }
        let metaSize = meta(mdatStart: 0).count
        return ftyp + meta(mdatStart: ftyp.count + metaSize + 8) + box("mdat", tiles.flatMap { $0.data })
    }

    /// A 2x2 grid of 64x64 tiles, cropped to 120x100, decodes to the four tiles put together
    /// and cropped (lossless: within a level of the source, the same as libheif's own
    /// `heif-convert`), with its size read from the grid's `ispe` before any tile is decoded.
    @Test func gridPicturesArePutTogetherFromTheirTiles() throws {
        let side = 64, whole = Self.picture(2 * side, 2 * side)
        var tiles: [(hvcC: [UInt8], data: [UInt8])] = []
        for (index, (column, row)) in [(0, 0), (1, 0), (0, 1), (1, 1)].enumerated() {
            var pixels: [UInt8] = []
            for y in 0..<side {
                let start = ((row * side + y) * 2 * side + column * side) * 4
                pixels += whole.pixels[start..<start + side * 4]
            }
            try write(PictureEncoder.png(RasterImage(width: side, height: side, pixels: pixels, hasAlpha: false),
                                         dropAlpha: true), "tile\(index).png")
            try encode("heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", "tile\(index).heic",
                                    "tile\(index).png"])
            tiles.append(try Self.tile([UInt8](Data(contentsOf: URL(fileURLWithPath: path("tile\(index).heic"))))))
        }
        try write(Self.grid(tiles: tiles, columns: 2, rows: 2, tileSide: side, width: 120, height: 100), "grid.heic")

        let info = try Pictures.info(.file(path("grid.heic")))
        #expect(info.format == .heif && info.width == 120 && info.height == 100)
        var small = DecodeOptions()
        small.maxPixels = 120 * 100 - 1
        #expect(throws: RasterError.tooLarge(width: 120, height: 100, limit: 120 * 100 - 1)) { try decode("grid.heic", small) }

        let decoded = try decode("grid.heic").image
        #expect(decoded.width == 120 && decoded.height == 100)
        var expected: [UInt8] = []
        for y in 0..<100 { expected += whole.pixels[(y * 2 * side) * 4..<(y * 2 * side + 120) * 4] }
        let source = RasterImage(width: 120, height: 100, pixels: expected, hasAlpha: false)
        #expect(zip(decoded.pixels, source.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 },
                "\(Self.differs(decoded, source) ?? "")")
        let r = try Tool.run("heif-convert", [path("grid.heic"), path("libheif.png")])
        #expect(r.status == 0, "heif-convert: \(r.stderr)")
        var stored = DecodeOptions()
        stored.autoOrient = false
        let libheif = try Pictures.decode(contentsOf: path("libheif.png"), options: stored).image
        #expect(Self.differs(decoded, libheif) == nil)
    }
}
