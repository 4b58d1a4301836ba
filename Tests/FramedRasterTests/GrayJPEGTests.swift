import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Gray JPEGs are decoded as one sample a pixel and expanded to RGBA by the shim (fewer
/// instructions than libjpeg-turbo's gray-to-RGBA conversion): the samples must be libjpeg's
/// own, at every DCT scale. The judges decode with libjpeg too: djpeg (libjpeg-turbo-progs)
/// and ImageMagick.
@Suite struct GrayJPEGTests {
    static let djpeg = "/usr/bin/djpeg"

    /// A gray photo-like JPEG with hard edges and noise (which the IDCT must get exactly).
    static let jpeg: [UInt8] = {
        var image = Fixture.gradient(203, 117, gray: true)
        var pixels = image.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) where (i / 4) % 7 == 0 {
            pixels[i] = pixels[i] &+ 90; pixels[i + 1] = pixels[i]; pixels[i + 2] = pixels[i]
        }
        image = RasterImage(width: image.width, height: image.height, pixels: pixels)
        return try! PictureEncoder.jpeg(image, quality: 85, grayscale: true)
    }()

    /// The samples of a binary PGM (P5, 8 bits).
    static func pgmSamples(_ data: [UInt8]) -> (width: Int, height: Int, samples: [UInt8])? {
        var fields: [Int] = [], i = 2
        guard data.starts(with: Array("P5".utf8)) else { return nil }
        while fields.count < 3 && i < data.count {
            while i < data.count && (data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09) { i += 1 }
            var value = 0
            while i < data.count, (0x30...0x39).contains(data[i]) { value = value * 10 + Int(data[i] - 0x30); i += 1 }
            fields.append(value)
        }
        return (fields[0], fields[1], Array(data[(i + 1)...]))
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> [UInt8] {
        Array(try Tool.run(tool, arguments).stdout)
    }

    static func expectGray(_ image: RasterImage, _ samples: [UInt8], _ comment: Comment) {
        #expect(image.pixels.count == samples.count * 4, comment)
        guard image.pixels.count == samples.count * 4 else { return }
        let expanded = samples.flatMap { sample -> [UInt8] in [sample, sample, sample, 255] }
        #expect(difference(image.pixels, expanded) == nil, comment)
    }

    @Test(arguments: [1, 2, 4, 8])
    func samplesAreLibjpegsAtEveryScale(denominator: Int) throws {
        let folder = try FileInputTests.Folder()
        let path = try folder.write(Self.jpeg, "gray.jpg")
        let pgm = try #require(Self.pgmSamples(try Self.run(Self.djpeg, ["-scale", "1/\(denominator)", "-pnm", path])))
        let decoded = try Pictures.decode(.file(path), options: DecodeOptions(scaleDenominator: denominator))
        #expect(decoded.image.width == pgm.width && decoded.image.height == pgm.height)
        Self.expectGray(decoded.image, pgm.samples, "1/\(denominator)")
    }

    @Test func samplesAreImageMagicks() throws {
        let folder = try FileInputTests.Folder()
        let path = try folder.write(Self.jpeg, "gray.jpg")
        let samples = try Self.run(ImageMagick.path, [path, "-depth", "8", "gray:-"])
        Self.expectGray(try Pictures.decode(.file(path)).image, samples, "ImageMagick")
    }
}
