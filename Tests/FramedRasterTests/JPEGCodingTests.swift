import FramedTestSupport
import Testing
import FramedRaster
import CCodecs

/// Arithmetic coding, the DCT scale reported, and metadata handed on by the shim.
@Suite struct JPEGCodingTests {
    static func hasMarker(_ bytes: [UInt8], _ marker: UInt8) -> Bool {
        bytes.indices.dropLast().contains { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
    }

    @Test func arithmeticCodedJPEGDecodes() throws {
        let image = Fixture.gradient(61, 33)
        for extra in [0, CCODECS_JPEG_PROGRESSIVE] {
            let huffman = Fixture.jpeg(image, flags: extra)
            let arithmetic = Fixture.jpeg(image, flags: extra | CCODECS_JPEG_ARITHMETIC)
            #expect(Self.hasMarker(arithmetic, extra == 0 ? 0xC9 : 0xCA) && !Self.hasMarker(huffman, 0xC9))
            // Same coefficients, other entropy coding: the very same pixels.
            let decoded = try Pictures.decode(data: arithmetic)
            #expect(decoded.warningCount == 0)
            #expect(decoded.image == (try Pictures.decode(data: huffman).image))
            #expect(meanDifference(decoded.image, image) < 3)
        }
        let cmyk = Fixture.cmykJPEG([UInt8](repeating: 40, count: 16 * 16 * 4), width: 16, height: 16,
                                    flags: CCODECS_JPEG_ARITHMETIC)
        #expect(try Pictures.decode(data: cmyk).colorConverted)
    }

    /// The hint asked (n/d), and the scale used: the smallest of 1/8, 1/4, 3/8, 1/2, 1 that is
    /// not below it.
    @Test(arguments: [((1, 1), (1, 1)), ((1, 2), (1, 2)), ((1, 3), (3, 8)), ((3, 8), (3, 8)), ((2, 5), (1, 2)),
                      ((1, 5), (1, 4)), ((1, 8), (1, 8)), ((1, 100), (1, 8)), ((5, 8), (1, 1)), ((3, 2), (1, 1)),
                      ((0, 2), (1, 1))])
    func scaleIsReported(asked: (Int, Int), used: (Int, Int)) throws {
        let bytes = try PictureEncoder.jpeg(Fixture.gradient(64, 40))
        var options = DecodeOptions(scaleDenominator: asked.1)
        options.scaleNumerator = asked.0
        let decoded = try Pictures.decode(data: bytes, options: options)
        #expect(decoded.scaleNumerator == used.0 && decoded.scaleDenominator == used.1)
        #expect(decoded.image.width == (64 * used.0 + used.1 - 1) / used.1)
        #expect(decoded.image.height == (40 * used.0 + used.1 - 1) / used.1)
        let png = try PictureEncoder.png(Fixture.gradient(8, 8))
        let fromPNG = try Pictures.decode(data: png, options: options)
        #expect(fromPNG.scaleNumerator == 1 && fromPNG.scaleDenominator == 1)
    }

    @Test func shimHandsOnEXIFAndICC() throws {
        let tiff = PictureBytes.exif(orientation: 3)
        let icc = Fixture.iccProfile(nil, gamma: 2.2)
        let bytes = PictureBytes.withICC(PictureBytes.withEXIF(try PictureEncoder.jpeg(Fixture.gradient(8, 8)), tiff), icc)
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_decoded_release(&out) }
        #expect(ccodecs_jpeg_decode(bytes, bytes.count, 8, nil, 1000, &out, &message) == CCODECS_OK)
        #expect(difference(Array(UnsafeBufferPointer(start: out.exif, count: out.exif_size)), tiff) == nil)
        #expect(difference(Array(UnsafeBufferPointer(start: out.icc, count: out.icc_size)), icc) == nil)
        #expect(out.pixel_format == CCODECS_PIXELS_RGBA && out.scale_eighths == 8)
        var info = ccodecs_image_info()
        #expect(ccodecs_jpeg_info(bytes, bytes.count, &info, &message) == CCODECS_OK)
        #expect(info.orientation == 3 && info.has_icc == 1)
        let gray = try PictureEncoder.jpeg(Fixture.gradient(8, 8, gray: true), grayscale: true)
        #expect(Fixture.rawJPEG(gray).format == CCODECS_PIXELS_GRAY)
    }

    @Test func passThroughFactsComeFromTheHeader() throws {
        let plain = try PictureEncoder.jpeg(Fixture.gradient(8, 8))
        let info = try Pictures.info(data: plain)
        #expect(info.orientation == .up && !info.hasICCProfile && !info.isCMYK)
        let decoded = try Pictures.decode(data: plain)
        #expect(!decoded.colorConverted && decoded.colorWarnings.isEmpty && decoded.orientation == .up)
    }

    @Test func truncatedMetadataErrorsCleanly() throws {
        let bytes = PictureBytes.withICC(PictureBytes.withEXIF(try PictureEncoder.jpeg(Fixture.gradient(16, 16)), PictureBytes.exif(orientation: 6)),
                                    Fixture.iccProfile(Fixture.adobeRGB, gamma: 2.2))
        for cut in stride(from: 3, to: bytes.count, by: 41) {
            do {
                _ = try Pictures.info(data: Array(bytes[..<cut]))
                _ = try Pictures.decode(data: Array(bytes[..<cut]))
            } catch {
                guard case .corrupt(.jpeg, _) = error else { Issue.record("cut at \(cut): \(error)"); continue }
            }
        }
    }
}
