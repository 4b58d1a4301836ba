import Testing
import Foundation
import FramedTestSupport
import FramedRaster
import CCodecs

/// TIFF through libtiff: files built byte by byte (`PictureBytes.tiff`), recompressed by `tiffcp`
/// (libtiff-tools), every kind of sample the decoder reads itself checked against pixels computed
/// here.
@Suite struct TIFFTests {
    /// Samples 0...max spread over a picture, `channels` a pixel, every value met.
    static func ramp(_ width: Int, _ height: Int, channels: Int, max: Int) -> [UInt16] {
        (0..<width * height * channels).map { i in UInt16((i * 7 + i / channels * 3 + i / 5) % (max + 1)) }
    }

    static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws -> DecodedPicture {
        try Pictures.decode(data: bytes, options: options)
    }

    /// The little-endian 32-bit value at `offset`.
    static func u32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    /// Where the first directory's entry for `tag` starts in a little-endian TIFF, nil without one.
    static func entry(_ tag: Int, in bytes: [UInt8]) -> Int? {
        let directory = u32(bytes, 4), count = Int(bytes[directory]) | Int(bytes[directory + 1]) << 8
        for index in 0..<count {
            let at = directory + 2 + 12 * index
            if Int(bytes[at]) | Int(bytes[at + 1]) << 8 == tag { return at }
        }
        return nil
    }

    /// 16 bits to 8, rounded to the nearest.
    static func round16(_ v: UInt16) -> UInt8 { UInt8((Int(v) * 255 + 32767) / 65535) }

    @Test func eightBitRGBAndRGBAAreTheirSamples() throws {
        let image = Fixture.noise(37, 23)
        for bigEndian in [false, true] {
            let rgba = try Self.decode(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 37, height: 23, alpha: true)],
                                                         bigEndian: bigEndian))
            #expect(rgba.format == .tiff && rgba.image.hasAlpha)
            #expect(rgba.image.pixels == image.pixels, "unassociated alpha, \(bigEndian ? "MM" : "II")")
            let rgb = try Self.decode(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 37, height: 23, alpha: false)],
                                                        bigEndian: bigEndian))
            let opaque = image.pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
            #expect(!rgb.image.hasAlpha && rgb.image.pixels == opaque)
        }
    }

    @Test func associatedAlphaIsMadeStraight() throws {
        // Premultiplied samples: colour c * a / 255, which come back as c within rounding.
        var samples: [UInt16] = []
        var expected: [UInt8] = []
        for a in stride(from: 0, through: 255, by: 15) {
            for c in stride(from: 0, through: 255, by: 51) {
                let premultiplied = (c * a + 127) / 255
                samples += [UInt16(premultiplied), UInt16(premultiplied / 2), 0, UInt16(a)]
                let straight = { (p: Int) in a == 0 ? 0 : min(255, (p * 255 + a / 2) / a) }
                expected += [UInt8(straight(premultiplied)), UInt8(straight(premultiplied / 2)), 0, UInt8(a)]
            }
        }
        var page = TIFFPage(width: 6, height: 18, samplesPerPixel: 4, photometric: 2, samples: samples)
        page.extraSamples = [1]
        let decoded = try Self.decode(PictureBytes.tiff([page]))
        #expect(decoded.image.pixels == expected)
    }

    @Test func sixteenBitSamplesRoundToEightBits() throws {
        let samples = Self.ramp(64, 32, channels: 3, max: 65535).enumerated().map { UInt16(($0.offset * 4099) % 65536) }
        let page = TIFFPage(width: 64, height: 32, bitsPerSample: 16, samplesPerPixel: 3, photometric: 2, samples: samples)
        var expected: [UInt8] = []
        for i in stride(from: 0, to: samples.count, by: 3) { expected += samples[i..<i + 3].map(Self.round16) + [255] }
        for bigEndian in [false, true] {
            #expect(try Self.decode(PictureBytes.tiff([page], bigEndian: bigEndian)).image.pixels == expected)
        }
    }

    @Test func grayOfEveryDepthAndBothPhotometrics() throws {
        for depth in [1, 2, 4, 8, 16] {
            let max = (1 << depth) - 1
            let samples = Self.ramp(29, 11, channels: 1, max: max)
            for photometric in [0, 1] {
                var page = TIFFPage(width: 29, height: 11, bitsPerSample: depth, samplesPerPixel: 1,
                                    photometric: photometric, samples: samples)
                page.rowsPerStrip = 3
                let decoded = try Self.decode(PictureBytes.tiff([page]))
                let expected = samples.flatMap { v -> [UInt8] in
                    let value = photometric == 0 ? max - Int(v) : Int(v)
                    let gray = depth == 16 ? Self.round16(UInt16(value)) : UInt8(value * 255 / max)
                    return [gray, gray, gray, 255]
                }
                #expect(decoded.image.pixels == expected, "\(depth)-bit, photometric \(photometric)")
            }
        }
        // Gray with alpha.
        var page = TIFFPage(width: 5, height: 3, samplesPerPixel: 2, photometric: 1,
                            samples: (0..<30).map { UInt16($0 * 8) })
        page.extraSamples = [2]
        let decoded = try Self.decode(PictureBytes.tiff([page]))
        let grays: [UInt8] = (0..<15).flatMap { (i: Int) -> [UInt8] in
            let v = UInt8(i * 16)
            return [v, v, v, v + 8]
        }
        #expect(decoded.image.pixels == grays)
    }

    @Test func palettesOfEveryDepth() throws {
        for depth in [1, 2, 4, 8] {
            let entries = 1 << depth
            let colorMap = (0..<3 * entries).map { UInt16(($0 * 40503) % 65536) }
            var page = TIFFPage(width: 13, height: 7, bitsPerSample: depth, samplesPerPixel: 1, photometric: 3,
                                samples: Self.ramp(13, 7, channels: 1, max: entries - 1))
            page.colorMap = colorMap
            let decoded = try Self.decode(PictureBytes.tiff([page]))
            let expected = page.samples.flatMap { (i: UInt16) -> [UInt8] in
                [Self.round16(colorMap[Int(i)]), Self.round16(colorMap[entries + Int(i)]),
                 Self.round16(colorMap[2 * entries + Int(i)]), 255]
            }
            #expect(decoded.image.pixels == expected, "\(depth)-bit palette")
        }
    }

    @Test func planarFilesAndTilesGiveTheSamePixels() throws {
        let image = Fixture.noise(70, 45)
        let reference = try Self.decode(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 70, height: 45, alpha: true)]))
        var planar = TIFFPage(rgba: image.pixels, width: 70, height: 45, alpha: true)
        planar.planar = 2
        var tiled = TIFFPage(rgba: image.pixels, width: 70, height: 45, alpha: true)
        tiled.tile = (32, 16)
        var both = tiled
        both.planar = 2
        for (name, page) in [("planar", planar), ("tiled", tiled), ("planar tiles", both)] {
            #expect(try Self.decode(PictureBytes.tiff([page])).image == reference.image, "\(name)")
        }
    }

    @Test func everyCompressionLibtiffWritesDecodesToTheSamePixels() throws {
        let folder = try TemporaryFolder.make("framed-tiff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = Fixture.gradient(120, 90, alpha: { x, y in UInt8((x * 2 + y) % 256) })
        let source = folder.appendingPathComponent("plain.tif")
        try Data(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 120, height: 90, alpha: true)])).write(to: source)
        #expect(Tool.exists("tiffcp"), "tiffcp (libtiff-tools, in the Makefile's TEST_PACKAGES) is needed")
        for (name, arguments) in [("lzw", ["-c", "lzw:2"]), ("deflate", ["-c", "zip"]), ("packbits", ["-c", "packbits"]),
                                  ("tiles", ["-c", "lzw", "-t", "-w", "32", "-l", "32"]), ("planar", ["-p", "separate"])] {
            let out = folder.appendingPathComponent("\(name).tif")
            let r = try Tool.run("tiffcp", arguments + [source.path, out.path])
            #expect(r.status == 0, "tiffcp \(name): \(r.stderr)")
            let decoded = try Pictures.decode(contentsOf: out.path)
            #expect(decoded.image.pixels == image.pixels, "\(name)")
        }
        // JPEG inside TIFF (YCbCr, decoded by libjpeg as RGB): lossy, close to the source.
        let opaque = folder.appendingPathComponent("opaque.tif")
        try Data(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 120, height: 90, alpha: false)])).write(to: opaque)
        let jpeg = folder.appendingPathComponent("jpeg.tif")
        let r = try Tool.run("tiffcp", ["-c", "jpeg:95", "-r", "16", opaque.path, jpeg.path])
        #expect(r.status == 0, "tiffcp jpeg: \(r.stderr)")
        let decoded = try Pictures.decode(contentsOf: jpeg.path).image
        let worst = zip(decoded.pixels, image.pixels).enumerated().filter { $0.offset % 4 != 3 }
            .map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 255
        #expect(worst <= 12, "JPEG-compressed TIFF within 12 levels of the source: \(worst)")
    }

    @Test func orientationTagTurnsThePictureAndResolutionTagsGiveItsResolution() throws {
        // 4x2 stored: left column red, the rest blue; orientation 6 (turn clockwise).
        let pixels = (0..<8).flatMap { i -> [UInt8] in i % 4 == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        var page = TIFFPage(rgba: pixels, width: 4, height: 2, alpha: false)
        page.orientation = 6
        page.resolution = (118, 3)  // 118 per centimetre: 299.72 dpi
        let bytes = PictureBytes.tiff([page])
        let info = try Pictures.info(data: bytes)
        #expect(info.orientation == .right && info.orientedSize == (2, 4))
        #expect(abs((info.resolution ?? 0) - 299.72) < 0.01)
        let turned = try Self.decode(bytes)
        #expect(turned.image.width == 2 && turned.image.height == 4 && turned.orientation == .right)
        #expect(Array(turned.image.pixels[0..<8]) == [255, 0, 0, 255, 255, 0, 0, 255], "the red column is the top row")
        var keep = DecodeOptions()
        keep.autoOrient = false
        let stored = try Self.decode(bytes, options: keep)
        #expect(stored.image.width == 4 && stored.image.pixels == pixels)
    }

    @Test func cmykIsConvertedAsCMYKJPEGsAre() throws {
        var samples: [UInt16] = []
        for i in 0..<48 * 16 { samples += [UInt16(i * 7 % 256), UInt16(i * 3 % 256), UInt16(255 - i % 256), UInt16(i % 64)] }
        let page = TIFFPage(width: 48, height: 16, samplesPerPixel: 4, photometric: 5, samples: samples)
        func expected(_ profile: [UInt8]?) -> [UInt8] {
            var pixels = samples.map { UInt8($0) }
            var converted: Int32 = 0
            var warning = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
            var message = warning
            let icc = profile ?? []
            _ = ccodecs_color_to_srgb(&pixels, 48, 16, CCODECS_PIXELS_CMYK, profile == nil ? nil : icc, icc.count,
                                      CCODECS_INTENT_PERCEPTUAL, ColorManagement.defaultCMYKProfilePath, &converted,
                                      &warning, &message)
            return pixels
        }
        let plain = try Self.decode(PictureBytes.tiff([page]))
        #expect(plain.colorConverted && !plain.image.hasAlpha)
        #expect(plain.image.pixels == expected(nil), "without a profile: the default CMYK profile")
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ColorManagement.defaultCMYKProfilePath)))
        var tagged = page
        tagged.icc = profile
        let info = try Pictures.info(data: PictureBytes.tiff([tagged]))
        #expect(info.isCMYK && info.hasICCProfile)
        #expect(try Self.decode(PictureBytes.tiff([tagged]), options: DecodeOptions(cmykProfilePath: nil)).image.pixels
                == expected(profile), "with its own profile")
    }

    @Test func anICCProfileConvertsRGB() throws {
        let image = Fixture.gradient(40, 30)
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        var page = TIFFPage(rgba: image.pixels, width: 40, height: 30, alpha: false)
        page.icc = profile
        let tiff = try Self.decode(PictureBytes.tiff([page]))
        var scanlines: [UInt8] = []
        for y in 0..<30 {
            scanlines.append(0)
            for x in 0..<40 { scanlines += image.pixels[(y * 40 + x) * 4..<(y * 40 + x) * 4 + 3] }
        }
        let png = try Pictures.decode(data: Fixture.png(width: 40, height: 30, depth: 8, colorType: 2,
                                                        chunks: [Fixture.iCCP(profile)], scanlines: scanlines))
        #expect(tiff.colorConverted && tiff.image.pixels == png.image.pixels, "as a PNG with the same profile")
    }

    @Test func theFirstOfSeveralPagesWithAWarningNamingTheRest() throws {
        let pages = (0..<4).map { i in
            TIFFPage(rgba: [UInt8](repeating: UInt8(60 * i), count: 8 * 8 * 4), width: 8, height: 8, alpha: false)
        }
        let decoded = try Self.decode(PictureBytes.tiff(pages))
        #expect(decoded.image.pixels[0] == 0)
        #expect(decoded.warningSummary == "TIFF of 4 pages: only the first is used, 3 left out")
        #expect(try Self.decode(PictureBytes.tiff([pages[1]])).warningSummary == nil)
    }

    @Test func aPyramidLevelWithThePixelsNeededIsReadInstead() throws {
        // A 400x300 page, then reduced versions of 200x150 and 100x75 in colours of their own.
        func level(_ width: Int, _ height: Int, _ value: UInt8, reduced: Bool) -> TIFFPage {
            var page = TIFFPage(rgba: [UInt8](repeating: value, count: width * height * 4), width: width, height: height,
                                alpha: false)
            if reduced { page.subfileType = 1 }
            page.rowsPerStrip = 16
            return page
        }
        let bytes = PictureBytes.tiff([level(400, 300, 10, reduced: false), level(200, 150, 20, reduced: true),
                                       level(100, 75, 30, reduced: true)])
        func decode(need: (Int, Int)) throws -> DecodedPicture {
            var options = DecodeOptions()
            (options.neededWidth, options.neededHeight) = need
            return try Self.decode(bytes, options: options)
        }
        let small = try decode(need: (90, 60))
        #expect(small.image.width == 100 && small.image.pixels[0] == 30)
        #expect(small.scaleNumerator == 1 && small.scaleDenominator == 4)
        #expect(small.warningSummary == nil, "pyramid levels are no pages")
        let middle = try decode(need: (101, 60))
        #expect(middle.image.width == 200 && middle.image.pixels[0] == 20)
        let full = try decode(need: (201, 60))
        #expect(full.image.width == 400 && full.image.pixels[0] == 10 && full.scaleDenominator == 1)
        #expect(try Self.decode(bytes).image.width == 400, "no need said: the page")
    }

    @Test func resizingWhileTheRowsComeGivesThePixelsOfResizingAfterwards() throws {
        let image = Fixture.noise(301, 97)
        for (alpha, tile) in [(false, false), (true, false), (true, true)] {
            var page = TIFFPage(rgba: image.pixels, width: 301, height: 97, alpha: alpha)
            page.rowsPerStrip = 7
            if tile { page.tile = (64, 32) }
            let bytes = PictureBytes.tiff([page])
            let whole = try Self.decode(bytes).image
            for threads in [1, 2] {
                // Two threads: the bands are decoded on a second one while the first resamples.
                var options = DecodeOptions()
                options.threads = threads
                options.resize = ResizeRequest(width: 100, height: 31, minimumPixels: 0)
                let resized = try Self.decode(bytes, options: options)
                #expect(resized.resampled && resized.image == Resampler.resize(whole, width: 100, height: 31),
                        "alpha \(alpha), tiles \(tile), \(threads) threads")
            }
        }
        // Cut short: the same one-line error as when the picture is read whole.
        var page = TIFFPage(rgba: image.pixels, width: 301, height: 97, alpha: false)
        page.rowsPerStrip = 7
        var bytes = PictureBytes.tiff([page])
        bytes.replaceSubrange(8..<50_000, with: [])
        var options = DecodeOptions()
        options.resize = ResizeRequest(width: 100, height: 31, minimumPixels: 0)
        #expect(throws: RasterError.self) { try Self.decode(bytes, options: options) }
        do { _ = try Self.decode(bytes, options: options) } catch let error as RasterError {
            #expect(error == (try? Self.decode(bytes)).map { _ in RasterError.empty } ?? error, "\(error)")
            guard case .corrupt(.tiff, _) = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func badFilesAreRefusedInOneLine() throws {
        let image = Fixture.noise(64, 64)
        let good = PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 64, height: 64, alpha: false)])
        // Cut short in the middle of the strips (the directory, at the end, is gone too).
        #expect(throws: RasterError.self) { try Self.decode(Array(good.prefix(good.count / 2))) }
        // Directory kept, strips cut: move the data's end away by dropping bytes in the middle.
        var page = TIFFPage(rgba: image.pixels, width: 64, height: 64, alpha: false)
        page.rowsPerStrip = 64
        var oneStrip = PictureBytes.tiff([page])
        oneStrip.replaceSubrange(8..<8 + 4096, with: [])
        do {
            _ = try Self.decode(oneStrip)
            Issue.record("a TIFF whose strip runs past the end decoded")
        } catch let error as RasterError {
            #expect(!error.description.contains("\n") && !error.description.isEmpty)
        }
        // Floating-point samples: a valid file framed does not read.
        var float = TIFFPage(width: 2, height: 2, bitsPerSample: 32, samplesPerPixel: 1, photometric: 1,
                             samples: [0, 0, 0, 0])
        float.sampleFormat = 3
        #expect(throws: RasterError.unsupportedContent(.tiff, "TIFF with floating-point samples is not supported")) {
            try Self.decode(PictureBytes.tiff([float]))
        }
    }

    /// Issue 32: a tile that cannot be read is an error wherever it is. libtiff's RGBA interface
    /// (which reads what framed's own loops do not: CIELab here) went on past a tile that failed
    /// when it was not the first of a band, and the picture framed without a word with another
    /// tile's pixels in its place; only a band's first tile said "Read error". Tile 5 of this
    /// 128x64 picture (32x32 tiles: one band of 64 rows) is moved to the file's last 10 bytes,
    /// as in a file cut short; the same fault in RGB, which framed reads itself, fails too.
    @Test func aTileCutShortIsAnErrorWhereverItIs() throws {
        for photometric in [8, 2] {
            let samples: [UInt16] = (0..<128 * 64 * 3).map { (i: Int) -> UInt16 in UInt16((i * 7 + i / 384) % 256) }
            var page = TIFFPage(width: 128, height: 64, samplesPerPixel: 3, photometric: photometric, samples: samples)
            page.tile = (32, 32)
            let whole = PictureBytes.tiff([page])
            #expect(try Self.decode(whole).image.width == 128, "photometric \(photometric), whole")
            var cut = whole
            let entry = try #require(Self.entry(324, in: cut), "TileOffsets")
            let offsets = Self.u32(cut, entry + 8), moved = cut.count - 10
            for k in 0..<4 { cut[offsets + 4 * 5 + k] = UInt8(truncatingIfNeeded: moved >> (8 * k)) }
            do {
                let decoded = try Self.decode(cut)
                Issue.record("photometric \(photometric): a tile cut short framed, \(decoded.warningCount) warnings")
            } catch let error as RasterError {
                guard case .corrupt(.tiff, let reason) = error else {
                    Issue.record("photometric \(photometric): \(error)")
                    continue
                }
                #expect(reason.contains("Read error"), "photometric \(photometric): \(reason)")
            }
        }
    }

    /// Issue 32: a tile is decoded whole, so a tile over the pixel limit is over it, however
    /// small the picture: a 64x64 picture whose TileWidth and TileLength say 1048576 (a tile of a
    /// terapixel, which libtiff would allocate) is refused as too large, not "out of memory".
    @Test func aTileOverThePixelLimitIsRefusedAsTooLarge() throws {
        var page = TIFFPage(width: 64, height: 64, samplesPerPixel: 1, photometric: 1, samples: Array(repeating: 9, count: 64 * 64))
        page.tile = (16, 16)
        var bytes = PictureBytes.tiff([page])
        #expect(try Self.decode(bytes).image.width == 64)
        for tag in [322, 323] {  // TileWidth, TileLength: one LONG each, in the entry
            let at = try #require(Self.entry(tag, in: bytes))
            bytes.replaceSubrange(at + 8..<at + 12, with: [0x00, 0x00, 0x10, 0x00])
        }
        #expect(throws: RasterError.tooLarge(width: 1 << 20, height: 1 << 20, limit: 256_000_000)) { try Self.decode(bytes) }
        // A 16x8 picture in one 32x32 tile: within a limit of 1024 pixels, over one of 1023.
        var small = TIFFPage(width: 16, height: 8, samplesPerPixel: 1, photometric: 1, samples: Array(repeating: 9, count: 128))
        small.tile = (32, 32)
        #expect(try Self.decode(PictureBytes.tiff([small]), options: DecodeOptions(maxPixels: 1024)).image.width == 16)
        #expect(throws: RasterError.tooLarge(width: 32, height: 32, limit: 1023)) {
            try Self.decode(PictureBytes.tiff([small]), options: DecodeOptions(maxPixels: 1023))
        }
    }

    @Test func aHugeSizeInAFewBytesIsRefusedBeforeDecoding() throws {
        var page = TIFFPage(width: 1, height: 1, samplesPerPixel: 1, photometric: 1, samples: [0])
        page.rowsPerStrip = 1
        var bytes = PictureBytes.tiff([page])
        // ImageWidth and ImageLength (LONG, little-endian) set to 100000 each: 10 gigapixels.
        for tag: UInt8 in [0x00, 0x01] {
            let at = (0..<bytes.count - 12).first { bytes[$0] == tag && bytes[$0 + 1] == 0x01 && bytes[$0 + 2] == 4 }!
            bytes.replaceSubrange(at + 8..<at + 12, with: [0xA0, 0x86, 0x01, 0x00])
        }
        #expect(throws: RasterError.tooLarge(width: 100000, height: 100000, limit: 256_000_000)) {
            try Self.decode(bytes)
        }
        let info = try Pictures.info(data: bytes)
        #expect(info.width == 100000 && info.height == 100000)
    }
}
