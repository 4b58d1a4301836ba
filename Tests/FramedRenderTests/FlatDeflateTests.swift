import Foundation
import FramedRaster
@testable import FramedRender
import FramedTestSupport
import Testing

/// Flat pictures (screenshots, mats: mostly zeros once Paeth-filtered) are deflated at level 1
/// by framed's own writer (the fastDeflate engine, fastdeflate.c) rather than zlib: its streams,
/// alone or cut into bands, read back exactly with framed's PNG reader, libpng and ImageMagick,
/// whatever the size, the plane and the distance of the repeats; and so do zlib's, which
/// write them with the engine off. Every stream and decode names its engines, whatever
/// FRAMED_ENGINES says.
struct FlatDeflateTests {
    /// A seeded flat picture: solid rectangles, with `noise` of the pixels random (alpha too);
    /// with `period`, each row repeats the one `period` rows above after the first ones.
    static func flat(width: Int, height: Int, seed: UInt32, noise: Double = 0.1, period: Int? = nil) -> RasterImage {
        var state = seed &* 2_654_435_761 | 1
        func next() -> UInt32 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return state
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let blocks = (0..<6).map { _ in (Int(next() % 97), Int(next() % 89), [UInt8](repeating: 0, count: 4).map { _ in UInt8(next() & 255) }) }
        for y in 0..<height {
            if let period, y >= period {
                let row = width * 4
                pixels.replaceSubrange(y * row..<(y + 1) * row, with: pixels[(y - period) * row..<(y - period + 1) * row])
                continue
            }
            for x in 0..<width {
                let block = blocks[((x / max(1, blocks[0].0 + 5)) + (y / max(1, blocks[1].1 + 5))) % blocks.count].2
                let i = (y * width + x) * 4
                if Double(next() % 10_000) < noise * 10_000 {
                    for c in 0..<4 { pixels[i + c] = UInt8(next() & 255) }
                } else {
                    for c in 0..<4 { pixels[i + c] = block[c] }
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: true)
    }

    /// What `plane` of `image` should read back as, RGBA as `decodeAsPNG` gives it.
    static func expected(_ image: RasterImage, _ plane: FlateRows.Plane) -> [UInt8] {
        stride(from: 0, to: image.pixels.count, by: 4).flatMap { i -> [UInt8] in
            switch plane {
            case .rgba: return Array(image.pixels[i..<i + 4])
            case .rgb: return Array(image.pixels[i..<i + 3]) + [255]
            case .gray: return [image.pixels[i], image.pixels[i], image.pixels[i], 255]
            case .alpha: return [image.pixels[i + 3], image.pixels[i + 3], image.pixels[i + 3], 255]
            }
        }
    }

    /// Options that decode a PNG by libpng's rows, or by framed's reader (the pngData engine).
    static func reading(libpng: Bool) -> DecodeOptions {
        var options = DecodeOptions()
        options.engines = libpng ? [] : .pngData
        return options
    }

    /// Random sizes (from 1x1), every plane, one to three bands, by framed's writer and by zlib:
    /// framed's reader and libpng's rows (which checks the Adler-32) give the picture back.
    @Test(arguments: [true, false])
    func flatPicturesReadBackExactly(framedsWriter: Bool) throws {
        var checked = 0
        let writer: Engines = framedsWriter ? .fastDeflate : []
        for seed in UInt32(1)...24 {
            let width = Int(seed * 37 % 300) + 1, height = Int(seed * 53 % 120) + 1
            let image = Self.flat(width: width, height: height, seed: seed, noise: Double(seed % 4) * 0.08)
            for plane in [FlateRows.Plane.rgba, .rgb, .gray, .alpha] {
                for bands in [1, 2, 3] where bands <= height {
                    let stream = try #require(FlateRows.compress(image, plane: plane, bands: bands, engines: writer))
                    let png = PDFPictureTests.png(stream, width: width, height: height, samples: plane.samples)
                    for libpng in [false, true] {
                        let decoded = try Pictures.decode(.bytes(png), options: Self.reading(libpng: libpng)).image
                        #expect(difference(decoded.pixels, Self.expected(image, plane)) == nil,
                                "seed \(seed) \(width)x\(height) \(plane), \(bands) bands, libpng \(libpng), writer \(writer)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 200)
    }

    /// Matches as far back as deflate allows (rows repeating every other row, 32,402 bytes
    /// apart) and just beyond it (33,002 bytes, which must not be matched), and a picture of
    /// many 64 KB blocks and bands, read back by ImageMagick's libpng too; flat pictures
    /// shrink to a small part of their rows.
    @Test(arguments: [5400, 5500, 1500])
    func longDistancesAndLargePictures(width: Int) throws {
        let height = width == 1500 ? 1000 : 40
        let image = Self.flat(width: width, height: height, seed: UInt32(width), noise: 0.3,
                              period: width == 1500 ? nil : 2)
        let stream = try #require(FlateRows.compress(image, plane: .rgb, engines: .fastDeflate))
        let png = PDFPictureTests.png(stream, width: width, height: height, samples: 3)
        let result = try Tool.run("convert", ["png:-", "rgba:-"], stdin: Data(png))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(difference(Array(result.stdout), Self.expected(image, .rgb)) == nil)
        let decoded = try Pictures.decode(.bytes(png), options: Self.reading(libpng: true))
        #expect(difference(decoded.image.pixels, Self.expected(image, .rgb)) == nil)
        if width == 1500 {
            let solid = Self.flat(width: width, height: height, seed: 7, noise: 0)
            let small = try #require(FlateRows.compress(solid, plane: .rgb, engines: .fastDeflate))
            #expect(small.count < width * height * 3 / 100, "\(small.count) bytes")
        }
    }

    /// A flat picture with 90 KB of noise in a row: that block is stored rather than coded (it
    /// would grow), and reads back; the stream stays within its bound.
    @Test func incompressibleStretchesAreStored() throws {
        let solid = Self.flat(width: 1000, height: 130, seed: 3, noise: 0)
        let noisy = Self.flat(width: 1000, height: 30, seed: 4, noise: 1)
        let image = RasterImage(width: 1000, height: 160, pixels: solid.pixels + noisy.pixels, hasAlpha: true)
        let stream = try #require(FlateRows.compress(image, plane: .rgb, bands: 1, engines: .fastDeflate))
        #expect(stream.count > 30 * 3000 && stream.count < 30 * 3001 + 130 * 3001 / 10)
        let png = PDFPictureTests.png(stream, width: 1000, height: 160, samples: 3)
        let decoded = try Pictures.decode(.bytes(png), options: Self.reading(libpng: true))
        #expect(difference(decoded.image.pixels, Self.expected(image, .rgb)) == nil)
    }
}
