internal import Glibc

/// The few questions the command line asks the file system, answered with system calls.
package enum FileSystem {
    /// Whether `path` is a folder, or a link to one.
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether anything (a file, a folder, a link even to nothing) is at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// A file's device and inode: two paths with the same identity are the same file (through
    /// links, `..` or hard links). Nil when `path` does not exist.
    package struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    package static func identity(_ path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The names in a folder (without "." and ".."), in no particular order; nil if it cannot
    /// be read.
    package static func names(in folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a folder and any missing parents (`mkdir -p`, 0777 less the umask); a folder
    /// that exists already is fine.
    package static func createDirectory(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST { throw .last }
            prefix += "/"
        }
        guard isDirectory(path) else { throw SystemError(code: ENOTDIR) }
    }
}
