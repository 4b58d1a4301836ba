internal import Glibc

/// Why an output file was not written.
package enum OutputFileError: Error, Equatable, Sendable {
    /// The file exists, and was not to be replaced (it may have appeared while framed worked).
    case exists(String)
    /// The file could not be written: its path and the system's reason.
    case cannotWrite(String, SystemError)

    /// The output's path.
    package var path: String {
        switch self {
        case let .exists(path), let .cannotWrite(path, _): return path
        }
    }
}

/// Writing outputs safely: into a temporary file beside the target, moved into place only when
/// complete, so that a failure never leaves a partial file or harms an existing one.
package enum OutputFile {
    /// Writes `bytes` to `path` atomically: a temporary file `.NAME.framed-XXXXXX` in the same
    /// folder (the name shortened to fit the system's 255 bytes), written, flushed to disk, then
    /// moved over `path`. On any error (a full disk, a file size limit, a folder that cannot be
    /// written) the temporary file is removed and an existing `path` is left as it was.
    ///
    /// - A symbolic link is written through: the file it names (even one that does not exist yet)
    ///   is replaced, and the link stays.
    /// - A file that is replaced keeps its permissions and, when framed may give it (as root),
    ///   its owner and group.
    /// - Without `replacing`, an existing file is an error, found before writing and again at the
    ///   last step, which fails if the name appeared meanwhile (`renameat2` with
    ///   `RENAME_NOREPLACE`, or a hard link where the file system lacks it): two runs started
    ///   together never replace each other's file.
    /// - An existing file that is not a regular one (a device such as `/dev/null`, a pipe,
    ///   `/dev/stdout` on a pipe) is written in place, replacing or not: moving a file over it
    ///   would replace the device node itself. A pipe without a reader is an error, not a wait.
    package static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputFileError) {
        // With `ulimit -f`, writing past the limit would kill the process (SIGXFSZ) and leave
        // the temporary file behind; ignored, the write fails with EFBIG and is cleaned up.
        signal(SIGXFSZ, SIG_IGN)
        let target: String
        do { target = try FileSystem.resolvingLinks(path) } catch { throw .cannotWrite(path, error) }
        let existing = FileSystem.status(target)
        if let existing, existing.kind == .other {
            return try writeInPlace(bytes, to: target, named: path)
        }
        if existing != nil && !replacing { throw .exists(path) }

        let (descriptor, temporary) = try TemporaryFiles.shared.make(besides: target, for: path)
        var placed = false
        defer {
            if !placed { TemporaryFiles.shared.discard(temporary) }
        }
        if let existing {
            // As root the new file gets the old one's owner; anyone keeps its group where allowed.
            if geteuid() == 0 { _ = fchown(descriptor, existing.owner, existing.group) } else {
                _ = fchown(descriptor, uid_t.max, existing.group)
            }
            fchmod(descriptor, mode_t(existing.permissions))
        } else {
            // mkstemp makes the file 0600; give it the usual 0666 less the umask.
            fchmod(descriptor, newFileMode)
        }
        try finish(FileDescriptor(rawValue: descriptor), bytes, path: path, sync: true)
        try TemporaryFiles.shared.place(temporary, at: target, replacing: replacing, for: path)
        placed = true
    }

    /// Whether writing `path` would replace a file (or a folder) there: something exists there,
    /// through links, and it is not a device or a pipe (written in place, never replaced).
    package static func wouldReplace(_ path: String) -> Bool {
        guard FileSystem.exists(path) else { return false }
        guard let target = try? FileSystem.resolvingLinks(path), let existing = FileSystem.status(target) else {
            return FileSystem.linkStatus(path)?.kind != .link
        }
        return existing.kind != .other
    }

    /// 0666 less the umask, read once: `umask` can only be read by setting it, and workers write
    /// at the same time, so reading it per file could leave the process's mask at 0.
    private static let newFileMode: mode_t = {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }()

    /// Writes into an existing file that is not a regular one (a device, a pipe) as it is.
    private static func writeInPlace(_ bytes: [UInt8], to target: String, named path: String) throws(OutputFileError) {
        let file: FileDescriptor
        do { file = try .openForWriting(target) } catch { throw .cannotWrite(path, error) }
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
        if let failure { throw .cannotWrite(path, failure) }
    }
}
