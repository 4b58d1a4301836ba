internal import Glibc
internal import CCodecs

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
    /// A file's whole contents once read (WebP's header and its decoding each need them).
    private let whole = WholeContents()

    private final class WholeContents {
        var bytes: [UInt8]?
    }

    /// Opens the file (an error is the system's reason, e.g. `.unreadable("No such file or
    /// directory")`), or takes the bytes.
    package init(_ source: PictureSource) throws(RasterError) {
        switch source {
        case .bytes(let bytes): storage = .bytes(bytes)
        case .file(let path): storage = try Self.openFile(path)
        }
    }

    /// Bytes in memory.
    package init(bytes: [UInt8]) {
        storage = .bytes(bytes)
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

    private static func openFile(_ path: String) throws(RasterError) -> Storage {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(reason(errno)) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
            return .file(descriptor: descriptor, size: Int(info.st_size))
        }
        // Anything else is read to its end now (a directory fails here, with EISDIR).
        defer { close(descriptor) }
        return .bytes(try readToEnd(descriptor))
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `count` bytes from `offset` on (fewer if the file shrank since it was opened).
    private static func readRange(_ descriptor: Int32, from offset: Int, count: Int) throws(RasterError) -> [UInt8] {
        var failure: Int32 = 0
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

    private static func readToEnd(_ descriptor: Int32) throws(RasterError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason(errno))
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
