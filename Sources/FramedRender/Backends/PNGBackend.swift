internal import CCairo

/// PNG: the drawing on an ARGB32 image surface, written by `cairo_surface_write_to_png_stream`
/// (8-bit RGBA, transparent outside the frame unless a canvas colour is set).
enum PNGBackend: Backend {
    static func render(_ drawing: FrameDrawing, picture: CairoImageSurface, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let size = options.pixelSize(ofCanvas: drawing.layout.canvas)
        let image = try CairoImageSurface(width: size.width, height: size.height, hasAlpha: true)
        let context = try CairoContext(image.surface)
        let k = options.pictureDPI / 72
        context.scale(k, k)
        try drawing.draw(picture: picture, filter: options.filter, in: context)
        let sink = ByteSink()
        try check(cairo_surface_write_to_png_stream(image.surface.pointer, ByteSink.writeFunction, sink.closure),
                  "encoding the PNG")
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
