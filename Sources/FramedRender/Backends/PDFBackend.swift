internal import CCairo

/// PDF through `cairo_pdf_surface_create_for_stream`: one page of the canvas's size in points.
enum PDFBackend: Backend {
    static func render(_ drawing: FrameDrawing, picture: CairoImageSurface, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        let canvas = drawing.layout.canvas
        do {
            let surface = try CairoSurface(
                taking: cairo_pdf_surface_create_for_stream(ByteSink.writeFunction, sink.closure, canvas.width, canvas.height),
                "creating the PDF")
            setMetadata(options.metadata, on: surface)
            let context = try CairoContext(surface)
            try drawing.draw(picture: picture, in: context)
            try surface.finish()
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }

    /// `cairo_pdf_surface_set_metadata`; the dates are always set, or Cairo writes the clock's time.
    private static func setMetadata(_ metadata: DocumentMetadata, on surface: CairoSurface) {
        let fields: [(cairo_pdf_metadata_t, String?)] = [
            (CAIRO_PDF_METADATA_TITLE, metadata.title),
            (CAIRO_PDF_METADATA_AUTHOR, metadata.author),
            (CAIRO_PDF_METADATA_CREATOR, metadata.creator),
            (CAIRO_PDF_METADATA_CREATE_DATE, metadata.creationDate),
            (CAIRO_PDF_METADATA_MOD_DATE, metadata.creationDate),
        ]
        for case let (key, value?) in fields {
            cairo_pdf_surface_set_metadata(surface.pointer, key, value)
        }
    }
}
