/// Error for text that does not parse as a style value (length, colour, shadow...).
///
/// `description` is one user-readable line naming what was being parsed, the offending text
/// and what is wrong, e.g. `invalid length "12qq": unknown unit "qq" (use px, pt, in, mm or cm)`.
public struct StyleParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending text.
    public var input: String
    /// What is wrong, and what is expected instead.
    public var reason: String
    /// What kind of value was being parsed ("length", "colour", "box-shadow"...); "value" if unknown.
    public var kind: String

    /// An error about `input` when what it was to be is not known: the kind is "value".
    public init(input: String, reason: String) {
        self.init(kind: "value", input: input, reason: reason)
    }

    /// An error about `input`, read as a `kind` ("length", "colour"...), wrong for `reason`.
    public init(kind: String, input: String, reason: String) {
        self.kind = kind
        self.input = input
        self.reason = reason
    }

    public var description: String { "invalid \(kind) \"\(excerpt(input))\": \(reason)" }

    /// This error as the reason of an error about a larger value, e.g. a length inside a shadow:
    /// `length "10qq": unknown unit "qq" (...)`, or labelled as its role (`width "0x": ...`).
    func nestedReason(as label: String? = nil) -> String { "\(label ?? kind) \"\(excerpt(input))\": \(reason)" }
}

/// Text from the user as a message quotes it: whole up to 80 characters, else its first 79 and
/// an ellipsis, so that a megabyte of digits in a config file makes a one-line error.
package func excerpt<S: StringProtocol>(_ text: S) -> String {
    text.count <= 80 ? String(text) : String(text.prefix(79)) + "…"
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (Foundation-free trimming).
    var styleTrimmed: SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[first...last]
    }

    /// Whitespace-separated words.
    var styleWords: [SubSequence] { split(whereSeparator: \.isWhitespace) }
}

/// Decodes a style value written as its CSS text (what `description` produces).
func decodeStyleValue<T>(_ decoder: any Decoder, _ parse: (String) throws(StyleParseError) -> T) throws -> T {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
        return try parse(text)
    } catch {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
}
