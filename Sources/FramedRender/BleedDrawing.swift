import FramedLayout
import FramedRaster

/// Paints the bleed beyond a framed picture's trim where its frame reaches the trim: the strips
/// that `Bleed.strips` lists, each with the frame's own paint, in the frame's coordinates.
///
/// The picture continues as CSS's and Cairo's `pad` extend would draw it: its own pixels where
/// the content box had cropped them, then its edge pixels drawn outwards. Raster output pads
/// the picture's pattern itself. SVG and PDF have no padded image (Cairo would embed the picture
/// again, padded, as a new image), so there the picture is drawn again under the strip's clip
/// (the same image object) and each edge row or column beyond it is a one-pixel strip of its
/// own, stretched; a corner beyond both is the corner pixel's colour. An SVG picture continues as
/// its `--flatten` colour, if any.
struct BleedDrawing {
    var strips: [BleedStrip]
    var frame: FrameDrawing
    /// The picture's pixels, for the edge strips of SVG and PDF.
    var picture: PagePicture

    func draw(_ drawn: DrawnPicture, in context: CairoContext) throws(RenderError) {
        guard !strips.isEmpty else { return }
        var edges: PictureEdges?
        for strip in strips {
            try context.withSavedState { () throws(RenderError) in
                switch strip.paint {
                case .mat:
                    try frame.fillMat(strip.area, in: context)
                case .border:
                    fill(strip.area, frame.style.borderColor, in: context)
                case .picture:
                    context.newPath()
                    context.addRoundedRect(strip.area, radius: 0)
                    context.clip()
                    switch drawn {
                    case let .surface(image):
                        // The picture itself where the content box had cropped it, or all of the
                        // strip when its pattern is padded.
                        let cropped = strip.area.intersection(frame.layout.picture)
                        if frame.padPictureEdges || (cropped.width > 0 && cropped.height > 0) {
                            context.setSource(try frame.picturePattern(image))
                            context.paint()
                        }
                        if !frame.padPictureEdges, case let .raster(embedded) = picture {
                            if edges == nil { edges = try PictureEdges(embedded.image) }
                            try edges!.draw(around: frame.layout.picture, reaching: strip.area, in: context)
                        }
                    case let .vector(vector):
                        if let background = vector.background { fill(strip.area, background, in: context) }
                    }
                }
            }
        }
        try context.checkStatus("drawing the bleed")
    }

    private func fill(_ area: Rect, _ color: RGBAColor, in context: CairoContext) {
        guard color.alpha > 0 else { return }
        context.newPath()
        context.addRoundedRect(area, radius: 0)
        context.setSource(color)
        context.fill()
    }
}

/// A picture's outermost rows and columns as one-pixel images, and its corner pixels' colours:
/// what its edges are drawn outwards with where no padded pattern is to be had.
struct PictureEdges {
    let top: CairoImageSurface, bottom: CairoImageSurface, left: CairoImageSurface, right: CairoImageSurface
    let corners: [RGBAColor]  // top-left, top-right, bottom-right, bottom-left

    init(_ image: RasterImage) throws(RenderError) {
        let w = image.width, h = image.height
        func strip(count: Int, _ pixel: (Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8), across: Bool)
            throws(RenderError) -> CairoImageSurface {
            // At most an image surface's side: a longer edge is sampled.
            let n = min(count, CairoImageSurface.maximumSide)
            var pixels = [UInt8](repeating: 0, count: 4 * n)
            for i in 0..<n {
                let p = pixel(i * count / n)
                pixels[4 * i] = p.r; pixels[4 * i + 1] = p.g; pixels[4 * i + 2] = p.b; pixels[4 * i + 3] = p.a
            }
            let line = across ? RasterImage(width: n, height: 1, pixels: pixels, hasAlpha: image.hasAlpha)
                : RasterImage(width: 1, height: n, pixels: pixels, hasAlpha: image.hasAlpha)
            return try PictureSurface.copy(line)
        }
        top = try strip(count: w, { image.pixel(x: $0, y: 0) }, across: true)
        bottom = try strip(count: w, { image.pixel(x: $0, y: h - 1) }, across: true)
        left = try strip(count: h, { image.pixel(x: 0, y: $0) }, across: false)
        right = try strip(count: h, { image.pixel(x: w - 1, y: $0) }, across: false)
        corners = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)].map { x, y in
            let p = image.pixel(x: x, y: y)
            return RGBAColor(red: Double(p.r) / 255, green: Double(p.g) / 255, blue: Double(p.b) / 255, alpha: Double(p.a) / 255)
        }
    }

    /// Draws the edges of a picture placed at `rect` outwards over what of `area` lies beyond
    /// it (under the clip the caller set): each side's row or column stretched across, and each
    /// corner's colour beyond both sides.
    func draw(around rect: Rect, reaching area: Rect, in context: CairoContext) throws(RenderError) {
        let reach = area.union(rect)
        let beyondLeft = rect.minX - reach.minX, beyondTop = rect.minY - reach.minY
        let beyondRight = reach.maxX - rect.maxX, beyondBottom = reach.maxY - rect.maxY
        func stretch(_ image: CairoImageSurface, over target: Rect, across: Bool) throws(RenderError) {
            guard target.width > 0, target.height > 0 else { return }
            let pattern = try CairoPattern.surface(image)
            pattern.setSmoothFiltering()
            // Along the edge the pixels follow the picture's; across it the one pixel fills the strip.
            let sx = across ? Double(image.width) / rect.width : 1 / target.width
            let sy = across ? 1 / target.height : Double(image.height) / rect.height
            let ox = across ? rect.minX : target.minX, oy = across ? target.minY : rect.minY
            try pattern.setMatrix(scaleX: sx, scaleY: sy, translateX: -ox * sx, translateY: -oy * sy)
            try context.paint(pattern, over: target)
        }
        try stretch(top, over: Rect(x: rect.minX, y: reach.minY, width: rect.width, height: beyondTop), across: true)
        try stretch(bottom, over: Rect(x: rect.minX, y: rect.maxY, width: rect.width, height: beyondBottom), across: true)
        try stretch(left, over: Rect(x: reach.minX, y: rect.minY, width: beyondLeft, height: rect.height), across: false)
        try stretch(right, over: Rect(x: rect.maxX, y: rect.minY, width: beyondRight, height: rect.height), across: false)
        let corners = [Rect(x: reach.minX, y: reach.minY, width: beyondLeft, height: beyondTop),
                       Rect(x: rect.maxX, y: reach.minY, width: beyondRight, height: beyondTop),
                       Rect(x: rect.maxX, y: rect.maxY, width: beyondRight, height: beyondBottom),
                       Rect(x: reach.minX, y: rect.maxY, width: beyondLeft, height: beyondBottom)]
        for (corner, color) in zip(corners, self.corners) where corner.width > 0 && corner.height > 0 && color.alpha > 0 {
            context.newPath()
            context.addRoundedRect(corner, radius: 0)
            context.setSource(color)
            context.fill()
        }
    }
}
