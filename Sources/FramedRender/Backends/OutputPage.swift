import FramedLayout

/// One page of an output file: a framed picture's own output, or a sheet with several prints on
/// it, each turned and placed as `PrintPlace` says; with the boxes a PDF gives the page and the
/// crop marks outside its bleed.
package struct OutputPage: Sendable {
    /// A print on the page, and where it goes: nil when the page is the print's own output.
    package struct Print: Sendable {
        package var page: RenderPage
        package var place: PrintPlace?
    }

    /// The whole page (the PDF MediaBox), in points.
    package var media: Size
    /// The finished page (TrimBox) on it.
    package var trim: Rect
    /// The trim grown by the bleed (BleedBox).
    package var bleed: Rect
    /// The crop marks, in the page's coordinates.
    package var marks: [CropMarks.Line]
    /// The prints, in drawing order.
    package var prints: [Print]

    /// A framed picture's own output: its canvas, or its page with bleed and marks.
    package init(_ page: RenderPage) {
        media = page.outputSize
        trim = page.placement?.trim ?? Rect(origin: .zero, size: media)
        bleed = page.placement?.bleedBox ?? trim
        marks = page.placement?.cropMarks ?? []
        prints = [Print(page: page, place: nil)]
    }

    /// A sheet of `size` with `prints` on it, each at its place, and the sheet's `marks`. The
    /// sheet is the finished page: trim and bleed boxes are the whole sheet, from which the
    /// prints are cut.
    package init(sheet size: Size, prints: [(RenderPage, PrintPlace)], marks: [CropMarks.Line]) {
        media = size
        trim = Rect(origin: .zero, size: size)
        bleed = trim
        self.marks = marks
        self.prints = prints.map { Print(page: $0.0, place: $0.1) }
    }

    /// Draws the prints (`pictures`: each print's, in order) and, with `includeMarks`, the crop
    /// marks (a PDF's are written by `PDFPrint` instead, in the registration colour). A print on
    /// a sheet is moved and turned to its place and clipped to its own bleed box, so that
    /// nothing of it reaches a neighbour or the margin. `pixelsPerPoint`: a raster output's
    /// resolution (`RenderPage.draw`). `annotationLayers`: a PDF's marker of each print's
    /// callouts (`PDFLayer`), in order, nil or none for a print without.
    func draw(_ pictures: [DrawnPicture], in context: CairoContext, format: OutputFormat, includeMarks: Bool = true,
              pdfShadows: PDFShadows? = nil, pixelsPerPoint: Double? = nil,
              annotationLayers: [AnnotationLayerMarker?] = []) throws(RenderError) {
        for (number, (print, picture)) in zip(prints, pictures).enumerated() {
            let layer = number < annotationLayers.count ? annotationLayers[number] : nil
            guard let place = print.place else {
                try print.page.draw(picture, in: context, format: format, pdfShadows: pdfShadows, pixelsPerPoint: pixelsPerPoint,
                                    annotationLayer: layer)
                continue
            }
            try context.withSavedState { () throws(RenderError) in
                context.translate(place.origin.x, place.origin.y)
                if place.turned {
                    context.translate(place.media.height, 0)
                    context.rotate(Double.pi / 2)
                }
                context.newPath()
                context.addRoundedRect(Rect(origin: .zero, size: place.media), radius: 0)
                context.clip()
                try print.page.draw(picture, in: context, format: format, pdfShadows: pdfShadows,
                                    pixelsPerPoint: pixelsPerPoint, annotationLayer: layer)
            }
        }
        if includeMarks { try CropMarkDrawing.stroke(marks, in: context) }
    }

    /// Where each print's picture shows on the page: the picture's visible rectangle and the
    /// rounded padding box that clips it, in the page's coordinates (quarter turns keep both
    /// upright rectangles), with the padding box's corner radius.
    var pictureAreas: [(clip: Rect, padding: Rect, radius: Double)] {
        prints.map { print in
            let layout = print.page.layout
            func onPage(_ r: Rect) -> Rect {
                let placed = print.page.placement?.onPage(r) ?? r
                return print.place?.onSheet(placed) ?? placed
            }
            return (onPage(layout.pictureClip), onPage(layout.paddingBox), layout.innerRadius)
        }
    }
}
