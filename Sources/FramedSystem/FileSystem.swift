internal import Glibc

/// The questions framed asks the file system, answered with system calls; every path goes to the
/// system as its bytes (`SystemPath`).
package enum FileSystem {
    /// What `stat` tells of a file.
    package struct Status: Equatable, Sendable {
        /// What kind of file it is.
        package enum Kind: Equatable, Sendable { case regular, directory, link, pipe, characterDevice, blockDevice, socket }
        package var kind: Kind
        /// The permission bits (and set-user-ID, set-group-ID, sticky): `st_mode & 07777`.
        package var permissions: UInt32
        package var owner: UInt32
        package var group: UInt32
        package var identity: Identity

        init(_ info: stat) {
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .regular
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .link
            case S_IFIFO: kind = .pipe
            case S_IFCHR: kind = .characterDevice
            case S_IFBLK: kind = .blockDevice
            default: kind = .socket
            }
            permissions = UInt32(info.st_mode & 0o7777)
            owner = info.st_uid
            group = info.st_gid
            identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// What `stat` says of `path` (following links), nil when it cannot say.
    package static func status(_ path: String) -> Status? {
        var info = stat()
        return SystemPath.withCString(path) { stat($0, &info) } == 0 ? Status(info) : nil
    }

    /// What `lstat` says of `path` itself (a link is not followed), nil when it cannot say.
    package static func linkStatus(_ path: String) -> Status? { try? linkStatusOrError(path) }

    /// What `lstat` says of `path` itself, or the system's reason why it cannot say.
    package static func linkStatusOrError(_ path: String) throws(SystemError) -> Status {
        var info = stat()
        guard SystemPath.withCString(path, { lstat($0, &info) }) == 0 else { throw .last }
        return Status(info)
    }

    /// Whether `path` is a folder, or a link to one.
    package static func isDirectory(_ path: String) -> Bool { status(path)?.kind == .directory }

    /// Whether `path` is a regular file, or a link to one.
    package static func isRegularFile(_ path: String) -> Bool { status(path)?.kind == .regular }

    /// Whether anything (a file, a folder, a link even to nothing) is at `path`.
    package static func exists(_ path: String) -> Bool {
        linkStatus(path) != nil
    }

    /// A file's device and inode: two paths with the same identity are the same file (through
    /// links, `..` or hard links). Nil when `path` does not exist.
    package struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    package static func identity(_ path: String) -> Identity? { status(path)?.identity }

    /// Where writing a path lands: a descriptor of this process, or a path.
    package enum Destination: Equatable, Sendable {
        /// `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N` (or a link to one): descriptor N, as the
        /// shell or the caller opened it.
        case descriptor(Int32)
        /// The path a path's symbolic links lead to, as far as they go: the last link's target
        /// when it names nothing yet (a file about to be written); the path itself when it is
        /// no link. Links in the folders above are left to the system.
        case path(String)
    }

    /// Why a path's links were not followed.
    package enum LinkError: Error, Equatable, Sendable {
        /// The system's reason (ELOOP after 40 links, as the system counts).
        case system(SystemError)
        /// A link that another user owns, in a folder that everyone may write to and that only
        /// owners may delete from (sticky, as `/tmp`): it could send framed's output anywhere
        /// its caller may write. Not followed, as Linux's `fs.protected_symlinks` has it,
        /// whatever that setting says.
        case foreignLink(String)
    }

    /// Where writing `path` lands (`Destination`). A link's relative target is taken from the
    /// link's folder; the text of a descriptor's own link (`pipe:[N]`, `/x (deleted)`) is never
    /// taken for a path.
    package static func destination(of path: String) throws(LinkError) -> Destination {
        var current = path
        for _ in 0..<40 {
            if let descriptor = descriptorNumber(current) { return .descriptor(descriptor) }
            guard let link = linkStatus(current), link.kind == .link else { return .path(current) }
            let folder = Paths.deletingLastComponent(current)
            if let shared = status(folder.isEmpty ? "." : folder), shared.permissions & 0o1002 == 0o1002,
               link.owner != geteuid(), link.owner != shared.owner {
                throw .foreignLink(current)
            }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = SystemPath.withCString(current) { name in
                buffer.withUnsafeMutableBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { readlink(name, $0.baseAddress!, $0.count) }
                }
            }
            guard length >= 0 else { throw .system(.last) }
            let target = SystemPath.string(buffer[..<length])
            current = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
        }
        throw .system(SystemError(code: ELOOP))
    }

    /// The descriptor that `path` names by number: 0-2 for `/dev/stdin`, `/dev/stdout`,
    /// `/dev/stderr`; N for `/dev/fd/N`, `/proc/self/fd/N` and `/proc/PID/fd/N` of this process.
    static func descriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    /// The names in a folder (without "." and ".."), in no particular order, or the system's
    /// reason when it cannot be read.
    package static func names(in folder: String) -> Result<[String], SystemError> {
        guard let directory = SystemPath.withCString(folder, { opendir($0) }) else { return .failure(.last) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in SystemPath.string(bytes.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// Creates a folder and any missing parents (`mkdir -p`, 0777 less the umask); a folder
    /// that exists already is fine.
    package static func createDirectory(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if SystemPath.withCString(prefix, { mkdir($0, 0o777) }) != 0 && errno != EEXIST { throw .last }
            prefix += "/"
        }
        guard isDirectory(path) else { throw SystemError(code: ENOTDIR) }
    }
}
