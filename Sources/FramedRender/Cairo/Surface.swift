internal import CCairo
import FramedLayout
import FramedRaster

/// Owns one `cairo_surface_t` and destroys it in `deinit`.
final class CairoSurface {
    let pointer: OpaquePointer
    /// What the surface writes into (a `ByteSink`), kept as long as the surface: a surface can
    /// outlive its caller's scope (an SVG's drawing thread that ran out of time holds it).
    var sink: AnyObject?

    /// Takes ownership of a surface returned by a `cairo_*_surface_create*` function and checks
    /// its status (creation failures are returned as "nil surfaces" with an error status).
    init(taking pointer: OpaquePointer, _ operation: String) throws(RenderError) {
        self.pointer = pointer
        try check(cairo_surface_status(pointer), operation)
    }

    deinit { cairo_surface_destroy(pointer) }

    /// `cairo_surface_finish`: writes out everything a vector surface still holds.
    func finish() throws(RenderError) {
        cairo_surface_finish(pointer)
        try check(cairo_surface_status(pointer), "finishing the surface")
    }

    func withUnsafePointer<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try body(pointer)
    }
}

/// An ARGB32 or RGB24 image surface (`cairo_image_surface_create`) with access to its pixels.
final class CairoImageSurface {
    let surface: CairoSurface
    let width: Int
    let height: Int
    let hasAlpha: Bool

    /// The longest side of an image surface (Cairo's 16-bit coordinates, less one).
    static let maximumSide = 32767

    /// `cairo_image_surface_create`.
    init(width: Int, height: Int, hasAlpha: Bool) throws(RenderError) {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw .canvasTooLarge(PixelSize(width: width, height: height))
        }
        surface = try CairoSurface(
            taking: cairo_image_surface_create(hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
                                               Int32(width), Int32(height)),
            "creating a \(width)x\(height) image")
        self.width = width; self.height = height; self.hasAlpha = hasAlpha
    }

    /// Bytes per row (`cairo_image_surface_get_stride`).
    var stride: Int { Int(cairo_image_surface_get_stride(surface.pointer)) }

    /// Gives `body` the surface's pixel rows (native-endian premultiplied ARGB32 words) and marks
    /// them dirty afterwards (`cairo_surface_flush` / `cairo_surface_mark_dirty`).
    func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableRawPointer, _ stride: Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface.pointer)
        defer { cairo_surface_mark_dirty(surface.pointer) }
        return try body(cairo_image_surface_get_data(surface.pointer), stride)
    }
}

extension CairoImageSurface {
    /// Turns the surface's pixels into straight RGBA bytes where they lie (rows without padding:
    /// an ARGB32 row is 4 bytes a pixel) and gives them to `body`. The surface must not be drawn
    /// on afterwards: its words are no longer premultiplied ARGB.
    func withStraightRGBA<R>(_ body: (RGBARows) -> R) -> R {
        withUnsafeMutablePixels { base, stride in
            precondition(stride == width * 4, "an ARGB32 row of \(width) pixels has \(stride) bytes")
            for offset in Swift.stride(from: 0, to: width * height * 4, by: 4) {
                let word = Self.straightRGBA(base.load(fromByteOffset: offset, as: UInt32.self))
                base.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt32.self)
            }
            return body(RGBARows(base: UnsafePointer(base.assumingMemoryBound(to: UInt8.self)), width: width, height: height))
        }
    }

    /// A premultiplied ARGB32 word (A in the top byte) as straight R, G, B, A with R in the
    /// lowest byte: the bytes R, G, B, A in that order once stored little-endian.
    @inline(__always)
    static func straightRGBA(_ v: UInt32) -> UInt32 {
        let a = v >> 24
        if a == 255 { return (v >> 16 & 255) | (v & 0xFF00) | (v & 255) << 16 | 0xFF00_0000 }
        if a == 0 { return 0 }
        let r = ((v >> 16 & 255) &* 255 &+ a / 2) / a, g = ((v >> 8 & 255) &* 255 &+ a / 2) / a
        let b = ((v & 255) &* 255 &+ a / 2) / a
        return r | g << 8 | b << 16 | a << 24
    }
}
