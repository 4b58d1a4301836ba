/// Reads JSON text (RFC 8259) into `JSON`, for `--config`: strict (no comments, no trailing
/// commas), keys in the order written, and errors that say where (line and column) and what.
///
/// Written here rather than taken from Foundation's `JSONDecoder`: that was the one thing that
/// linked FoundationEssentials into framed, 4 MB and a millisecond at every start.
package struct JSONReader {
    /// Why the text is not JSON, and where.
    package struct SyntaxError: Error, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var problem: String
        package var description: String { "line \(line), column \(column): \(problem)" }
    }

    /// Deeper nesting is refused (a hostile file must not exhaust the stack).
    package static let maximumDepth = 64

    private let text: [Unicode.Scalar]
    private var index = 0

    /// The one value `bytes` hold (white space around it allowed; a UTF-8 byte order mark too).
    package static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSON {
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw SyntaxError(line: 1, column: 1, problem: "not UTF-8 text")
        }
        var reader = JSONReader(text: Array(string.unicodeScalars))
        if reader.peek == "\u{FEFF}" { reader.index += 1 }
        let value = try reader.value(depth: 0)
        reader.skipWhiteSpace()
        guard reader.peek == nil else { throw reader.error("unexpected \(reader.describePeek()) after the value") }
        return value
    }

    private init(text: [Unicode.Scalar]) { self.text = text }

    private var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }

    private mutating func value(depth: Int) throws(SyntaxError) -> JSON {
        skipWhiteSpace()
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        switch peek {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"": return .string(try string())
        case "t": try word("true"); return .bool(true)
        case "f": try word("false"); return .bool(false)
        case "n": try word("null"); return .null
        case let c? where c == "-" || ("0"..."9").contains(c): return .number(try number())
        default: throw error("expected a value, found \(describePeek())")
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSON {
        index += 1  // {
        var pairs: [(String, JSON)] = []
        skipWhiteSpace()
        if peek == "}" { index += 1; return .object(pairs) }
        while true {
            skipWhiteSpace()
            guard peek == "\"" else { throw error("expected a key in double quotes, found \(describePeek())") }
            let key = try string()
            skipWhiteSpace()
            guard peek == ":" else { throw error("expected ':' after the key \"\(excerpt(key))\", found \(describePeek())") }
            index += 1
            pairs.append((key, try value(depth: depth + 1)))
            skipWhiteSpace()
            switch peek {
            case ",": index += 1
            case "}": index += 1; return .object(pairs)
            default: throw error("expected ',' or '}', found \(describePeek())")
            }
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSON {
        index += 1  // [
        var items: [JSON] = []
        skipWhiteSpace()
        if peek == "]" { index += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhiteSpace()
            switch peek {
            case ",": index += 1
            case "]": index += 1; return .array(items)
            default: throw error("expected ',' or ']', found \(describePeek())")
            }
        }
    }

    private mutating func string() throws(SyntaxError) -> String {
        index += 1  // "
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek else { throw error("a string is not closed") }
            index += 1
            switch c {
            case "\"": return String(out)
            case "\\": out.append(try escape())
            case _ where c.value < 0x20: index -= 1; throw error("a control character in a string (write it as \\u\(hex4(c.value)))")
            default: out.append(c)
            }
        }
    }

    /// The character after a backslash (`\u` with its four hex digits, a surrogate pair whole).
    private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
        guard let c = peek else { throw error("a string is not closed") }
        index += 1
        switch c {
        case "\"", "\\", "/": return c
        case "b": return "\u{8}"
        case "f": return "\u{C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "u":
            let first = try hexQuad()
            if (0xD800..<0xDC00).contains(first) {
                guard peek == "\\", index + 1 < text.count, text[index + 1] == "u" else {
                    throw error("a lone surrogate \\u\(hex4(first))")
                }
                index += 2
                let second = try hexQuad()
                guard (0xDC00..<0xE000).contains(second) else { throw error("a lone surrogate \\u\(hex4(first))") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate \\u\(hex4(first))") }
            return scalar
        default:
            index -= 1
            throw error("unknown escape \\\(c)")
        }
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek, let digit = Int(String(c), radix: 16) else {
                throw error("\\u needs four hexadecimal digits")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, which must be a finite Double.
    private mutating func number() throws(SyntaxError) -> Double {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            var count = 0
            while let c = reader.peek, ("0"..."9").contains(c) { reader.index += 1; count += 1 }
            return count
        }
        if peek == "-" { index += 1 }
        if peek == "0" {
            index += 1
            if let c = peek, ("0"..."9").contains(c) { throw error("a number may not start with 0") }
        } else if digits(&self) == 0 {
            throw error("expected digits after '-'")
        }
        if peek == "." {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after the decimal point") }
        }
        if peek == "e" || peek == "E" {
            index += 1
            if peek == "+" || peek == "-" { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        let literal = String(String.UnicodeScalarView(text[start..<index]))
        guard let value = Double(literal), value.isFinite else {
            index = start
            throw error("the number \(excerpt(literal)) is too large")
        }
        return value
    }

    private mutating func word(_ expected: String) throws(SyntaxError) {
        for scalar in expected.unicodeScalars {
            guard peek == scalar else { throw error("expected \(expected), found \(describePeek())") }
            index += 1
        }
    }

    private mutating func skipWhiteSpace() {
        while let c = peek, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
    }

    private func describePeek() -> String {
        guard let c = peek else { return "the end of the file" }
        return c.value < 0x20 || c.value == 0x7F ? "character U+\(hex4(c.value))" : "'\(c)'"
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// An error at the current position, counted in lines and characters from 1.
    private func error(_ problem: String) -> SyntaxError {
        var line = 1, column = 1
        for c in text[..<min(index, text.count)] {
            if c == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return SyntaxError(line: line, column: column, problem: problem)
    }
}
