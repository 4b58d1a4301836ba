/// What continues past the trim into the bleed, so that a cut a little off the trim shows the
/// paint beside it rather than paper.
///
/// The canvas paint (colour or gradient) needs nothing here: it covers the whole bleed box. The
/// frame's paint does, on the edges the frame shares with the trim: its mat (the background
/// colour and gradient, the gradient running on as it runs), the picture where it reaches the
/// trim (what the content box cropped of it, then its edge pixels drawn outwards), and the
/// border, in that order, as the frame draws them. Only along the straight part of an edge: a
/// rounded corner leaves the trim unpainted at the corner, so the bleed there keeps the canvas
/// (or paper), as the trim edge beside it does. Pure geometry: a page with several prints asks
/// for each print's strips with its own trim.

/// One side or corner of the trim box, as the bleed beyond it lies.
public enum BleedSide: String, Sendable, Equatable, CaseIterable, Codable {
    /// Above the trim.
    case top
    /// Right of it.
    case right
    /// Below it.
    case bottom
    /// Left of it.
    case left
    /// Beyond the top-left corner: above and left.
    case topLeft
    /// Beyond the top-right corner.
    case topRight
    /// Beyond the bottom-right corner.
    case bottomRight
    /// Beyond the bottom-left corner.
    case bottomLeft

    /// Which way the bleed lies across: -1 left of the trim, 1 right of it, 0 within its width.
    public var dx: Int {
        switch self {
        case .left, .topLeft, .bottomLeft: return -1
        case .right, .topRight, .bottomRight: return 1
        case .top, .bottom: return 0
        }
    }

    /// Which way the bleed lies down: -1 above the trim, 1 below it, 0 within its height.
    public var dy: Int {
        switch self {
        case .top, .topLeft, .topRight: return -1
        case .bottom, .bottomLeft, .bottomRight: return 1
        case .left, .right: return 0
        }
    }
}

/// The paint that fills a strip of the bleed: one of the frame's layers, continued.
public enum BleedPaint: String, Sendable, Equatable, CaseIterable, Codable {
    /// The mat: the background colour, then its gradient.
    case mat
    /// The picture: its pixels beyond the content box, then its edge pixels drawn outwards.
    case picture
    /// The border's colour.
    case border
}

/// One area of the bleed and the paint that continues into it.
public struct BleedStrip: Sendable, Equatable, Codable {
    /// Beyond which side or corner of the trim it lies.
    public var side: BleedSide
    /// The area, in the layout's coordinates (the framed canvas's), from the bleed box's edge to
    /// the painted shape's edge (which may lie a device pixel off the trim in a snapped PNG).
    public var area: Rect
    /// What fills it.
    public var paint: BleedPaint

    /// A strip of `paint` over `area`, beyond `side`.
    public init(side: BleedSide, area: Rect, paint: BleedPaint) {
        self.side = side; self.area = area; self.paint = paint
    }
}

/// Where the frame's paint continues into the bleed.
public enum Bleed {
    /// The strips of bleed that the frame of `layout` (drawn with `style`) fills beyond `trim`
    /// (in the layout's coordinates), `bleed` points wide, in drawing order: the mat's, the
    /// picture's, the border's. A shape's edge counts as on the trim within `tolerance` points
    /// (a hundredth of a point for vector output; a device pixel where edges were snapped to
    /// pixels). Empty without bleed, or when the frame touches no trim edge.
    public static func strips(layout: FrameLayout, style: FrameStyle, trim: Rect, bleed: Double,
                              tolerance: Double = 0.01) -> [BleedStrip] {
        guard bleed > 0, bleed.isFinite else { return [] }
        let frame = layout.frame
        var strips: [BleedStrip] = []
        func add(_ paint: BleedPaint, shape: Rect, radius: Double) {
            for (side, area) in areas(shape: shape, within: frame, radius: radius, trim: trim, bleed: bleed,
                                      tolerance: tolerance) {
                strips.append(BleedStrip(side: side, area: area, paint: paint))
            }
        }
        if style.background.alpha > 0 || style.backgroundGradient != nil {
            add(.mat, shape: frame, radius: layout.outerRadius)
        }
        // The picture reaches the frame's edge only without a border and padding on that side;
        // it is clipped to the padding box's rounded shape.
        if layout.pictureClip.width > 0, layout.pictureClip.height > 0 {
            add(.picture, shape: layout.pictureClip, radius: layout.innerRadius)
        }
        if layout.borderWidth > 0, style.borderColor.alpha > 0 {
            add(.border, shape: frame, radius: layout.outerRadius)
        }
        return strips
    }

    /// The areas of bleed beyond the sides of `shape` that lie on the trim or past it: beside the part of
    /// each such side that is straight in the frame (`within`, rounded by `radius`), and beyond
    /// a corner when both its sides do and nothing rounds it.
    static func areas(shape: Rect, within frame: Rect, radius: Double, trim: Rect, bleed: Double,
                      tolerance: Double) -> [(BleedSide, Rect)] {
        let outer = trim.outset(by: bleed)
        // A side reaches the trim when it lies on it or past it (a frame given a size a hair
        // larger than the page's lies over the trim, `PageLayout.fillsTrim`).
        let top = shape.minY <= trim.minY + tolerance, bottom = shape.maxY >= trim.maxY - tolerance
        let left = shape.minX <= trim.minX + tolerance, right = shape.maxX >= trim.maxX - tolerance
        // The straight part of the frame's sides, and of the shape's along them.
        let x0 = max(shape.minX, frame.minX + radius), x1 = min(shape.maxX, frame.maxX - radius)
        let y0 = max(shape.minY, frame.minY + radius), y1 = min(shape.maxY, frame.maxY - radius)
        var areas: [(BleedSide, Rect)] = []
        func add(_ side: BleedSide, _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) {
            guard maxX - minX > 0, maxY - minY > 0 else { return }
            areas.append((side, Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)))
        }
        if top { add(.top, x0, outer.minY, x1, shape.minY) }
        if right { add(.right, shape.maxX, y0, outer.maxX, y1) }
        if bottom { add(.bottom, x0, shape.maxY, x1, outer.maxY) }
        if left { add(.left, outer.minX, y0, shape.minX, y1) }
        if radius <= tolerance {
            if top && left { add(.topLeft, outer.minX, outer.minY, shape.minX, shape.minY) }
            if top && right { add(.topRight, shape.maxX, outer.minY, outer.maxX, shape.minY) }
            if bottom && right { add(.bottomRight, shape.maxX, shape.maxY, outer.maxX, outer.maxY) }
            if bottom && left { add(.bottomLeft, outer.minX, shape.maxY, shape.minX, outer.maxY) }
        }
        return areas
    }
}
