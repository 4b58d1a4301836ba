internal import Glibc

/// Searching and copying a byte array a run at a time, with the C library's `memchr`, `memcmp`
/// and `memcpy`. framed rewrites whole output files (Cairo's SVG, tens of megabytes when a
/// picture's base64 is in it): a Swift loop over the bytes handles one byte per turn, and in a
/// debug build each turn goes through generic code, which makes a large file take minutes.
/// These take one call per run instead, fast in either build.
extension Array where Element == UInt8 {
    /// The index of the first `byte` in `range` (`memchr`); nil when there is none.
    package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes")
        guard !range.isEmpty else { return nil }
        return withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else {
                return nil
            }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// The first range in `range` whose bytes are `pattern` (`memchr` for its first byte, then
    /// `memcmp`); nil when there is none or `pattern` is empty.
    package func firstRange(of pattern: [UInt8], in range: Range<Int>) -> Range<Int>? {
        guard let head = pattern.first else { return nil }
        var from = range.lowerBound
        while range.upperBound - from >= pattern.count, let start = firstIndex(of: head, in: from..<range.upperBound) {
            guard range.upperBound - start >= pattern.count else { return nil }
            if hasBytes(pattern, at: start) { return start..<(start + pattern.count) }
            from = start + 1
        }
        return nil
    }

    /// Whether the bytes at `index` are `pattern` (`memcmp`); false where `pattern` would run
    /// past either end.
    package func hasBytes(_ pattern: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index <= count - pattern.count else { return false }
        guard !pattern.isEmpty else { return true }
        return withUnsafeBufferPointer { buffer in
            pattern.withUnsafeBufferPointer { memcmp(buffer.baseAddress! + index, $0.baseAddress!, pattern.count) == 0 }
        }
    }

    /// Appends `source[range]`: one copy of the run (the standard library's copy of a buffer,
    /// `memcpy`), the array growing as `append` grows it.
    package mutating func append(bytesOf source: [UInt8], in range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= source.count, "range outside the bytes")
        source.withUnsafeBufferPointer { append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }
}
