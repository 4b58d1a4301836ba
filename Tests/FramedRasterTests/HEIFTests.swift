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

    // MARK: What the decoders code (issue 32)

    /// A flat picture, quick to code at any size.
    static func flat(_ width: Int, _ height: Int) -> RasterImage {
        RasterImage(width: width, height: height, pixels: [UInt8](repeating: 180, count: width * height * 4), hasAlpha: false)
    }

    /// The coded image of `png` as heif-enc and avifenc code it.
    func codedBoth(_ png: String) throws -> [HEIFBytes.Coded] {
        try encode("heif-enc", ["-q", "50", "-o", png + ".heic", png])
        try encode("avifenc", ["-s", "10", png, png + ".avif"])
        return try [".heic", ".avif"].map { try #require(HEIFBytes.coded(from: [UInt8](Data(contentsOf: URL(fileURLWithPath: path(png + $0)))))) }
    }

    /// `ccodecs_heif_coded_size` of the primary image of `bytes`.
    static func codedSize(_ bytes: [UInt8]) -> (width: UInt64, height: UInt64, message: String?) {
        var width: UInt64 = 0, height: UInt64 = 0
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { data in
            var input = ccodecs_input(data: data.baseAddress, fd: -1, size: data.count)
            return ccodecs_heif_coded_size(&input, 0, &width, &height, &message)
        }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (width, height, status == CCODECS_OK ? nil : text)
    }

    /// libheif checks a picture's size against its `ispe` alone, but libde265 and dav1d allocate
    /// what the HEVC sequence parameter set and the AV1 headers say: a flat 2048x2048 picture
    /// whose ispe says 64x64 is over a limit of 10000 pixels as 2048x2048, before it is decoded,
    /// and so is such a picture as the alpha plane of a small one. The coded sizes are read from
    /// heif-enc's and avifenc's files: a 333x77 picture is 336x80 in HEVC (x265 codes whole 8x8
    /// blocks) and 333x77 in AV1.
    @Test func theCodedSizeIsCheckedNotTheISPEAlone() throws {
        try write(PictureEncoder.png(Self.flat(2048, 2048), dropAlpha: true), "flat.png")
        try write(PictureEncoder.png(Self.picture(333, 77), dropAlpha: true), "odd.png")
        for (big, odd) in zip(try codedBoth("flat.png"), try codedBoth("odd.png")) {
            let lying = HEIFBytes.single(big, ispe: (64, 64))
            #expect(try Pictures.info(data: lying).width == 64, "\(big.type): the ispe is what the header says")
            #expect(Self.codedSize(lying) == (2048, 2048, nil), "\(big.type)")
            #expect(throws: RasterError.tooLarge(width: 2048, height: 2048, limit: 10000), "\(big.type)") {
                try Pictures.decode(data: lying, options: DecodeOptions(maxPixels: 10000))
            }
            // The alpha plane is decoded too: a 2048x2048 one behind a 334x78 picture.
            let shown = odd.type == "hvc1" ? (width: 334, height: 78) : (width: 333, height: 77)
            let alpha = HEIFBytes.single(odd, ispe: shown, alpha: big)
            #expect(Self.codedSize(alpha) == (2048, 2048, nil), "\(big.type) alpha")
            #expect(throws: RasterError.tooLarge(width: 2048, height: 2048, limit: 30000), "\(big.type) alpha") {
                try Pictures.decode(data: alpha, options: DecodeOptions(maxPixels: 30000))
            }
            // heif-enc codes 4:2:0 at even sizes, 334x78, which its clap box (left out here) crops.
            let expected: (UInt64, UInt64) = odd.type == "hvc1" ? (336, 80) : (333, 77)
            let size = Self.codedSize(HEIFBytes.single(odd, ispe: shown))
            #expect(size.width == expected.0 && size.height == expected.1 && size.message == nil, "\(odd.type): \(size)")
            #expect(try Pictures.decode(data: HEIFBytes.single(odd, ispe: shown), options: DecodeOptions(maxPixels: 336 * 80))
                .image.width == shown.width, "\(odd.type): within a limit of its coded size")
        }
    }

    /// A grid asks for each of its tiles: 16x16 tiles that all share one coded 64x64 picture
    /// (a few hundred bytes) code 1024x1024 pixels for a canvas and an ispe of 64x64, and are
    /// over a limit of 100000 pixels as that; a canvas of 100000x100000 over 2x2 such tiles is
    /// more than they cover, and refused. A grid that is its own tile is refused for nesting,
    /// never followed (libheif would follow it until its stack ran out).
    @Test func aGridIsCheckedForItsTilesAndItsCanvas() throws {
        try write(PictureEncoder.png(Self.picture(64, 64), dropAlpha: true), "tile.png")
        for tile in try codedBoth("tile.png") {
            let many = HEIFBytes.grid([tile], columns: 16, rows: 16, canvas: (64, 64), tileISPE: (64, 64))
            #expect(Self.codedSize(many) == (1024, 1024, nil), "\(tile.type)")
            #expect(throws: RasterError.tooLarge(width: 1024, height: 1024, limit: 100_000), "\(tile.type)") {
                try Pictures.decode(data: many, options: DecodeOptions(maxPixels: 100_000))
            }
            let fits = HEIFBytes.grid([tile], columns: 2, rows: 2, canvas: (120, 100), tileISPE: (64, 64))
            #expect(try Pictures.decode(data: fits, options: DecodeOptions(maxPixels: 128 * 128)).image.width == 120, "\(tile.type)")
            let canvas = HEIFBytes.grid([tile], columns: 2, rows: 2, canvas: (100_000, 100_000), ispe: (64, 64), tileISPE: (64, 64))
            #expect(Self.codedSize(canvas).message == "its 100000x100000 grid is more than its 2x2 tiles of 64x64 cover",
                    "\(tile.type): \(Self.codedSize(canvas))")
            #expect(throws: RasterError.corrupt(tile.type == "hvc1" ? .heif : .avif,
                                                "its 100000x100000 grid is more than its 2x2 tiles of 64x64 cover")) {
                try Pictures.decode(data: canvas)
            }
            // The grid's reference to its one tile (item 2) made a reference to itself (item 1).
            var looped = HEIFBytes.grid([tile], columns: 1, rows: 1, canvas: (64, 64), tileISPE: (64, 64))
            let dimg = try #require((0..<looped.count - 4).first { looped[$0..<$0 + 4].elementsEqual("dimg".utf8) })
            #expect(looped[dimg + 8..<dimg + 10].elementsEqual([0, 2]))
            looped[dimg + 9] = 1
            #expect(Self.codedSize(looped).message == "its images refer to each other deeper than 8 levels", "\(tile.type)")
            #expect(throws: RasterError.self) { try Pictures.decode(data: looped) }
        }
    }

    /// An AV1 frame header may give its frame a size of its own (frame_size_override_flag), up
    /// to what the sequence header's bit widths allow (dav1d 1.0 takes it as it is): the
    /// frame's size is what counts. A sequence header (not reduced) of 64x64 at most in 16-bit
    /// sizes, then a key frame of 2048x2048, written bit by bit here: 2048x2048 coded, over a
    /// limit of a megapixel; the same frame without the override is 64x64.
    @Test func anAV1FrameThatSaysItsOwnSizeIsCheckedForIt() throws {
        func bits(_ fields: [(value: Int, count: Int)]) -> [UInt8] {
            var out: [UInt8] = [], used = 0
            for (value, count) in fields {
                for k in stride(from: count - 1, through: 0, by: -1) {
                    if used % 8 == 0 { out.append(0) }
                    if value >> k & 1 == 1 { out[out.count - 1] |= UInt8(0x80 >> (used % 8)) }
                    used += 1
                }
            }
            return out
        }
        // Sequence header: profile 0, not still, not reduced, no timing info, no initial display
        // delay, one operating point (idc 0, level 0), 16-bit sizes, 64x64 at most, no frame
        // ids, tools off, no order hints, screen content tools off; then padding.
        let sequence = bits([(0, 3), (0, 1), (0, 1), (0, 1), (0, 1), (0, 5), (0, 12), (0, 5), (15, 4), (15, 4),
                             (63, 16), (63, 16), (0, 1), (0, 3), (0, 4), (0, 1), (0, 1), (0, 1), (0, 16)])
        func frame(override: Bool) -> [UInt8] {
            // Not shown before, a key frame, shown; cdf updates on; size override; 2048x2048.
            bits([(0, 1), (0, 2), (1, 1), (0, 1), (override ? 1 : 0, 1)] + (override ? [(2047, 16), (2047, 16)] : []) + [(0, 16)])
        }
        func obu(_ type: Int, _ payload: [UInt8]) -> [UInt8] { [UInt8(type << 3 | 2), UInt8(payload.count)] + payload }
        for override in [true, false] {
            let data = obu(2, []) + obu(1, sequence) + obu(3, frame(override: override))
            let av1C: [UInt8] = [0, 0, 0, UInt8(12 + 2 + sequence.count)] + Array("av1C".utf8) + [0x81, 0, 0x0C, 0] + obu(1, sequence)
            let file = HEIFBytes.single(HEIFBytes.Coded(type: "av01", config: av1C, data: data), ispe: (64, 64))
            let size = Self.codedSize(file)
            #expect(override ? size == (2048, 2048, nil) : size == (64, 64, nil), "override \(override): \(size)")
            if override {
                #expect(throws: RasterError.tooLarge(width: 2048, height: 2048, limit: 1_000_000)) {
                    try Pictures.decode(data: file, options: DecodeOptions(maxPixels: 1_000_000))
                }
            }
        }
    }

    // MARK: Grid pictures

    /// A tile: what `HEIFBytes` needs of one of heif-enc's files (its `hvcC` and its coded bytes).
    static func tile(_ file: [UInt8]) throws -> HEIFBytes.Coded { try #require(HEIFBytes.coded(from: file)) }

    /// A 2x2 grid of 64x64 tiles, cropped to 120x100, decodes to the four tiles put together
    /// and cropped (lossless: within a level of the source, the same as libheif's own
    /// `heif-convert`), with its size read from the grid's `ispe` before any tile is decoded.
    @Test func gridPicturesArePutTogetherFromTheirTiles() throws {
        let side = 64, whole = Self.picture(2 * side, 2 * side)
        var tiles: [HEIFBytes.Coded] = []
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
        try write(HEIFBytes.grid(tiles, columns: 2, rows: 2, canvas: (120, 100), tileISPE: (side, side)), "grid.heic")

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
