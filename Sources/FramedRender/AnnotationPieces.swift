internal import CText
import FramedLayout

/// Callouts as the pieces every output paints, in order: paths stroked or filled (a halo under
/// each stroke and shape, then the stroke or shape), text, and a magnifier's enlarged picture.
/// Cairo draws them for PNG, JPEG, TIFF and PDF (`FrameDrawing.drawAnnotations`); the SVG writer
/// writes the same pieces as elements (`SVGAnnotations`), so every format shows the same shapes.

/// A path in points: what Cairo's path holds and SVG's `d` writes.
enum PathElement: Equatable {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    case close

    /// A circular arc's cubic Bézier factor for a quarter circle.
    static let kappa = 4 * (2.0.squareRoot() - 1) / 3

    /// A rectangle, its corners rounded by `radius` (quarter circles as Béziers), clockwise.
    static func roundedRect(_ r: Rect, radius: Double) -> [PathElement] {
        roundedRect(r, radii: (radius, radius, radius, radius))
    }

    /// A rectangle with each corner rounded by its own radius (top-left, top-right,
    /// bottom-right, bottom-left), clockwise from the top-left.
    static func roundedRect(_ r: Rect, radii: (Double, Double, Double, Double)) -> [PathElement] {
        func clamp(_ k: Double) -> Double { min(max(0, k), r.width / 2, r.height / 2) }
        let (a, b, c, d) = (clamp(radii.0), clamp(radii.1), clamp(radii.2), clamp(radii.3))
        let q = 1 - kappa
        var path: [PathElement] = [.move(Point(x: r.minX + a, y: r.minY)), .line(Point(x: r.maxX - b, y: r.minY))]
        if b > 0 { path.append(.curve(Point(x: r.maxX - b * q, y: r.minY), Point(x: r.maxX, y: r.minY + b * q), Point(x: r.maxX, y: r.minY + b))) }
        path.append(.line(Point(x: r.maxX, y: r.maxY - c)))
        if c > 0 { path.append(.curve(Point(x: r.maxX, y: r.maxY - c * q), Point(x: r.maxX - c * q, y: r.maxY), Point(x: r.maxX - c, y: r.maxY))) }
        path.append(.line(Point(x: r.minX + d, y: r.maxY)))
        if d > 0 { path.append(.curve(Point(x: r.minX + d * q, y: r.maxY), Point(x: r.minX, y: r.maxY - d * q), Point(x: r.minX, y: r.maxY - d))) }
        path.append(.line(Point(x: r.minX, y: r.minY + a)))
        if a > 0 { path.append(.curve(Point(x: r.minX, y: r.minY + a * q), Point(x: r.minX + a * q, y: r.minY), Point(x: r.minX + a, y: r.minY))) }
        path.append(.close)
        return path
    }

    /// The ellipse inside `r`, four quarter Béziers, clockwise from its top.
    static func ellipse(_ r: Rect) -> [PathElement] {
        let rx = r.width / 2, ry = r.height / 2, cx = r.midX, cy = r.midY
        let kx = rx * kappa, ky = ry * kappa
        return [
            .move(Point(x: cx, y: cy - ry)),
            .curve(Point(x: cx + kx, y: cy - ry), Point(x: cx + rx, y: cy - ky), Point(x: cx + rx, y: cy)),
            .curve(Point(x: cx + rx, y: cy + ky), Point(x: cx + kx, y: cy + ry), Point(x: cx, y: cy + ry)),
            .curve(Point(x: cx - kx, y: cy + ry), Point(x: cx - rx, y: cy + ky), Point(x: cx - rx, y: cy)),
            .curve(Point(x: cx - rx, y: cy - ky), Point(x: cx - kx, y: cy - ry), Point(x: cx, y: cy - ry)),
            .close,
        ]
    }

    /// A circle.
    static func circle(_ center: Point, radius: Double) -> [PathElement] {
        ellipse(Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    /// A closed polygon through `points`.
    static func polygon(_ points: [Point]) -> [PathElement] {
        guard let first = points.first else { return [] }
        return [.move(first)] + points.dropFirst().map { .line($0) } + [.close]
    }

    /// The quadratic Bézier from `a` through control `c` to `b`, as the cubic that is the same
    /// curve.
    static func quadratic(from a: Point, control c: Point, to b: Point) -> [PathElement] {
        let c1 = Point(x: a.x + 2 / 3 * (c.x - a.x), y: a.y + 2 / 3 * (c.y - a.y))
        let c2 = Point(x: b.x + 2 / 3 * (c.x - b.x), y: b.y + 2 / 3 * (c.y - b.y))
        return [.move(a), .curve(c1, c2, b)]
    }
}

/// How a path is painted.
enum PieceInk: Equatable {
    /// Stroked `width` wide, with round caps and joins.
    case stroke(RGBAColor, width: Double)
    /// Filled (nonzero, or even-odd: a shape with a hole).
    case fill(RGBAColor, evenOdd: Bool)
    /// Filled and multiplied with what lies under it, as a highlighter's ink.
    case multiply(RGBAColor)
}

/// One piece of a callout.
enum AnnotationPiece {
    /// A path and its ink; `halo` marks the pieces that only outline another.
    case path([PathElement], PieceInk, halo: Bool)
    /// Text, its layout's box's top-left corner at `origin`.
    case text(String, font: CSSFont, origin: Point, color: RGBAColor)
    /// The picture enlarged as the magnifier says, inside its circle.
    case lens(MagnifyGeometry)
}

extension PlacedAnnotation {
    /// The pieces, bottom first.
    func pieces() throws(RenderError) -> [AnnotationPiece] {
        let halo = self.halo.alpha > 0 && haloWidth > 0
        let outline = width + 2 * haloWidth
        /// A stroked path with its halo under it.
        func stroked(_ path: [PathElement], width: Double? = nil) -> [AnnotationPiece] {
            let w = width ?? self.width
            return (halo ? [.path(path, .stroke(self.halo, width: w + 2 * haloWidth), halo: true)] : [])
                + [.path(path, .stroke(color, width: w), halo: false)]
        }
        /// A filled shape with a halo around it.
        func filled(_ path: [PathElement], _ ink: RGBAColor) -> [AnnotationPiece] {
            (halo ? [.path(path, .stroke(self.halo, width: 2 * haloWidth), halo: true)] : [])
                + [.path(path, .fill(ink, evenOdd: false), halo: false)]
        }
        switch geometry {
        case let .rect(r, radius): return stroked(PathElement.roundedRect(r, radius: radius))
        case let .ellipse(r): return stroked(PathElement.ellipse(r))
        case let .line(a, b): return stroked([.move(a), .line(b)])
        case let .arrow(arrow):
            let shaft = arrow.control.map { PathElement.quadratic(from: arrow.start, control: $0, to: arrow.shaftEnd) }
                ?? [.move(arrow.start), .line(arrow.shaftEnd)]
            let head = PathElement.polygon([arrow.tip, arrow.left, arrow.right])
            var pieces: [AnnotationPiece] = []
            if halo {
                pieces.append(.path(shaft, .stroke(self.halo, width: outline), halo: true))
                pieces.append(.path(head, .stroke(self.halo, width: 2 * haloWidth), halo: true))
            }
            return pieces + [.path(shaft, .stroke(color, width: width), halo: false), .path(head, .fill(color, evenOdd: false), halo: false)]
        case let .badge(center, radius, number):
            let text = String(number)
            let ink = try TextMeasurer.inkBox(text, font: font)
            let origin = Point(x: center.x - ink.midX, y: center.y - ink.midY)
            return (halo ? [.path(PathElement.circle(center, radius: radius + haloWidth), .fill(self.halo, evenOdd: false), halo: true)] : [])
                + [.path(PathElement.circle(center, radius: radius), .fill(color, evenOdd: false), halo: false),
                   .text(text, font: font, origin: origin, color: textColor)]
        case let .highlight(r):
            return [.path(PathElement.roundedRect(r, radius: 0), .multiply(color), halo: false)]
        case let .label(label):
            let box = PathElement.roundedRect(label.box, radius: label.radius)
            let pointer = label.pointer.map(PathElement.polygon) ?? []
            return filled(box + pointer, color) + [.text(label.text, font: font, origin: label.textBox.origin, color: textColor)]
        case let .spotlight(hole, radius, area):
            return [.path(PathElement.roundedRect(area, radius: 0) + PathElement.roundedRect(hole, radius: radius),
                          .fill(color, evenOdd: true), halo: false)]
        case let .magnify(lens):
            let circle = PathElement.circle(lens.center, radius: lens.radius)
            return stroked(PathElement.roundedRect(lens.source, radius: 0), width: width / 2) + [.lens(lens)] + stroked(circle)
        }
    }
}

/// Text measured for callouts with the layout that draws it.
enum TextMeasurer {
    /// Where `text`'s glyphs put ink, from its layout's top-left corner.
    static func inkBox(_ text: String, font: CSSFont) throws(RenderError) -> Rect {
        do {
            let extents = try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: false).extents
            return Rect(x: extents.ink_x, y: extents.ink_y, width: extents.ink_width, height: extents.ink_height)
        } catch {
            throw .cairo(operation: "setting an annotation's text", message: error.description)
        }
    }
}

/// PDF: the placeholder picture that marks the group of a page's callouts, so that the PDF
/// pass finds the group and makes it the "Annotations" layer (`PDFLayer`).
struct AnnotationLayerMarker {
    /// The placeholder's JPEG bytes, unique within the PDF.
    let placeholder: [UInt8]

    /// The marker of print `print` on page `page` (both from 0).
    init(page: Int, print: Int = 0) {
        placeholder = PDFPicture.placeholder(width: 1, height: 1, name: "framed annotations \(page) \(print)")
    }
}

extension FrameDrawing {
    /// The callouts, over everything, clipped to the visible picture. In a PDF they are drawn
    /// in a group whose first piece is the layer's marker (`AnnotationLayerMarker`).
    func drawAnnotations(picture: DrawnPicture, in context: CairoContext) throws(RenderError) {
        guard !annotations.isEmpty else { return }
        var pieces: [AnnotationPiece] = []
        for annotation in annotations { pieces += try annotation.pieces() }
        try context.withSavedState { () throws(RenderError) in
            if let annotationLayer {
                context.pushGroup()
                let marker = try CairoImageSurface(width: 1, height: 1, hasAlpha: false)
                try marker.attachJPEG(annotationLayer.placeholder)
                let spot = Rect(x: layout.pictureClip.minX, y: layout.pictureClip.minY, width: 1, height: 1)
                try Self.paint(marker, onto: spot, padded: false, in: context)
            }
            try context.withSavedState { () throws(RenderError) in
                clipToVisiblePicture(in: context)
                for piece in pieces { try draw(piece, picture: picture, in: context) }
            }
            if annotationLayer != nil {
                context.setSource(try context.popGroup())
                context.paint()
            }
        }
    }

    /// Clips to the picture as it shows: the content box's part of it, inside the rounded
    /// inner corners.
    func clipToVisiblePicture(in context: CairoContext) {
        context.newPath()
        context.addPath(visiblePicturePath)
        context.clip()
    }

    /// The visible picture's outline: `pictureClip`, each of its corners that is a corner of
    /// the padding box rounded as the padding box's is.
    var visiblePicturePath: [PathElement] {
        let clip = layout.pictureClip, box = layout.paddingBox, r = layout.innerRadius
        func on(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }
        let top = on(clip.minY, box.minY), bottom = on(clip.maxY, box.maxY)
        let left = on(clip.minX, box.minX), right = on(clip.maxX, box.maxX)
        return PathElement.roundedRect(clip, radii: (top && left ? r : 0, top && right ? r : 0,
                                                     bottom && right ? r : 0, bottom && left ? r : 0))
    }

    private func draw(_ piece: AnnotationPiece, picture: DrawnPicture, in context: CairoContext) throws(RenderError) {
        switch piece {
        case let .path(path, ink, _):
            context.newPath()
            context.addPath(path)
            switch ink {
            case let .stroke(color, width):
                context.setSource(color)
                context.strokeRound(width: width)
            case let .fill(color, evenOdd):
                context.setSource(color)
                context.setEvenOddFill(evenOdd)
                context.fill()
                context.setEvenOddFill(false)
            case let .multiply(color):
                try context.withSavedState { () throws(RenderError) in
                    context.setSource(color)
                    context.setMultiply()
                    context.fill()
                }
            }
        case let .text(text, font, origin, color):
            try context.withSavedState { () throws(RenderError) in
                context.setSource(color)
                do throws(TextError) {
                    try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: false, on: context)
                        .draw(on: context, at: origin)
                } catch {
                    throw .cairo(operation: "drawing an annotation's text", message: error.description)
                }
            }
        case let .lens(lens):
            guard case let .surface(image) = picture else { return }
            try context.withSavedState { () throws(RenderError) in
                context.newPath()
                context.addPath(PathElement.circle(lens.center, radius: lens.radius))
                context.clip()
                try Self.paint(image, onto: lens.enlarged(layout.picture), padded: padPictureEdges, in: context)
            }
        }
    }
}

extension MagnifyGeometry {
    /// Where the whole picture (placed at `picture`) goes, enlarged about the source's middle
    /// onto the lens's centre.
    func enlarged(_ picture: Rect) -> Rect {
        Rect(x: center.x + (picture.minX - source.midX) * zoom, y: center.y + (picture.minY - source.midY) * zoom,
             width: picture.width * zoom, height: picture.height * zoom)
    }
}

extension TextLayout {
    /// The glyphs' outlines with the layout's box's top-left corner at `origin`: the path that
    /// `draw(on:at:)` fills (`pango_cairo_layout_path`), read back from a scratch context. The
    /// scratch is an unbounded recording surface: Cairo leaves out the glyphs that fall outside
    /// a bounded surface (an image's) when it makes their path.
    func outline(at origin: Point) throws(RenderError) -> [PathElement] {
        let context = try CairoContext(try CairoSurface.unboundedRecording())
        var message = [CChar](repeating: 0, count: Int(CTEXT_MESSAGE_SIZE))
        guard ctext_layout_path(pointer, UnsafeMutableRawPointer(context.pointer), origin.x, origin.y, &message) == Int32(CTEXT_OK),
              let path = context.copyPath() else {
            throw .cairo(operation: "outlining an annotation's text",
                         message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return path
    }
}

extension PangoTextMeasure {
    /// The block `text` makes in `font`, broken at its line breaks only: Pango's logical size,
    /// with the font options that drawing uses.
    package func extent(of text: String, font: CSSFont) throws(LayoutError) -> Size {
        guard text.unicodeScalars.count <= Annotation.maximumLabelLength else {
            throw .caption(reason: "it has more than \(Annotation.maximumLabelLength) characters")
        }
        do throws(TextError) {
            let extents = try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: false).extents
            return Size(width: extents.width, height: extents.height)
        } catch {
            throw error.isMissingLibrary || error.isOutOfMemory ? .textUnavailable(reason: error.description) : .caption(reason: error.description)
        }
    }
}
