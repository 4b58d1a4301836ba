internal import CCairo
import FramedLayout

/// Why rendering failed. Descriptions are one line without the file name (the CLI adds it).
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A Cairo call reported an error status.
    case cairo(operation: String, message: String)
    /// The canvas is larger than Cairo's image surfaces allow.
    case canvasTooLarge(PixelSize)
    /// The style asks for something this version cannot draw yet.
    case unsupported(String)

    public var description: String {
        switch self {
        case let .cairo(operation, message): return "cannot render (\(operation)): \(message)"
        case let .canvasTooLarge(size):
            return "the output would be \(size) pixels, over the limit of 32767 per side; use a smaller --scale or --dpi"
        case let .unsupported(what): return what
        }
    }
}

/// The one place where a Cairo status becomes a Swift error.
@inline(__always)
func check(_ status: cairo_status_t, _ operation: @autoclosure () -> String) throws(RenderError) {
    guard status == CAIRO_STATUS_SUCCESS else {
        throw .cairo(operation: operation(), message: String(cString: cairo_status_to_string(status)))
    }
}
