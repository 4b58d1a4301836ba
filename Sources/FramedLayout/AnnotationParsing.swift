/// The inline form of annotations, for one-offs on the command line: annotations separated by
/// semicolons, each its kind, its places and numbers, then `key=value` words for its style:
///
///     rect 120,40 200x80; arrow 400,300 -> 250,120; badge 1 300,200
///     label "Save here" 420,60 -> 380,120 color=#0a7; pixelate 10,300 240x30 block=16
///
/// Points are `X,Y` and sizes `WxH`, in picture pixels or percentages (`50%,10%`). Text in
/// double or single quotes (a backslash escapes the quote). `description` writes an annotation
/// back in this form.

/// Why annotations cannot be used: the annotation, by its place in the list (from 1), and what
/// is wrong with it.
public struct AnnotationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The annotation's place in the list, from 1; 0 when the list itself is wrong.
    public var index: Int
    /// Its kind, when it is known.
    public var kind: AnnotationKind?
    /// What is wrong.
    public var reason: String
    /// Set when nothing is wrong with the annotation but its text could not be set (Pango
    /// missing, or out of memory): a problem of the machine, not of the words.
    public var textUnavailable: Bool = false

    /// An error about the annotation at `index` (from 1).
    public init(index: Int, kind: AnnotationKind?, reason: String) {
        self.index = index; self.kind = kind; self.reason = reason
    }

    /// `annotation 3 (arrow): reason`, or the reason alone about the whole list.
    public var description: String {
        guard index > 0 else { return reason }
        return "annotation \(index)" + (kind.map { " (\($0.rawValue))" } ?? "") + ": " + reason
    }
}

extension Annotation {
    /// Parses the inline form (see the file's summary); an empty text is no annotation.
    public static func parseList(_ text: String) throws(AnnotationError) -> [Annotation] {
        var list: [Annotation] = []
        let parts: [Substring]
        do { parts = try InlineWords.split(Substring(text), at: ";") } catch {
            throw AnnotationError(index: 0, kind: nil, reason: "annotations: \(error.reason)")
        }
        for part in parts where !part.styleTrimmed.isEmpty {
            guard list.count < maximumCount else {
                throw AnnotationError(index: 0, kind: nil, reason: "more than \(maximumCount) annotations")
            }
            list.append(try parse(part, index: list.count + 1))
        }
        return list
    }

    /// Parses one annotation of the inline form, `index` naming it in errors.
    public static func parse(_ text: Substring, index: Int) throws(AnnotationError) -> Annotation {
        var kind: AnnotationKind?
        func fail(_ reason: String) -> AnnotationError { AnnotationError(index: index, kind: kind, reason: reason) }
        let words: [InlineWords.Word]
        do { words = try InlineWords.words(text) } catch { throw fail(error.reason) }
        guard let first = words.first else { throw fail("is empty") }
        guard let named = AnnotationKind(rawValue: first.text.lowercased()), !first.quoted else {
            throw fail("\"\(excerpt(first.text))\" is not a kind of annotation (use "
                       + AnnotationKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        kind = named
        // Positional words first, then key=value words.
        var positional: [InlineWords.Word] = [], options: [(key: String, value: String)] = []
        for word in words.dropFirst() {
            let scalars = word.text.unicodeScalars
            if !word.quoted, let eq = scalars.firstIndex(of: "="), word.text.first?.isLetter == true {
                let key = String(scalars[..<eq]).lowercased()
                guard !options.contains(where: { $0.key == key }) else { throw fail("\(key) is given twice") }
                options.append((key, word.value ?? String(scalars[scalars.index(after: eq)...])))
            } else {
                guard options.isEmpty else { throw fail("\"\(excerpt(word.text))\" comes after the key=value words") }
                positional.append(word)
            }
        }
        var reader = Reader(words: positional, fail: fail)
        var settings = Settings(options: options, fail: fail)
        let shape: AnnotationShape
        do {
            switch named {
            case .rect: shape = .rect(try reader.rect(), radius: try settings.length("radius") ?? .zero)
            case .ellipse: shape = .ellipse(try reader.rect())
            case .line:
                let from = try reader.point("the start")
                try reader.arrowWord()
                shape = .line(from: from, to: try reader.point("the end"))
            case .arrow:
                let from = try reader.point("the tail")
                try reader.arrowWord()
                shape = .arrow(from: from, to: try reader.point("the head"), via: try settings.point("via"))
            case .badge:
                shape = .badge(try reader.integer("the badge's number"), at: try reader.point("the badge's centre"))
            case .highlight: shape = .highlight(try reader.rect())
            case .label:
                let text = try reader.text("the label's text")
                let at = try reader.point("the label's centre")
                var pointer: PicturePoint?
                if reader.hasMore {
                    try reader.arrowWord()
                    pointer = try reader.point("the pointer's end")
                }
                shape = .label(text, at: at, pointer: pointer)
            case .spotlight: shape = .spotlight(try reader.rect(), radius: try settings.length("radius") ?? .zero)
            case .magnify:
                let source = try reader.rect()
                try reader.arrowWord()
                shape = .magnify(source, at: try reader.point("the lens's centre"), zoom: try settings.number("zoom") ?? defaultZoom)
            case .redact: shape = .redact(try reader.rect())
            case .pixelate: shape = .pixelate(try reader.rect(), block: try settings.number("block") ?? defaultBlock)
            case .blur: shape = .blur(try reader.rect(), sigma: try settings.number("sigma") ?? defaultSigma)
            }
            try reader.end()
            let style = AnnotationStyle(color: try settings.color("color"), width: try settings.length("width"),
                                        halo: try settings.color("halo", noneIsTransparent: true), font: try settings.font("font"))
            try settings.end()
            let annotation = Annotation(shape, style: style)
            try annotation.validate(index: index)
            return annotation
        }
    }

    /// Checks what the annotation says alone, before any picture: positive sizes, numbers in
    /// range, a label's text. Where it lies in the picture is `AnnotationLayout`'s to check.
    public func validate(index: Int) throws(AnnotationError) {
        func fail(_ reason: String) -> AnnotationError { AnnotationError(index: index, kind: kind, reason: reason) }
        func finite(_ c: PictureCoordinate) -> Bool {
            switch c { case let .pixels(v), let .percent(v): v.isFinite }
        }
        if let rect = shape.rect {
            for c in [rect.x, rect.y, rect.width, rect.height] where !finite(c) { throw fail("a coordinate is not a number") }
            for c in [rect.width, rect.height] {
                if case let .pixels(v) = c, v <= 0 { throw fail("its size \(rect.width)x\(rect.height) must be greater than zero") }
                if case let .percent(v) = c, v <= 0 { throw fail("its size \(rect.width)x\(rect.height) must be greater than zero") }
            }
        }
        switch shape {
        case let .rect(_, radius), let .spotlight(_, radius):
            guard radius.points.isFinite, radius.points >= 0 else { throw fail("the radius must be zero or more") }
        case let .badge(number, _):
            guard (0...9999).contains(number) else { throw fail("the badge's number \(number) must be from 0 to 9999") }
        case let .label(text, _, _):
            guard !text.isEmpty else { throw fail("the label has no text") }
            guard text.unicodeScalars.count <= Self.maximumLabelLength else {
                throw fail("the label has more than \(Self.maximumLabelLength) characters")
            }
            guard !text.unicodeScalars.contains("\0") else { throw fail("the label holds a NUL character") }
        case let .magnify(_, _, zoom):
            guard zoom.isFinite, zoom >= 1, zoom <= 16 else { throw fail("zoom \(formatStyleNumber(zoom)) must be from 1 to 16") }
        case let .pixelate(_, block):
            guard block.isFinite, block >= Self.minimumBlock, block <= 10_000 else {
                throw fail("block \(formatStyleNumber(block)) must be at least \(formatStyleNumber(Self.minimumBlock)) picture "
                           + "pixels (smaller blocks keep enough of text to be read back)")
            }
        case let .blur(_, sigma):
            guard sigma.isFinite, sigma >= 1, sigma <= 1000 else { throw fail("sigma \(formatStyleNumber(sigma)) must be from 1 to 1000") }
        case .ellipse, .line, .arrow, .highlight, .redact: break
        }
        if let width = style.width {
            guard width.points.isFinite, width.points > 0, width.points <= 7200 else {
                throw fail("the width \(width) must be greater than zero")
            }
        }
    }

    /// The annotation in the inline form, as `parse` reads it back.
    public var description: String {
        var words = [kind.rawValue]
        var options: [String] = []
        switch shape {
        case let .rect(r, radius), let .spotlight(r, radius):
            words.append(r.description)
            if radius != .zero { options.append("radius=\(radius)") }
        case let .ellipse(r), let .highlight(r), let .redact(r): words.append(r.description)
        case let .line(from, to): words += [from.description, "->", to.description]
        case let .arrow(from, to, via):
            words += [from.description, "->", to.description]
            if let via { options.append("via=\(via)") }
        case let .badge(n, at): words += [String(n), at.description]
        case let .label(text, at, pointer):
            words += [InlineWords.quoted(text), at.description]
            if let pointer { words += ["->", pointer.description] }
        case let .magnify(r, at, zoom):
            words += [r.description, "->", at.description]
            if zoom != Self.defaultZoom { options.append("zoom=\(formatStyleNumber(zoom))") }
        case let .pixelate(r, block):
            words.append(r.description)
            if block != Self.defaultBlock { options.append("block=\(formatStyleNumber(block))") }
        case let .blur(r, sigma):
            words.append(r.description)
            if sigma != Self.defaultSigma { options.append("sigma=\(formatStyleNumber(sigma))") }
        }
        if let color = style.color { options.append("color=" + InlineWords.quotedIfNeeded(color.description)) }
        if let width = style.width { options.append("width=\(width)") }
        if let halo = style.halo { options.append("halo=" + InlineWords.quotedIfNeeded(halo.alpha == 0 ? "none" : halo.description)) }
        if let font = style.font { options.append("font=" + InlineWords.quoted(font.description)) }
        return (words + options).joined(separator: " ")
    }

    /// A list in the inline form, annotations separated by `; `.
    public static func description(of list: [Annotation]) -> String {
        list.map(\.description).joined(separator: "; ")
    }
}

/// The positional words of one annotation, read in order.
private struct Reader {
    var words: [InlineWords.Word]
    var fail: (String) -> AnnotationError
    var position = 0

    var hasMore: Bool { position < words.count }

    mutating func next(_ what: String) throws(AnnotationError) -> InlineWords.Word {
        guard position < words.count else { throw fail("\(what) is missing") }
        defer { position += 1 }
        return words[position]
    }

    mutating func point(_ what: String) throws(AnnotationError) -> PicturePoint {
        let word = try next(what)
        do { return try PicturePoint(parsing: Substring(word.text)) } catch { throw fail("\(what): \(error.description)") }
    }

    mutating func rect() throws(AnnotationError) -> PictureRect {
        let origin = try point("the rectangle's corner X,Y")
        let size = try next("the rectangle's size WxH")
        do { return try PictureRect(origin: origin, parsingSize: Substring(size.text.lowercased())) } catch {
            throw fail("the rectangle's size: \(error.description)")
        }
    }

    mutating func integer(_ what: String) throws(AnnotationError) -> Int {
        let word = try next(what)
        guard let n = Int(word.text) else { throw fail("\(what) \"\(excerpt(word.text))\" is not a whole number") }
        return n
    }

    mutating func text(_ what: String) throws(AnnotationError) -> String {
        try next(what).text
    }

    mutating func arrowWord() throws(AnnotationError) {
        let word = try next("\"->\"")
        guard word.text == "->", !word.quoted else { throw fail("expected \"->\", not \"\(excerpt(word.text))\"") }
    }

    func end() throws(AnnotationError) {
        guard position >= words.count else { throw fail("\"\(excerpt(words[position].text))\" is one word too many") }
    }
}

/// The key=value words of one annotation, each taken once.
private struct Settings {
    var options: [(key: String, value: String)]
    var fail: (String) -> AnnotationError
    var used: Set<String> = []

    mutating func take(_ key: String) -> String? {
        guard let value = options.first(where: { $0.key == key })?.value else { return nil }
        used.insert(key)
        return value
    }

    mutating func length(_ key: String) throws(AnnotationError) -> Length? {
        guard let value = take(key) else { return nil }
        do { return try Length(parsing: value) } catch { throw fail("\(key): \(error.description)") }
    }

    mutating func number(_ key: String) throws(AnnotationError) -> Double? {
        guard let value = take(key) else { return nil }
        guard let n = styleNumber(value) else { throw fail("\(key) \"\(excerpt(value))\" is not a number") }
        return n
    }

    mutating func point(_ key: String) throws(AnnotationError) -> PicturePoint? {
        guard let value = take(key) else { return nil }
        do { return try PicturePoint(parsing: Substring(value)) } catch { throw fail("\(key): \(error.description)") }
    }

    mutating func color(_ key: String, noneIsTransparent: Bool = false) throws(AnnotationError) -> RGBAColor? {
        guard let value = take(key) else { return nil }
        if noneIsTransparent && value.lowercased() == "none" { return .transparent }
        do { return try RGBAColor(parsing: value) } catch { throw fail("\(key): \(error.description)") }
    }

    mutating func font(_ key: String) throws(AnnotationError) -> CSSFont? {
        guard let value = take(key) else { return nil }
        do { return try CSSFont(parsing: value) } catch { throw fail("\(key): \(error.description)") }
    }

    /// Fails on a key that this kind does not take.
    func end() throws(AnnotationError) {
        if let unknown = options.first(where: { !used.contains($0.key) }) {
            throw fail("\(unknown.key)= is not a setting of this kind")
        }
    }
}

/// Words of the inline form: split at white space and at a separator, outside quotes.
enum InlineWords {
    struct Word {
        /// The word as written, quotes removed; for `key="value"`, the key, `=` and the value.
        var text: String
        /// Whether the whole word was quoted.
        var quoted: Bool
        /// For `key="quoted value"`: the value, unquoted.
        var value: String?
    }

    struct Failure: Error { var reason: String }

    /// `text` split at `separator` outside quotes. Read a Unicode scalar at a time, as are
    /// `words` and CSSFont's families: a quote or a separator followed by a combining mark is one
    /// Swift `Character`, and would otherwise not be seen.
    static func split(_ text: Substring, at separator: Unicode.Scalar) throws(Failure) -> [Substring] {
        let scalars = text.unicodeScalars
        var parts: [Substring] = [], start = scalars.startIndex, quote: Unicode.Scalar?, i = scalars.startIndex
        while i < scalars.endIndex {
            let c = scalars[i]
            if let q = quote {
                if c == "\\" { i = scalars.index(after: i); if i == scalars.endIndex { break } }
                else if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == separator {
                parts.append(Substring(scalars[start..<i]))
                start = scalars.index(after: i)
            }
            i = scalars.index(after: i)
        }
        guard quote == nil else { throw Failure(reason: "a quote is not closed") }
        parts.append(Substring(scalars[start...]))
        return parts
    }

    /// The words of one annotation.
    static func words(_ text: Substring) throws(Failure) -> [Word] {
        let scalars = text.unicodeScalars
        var words: [Word] = [], current = String.UnicodeScalarView(), quoted = false, wholeQuoted = true
        var value: String.UnicodeScalarView?, started = false
        var quote: Unicode.Scalar?, i = scalars.startIndex
        func finish() {
            if started { words.append(Word(text: String(current), quoted: quoted && wholeQuoted, value: value.map(String.init))) }
            current = String.UnicodeScalarView(); quoted = false; wholeQuoted = true; value = nil; started = false
        }
        while i < scalars.endIndex {
            let c = scalars[i]
            if let q = quote {
                if c == "\\", scalars.index(after: i) < scalars.endIndex {
                    i = scalars.index(after: i)
                    current.append(scalars[i]); value?.append(scalars[i])
                } else if c == q {
                    quote = nil
                } else {
                    current.append(c); value?.append(c)
                }
            } else if c.properties.isWhitespace {
                finish()
            } else if c == "\"" || c == "'" {
                if started {
                    wholeQuoted = false
                    if current.last == "=" && value == nil { value = String.UnicodeScalarView() }
                }
                quote = c; quoted = true; started = true
            } else {
                if quoted { wholeQuoted = false }
                current.append(c); started = true
                if value != nil && quote == nil { value = nil }
            }
            i = scalars.index(after: i)
        }
        guard quote == nil else { throw Failure(reason: "a quote is not closed") }
        finish()
        return words
    }

    /// `text` in double quotes, its quotes and backslashes escaped.
    static func quoted(_ text: String) -> String {
        var out = String.UnicodeScalarView(["\""])
        for c in text.unicodeScalars {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        out.append("\"")
        return String(out)
    }

    /// `text` as it is when it is one plain word, else quoted.
    static func quotedIfNeeded(_ text: String) -> String {
        text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0 == "\"" || $0 == "'" || $0 == ";" })
            ? quoted(text) : text
    }
}
