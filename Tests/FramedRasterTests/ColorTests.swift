import Foundation
import FramedTestSupport
import Testing
import FramedRaster
import CCodecs

@Suite struct ColorTests {
    /// Saturated, pale, dark and mid colours, one pixel each.
    static let colours: [[UInt8]] = [
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [128, 128, 128],
        [200, 100, 50], [30, 160, 220], [250, 250, 10], [10, 60, 20], [240, 200, 230], [90, 0, 160],
    ]

    static func rgbPNG(_ colours: [[UInt8]], chunks: [[UInt8]]) -> [UInt8] {
        Fixture.png(width: UInt32(colours.count), height: 1, depth: 8, colorType: 2, chunks: chunks,
                    scanlines: [0] + colours.flatMap { $0 })
    }

    static func rgb(_ image: RasterImage) -> [(UInt8, UInt8, UInt8)] {
        (0..<image.width * image.height).map { (image.pixels[$0 * 4], image.pixels[$0 * 4 + 1], image.pixels[$0 * 4 + 2]) }
    }

    @Test(arguments: RenderingIntent.allCases)
    func adobeRGBPNGMatchesTransicc(intent: RenderingIntent) throws {
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        let bytes = Self.rgbPNG(Self.colours, chunks: [Fixture.iCCP(profile)])
        #expect(try Pictures.info(data: bytes).hasICCProfile)
        let decoded = try Pictures.decode(data: bytes, options: DecodeOptions(intent: intent))
        #expect(decoded.colorConverted && decoded.colorWarnings.isEmpty && decoded.warningCount == 0)
        #expect(!decoded.image.hasAlpha)
        let expected = try Fixture.transicc(profile: profile, intent: intent, Self.colours.map { $0.map(Double.init) })
        let deviation = Fixture.deviation(Self.rgb(decoded.image), expected)
        print("Adobe RGB PNG (\(intent)): max deviation from transicc \(deviation) levels")
        #expect(deviation <= 2)
        // Adobe RGB's green is outside sRGB: clipped, not wrapped.
        #expect(decoded.image.pixel(x: 1, y: 0).g == 255 && decoded.image.pixel(x: 1, y: 0).r == 0)
    }

    @Test func adobeRGBJPEGMatchesTransicc() throws {
        let image = Fixture.gradient(48, 32)
        let plain = try PictureEncoder.jpeg(image, quality: 95)
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        let tagged = PictureBytes.withICC(plain, profile)
        #expect(try Pictures.info(data: tagged).hasICCProfile && !Pictures.info(data: plain).hasICCProfile)
        let stored = try Pictures.decode(data: plain).image
        let decoded = try Pictures.decode(data: tagged)
        let unconverted = try Pictures.decode(data: plain).colorConverted
        #expect(decoded.colorConverted && !unconverted)
        let samples = stride(from: 0, to: stored.width * stored.height, by: 37).map { $0 }
        let expected = try Fixture.transicc(profile: profile, intent: .perceptual, samples.map { i in
            (0..<3).map { Double(stored.pixels[i * 4 + $0]) }
        })
        let got = samples.map { i in (decoded.image.pixels[i * 4], decoded.image.pixels[i * 4 + 1], decoded.image.pixels[i * 4 + 2]) }
        let deviation = Fixture.deviation(got, expected)
        print("Adobe RGB JPEG: max deviation from transicc \(deviation) levels over \(samples.count) pixels")
        #expect(deviation <= 2)
    }

    @Test func grayJPEGWithGrayProfile() throws {
        let profile = Fixture.iccProfile(nil, gamma: 1.8, gray: true)
        let plain = try PictureEncoder.jpeg(Fixture.gradient(40, 8, gray: true), quality: 95, grayscale: true)
        let stored = try Pictures.decode(data: plain).image
        let decoded = try Pictures.decode(data: PictureBytes.withICC(plain, profile))
        #expect(decoded.colorConverted && decoded.colorWarnings.isEmpty)
        let grays = (0..<stored.width).map { Double(stored.pixel(x: $0, y: 0).r) }
        let expected = try Fixture.transicc(profile: profile, intent: .perceptual, grays.map { [$0] })
        let deviation = Fixture.deviation(Self.rgb(decoded.image).prefix(stored.width).map { $0 }, expected)
        #expect(deviation <= 1, "\(deviation)")
        // Gamma 1.8 is lighter than sRGB in the mid-tones.
        #expect(decoded.image.pixel(x: 20, y: 0).r > stored.pixel(x: 20, y: 0).r)
    }

    /// sRGB's encoding of a linear value 0...1.
    static func srgb(_ linear: Double) -> Double {
        255 * (linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055)
    }

    @Test func pngGammaOneOverOnePointEightIsConverted() throws {
        let gama = PictureBytes.chunk("gAMA", PictureBytes.be32(55556))
        let bytes = Self.rgbPNG(Self.colours, chunks: [gama])
        #expect(try Pictures.info(data: bytes).hasICCProfile)
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.colorConverted)
        for (i, colour) in Self.colours.enumerated() {
            let p = decoded.image.pixel(x: i, y: 0)
            for (got, value) in zip([p.r, p.g, p.b], colour) {
                let want = Self.srgb(pow(Double(value) / 255, 1 / 0.55556))
                #expect(abs(Double(got) - want) <= 1.5, "\(colour): \(got) vs \(want)")
            }
        }
        // Gray PNG with the same gAMA: a gray profile.
        let gray = Fixture.png(width: 3, height: 1, depth: 8, colorType: 0, chunks: [gama], scanlines: [0, 0, 100, 255])
        let g = try Pictures.decode(data: gray).image
        #expect(g.pixels[0] == 0 && g.pixels[8] == 255 && g.pixels[4] == g.pixels[5] && g.pixels[4] == g.pixels[6])
        #expect(abs(Double(g.pixels[4]) - Self.srgb(pow(100 / 255, 1.8))) <= 1.5, "\(g.pixels)")
    }

    @Test func srgbLikeGammaOrAnSRGBChunkIsLeftAlone() throws {
        let sRGBGamma = Self.rgbPNG(Self.colours, chunks: [PictureBytes.chunk("gAMA", PictureBytes.be32(45455))])
        let withSRGB = Self.rgbPNG(Self.colours, chunks: [PictureBytes.chunk("sRGB", [0]), PictureBytes.chunk("gAMA", PictureBytes.be32(45455))])
        let srgbChrm = PictureBytes.chunk("cHRM", [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].flatMap { PictureBytes.be32($0) })
        let sRGBGammaAndChrm = Self.rgbPNG(Self.colours, chunks: [PictureBytes.chunk("gAMA", PictureBytes.be32(45455)), srgbChrm])
        for bytes in [sRGBGamma, withSRGB, sRGBGammaAndChrm, Self.rgbPNG(Self.colours, chunks: [])] {
            let decoded = try Pictures.decode(data: bytes)
            let hasProfile = try Pictures.info(data: bytes).hasICCProfile
            #expect(!decoded.colorConverted && !hasProfile)
            #expect(difference(decoded.image.pixels, Self.colours.flatMap { $0 + [255] }) == nil)
        }
    }

    @Test func pngGammaWithAdobeChromaticities() throws {
        let chrm = PictureBytes.chunk("cHRM", Fixture.adobeRGB.flatMap { PictureBytes.be32(UInt32(($0 * 100_000).rounded())) })
        let bytes = Self.rgbPNG(Self.colours, chunks: [PictureBytes.chunk("gAMA", PictureBytes.be32(45471)), chrm]) // 256/563
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.colorConverted)
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        let expected = try Fixture.transicc(profile: profile, intent: .perceptual, Self.colours.map { $0.map(Double.init) })
        #expect(Fixture.deviation(Self.rgb(decoded.image), expected) <= 2)
    }

    /// A JPEG tagged sRGB stays untouched (so that it can be passed through); a look-alike
    /// with a plain 2.2 gamma does not.
    @Test func anSRGBProfileChangesNothing() throws {
        let plain = try PictureEncoder.jpeg(Fixture.gradient(24, 16), quality: 90)
        let stored = try Pictures.decode(data: plain).image
        let srgb = try #require(FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/srgb.icc"))
        let decoded = try Pictures.decode(data: PictureBytes.withICC(plain, Array(srgb)))
        #expect(!decoded.colorConverted && decoded.colorWarnings.isEmpty && decoded.image == stored)
        let lookalike = try Pictures.decode(data: PictureBytes.withICC(plain, Fixture.iccProfile(nil, gamma: 2.2)))
        #expect(lookalike.colorConverted && lookalike.image != stored)
    }

    @Test func corruptOrTruncatedProfilesWarnAndDecode() throws {
        let plain = try PictureEncoder.jpeg(Fixture.gradient(24, 16), quality: 90)
        let stored = try Pictures.decode(data: plain).image
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        var garbled = profile
        for i in stride(from: 132, to: garbled.count, by: 3) { garbled[i] ^= 0x5A } // tag table and tags
        let broken: [(String, [UInt8])] = [
            ("truncated", Array(profile.prefix(profile.count / 2))),
            ("header only", Array(profile.prefix(128))),
            ("garbled tags", garbled),
            ("noise", Fixture.noise(30, 10).pixels),
            ("CMYK profile on RGB", Fixture.defaultCMYKProfile ?? []),
            ("gray profile on RGB", Fixture.iccProfile(nil, gamma: 2.2, gray: true)),
        ]
        for (name, icc) in broken where !icc.isEmpty {
            let decoded = try Pictures.decode(data: PictureBytes.withICC(plain, icc))
            #expect(decoded.colorWarnings.count == 1, "\(name)")
            #expect(decoded.colorWarnings.first?.hasPrefix("embedded ICC profile ignored") == true, "\(name): \(decoded.colorWarnings)")
            #expect(!decoded.colorConverted && decoded.image == stored, "\(name)")
        }
        // A truncated iCCP in a PNG: libpng drops it with a warning.
        let png = Self.rgbPNG(Self.colours, chunks: [Fixture.iCCP(Array(profile.prefix(200)))])
        let decoded = try Pictures.decode(data: png)
        #expect(decoded.warningCount > 0 && !decoded.colorConverted)
        #expect(difference(decoded.image.pixels, Self.colours.flatMap { $0 + [255] }) == nil)
    }

    /// Every prefix of a profile, and random bytes: never a crash, never an error.
    @Test func everyCutOfAProfileIsSurvived() {
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 2.2)
        var pixels = Fixture.gradient(8, 2).pixels
        var warning = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        var converted: Int32 = 0, ignored = 0
        for cut in 1..<profile.count {
            let status = ccodecs_color_to_srgb(&pixels, 8, 2, CCODECS_PIXELS_RGBA, profile, cut, CCODECS_INTENT_PERCEPTUAL,
                                               nil, &converted, &warning, &message)
            // Either converted (lcms2 reads lazily: a cut in the text tags at the end does not
            // matter) or ignored with a warning.
            #expect(status == CCODECS_OK && (converted == 1) == (warning[0] == 0), "cut at \(cut)")
            if converted == 0 { ignored += 1 }
        }
        #expect(ignored > profile.count / 2)
        #expect(ccodecs_color_to_srgb(&pixels, 8, 2, CCODECS_PIXELS_RGBA, profile, profile.count, 0, nil, &converted, &warning, &message) == CCODECS_OK)
        #expect(converted == 1 && warning[0] == 0)
        #expect(ccodecs_color_to_srgb(&pixels, 8, 2, 7, profile, profile.count, 0, nil, &converted, &warning, &message) == CCODECS_BAD_ARGUMENT)
        #expect(ccodecs_color_to_srgb(&pixels, 8, 2, CCODECS_PIXELS_RGBA, profile, profile.count, 5, nil, &converted, &warning, &message) == CCODECS_BAD_ARGUMENT)
        #expect(ccodecs_color_to_srgb(nil, 8, 2, CCODECS_PIXELS_RGBA, profile, profile.count, 0, nil, &converted, &warning, &message) == CCODECS_BAD_ARGUMENT)
        #expect(message.text == "bad arguments for colour conversion")
    }

    @Test func profileMakerRefusesNonsense() {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        #expect(ccodecs_icc_profile(nil, 0, 0, &out, &message) == CCODECS_BAD_ARGUMENT && out.data == nil)
        let flat = [0.3127, 0.3290, 0.5, 0.0, 0.3, 0.6, 0.15, 0.06]
        #expect(ccodecs_icc_profile(flat, 2.2, 0, &out, &message) == CCODECS_BAD_ARGUMENT)
        // Collinear primaries: lcms2 says no; a clean error.
        let collinear = [0.3127, 0.3290, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4]
        #expect(ccodecs_icc_profile(collinear, 2.2, 0, &out, &message) == CCODECS_ERROR && out.data == nil)
        #expect(message.text.hasPrefix("cannot make an ICC profile"))
    }

    @Test func alphaIsKeptThroughConversion() throws {
        let profile = Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)
        let pixels: [UInt8] = [255, 0, 0, 0, 0, 255, 0, 77, 10, 20, 30, 255]
        let bytes = Fixture.png(width: 3, height: 1, depth: 8, colorType: 6, chunks: [Fixture.iCCP(profile)],
                                scanlines: [0] + pixels)
        let image = try Pictures.decode(data: bytes).image
        #expect(image.hasAlpha && [image.pixels[3], image.pixels[7], image.pixels[11]] == [0, 77, 255])
    }

    @Test func flattenedCompositesOnAColour() {
        let image = RasterImage(width: 3, height: 1, pixels: [255, 0, 0, 0, 255, 0, 0, 128, 10, 20, 30, 255])
        let flat = image.flattened(onto: (r: 0, g: 0, b: 255))
        #expect(!flat.hasAlpha)
        #expect(flat.pixels == [0, 0, 255, 255, 128, 0, 127, 255, 10, 20, 30, 255])
        #expect(Fixture.gradient(4, 4).flattened(onto: (r: 1, g: 2, b: 3)) == Fixture.gradient(4, 4))
    }
}
