internal import CCairo
import FramedRaster

/// PNG: the drawing on an ARGB32 image surface, un-premultiplied and written as 8-bit RGBA by
/// the project's own encoder (Cairo's `cairo_surface_write_to_png_stream` drops the alpha
/// channel when nothing happens to be transparent, and picks no compression settings).
enum PNGBackend: Backend {
    static func render(_ drawing: FrameDrawing, picture: CairoImageSurface, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let size = options.pixelSize(ofCanvas: options.outputCanvas(drawing.layout))
        let image = try CairoImageSurface(width: size.width, height: size.height, hasAlpha: true)
        let context = try CairoContext(image.surface)
        let k = options.pictureDPI / 72
        context.scale(k, k)
        options.placeOnPage(context)
        try drawing.draw(picture: picture, in: context)
        let rgba = image.straightRGBA()
        do {
            return try PictureEncoder.png(RasterImage(width: size.width, height: size.height, pixels: rgba,
                                                      hasAlpha: true, resolution: options.pictureDPI))
        } catch {
            throw .cairo(operation: "encoding the PNG", message: error.description)
        }
    }
}

extension CairoImageSurface {
    /// The pixels as straight (not premultiplied) RGBA bytes, rows without padding.
    func straightRGBA() -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            withUnsafeMutablePixels { base, stride in
                for y in 0..<height {
                    let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                    var o = y * width * 4
                    for x in 0..<width {
                        let p = row[x]
                        let a = p >> 24
                        if a == 255 {
                            out[o] = UInt8(truncatingIfNeeded: p >> 16); out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                            out[o + 2] = UInt8(truncatingIfNeeded: p); out[o + 3] = 255
                        } else if a > 0 {
                            out[o] = UInt8((((p >> 16) & 255) * 255 + a / 2) / a)
                            out[o + 1] = UInt8((((p >> 8) & 255) * 255 + a / 2) / a)
                            out[o + 2] = UInt8(((p & 255) * 255 + a / 2) / a)
                            out[o + 3] = UInt8(a)
                        }
                        o += 4
                    }
                }
            }
        }
        return rgba
    }
}
