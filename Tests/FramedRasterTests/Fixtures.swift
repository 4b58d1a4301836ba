import FramedTestSupport
import FramedRaster

/// Test pictures made in memory: pixel patterns, and PNG files built chunk by chunk.
enum Fixture {
    /// A smooth colour gradient (JPEG-friendly), alpha from `alpha(x, y)`.
    static func gradient(_ width: Int, _ height: Int, gray: Bool = false,
                         alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(40 + 160 * x / max(width - 1, 1)), g = UInt8(30 + 180 * y / max(height - 1, 1))
                let b = UInt8(200 - 100 * (x + y) / max(width + height - 2, 1))
                pixels += gray ? [r, r, r, alpha(x, y)] : [r, g, b, alpha(x, y)]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// Every byte value in every channel, alpha included (not JPEG-friendly).
    static func noise(_ width: Int, _ height: Int) -> RasterImage {
        var state: UInt32 = 12345
        let pixels = (0..<width * height * 4).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    // MARK: PNG by hand (PictureBytes has the chunks)

    static func ihdr(_ width: UInt32, _ height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0) -> [UInt8] {
        PictureBytes.chunk("IHDR", PictureBytes.be32(width) + PictureBytes.be32(height) + [depth, colorType, 0, 0, interlace])
    }

    /// A PNG from filtered scanlines (each starting with its filter byte) and extra chunks
    /// placed before IDAT.
    static func png(width: UInt32, height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
                    chunks: [[UInt8]] = [], scanlines: [UInt8]) -> [UInt8] {
        PictureBytes.pngSignature + ihdr(width, height, depth: depth, colorType: colorType, interlace: interlace)
            + chunks.flatMap { $0 } + PictureBytes.chunk("IDAT", PictureBytes.zlibStored(scanlines)) + PictureBytes.chunk("IEND", [])
    }
}
