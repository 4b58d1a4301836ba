/// Annotations placed: each callout's geometry in the output's points (the framed canvas's
/// coordinates, as `FrameLayout`'s), and each redaction's region in the picture's pixels.
///
/// A picture pixel (x, y), counted from the top-left corner of the picture as laid out (after
/// its EXIF orientation and trimming), lands at `picture.x + x · picture.width / pixelWidth`,
/// `picture.y + y · picture.height / pixelHeight`: the picture's place follows fit, position and
/// scale, so the callouts follow it. Strokes, halos, fonts and the badge's size are CSS lengths,
/// the same at any picture size, as a border's width is.

/// An arrow placed: a shaft from `start` (straight, or a quadratic Bézier through `control`)
/// to `shaftEnd`, and a head, the triangle `tip`, `left`, `right`, whose base's middle is
/// `shaftEnd`.
public struct ArrowGeometry: Sendable, Equatable {
    /// The tail.
    public var start: Point
    /// The control point of the shaft's quadratic Bézier; nil for a straight shaft.
    public var control: Point?
    /// Where the shaft meets the head: the middle of the head's base.
    public var shaftEnd: Point
    /// The head's point: the arrow's end.
    public var tip: Point
    /// The head's base corner on the left of the arrow's direction.
    public var left: Point
    /// The head's base corner on the right.
    public var right: Point
}

/// A label placed: its rounded box, where its text goes, and its pointer.
public struct LabelGeometry: Sendable, Equatable {
    /// The box, filled with the annotation's colour.
    public var box: Rect
    /// The box's corner radius.
    public var radius: Double
    /// The text.
    public var text: String
    /// The text's own box (its lines' width and height), centred in `box`.
    public var textBox: Rect
    /// The pointer's triangle: two corners on the box's edge, then its tip; nil without one.
    public var pointer: [Point]?
}

/// A magnifier placed: the picture's pixels at a point p of `source` are drawn at
/// `center + (p - source's middle) · zoom`, inside the circle.
public struct MagnifyGeometry: Sendable, Equatable {
    /// The part of the picture enlarged, in output points.
    public var source: Rect
    /// The lens's centre.
    public var center: Point
    /// The lens's radius: `zoom` times half the source's longer side.
    public var radius: Double
    /// The enlargement.
    public var zoom: Double
}

/// Where and what an annotation draws, in output points.
public enum AnnotationGeometry: Sendable, Equatable {
    /// An outline of a rectangle with rounded corners.
    case rect(Rect, radius: Double)
    /// An outline of the ellipse inside the rectangle.
    case ellipse(Rect)
    /// A straight line.
    case line(from: Point, to: Point)
    /// An arrow.
    case arrow(ArrowGeometry)
    /// A numbered disc.
    case badge(center: Point, radius: Double, number: Int)
    /// A marker over the rectangle, multiplied with the picture.
    case highlight(Rect)
    /// A label.
    case label(LabelGeometry)
    /// `area` dimmed except for `hole` (its corners rounded by `radius`).
    case spotlight(hole: Rect, radius: Double, area: Rect)
    /// A magnifier.
    case magnify(MagnifyGeometry)
}

/// A callout placed, with its look resolved.
public struct PlacedAnnotation: Sendable, Equatable {
    /// The place in the list, from 1.
    public var index: Int
    /// The kind.
    public var kind: AnnotationKind
    /// What to draw, where.
    public var geometry: AnnotationGeometry
    /// The colour (the kind's default when none was given).
    public var color: RGBAColor
    /// The stroke's width, in points.
    public var width: Double
    /// The halo's colour (transparent: none).
    public var halo: RGBAColor
    /// The halo's width on each side, in points.
    public var haloWidth: Double
    /// The font of a badge's number or a label's text.
    public var font: CSSFont
    /// The box the geometry covers (strokes and halos not counted), in output points: what
    /// `framed layout` lists.
    public var box: Rect

    /// The colour of text on `color`: white, or near-black on a light colour.
    public var textColor: RGBAColor {
        let luminance = 0.2126 * color.red + 0.7152 * color.green + 0.0722 * color.blue
        return luminance > 0.6 ? RGBAColor(red8: 0x1A, green8: 0x1A, blue8: 0x1A) : .white
    }
}

/// A redaction placed: the region of the picture's pixels it changes.
public struct PlacedRedaction: Sendable, Equatable {
    /// The place in the list, from 1.
    public var index: Int
    /// `redact`, `pixelate` or `blur`.
    public var kind: AnnotationKind
    /// The region, in picture pixels (after orientation and trimming): x, y, width, height.
    public var region: Rect
    /// `pixelate`: the blocks' side in picture pixels.
    public var block: Double
    /// `blur`: the Gaussian's standard deviation in picture pixels.
    public var sigma: Double
    /// `redact`: the fill.
    public var color: RGBAColor
    /// The region in output points: what `framed layout` lists.
    public var box: Rect
}

/// An annotation that the picture's crop hides in part or whole: it is drawn cut off.
public struct AnnotationWarning: Sendable, Equatable, CustomStringConvertible {
    /// The place in the list, from 1.
    public var index: Int
    /// The kind.
    public var kind: AnnotationKind
    /// Whether none of it shows.
    public var wholly: Bool

    /// One line.
    public var description: String {
        "annotation \(index) (\(kind.rawValue)) lies " + (wholly ? "wholly" : "partly")
            + " outside the visible picture (the fit crops the picture there): "
            + (wholly ? "it does not show" : "it is drawn cut off")
    }
}

/// Every annotation of a picture placed.
public struct AnnotationPlacement: Sendable, Equatable {
    /// The callouts, in the list's order (the first drawn first, under the others).
    public var drawn: [PlacedAnnotation] = []
    /// The redactions, in the list's order.
    public var redactions: [PlacedRedaction] = []
    /// The callouts the crop hides in part or whole.
    public var warnings: [AnnotationWarning] = []

    /// No annotations.
    public init() {}
}

/// Places annotations on a laid-out frame.
public enum AnnotationLayout {
    /// The head's length over the stroke's width.
    public static let headLengthPerWidth = 5.0
    /// The head's half width over the stroke's width.
    public static let headHalfWidthPerWidth = 2.25

    /// Places `annotations` over the picture as `layout` lays it out; `text` measures labels
    /// and badge numbers (needed when there are any).
    /// - Throws: an error naming the first annotation that lies outside the picture, or whose
    ///   text cannot be measured.
    public static func place(_ annotations: [Annotation], layout: FrameLayout, text: (any TextMeasure)?)
        throws(AnnotationError) -> AnnotationPlacement {
        var placement = AnnotationPlacement()
        guard annotations.count <= Annotation.maximumCount else {
            throw AnnotationError(index: 0, kind: nil, reason: "more than \(Annotation.maximumCount) annotations")
        }
        let map = PictureMapping(layout: layout)
        for (offset, annotation) in annotations.enumerated() {
            let index = offset + 1
            try annotation.validate(index: index)
            if annotation.kind.isRedaction {
                placement.redactions.append(try redaction(annotation, index: index, map: map))
            } else {
                let placed = try callout(annotation, index: index, map: map, visible: layout.pictureClip, text: text)
                if !layout.pictureClip.contains(placed.box, tolerance: 1e-6) {
                    let overlap = layout.pictureClip.intersection(placed.box)
                    placement.warnings.append(AnnotationWarning(index: index, kind: placed.kind,
                                                                wholly: overlap.width <= 0 || overlap.height <= 0))
                }
                placement.drawn.append(placed)
            }
        }
        return placement
    }

    /// From picture pixels to output points.
    struct PictureMapping {
        let picture: Rect
        let pixels: PixelSize

        init(layout: FrameLayout) { picture = layout.picture; pixels = layout.picturePixels }

        /// Output points per picture pixel, across and down.
        var scale: (x: Double, y: Double) {
            (picture.width / Double(pixels.width), picture.height / Double(pixels.height))
        }

        /// The point in picture pixels.
        func pixels(_ p: PicturePoint) -> (x: Double, y: Double) { (p.x.pixels(of: pixels.width), p.y.pixels(of: pixels.height)) }

        /// The rectangle in picture pixels.
        func pixels(_ r: PictureRect) -> Rect {
            Rect(x: r.x.pixels(of: pixels.width), y: r.y.pixels(of: pixels.height),
                 width: r.width.pixels(of: pixels.width), height: r.height.pixels(of: pixels.height))
        }

        /// A picture pixel position in output points.
        func point(_ x: Double, _ y: Double) -> Point {
            Point(x: picture.x + x * scale.x, y: picture.y + y * scale.y)
        }

        /// A rectangle of picture pixels in output points.
        func rect(_ r: Rect) -> Rect {
            Rect(x: picture.x + r.x * scale.x, y: picture.y + r.y * scale.y, width: r.width * scale.x, height: r.height * scale.y)
        }

        /// The size as a message writes it: `800x500 pixels`.
        var size: String { "\(pixels.width)x\(pixels.height) pixels" }
    }

    /// The point, checked to lie in the picture, in output points.
    private static func point(_ p: PicturePoint, _ what: String, map: PictureMapping,
                              fail: (String) -> AnnotationError) throws(AnnotationError) -> Point {
        let (x, y) = map.pixels(p)
        guard x >= -1e-9, y >= -1e-9, x <= Double(map.pixels.width) + 1e-9, y <= Double(map.pixels.height) + 1e-9 else {
            throw fail("\(what) \(p) lies outside the picture (\(map.size))")
        }
        return map.point(x, y)
    }

    /// The rectangle, checked to lie in the picture, in picture pixels.
    private static func region(_ r: PictureRect, map: PictureMapping, fail: (String) -> AnnotationError) throws(AnnotationError) -> Rect {
        let box = map.pixels(r)
        guard box.width > 0, box.height > 0 else { throw fail("its rectangle \(r) has no area") }
        guard box.minX >= -1e-9, box.minY >= -1e-9, box.maxX <= Double(map.pixels.width) + 1e-9,
              box.maxY <= Double(map.pixels.height) + 1e-9 else {
            throw fail("its rectangle \(r) reaches outside the picture (\(map.size))")
        }
        return box
    }

    private static func redaction(_ annotation: Annotation, index: Int, map: PictureMapping) throws(AnnotationError) -> PlacedRedaction {
        func fail(_ reason: String) -> AnnotationError { AnnotationError(index: index, kind: annotation.kind, reason: reason) }
        var block = 0.0, sigma = 0.0, rect: PictureRect
        switch annotation.shape {
        case let .redact(r): rect = r
        case let .pixelate(r, b): rect = r; block = b
        case let .blur(r, s): rect = r; sigma = s
        default: throw fail("is not a redaction")
        }
        let region = try region(rect, map: map, fail: fail)
        return PlacedRedaction(index: index, kind: annotation.kind, region: region, block: block, sigma: sigma,
                               color: annotation.style.color ?? .black, box: map.rect(region))
    }

    private static func callout(_ annotation: Annotation, index: Int, map: PictureMapping, visible: Rect,
                                text: (any TextMeasure)?) throws(AnnotationError) -> PlacedAnnotation {
        let kind = annotation.kind
        func fail(_ reason: String) -> AnnotationError { AnnotationError(index: index, kind: kind, reason: reason) }
        let style = annotation.style
        let width = (style.width ?? Annotation.defaultWidth).points
        let font = style.font ?? Annotation.defaultFont
        var color = style.color ?? Annotation.defaultColor
        func measure(_ words: String) throws(AnnotationError) -> Size {
            guard let text else { throw fail("no text measure was given to lay out its text") }
            let size: Size
            do { size = try text.extent(of: words, font: font) } catch {
                switch error {
                case let .caption(reason): throw fail("its text: \(reason)")
                case let .textUnavailable(reason):
                    var error = fail("its text cannot be set: \(reason)")
                    error.textUnavailable = true
                    throw error
                default: throw fail("its text: \(error)")
                }
            }
            guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else {
                throw fail("its text's size is not a number")
            }
            return size
        }
        let geometry: AnnotationGeometry
        let box: Rect
        switch annotation.shape {
        case let .rect(r, radius):
            let rect = map.rect(try region(r, map: map, fail: fail))
            geometry = .rect(rect, radius: min(radius.points, rect.width / 2, rect.height / 2))
            box = rect
        case let .ellipse(r):
            box = map.rect(try region(r, map: map, fail: fail))
            geometry = .ellipse(box)
        case let .line(from, to):
            let a = try point(from, "its start", map: map, fail: fail), b = try point(to, "its end", map: map, fail: fail)
            geometry = .line(from: a, to: b)
            box = bounds([a, b])
        case let .arrow(from, to, via):
            let a = try point(from, "its tail", map: map, fail: fail), b = try point(to, "its head", map: map, fail: fail)
            let c = try via.map { v throws(AnnotationError) in try point(v, "its control point", map: map, fail: fail) }
            guard distance(a, b) > 0 else { throw fail("its tail and head are the same point") }
            let arrow = arrowGeometry(start: a, control: c, tip: b, width: width)
            geometry = .arrow(arrow)
            box = bounds([arrow.start, arrow.shaftEnd, arrow.tip, arrow.left, arrow.right] + curvePoints(arrow))
        case let .badge(number, at):
            let center = try point(at, "its centre", map: map, fail: fail)
            let digits = try measure(String(number))
            let radius = max(font.size.points * 6 / 7, digits.width / 2 + font.size.points / 4)
            geometry = .badge(center: center, radius: radius, number: number)
            box = Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        case let .highlight(r):
            if style.color == nil { color = Annotation.defaultHighlight }
            box = map.rect(try region(r, map: map, fail: fail))
            geometry = .highlight(box)
        case let .label(words, at, pointer):
            let center = try point(at, "its centre", map: map, fail: fail)
            let tip = try pointer.map { p throws(AnnotationError) in try point(p, "its pointer's end", map: map, fail: fail) }
            let label = labelGeometry(words, size: try measure(words), center: center, pointer: tip, font: font, visible: visible)
            geometry = .label(label)
            box = bounds([label.box.origin, Point(x: label.box.maxX, y: label.box.maxY)] + (label.pointer ?? []))
        case let .spotlight(r, radius):
            if style.color == nil { color = Annotation.defaultDimming }
            let hole = map.rect(try region(r, map: map, fail: fail))
            geometry = .spotlight(hole: hole, radius: min(radius.points, hole.width / 2, hole.height / 2), area: visible)
            box = hole
        case let .magnify(r, at, zoom):
            let source = map.rect(try region(r, map: map, fail: fail))
            let center = try point(at, "its lens's centre", map: map, fail: fail)
            let radius = zoom * max(source.width, source.height) / 2
            geometry = .magnify(MagnifyGeometry(source: source, center: center, radius: radius, zoom: zoom))
            box = source.union(Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        case .redact, .pixelate, .blur:
            throw fail("is a redaction, not drawn")
        }
        return PlacedAnnotation(index: index, kind: kind, geometry: geometry, color: color, width: width,
                                halo: style.halo ?? Annotation.defaultHalo, haloWidth: Annotation.haloWidth.points,
                                font: font, box: box)
    }

    /// An arrow from `start` to `tip` (through `control`) with a stroke `width` wide: the head
    /// is `headLengthPerWidth` widths long (at most 0.8 of the arrow's chord), its base
    /// `2 · headHalfWidthPerWidth` widths wide; the shaft ends in the middle of its base, where
    /// a curved shaft is cut.
    public static func arrowGeometry(start: Point, control: Point?, tip: Point, width: Double) -> ArrowGeometry {
        let chord = distance(start, tip)
        let length = min(headLengthPerWidth * width, 0.8 * chord)
        let half = length * headHalfWidthPerWidth / headLengthPerWidth
        var shaftEnd: Point, shaftControl: Point?
        if let control {
            // Cut the quadratic where it is `length` from the tip (the distance falls to zero
            // there; bisection finds the last crossing from the start's side).
            var lo = 0.0, hi = 1.0
            for _ in 0..<60 {
                let t = (lo + hi) / 2
                if distance(quadratic(start, control, tip, t), tip) > length { lo = t } else { hi = t }
            }
            let t = lo
            shaftEnd = quadratic(start, control, tip, t)
            shaftControl = Point(x: start.x + (control.x - start.x) * t, y: start.y + (control.y - start.y) * t)
        } else {
            let ux = (tip.x - start.x) / chord, uy = (tip.y - start.y) / chord
            shaftEnd = Point(x: tip.x - ux * length, y: tip.y - uy * length)
        }
        let d = max(distance(shaftEnd, tip), 1e-12)
        let ux = (tip.x - shaftEnd.x) / d, uy = (tip.y - shaftEnd.y) / d
        // Left of the direction (y down): (uy, -ux).
        let left = Point(x: shaftEnd.x + uy * half, y: shaftEnd.y - ux * half)
        let right = Point(x: shaftEnd.x - uy * half, y: shaftEnd.y + ux * half)
        return ArrowGeometry(start: start, control: shaftControl, shaftEnd: shaftEnd, tip: tip, left: left, right: right)
    }

    /// A label's box around `size` of text centred on `center` (then moved inside `visible`
    /// when it fits there), and its pointer to `pointer` from the edge facing it.
    static func labelGeometry(_ text: String, size: Size, center: Point, pointer: Point?, font: CSSFont,
                              visible: Rect) -> LabelGeometry {
        let em = font.size.points
        let padX = em / 2, padY = em / 4
        var box = Rect(x: center.x - size.width / 2 - padX, y: center.y - size.height / 2 - padY,
                       width: size.width + 2 * padX, height: size.height + 2 * padY)
        // Inside the visible picture, where it fits.
        if box.width <= visible.width { box.x = min(max(box.x, visible.minX), visible.maxX - box.width) }
        if box.height <= visible.height { box.y = min(max(box.y, visible.minY), visible.maxY - box.height) }
        let radius = min(em * 0.3, box.height / 2)
        let textBox = Rect(x: box.minX + padX, y: box.minY + padY, width: size.width, height: size.height)
        var triangle: [Point]?
        if let tip = pointer, !box.contains(Rect(origin: tip, size: .zero)) {
            let c = Point(x: box.midX, y: box.midY)
            let dx = tip.x - c.x, dy = tip.y - c.y
            let half = em * 0.4
            if abs(dx) * box.height > abs(dy) * box.width {
                // Through the left or right edge.
                let x = dx > 0 ? box.maxX : box.minX
                let reach = max(0, box.height / 2 - radius - half)
                let y = c.y + min(max(dy * (x - c.x) / dx, -reach), reach)
                let h = min(half, box.height / 2 - radius)
                triangle = [Point(x: x, y: y - h), Point(x: x, y: y + h), tip]
            } else {
                let y = dy > 0 ? box.maxY : box.minY
                let reach = max(0, box.width / 2 - radius - half)
                let x = c.x + min(max(dx * (y - c.y) / dy, -reach), reach)
                let h = min(half, box.width / 2 - radius)
                triangle = [Point(x: x - h, y: y), Point(x: x + h, y: y), tip]
            }
        }
        return LabelGeometry(box: box, radius: radius, text: text, textBox: textBox, pointer: triangle)
    }

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    /// The quadratic Bézier from `a` through control `c` to `b` at `t`.
    static func quadratic(_ a: Point, _ c: Point, _ b: Point, _ t: Double) -> Point {
        let s = 1 - t
        return Point(x: s * s * a.x + 2 * s * t * c.x + t * t * b.x, y: s * s * a.y + 2 * s * t * c.y + t * t * b.y)
    }

    /// Points along a curved shaft, for its bounds.
    static func curvePoints(_ arrow: ArrowGeometry) -> [Point] {
        guard let control = arrow.control else { return [] }
        return (0...32).map { quadratic(arrow.start, control, arrow.shaftEnd, Double($0) / 32) }
    }

    /// The smallest rectangle holding `points`.
    static func bounds(_ points: [Point]) -> Rect {
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
        return Rect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }
}
