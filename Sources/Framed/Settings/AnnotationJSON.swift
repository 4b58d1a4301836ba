/// Annotations as JSON: a list of objects, one an annotation, with its places in the words
/// `framed layout` writes rectangles and points in (`{"x": 120, "y": 40, "width": 200,
/// "height": 80}`, `{"x": 400, "y": 300}`), each coordinate a number of picture pixels or a
/// percentage as a string (`"50%"`):
///
///     [
///       {"kind": "badge", "number": 1, "at": {"x": 300, "y": 200}},
///       {"kind": "arrow", "from": {"x": 400, "y": 300}, "to": {"x": 250, "y": 120}},
///       {"kind": "label", "text": "Save", "at": {"x": 420, "y": 60}, "to": {"x": 380, "y": 120}},
///       {"kind": "pixelate", "rect": {"x": 10, "y": 300, "width": 240, "height": 30}, "block": 16}
///     ]
///
/// The keys: `kind`; `rect` (rect, ellipse, highlight, spotlight, magnify's source and the
/// redactions); `from`, `to` and `via` (line and arrow; `to` is a label's pointer too); `at` (a
/// badge's or label's centre, magnify's lens); `number` (badge), `text` (label), `radius`,
/// `zoom`, `block`, `sigma`; and the style: `color`, `width`, `halo`, `font`.
extension Annotation {
    /// The annotations of a JSON list (see the extension's summary).
    package static func list(json value: JSON) throws(AnnotationError) -> [Annotation] {
        guard case let .array(items) = value else {
            throw AnnotationError(index: 0, kind: nil, reason: "annotations must be a JSON list of objects, not "
                                  + Configuration.describe(value))
        }
        guard items.count <= maximumCount else {
            throw AnnotationError(index: 0, kind: nil, reason: "more than \(maximumCount) annotations")
        }
        var list: [Annotation] = []
        for (offset, item) in items.enumerated() { list.append(try annotation(json: item, index: offset + 1)) }
        return list
    }

    /// The annotations of JSON text, as a file of annotations holds them (`AnnotationSource.file`
    /// reads one); `AnnotationError` names the first wrong one by its place in the list.
    public static func list(jsonText text: String) throws(AnnotationError) -> [Annotation] {
        try list(jsonText: Array(text.utf8))
    }

    /// `list` as JSON text, which `list(jsonText:)` reads back: a file of annotations for
    /// `AnnotationSource.file`, or for a picture's `{stem}.annotations.json`.
    public static func jsonText(_ list: [Annotation]) -> String {
        JSON.array(list.map(\.json)).text(exact: true)
    }

    /// The annotations of JSON text, as bytes (UTF-8).
    package static func list(jsonText bytes: [UInt8]) throws(AnnotationError) -> [Annotation] {
        let value: JSON
        do { value = try JSONReader.parse(bytes) } catch {
            throw AnnotationError(index: 0, kind: nil, reason: "not a JSON list of annotations (\(error.description))")
        }
        return try list(json: value)
    }

    /// One annotation of the list, `index` naming it in errors.
    static func annotation(json value: JSON, index: Int) throws(AnnotationError) -> Annotation {
        guard case let .object(pairs) = value else {
            throw AnnotationError(index: index, kind: nil, reason: "must be a JSON object, not " + Configuration.describe(value))
        }
        var fields = Fields(pairs: pairs, index: index)
        guard let kindName = try fields.string("kind") else { throw fields.fail("has no \"kind\"") }
        guard let kind = AnnotationKind(rawValue: kindName) else {
            throw fields.fail("\"\(excerpt(kindName))\" is not a kind of annotation (use "
                              + AnnotationKind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        fields.kind = kind
        let shape: AnnotationShape
        switch kind {
        case .rect: shape = .rect(try fields.rect(), radius: try fields.length("radius") ?? .zero)
        case .ellipse: shape = .ellipse(try fields.rect())
        case .line: shape = .line(from: try fields.requiredPoint("from"), to: try fields.requiredPoint("to"))
        case .arrow: shape = .arrow(from: try fields.requiredPoint("from"), to: try fields.requiredPoint("to"), via: try fields.point("via"))
        case .badge:
            guard let n = try fields.number("number") else { throw fields.fail("has no \"number\"") }
            guard n == n.rounded(), abs(n) < 1e9 else { throw fields.fail("\"number\" must be a whole number") }
            shape = .badge(Int(n), at: try fields.requiredPoint("at"))
        case .highlight: shape = .highlight(try fields.rect())
        case .label:
            guard let text = try fields.string("text") else { throw fields.fail("has no \"text\"") }
            shape = .label(text, at: try fields.requiredPoint("at"), pointer: try fields.point("to"))
        case .spotlight: shape = .spotlight(try fields.rect(), radius: try fields.length("radius") ?? .zero)
        case .magnify: shape = .magnify(try fields.rect(), at: try fields.requiredPoint("at"), zoom: try fields.number("zoom") ?? defaultZoom)
        case .redact: shape = .redact(try fields.rect())
        case .pixelate: shape = .pixelate(try fields.rect(), block: try fields.number("block") ?? defaultBlock)
        case .blur: shape = .blur(try fields.rect(), sigma: try fields.number("sigma") ?? defaultSigma)
        }
        let style = AnnotationStyle(color: try fields.color("color"), width: try fields.length("width"),
                                    halo: try fields.color("halo", noneIsTransparent: true), font: try fields.font("font"))
        try fields.end()
        let annotation = Annotation(shape, style: style)
        try annotation.validate(index: index)
        return annotation
    }

    /// The annotation as JSON, as `annotation(json:index:)` reads it back.
    package var json: JSON {
        func coordinate(_ c: PictureCoordinate) -> JSON {
            switch c {
            case let .pixels(v): .number(v)
            case let .percent(p): .string(JSON.exactNumber(p) + "%")
            }
        }
        func point(_ p: PicturePoint) -> JSON { .object([("x", coordinate(p.x)), ("y", coordinate(p.y))]) }
        func rect(_ r: PictureRect) -> JSON {
            .object([("x", coordinate(r.x)), ("y", coordinate(r.y)), ("width", coordinate(r.width)), ("height", coordinate(r.height))])
        }
        var pairs: [(String, JSON)] = [("kind", .string(kind.rawValue))]
        switch shape {
        case let .rect(r, radius), let .spotlight(r, radius):
            pairs.append(("rect", rect(r)))
            if radius != .zero { pairs.append(("radius", .string(radius.description))) }
        case let .ellipse(r), let .highlight(r), let .redact(r): pairs.append(("rect", rect(r)))
        case let .line(from, to): pairs += [("from", point(from)), ("to", point(to))]
        case let .arrow(from, to, via):
            pairs += [("from", point(from)), ("to", point(to))]
            if let via { pairs.append(("via", point(via))) }
        case let .badge(n, at): pairs += [("number", .number(Double(n))), ("at", point(at))]
        case let .label(text, at, pointer):
            pairs += [("text", .string(text)), ("at", point(at))]
            if let pointer { pairs.append(("to", point(pointer))) }
        case let .magnify(r, at, zoom): pairs += [("rect", rect(r)), ("at", point(at)), ("zoom", .number(zoom))]
        case let .pixelate(r, block): pairs += [("rect", rect(r)), ("block", .number(block))]
        case let .blur(r, sigma): pairs += [("rect", rect(r)), ("sigma", .number(sigma))]
        }
        if let color = style.color { pairs.append(("color", .string(color.description))) }
        if let width = style.width { pairs.append(("width", .string(width.description))) }
        if let halo = style.halo { pairs.append(("halo", .string(halo.alpha == 0 ? "none" : halo.description))) }
        if let font = style.font { pairs.append(("font", .string(font.description))) }
        return .object(pairs)
    }
}

/// The members of one annotation's object, each taken once; a member no kind takes is an error.
private struct Fields {
    var pairs: [(String, JSON)]
    var index: Int
    var kind: AnnotationKind?
    var used: Set<String> = []

    func fail(_ reason: String) -> AnnotationError { AnnotationError(index: index, kind: kind, reason: reason) }

    mutating func take(_ key: String) -> JSON? {
        guard let value = pairs.first(where: { $0.0 == key })?.1 else { return nil }
        used.insert(key)
        return value
    }

    mutating func string(_ key: String) throws(AnnotationError) -> String? {
        guard let value = take(key) else { return nil }
        guard case let .string(s) = value else { throw fail("\"\(key)\" must be a string, not \(Configuration.describe(value))") }
        return s
    }

    mutating func number(_ key: String) throws(AnnotationError) -> Double? {
        guard let value = take(key) else { return nil }
        guard case let .number(n) = value, n.isFinite else {
            throw fail("\"\(key)\" must be a number, not \(Configuration.describe(value))")
        }
        return n
    }

    /// A length: a number of CSS px, or a string with its unit.
    mutating func length(_ key: String) throws(AnnotationError) -> Length? {
        guard let value = take(key) else { return nil }
        switch value {
        case let .number(n): return .px(n)
        case let .string(s):
            do { return try Length(parsing: s) } catch { throw fail("\"\(key)\": \(error.description)") }
        default: throw fail("\"\(key)\" must be a length, not \(Configuration.describe(value))")
        }
    }

    mutating func color(_ key: String, noneIsTransparent: Bool = false) throws(AnnotationError) -> RGBAColor? {
        guard let text = try string(key) else { return nil }
        if noneIsTransparent && text.lowercased() == "none" { return .transparent }
        do { return try RGBAColor(parsing: text) } catch { throw fail("\"\(key)\": \(error.description)") }
    }

    mutating func font(_ key: String) throws(AnnotationError) -> CSSFont? {
        guard let text = try string(key) else { return nil }
        do { return try CSSFont(parsing: text) } catch { throw fail("\"\(key)\": \(error.description)") }
    }

    func coordinate(_ value: JSON?, _ what: String) throws(AnnotationError) -> PictureCoordinate {
        switch value {
        case let .number(n)?: return .pixels(n)
        case let .string(s)?:
            do { return try PictureCoordinate(parsing: Substring(s), what: what) } catch { throw fail(error.description) }
        case nil: throw fail("\(what) is missing")
        case let other?: throw fail("\(what) must be a number or a percentage, not \(Configuration.describe(other))")
        }
    }

    func members(_ value: JSON, _ key: String, _ names: [String]) throws(AnnotationError) -> [PictureCoordinate] {
        guard case let .object(members) = value else {
            throw fail("\"\(key)\" must be an object of \(names.joined(separator: ", ")), not \(Configuration.describe(value))")
        }
        if let extra = members.first(where: { !names.contains($0.0) }) {
            throw fail("\"\(key)\" has \"\(excerpt(extra.0))\", which is not one of \(names.joined(separator: ", "))")
        }
        var out: [PictureCoordinate] = []
        for name in names { out.append(try coordinate(members.first { $0.0 == name }?.1, "\"\(key)\".\(name)")) }
        return out
    }

    mutating func point(_ key: String) throws(AnnotationError) -> PicturePoint? {
        guard let value = take(key) else { return nil }
        let c = try members(value, key, ["x", "y"])
        return PicturePoint(x: c[0], y: c[1])
    }

    mutating func requiredPoint(_ key: String) throws(AnnotationError) -> PicturePoint {
        guard let point = try point(key) else { throw fail("has no \"\(key)\"") }
        return point
    }

    mutating func rect() throws(AnnotationError) -> PictureRect {
        guard let value = take("rect") else { throw fail("has no \"rect\"") }
        let c = try members(value, "rect", ["x", "y", "width", "height"])
        return PictureRect(x: c[0], y: c[1], width: c[2], height: c[3])
    }

    func end() throws(AnnotationError) {
        if let unknown = pairs.first(where: { !used.contains($0.0) }) {
            throw fail("\"\(excerpt(unknown.0))\" is not a member of a\(kind == .arrow || kind == .ellipse ? "n" : "") "
                       + "\(kind?.rawValue ?? "annotation")")
        }
    }
}
