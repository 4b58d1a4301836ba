internal import Glibc

/// The questions framed asks the file system, answered with system calls; every path goes to the
/// system as its bytes (`SystemPath`).
package enum FileSystem {
    /// What `stat` tells of a file.
    package struct Status: Equatable, Sendable {
        /// What kind of file it is.
        package enum Kind: Equatable, Sendable { case regular, directory, link, other }
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
            default: kind = .other
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

    /// The path that `path` names once its symbolic links are followed, as far as they go: the
    /// last link's target when it names nothing yet (a file about to be written), `path` itself
    /// when it is no link. Links in the folders above are left to the system. A link's relative target is taken from the link's folder. Throws
    /// ELOOP after 40 links, as the system does.
    package static func resolvingLinks(_ path: String) throws(SystemError) -> String {
        var current = path
        for _ in 0..<40 {
            guard linkStatus(current)?.kind == .link else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = SystemPath.withCString(current) { name in
                buffer.withUnsafeMutableBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { readlink(name, $0.baseAddress!, $0.count) }
                }
            }
            guard length >= 0 else { throw .last }
            let target = SystemPath.string(buffer[..<length])
            let folder = Paths.deletingLastComponent(current)
            current = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
        }
        throw SystemError(code: ELOOP)
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
