/// The look of a frame: everything the layout needs besides the picture.

/// How the picture fills the content box, in CSS `object-fit` words.
public enum ContentFit: String, Sendable, Equatable, CaseIterable, Codable {
    /// Scaled to fit inside, aspect kept (may leave bands of background).
    case contain
    /// Scaled to fill the box, aspect kept, cropped to the box.
    case cover
    /// Stretched to the box (aspect lost).
    case fill
    /// At its natural size, cropped to the box if larger.
    case none
    /// Like `contain`, but never enlarged past the natural size. The default.
    case scaleDown = "scale-down"
}

/// Where the picture sits in the content box: fractions of the free space, as CSS
/// `object-position` percentages (0 = left/top, 0.5 = center, 1 = right/bottom).
public struct ContentPosition: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The share of the free width left of the picture: 0 flush left, 1 flush right. Values
    /// outside 0...1 push the picture past the box's edge (it is clipped to the box).
    public var x: Double
    /// The share of the free height above the picture: 0 at the top, 1 at the bottom.
    public var y: Double
    /// A position of `x` and `y`, each a fraction of the free space (0.5 is centred).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// Centred both ways (CSS `center`, `50% 50%`): the default.
    public static let center = ContentPosition(x: 0.5, y: 0.5)

    /// Keyword names accepted by `init(parsing:)`, for help texts.
    public static let keywords = ["center", "top", "bottom", "left", "right",
                                  "top-left", "top-right", "bottom-left", "bottom-right"]

    /// Parses `center`, `top`, `bottom-right`, `left top`, `right bottom`, … (hyphen or space).
    public init(parsing text: String) throws(StyleParseError) {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" })
        guard !words.isEmpty, words.count <= 2 else {
            throw StyleParseError(kind: "position", input: text, reason: "expected a position such as center, top, bottom-right")
        }
        let bad = StyleParseError(kind: "position", input: text, reason: "unknown position; use " + Self.keywords.joined(separator: ", "))
        var x: Double?, y: Double?
        for word in words {
            switch word {
            case "left", "right":
                guard x == nil else { throw bad }
                x = word == "left" ? 0 : 1
            case "top", "bottom":
                guard y == nil else { throw bad }
                y = word == "top" ? 0 : 1
            case "center": break
            default: throw bad
            }
        }
        self.init(x: x ?? 0.5, y: y ?? 0.5)
    }

    public var description: String {
        func word(_ v: Double, _ low: String, _ high: String) -> String? {
            v == 0 ? low : v == 1 ? high : v == 0.5 ? nil : "\(v)"
        }
        let parts = [word(y, "top", "bottom"), word(x, "left", "right")].compactMap { $0 }
        return parts.isEmpty ? "center" : parts.joined(separator: "-")
    }
}

/// How big one picture pixel is (`--image-dpi`).
public enum PictureResolution: Sendable, Equatable, Hashable, Codable {
    /// One picture pixel per CSS px (96 per inch), as browsers and ImageMagick do. The default.
    case css
    /// The resolution stored in the file; `css` when the file has none.
    case auto
    /// A given number of pixels per inch.
    case dpi(Double)
}

/// How the border is drawn, in CSS `border-style` words.
public enum BorderStyle: String, Sendable, Equatable, CaseIterable, Codable {
    /// One band of the full width.
    case solid
    /// Two bands of a third of the width each, with a third of background between them.
    case double
}

/// A thin line around the picture's opening in the mat, as on a gallery mat.
public struct InnerBorder: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The line's width, drawn just outside the visible picture; greater than zero when parsed.
    public var width: Length
    /// The line's colour.
    public var color: RGBAColor
    /// A line `width` wide in `color`, taken as given (`FrameLayout` checks the width).
    public init(width: Length, color: RGBAColor) { self.width = width; self.color = color }

    /// Parses `WIDTH COLOR` or `COLOR WIDTH` (CSS's border shorthand takes either order), e.g.
    /// `1px #333`, `rgba(0, 0, 0, .4) 0.5mm`; `none` gives nil.
    public static func parse(_ text: String) throws(StyleParseError) -> InnerBorder? {
        let words = text.split(whereSeparator: \.isWhitespace)
        if words.count == 1 && words[0].lowercased() == "none" { return nil }
        guard words.count >= 2 else {
            throw StyleParseError(kind: "inner border", input: text, reason: "expected WIDTH COLOR, like 1px #333")
        }
        // The width is the first word when it reads as a length, else the last.
        let widthFirst = (try? Length(parsing: String(words[0]))) != nil
        let widthWord = widthFirst ? words[0] : words[words.count - 1]
        let colorWords = widthFirst ? words.dropFirst() : words.dropLast()
        let width = try Length(parsing: String(widthWord))
        guard width.points > 0, width.points.isFinite else {
            throw StyleParseError(kind: "inner border", input: text, reason: "the width must be greater than zero")
        }
        return InnerBorder(width: width, color: try RGBAColor(parsing: colorWords.joined(separator: " ")))
    }

    public var description: String { "\(width) \(color)" }
}

/// Everything that decides the frame's geometry and colours.
public struct FrameStyle: Sendable, Equatable, Codable {
    /// Outer size of the frame (border-box). Nil: from `width`/`height` or the picture.
    public var size: LengthSize?
    /// Outer width only; the height follows the picture's aspect ratio.
    public var width: Length?
    /// Outer height only; the width follows the picture's aspect ratio.
    public var height: Length?
    /// The border's width, drawn inside the frame's outer size (CSS `box-sizing: border-box`),
    /// so it never covers a pixel of the picture; zero for none.
    public var border: Length
    /// The border's colour.
    public var borderColor: RGBAColor
    /// The mat between border and picture.
    public var padding: EdgeInsets
    /// The mat's colour: it fills the frame inside the border, and shows where the picture
    /// does not cover the content box. Transparent by default.
    public var background: RGBAColor
    /// Outer corner radius; the inner one is `radius - border`, never below zero.
    public var radius: Length
    /// How the picture fills the content box (CSS `object-fit`); `scaleDown` by default, so a
    /// picture is shrunk to fit but never enlarged.
    public var fit: ContentFit
    /// Where the picture sits in the content box when it does not fill it (CSS
    /// `object-position`); centred by default.
    public var position: ContentPosition
    /// CSS order: the first shadow is drawn on top.
    public var shadows: [BoxShadow]
    /// Empty space around everything, shadows included.
    public var margin: Length
    /// Colour of the canvas outside the frame; transparent by default.
    public var canvasColor: RGBAColor
    /// How big one picture pixel is, which sets the picture's natural size: one per CSS px
    /// (96 per inch) by default.
    public var pictureResolution: PictureResolution
    /// How the border is drawn (CSS `border-style`): `solid` by default.
    public var borderStyle: BorderStyle
    /// A hairline around the picture inside the mat; nil for none.
    public var innerBorder: InnerBorder?
    /// A gradient painted over `background` in the frame (CSS `background-image`), laid out in
    /// the frame's outer box; nil for none.
    public var backgroundGradient: CSSGradient?
    /// A gradient painted over `canvasColor` on the whole canvas; nil for none.
    public var canvasGradient: CSSGradient?
    /// The ratio the canvas is grown to, around the frame and margin and centred; nil to keep
    /// the canvas as the frame, shadows and margin make it.
    public var aspect: AspectRatio?
    /// A window's title bar above the picture, inside the border; none by default.
    public var chrome: WindowChrome
    /// Words under the picture, in the mat or under the frame; none when its text is empty.
    public var caption: Caption
    /// The canvas's exact size (social cards, slides): the frame, its shadows and the margin are
    /// fitted inside it (a frame without a given size is made smaller to fit) and centred; nil
    /// to size the canvas from the frame, shadows and margin (and `aspect`). It and `aspect`
    /// replace each other.
    public var canvasSize: LengthSize?
    /// Paint the canvas with a gradient derived from the picture's own edge colours
    /// (`BackdropColors`) instead of `canvasColor` and `canvasGradient`.
    public var canvasAuto: Bool
    /// A picture file painted over the canvas colour, covering the canvas as CSS
    /// `background-size: cover` does (scaled to cover, centred, cropped); `pictureItself` for
    /// the framed picture; nil for none.
    public var canvasImage: String?
    /// The canvas image's blur: the standard deviation of a Gaussian, as CSS `filter: blur()`
    /// takes it; zero for none.
    public var canvasBlur: Length

    /// A style with every field given or left at its default: no size (the frame grows
    /// around the picture at its natural size), no border, mat, radius, shadow or margin,
    /// transparent colours but a black border colour, `scaleDown` and centred, no title bar. Lengths are
    /// taken as given: `FrameLayout` checks them and names the field that is out of range.
    public init(size: LengthSize? = nil, width: Length? = nil, height: Length? = nil,
                border: Length = .zero, borderColor: RGBAColor = .black,
                padding: EdgeInsets = .zero, background: RGBAColor = .transparent,
                radius: Length = .zero, fit: ContentFit = .scaleDown,
                position: ContentPosition = .center, shadows: [BoxShadow] = [],
                margin: Length = .zero, canvasColor: RGBAColor = .transparent,
                pictureResolution: PictureResolution = .css, borderStyle: BorderStyle = .solid,
                innerBorder: InnerBorder? = nil, backgroundGradient: CSSGradient? = nil,
                canvasGradient: CSSGradient? = nil, aspect: AspectRatio? = nil,
                chrome: WindowChrome = WindowChrome(), caption: Caption = Caption(),
                canvasSize: LengthSize? = nil, canvasAuto: Bool = false, canvasImage: String? = nil,
                canvasBlur: Length = .zero) {
        self.size = size; self.width = width; self.height = height
        self.border = border; self.borderColor = borderColor
        self.padding = padding; self.background = background
        self.radius = radius; self.fit = fit; self.position = position
        self.shadows = shadows; self.margin = margin; self.canvasColor = canvasColor
        self.pictureResolution = pictureResolution
        self.borderStyle = borderStyle; self.innerBorder = innerBorder
        self.backgroundGradient = backgroundGradient; self.canvasGradient = canvasGradient; self.aspect = aspect
        self.chrome = chrome
        self.caption = caption
        self.canvasSize = canvasSize; self.canvasAuto = canvasAuto
        self.canvasImage = canvasImage; self.canvasBlur = canvasBlur
    }

    /// The `canvasImage` value that stands for the framed picture itself, blurred behind its
    /// frame as screenshot tools do.
    public static let pictureItself = "picture"


    /// The most shadows a style may have. Each is drawn as gradients over the whole frame, so
    /// their number is the work: a few layers make the softest shadows, and a list of
    /// thousands (a typing slip in a generated config) would take minutes and gigabytes.
    public static let maximumShadows = 100

    /// The built-in look `classic`, from the iOS recipe that framed started from, minus its bugs:
    /// white 3px border, `#808080` mat colour, shadow `0 0 10px rgba(0,0,0,0.6)`, scale-down.
    public static let classic = FrameStyle(
        border: .px(3), borderColor: .white,
        background: RGBAColor(red8: 0x80, green8: 0x80, blue8: 0x80),
        shadows: [BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(10),
                            color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6))])
}
