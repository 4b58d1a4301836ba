import FramedTestSupport
import Testing
import FramedRaster
import CCodecs

/// Mean absolute difference of the RGB channels.
func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var sum = 0
    for i in a.pixels.indices where i % 4 != 3 { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
    return Double(sum) / Double(a.width * a.height * 3)
}

@Suite struct JPEGTests {
    @Test func colourDecodesCloseToTheOriginal() throws {
        let image = Fixture.gradient(64, 48)
        let decoded = try Pictures.decode(data: PictureEncoder.jpeg(image, quality: 95))
        #expect(decoded.format == .jpeg && decoded.warningCount == 0)
        #expect(!decoded.image.hasAlpha)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(meanDifference(decoded.image, image) < 3)
        #expect(stride(from: 3, to: decoded.image.pixels.count, by: 4).allSatisfy { decoded.image.pixels[$0] == 255 })
    }

    @Test func grayDecodesToEqualChannels() throws {
        let image = Fixture.gradient(50, 30, gray: true)
        let bytes = try PictureEncoder.jpeg(image, quality: 95, grayscale: true)
        var info = ccodecs_image_info()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        #expect(ccodecs_jpeg_info(bytes, bytes.count, &info, &message) == CCODECS_OK)
        #expect(info.components == 1 && info.color_space == CCODECS_COLOR_GRAY)

        let decoded = try Pictures.decode(data: bytes).image
        #expect(meanDifference(decoded, image) < 3)
        for p in stride(from: 0, to: decoded.pixels.count, by: 4) {
            #expect(decoded.pixels[p] == decoded.pixels[p + 1] && decoded.pixels[p] == decoded.pixels[p + 2])
        }
    }

    @Test func alphaIsIgnoredWhenEncoding() throws {
        let image = Fixture.gradient(16, 16) { _, _ in 0 }
        let decoded = try Pictures.decode(data: PictureEncoder.jpeg(image, quality: 95)).image
        #expect(!decoded.hasAlpha && decoded.pixel(x: 5, y: 5).a == 255)
        #expect(meanDifference(decoded, image) < 3)
    }

    /// A denominator asked, and the scale used in eighths (1/3 is decoded at 3/8).
    @Test(arguments: [(1, 8), (2, 4), (3, 3), (4, 2), (8, 1), (16, 1)])
    func dctScalingGivesCeilingSizes(asked: Int, used: Int) throws {
        let bytes = try PictureEncoder.jpeg(Fixture.gradient(101, 77))
        let image = try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: asked)).image
        #expect(image.width == (101 * used + 7) / 8 && image.height == (77 * used + 7) / 8)
    }

    @Test func jfifDensityIsReadAsDPI() throws {
        var image = Fixture.gradient(20, 10)
        image.resolution = 300
        let bytes = try PictureEncoder.jpeg(image)
        #expect(try Pictures.info(data: bytes) == PictureInfo(format: .jpeg, width: 20, height: 10, hasAlpha: false, resolution: 300))
        #expect(try Pictures.decode(data: bytes).image.resolution == 300)
        #expect(try Pictures.decode(data: PictureEncoder.jpeg(Fixture.gradient(20, 10))).image.resolution == nil)
    }

    @Test func progressiveFlagIsReported() throws {
        let image = Fixture.gradient(40, 40)
        for progressive in [false, true] {
            let bytes = try PictureEncoder.jpeg(image, progressive: progressive)
            var info = ccodecs_image_info()
            var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
            #expect(ccodecs_jpeg_info(bytes, bytes.count, &info, &message) == CCODECS_OK)
            #expect((info.progressive != 0) == progressive)
            #expect(info.color_space == CCODECS_COLOR_YCBCR && info.components == 3)
            #expect(meanDifference(try Pictures.decode(data: bytes).image, image) < 3)
        }
    }

    @Test func truncatedScanDecodesWithWarnings() throws {
        let bytes = try PictureEncoder.jpeg(Fixture.noise(200, 200), quality: 90)
        let decoded = try Pictures.decode(data: Array(bytes[..<(bytes.count / 2)]))
        #expect(decoded.image.width == 200 && decoded.image.height == 200)
        #expect(decoded.warningCount > 0)
        #expect(decoded.firstWarning?.contains("Premature end of JPEG file") == true, "\(decoded.firstWarning ?? "nil")")
        #expect(decoded.warningSummary != nil)
    }

    @Test func cutInsideTheHeaderIsAnError() throws {
        let bytes = try PictureEncoder.jpeg(Fixture.gradient(32, 32))
        for cut in [3, 30, 100] {
            let error = #expect(throws: RasterError.self) { try Pictures.decode(data: Array(bytes[..<cut])) }
            guard case .corrupt(.jpeg, let reason)? = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(reason.hasPrefix("premature end of data"), "\(reason)")
        }
    }

    @Test func libjpegMessagesComeBack() {
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        let png = PictureBytes.pngSignature + [0, 0, 0, 0]
        #expect(ccodecs_jpeg_decode(png, png.count, 8, nil, 1000, &out, &message) == CCODECS_ERROR)
        #expect(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } == "Not a JPEG file: starts with 0x89 0x50")
        #expect(out.pixels == nil)
        for eighths: Int32 in [0, 5, 6, 7, 9] {
            #expect(ccodecs_jpeg_decode(png, png.count, eighths, nil, 1000, &out, &message) == CCODECS_BAD_ARGUMENT)
        }
    }

    @Test func hugeHeaderIsRefusedBeforeAllocating() throws {
        var bytes = try PictureEncoder.jpeg(Fixture.gradient(16, 16))
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5...sof + 8] = [0xEA, 0x60, 0xEA, 0x60] // 60000 x 60000
        #expect(throws: RasterError.tooLarge(width: 60000, height: 60000, limit: 256_000_000)) {
            try Pictures.decode(data: bytes)
        }
        #expect(try Pictures.info(data: bytes).width == 60000)
    }
}
