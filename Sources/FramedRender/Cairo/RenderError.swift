internal import CCairo
import FramedLayout
import FramedSystem

/// Why rendering failed. Descriptions are one line without the file name (the CLI adds it).
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A Cairo call reported an error status.
    case cairo(operation: String, message: String)
    /// The canvas is larger than Cairo's image surfaces allow.
    case canvasTooLarge(PixelSize)
    /// The PNG canvas has more pixels than the pixel limit (a giant allocation).
    case canvasTooManyPixels(PixelSize, limit: Int)
    /// The canvas is larger, in points, than the largest side Cairo's coordinates hold.
    case canvasTooLargeInPoints(Size, limit: Double)
    /// The style asks for something this version cannot draw yet.
    case unsupported(String)
    /// Text (`what`: the caption, the window title) would be `pixels` device pixels tall, over
    /// the `limit` that Pango and FreeType draw.
    case textTooLarge(String, pixels: Double, limit: Double)

    public var description: String { message(naming: { $0 }) }

    /// The description with each setting it suggests changing (`scale`, `dpi`, `size`,
    /// `max-pixels`) named by `name`.
    public func message(naming name: (String) -> String) -> String {
        switch self {
        case let .cairo(operation, message): return "cannot render (\(operation)): \(message)"
        case let .canvasTooLarge(size):
            return "the output would be \(size) pixels, over the limit of 32767 per side; use a smaller \(name("scale")) or \(name("dpi"))"
        case let .canvasTooManyPixels(size, limit):
            let megapixels = Double(size.width) * Double(size.height) / 1e6
            return "the output would be \(size) pixels (\(Int(megapixels.rounded(.up))) megapixels), over the limit of "
                + (limit % 1_000_000 == 0 && limit > 0 ? "\(limit / 1_000_000) megapixels" : "\(limit) pixels")
                + " (\(name("max-pixels"))); use a smaller \(name("size")), \(name("scale")) or \(name("dpi"))"
        case let .canvasTooLargeInPoints(size, limit):
            func text(_ v: Double) -> String { v < 1e15 ? String(Int(v.rounded(.up))) : String(printf: "%.3g", v) }
            return "the output would be \(text(size.width))x\(text(size.height)) pt, over the limit of \(Int(limit)) pt per side"
        case let .unsupported(what): return what
        case let .textTooLarge(what, pixels, limit):
            return "the \(what) would be drawn \(Int(pixels.rounded(.up))) pixels tall, over the \(Int(limit)) that text can be; "
                + "use a smaller \(name("scale")) or \(name("dpi"))" + (what == "caption" ? " or \(name("caption-font")) size" : "")
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
