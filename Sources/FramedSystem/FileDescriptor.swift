internal import Glibc

/// A failed system call: `errno`, described in the system's words (`strerror`), e.g. "No space
/// left on device".
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    package var code: Int32

    package init(code: Int32) { self.code = code }

    /// The error of the system call that just failed.
    package static var last: SystemError { SystemError(code: errno) }

    package var description: String { String(cString: strerror(code)) }
}

/// An open file descriptor with whole reads and writes: what the command-line tools need of a
/// file or a standard stream, with the system's reason when it fails (Foundation's
/// `FileHandle` without Foundation). It does not own the descriptor: `close()` when done.
package struct FileDescriptor: Sendable, Equatable {
    package var rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let standardInput = FileDescriptor(rawValue: 0)
    package static let standardOutput = FileDescriptor(rawValue: 1)
    package static let standardError = FileDescriptor(rawValue: 2)

    /// Opens /dev/null in place of each of standard input, output and error that is closed
    /// (`framed >&-`): otherwise the next file opened would take its number, and what is written
    /// to the stream (a warning) would land in that file (an output being written). Input is
    /// opened for writing only and output for reading only, so that reading or writing there
    /// fails as it would on the closed stream ("Bad file descriptor"): a picture written to a
    /// closed standard output is an error, not lost.
    package static func openStandardStreams() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = Glibc.open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            if opened != descriptor && opened >= 0 { Glibc.close(opened) }
        }
    }

    /// Opens `path` for reading.
    package static func openForReading(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, O_RDONLY)
    }

    /// Opens `path` for reading if it is a regular file (following links); anything else (a
    /// pipe, a device, a folder) is EINVAL, found without waiting for a writer.
    package static func openRegularFile(_ path: String) throws(SystemError) -> FileDescriptor {
        let file = try open(path, O_RDONLY | O_NONBLOCK)
        var info = stat()
        guard fstat(file.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            try? file.close()
            throw SystemError(code: EINVAL)
        }
        return file
    }

    /// Opens an existing `path` for writing, as it is (not truncated, not created). A pipe
    /// without a reader is an error (ENXIO) rather than a wait.
    package static func openForWriting(_ path: String) throws(SystemError) -> FileDescriptor {
        let file = try open(path, O_WRONLY | O_NONBLOCK)
        _ = fcntl(file.rawValue, F_SETFL, fcntl(file.rawValue, F_GETFL) & ~O_NONBLOCK)
        return file
    }

    /// Creates `path`, or empties it if it exists, for writing (mode 0666 less the umask).
    package static func create(_ path: String) throws(SystemError) -> FileDescriptor {
        try open(path, O_WRONLY | O_CREAT | O_TRUNC)
    }

    private static func open(_ path: String, _ flags: Int32) throws(SystemError) -> FileDescriptor {
        let descriptor = SystemPath.withCString(path) { Glibc.open($0, flags | O_CLOEXEC, 0o666) }
        guard descriptor >= 0 else { throw .last }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Writes every byte, retrying short writes and interrupted calls.
    package func write(_ bytes: [UInt8]) throws(SystemError) {
        let failure: SystemError? = bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = Glibc.write(rawValue, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return .last
                }
                written += count
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes the text as UTF-8.
    package func write(_ text: String) throws(SystemError) {
        try write(Array(text.utf8))
    }

    /// Reads up to `limit` bytes: fewer only at the end of the file.
    package func read(upTo limit: Int = .max) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit, 1 << 16))
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// Reads up to `count` bytes from `offset` of a regular file (`pread`: the file position
    /// stays): fewer only at the end of the file.
    package func read(at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(rawValue, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw .last
            }
            done += got
        }
        return Array(bytes[..<done])
    }

    /// Everything up to the end of the file (or of the stream).
    package func readToEnd() throws(SystemError) -> [UInt8] {
        try read()
    }

    /// `fsync`: the written bytes are on the disk when this returns.
    package func sync() throws(SystemError) {
        guard fsync(rawValue) == 0 else { throw .last }
    }

    /// Closes the descriptor; an error here can be a write that failed late (NFS, a full disk).
    package func close() throws(SystemError) {
        guard Glibc.close(rawValue) == 0 else { throw .last }
    }
}
