internal import Glibc
import Synchronization

/// A temporary file being written beside its output: open, and named only when the file system
/// cannot make an anonymous one.
package struct TemporaryFile: Sendable {
    /// The open file.
    package let descriptor: Int32
    /// The folder it is in, where it will be named.
    let folder: String
    /// Its name while it has one: always for a `mkstemp` file, and for an anonymous one only
    /// between being linked into the folder and renamed over the output.
    var path: String?
}

/// The temporary files being written, so that a signal that ends framed (Ctrl-C, `kill`, a
/// terminal closed, a time limit) removes them first. Temporary files are anonymous where the
/// file system allows (`O_TMPFILE`): they have no name to leave behind, even after SIGKILL,
/// until the last step links them in. A named one is made, and moved into place, under one
/// lock; the signals are taken by a thread of their own (`sigwait`: ordinary code, not a
/// signal handler), which takes that lock, removes the named files and ends framed by the same
/// signal, as if it had not been caught (a shell shows 128 plus its number).
package final class TemporaryFiles: Sendable {
    /// The one registry: the signal thread must see the files of every writer. Its files are
    /// anonymous where `/proc/self/fd` is there to link them in by, unless the environment's
    /// `FRAMED_TEMPORARY_FILES` is `named` (read once: the tests' way to run the named path on a
    /// file system that has the anonymous one).
    package static let shared = TemporaryFiles(
        anonymous: access("/proc/self/fd", X_OK) == 0 && getenv("FRAMED_TEMPORARY_FILES").map { String(cString: $0) } != "named")

    /// Whether files are made anonymous (`O_TMPFILE`) where the file system can.
    let anonymous: Bool

    /// A registry whose files are anonymous where the file system allows (`anonymous`), else
    /// named (`mkstemp`).
    package init(anonymous: Bool = true) { self.anonymous = anonymous }

    private struct State {
        var paths: Set<String> = []
        var watching = false
        var counter = 0
    }
    private let state = Mutex(State())

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY` on Linux; the C library's macro does not reach
    /// Swift): an unnamed file in the folder given.
    private static let temporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Makes and opens a temporary file beside `target`: an anonymous one (`O_TMPFILE`), or
    /// where the file system has none, `.NAME.framed-XXXXXX` made by `mkstemp` (the name
    /// shortened to fit the system's 255 bytes), recorded. Errors name `output`.
    package func make(besides target: String, for output: String) throws(OutputFileError) -> TemporaryFile {
        let folder = Paths.deletingLastComponent(target).isEmpty ? "." : Paths.deletingLastComponent(target)
        if anonymous {
            let descriptor = SystemPath.withCString(folder) { open($0, Self.temporaryFileFlag | O_WRONLY | O_CLOEXEC, 0o600) }
            if descriptor >= 0 { return TemporaryFile(descriptor: descriptor, folder: folder, path: nil) }
            guard [EISDIR, EOPNOTSUPP, EINVAL, ENOTSUP].contains(errno) else { throw .cannotWrite(output, .last) }
        }
        let template = Self.temporaryName(for: target, in: folder, suffix: "XXXXXX")
        return try state.withLock { state throws(OutputFileError) in
            var bytes = template.map { CChar(bitPattern: $0) } + [0]
            let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw .cannotWrite(output, .last) }
            let path = SystemPath.string(bytes.dropLast().map { UInt8(bitPattern: $0) })
            state.paths.insert(path)
            return TemporaryFile(descriptor: descriptor, folder: folder, path: path)
        }
    }

    /// `FOLDER/.NAME.framed-SUFFIX`, as bytes, with NAME cut to fit the system's 255 bytes.
    private static func temporaryName(for target: String, in folder: String, suffix: String) -> [UInt8] {
        let tail = Array(".framed-\(suffix)".utf8)
        let name = SystemPath.bytes(Paths.lastComponent(target)).prefix(Self.nameLimit - 1 - tail.count)
        return SystemPath.bytes(folder) + Array("/.".utf8) + name + tail
    }

    /// The longest file name the system takes, in bytes (`NAME_MAX`).
    static let nameLimit = 255

    /// Puts a finished temporary file in `target`'s place and closes it; it is no longer
    /// removed on a signal. An anonymous file is linked in (`linkat` through
    /// `/proc/self/fd`): straight to `target` without `replacing`, which fails (`exists`) if
    /// `target` exists by now; with it, to a temporary name then renamed over `target`. A named
    /// file is renamed, or without `replacing` moved by `renameat2` with `RENAME_NOREPLACE`
    /// (or a hard link where the file system lacks it). Errors name `output`.
    package func place(_ temporary: inout TemporaryFile, at target: String, replacing: Bool, for output: String)
        throws(OutputFileError) {
        try state.withLock { state throws(OutputFileError) in
            if temporary.path == nil {
                let proc = "/proc/self/fd/\(temporary.descriptor)"
                if !replacing {
                    let status = SystemPath.withCString(target) { linkat(AT_FDCWD, proc, AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }
                    guard status == 0 else { throw errno == EEXIST ? .exists(output) : .cannotWrite(output, .last) }
                    close(temporary.descriptor)
                    return
                }
                // A name of its own first (none can be made by a second run at once: the
                // counter and the process id tell them apart, and linkat never replaces).
                while true {
                    state.counter += 1
                    let name = SystemPath.string(Self.temporaryName(for: target, in: temporary.folder,
                                                                    suffix: "\(getpid())-\(state.counter)"))
                    if SystemPath.withCString(name, { linkat(AT_FDCWD, proc, AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }) == 0 {
                        temporary.path = name
                        state.paths.insert(name)
                        break
                    }
                    guard errno == EEXIST else { throw .cannotWrite(output, .last) }
                }
            }
            let named = temporary.path!
            let status = SystemPath.withCString(named) { from in
                SystemPath.withCString(target) { to in replacing ? Glibc.rename(from, to) : Self.moveWithoutReplacing(from, to) }
            }
            guard status == 0 else { throw errno == EEXIST && !replacing ? .exists(output) : .cannotWrite(output, .last) }
            state.paths.remove(named)
            temporary.path = nil
            close(temporary.descriptor)
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

    /// Removes a temporary file that will not be finished: closes it, and removes its name if it
    /// has one (an anonymous file goes with its descriptor).
    package func discard(_ temporary: TemporaryFile) {
        state.withLock { state in
            close(temporary.descriptor)
            if let path = temporary.path {
                SystemPath.withCString(path) { _ = unlink($0) }
                state.paths.remove(path)
            }
        }
    }

    /// The signals whose default is to end the process, which framed takes to remove its named
    /// temporary files first: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
    /// SIGVTALRM, SIGPROF and SIGXCPU (`ulimit -t`). SIGKILL cannot be taken: anonymous
    /// temporary files are what leaves nothing then.
    static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU]

    /// From now on the `endingSignals` remove the temporary files, then end framed by the
    /// same signal; SIGPIPE and SIGXFSZ are ignored, so that a write to a closed pipe (EPIPE) or
    /// past the file size limit (`ulimit -f`, EFBIG) fails as any other write does, and is
    /// cleaned up as one. Call it before starting other threads: they
    /// inherit the blocked signals, so that only the signal thread takes them (it lives until
    /// framed ends, and is never joined). A signal ignored when framed started (`nohup`, a
    /// background job of a script) stays ignored; one that was only blocked (Foundation's Process
    /// passes its thread's mask on) is taken.
    package func removeOnInterrupt() {
        guard state.withLock({ state in defer { state.watching = true }; return !state.watching }) else { return }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in Self.endingSignals {
            var action = sigaction()
            sigaction(number, nil, &action)
            let ignored = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            if !ignored { sigaddset(&signals, number) }
        }
        guard Self.endingSignals.contains(where: { sigismember(&signals, $0) == 1 }) else { return }
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

    /// Removes every temporary file and ends the process with `status`, as `exit` would but
    /// without running what the process registered to run at its end (another thread may be
    /// inside any of it): for a failure no caller can be told of.
    package func removeAll(thenExit status: Int32) -> Never {
        removeAll { _exit(status) }
    }

    /// Removes every temporary file and ends the process by `signal`, as if it had not been
    /// caught.
    private func removeAll(thenEndBy signal: Int32) -> Never {
        removeAll {
            Glibc.signal(signal, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, signal)
            raise(signal)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            _exit(128 + signal)
        }
    }

    /// Removes every temporary file, then runs `end`. The lock is never given back: no writer
    /// makes or renames a temporary file after this.
    private func removeAll(then end: () -> Never) -> Never {
        state.withLock { state -> Never in
            for path in state.paths { SystemPath.withCString(path) { _ = unlink($0) } }
            end()
        }
    }
}
