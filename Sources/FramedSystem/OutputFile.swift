internal import Glibc
import Synchronization

/// An output file that could not be written: its path and the system's reason.
package struct OutputFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file that was to be written.
    package var path: String
    /// Why not, in the system's words (`strerror`).
    package var reason: SystemError
    package init(path: String, reason: SystemError) { self.path = path; self.reason = reason }
    package var description: String { "\(path): cannot write: \(reason)" }
}

/// Writing outputs safely: into a temporary file beside the target, renamed into place only when
/// complete, so that a failure never leaves a partial file or harms an existing one.
package enum OutputFile {
    /// Writes `bytes` to `path` atomically: a temporary file `.NAME.framed-XXXXXX` in the same
    /// folder, written, flushed to disk, then renamed over `path`. On any error (a full disk, a
    /// file size limit, a folder that cannot be written) the temporary file is removed and an
    /// existing `path` is left as it was.
    ///
    /// An existing `path` that is not a regular file (a device such as `/dev/null`, or
    /// `/dev/stdout` on a pipe) is written in place instead: renaming over it would replace the
    /// device node itself (as root, `-o /dev/full` would have turned `/dev/full` into a PNG).
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        // With `ulimit -f`, writing past the limit would kill the process (SIGXFSZ) and leave
        // the temporary file behind; ignored, the write fails with EFBIG and is cleaned up.
        signal(SIGXFSZ, SIG_IGN)
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG, info.st_mode & S_IFMT != S_IFDIR {
            return try writeInPlace(bytes, to: path)
        }
        let directory = Paths.deletingLastComponent(path)
        let name = Paths.lastComponent(path)
        let template = (directory.isEmpty ? "." : directory) + "/.\(name).framed-XXXXXX"
        let (descriptor, temporary) = try TemporaryFiles.shared.make(template, for: path)
        var succeeded = false
        defer {
            if !succeeded { TemporaryFiles.shared.discard(temporary) }
        }
        // mkstemp makes the file 0600; give it the usual 0666 less the umask.
        fchmod(descriptor, newFileMode)
        try finish(FileDescriptor(rawValue: descriptor), bytes, path: path, sync: true)
        try TemporaryFiles.shared.rename(temporary, to: path)
        succeeded = true
    }

    /// 0666 less the umask, read once: `umask` can only be read by setting it, and workers write
    /// at the same time, so reading it per file could leave the process's mask at 0.
    private static let newFileMode: mode_t = {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }()

    /// Writes into an existing file that is not a regular one (a device, a pipe) as it is.
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        let file: FileDescriptor
        do { file = try .openForWriting(path) } catch { throw OutputFileError(path: path, reason: error) }
        try finish(file, bytes, path: path, sync: false)
    }

    /// Writes every byte, `fsync`s when asked (EINVAL, for files that cannot be synced, is not an
    /// error) and closes `file`; the first failure, in the system's words, names `path`.
    private static func finish(_ file: FileDescriptor, _ bytes: [UInt8], path: String, sync: Bool) throws(OutputFileError) {
        var failure: SystemError?
        do { try file.write(bytes) } catch { failure = error }
        if failure == nil, sync {
            do { try file.sync() } catch { if error.code != EINVAL { failure = error } }
        }
        do { try file.close() } catch { if failure == nil { failure = error } }
        if let failure { throw OutputFileError(path: path, reason: failure) }
    }
}

/// The temporary files being written, so that SIGINT or SIGTERM (Ctrl-C, `kill`) removes them
/// before framed ends. A temporary file is made and renamed into place under one lock; the signals
/// are taken by a thread of their own (`sigwait`: ordinary code, not a signal handler), which takes
/// that lock, removes the files and ends framed by the same signal, as if it had not been caught
/// (a shell shows 130 or 143).
package final class TemporaryFiles: Sendable {
    /// The one registry: the signal thread must see the files of every writer.
    package static let shared = TemporaryFiles()

    private struct State {
        var paths: Set<String> = []
        var watching = false
    }
    private let state = Mutex(State())

    /// `mkstemp` with `template` (ending in XXXXXX): the open file and its path, recorded.
    package func make(_ template: String, for output: String) throws(OutputFileError) -> (descriptor: Int32, path: String) {
        try state.withLock { state throws(OutputFileError) in
            var bytes = Array(template.utf8CString)
            let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw OutputFileError(path: output, reason: .last) }
            let path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            state.paths.insert(path)
            return (descriptor, path)
        }
    }

    /// Renames a finished temporary file into place; it is no longer removed on a signal.
    package func rename(_ temporary: String, to output: String) throws(OutputFileError) {
        try state.withLock { state throws(OutputFileError) in
            guard Glibc.rename(temporary, output) == 0 else {
                throw OutputFileError(path: output, reason: .last)
            }
            state.paths.remove(temporary)
        }
    }

    /// Removes a temporary file that will not be finished.
    package func discard(_ temporary: String) {
        state.withLock { state in
            unlink(temporary)
            state.paths.remove(temporary)
        }
    }

    /// From now on SIGINT and SIGTERM remove the temporary files, then end framed by the same
    /// signal. Call it before starting other threads: they inherit the blocked signals, so that
    /// only the signal thread takes them (it lives until framed ends, and is never joined). A
    /// signal ignored when framed started (`nohup`, a background job of a script) stays ignored;
    /// one that was only blocked (Foundation's Process passes its thread's mask on) is taken.
    package func removeOnInterrupt() {
        guard state.withLock({ state in defer { state.watching = true }; return !state.watching }) else { return }
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            sigaction(number, nil, &action)
            let ignored = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            if !ignored { sigaddset(&signals, number) }
        }
        guard sigismember(&signals, SIGINT) == 1 || sigismember(&signals, SIGTERM) == 1 else { return }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            try WorkerThread.detach { [signals] in
                var signals = signals, number: Int32 = 0
                while sigwait(&signals, &number) != 0 {}
                self.removeAll(thenEndBy: number)
            }
        } catch {
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }

    /// Removes every temporary file and ends the process by `signal`. The lock is never given
    /// back: no writer makes or renames a temporary file after this.
    private func removeAll(thenEndBy signal: Int32) -> Never {
        state.withLock { state -> Never in
            for path in state.paths { unlink(path) }
            Glibc.signal(signal, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            raise(signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            _exit(128 + signal)
        }
    }
}
