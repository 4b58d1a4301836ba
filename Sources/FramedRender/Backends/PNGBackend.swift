internal import CCairo
import FramedRaster
import FramedSystem

/// PNG: the drawing on an ARGB32 image surface, un-premultiplied and written as 8-bit RGBA by
/// the project's own encoder (Cairo's `cairo_surface_write_to_png_stream` drops the alpha
/// channel when nothing happens to be transparent, and picks no compression settings).
enum PNGBackend {
    static func render(_ page: RenderPage, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let picture = try PictureSurface.embedding(page.picture, format: .png, threads: options.threads)
        let size = options.pixelSize(ofCanvas: page.outputSize)
        let image = try OutputSurface.raster(size)
        let context = try CairoContext(image.surface)
        let k = options.pictureDPI / 72
        context.scale(k, k)
        try page.draw(picture, in: context, format: .png)
        guard Memory.available(size.width * size.height * 4) else {
            throw .cairo(operation: "reading the drawn pixels", message: "out of memory")
        }
        let rgba = image.straightRGBA()
        do {
            return try PictureEncoder.png(RasterImage(width: size.width, height: size.height, pixels: rgba,
                                                      hasAlpha: true, resolution: options.pictureDPI),
                                          threads: options.threads)
        } catch {
            throw .cairo(operation: "encoding the PNG", message: error.description)
        }
    }
}

extension CairoImageSurface {
    /// The pixels as straight (not premultiplied) RGBA bytes, rows without padding.
    func straightRGBA() -> [UInt8] {
        // Every byte is written below, so the array is not zeroed first (4 MB at scale 2).
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            withUnsafeMutablePixels { base, stride in
                var o = out.baseAddress!
                for y in 0..<height {
                    var p = UnsafePointer((base + y * stride).assumingMemoryBound(to: UInt32.self))
                    let end = p + width
                    while p < end {
                        let v = p.pointee, a = v >> 24
                        if a == 255 {
                            o[0] = UInt8(truncatingIfNeeded: v >> 16); o[1] = UInt8(truncatingIfNeeded: v >> 8)
                            o[2] = UInt8(truncatingIfNeeded: v); o[3] = 255
                        } else if a == 0 {
                            o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
                        } else {
                            o[0] = UInt8((((v >> 16) & 255) &* 255 &+ a / 2) / a)
                            o[1] = UInt8((((v >> 8) & 255) &* 255 &+ a / 2) / a)
                            o[2] = UInt8(((v & 255) &* 255 &+ a / 2) / a)
                            o[3] = UInt8(a)
                        }
                        p += 1
                        o += 4
                    }
                }
            }
            count = width * height * 4
        }
    }
}
