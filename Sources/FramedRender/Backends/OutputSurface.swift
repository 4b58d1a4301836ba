internal import CCairo
import FramedLayout

/// The one place where output surfaces are made: SVG and PDF documents written into a
/// `ByteSink` as Cairo streams them, and the image surface that a PNG is drawn on.
enum OutputSurface {
    /// A vector document of `format` (SVG or PDF) whose first page is `size` points, streamed into
    /// `sink` (`cairo_svg_surface_create_for_stream`, `cairo_pdf_surface_create_for_stream`). The
    /// SVG's document unit is the point, said explicitly (the default changed after Cairo 1.16),
    /// so user units are points too; the PDF gets `metadata`. Finish the surface before reading
    /// the sink; the surface keeps the sink alive.
    static func vector(_ format: OutputFormat, size: Size, metadata: DocumentMetadata,
                       into sink: ByteSink) throws(RenderError) -> CairoSurface {
        try CairoNumbers.check("sizing the page", size.width, size.height)
        switch format {
        case .svg:
            let surface = try CairoSurface(
                taking: cairo_svg_surface_create_for_stream(ByteSink.writeFunction, sink.closure, size.width, size.height),
                "creating the SVG")
            cairo_svg_surface_set_document_unit(surface.pointer, CAIRO_SVG_UNIT_PT)
            surface.sink = sink
            return surface
        case .pdf:
            let surface = try CairoSurface(
                taking: cairo_pdf_surface_create_for_stream(ByteSink.writeFunction, sink.closure, size.width, size.height),
                "creating the PDF")
            setMetadata(metadata, on: surface)
            surface.sink = sink
            return surface
        case .png, .jpeg, .tiff:
            throw .unsupported("\(format.rawValue.uppercased()) is drawn on an image surface, not a document")
        }
    }

    /// The ARGB32 image surface a PNG, JPEG or TIFF is drawn on, `size` device pixels.
    static func raster(_ size: PixelSize) throws(RenderError) -> CairoImageSurface {
        try CairoImageSurface(width: size.width, height: size.height, hasAlpha: true)
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
