#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One scratch file per fuzzing process (in the temporary folder, named by the process id), for
/// targets that hand the code under test a path. It is removed when the process exits normally.
package enum FuzzFile {
    /// Replaces the scratch file's contents with `data` and returns its path.
    package static func store(_ data: [UInt8]) -> String {
        let path = path()
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write the fuzz scratch file \(path)")
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, data.count - written) }
            precondition(n > 0, "cannot write the fuzz scratch file \(path)")
            written += n
        }
        close(fd)
        if !cleanupRegistered {
            cleanupRegistered = true
            atexit { unlink(FuzzFile.path()) }
        }
        return path
    }

    private static func path() -> String {
        (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/framed-fuzz-\(getpid()).bin"
    }

    /// Set once by the fuzzing thread (libFuzzer calls the target on one thread).
    nonisolated(unsafe) private static var cleanupRegistered = false
}
