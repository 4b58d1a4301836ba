internal import Glibc
import FramedSystem

/// A file error: exit code 1. The message names the file and says what went wrong.
struct FileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}

/// Writing outputs safely: into a temporary file beside the target, renamed into place only when
/// complete, so that a failure never leaves a partial file or harms an existing one.
enum OutputFile {
    /// Writes `bytes` to `path` atomically: a temporary file `.NAME.framed-XXXXXX` in the same
    /// folder, written, flushed to disk, then renamed over `path`. On any error (a full disk, a
    /// file size limit, a folder that cannot be written) the temporary file is removed and an
    /// existing `path` is left as it was.
    ///
    /// An existing `path` that is not a regular file (a device such as `/dev/null`, or
    /// `/dev/stdout` on a pipe) is written in place instead: renaming over it would replace the
    /// device node itself (as root, `-o /dev/full` would have turned `/dev/full` into a PNG).
    static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        // With `ulimit -f`, writing past the limit would kill the process (SIGXFSZ) and leave
        // the temporary file behind; ignored, the write fails with EFBIG and is cleaned up.
        signal(SIGXFSZ, SIG_IGN)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            return try writeInPlace(bytes, to: path)
        }
        let directory = Paths.deletingLastComponent(path)
        let name = Paths.lastComponent(path)
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).framed-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        // mkstemp makes the file 0600; give it the usual 0666 less the umask.
        let mask = umask(0); umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        let writeError = writeAll(bytes, to: descriptor, sync: true)
        let closeFailed = close(descriptor) != 0
        if let writeError { throw FileError(path: path, reason: "cannot write: \(writeError)") }
        if closeFailed { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        guard rename(temporary, path) == 0 else { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        succeeded = true
    }

    /// Writes into an existing file that is not a regular one (a device, a pipe) as it is.
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        let writeError = writeAll(bytes, to: descriptor, sync: false)
        let closeFailed = close(descriptor) != 0
        if let writeError { throw FileError(path: path, reason: "cannot write: \(writeError)") }
        if closeFailed { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
    }

    /// Writes every byte (retrying short writes and EINTR), then `fsync`s when asked (EINVAL,
    /// for files that cannot be synced, is not an error); the system's reason on failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, sync: Bool) -> String? {
        let file = FileDescriptor(rawValue: descriptor)
        do { try file.write(bytes) } catch { return error.description }
        guard sync else { return nil }
        do { try file.sync() } catch { return error.code == EINVAL ? nil : error.description }
        return nil
    }

    /// Whether `output` names the same file as `input` (through links, `..` or hard links).
    static func isSameFile(_ input: String, _ output: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(input, &a) == 0, stat(output, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// `strerror(errno)`, the system's words for the last error.
    static func errorText() -> String { SystemError.last.description }
}
