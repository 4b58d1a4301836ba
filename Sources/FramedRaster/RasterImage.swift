internal import CCodecs

/// Pixels that lie elsewhere, read in place: straight RGBA, 8 bits a sample, rows of
/// `width * 4` bytes with no padding, top row first, valid while the call they are given to runs.
package struct RGBARows {
    package let base: UnsafePointer<UInt8>
    package let width: Int
    package let height: Int

    package init(base: UnsafePointer<UInt8>, width: Int, height: Int) {
        self.base = base; self.width = width; self.height = height
    }
}

/// A decoded picture: straight (not premultiplied) RGBA, 8 bits a sample, rows of
/// `width * 4` bytes with no padding, top row first.
package struct RasterImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package let pixels: [UInt8]
    /// True when any pixel may be non-opaque (the source had an alpha channel or tRNS).
    package let hasAlpha: Bool
    /// Dots per inch that the file claims, nil if it claims none.
    package var resolution: Double?

    /// - Parameter hasAlpha: nil to find out by looking at the pixels.
    /// - Precondition: `pixels.count == width * height * 4`.
    package init(width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool? = nil,
                resolution: Double? = nil) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RasterImage: \(pixels.count) bytes for \(width)x\(height) RGBA pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.hasAlpha = hasAlpha ?? !Self.allOpaque(pixels)
        self.resolution = resolution
    }

    /// Whether every pixel is a shade of gray (R = G = B), alpha aside. Such a picture is
    /// re-encoded as a one-channel JPEG: a third of the samples to encode, and no chroma.
    /// Stops at the first coloured pixel, so a colour picture costs next to nothing.
    package var isGrayscale: Bool {
        pixels.withUnsafeBytes { bytes in
            for word in bytes.bindMemory(to: UInt32.self) {
                // The bytes are R, G, B, A in memory; compare R with G and G with B.
                let rgb = UInt32(littleEndian: word) & 0x00FF_FFFF
                if rgb != (rgb & 0xFF) &* 0x0001_0101 { return false }
            }
            return true
        }
    }

    /// Whether every pixel's alpha is 255, whatever `hasAlpha` says (a PNG with an alpha
    /// channel may have nothing transparent). Stops at the first pixel that is not opaque.
    package var isOpaque: Bool { Self.allOpaque(pixels) }

    /// Whether every alpha byte of RGBA `pixels` is 255, a pixel a word.
    private static func allOpaque(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBytes { bytes in
            bytes.bindMemory(to: UInt32.self).allSatisfy { UInt32(littleEndian: $0) >> 24 == 255 }
        }
    }

    /// The pixel at column `x`, row `y` (from the top left).
    package func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// Asks the kernel to back a large buffer that is about to be written with 2 MB pages
/// (`madvise(MADV_HUGEPAGE)`; this machine's default, like many distributions', is "madvise").
/// A decoded or resampled picture is written once, front to back: with 4 KB pages each page
/// costs a fault, which was 10 % of a framed PNG of a 6 MP screenshot (7,880 faults, 107 ms;
/// with the advice 2,771 faults, 97 ms). Buffers of 4 MB or more, and only the whole 2 MB pages
/// inside them (`ccodecs_advise_huge_pages`, which the JPEG reader's coefficients use too).
func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    guard buffer.count >= 4 << 20, let base = buffer.baseAddress else { return }
    ccodecs_advise_huge_pages(base, buffer.count)
}

extension RasterImage {
    /// Gives `body` the address of the pixels (nil for an empty picture), for a call that reads
    /// them where they lie, and passes on its typed error.
    func withPixelAddress<R>(_ body: (UnsafePointer<UInt8>?) throws(RasterError) -> R) throws(RasterError) -> R {
        // withUnsafeBufferPointer rethrows untyped errors: the result carries the typed one out.
        let result = pixels.withUnsafeBufferPointer { pixels in
            Result { () throws(RasterError) in try body(pixels.baseAddress) }
        }
        return try result.get()
    }
}
