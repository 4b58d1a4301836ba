import FramedLayout

/// Named looks for `--preset`. Options given on the command line override them.
enum Preset: String, CaseIterable {
    /// White 3px border, #808080 mat, shadow 0 0 10px rgba(0,0,0,0.6), scale-down.
    case classic
    /// No border, no mat, no shadow: just the scaled picture.
    case none

    var style: FrameStyle {
        switch self {
        case .classic: return .classic
        case .none: return FrameStyle()
        }
    }
}
