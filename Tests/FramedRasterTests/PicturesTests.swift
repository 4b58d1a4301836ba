import Testing
import FramedRaster
import Foundation
import FramedTestSupport

@Suite struct PicturesTests {
    static let magics: [([UInt8], PictureFormat?)] = [
        (PictureBytes.pngSignature, .png),
        ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
        (Array("GIF89a".utf8), .gif),
        (Array("GIF87a".utf8), .gif),
        ([0x49, 0x49, 0x2A, 0x00], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A], .tiff),
        ([0x42, 0x4D] + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0], .bmp),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heif),
        ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], .avif),
        ([0xFF, 0x0A, 0xFA], .jxl),
        (Array("BM, said the text file".utf8), nil),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), nil),
        ([0x89, 0x50, 0x4E], nil),
        ([], nil),
    ]

    @Test(arguments: magics)
    func sniffsMagicBytes(bytes: [UInt8], format: PictureFormat?) {
        #expect(PictureFormat.sniff(bytes) == format)
        #expect(PictureFormat.sniff(bytes[...]) == format)
    }

    @Test func randomBytesAreNotAPicture() {
        let bytes = (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        #expect(throws: RasterError.unsupportedFormat(nil)) { try Pictures.decode(data: bytes) }
        #expect(RasterError.unsupportedFormat(nil).description == "not a picture (unsupported format)")
    }

    @Test func knownFormatsWithoutDecoderAreUnsupported() {
        let bmp = [0x42, 0x4D] + [UInt8](repeating: 0, count: 12) + [40, 0, 0, 0] + [UInt8](repeating: 0, count: 36)
        #expect(throws: RasterError.unsupportedFormat(.bmp)) { try Pictures.decode(data: bmp) }
        #expect(RasterError.unsupportedFormat(.bmp).description == "BMP pictures are not supported yet")
        #expect(Pictures.decoder(for: .png) != nil && Pictures.decoder(for: .gif) != nil && Pictures.decoder(for: .bmp) == nil)
    }

    @Test func emptyDataIsAnError() {
        #expect(throws: RasterError.empty) { try Pictures.decode(data: []) }
        #expect(throws: RasterError.empty) { try PNGDecoder().decode([], options: DecodeOptions()) }
        #expect(throws: RasterError.empty) { try JPEGDecoder().info([]) }
    }

    @Test func filesAreReadAndErrorsExplained() throws {
        let directory = try TemporaryFolder.make("framed-raster")
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = Fixture.noise(5, 7)
        let path = directory.appendingPathComponent("picture.dat").path
        try Data(PictureEncoder.png(image)).write(to: URL(fileURLWithPath: path))
        #expect(try Pictures.decode(contentsOf: path).image == image)
        #expect(try Pictures.info(contentsOf: path).height == 7)

        let empty = directory.appendingPathComponent("empty.png").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: RasterError.empty) { try Pictures.decode(contentsOf: empty) }
        #expect(throws: RasterError.unreadable("No such file or directory")) {
            try Pictures.decode(contentsOf: directory.appendingPathComponent("missing.png").path)
        }
        #expect(throws: RasterError.unreadable("Is a directory")) { try Pictures.decode(contentsOf: directory.path) }
    }

    @Test func errorDescriptionsAreShortLines() {
        #expect(RasterError.empty.description == "empty file")
        #expect(RasterError.corrupt(.png, "IDAT: CRC error").description == "corrupt PNG: IDAT: CRC error")
        #expect(RasterError.unreadable("Permission denied").description == "cannot read (Permission denied)")
        #expect(RasterError.tooLarge(width: 20, height: 10, limit: 150).description
            == "picture is 20x10 pixels, over the limit of 150 pixels")
    }

    @Test func rasterImageFindsAlphaAndPixels() {
        let opaque = RasterImage(width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(!opaque.hasAlpha)
        #expect(opaque.pixel(x: 1, y: 0) == (4, 5, 6, 255))
        #expect(RasterImage(width: 1, height: 1, pixels: [0, 0, 0, 254]).hasAlpha)
        #expect(RasterImage(width: 1, height: 1, pixels: [0, 0, 0, 255], hasAlpha: true).hasAlpha)
    }
}

@Suite struct GrayscaleTests {
    /// R = G = B on every pixel, whatever the alpha; one coloured pixel anywhere, even the
    /// last, and the picture is not gray.
    @Test func grayMeansEveryPixelHasEqualRGB() {
        var pixels = [UInt8]()
        for i in 0..<37 * 5 {
            let v = UInt8(i % 256)
            pixels += [v, v, v, UInt8(255 - i % 200)]
        }
        #expect(RasterImage(width: 37, height: 5, pixels: pixels).isGrayscale)
        for channel in 0..<3 {
            var coloured = pixels
            coloured[coloured.count - 4 + channel] ^= 1
            #expect(!RasterImage(width: 37, height: 5, pixels: coloured).isGrayscale, "channel \(channel)")
        }
        pixels[3] = 0
        #expect(RasterImage(width: 37, height: 5, pixels: pixels).isGrayscale, "alpha does not count")
        #expect(RasterImage(width: 0, height: 0, pixels: []).isGrayscale)
    }

    /// Opaque means alpha 255 everywhere, whatever the picture's `hasAlpha` says.
    @Test func opaqueMeansEveryAlphaIs255() {
        var pixels = [UInt8](repeating: 255, count: 4 * 50)
        #expect(RasterImage(width: 10, height: 5, pixels: pixels, hasAlpha: true).isOpaque)
        pixels[pixels.count - 1] = 254
        #expect(!RasterImage(width: 10, height: 5, pixels: pixels, hasAlpha: true).isOpaque)
        pixels[pixels.count - 1] = 255
        pixels[0] = 0
        #expect(RasterImage(width: 10, height: 5, pixels: pixels, hasAlpha: true).isOpaque, "colour does not count")
    }
}
