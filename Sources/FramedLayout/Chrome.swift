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

    /// The bar's height as the platform draws it at 1x: 28 px for macOS's title bar (and the
    /// plain bar), 32 px for the Windows 11 caption.
    public var barHeight: Length {
        switch self {
        case .macos, .plain: .px(28)
        case .windows: .px(32)
        }
    }
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
    /// The text centred in the bar, on one line, ellipsised when too long; nil for none. Kept
    /// when `kind` is nil, as the theme is.
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
}
