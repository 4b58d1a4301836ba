internal import Glibc
import Synchronization

/// The temporary files being written, so that SIGINT, SIGTERM or SIGHUP (Ctrl-C, `kill`, a
/// terminal closed) removes them before framed ends. A temporary file is made and renamed into place under one lock; the signals
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

    /// Makes and opens a temporary file beside `target` with `mkstemp`, named
    /// `.NAME.framed-XXXXXX` after the target, the name shortened to fit the system's limit of
    /// 255 bytes a name; recorded. Errors name `output`.
    package func make(besides target: String, for output: String) throws(OutputFileError) -> (descriptor: Int32, path: String) {
        let folder = Paths.deletingLastComponent(target)
        var name = SystemPath.bytes(Paths.lastComponent(target))
        let suffix = Array(".framed-XXXXXX".utf8)
        name = Array(name.prefix(Self.nameLimit - 1 - suffix.count))
        let template = SystemPath.bytes(folder.isEmpty ? "." : folder) + Array("/.".utf8) + name + suffix
        return try state.withLock { state throws(OutputFileError) in
            var bytes = template.map { CChar(bitPattern: $0) } + [0]
            let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw .cannotWrite(output, .last) }
            let path = SystemPath.string(bytes.dropLast().map { UInt8(bitPattern: $0) })
            state.paths.insert(path)
            return (descriptor, path)
        }
    }

    /// The longest file name the system takes, in bytes (`NAME_MAX`).
    static let nameLimit = 255

    /// Moves a finished temporary file to `target`; it is no longer removed on a signal. Without
    /// `replacing`, fails (`exists`) if `target` exists by now: `renameat2` with
    /// `RENAME_NOREPLACE`, or where the file system lacks it a hard link then the temporary
    /// name removed. Errors name `output`.
    package func place(_ temporary: String, at target: String, replacing: Bool, for output: String) throws(OutputFileError) {
        try state.withLock { state throws(OutputFileError) in
            let status = SystemPath.withCString(temporary) { from in
                SystemPath.withCString(target) { to in replacing ? Glibc.rename(from, to) : Self.moveWithoutReplacing(from, to) }
            }
            guard status == 0 else { throw errno == EEXIST && !replacing ? .exists(output) : .cannotWrite(output, .last) }
            state.paths.remove(temporary)
        }
    }

    /// `renameat2(..., RENAME_NOREPLACE)` (looked up at run time: the C library has it, its
    /// Swift module does not show it); where the file system cannot do it, `link` then `unlink`.
    /// 0, or -1 with `errno` set (EEXIST when `to` exists).
    private static func moveWithoutReplacing(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 {
        if let renameat2 = renameAt2, renameat2(AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */) == 0 { return 0 }
        if renameAt2 != nil && errno != EINVAL && errno != ENOSYS && errno != ENOTSUP { return -1 }
        guard link(from, to) == 0 else { return -1 }
        unlink(from)
        return 0
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    private static let renameAt2: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }

    /// Removes a temporary file that will not be finished.
    package func discard(_ temporary: String) {
        state.withLock { state in
            SystemPath.withCString(temporary) { _ = unlink($0) }
            state.paths.remove(temporary)
        }
    }

    /// From now on SIGINT, SIGTERM and SIGHUP remove the temporary files, then end framed by the
    /// same signal; SIGPIPE is ignored, so that a write to a closed pipe fails (EPIPE) as any
    /// other write does, and is cleaned up as one. Call it before starting other threads: they
    /// inherit the blocked signals, so that only the signal thread takes them (it lives until
    /// framed ends, and is never joined). A signal ignored when framed started (`nohup`, a
    /// background job of a script) stays ignored; one that was only blocked (Foundation's Process
    /// passes its thread's mask on) is taken.
    package func removeOnInterrupt() {
        guard state.withLock({ state in defer { state.watching = true }; return !state.watching }) else { return }
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            sigaction(number, nil, &action)
            let ignored = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            if !ignored { sigaddset(&signals, number) }
        }
        guard [SIGINT, SIGTERM, SIGHUP].contains(where: { sigismember(&signals, $0) == 1 }) else { return }
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
            for path in state.paths { SystemPath.withCString(path) { _ = unlink($0) } }
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
