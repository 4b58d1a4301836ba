internal import CCairo
import Foundation
import FramedLayout
import FramedRaster

/// Turns a picture into the Cairo image that gets embedded (premultiplied, native-endian).
/// Resampling happens before, in FramedRaster's `Resampler`.
enum PictureSurface {
    /// Copies straight RGBA bytes into Cairo's native-endian premultiplied ARGB32 (or RGB24 for
    /// opaque pictures, which PDF then embeds without a soft mask).
    static func copy(_ image: RasterImage) throws(RenderError) -> CairoImageSurface {
        let surface = try CairoImageSurface(width: image.width, height: image.height, hasAlpha: image.hasAlpha)
        let width = image.width
        image.pixels.withUnsafeBufferPointer { source in
            surface.withUnsafeMutablePixels { base, stride in
                for y in 0..<image.height {
                    let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                    var s = y * width * 4
                    for x in 0..<width {
                        let a = UInt32(source[s + 3])
                        var r = UInt32(source[s]), g = UInt32(source[s + 1]), b = UInt32(source[s + 2])
                        if a != 255 {
                            r = (r * a + 127) / 255; g = (g * a + 127) / 255; b = (b * a + 127) / 255
                        }
                        row[x] = a << 24 | r << 16 | g << 8 | b
                        s += 4
                    }
                }
            }
        }
        return surface
    }
}

extension CairoImageSurface {
    /// `cairo_surface_set_mime_data(CAIRO_MIME_TYPE_JPEG)`: SVG and PDF embed these JPEG bytes
    /// (DCTDecode, `data:image/jpeg`) instead of re-encoding the pixels. Cairo keeps a malloc'd
    /// copy and frees it with the surface.
    func attachJPEG(_ jpeg: [UInt8]) throws(RenderError) {
        guard let copy = malloc(max(1, jpeg.count)) else { throw .cairo(operation: "embedding the JPEG", message: "out of memory") }
        jpeg.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: jpeg.count) }
        let status = cairo_surface_set_mime_data(surface.pointer, CAIRO_MIME_TYPE_JPEG,
                                                 copy.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                                 { free($0) }, copy)
        if status != CAIRO_STATUS_SUCCESS { free(copy) }
        try check(status, "embedding the JPEG")
    }
}
