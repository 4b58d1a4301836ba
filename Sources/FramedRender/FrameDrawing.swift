import FramedLayout

/// The one drawing routine that every backend runs, in user space measured in points.
///
/// Order, bottom to top: canvas colour, canvas image, canvas gradient, outer shadows (last in
/// the CSS list first; outside the frame only), the frame's background, the window title bar, the
/// picture (clipped, then painted), inset shadows, the inner border, the border, the window's
/// rims, the caption, the callouts.
struct FrameDrawing {
    var layout: FrameLayout
    var style: FrameStyle
    /// Pad the picture's edge pixels outwards (raster output) rather than fading them out.
    var padPictureEdges: Bool
    /// PDF output: shadows drawn as placeholders for `PDFShadow`, which the PDF pass replaces;
    /// nil: every shadow is `VectorShadow`'s.
    var pdfShadows: PDFShadows? = nil
    /// The canvas image's surface and the area it covers (`CanvasPicture`), if any.
    var backdrop: (surface: CairoImageSurface, area: Rect)? = nil
    /// The callouts, drawn last.
    var annotations: [PlacedAnnotation] = []
    /// PDF: the callouts go in a group that the PDF pass makes the layer "Annotations"
    /// (`PDFLayer`); nil: drawn as they are.
    var annotationLayer: AnnotationLayerMarker? = nil

    func draw(picture: DrawnPicture, in context: CairoContext) throws(RenderError) {
        if style.canvasColor.alpha > 0 {
            context.setSource(style.canvasColor)
            context.paint()
        }
        if let backdrop {
            // Like a CSS background image over the background colour: stretched to its area
            // (the pixels were made for it), smoothly.
            try context.withSavedState { () throws(RenderError) in
                context.newPath()
                context.addRoundedRect(backdrop.area, radius: 0)
                context.clip()
                try Self.paint(backdrop.surface, onto: backdrop.area, padded: padPictureEdges, in: context)
            }
        }
        if let gradient = style.canvasGradient {
            // A filled shape rather than a paint: Cairo writes a paint as a bare `sh`, which
            // Inkscape's PDF import drops; a fill becomes a clip before it, which imports exactly.
            // The shape is what the paint covered, the clip's box (the canvas, and the bleed
            // around a print's), with a fifth point above its top edge (off the page): Cairo turns
            // the fill of a rectilinear path that covers the page back into a paint.
            let canvas = Rect(origin: .zero, size: layout.canvas)
            let covered = context.clipExtents().map { $0.union(canvas) } ?? canvas
            context.newPath()
            context.addPolygon([Point(x: covered.minX, y: covered.minY), Point(x: covered.midX, y: covered.minY - 1),
                                Point(x: covered.maxX, y: covered.minY), Point(x: covered.maxX, y: covered.maxY),
                                Point(x: covered.minX, y: covered.maxY)])
            context.setSource(try Self.pattern(gradient.resolved(in: canvas)))
            context.fill()
        }
        try drawOuterShadows(in: context)
        if style.background.alpha > 0 {
            context.newPath()
            context.addRoundedRect(layout.frame, radius: layout.outerRadius)
            context.setSource(style.background)
            context.fill()
        }
        if let gradient = style.backgroundGradient {
            context.newPath()
            context.addRoundedRect(layout.frame, radius: layout.outerRadius)
            context.setSource(try Self.pattern(gradient.resolved(in: layout.frame)))
            context.fill()
        }
        if let bar = layout.titleBar, let kind = style.chrome.kind {
            try WindowChromeDrawing(bar: bar, kind: kind, theme: style.chrome.theme, title: style.chrome.title)
                .draw(clip: layout.paddingBox, radius: layout.innerRadius, in: context)
        }
        try drawPicture(picture, in: context)
        for shadow in layout.shadows.reversed() where shadow.inset {
            try drawInset(shadow, in: context)
        }
        try drawInnerBorder(in: context)
        try drawBorder(in: context)
        if layout.titleBar != nil, let figures = style.chrome.figures { try drawWindowRims(figures, in: context) }
        try drawCaption(in: context)
        try drawAnnotations(picture: picture, in: context)
        try context.checkStatus("drawing the frame")
    }

    /// Outer shadows, last in the CSS list first. As in CSS, they show only outside the frame:
    /// under a mat that is not opaque they are clipped away (everything but the frame's shape, the
    /// frame wound the other way: Cairo 1.16's SVG backend writes an even-odd clip rule on the
    /// group, where SVG ignores it). An opaque mat hides them anyway, and is left unclipped so that
    /// no antialiased clip edge can lighten the frame's outline.
    private func drawOuterShadows(in context: CairoContext) throws(RenderError) {
        let outer = layout.shadows.filter { !$0.inset }
        guard !outer.isEmpty else { return }
        try context.withSavedState { () throws(RenderError) in
            if style.background.alpha < 1 || style.backgroundGradient != nil {
                let reach = outer.reduce(layout.frame) { $0.union(VectorShadow.area(of: $1)) }.outset(by: 1)
                context.newPath()
                context.addRoundedRect(reach, radius: 0)
                context.addRoundedRect(layout.frame, radius: layout.outerRadius, clockwise: false)
                context.clip()
            }
            for shadow in outer.reversed() {
                if let pdfShadows, try pdfShadows.draw(shadow, clip: nil, in: context) { continue }
                try VectorShadow.draw(shadow, in: context)
            }
        }
    }

    /// A Cairo gradient pattern for a resolved CSS gradient, its ends padded (CSS gradients
    /// continue in their end colours). An ellipse is a circle of its smaller radius whose pattern
    /// space is the user space squeezed along the longer one: squeezed, never stretched, so that
    /// what the file holds (the circle, the matrix back to user space) stays as small as the box.
    static func pattern(_ gradient: ResolvedGradient) throws(RenderError) -> CairoPattern {
        let pattern: CairoPattern
        switch gradient.geometry {
        case let .linear(start, end):
            pattern = try .linear(from: start, to: end)
        case let .radial(center, rx, ry):
            let r = min(rx, ry), sx = r / rx, sy = r / ry
            pattern = try .radial(centre: Point(x: center.x * sx, y: center.y * sy), radius: r)
            try pattern.setMatrix(scaleX: sx, scaleY: sy, translateX: 0, translateY: 0)
        }
        for stop in gradient.stops { try pattern.addStop(stop.offset, stop.color) }
        pattern.padEnds()
        return pattern
    }

    /// An inset shadow, inside the padding box.
    private func drawInset(_ shadow: ShadowGeometry, in context: CairoContext) throws(RenderError) {
        if let pdfShadows {
            let drawn = try context.withSavedState { () throws(RenderError) -> Bool in
                context.newPath()
                context.addRoundedRect(layout.paddingBox, radius: layout.innerRadius)
                context.clip()
                return try pdfShadows.draw(shadow, clip: layout.paddingBox, in: context)
            }
            if drawn { return }
        }
        try VectorShadow.drawInset(shadow, clip: layout.paddingBox, radius: layout.innerRadius, in: context)
    }

    /// The border: a ring between the outer shape and the padding box, exact width, inside the
    /// frame; `double` draws the outer and inner thirds of that ring.
    private func drawBorder(in context: CairoContext) throws(RenderError) {
        let b = layout.borderWidth
        guard b > 0, style.borderColor.alpha > 0 else { return }
        var rings = [(outer: 0.0, inner: b)]
        if style.borderStyle == .double {
            let band = b / 3
            rings = [(0, band), (b - band, b)]
        }
        for ring in rings {
            try fillRing(outer: layout.frame.outset(by: -ring.outer), outerRadius: max(0, layout.outerRadius - ring.outer),
                         inner: layout.frame.outset(by: -ring.inner), innerRadius: max(0, layout.outerRadius - ring.inner),
                         color: style.borderColor, in: context)
        }
    }

    /// A window's rims, where its platform draws them (macOS's dark appearance), 1 px each: the
    /// inner one just inside the frame's edge (over the border, the bar and the picture's
    /// outermost pixels, translucent), the outer one just outside it, on the canvas, its corners
    /// rounded as a CSS spread rounds them (square ones stay square).
    private func drawWindowRims(_ figures: ChromeFigures, in context: CairoContext) throws(RenderError) {
        let px = WindowChromeDrawing.px, frame = layout.frame, r = layout.outerRadius
        if let outer = figures.outerRim {
            try fillRing(outer: frame.outset(by: px), outerRadius: r > 0 ? r + px : 0, inner: frame, innerRadius: r,
                         color: outer, in: context)
        }
        if let inner = figures.innerRim {
            try fillRing(outer: frame, outerRadius: r, inner: frame.outset(by: -px), innerRadius: max(0, r - px),
                         color: inner, in: context)
        }
    }

    /// The hairline around the picture's opening in the mat, just outside the visible picture,
    /// kept inside the padding box.
    private func drawInnerBorder(in context: CairoContext) throws(RenderError) {
        let w = layout.innerBorderWidth
        guard w > 0, let line = style.innerBorder, line.color.alpha > 0,
              layout.pictureClip.width > 0, layout.pictureClip.height > 0 else { return }
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(layout.paddingBox, radius: layout.innerRadius)
            context.clip()
            try fillRing(outer: layout.pictureClip.outset(by: w), outerRadius: 0,
                         inner: layout.pictureClip, innerRadius: 0, color: line.color, in: context)
        }
    }

    /// Fills the area between two nested rounded rectangles (even-odd rule).
    private func fillRing(outer: Rect, outerRadius: Double, inner: Rect, innerRadius: Double,
                          color: RGBAColor, in context: CairoContext) throws(RenderError) {
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(outer, radius: outerRadius)
            context.addRoundedRect(inner, radius: innerRadius)
            context.setEvenOddFill(true)
            context.setSource(color)
            context.fill()
        }
    }

    /// Clips to the inner shape and the content box, then draws the picture onto its rect: an
    /// image scaled there (`cairo_paint` under a clip, never a filled image pattern, which the
    /// SVG backend tiles), or an SVG drawn there by librsvg through the same clip.
    private func drawPicture(_ picture: DrawnPicture, in context: CairoContext) throws(RenderError) {
        let rect = layout.picture
        guard layout.pictureClip.width > 0, layout.pictureClip.height > 0 else { return }
        try context.withSavedState { () throws(RenderError) in
            if layout.innerRadius > 0 {
                context.newPath()
                context.addRoundedRect(layout.paddingBox, radius: layout.innerRadius)
                context.clip()
            }
            context.newPath()
            context.addRoundedRect(layout.pictureClip, radius: 0)
            context.clip()
            switch picture {
            case let .surface(image):
                try Self.paint(image, onto: rect, padded: padPictureEdges, in: context)
            case let .vector(vector):
                if let background = vector.background {
                    context.newPath()
                    context.addRoundedRect(rect, radius: 0)
                    context.setSource(background)
                    context.fill()
                }
                try vector.document.draw(in: context, rect: rect)
            }
        }
    }
}

extension FrameDrawing {
    /// The picture's surface as a pattern over the picture's place (`layout.picture`), smoothly
    /// sampled, its edge pixels padded outwards for raster output.
    func picturePattern(_ image: CairoImageSurface) throws(RenderError) -> CairoPattern {
        try Self.pattern(image, onto: layout.picture, padded: padPictureEdges)
    }

    /// `image` as a pattern stretched onto `rect`, smoothly filtered; `padded` carries its edge
    /// pixels outwards instead of fading them out.
    static func pattern(_ image: CairoImageSurface, onto rect: Rect, padded: Bool) throws(RenderError) -> CairoPattern {
        let pattern = try CairoPattern.surface(image)
        pattern.setSmoothFiltering()
        if padded { pattern.padEnds() }
        let sx = Double(image.width) / rect.width, sy = Double(image.height) / rect.height
        try pattern.setMatrix(scaleX: sx, scaleY: sy, translateX: -rect.x * sx, translateY: -rect.y * sy)
        return pattern
    }

    /// Paints `image` stretched onto `rect` under the current clip (`cairo_paint`, never a
    /// filled image pattern, which the SVG backend tiles).
    static func paint(_ image: CairoImageSurface, onto rect: Rect, padded: Bool, in context: CairoContext) throws(RenderError) {
        context.setSource(try pattern(image, onto: rect, padded: padded))
        context.paint()
    }

    /// The mat's paint over `area`: the background colour, then its gradient (resolved in the
    /// frame, so that it runs on beyond it as it runs).
    func fillMat(_ area: Rect, in context: CairoContext) throws(RenderError) {
        if style.background.alpha > 0 {
            context.newPath()
            context.addRoundedRect(area, radius: 0)
            context.setSource(style.background)
            context.fill()
        }
        if let gradient = style.backgroundGradient {
            context.newPath()
            context.addRoundedRect(area, radius: 0)
            context.setSource(try Self.pattern(gradient.resolved(in: layout.frame)))
            context.fill()
        }
    }
}

/// The picture as the drawing paints it: an image surface (`PictureSurface`), or an SVG.
enum DrawnPicture {
    case surface(CairoImageSurface)
    case vector(VectorPicture)
}
