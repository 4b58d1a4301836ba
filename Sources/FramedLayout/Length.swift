/// A physical length, stored in PostScript points (1/72 in). CSS px = 1/96 in = 0.75 pt.
///
/// Written as CSS text ("12px", "3.5mm"); a bare number is px, as in the box model.
/// Codable as that text (a bare JSON number decodes as px).
public struct Length: Sendable, Equatable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The units a length can be written in.
    public enum Unit: String, Sendable, CaseIterable, Codable {
        /// The CSS pixel: 1/96 inch, 0.75 pt, whatever the screen (a bare number is px).
        case px
        /// The PostScript point: 1/72 inch, the unit framed computes in.
        case pt
        /// The inch: 72 pt, 96 px.
        case `in`
        /// The millimetre: 72/25.4 pt (about 2.835 pt).
        case mm
        /// The centimetre: 10 mm, 720/25.4 pt.
        case cm

        /// Points per one unit: px 0.75, pt 1, in 72, mm 72/25.4, cm 720/25.4.
        public var points: Double { ratio.points / ratio.per }

        /// `points` per `per` units, kept as a fraction so that round values convert exactly
        /// (25.4 mm is exactly 72 pt, 96 px exactly 72 pt).
        var ratio: (points: Double, per: Double) {
            switch self {
            case .px: (3, 4)
            case .pt: (1, 1)
            case .in: (72, 1)
            case .mm: (72, 25.4)
            case .cm: (720, 25.4)
            }
        }
    }

    /// The length in points.
    public var points: Double

    /// A length of `points` PostScript points (1/72 in).
    public init(points: Double) { self.points = points }

    /// A length of `value` in `unit`, converted exactly for round values (96 px and 25.4 mm
    /// both make exactly 72 pt).
    public init(_ value: Double, _ unit: Unit) {
        points = value * unit.ratio.points / unit.ratio.per
    }

    /// `v` CSS pixels (1/96 in each): `.px(12)` is 9 pt.
    public static func px(_ v: Double) -> Length { Length(v, .px) }
    /// `v` points (1/72 in each).
    public static func pt(_ v: Double) -> Length { Length(v, .pt) }
    /// `v` inches (72 pt each); named `inches` because `in` is a Swift keyword.
    public static func inches(_ v: Double) -> Length { Length(v, .in) }
    /// `v` millimetres.
    public static func mm(_ v: Double) -> Length { Length(v, .mm) }
    /// `v` centimetres.
    public static func cm(_ v: Double) -> Length { Length(v, .cm) }
    /// No length: the default border, padding, radius, margin and shadow blur.
    public static let zero = Length(points: 0)

    /// The length in CSS px.
    public var pixels: Double { value(in: .px) }

    /// The length as a number of `unit`s: `Length.mm(25.4).value(in: .in)` is 1.
    public func value(in unit: Unit) -> Double { points * unit.ratio.per / unit.ratio.points }

    /// Parses "12", "12px", "3.5mm", "-2pt", "0.5in", "1e1px", "+3": a bare number is px.
    /// The unit is case-insensitive and must follow the number without a space ("12 px" is
    /// rejected: in a shadow it would read as two values). Surrounding whitespace is ignored.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        func fail(_ reason: String) -> StyleParseError {
            StyleParseError(kind: "length", input: String(trimmed), reason: reason)
        }
        guard let (number, rest) = splitStyleNumber(trimmed) else {
            throw fail("expected a number with an optional unit (px, pt, in, mm or cm), like 12px or 3.5mm")
        }
        guard let value = Double(number), value.isFinite else { throw fail("\(excerpt(number)) is too large") }
        if let space = rest.firstIndex(where: \.isWhitespace) {
            let head = trimmed[..<space], tail = rest[space...].styleTrimmed
            if space == rest.startIndex, Unit(rawValue: tail.lowercased()) != nil {
                throw fail("no space allowed between number and unit (write \"\(excerpt(number + tail))\")")
            }
            throw fail("unexpected \"\(excerpt(tail))\" after \"\(excerpt(head))\" (expected one length, like 12px)")
        }
        let unit: Unit
        if rest.isEmpty {
            unit = .px
        } else if let named = Unit(rawValue: rest.lowercased()) {
            unit = named
        } else {
            throw fail("unknown unit \"\(excerpt(rest))\" (use px, pt, in, mm or cm)")
        }
        self.init(value, unit)
        guard points.isFinite else { throw fail("\(excerpt(number + rest)) is too large") }
    }

    /// "12px" when the value is a px value with at most two decimals, otherwise points ("3.5pt").
    /// Exact: parsing the description gives back the same length.
    public var description: String {
        // px, else mm, when it writes the length with at most two decimals and reads back as
        // exactly this length ("3px", "150mm"; an inch with two decimals is a px with two), else
        // points in full.
        for unit in [Unit.px, .mm] {
            let text = formatStyleNumber(value(in: unit))
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            if !text.contains("e"), decimals <= 2, let number = Double(text), Length(number, unit) == self {
                return text + unit.rawValue
            }
        }
        return formatStyleNumber(points) + "pt"
    }

    public init(from decoder: any Decoder) throws {
        if let px = try? decoder.singleValueContainer().decode(Double.self) {
            self = .px(px)
        } else {
            self = try decodeStyleValue(decoder, Length.init(parsing:))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (a: Length, b: Length) -> Bool { a.points < b.points }
    /// The sum of two lengths, whatever units they were written in.
    public static func + (a: Length, b: Length) -> Length { Length(points: a.points + b.points) }
    /// The difference of two lengths; may be negative (a shadow offset or spread may be).
    public static func - (a: Length, b: Length) -> Length { Length(points: a.points - b.points) }
    /// The length turned the other way: a shadow offset to the left or up.
    public static prefix func - (a: Length) -> Length { Length(points: -a.points) }
    /// The length `k` times over.
    public static func * (a: Length, k: Double) -> Length { Length(points: a.points * k) }
    /// The length `k` times over.
    public static func * (k: Double, a: Length) -> Length { Length(points: k * a.points) }
    /// The length divided by `k`: `blur / 2` is a shadow's sigma.
    public static func / (a: Length, k: Double) -> Length { Length(points: a.points / k) }
    /// Adds `b` to `a`.
    public static func += (a: inout Length, b: Length) { a = a + b }
    /// Takes `b` from `a`.
    public static func -= (a: inout Length, b: Length) { a = a - b }
}

/// Splits text after its leading CSS number (optional sign, digits, optional fraction, optional
/// exponent), returning the number and what follows it; nil when the text does not start with one.
/// "nan" and "inf" are not numbers here.
func splitStyleNumber<S: StringProtocol>(_ text: S) -> (number: S.SubSequence, rest: S.SubSequence)? {
    var i = text.startIndex
    func isDigit(_ c: Character) -> Bool { c.asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
    func at(_ options: String) -> Bool { i < text.endIndex && options.contains(text[i]) }
    func skipDigits() -> Int {
        var count = 0
        while i < text.endIndex, isDigit(text[i]) { i = text.index(after: i); count += 1 }
        return count
    }
    if at("+-") { i = text.index(after: i) }
    var digits = skipDigits()
    if at(".") {
        i = text.index(after: i)
        digits += skipDigits()
    }
    guard digits > 0 else { return nil }
    if at("eE") {
        let mantissaEnd = i
        i = text.index(after: i)
        if at("+-") { i = text.index(after: i) }
        if skipDigits() == 0 { i = mantissaEnd }  // "12em": the e starts a unit
    }
    return (text[..<i], text[i...])
}

/// The finite number that `text` is, whole, as CSS writes numbers (an exponent allowed; no
/// unit, hexadecimal, "inf" or "nan"); nil for anything else.
package func styleNumber<S: StringProtocol>(_ text: S) -> Double? {
    guard let (number, rest) = splitStyleNumber(text), rest.isEmpty, let value = Double(number), value.isFinite else {
        return nil
    }
    return value
}

/// Shortest text for a number that parses back exactly: "12" rather than "12.0".
/// (Avoids `rounded()`, which needs libm at link time.)
func formatStyleNumber(_ x: Double) -> String {
    if abs(x) < 1e15, Double(Int64(x)) == x { return String(Int64(x)) }
    return "\(x)"
}

/// Width and height as lengths: "600x400", "150mmx100mm", "6inx4in", "600 x 400", "600X400",
/// also "×". Both must be greater than zero. Codable as that text.
public struct LengthSize: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The width; greater than zero when parsed.
    public var width: Length
    /// The height; greater than zero when parsed.
    public var height: Length

    /// A size of `width` by `height`, taken as given (`FrameLayout` checks that both are
    /// greater than zero).
    public init(width: Length, height: Length) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`: two lengths joined by `x`, `X` or `×`, with or without spaces
    /// around it (`600x400`, `150mmx100mm`, `6in x 4in`); each is a length as
    /// `Length(parsing:)` reads it, and both must be greater than zero. A unit written only after
    /// the height is the width's too, as print sizes are written: `6x4in` is 6in x 4in and
    /// `10x15cm` is 10cm x 15cm (a bare number alone, as in `600x400`, is px).
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        func fail(_ reason: String) -> StyleParseError {
            StyleParseError(kind: "size", input: String(trimmed), reason: reason)
        }
        // "px" contains an x, so try every x as the separator: only one leaves a valid width.
        var widthError: StyleParseError?, heightError: StyleParseError?
        for separator in trimmed.indices where "xX×".contains(trimmed[separator]) {
            var width: Length, height: Length
            let widthText = String(trimmed[..<separator]), heightText = String(trimmed[trimmed.index(after: separator)...])
            do {
                width = try Length(parsing: widthText)
            } catch {
                widthError = widthError ?? fail(error.nestedReason(as: "width"))
                continue
            }
            do {
                height = try Length(parsing: heightText)
            } catch {
                heightError = heightError ?? fail(error.nestedReason(as: "height"))
                continue
            }
            if let (_, widthUnit) = splitStyleNumber(widthText.styleTrimmed), widthUnit.isEmpty,
               let (_, heightUnit) = splitStyleNumber(heightText.styleTrimmed),
               let unit = Length.Unit(rawValue: heightUnit.lowercased()) {
                width = Length(width.pixels, unit)
            }
            guard width.points > 0 else { throw fail("width must be greater than zero") }
            guard height.points > 0 else { throw fail("height must be greater than zero") }
            self.init(width: width, height: height)
            return
        }
        throw heightError ?? widthError
            ?? fail("expected WIDTHxHEIGHT, like 600x400, 150mmx100mm or 6x4in")
    }

    /// "600px x 400px": parses back to the same size.
    public var description: String { "\(width) x \(height)" }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, LengthSize.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// CSS-style insets (padding): 1 to 4 lengths separated by spaces in CSS order
/// (all | vertical horizontal | top horizontal bottom | top right bottom left), each >= 0.
/// Codable as that text.
public struct EdgeInsets: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The inset at the top.
    public var top: Length
    /// The inset on the right.
    public var right: Length
    /// The inset at the bottom: the deep edge of a `polaroid` mat.
    public var bottom: Length
    /// The inset on the left.
    public var left: Length

    /// Insets with a length for each side, in CSS order (top, right, bottom, left), taken as
    /// given (`FrameLayout` checks that none is negative).
    public init(top: Length, right: Length, bottom: Length, left: Length) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// The same inset on all four sides.
    public init(all: Length) { self.init(top: all, right: all, bottom: all, left: all) }

    /// No inset on any side: no mat.
    public static let zero = EdgeInsets(all: .zero)

    /// Parses 1 to 4 lengths separated by spaces, as CSS `padding` takes them: `10px` (all
    /// sides), `8mm 4mm` (vertical, horizontal), `16px 16px 64px` (top, horizontal, bottom) or
    /// `1px 2px 3px 4px` (top, right, bottom, left). Each must be zero or more.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        func fail(_ reason: String) -> StyleParseError {
            StyleParseError(kind: "padding", input: String(trimmed), reason: reason)
        }
        let words = trimmed.styleWords
        guard (1...4).contains(words.count) else {
            throw fail("expected 1 to 4 lengths separated by spaces "
                + "(all | vertical horizontal | top horizontal bottom | top right bottom left)")
        }
        var v: [Length] = []
        for word in words {
            let length: Length
            do { length = try Length(parsing: String(word)) } catch { throw fail(error.nestedReason()) }
            guard length.points >= 0 else { throw fail("\"\(excerpt(word))\" is negative: padding must be zero or more") }
            v.append(length)
        }
        switch v.count {
        case 1: self.init(all: v[0])
        case 2: self.init(top: v[0], right: v[1], bottom: v[0], left: v[1])
        case 3: self.init(top: v[0], right: v[1], bottom: v[2], left: v[1])
        default: self.init(top: v[0], right: v[1], bottom: v[2], left: v[3])
        }
    }

    /// left + right
    public var horizontal: Length { left + right }
    /// top + bottom
    public var vertical: Length { top + bottom }

    /// The shortest CSS form: "10px", "10px 20px", "1px 2px 3px", "1px 2px 3px 4px".
    public var description: String {
        var values = [top, right, bottom, left]
        if left == right {
            values.removeLast()
            if bottom == top {
                values.removeLast()
                if right == top { values.removeLast() }
            }
        }
        return values.map(\.description).joined(separator: " ")
    }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, EdgeInsets.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
