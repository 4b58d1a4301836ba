/// Callouts on the picture: shapes, arrows, numbered steps, highlights and labels drawn over it,
/// and redactions that change its pixels. Each is given in the picture's own pixels (after its
/// EXIF orientation and trimming) or in percent of them, so that it follows the picture through
/// fit, crop and scale; `AnnotationLayout` places them in the output.

/// One coordinate in the picture: a number of its pixels from its left (or top) edge, or a
/// percentage of its width (or height).
public enum PictureCoordinate: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Picture pixels from the left or top edge (fractions allowed: 10.5 is half way into a pixel).
    case pixels(Double)
    /// Percent of the picture's width or height: 50 is its middle.
    case percent(Double)

    /// The coordinate in pixels of a side `extent` pixels long.
    public func pixels(of extent: Int) -> Double {
        switch self {
        case let .pixels(v): v
        case let .percent(p): p / 100 * Double(extent)
        }
    }

    /// `120` or `50%`.
    public var description: String {
        switch self {
        case let .pixels(v): formatStyleNumber(v)
        case let .percent(p): formatStyleNumber(p) + "%"
        }
    }

    /// Parses `120`, `10.5`, `1.5e3` or `50%`, a CSS number (`what` names it in the error).
    public init(parsing text: Substring, what: String) throws(StyleParseError) {
        let percent = text.hasSuffix("%")
        let number = percent ? text.dropLast() : text
        guard let value = styleNumber(number) else {
            throw StyleParseError(kind: what, input: String(text), reason: "expected a number of picture pixels or a percentage")
        }
        self = percent ? .percent(value) : .pixels(value)
    }
}

/// A point in the picture.
public struct PicturePoint: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// From the left edge.
    public var x: PictureCoordinate
    /// From the top edge.
    public var y: PictureCoordinate

    /// A point `x` from the left and `y` from the top.
    public init(x: PictureCoordinate, y: PictureCoordinate) { self.x = x; self.y = y }

    /// A point `x` and `y` picture pixels from the top-left corner.
    public init(_ x: Double, _ y: Double) { self.init(x: .pixels(x), y: .pixels(y)) }

    /// `X,Y`, as the inline form writes it.
    public var description: String { "\(x),\(y)" }

    /// Parses `X,Y` (each a number or a percentage).
    public init(parsing text: Substring) throws(StyleParseError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw StyleParseError(kind: "point", input: String(text), reason: "expected X,Y, like 120,40 or 50%,10%")
        }
        self.init(x: try PictureCoordinate(parsing: parts[0], what: "point"),
                  y: try PictureCoordinate(parsing: parts[1], what: "point"))
    }
}

/// A rectangle in the picture: its top-left corner and its size.
public struct PictureRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: PictureCoordinate
    /// The top edge.
    public var y: PictureCoordinate
    /// The width.
    public var width: PictureCoordinate
    /// The height.
    public var height: PictureCoordinate

    /// A rectangle whose top-left corner is at `x`, `y`, `width` by `height`.
    public init(x: PictureCoordinate, y: PictureCoordinate, width: PictureCoordinate, height: PictureCoordinate) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A rectangle in picture pixels.
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: .pixels(x), y: .pixels(y), width: .pixels(width), height: .pixels(height))
    }

    /// `X,Y WxH`, as the inline form writes it.
    public var description: String { "\(x),\(y) \(width)x\(height)" }

    /// Parses a size `WxH` (each a number or a percentage) as the rectangle's size at `origin`.
    public init(origin: PicturePoint, parsingSize text: Substring) throws(StyleParseError) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw StyleParseError(kind: "size", input: String(text), reason: "expected WxH, like 200x80 or 10%x5%")
        }
        self.init(x: origin.x, y: origin.y, width: try PictureCoordinate(parsing: parts[0], what: "size"),
                  height: try PictureCoordinate(parsing: parts[1], what: "size"))
    }
}

/// What an annotation is, and where: its kind with the places and numbers that kind takes.
public enum AnnotationShape: Sendable, Equatable {
    /// An outline around a rectangle, its corners rounded by `radius`.
    case rect(PictureRect, radius: Length)
    /// An outline of the ellipse inside a rectangle.
    case ellipse(PictureRect)
    /// A straight line.
    case line(from: PicturePoint, to: PicturePoint)
    /// An arrow from `from` to its head at `to`, straight, or curved as a quadratic Bézier
    /// through the control point `via`.
    case arrow(from: PicturePoint, to: PicturePoint, via: PicturePoint?)
    /// A numbered disc centred on a point, for steps.
    case badge(Int, at: PicturePoint)
    /// A translucent marker over a rectangle, multiplied with the picture as a highlighter pen is.
    case highlight(PictureRect)
    /// Text in a rounded box centred on `at` (moved inside the visible picture when it would
    /// stick out), with a pointer from the box to `pointer` when given.
    case label(String, at: PicturePoint, pointer: PicturePoint?)
    /// Everything but a rectangle (its corners rounded by `radius`) dimmed.
    case spotlight(PictureRect, radius: Length)
    /// The rectangle's pixels enlarged `zoom` times in a circle centred on `at`.
    case magnify(PictureRect, at: PicturePoint, zoom: Double)
    /// The rectangle's pixels replaced by a solid colour before the picture is embedded.
    case redact(PictureRect)
    /// The rectangle's pixels replaced by blocks of `block` picture pixels a side, each its
    /// area's mean colour, before the picture is embedded.
    case pixelate(PictureRect, block: Double)
    /// The rectangle's pixels blurred (a Gaussian of standard deviation `sigma` picture
    /// pixels) before the picture is embedded. Blurred text can often be read back: prefer
    /// `pixelate` or `redact` for what must not be read.
    case blur(PictureRect, sigma: Double)

    /// The kind's name, as the inline form and JSON write it.
    public var kind: AnnotationKind {
        switch self {
        case .rect: .rect
        case .ellipse: .ellipse
        case .line: .line
        case .arrow: .arrow
        case .badge: .badge
        case .highlight: .highlight
        case .label: .label
        case .spotlight: .spotlight
        case .magnify: .magnify
        case .redact: .redact
        case .pixelate: .pixelate
        case .blur: .blur
        }
    }

    /// The rectangle the kind is given by, if it is given by one.
    public var rect: PictureRect? {
        switch self {
        case let .rect(r, _), let .ellipse(r), let .highlight(r), let .spotlight(r, _), let .magnify(r, _, _),
             let .redact(r), let .pixelate(r, _), let .blur(r, _): r
        case .line, .arrow, .badge, .label: nil
        }
    }
}

/// The kinds of annotation.
public enum AnnotationKind: String, Sendable, Equatable, Hashable, CaseIterable {
    /// `AnnotationShape.rect`.
    case rect
    /// `AnnotationShape.ellipse`.
    case ellipse
    /// `AnnotationShape.line`.
    case line
    /// `AnnotationShape.arrow`.
    case arrow
    /// `AnnotationShape.badge`.
    case badge
    /// `AnnotationShape.highlight`.
    case highlight
    /// `AnnotationShape.label`.
    case label
    /// `AnnotationShape.spotlight`.
    case spotlight
    /// `AnnotationShape.magnify`.
    case magnify
    /// `AnnotationShape.redact`.
    case redact
    /// `AnnotationShape.pixelate`.
    case pixelate
    /// `AnnotationShape.blur`.
    case blur

    /// Whether the kind changes the picture's pixels (redact, pixelate, blur) rather than being
    /// drawn over them.
    public var isRedaction: Bool { self == .redact || self == .pixelate || self == .blur }
}

/// How an annotation looks; nil fields take the kind's default (`Annotation.defaultColor` and
/// friends).
public struct AnnotationStyle: Sendable, Equatable, Hashable {
    /// The colour: the stroke, the badge's disc, the label's box, the highlighter's ink, the
    /// spotlight's dimming, the redaction's fill.
    public var color: RGBAColor?
    /// The stroke's width (a CSS length, scaled like every length).
    public var width: Length?
    /// The halo drawn around strokes and shapes so that they read on light and dark pictures
    /// alike; transparent for none.
    public var halo: RGBAColor?
    /// The font of a badge's number or a label's text, in CSS's `font` words.
    public var font: CSSFont?

    /// A style with the given fields, the others the kind's defaults.
    public init(color: RGBAColor? = nil, width: Length? = nil, halo: RGBAColor? = nil, font: CSSFont? = nil) {
        self.color = color; self.width = width; self.halo = halo; self.font = font
    }
}

/// One callout or redaction.
public struct Annotation: Sendable, Equatable {
    /// What it is and where.
    public var shape: AnnotationShape
    /// How it looks.
    public var style: AnnotationStyle

    /// An annotation of `shape` in `style` (the kind's defaults when not given).
    public init(_ shape: AnnotationShape, style: AnnotationStyle = AnnotationStyle()) {
        self.shape = shape; self.style = style
    }

    /// The kind.
    public var kind: AnnotationKind { shape.kind }

    /// The default colour of strokes, badges and labels: a strong red, which reads on the white,
    /// grey and dark interfaces of screenshots (with the halo on the dark ones).
    public static let defaultColor = RGBAColor(red8: 0xE0, green8: 0x1E, blue8: 0x2D)
    /// The highlighter's default ink: a marker yellow at half strength, multiplied with the
    /// picture (so dark text stays dark under it).
    public static let defaultHighlight = RGBAColor(red8: 0xFF, green8: 0xDC, blue8: 0x00, alpha: 0.5)
    /// The spotlight's default dimming.
    public static let defaultDimming = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.55)
    /// The default stroke width: 3px.
    public static let defaultWidth = Length.px(3)
    /// The default halo: white.
    public static let defaultHalo = RGBAColor.white
    /// The halo's width on each side of a stroke or shape: 1px.
    public static let haloWidth = Length.px(1)
    /// The default font of badges and labels: `bold 14px "DejaVu Sans"` (DejaVu is what the
    /// Makefile installs, so that callouts look alike on every machine).
    public static let defaultFont = CSSFont(families: ["DejaVu Sans"], size: .px(14), weight: 700)
    /// A badge's default radius: 12px (a 24px disc).
    public static let badgeRadius = Length.px(12)
    /// The default size of `pixelate`'s blocks, in picture pixels.
    public static let defaultBlock = 16.0
    /// The smallest block `pixelate` takes, in picture pixels: smaller blocks keep enough of
    /// the text's shape to be read back.
    public static let minimumBlock = 12.0
    /// The default blur of `blur`: a standard deviation of 8 picture pixels.
    public static let defaultSigma = 8.0
    /// The default enlargement of `magnify`.
    public static let defaultZoom = 2.0
    /// The most annotations one picture may have: each is drawn, and a list of thousands (a
    /// slip in a generated file) would take long and say nothing more.
    public static let maximumCount = 1000
    /// The most characters a label may have.
    public static let maximumLabelLength = 1000
}
