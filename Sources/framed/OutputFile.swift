import Foundation

/// A file error: exit code 1. The message names the file and says what went wrong.
struct FileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}

/// Writing outputs safely: into a temporary file beside the target, renamed into place only when
/// complete, so that a failure never leaves a partial file or harms an existing one.
enum OutputFile {
    /// Writes `bytes` to `path` atomically.
    static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
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
        var written = 0
        let writeError: String? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return Self.errorText()
                }
                written += n
            }
            return fsync(descriptor) == 0 || errno == EINVAL ? nil : Self.errorText()
        }
        let closeFailed = close(descriptor) != 0
        if let writeError { throw FileError(path: path, reason: "cannot write: \(writeError)") }
        if closeFailed { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        guard rename(temporary, path) == 0 else { throw FileError(path: path, reason: "cannot write: \(Self.errorText())") }
        succeeded = true
    }

    /// Whether `output` names the same file as `input` (through links, `..` or hard links).
    static func isSameFile(_ input: String, _ output: String) -> Bool {
        var a = stat(), b = stat()
        guard stat(input, &a) == 0, stat(output, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// `strerror(errno)`, the system's words for the last error.
    static func errorText() -> String { String(cString: strerror(errno)) }
}

