import FramedLayout

/// A framed picture as every backend draws it: the framed canvas where the placement puts it,
/// the frame's paint continued into the bleed where it reaches the trim (`Bleed`,
/// `BleedDrawing`), clipped to the bleed box when there are marks in the slug (the marks are the
/// `OutputPage`'s: stroked by Cairo in SVG and the raster formats, by `PDFPrint` in a PDF).
extension RenderPage {
    /// Draws the framed picture on the page. Without marks that is the framed canvas moved to its
    /// place (the context's transformation is left moved). With marks the canvas colour (and all
    /// else) stops at the bleed box, so that the slug stays paper-white. `pdfShadows` collects a
    /// PDF's shadows for the PDF pass (`PDFShadow`). `pixelsPerPoint` is a raster output's
    /// resolution (its edges are snapped to whole pixels, so a frame within a pixel of the trim
    /// is on it); nil for SVG and PDF. `annotationLayer` marks a PDF page's callouts for the
    /// layer that the PDF pass makes of them (`PDFLayer`).
    func draw(_ picture: DrawnPicture, in context: CairoContext, format: OutputFormat,
              pdfShadows: PDFShadows? = nil, pixelsPerPoint: Double? = nil,
              annotationLayer: AnnotationLayerMarker? = nil) throws(RenderError) {
        // The canvas image's surface, drawn here and let go (Cairo keeps what it recorded).
        var surface: (surface: CairoImageSurface, area: Rect)?
        if let backdrop {
            surface = (try PictureSurface.embedding(backdrop.picture, format: format, threads: 1), backdrop.area)
        }
        let drawing = drawing(for: format, pdfShadows: pdfShadows, backdrop: surface, annotationLayer: annotationLayer)
        let bleed = BleedDrawing(strips: bleedStrips(pixelsPerPoint: pixelsPerPoint), frame: drawing, picture: self.picture)
        guard let placement, placement.marks != .none else {
            placeOnPage(context)
            try drawing.draw(picture: picture, in: context)
            try bleed.draw(picture, in: context)
            return
        }
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(placement.bleedBox, radius: 0)
            context.clip()
            placeOnPage(context)
            try drawing.draw(picture: picture, in: context)
            try bleed.draw(picture, in: context)
        }
    }

    /// Whether drawing the page in a PDF or an SVG reads the picture's pixels, not only its JPEG
    /// bytes: its bleed continues the picture's edge pixels outwards (`PictureEdges`).
    package var bleedReadsPicturePixels: Bool { bleedStrips(pixelsPerPoint: nil).contains { $0.paint == .picture } }

    /// Where the frame's paint continues into the bleed, in the framed canvas's coordinates: a
    /// shape within a hundredth of a point of the trim is on it, or within a device pixel in
    /// raster output.
    func bleedStrips(pixelsPerPoint: Double?) -> [BleedStrip] {
        guard let placement, placement.bleed > 0 else { return [] }
        let tolerance = pixelsPerPoint.map { 1 / $0 + 1e-6 } ?? 0.01
        return Bleed.strips(layout: layout, style: style, trim: placement.trimOnCanvas, bleed: placement.bleed,
                            tolerance: tolerance)
    }
}

/// Crop marks drawn by Cairo: black hairlines of `CropMarks.lineWidth` with butt ends, so that
/// each stops exactly where the geometry says.
enum CropMarkDrawing {
    static func stroke(_ lines: [CropMarks.Line], in context: CairoContext) throws(RenderError) {
        guard !lines.isEmpty else { return }
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            for line in lines { context.addLine(from: line.start, to: line.end) }
            context.setSource(RGBAColor(red: 0, green: 0, blue: 0, alpha: 1))
            context.stroke(width: CropMarks.lineWidth)
            try context.checkStatus("drawing the crop marks")
        }
    }
}
