@_spi(_Unicode) import Swift

/// The order in which a folder's pictures are framed: numbers by their value ("p2" before
/// "p10"), everything else by Unicode scalar after canonical decomposition, so that "Äpfel"
/// sorts beside "Apfel" rather than after "Zitrone"; the same for every locale. Names equal in
/// that order ("p02", "p2") fall back to plain string order.
///
/// This is the order Foundation's `compare(_:options: .numeric)` gave file names (checked
/// name for name on random ASCII names and on accented words), without linking Foundation.
/// The decomposition is the standard library's own NFD (`_nfd`, its `_Unicode` SPI: the
/// public API has no normalisation yet).
struct NameOrder {
    /// The names in that order.
    static func sorted(_ names: [String]) -> [String] {
        names.map { (name: $0, key: Array($0._nfd)) }
            .sorted { a, b in
                switch compare(a.key, b.key) {
                case .less: return true
                case .greater: return false
                case .same: return a.name < b.name
                }
            }
            .map(\.name)
    }

    enum Order { case less, same, greater }

    /// Compares two decomposed names: digit runs by value, other scalars by code point.
    static func compare(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Order {
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let endA = a[i...].firstIndex { !isDigit($0) } ?? a.count
                let endB = b[j...].firstIndex { !isDigit($0) } ?? b.count
                // Without leading zeros, a longer run is a larger number; equal lengths compare
                // digit by digit. Any length works: no Int to overflow.
                let digitsA = a[i..<endA].drop { $0 == "0" }, digitsB = b[j..<endB].drop { $0 == "0" }
                if digitsA.count != digitsB.count { return digitsA.count < digitsB.count ? .less : .greater }
                if let (x, y) = zip(digitsA, digitsB).first(where: { $0 != $1 }) { return x.value < y.value ? .less : .greater }
                i = endA; j = endB
                continue
            }
            if a[i] != b[j] { return a[i].value < b[j].value ? .less : .greater }
            i += 1; j += 1
        }
        if i < a.count { return .greater }
        return j < b.count ? .less : .same
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
