import Foundation
import FramedTestSupport
import Testing
import FramedRaster
import CCodecs

@Suite struct CMYKTests {
    /// Ink amounts (C, M, Y, K; 255 = full ink), one 16x16 patch each.
    static let inks: [[UInt8]] = [
        [0, 0, 0, 0], [255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0], [0, 0, 0, 255], [128, 64, 0, 32],
        [20, 200, 180, 10], [255, 255, 255, 255], [100, 100, 100, 0], [0, 128, 255, 64], [60, 0, 90, 140],
    ]
    static let width = 16 * inks.count, height = 16

    enum Variant: String, CaseIterable { case plain, adobe, ycck
        var flags: Int32 { switch self { case .plain: 0; case .adobe: CCODECS_JPEG_ADOBE; case .ycck: CCODECS_JPEG_YCCK } }
        var inverted: Bool { self != .plain }
    }

    /// The patches as a CMYK JPEG; with an Adobe marker the samples are stored inverted, as
    /// Photoshop does (0 = full ink).
    static func jpeg(_ variant: Variant, arithmetic: Bool = false) -> [UInt8] {
        var samples: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { samples += inks[x / 16].map { variant.inverted ? 255 - $0 : $0 } }
        }
        return Fixture.cmykJPEG(samples, width: width, height: height,
                                flags: variant.flags | (arithmetic ? CCODECS_JPEG_ARITHMETIC : 0))
    }

    /// The ink amounts that the file really holds at each patch's centre (after JPEG's rounding).
    static func storedInks(_ bytes: [UInt8]) -> [[UInt8]] {
        let raw = Fixture.rawJPEG(bytes)
        let inverted = raw.format == CCODECS_PIXELS_CMYK_INVERTED
        return (0..<inks.count).map { i in
            let at = ((8 * raw.width) + 16 * i + 8) * 4
            return raw.pixels[at..<at + 4].map { inverted ? 255 - $0 : $0 }
        }
    }

    static func centres(_ image: RasterImage) -> [(UInt8, UInt8, UInt8)] {
        (0..<inks.count).map { let p = image.pixel(x: 16 * $0 + 8, y: 8); return (p.r, p.g, p.b) }
    }

    @Test(arguments: Variant.allCases)
    func markerDecidesInversion(variant: Variant) throws {
        let bytes = Self.jpeg(variant)
        let info = try Pictures.info(data: bytes)
        #expect(info.isCMYK && !info.hasICCProfile && !(info.hasAlpha ?? true))
        #expect(Fixture.rawJPEG(bytes).format == (variant.inverted ? CCODECS_PIXELS_CMYK_INVERTED : CCODECS_PIXELS_CMYK))
        for (stored, ink) in zip(Self.storedInks(bytes), Self.inks) {
            #expect(zip(stored, ink).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "\(stored) vs \(ink)")
        }
    }

    @Test(arguments: Variant.allCases, RenderingIntent.allCases)
    func defaultProfileMatchesTransicc(variant: Variant, intent: RenderingIntent) throws {
        let bytes = Self.jpeg(variant)
        let decoded = try Pictures.decode(data: bytes, options: DecodeOptions(intent: intent))
        #expect(decoded.colorConverted && decoded.colorWarnings.isEmpty, "\(decoded.colorWarnings)")
        #expect(!decoded.image.hasAlpha && decoded.image.pixels[3] == 255)
        let inks = Self.storedInks(bytes).map { $0.map { Double($0) / 255 * 100 } }
        let expected = try Fixture.transicc(profile: try #require(Fixture.defaultCMYKProfile), intent: intent, inks)
        let deviation = Fixture.deviation(Self.centres(decoded.image), expected)
        print("CMYK \(variant) (\(intent)): max deviation from transicc \(deviation) levels")
        #expect(deviation <= 2.5) // measured: at most 2.0 (YCCK, perceptual; 8-bit tables against transicc's floats)
        // White paper is white, full ink is dark.
        #expect(decoded.image.pixel(x: 8, y: 8).r > 250 && decoded.image.pixel(x: 16 * 7 + 8, y: 8).r < 60)
    }

    @Test func allThreeStoragesGiveTheSameColours() throws {
        let results = try Variant.allCases.map { try Self.centres(Pictures.decode(data: Self.jpeg($0)).image) }
        for other in results.dropFirst() {
            for (a, b) in zip(results[0], other) {
                #expect(abs(Int(a.0) - Int(b.0)) <= 3 && abs(Int(a.1) - Int(b.1)) <= 3 && abs(Int(a.2) - Int(b.2)) <= 3, "\(a) vs \(b)")
            }
        }
    }

    @Test func embeddedCMYKProfileInSeveralAPP2Segments() throws {
        let profile = try #require(Fixture.defaultCMYKProfile)
        #expect(profile.count > 65519) // more than one segment
        let bytes = PictureBytes.withICC(Self.jpeg(.adobe), profile)
        #expect(try Pictures.info(data: bytes).hasICCProfile)
        let embedded = try Pictures.decode(data: bytes, options: DecodeOptions(cmykProfilePath: nil))
        #expect(embedded.colorConverted && embedded.colorWarnings.isEmpty && embedded.warningCount == 0)
        #expect(embedded.image == (try Pictures.decode(data: Self.jpeg(.adobe)).image))
    }

    @Test func withoutAnyProfileAFormulaAndAWarning() throws {
        for path in [nil, "/nonexistent/cmyk.icc"] as [String?] {
            let decoded = try Pictures.decode(data: Self.jpeg(.adobe), options: DecodeOptions(cmykProfilePath: path))
            #expect(decoded.colorConverted)
            #expect(decoded.colorWarnings.count == 1 && decoded.colorWarnings[0].hasPrefix("CMYK converted without a colour profile"),
                    "\(decoded.colorWarnings)")
            let centres = Self.centres(decoded.image)
            for (got, ink) in zip(centres, Self.storedInks(Self.jpeg(.adobe))) {
                let k = 255 - Int(ink[3])
                let want = (0..<3).map { ((255 - Int(ink[$0])) * k + 127) / 255 }
                #expect([Int(got.0), Int(got.1), Int(got.2)] == want, "\(ink)")
            }
        }
    }

    @Test func anRGBProfileOnCMYKIsIgnored() throws {
        let rgb = Fixture.iccProfile(Fixture.adobeRGB, gamma: 2.2)
        let decoded = try Pictures.decode(data: PictureBytes.withICC(Self.jpeg(.plain), rgb))
        #expect(decoded.colorConverted)
        #expect(decoded.colorWarnings == ["embedded ICC profile ignored (an RGB profile for CMYK pixels)"])
        #expect(decoded.image == (try Pictures.decode(data: Self.jpeg(.plain)).image))
    }

    @Test func cmykScalesAndTurns() throws {
        let bytes = PictureBytes.withEXIF(Self.jpeg(.ycck), PictureBytes.exif(orientation: 8))
        let decoded = try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: 2))
        #expect(decoded.scaleDenominator == 2 && decoded.orientation == .left)
        #expect(decoded.image.width == Self.height / 2 && decoded.image.height == Self.width / 2)
    }

    @Test func imageMagickAgreesRoughly() throws {
        // ImageMagick applies the same profile through lcms2 too (relative colorimetric, its
        // default): a cross-check of the inversion and of the profile's use.
        let directory = try TemporaryFolder.make("framed-cmyk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.jpg"), output = directory.appendingPathComponent("out.ppm")
        let bytes = PictureBytes.withICC(Self.jpeg(.adobe), try #require(Fixture.defaultCMYKProfile))
        try Data(bytes).write(to: input)
        #expect(ImageMagick.run([input.path, "-profile", "/usr/share/color/icc/ghostscript/srgb.icc", output.path]))
        let ppm = Array(try Data(contentsOf: output))
        let ours = Self.centres(try Pictures.decode(data: bytes, options: DecodeOptions(intent: .relative)).image)
        // P6 header: "P6\nW H\n255\n".
        var newlines = 0, start = 0
        for (i, b) in ppm.enumerated() where b == 0x0A { newlines += 1; if newlines == 3 { start = i + 1; break } }
        let theirs = (0..<Self.inks.count).map { i -> (UInt8, UInt8, UInt8) in
            let at = start + (8 * Self.width + 16 * i + 8) * 3
            return (ppm[at], ppm[at + 1], ppm[at + 2])
        }
        let worst = zip(ours, theirs).map { max(abs(Int($0.0) - Int($1.0)), abs(Int($0.1) - Int($1.1)), abs(Int($0.2) - Int($1.2))) }.max() ?? 0
        print("CMYK: max difference from ImageMagick \(worst) levels")
        #expect(worst <= 2)
    }
}

/// The real ImageMagick (/usr/bin/convert; /usr/local/bin/convert is something else), which
/// `make test` installs: a test that needs it fails without it.
enum ImageMagick {
    static let path = "/usr/bin/convert"

    static func run(_ arguments: [String]) -> Bool {
        (try? Tool.run(path, arguments))?.status == 0
    }
}
