/// Where two collections differ, in a few words, for `#expect(difference(a, b) == nil)`.
///
/// A failed `#expect(a == b)` of two collections has Swift Testing work out their difference
/// to show it, in time that grows with the square of their length: 10,000 bytes took 1.9 s,
/// 40,000 took 29 s, so a failing check of a picture's pixels or a file's bytes would hang the
/// run instead of failing it. This compares in one pass.
///
/// - Returns: nil when both have the same elements in the same order; else their lengths, the
///   first index where they differ and the two elements there.
package func difference<A: Collection, B: Collection>(_ a: A, _ b: B) -> String?
where A.Element == B.Element, A.Element: Equatable {
    var i = a.startIndex, j = b.startIndex, offset = 0
    while i != a.endIndex && j != b.endIndex {
        if a[i] != b[j] {
            return "\(a.count) and \(b.count) elements, first different at \(offset): \(a[i]) and \(b[j])"
        }
        a.formIndex(after: &i)
        b.formIndex(after: &j)
        offset += 1
    }
    return i == a.endIndex && j == b.endIndex ? nil : "\(a.count) and \(b.count) elements, the same up to \(offset)"
}
