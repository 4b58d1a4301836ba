/// Captions: a line of text (or several, wrapped) in the mat under the picture or under the
/// frame, in a font written as CSS's `font` shorthand. FramedLayout only places the text; its
/// height comes from a `TextMeasure` (FramedRender's, by Pango), so that this module stays free
/// of C.

/// A font as CSS's `font` shorthand writes it:
/// `[style] [variant] [weight] [stretch] size[/line-height] family[, family]*`, e.g.
/// `italic 14px "DejaVu Serif"`, `bold 12pt/1.4 Georgia, serif`. Codable as that text.
public struct CSSFont: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The CSS font styles.
    public enum Style: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
        /// Upright.
        case normal
        /// The family's italic face.
        case italic
        /// A slanted face (or the upright one slanted).
        case oblique
    }

    /// The CSS font-stretch keywords, narrowest first (Pango's PangoStretch in the same order).
    public static let stretches = ["ultra-condensed", "extra-condensed", "condensed", "semi-condensed", "normal",
                                   "semi-expanded", "expanded", "extra-expanded", "ultra-expanded"]

    /// Family names in order of preference; fontconfig's generic names (`serif`, `sans-serif`,
    /// `monospace`) may end the list.
    public var families: [String]
    /// Upright, italic or oblique.
    public var style: Style
    /// Small capitals (CSS `font-variant: small-caps`).
    public var smallCaps: Bool
    /// CSS weight, 1 to 1000: 400 normal, 700 bold.
    public var weight: Int
    /// An index into `stretches`: 4 is normal.
    public var stretch: Int
    /// The em size.
    public var size: Length
    /// The distance between baselines; nil: the font's own (CSS `normal`).
    public var lineHeight: Length?

    /// A font of `size` in `families`, upright, normal weight and width.
    public init(families: [String], size: Length, style: Style = .normal, smallCaps: Bool = false, weight: Int = 400,
                stretch: Int = 4, lineHeight: Length? = nil) {
        self.families = families; self.size = size; self.style = style; self.smallCaps = smallCaps
        self.weight = weight; self.stretch = stretch; self.lineHeight = lineHeight
    }

    /// framed's caption font: `16px "DejaVu Sans"`. DejaVu because the Makefile installs it
    /// (fonts-dejavu-core), so captions look the same on every machine; Sans because, of the
    /// three DejaVu families, it alone has Arabic and Hebrew letters; 16px because it is a
    /// browser's default text size, legible under a picture of a few hundred pixels.
    public static let caption = CSSFont(families: ["DejaVu Sans"], size: .px(16))

    /// The generic family names, which never make a missing-font warning.
    public static let genericFamilies: Set<String> = ["serif", "sans-serif", "sans", "monospace", "cursive", "fantasy",
                                                      "system-ui"]

    /// Parses the shorthand. Sizes take framed's units (px, pt, in, mm, cm; a bare number is
    /// px); the line height is `normal`, a number (times the size) or a length.
    public init(parsing text: String) throws(StyleParseError) {
        func fail(_ reason: String) -> StyleParseError { StyleParseError(kind: "font", input: text, reason: reason) }
        let expected = "expected [style] [weight] size[/line-height] family, like italic 14px \"DejaVu Serif\""
        var rest = Substring(text).styleTrimmed
        var style = Style.normal, smallCaps = false, weight = 400, stretch = 4
        var size: Length?
        var lineHeight: Length?
        // Keywords, then the size: each word up to the size is one of the keywords.
        while size == nil {
            guard let end = rest.firstIndex(where: \.isWhitespace) ?? (rest.isEmpty ? nil : rest.endIndex) else {
                throw fail(expected)
            }
            let word = String(rest[..<end]), lower = word.lowercased()
            rest = rest[end...].styleTrimmed
            if lower == "normal" { continue }
            if let s = Style(rawValue: lower) { style = s; continue }
            if lower == "small-caps" { smallCaps = true; continue }
            if lower == "bold" { weight = 700; continue }
            if lower == "bolder" || lower == "lighter" {
                throw fail("\(lower) is relative to a parent font, which a caption has not: give a weight from 1 to 1000")
            }
            if let n = Int(lower), lower.first?.isNumber == true, (1...1000).contains(n), rest.first != "/",
               let next = rest.split(whereSeparator: \.isWhitespace).first {
                // A bare number is a weight (CSS: 1 to 1000) when a keyword or the size follows it,
                // else the size in px (framed's bare numbers are px).
                let word = next.lowercased()
                if Self.keywords.contains(word) || Self.stretches.contains(word)
                    || (try? Length(parsing: String(next.split(separator: "/").first ?? next))) != nil {
                    weight = n; continue
                }
            }
            if let s = Self.stretches.firstIndex(of: lower) { stretch = s; continue }
            // The size, maybe with its line height ("14px/1.2", "14px / 1.2").
            var sizeWord = Substring(word)
            var lineWord: Substring?
            if let slash = sizeWord.firstIndex(of: "/") {
                lineWord = sizeWord[sizeWord.index(after: slash)...]
                sizeWord = sizeWord[..<slash]
            }
            if lineWord?.isEmpty ?? (rest.first == "/") {
                rest = rest.first == "/" ? rest.dropFirst().styleTrimmed : rest
                guard let end = rest.firstIndex(where: \.isWhitespace) else { throw fail("expected a family after the line height") }
                lineWord = rest[..<end]
                rest = rest[end...].styleTrimmed
            }
            let parsed: Length
            do { parsed = try Length(parsing: String(sizeWord)) } catch {
                throw fail("\"\(excerpt(word))\" is neither a style or weight word nor a size (\(expected))")
            }
            guard parsed.points > 0, parsed.points <= 7200 else { throw fail("the size must be greater than zero and at most 100in") }
            size = parsed
            if let lineWord, lineWord.lowercased() != "normal" {
                if let factor = styleNumber(lineWord) {
                    guard factor > 0, factor <= 100 else { throw fail("the line height must be greater than zero") }
                    lineHeight = parsed * factor
                } else {
                    do { lineHeight = try Length(parsing: String(lineWord)) } catch {
                        throw fail("the line height \"\(excerpt(lineWord))\" is neither a number nor a length")
                    }
                    guard let l = lineHeight, l.points > 0, l.points <= 72_000 else {
                        throw fail("the line height must be greater than zero")
                    }
                }
            }
        }
        // The families: comma-separated, each quoted or bare words. Read a Unicode scalar at a
        // time: a quote followed by a combining mark is one Swift `Character`, not a quote.
        var families: [String] = []
        var current = String.UnicodeScalarView(), quote: Unicode.Scalar?, quoted = false
        func finish() throws(StyleParseError) {
            let name = quoted ? String(current) : current.split(whereSeparator: \.properties.isWhitespace)
                .map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
            guard !name.isEmpty else { throw fail("a family name is missing (\(expected))") }
            families.append(name)
            current = String.UnicodeScalarView(); quoted = false
        }
        for c in rest.unicodeScalars {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                guard current.allSatisfy(\.properties.isWhitespace), !quoted else { throw fail("a quote inside a family name") }
                current = String.UnicodeScalarView(); quote = c; quoted = true
            } else if c == "," {
                try finish()
            } else if quoted {
                guard c.properties.isWhitespace else { throw fail("text after a quoted family name: separate families with commas") }
            } else {
                current.append(c)
            }
        }
        guard quote == nil else { throw fail("a quote is not closed") }
        try finish()
        guard let size else { throw fail(expected) }
        for name in families where name.contains(where: { $0.isNewline || $0 == "\0" }) {
            throw fail("a family name holds a line break")
        }
        self.init(families: families, size: size, style: style, smallCaps: smallCaps, weight: weight, stretch: stretch,
                  lineHeight: lineHeight)
    }

    /// The shorthand, as `init(parsing:)` reads it back.
    public var description: String {
        var words: [String] = []
        if style != .normal { words.append(style.rawValue) }
        if smallCaps { words.append("small-caps") }
        if weight == 700 { words.append("bold") } else if weight != 400 { words.append(String(weight)) }
        if stretch != 4, Self.stretches.indices.contains(stretch) { words.append(Self.stretches[stretch]) }
        words.append(size.description + (lineHeight.map { "/" + $0.description } ?? ""))
        // Quoted unless plain letters, digits and hyphens; in single quotes when the name holds
        // a double quote (a name never holds both: no quote ends inside its own kind).
        let names = families.map { name in
            guard name.contains(where: { !($0.isLetter || $0.isNumber || $0 == "-") }) || Self.keyword(name) else { return name }
            return name.unicodeScalars.contains("\"") ? "'" + name + "'" : "\"" + name + "\""
        }
        return words.joined(separator: " ") + " " + names.joined(separator: ", ")
    }

    /// The style, variant and weight words the shorthand takes before the size.
    private static let keywords: Set<String> = ["normal", "italic", "oblique", "small-caps", "bold", "bolder", "lighter"]

    private static func keyword(_ name: String) -> Bool {
        let lower = name.lowercased()
        return keywords.contains(lower) || stretches.contains(lower) || Int(lower) != nil
    }

    public init(from decoder: any Decoder) throws { self = try decodeStyleValue(decoder, CSSFont.init(parsing:)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Where a caption goes.
public enum CaptionPosition: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// In the mat under the picture, as on an instant photo: the mat's bottom grows to hold it.
    case inside
    /// Under the frame, on the canvas: the canvas grows to hold it.
    case below
}

/// How a caption's lines sit in its box, in CSS `text-align` words.
public enum CaptionAlignment: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// Against the left edge.
    case left
    /// Centred: the default.
    case center
    /// Against the right edge.
    case right
    /// Against the edge where the text starts: the left for left-to-right text, the right for
    /// right-to-left (Arabic, Hebrew).
    case start
    /// Against the edge where the text ends.
    case end
}

/// A caption's words and look. No text, no caption.
public struct Caption: Sendable, Equatable, Codable {
    /// The words, UTF-8; line breaks start new lines, and long lines wrap to the box's width.
    public var text: String
    /// The font, as CSS's `font` shorthand says.
    public var font: CSSFont
    /// The text's colour; nil picks a grey that reads on what lies under the text
    /// (`automaticColor(on:)`).
    public var color: RGBAColor?
    /// How the lines sit in the box.
    public var alignment: CaptionAlignment
    /// In the mat or under the frame.
    public var position: CaptionPosition

    /// A caption of `text`; by default in the mat, centred, in `CSSFont.caption`, coloured to read
    /// on the mat.
    public init(text: String = "", font: CSSFont = .caption, color: RGBAColor? = nil,
                alignment: CaptionAlignment = .center, position: CaptionPosition = .inside) {
        self.text = text; self.font = font; self.color = color; self.alignment = alignment; self.position = position
    }

    /// The most characters a caption may have: a few paragraphs. Shaping and drawing text takes
    /// time in its length, and a caption longer than this would not fit under a picture anyway.
    public static let maximumLength = 10_000

    /// The gap between the caption and what is above it (the picture, or the frame): half the
    /// font's em size. Inside the mat the text keeps at least as much room under it, before the
    /// border; under the frame, before the canvas's edge.
    public var gap: Double { font.size.points / 2 }

    /// The contrast ratio an automatic colour reaches wherever a grey can: WCAG 2's AA level for
    /// text, 4.5:1.
    public static let minimumContrast = 4.5
    /// A colour the style gives that has less contrast than this with what lies under it is
    /// warned about: 3:1, WCAG 2's AA level for large text, below which no text reads well.
    public static let warningContrast = 3.0

    /// The grey an automatic caption is drawn in over `backgrounds` (the opaque colours that lie
    /// under the text's box), and the lowest contrast ratio it has with them. Dark text when
    /// black contrasts with the darkest of them at least as well as white does with the
    /// lightest, else light text. The dark grey `#333333` (or the light `#eeeeee`) when it
    /// reaches `minimumContrast` with every one of them; else the grey nearest to it that does;
    /// else, when no grey can, black (white): the most there is, which falls short of 4.5:1.
    public static func automaticColor(on backgrounds: [RGBAColor]) -> (color: RGBAColor, contrast: Double) {
        let luminances = (backgrounds.isEmpty ? [RGBAColor.white] : backgrounds).map(\.relativeLuminance)
        func worst(_ level: UInt8) -> Double {
            let text = RGBAColor.grey(level).relativeLuminance
            return luminances.map { (max($0, text) + 0.05) / (min($0, text) + 0.05) }.min() ?? 21
        }
        let dark = worst(0) >= worst(255)
        let preferred: UInt8 = dark ? 0x33 : 0xee
        let candidates: [UInt8] = dark ? Array((0...preferred).reversed()) : Array(preferred...255)
        let level = candidates.first { worst($0) >= minimumContrast } ?? (dark ? 0 : 255)
        return (RGBAColor.grey(level), worst(level))
    }
}

/// A block of text as laid out: its height and how many lines it took.
public struct TextBlock: Sendable, Equatable, Codable {
    /// The lines' height, in points.
    public var height: Double
    /// How many lines the text took.
    public var lines: Int
    /// The widest line's width, in points; nil when not known (the text is then taken to fill
    /// the width it wraps to).
    public var width: Double?
    /// Whether the text runs right to left (its `start` is the right edge).
    public var rightToLeft: Bool
    /// A block `height` points high of `lines` lines, the widest `width` points wide.
    public init(height: Double, lines: Int, width: Double? = nil, rightToLeft: Bool = false) {
        self.height = height; self.lines = lines; self.width = width; self.rightToLeft = rightToLeft
    }
}

/// Measures text for the layout: how high a caption is when wrapped to a width. FramedRender's
/// is Pango's; tests may give any.
public protocol TextMeasure: Sendable {
    /// The block `caption`'s text makes in its font, wrapped to `width` points.
    func measure(_ caption: Caption, width: Double) throws(LayoutError) -> TextBlock
    /// The block `text` makes in `font` with lines broken at its line breaks only: its width
    /// and height in points (an annotation's label and badge number).
    func extent(of text: String, font: CSSFont) throws(LayoutError) -> Size
}

extension TextMeasure {
    /// A measure that knows captions only: labels and badges cannot be laid out with it.
    public func extent(of text: String, font: CSSFont) throws(LayoutError) -> Size {
        throw .caption(reason: "this text measure measures captions only")
    }
}

/// A caption placed: its box and lines.
public struct CaptionGeometry: Sendable, Equatable, Codable {
    /// Where the text goes: as wide as it wraps to (the content box inside, the frame below),
    /// as high as its lines.
    public var box: Rect
    /// How many lines the text took.
    public var lines: Int
    /// In the mat or under the frame.
    public var position: CaptionPosition
    /// The part of `box` the lines take across (as high as the box): where the colours that the
    /// text's contrast is judged against are sampled.
    public var textBox: Rect
    /// The colour the text is drawn in: the caption's own, or the grey `Caption.automaticColor(on:)`
    /// picks for what lies under the box.
    public var color: RGBAColor
    /// The lowest WCAG 2 contrast ratio between the text's colour (laid over them) and the colours
    /// under `textBox`: the mat's paint inside, the canvas's below, and where those are not opaque
    /// the page the figure is shown on.
    public var contrast: Double
}
