internal import Glibc
internal import CCodecs
internal import FramedSystem

/// Where a picture's bytes come from. A file is not read whole: the JPEG and PNG decoders read
/// it a chunk at a time while they decode (a 48-megapixel JPEG is 20 MB that need not stay
/// in memory next to its pixels). Bytes already in memory (standard input, tests) are used
/// as they are.
public enum PictureSource: Sendable, Equatable {
    /// A file by its path.
    case file(String)
    /// Bytes in memory.
    case bytes([UInt8])

    /// All the bytes, read whole (what embedding a JPEG byte for byte needs).
    package func contents() throws(RasterError) -> [UInt8] {
        if case .bytes(let bytes) = self { return bytes }
        return try PictureInput(self).contents()
    }
}

extension Pictures {
    /// The bytes of a file, with the system's reason (strerror) when it cannot be read.
    package static func bytes(contentsOf path: String) throws(RasterError) -> [UInt8] {
        try PictureSource.file(path).contents()
    }
}

/// A `PictureSource` opened for decoding: the bytes, or an open regular file that decoders
/// read with `pread` (`ccodecs_input`), so several decoders may read it in turn and nothing
/// is held but what they ask for. A pipe, a device or a file that claims no size (/proc) is
/// read whole when opened, as it can be read only once. The file is closed with the input.
package struct PictureInput: ~Copyable {
    private enum Storage {
        case bytes([UInt8])
        case file(descriptor: Int32, size: Int)
    }

    private let storage: Storage
    /// The most bytes a decoder may read whole from this input (`byteLimit(forPixels:)` of the
    /// pixel limit): WebP's decoder, which reads from memory only, stops there.
    package let byteLimit: Int
    /// A file's whole contents once read (WebP's header and its decoding each need them).
    private let whole = WholeContents()

    private final class WholeContents {
        var bytes: [UInt8]?
    }

    /// Opens the file (an error is the system's reason, e.g. `.unreadable("No such file or
    /// directory")`), or takes the bytes. A file that is read whole when opened (a pipe, a
    /// device) may hold at most `byteLimit` bytes: an endless pipe is refused (`.tooManyBytes`)
    /// rather than read until memory runs out.
    package init(_ source: PictureSource, byteLimit: Int = PictureInput.byteLimit(forPixels: 256_000_000)) throws(RasterError) {
        self.byteLimit = byteLimit
        switch source {
        case .bytes(let bytes): storage = .bytes(bytes)
        case .file(let path): storage = try Self.openFile(path, byteLimit: byteLimit)
        }
    }

    /// The most bytes a picture of at most `pixels` pixels can take in any format framed reads:
    /// eight bytes a pixel (a 16-bit RGBA PNG stored without compression), and a megabyte for
    /// its metadata.
    package static func byteLimit(forPixels pixels: Int) -> Int {
        let (bytes, overflow) = max(0, pixels).multipliedReportingOverflow(by: 8)
        guard !overflow, bytes <= Int.max - (1 << 20) else { return .max }
        return bytes + (1 << 20)
    }

    /// The most bytes of an SVG, from a file or a stream: a document this large holds more
    /// than librsvg is let to load (`SVGLimits` in FramedRender).
    package static let svgByteLimit = 64 << 20

    /// Bytes in memory.
    package init(bytes: [UInt8], byteLimit: Int = .max) {
        storage = .bytes(bytes)
        self.byteLimit = byteLimit
    }

    deinit {
        if case .file(let descriptor, _) = storage { close(descriptor) }
    }

    /// How many bytes there are.
    package var count: Int {
        switch storage {
        case .bytes(let bytes): bytes.count
        case .file(_, let size): size
        }
    }

    /// All the bytes: the file read whole (for decoders that cannot read in chunks, such as
    /// WebP's, and for a JPEG embedded byte for byte), once; later calls share that read.
    package func contents() throws(RasterError) -> [UInt8] {
        switch storage {
        case .bytes(let bytes): return bytes
        case .file(let descriptor, let size):
            if let bytes = whole.bytes { return bytes }
            let bytes = try Self.readRange(descriptor, from: 0, count: size)
            whole.bytes = bytes
            return bytes
        }
    }

    /// `count` bytes from `offset` on, fewer at the end.
    func bytes(from offset: Int, count: Int) throws(RasterError) -> [UInt8] {
        switch storage {
        case .bytes(let bytes): return Array(bytes[min(offset, bytes.count)..<min(offset + count, bytes.count)])
        case .file(let descriptor, let size): return try Self.readRange(descriptor, from: offset, count: min(count, size - offset))
        }
    }

    /// The bytes of the JPEG at the start of the input, up to its EOI marker: no trailer (a
    /// motion photo's video) comes along when it is embedded byte for byte (`JPEGExtent`).
    package func jpegContents() throws(RasterError) -> [UInt8] {
        let end = try JPEGExtent.end(of: self)
        if end == count { return try contents() }
        return try bytes(from: 0, count: end)
    }

    /// The first `count` bytes at most (to tell the format).
    func prefix(_ count: Int) throws(RasterError) -> [UInt8] {
        switch storage {
        case .bytes(let bytes): return Array(bytes.prefix(count))
        case .file(let descriptor, let size): return try Self.readRange(descriptor, from: 0, count: min(count, size))
        }
    }

    /// Calls `body` with the input as the C codecs read it; valid only inside `body`.
    func withCInput<R>(_ body: (UnsafePointer<ccodecs_input>) throws(RasterError) -> R) throws(RasterError) -> R {
        switch storage {
        case .bytes(let bytes):
            let result = bytes.withUnsafeBufferPointer { buffer in
                var input = ccodecs_input(data: buffer.baseAddress, fd: -1, size: buffer.count)
                return Result { () throws(RasterError) in try body(&input) }
            }
            return try result.get()
        case .file(let descriptor, let size):
            var input = ccodecs_input(data: nil, fd: descriptor, size: size)
            return try body(&input)
        }
    }

    private static func openFile(_ path: String, byteLimit: Int) throws(RasterError) -> Storage {
        let descriptor: Int32
        do { descriptor = try FileDescriptor.openForReading(path).rawValue } catch { throw .unreadable(error.description) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            return .file(descriptor: descriptor, size: Int(info.st_size))
        }
        // Anything else is read to its end now (a directory fails here, with EISDIR).
        defer { close(descriptor) }
        return .bytes(try readToEnd(descriptor, limit: byteLimit))
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `count` bytes from `offset` on (fewer if the file shrank since it was opened).
    private static func readRange(_ descriptor: Int32, from offset: Int, count: Int) throws(RasterError) -> [UInt8] {
        var failure: Int32 = 0
        guard Memory.available(count) else { throw .outOfMemory }
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, done in
            done = 0
            while done < count {
                let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno; return }
                if n == 0 { return }
                done += n
            }
        }
        if failure != 0 { throw .unreadable(reason(failure)) }
        return bytes
    }

    /// The picture at the start of a stream (a pipe, standard input, a device): read up to its
    /// own end (`StreamEnd`: a PNG's IEND, a JPEG's EOI, a WebP's RIFF size...), and no further,
    /// or up to the end of the stream for a format without one; at most `limit` bytes
    /// (`.tooManyBytes` past them, or at once when the picture says it ends past them, or that a
    /// part of it does: a PNG chunk that claims 2 GB; an SVG
    /// at most `svgByteLimit`). A stream that does not start as a picture framed knows is
    /// refused from its first bytes (`.unsupportedFormat`), without reading on: so is
    /// `/dev/zero` at once, and a format framed recognises but does not read. The bytes are
    /// read into one buffer whose capacity grows to at most what is wanted (the picture's end
    /// when known, else `limit` and one byte).
    package static func readToEnd(_ descriptor: Int32, limit: Int) throws(RasterError) -> [UInt8] {
        let file = FileDescriptor(rawValue: descriptor)
        var bytes: [UInt8]
        let head = PictureFormat.sniffLength
        do { bytes = try file.read(upTo: head) } catch { throw .unreadable(error.description) }
        guard bytes.count == head else { return try within(bytes, limit: limit) }
        guard let format = PictureFormat.sniff(bytes) else { throw .unsupportedFormat(nil) }
        guard Pictures.canRead(format) else { throw .unsupportedFormat(format) }
        let limit = format == .svg ? min(limit, svgByteLimit) : limit
        var stream = StreamEnd(format)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        // Read on to the picture's end once known, else one byte past the limit.
        var wanted = limit == .max ? Int.max : limit + 1
        while bytes.count < wanted {
            if let end = stream.end(in: bytes) {
                guard end <= limit else { throw .tooManyBytes(limit: limit) }
                wanted = end
                guard bytes.count < wanted else { break }
            } else if stream.atLeast > limit {
                throw .tooManyBytes(limit: limit)
            }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, wanted - bytes.count)) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason(errno))
            }
            if bytes.count + count > bytes.capacity {
                // Doubling, but a growth past half the bound goes to the bound at once: the copy
                // then holds at most the bound (what is copied, and what it is copied from).
                var grown = max(bytes.count + count, 2 * bytes.capacity)
                if wanted != .max && grown > wanted / 2 { grown = wanted }
                guard Memory.available(grown) else { throw .outOfMemory }
                bytes.reserveCapacity(grown)
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        if bytes.count > wanted { bytes.removeSubrange(wanted...) }
        return try within(bytes, limit: limit)
    }

    /// `bytes`, or `.tooManyBytes` when they are more than `limit`.
    private static func within(_ bytes: [UInt8], limit: Int) throws(RasterError) -> [UInt8] {
        guard bytes.count <= limit else { throw .tooManyBytes(limit: limit) }
        return bytes
    }
}
