internal import Glibc

extension Pictures {
    /// The bytes of a file, with the system's reason (strerror) when it cannot be read.
    public static func bytes(contentsOf path: String) throws(RasterError) -> [UInt8] {
        try readFile(path)
    }
}

private func readFile(_ path: String) throws(RasterError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    // Reserve the whole file at once: growing by doubling would briefly hold twice its size.
    var info = stat()
    if fstat(fd, &info) == 0, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count == 0 { return bytes }
        if count < 0 {
            if errno == EINTR { continue }
            throw .unreadable(String(cString: strerror(errno)))
        }
        bytes.append(contentsOf: chunk[..<count])
    }
}
