/// Finding one collection inside another: what the standard library's `firstRange(of:)`,
/// `contains(_:)` and `replacing(_:with:)` do, written here because those come from the
/// `_StringProcessing` module, and using any of them links that module and its regex parser into
/// framed (0.9 MB of code, resident in every run). `LinkageTests` holds framed to none of them.
extension Collection where Element: Equatable {
    /// The first range of `self` whose elements are those of `other`, in order; nil when there
    /// is none or `other` is empty.
    package func firstOccurrence<Other: Collection>(of other: Other) -> Range<Index>? where Other.Element == Element {
        guard let head = other.first else { return nil }
        var from = startIndex
        while let start = self[from...].firstIndex(of: head) {
            var at = start, wanted = other.startIndex
            while wanted != other.endIndex, at != endIndex, self[at] == other[wanted] {
                formIndex(after: &at)
                other.formIndex(after: &wanted)
            }
            if wanted == other.endIndex { return start..<at }
            if at == endIndex { return nil }
            from = index(after: start)
        }
        return nil
    }

    /// Whether `other` occurs in `self` (`firstOccurrence(of:)` is not nil).
    package func containsOccurrence<Other: Collection>(of other: Other) -> Bool where Other.Element == Element {
        firstOccurrence(of: other) != nil
    }
}

extension String {
    /// `self` with every occurrence of `target`, from the left and not overlapping, replaced by
    /// `replacement`; `self` when `target` is empty.
    package func replacingOccurrences(of target: String, with replacement: String) -> String {
        var out = "", rest = self[...]
        while let range = rest.firstOccurrence(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
