internal import Glibc

/// Why an output file was not written.
package enum OutputFileError: Error, Equatable, Sendable {
    /// The file exists, and was not to be replaced (it may have appeared while framed worked).
    case exists(String)
    /// The file could not be written: its path and the system's reason.
    case cannotWrite(String, SystemError)
    /// framed would not write there: `reason` says why (a disk, a link another user planted).
    case refused(String, reason: String)
    /// The output's folder was missing and could not be made: the output's path, the folder
    /// and the system's reason.
    case cannotCreateFolder(String, folder: String, SystemError)

    /// The output's path.
    package var path: String {
        switch self {
        case let .exists(path), let .cannotWrite(path, _), let .refused(path, _), let .cannotCreateFolder(path, _, _): return path
        }
    }
}

/// Writing outputs safely: into a temporary file beside the target, moved into place only when
/// complete, so that a failure never leaves a partial file or harms an existing one.
package enum OutputFile {
    /// Writes `bytes` to `path` atomically: into a temporary file in the same folder (an
    /// anonymous one, `O_TMPFILE`, where the file system has them, so that nothing is left even
    /// if framed is killed; else `.NAME.framed-XXXXXX`, shortened to fit 255 bytes), flushed to
    /// disk, then moved over `path`. On any error (a full disk, a file size limit, a folder that
    /// cannot be written) the temporary file is removed and an existing `path` is left as it was.
    ///
    /// - A symbolic link is written through: the file it names (even one that does not exist
    ///   yet) is replaced, and the link stays; but not a link that another user owns in a
    ///   shared sticky folder such as `/tmp` (`refused`).
    /// - `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: written to that descriptor, as the shell
    ///   opened it (appending with `>>`).
    /// - A file that is replaced keeps its permissions and, when framed may give it (as root),
    ///   its owner and group.
    /// - A missing folder is made first, with the folders above it (as `mkdir -p`: 0777 less the
    ///   umask); one that cannot be made is `cannotCreateFolder`.
    /// - Without `replacing`, an existing file is an error, found before writing and again at the
    ///   last step, which fails if the name appeared meanwhile: two runs started together never
    ///   replace each other's file.
    /// - An existing device or pipe (`/dev/null`, a FIFO) is written in place, replacing or not:
    ///   moving a file over it would replace the device node itself. A pipe without a reader is
    ///   an error, not a wait. A block device (a disk) is refused.
    package static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputFileError) {
        try writeAll([(bytes, path)], replacing: replacing)
    }

    /// Writes several files as one, as `write` writes each: every one into its temporary file
    /// first, and only when all are written are they moved into place, in order. A failure while
    /// writing (a full disk at the third file) removes every temporary file and leaves every
    /// output as it was: a set of files is written whole or not at all. Moving into place only
    /// fails when a name appeared meanwhile (without `replacing`) or the folder changed under
    /// framed; the files this call had put in place as new ones are then removed again (a file
    /// it replaced cannot be given back). A device, pipe or descriptor among them is written at
    /// its turn in the last step, where it is written in place.
    package static func writeAll(_ files: [(bytes: [UInt8], path: String)], replacing: Bool) throws(OutputFileError) {
        // With `ulimit -f`, writing past the limit would kill the process (SIGXFSZ) and leave
        // the temporary file behind; ignored, the write fails with EFBIG and is cleaned up.
        signal(SIGXFSZ, SIG_IGN)
        var staged: [Staged] = []
        staged.reserveCapacity(files.count)
        for file in files {
            do { staged.append(try stage(file.bytes, to: file.path, replacing: replacing)) } catch {
                for written in staged { written.discard() }
                throw error
            }
        }
        var placedAsNew: [String] = []
        for index in staged.indices {
            var new: String?
            if case let .temporary(_, target, _, existed) = staged[index], !existed { new = target }
            do { try staged[index].place(replacing: replacing) } catch {
                for left in staged[index...] { left.discard() }
                for target in placedAsNew { SystemPath.withCString(target) { _ = unlink($0) } }
                throw error
            }
            if let new { placedAsNew.append(new) }
        }
    }

    /// One output of `writeAll` between its two steps.
    private enum Staged {
        /// Bytes for a descriptor (`/dev/stdout`, `/dev/fd/N`), written in the last step.
        case descriptor(Int32, [UInt8], path: String)
        /// Bytes for a device or pipe, written in place in the last step.
        case inPlace(target: String, [UInt8], path: String)
        /// A temporary file, written and flushed, to be moved over `target`; `existed`: a file
        /// was at `target` when it was made.
        case temporary(TemporaryFile, target: String, path: String, existed: Bool)
        /// Placed or written: nothing left to do or undo.
        case done

        /// Moves the file into place, or writes the bytes, and becomes `done`. A temporary file
        /// that cannot be placed is kept for `discard` (it may have been given a name meanwhile).
        mutating func place(replacing: Bool) throws(OutputFileError) {
            switch self {
            case let .descriptor(number, bytes, path):
                self = .done
                do { try FileDescriptor(rawValue: number).write(bytes) } catch { throw .cannotWrite(path, error) }
            case let .inPlace(target, bytes, path):
                self = .done
                try OutputFile.writeInPlace(bytes, to: target, named: path)
            case .temporary(var temporary, let target, let path, let existed):
                do { try TemporaryFiles.shared.place(&temporary, at: target, replacing: replacing, for: path) } catch {
                    self = .temporary(temporary, target: target, path: path, existed: existed)
                    throw error
                }
                self = .done
            case .done:
                break
            }
        }

        /// Removes a temporary file that was not placed.
        func discard() {
            if case let .temporary(temporary, _, _, _) = self { TemporaryFiles.shared.discard(temporary) }
        }
    }

    /// The first step of `writeAll` for one output: checks where it goes, and writes it into a
    /// temporary file there (anonymous, `O_TMPFILE`, where the file system has them, else
    /// `.NAME.framed-XXXXXX`), with the mode and owner it will have, flushed to disk.
    private static func stage(_ bytes: [UInt8], to path: String, replacing: Bool) throws(OutputFileError) -> Staged {
        let target: String
        switch try destination(path) {
        case let .descriptor(number):
            return .descriptor(number, bytes, path: path)
        case let .path(resolved):
            target = resolved
        }
        let existing = FileSystem.status(target)
        switch existing?.kind {
        case .blockDevice?:
            throw .refused(path, reason: "is a block device (a disk): framed writes no picture onto one")
        case .characterDevice?, .pipe?, .socket?:
            return .inPlace(target: target, bytes, path: path)
        case .directory?:
            throw .cannotWrite(path, SystemError(code: EISDIR))
        case nil, .regular?, .link?:
            break
        }
        if existing != nil && !replacing { throw .exists(path) }
        if existing == nil { try makeFolder(of: target, for: path) }

        let temporary = try TemporaryFiles.shared.make(besides: target, for: path)
        let descriptor = temporary.descriptor
        if let existing {
            // As root the new file gets the old one's owner; anyone keeps its group where allowed.
            if geteuid() == 0 { _ = fchown(descriptor, existing.owner, existing.group) } else {
                _ = fchown(descriptor, uid_t.max, existing.group)
            }
            fchmod(descriptor, mode_t(existing.permissions))
        } else {
            // The usual 0666 less the umask (mkstemp and O_TMPFILE make it 0600).
            fchmod(descriptor, newFileMode)
        }
        let file = FileDescriptor(rawValue: descriptor)
        do throws(SystemError) {
            try file.write(bytes)
            do { try file.sync() } catch { if error.code != EINVAL { throw error } }
        } catch {
            TemporaryFiles.shared.discard(temporary)
            throw .cannotWrite(path, error)
        }
        return .temporary(temporary, target: target, path: path, existed: existing != nil)
    }

    /// Makes the folder that `target` goes in, and the folders above it, where missing: every
    /// writer of outputs makes them the same way (as `mkdir -p`).
    package static func makeFolder(of target: String, for path: String) throws(OutputFileError) {
        let folder = Paths.deletingLastComponent(target)
        guard !folder.isEmpty, !FileSystem.isDirectory(folder) else { return }
        do { try FileSystem.createDirectory(folder) } catch { throw .cannotCreateFolder(path, folder: folder, error) }
    }

    /// Where writing `path` lands, as `write` takes it.
    static func destination(_ path: String) throws(OutputFileError) -> FileSystem.Destination {
        do { return try FileSystem.destination(of: path) } catch {
            switch error {
            case let .system(reason): throw .cannotWrite(path, reason)
            case let .foreignLink(link):
                throw .refused(path, reason: "a link that another user owns, in a folder that everyone may write to"
                                  + (link == path ? "" : " (\(link))") + ", is not followed")
            }
        }
    }

    /// Whether writing `path` would replace a file (or a folder) there: something exists there,
    /// through links, and it is not a descriptor, a device or a pipe (written in place, never
    /// replaced).
    package static func wouldReplace(_ path: String) -> Bool {
        guard case let .path(target)? = try? FileSystem.destination(of: path) else { return false }
        switch FileSystem.status(target)?.kind {
        case nil, .characterDevice?, .blockDevice?, .pipe?, .socket?: return false
        case .regular?, .directory?, .link?: return true
        }
    }

    /// 0666 less the umask, read once: `umask` can only be read by setting it, and workers write
    /// at the same time, so reading it per file could leave the process's mask at 0.
    private static let newFileMode: mode_t = {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }()

    /// Writes into an existing file that is not a regular one (a device, a pipe) as it is.
    fileprivate static func writeInPlace(_ bytes: [UInt8], to target: String, named path: String) throws(OutputFileError) {
        let file: FileDescriptor
        do { file = try .openForWriting(target) } catch {
            if error.code == ENXIO && FileSystem.status(target)?.kind == .pipe {
                throw .refused(path, reason: "is a pipe that nothing reads from")
            }
            throw .cannotWrite(path, error)
        }
        var failure: SystemError?
        do { try file.write(bytes) } catch { failure = error }
        do { try file.close() } catch { if failure == nil { failure = error } }
        if let failure { throw .cannotWrite(path, failure) }
    }
}
