/// Named looks to start from: a frame style and the output resolution that goes with it (a print
/// wants 300 dpi). `Framer(preset:)` starts from one; settings given after it change it.
public enum Preset: String, CaseIterable, Sendable, Codable {
    /// White 3px border, #808080 mat, shadow 0 0 10px rgba(0,0,0,0.6), scale-down.
    case classic
    /// A documentation figure: 1px light-gray border, 8px corners, white mat, soft offset shadow,
    /// transparent canvas.
    case docs
    /// A print: white mat, thin dark border, no shadow, pictures at 300 dpi.
    case print
    /// An instant photo: white mat with a deep bottom edge, a small shadow.
    case polaroid
    /// No border, no mat, no shadow: just the scaled picture.
    case none

    /// One line saying what the preset is for.
    public var summary: String {
        switch self {
        case .classic: return "the default: 3px white border, gray mat, soft black shadow all round"
        case .docs: return "documentation figures: thin light-gray border, 8px corners, soft offset shadow, transparent canvas"
        case .print: return "prints: white mat, thin dark border, no shadow, 300 dpi"
        case .polaroid: return "an instant photo: white mat with a wider bottom, a small shadow"
        case .none: return "no border, no mat, no shadow: just the scaled picture"
        }
    }

    /// The preset's frame style.
    public var style: FrameStyle {
        switch self {
        case .classic:
            return .classic
        case .docs:
            return FrameStyle(border: .px(1), borderColor: RGBAColor(red8: 0xd0, green8: 0xd0, blue8: 0xd0),
                              background: .white, radius: .px(8),
                              shadows: [BoxShadow(offsetX: .zero, offsetY: .px(4), blur: .px(16),
                                                  color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.25))],
                              canvasColor: .transparent)
        case .print:
            return FrameStyle(border: .mm(0.5), borderColor: RGBAColor(red8: 0x22, green8: 0x22, blue8: 0x22),
                              padding: EdgeInsets(all: .mm(8)), background: .white)
        case .polaroid:
            return FrameStyle(border: .zero, padding: EdgeInsets(top: .px(16), right: .px(16), bottom: .px(64), left: .px(16)),
                              background: RGBAColor(red8: 0xfd, green8: 0xfd, blue8: 0xfb),
                              shadows: [BoxShadow(offsetX: .zero, offsetY: .px(2), blur: .px(8),
                                                  color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3))])
        case .none:
            return FrameStyle()
        }
    }

    /// Pixels per inch the preset asks for (`OutputOptions.dpi`); nil leaves the format's default.
    public var dpi: Double? {
        self == .print ? 300 : nil
    }
}
