/// One CSS box-shadow: `[inset] X Y [BLUR [SPREAD]] [COLOR]`.
///
/// As in CSS, the colour and `inset` may come before or after the lengths, which stay together.
/// Blur is >= 0 and is twice the sigma of the Gaussian; a missing colour is black (CSS says
/// currentcolor, and a frame has no text colour). Codable as its CSS text.
public struct BoxShadow: Sendable, Equatable, Codable, CustomStringConvertible {
    /// How far the shadow moves right (left when negative).
    public var offsetX: Length
    /// How far the shadow moves down (up when negative).
    public var offsetY: Length
    /// How soft the edge is: twice the Gaussian's standard deviation (CSS's definition); zero
    /// gives a sharp edge. Never negative when parsed.
    public var blur: Length
    /// How much the shadow's box grows on every side before blurring (shrinks when negative);
    /// the corner radius grows with it.
    public var spread: Length
    /// The shadow's colour; its alpha is the opacity where the shadow is densest.
    public var color: RGBAColor
    /// Whether the shadow falls inside the frame, over the picture and the mat (CSS `inset`),
    /// rather than outside it.
    public var inset: Bool

    /// A shadow offset by `offsetX`, `offsetY`; sharp (no blur), unspread, black and outside
    /// unless told otherwise. Lengths are taken as given (`FrameLayout` checks them).
    public init(offsetX: Length, offsetY: Length, blur: Length = .zero, spread: Length = .zero,
                color: RGBAColor = .black, inset: Bool = false) {
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.blur = blur
        self.spread = spread
        self.color = color
        self.inset = inset
    }

    /// The standard deviation of the Gaussian: blur / 2.
    public var sigma: Length { blur / 2 }

    /// Parses one shadow in CSS `box-shadow` syntax: `[inset] X Y [BLUR [SPREAD]] [COLOR]`,
    /// e.g. `0 4px 16px rgba(0,0,0,.35)` or `inset 0 0 8px 2px #0006`. For a list, see
    /// `parseList(_:)`.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        func fail(_ reason: String) -> StyleParseError {
            StyleParseError(kind: "box-shadow", input: String(trimmed), reason: reason)
        }
        let form = "X Y [BLUR [SPREAD]] [COLOUR], like 0 4px 10px rgba(0,0,0,.5)"
        guard let tokens = splitOutsideParentheses(trimmed, where: \.isWhitespace) else {
            throw fail("unbalanced parentheses")
        }
        var lengths: [Length] = [], color: RGBAColor?, inset = false
        var lengthsEnded = false  // something came after the lengths: no more may come
        for token in tokens {
            let word = token.lowercased()
            if let first = token.first, "0123456789+-.".contains(first) {
                guard !lengthsEnded else { throw fail("the lengths must come together: expected \(form)") }
                do { lengths.append(try Length(parsing: String(token))) } catch { throw fail(error.nestedReason()) }
                continue
            }
            lengthsEnded = !lengths.isEmpty
            if word == "inset" {
                guard !inset else { throw fail("\"inset\" is given twice") }
                inset = true
            } else if word == "none" {
                throw fail("\"none\" (no shadow) must stand alone, not with other shadows")
            } else {
                guard color == nil else { throw fail("more than one colour") }
                do {
                    color = try RGBAColor(parsing: String(token))
                } catch where token.allSatisfy(\.isLetter) {
                    throw fail("unexpected \"\(excerpt(token))\": expected \(form)")
                } catch {
                    throw fail(error.nestedReason())
                }
            }
        }
        guard lengths.count >= 2 else {
            throw fail(lengths.isEmpty ? "missing the X and Y offsets: expected \(form)"
                : "needs at least two lengths, the X and Y offsets: expected \(form)")
        }
        guard lengths.count <= 4 else { throw fail("too many lengths (at most 4): expected \(form)") }
        let blur = lengths.count > 2 ? lengths[2] : .zero
        guard blur >= .zero else { throw fail("blur \(blur) must not be negative") }
        self.init(offsetX: lengths[0], offsetY: lengths[1], blur: blur,
                  spread: lengths.count > 3 ? lengths[3] : .zero, color: color ?? .black, inset: inset)
    }

    /// Parses a comma-separated list (commas inside rgb()/rgba() do not split); "none" or empty
    /// text is no shadow. Order is kept: CSS order, the first shadow is on top. At most
    /// `FrameStyle.maximumShadows`.
    public static func parseList(_ text: String) throws(StyleParseError) -> [BoxShadow] {
        let trimmed = text.styleTrimmed
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return [] }
        guard let parts = splitOutsideParentheses(trimmed, where: { $0 == "," }, omittingEmpty: false) else {
            throw StyleParseError(kind: "box-shadow", input: String(trimmed), reason: "unbalanced parentheses")
        }
        guard parts.count <= FrameStyle.maximumShadows else {
            throw StyleParseError(kind: "box-shadow list", input: String(trimmed),
                                  reason: "\(parts.count) shadows; at most \(FrameStyle.maximumShadows)")
        }
        var shadows: [BoxShadow] = []
        for part in parts {
            guard !part.styleTrimmed.isEmpty else {
                throw StyleParseError(kind: "box-shadow list", input: String(trimmed),
                                      reason: "empty shadow between commas")
            }
            shadows.append(try BoxShadow(parsing: String(part)))
        }
        return shadows
    }

    /// CSS text that parses back to the same shadow: "inset 2px 3px 10px -1px #00000099".
    /// Blur and spread are left out when zero.
    public var description: String {
        var parts = inset ? ["inset"] : []
        parts += [offsetX, offsetY].map(\.description)
        if blur != .zero || spread != .zero { parts.append(blur.description) }
        if spread != .zero { parts.append(spread.description) }
        parts.append(color.description)
        return parts.joined(separator: " ")
    }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, BoxShadow.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Splits text where `isSeparator` holds outside parentheses, so that "rgba(0, 0, 0, .5)" stays
/// whole. nil when the parentheses do not balance.
func splitOutsideParentheses(_ text: Substring, where isSeparator: (Character) -> Bool,
                                     omittingEmpty: Bool = true) -> [Substring]? {
    var parts: [Substring] = [], depth = 0, start = text.startIndex
    for i in text.indices {
        switch text[i] {
        case "(": depth += 1
        case ")":
            depth -= 1
            if depth < 0 { return nil }
        case let c where depth == 0 && isSeparator(c):
            parts.append(text[start..<i])
            start = text.index(after: i)
        default: break
        }
    }
    guard depth == 0 else { return nil }
    parts.append(text[start...])
    return omittingEmpty ? parts.filter { !$0.isEmpty } : parts
}
