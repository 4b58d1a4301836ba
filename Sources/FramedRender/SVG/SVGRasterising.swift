import FramedLayout
import FramedRaster

extension SVGDocument {
    /// The document drawn into `size` pixels (stretched to them) as straight RGBA pixels: what
    /// the canvas's paint reads of an SVG picture (`--canvas-color auto`, `--canvas-image
    /// picture`), which has no pixels of its own.
    package func rasterised(_ size: PixelSize) throws(RenderError) -> RasterImage {
        let surface = try CairoImageSurface(width: max(1, size.width), height: max(1, size.height), hasAlpha: true)
        let context = try CairoContext(surface.surface)
        try draw(in: context, rect: Rect(x: 0, y: 0, width: Double(surface.width), height: Double(surface.height)))
        let pixels = surface.withStraightRGBA { rows in
            Array(UnsafeBufferPointer(start: rows.base, count: rows.width * rows.height * 4))
        }
        return RasterImage(width: surface.width, height: surface.height, pixels: pixels)
    }
}
