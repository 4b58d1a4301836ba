import FramedLayout

/// The one drawing routine that every backend runs, in user space measured in points.
///
/// Order, bottom to top: canvas colour, shadows (last in the CSS list first), the frame's
/// background, the picture (clipped, then painted), the border.
struct FrameDrawing {
    var layout: FrameLayout
    var style: FrameStyle
    /// Pad the picture's edge pixels outwards (raster output) rather than fading them out.
    var padPictureEdges: Bool

    func draw(picture: CairoImageSurface, in context: CairoContext) throws(RenderError) {
        if style.canvasColor.alpha > 0 {
            context.setSource(style.canvasColor)
            context.paint()
        }
        for shadow in layout.shadows.reversed() where !shadow.inset {
            try VectorShadow.draw(shadow, in: context)
        }
        if style.background.alpha > 0 {
            context.newPath()
            context.addRoundedRect(layout.frame, radius: layout.outerRadius)
            context.setSource(style.background)
            context.fill()
        }
        try drawPicture(picture, in: context)
        if layout.borderWidth > 0, style.borderColor.alpha > 0 {
            // A ring between the outer and the inner shape: exact width, inside the frame.
            try context.withSavedState { () throws(RenderError) in
                context.newPath()
                context.addRoundedRect(layout.frame, radius: layout.outerRadius)
                context.addRoundedRect(layout.paddingBox, radius: layout.innerRadius)
                context.setEvenOddFill(true)
                context.setSource(style.borderColor)
                context.fill()
            }
        }
        try context.checkStatus("drawing the frame")
    }

    /// Clips to the inner shape and the content box, then paints the picture scaled onto its rect
    /// (`cairo_paint` under a clip, never a filled image pattern, which the SVG backend tiles).
    private func drawPicture(_ picture: CairoImageSurface, in context: CairoContext) throws(RenderError) {
        let rect = layout.picture
        guard layout.pictureClip.width > 0, layout.pictureClip.height > 0 else { return }
        let pattern = try CairoPattern.surface(picture)
        pattern.setSmoothFiltering()
        if padPictureEdges { pattern.padEnds() }
        let sx = Double(picture.width) / rect.width, sy = Double(picture.height) / rect.height
        pattern.setMatrix(scaleX: sx, scaleY: sy, translateX: -rect.x * sx, translateY: -rect.y * sy)
        try context.withSavedState { () throws(RenderError) in
            if layout.innerRadius > 0 {
                context.newPath()
                context.addRoundedRect(layout.paddingBox, radius: layout.innerRadius)
                context.clip()
            }
            context.newPath()
            context.addRoundedRect(layout.pictureClip, radius: 0)
            context.clip()
            context.setSource(pattern)
            context.paint()
        }
    }
}
