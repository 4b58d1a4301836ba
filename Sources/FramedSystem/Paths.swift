internal import Glibc

/// Paths as text: the parts of a path the way Foundation's `NSString` path methods gave them
/// (`lastPathComponent`, `deletingLastPathComponent`, `pathExtension`), so that output names,
/// folders and templates stay what they were, and a path made absolute for comparisons.
package enum Paths {
    /// The last component: "b" for "a/b", "a//b/" and "/a/b"; "/" for "/"; "" for "".
    package static func lastComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.count > 1 else { return fixed }
        return String(fixed[startOfLastComponent(fixed)...])
    }

    /// The path without its last component: "a" for "a/b", "/" for "/a", "" for "b".
    package static func deletingLastComponent(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        if fixed == "/" || fixed.isEmpty { return fixed }
        let start = startOfLastComponent(fixed)
        if start == fixed.startIndex { return "" }
        if start == fixed.index(after: fixed.startIndex) { return "/" }
        return String(fixed[..<fixed.index(before: start)])
    }

    /// The extension of the last component, without its dot: "gz" for "a.tar.gz"; "" for
    /// "a", ".hidden", "a." and "..".
    package static func pathExtension(_ path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.count > 1 else { return "" }
        let start = startOfLastComponent(fixed)
        guard let dot = fixed[start...].lastIndex(of: "."), dot != start, fixed[start...] != ".." else { return "" }
        return String(fixed[fixed.index(after: dot)...])
    }

    /// An absolute path with `.`, `..` and repeated slashes resolved as text, without a trailing
    /// slash (links are not followed: files are compared by inode where that matters).
    package static func normalized(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = SystemPath.string(cString: cwd) + "/" + path
            free(cwd)
        }
        var components: [Substring] = []
        for component in absolute.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }

    /// The file that writing `path` would reach, as one text for comparisons: its final links
    /// followed (`FileSystem.destination`; a descriptor as `/dev/fd/N`), then its folder as the
    /// system resolves it (`realpath`: links and `..` in the folders above) when that folder
    /// exists, else `normalized`. Two outputs with the same canonical path are one file.
    package static func canonical(_ path: String) -> String {
        let target: String
        switch try? FileSystem.destination(of: path) {
        case let .descriptor(number)?: return "/dev/fd/\(number)"
        case let .path(resolved)?: target = resolved
        case nil: target = path
        }
        let folder = deletingLastComponent(target), name = lastComponent(target)
        guard name != "." && name != "..", let resolved = SystemPath.withCString(folder.isEmpty ? "." : folder, { realpath($0, nil) }) else {
            return normalized(target)
        }
        defer { free(resolved) }
        let base = SystemPath.string(cString: resolved)
        return (base == "/" ? "" : base) + "/" + name
    }

    /// Runs of slashes as one, and no trailing slash ("/" stays "/", as NSString had it).
    private static func fixingSlashes(_ path: String) -> String {
        if path == "/" { return path }
        var result = ""
        var previousWasSlash = false
        for character in path {
            let isSlash = character == "/"
            if !(isSlash && previousWasSlash) { result.append(character) }
            previousWasSlash = isSlash
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// Where the last component starts: just after the last slash.
    private static func startOfLastComponent(_ fixed: String) -> String.Index {
        fixed.lastIndex(of: "/").map(fixed.index(after:)) ?? fixed.startIndex
    }
}
