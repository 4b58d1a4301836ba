/// Straight (not premultiplied) sRGB colour, components in 0...1.
///
/// Parsed from CSS colour text; Codable as that text.
public struct RGBAColor: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The red component, 0 (none) to 1 (full), in sRGB's encoding (not linear light).
    public var red: Double
    /// The green component, 0 to 1, in sRGB's encoding.
    public var green: Double
    /// The blue component, 0 to 1, in sRGB's encoding.
    public var blue: Double
    /// The opacity, 0 (transparent) to 1 (opaque); it does not scale the other components.
    public var alpha: Double

    /// A colour from components in 0...1, taken as given (parsing clamps, this does not).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 8-bit components (0-255, as in `#rrggbb`) and an alpha in 0...1.
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }

    /// A colour from 0xRRGGBB, as in the named-colour table.
    init(rgb24 value: UInt32) {
        self.init(red8: UInt8(value >> 16 & 0xFF), green8: UInt8(value >> 8 & 0xFF), blue8: UInt8(value & 0xFF))
    }

    /// Opaque black, `#000000`: the default border and shadow colour.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white, `#ffffff`.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// CSS `transparent`: black with alpha 0, the default background and canvas colour.
    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Whether nothing shows through: alpha 1 (or more).
    public var isOpaque: Bool { alpha >= 1 }

    /// Parses "#rgb", "#rgba", "#rrggbb", "#rrggbbaa", "rgb(r, g, b)", "rgba(r, g, b, a)" and the
    /// modern "rgb(r g b / a)"; components as 0-255 numbers or percentages, alpha as 0-1 or a
    /// percentage, clamped to range as CSS does. Also the 148 CSS named colours and
    /// "transparent". Case-insensitive; surrounding whitespace ignored.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        let lower = trimmed.lowercased()
        func fail(_ reason: String) -> StyleParseError {
            StyleParseError(kind: "colour", input: String(trimmed), reason: reason)
        }
        if lower.isEmpty {
            throw fail("expected a colour, like black, #6495ed or rgba(0, 0, 0, 0.5)")
        } else if lower.hasPrefix("#") {
            guard let color = RGBAColor(hexDigits: lower.dropFirst()) else {
                throw fail("expected # and 3, 4, 6 or 8 hex digits (0-9, a-f), like #fff or #6495ed")
            }
            self = color
        } else if let open = lower.firstIndex(of: "(") {
            let name = lower[..<open]
            guard name == "rgb" || name == "rgba" else {
                throw fail("unknown colour function \"\(excerpt(name))()\" (use rgb() or rgba())")
            }
            guard lower.hasSuffix(")") else { throw fail("missing \")\" at the end") }
            let body = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
            guard let color = RGBAColor(functionBody: body) else {
                throw fail("expected rgb(r, g, b), rgba(r, g, b, a) or rgb(r g b / a), each a number "
                    + "or percentage (0-255 or 0-100% for r, g, b; 0-1 or 0-100% for a)")
            }
            self = color
        } else if lower == "transparent" {
            self = .transparent
        } else if let value = RGBAColor.namedColors[lower] {
            self.init(rgb24: value)
        } else {
            throw fail("not a colour name (use a CSS colour name like cornflowerblue, #rrggbb or rgb(r, g, b))")
        }
    }

    /// The digits of a hex colour, without "#"; nil if not 3, 4, 6 or 8 hex digits.
    private init?(hexDigits: Substring) {
        var nibbles: [Double] = []
        for c in hexDigits {
            guard c.isASCII, let v = c.hexDigitValue else { return nil }
            nibbles.append(Double(v))
        }
        let channels: [Double]
        switch nibbles.count {
        case 3, 4: channels = nibbles.map { $0 * 17 / 255 }
        case 6, 8:
            channels = stride(from: 0, to: nibbles.count, by: 2).map { (i: Int) -> Double in
                (nibbles[i] * 16 + nibbles[i + 1]) / 255
            }
        default: return nil
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 1)
    }

    /// What is inside rgb( ... ) or rgba( ... ): commas, or spaces with an optional "/ alpha".
    private init?(functionBody body: Substring) {
        var parts: [Substring]
        if body.contains(",") {
            parts = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.styleTrimmed }
            guard parts.count == 3 || parts.count == 4, !body.contains("/") else { return nil }
        } else {
            let halves = body.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            parts = halves[0].styleWords
            guard parts.count == 3 else { return nil }
            if halves.count == 2 {
                let alpha = halves[1].styleWords
                guard alpha.count == 1 else { return nil }
                parts += alpha
            }
        }
        func component(_ text: Substring, scale: Double) -> Double? {
            guard let (number, rest) = splitStyleNumber(text), let v = Double(number),
                  rest.isEmpty || rest == "%" else { return nil }
            return min(max(rest.isEmpty ? v / scale : v / 100, 0), 1)
        }
        guard let r = component(parts[0], scale: 255), let g = component(parts[1], scale: 255),
              let b = component(parts[2], scale: 255) else { return nil }
        var a = 1.0
        if parts.count == 4 {
            guard let value = component(parts[3], scale: 1) else { return nil }
            a = value
        }
        self.init(red: r, green: g, blue: b, alpha: a)
    }

    /// "#rrggbb" when opaque, "#rrggbbaa" otherwise. Both parse back exactly for 8-bit colours;
    /// a colour that 8 bits cannot hold exactly (such as alpha 0.5) is written "rgb(r g b / a)"
    /// instead, so that the description always parses back to the same colour.
    public var description: String {
        let components = [red, green, blue, alpha]
        // Round to the nearest byte; truncating c * 255 + 0.5 avoids `rounded()` (libm).
        let bytes = components.map { c -> UInt8 in c.isNaN ? 0 : UInt8(min(max(c, 0), 1) * 255 + 0.5) }
        if zip(components, bytes).allSatisfy({ Double($1) / 255 == $0 }) {
            let hex = (alpha == 1 ? bytes.dropLast() : bytes[...]).map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }
            return "#" + hex.joined()
        }
        let rgb = [red, green, blue].map { formatStyleNumber($0 * 255) }.joined(separator: " ")
        return "rgb(\(rgb) / \(formatStyleNumber(alpha)))"
    }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, RGBAColor.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
