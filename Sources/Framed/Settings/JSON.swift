import FramedSystem

/// A value as written in JSON in configurations and layouts, with keys in a fixed order.
package indirect enum JSON: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    package static func == (a: JSON, b: JSON) -> Bool { a.text() == b.text() }

    /// The JSON text, indented by two spaces per level (objects of numbers only stay on one line).
    /// - Parameter exact: numbers as the shortest text that reads back to the same value
    ///   (configurations), rather than to six decimals (layouts, for reading).
    package func text(indent: Int = 0, exact: Bool = false) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch self {
        case let .string(s): return Self.quote(s)
        case let .number(n): return exact ? Self.exactNumber(n) : Self.number(n)
        case let .bool(b): return b ? "true" : "false"
        case .null: return "null"
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.text(indent: indent + 1, exact: exact) }.joined(separator: ",\n") + "\n" + end + "]"
        case let .object(pairs):
            if pairs.isEmpty { return "{}" }
            if pairs.allSatisfy({ if case .number = $0.1 { return true } else { return false } }) {
                return "{" + pairs.map { Self.quote($0.0) + ": " + $0.1.text(exact: exact) }.joined(separator: ", ") + "}"
            }
            return "{\n" + pairs.map { pad + Self.quote($0.0) + ": " + $0.1.text(indent: indent + 1, exact: exact) }
                .joined(separator: ",\n") + "\n" + end + "}"
        }
    }

    /// A JSON string literal.
    package static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whole numbers without a fraction; others with up to 6 decimals, trailing zeros dropped.
    /// The shortest text that reads back to `n` (Swift's own), whole numbers without a fraction.
    package static func exactNumber(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    package static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        var text = String(printf: "%.6f", n)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
