internal import Glibc

/// Asking for memory before a large buffer is made.
package enum Memory {
    /// Whether `bytes` can be had now: allocated and given back at once. Swift ends the process
    /// when an array's storage cannot be allocated; a picture-sized buffer asks first, so that
    /// running out of memory (`ulimit -v`, a container's limit, a huge picture) is an error for
    /// that picture, with its name, instead of an abort. Cheap: a map and an unmap of the pages
    /// (never touched), as the C library makes a buffer this large; `mmap` itself, because a
    /// `malloc` whose memory is not used is a call the compiler may leave out.
    package static func available(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        guard let probe = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              probe != MAP_FAILED else { return false }
        munmap(probe, bytes)
        return true
    }
}
