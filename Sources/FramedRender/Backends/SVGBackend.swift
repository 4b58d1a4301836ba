internal import CCairo

/// SVG through `cairo_svg_surface_create_for_stream`, sized in points.
enum SVGBackend: Backend {
    static func render(_ drawing: FrameDrawing, picture: CairoImageSurface, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        let canvas = drawing.layout.canvas
        do {
            let surface = try CairoSurface(
                taking: cairo_svg_surface_create_for_stream(ByteSink.writeFunction, sink.closure, canvas.width, canvas.height),
                "creating the SVG")
            // The default unit changed after Cairo 1.16; say it. User units are then points too.
            cairo_svg_surface_set_document_unit(surface.pointer, CAIRO_SVG_UNIT_PT)
            let context = try CairoContext(surface)
            try drawing.draw(picture: picture, filter: options.filter, in: context)
            try surface.finish()
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
