/// A window's title bar drawn above the picture (`chrome`), as screenshot tools frame a
/// window: inside the border, across the frame's whole inner width, so that the frame's
/// rounded top corners round it too; the picture keeps its size and the frame grows by the bar.

/// Whose title bar is drawn.
public enum ChromeKind: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// macOS: the three coloured buttons (close, minimise, zoom) at the left.
    case macos
    /// Windows 11: minimise, maximise and close glyphs at the right.
    case windows
    /// A bar without buttons.
    case plain

    /// The bar's height as the platform draws it at 1x (`ChromeFigures.barHeight`): 28 px for
    /// macOS's title bar (and the plain bar), 32 px for the Windows 11 caption.
    public var barHeight: Length { .px(ChromeFigures.of(self, .light).barHeight) }
}

/// The light or dark appearance of the title bar.
public enum ChromeTheme: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The light appearance. The default.
    case light
    /// The dark appearance.
    case dark
}

/// The title bar of a `FrameStyle`: which platform's (none by default), in which theme, with
/// which title.
public struct WindowChrome: Sendable, Equatable, Hashable, Codable {
    /// Whose bar is drawn; nil for no bar.
    public var kind: ChromeKind?
    /// Light or dark; kept when `kind` is nil, so that the theme can be chosen before the bar.
    public var theme: ChromeTheme
    /// The text in the bar (centred on macOS and the plain bar, at the left on Windows), on one
    /// line, ellipsised when too long; nil for none. Kept when `kind` is nil, as the theme is.
    public var title: String?

    /// A bar of `kind` (nil: none) in `theme`, with `title` (nil: none).
    public init(kind: ChromeKind? = nil, theme: ChromeTheme = .light, title: String? = nil) {
        self.kind = kind; self.theme = theme; self.title = title
    }

    /// The longest title, in bytes of UTF-8: a window's title, not a document. Pango shapes the
    /// whole text before it ellipsises it, so the limit bounds the work.
    public static let maximumTitleBytes = 1000

    /// The bar's height; zero without a bar.
    public var barHeight: Length { kind?.barHeight ?? .zero }

    /// The platform's figures for this bar in its theme; nil without a bar.
    public var figures: ChromeFigures? { kind.map { ChromeFigures.of($0, theme) } }
}

/// Every measure and colour of a title bar and of the window's edge, as its platform draws them,
/// in CSS px at 1x: the one place they are kept, each with where it comes from.
///
/// Sources, cited by the figures below:
/// - [MS-Title] Microsoft Learn, "Title bar design" (Windows apps, design basics): a 32 px bar;
///   without an icon the title sits 16 px from the left edge in the Caption type ramp; caption
///   buttons with full-bleed backplates, glyphs E921, E922 and E923 (maximise and restore with
///   rounded corners) and E8BB.
/// - [MS-Ramp] Microsoft Learn, "Typography in Windows": the Caption style is 12 px on a 16 px line.
/// - [WinUI] microsoft-ui-xaml's theme resources: `SolidBackgroundFillColorBase` #F3F3F3 (light)
///   and #202020 (dark); `TextFillColorPrimary` black at 0xE4/255 (light) and white (dark).
/// - [MS-Caption] Windows 11's caption buttons measured at 46 x 32 px with 10 px glyphs drawn
///   1 px thick (the figures screenshot tools and WinUI's own caption-button template use).
/// - [AppKit] `NSColor.windowBackgroundColor` (#ECECEC light, #323232 dark), `labelColor` (black
///   or white at 85 %), the title bar font at 13 pt; the standard title bar of a window without
///   a toolbar is 28 pt high since macOS 11 (it was 22 pt: desktop/desktop#10980).
/// - [Lights] The window buttons from macOS 11 to 15: 12 px circles 20 px apart, the first 8 px
///   from the window's left (prosperity-solutions/veld#242 measured these and macOS 26's larger
///   ones); fills #FF5F57, #FEBC2E, #28C840, each inside a rim of a darker shade, #E0443E,
///   #DEA123, #1AAB29, about 0.5 px wide (lwouis/macos-traffic-light-buttons-as-SVG draws the rim
///   as 3.6/85.4 of the diameter).
/// - [Rim] macOS in the dark appearance draws a window's edge in two lines: a white translucent
///   one just inside it and a black one just outside, with the shadow (microsoft-ui-xaml#7583,
///   after WWDC 2018 session 210; WindowServer's shadow properties name the black rim's opacity
///   "rim density" and the light one the "inner rim"). Moraea's re-creation of the dark rim for
///   Macs without Metal draws the inner one 1 px wide in white at 20 %; the outer one is drawn
///   here 1 px wide in black at 50 %, which keeps it a line on a dark page without the hard
///   black edge of a window shown at high contrast.
public struct ChromeFigures: Sendable, Equatable {
    /// One of macOS's window buttons.
    public struct Button: Sendable, Equatable {
        /// Its centre's distance from the bar's left edge.
        public var centerX: Double
        /// The circle's diameter.
        public var diameter: Double
        /// The fill.
        public var fill: RGBAColor
        /// The darker ring at the circle's edge, inside it.
        public var rim: RGBAColor
        /// The ring's width.
        public var rimWidth: Double
    }

    /// Windows 11's caption buttons: minimise, maximise and close, right-aligned.
    public struct CaptionButtons: Sendable, Equatable {
        /// Each button's width (its backplate spans the bar's height).
        public var width: Double
        /// The side of the square each glyph fills.
        public var glyphSize: Double
        /// The glyphs' line width.
        public var stroke: Double
        /// The corner radius of the maximise glyph's square.
        public var maximiseRadius: Double
        /// The glyphs' colour.
        public var color: RGBAColor
    }

    /// Where the title goes across the bar.
    public enum TitleAlignment: String, Sendable, Equatable {
        /// Centred on the bar (macOS, the plain bar).
        case center
        /// At the left, after `titleStart` (Windows 11).
        case left
    }

    /// The bar's height.
    public var barHeight: Double
    /// The bar's fill.
    public var barColor: RGBAColor
    /// The title's size, in DejaVu Sans (the platforms' own UI fonts are not on Linux).
    public var titleSize: Double
    /// The title's colour.
    public var titleColor: RGBAColor
    /// Centred, or at the left.
    public var titleAlignment: TitleAlignment
    /// The room the title keeps from the bar's left edge.
    public var titleStart: Double
    /// The room the title keeps from the bar's right edge.
    public var titleEnd: Double
    /// macOS's close, minimise and zoom buttons, left to right; empty on other bars.
    public var buttons: [Button]
    /// Windows 11's caption buttons; nil on other bars.
    public var captionButtons: CaptionButtons?
    /// A line 1 px wide just inside the window's (the frame's) edge; nil for none.
    public var innerRim: RGBAColor?
    /// A line 1 px wide just outside the window's edge, on the canvas; nil for none.
    public var outerRim: RGBAColor?

    /// The figures of `kind`'s bar in `theme`.
    public static func of(_ kind: ChromeKind, _ theme: ChromeTheme) -> ChromeFigures {
        let light = theme == .light
        switch kind {
        case .windows:
            // [MS-Title], [MS-Ramp], [WinUI], [MS-Caption].
            let text = light ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 228.0 / 255) : .white
            return ChromeFigures(
                barHeight: 32, barColor: light ? .grey(0xf3) : .grey(0x20),
                titleSize: 12, titleColor: text, titleAlignment: .left, titleStart: 16, titleEnd: 3 * 46 + 8,
                buttons: [],
                captionButtons: CaptionButtons(width: 46, glyphSize: 10, stroke: 1, maximiseRadius: 1, color: text),
                innerRim: nil, outerRim: nil)
        case .macos, .plain:
            // [AppKit], [Lights], [Rim]. The plain bar is macOS's without its buttons.
            let buttons = kind == .plain ? [] : [
                Button(centerX: 14, diameter: 12, fill: RGBAColor(red8: 0xff, green8: 0x5f, blue8: 0x57),
                       rim: RGBAColor(red8: 0xe0, green8: 0x44, blue8: 0x3e), rimWidth: 0.5),
                Button(centerX: 34, diameter: 12, fill: RGBAColor(red8: 0xfe, green8: 0xbc, blue8: 0x2e),
                       rim: RGBAColor(red8: 0xde, green8: 0xa1, blue8: 0x23), rimWidth: 0.5),
                Button(centerX: 54, diameter: 12, fill: RGBAColor(red8: 0x28, green8: 0xc8, blue8: 0x40),
                       rim: RGBAColor(red8: 0x1a, green8: 0xab, blue8: 0x29), rimWidth: 0.5),
            ]
            // The title keeps clear of the buttons and 8 px more on both sides, so it stays centred.
            let inset: Double = kind == .plain ? 8 : 8 + 3 * 12 + 2 * 8 + 8
            let dark = !light && kind == .macos
            return ChromeFigures(
                barHeight: 28, barColor: light ? .grey(0xec) : .grey(0x32),
                titleSize: 13, titleColor: RGBAColor(red: light ? 0 : 1, green: light ? 0 : 1, blue: light ? 0 : 1, alpha: 0.85),
                titleAlignment: .center, titleStart: inset, titleEnd: inset,
                buttons: buttons, captionButtons: nil,
                innerRim: dark ? RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.2) : nil,
                outerRim: dark ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5) : nil)
        }
    }
}
