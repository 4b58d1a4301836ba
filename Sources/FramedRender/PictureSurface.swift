internal import CCairo
import FramedLayout
import FramedRaster

/// Turns a decoded picture into the Cairo image that gets embedded: premultiplied, and shrunk
/// to exactly the pixels the placed picture needs.
enum PictureSurface {
    /// Cairo's GOOD and BEST filters stop widening their kernel past a 16x reduction, so larger
    /// reductions are done in steps of at most this factor.
    static let maximumStep = 8

    /// The picture as an image surface of `size` pixels (never enlarged here).
    static func make(from image: RasterImage, size: PixelSize, filter: ResampleFilter) throws(RenderError) -> CairoImageSurface {
        var current = try copy(image)
        while current.width > size.width || current.height > size.height {
            let next = PixelSize(width: max(size.width, (current.width + maximumStep - 1) / maximumStep),
                                 height: max(size.height, (current.height + maximumStep - 1) / maximumStep))
            current = try resample(current, to: next, filter: filter)
        }
        return current
    }

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

    /// One resampling step with Cairo's image filter; edges padded so they do not fade.
    static func resample(_ source: CairoImageSurface, to size: PixelSize, filter: ResampleFilter) throws(RenderError) -> CairoImageSurface {
        let target = try CairoImageSurface(width: size.width, height: size.height, hasAlpha: source.hasAlpha)
        let context = try CairoContext(target.surface)
        let pattern = try CairoPattern.surface(source)
        pattern.setFilter(filter)
        pattern.padEnds()
        pattern.setMatrix(scaleX: Double(source.width) / Double(size.width), scaleY: Double(source.height) / Double(size.height),
                          translateX: 0, translateY: 0)
        context.setSource(pattern)
        context.paint()
        try context.checkStatus("resampling the picture")
        return target
    }
}
