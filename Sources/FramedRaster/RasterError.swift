internal import CCodecs

/// Why a picture could not be read. `description` is one short line without the file name
/// (the command line puts the name in front).
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file holds no bytes.
    case empty
    /// The file could not be read (the system's reason).
    case unreadable(String)
    /// Not a format we know (nil), or a known format without a decoder yet.
    case unsupportedFormat(PictureFormat?)
    /// The decoder refused the data; the reason is the codec's own message.
    case corrupt(PictureFormat, String)
    /// A valid file with something we cannot convert.
    case unsupportedContent(PictureFormat, String)
    /// width x height is over `limit` pixels (checked before allocating).
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The data goes on past `limit` bytes, more than any picture within the pixel limit takes
    /// (a pipe or device that does not end, such as `/dev/zero`).
    case tooManyBytes(limit: Int)
    /// Memory for the pixels (or a codec's own) could not be allocated; `tooLarge` catches
    /// pictures over the limit before this.
    case outOfMemory
    /// Encoding for embedding failed.
    case encodingFailed(PictureFormat, String)

    public var description: String {
        switch self {
        case .empty: "empty file"
        case .unreadable(let reason): "cannot read (\(reason))"
        case .unsupportedFormat(nil): "not a picture (unsupported format)"
        case .unsupportedFormat(let format?): "\(format.name) pictures are not supported yet"
        case .corrupt(let format, let reason): "corrupt \(format.name): \(reason)"
        case .unsupportedContent(_, let reason): reason
        case .tooLarge(let width, let height, let limit):
            "picture is \(width)x\(height) pixels, over the limit of "
                + (limit % 1_000_000 == 0 && limit > 0 ? "\(limit / 1_000_000) megapixels" : "\(limit) pixels")
        case .tooManyBytes(let limit):
            "the data goes on past \(limit >> 20) MB, more than a picture within the pixel limit takes"
        case .outOfMemory: "out of memory"
        case .encodingFailed(let format, let reason): "cannot write \(format.name): \(reason)"
        }
    }
}

/// Calls a `ccodecs_` function with a message buffer of CCODECS_MESSAGE_SIZE bytes and
/// throws the RasterError its status means. This is the one place where a C status and
/// message become a RasterError.
/// - Parameters:
///   - size: the picture size the call reported (read only for CCODECS_TOO_LARGE).
///   - encoding: CCODECS_ERROR means "cannot write" rather than "corrupt".
func callShim(_ format: PictureFormat, limit: Int = 0, encoding: Bool = false,
              size: () -> (UInt32, UInt32) = { (0, 0) },
              _ body: (UnsafeMutablePointer<CChar>) -> Int32) throws(RasterError) {
    let (status, message) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CCODECS_MESSAGE_SIZE)) {
        $0[0] = 0
        let status = body($0.baseAddress!)
        return (status, String(cString: $0.baseAddress!))
    }
    switch status {
    case CCODECS_OK: return
    case CCODECS_TOO_LARGE:
        let (width, height) = size()
        throw .tooLarge(width: Int(width), height: Int(height), limit: limit)
    case CCODECS_UNSUPPORTED: throw .unsupportedContent(format, message)
    case CCODECS_NO_MEMORY: throw .outOfMemory
    case CCODECS_UNREADABLE: throw .unreadable(message)
    default: throw encoding ? .encodingFailed(format, message) : .corrupt(format, message)
    }
}
