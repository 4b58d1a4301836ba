import FramedLayout

/// A framed picture as every backend draws it: the framed canvas where the placement puts it,
/// clipped to the bleed box when there are marks in the slug.
extension RenderPage {
    /// Draws the framed picture on the page (its marks are the `OutputPage`'s). Without marks
    /// that is the framed canvas moved to its place (the context's transformation is left
    /// moved). With marks the canvas colour (and
    /// all else) stops at the bleed box, so that the slug stays paper-white. `pdfShadows`
    /// collects a PDF's shadows for the PDF pass (`PDFShadow`).
    func draw(_ picture: DrawnPicture, in context: CairoContext, format: OutputFormat,
              pdfShadows: PDFShadows? = nil) throws(RenderError) {
        guard let placement, placement.marks != .none else {
            placeOnPage(context)
            try drawing(for: format, pdfShadows: pdfShadows).draw(picture: picture, in: context)
            return
        }
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(placement.bleedBox, radius: 0)
            context.clip()
            placeOnPage(context)
            try drawing(for: format, pdfShadows: pdfShadows).draw(picture: picture, in: context)
        }
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
