import FramedRaster

/// What an SVG may hold, beyond what librsvg 2.54 bounds itself. Measured there (docs/formats.md):
/// libxml2 refuses entity loops ("billion laughs") and nesting deeper than 256; librsvg refuses
/// more than 1,000,000 elements (after 8.7 s and 1.7 GB) and more than 500,000 references
/// resolved while drawing (a `<use>` bomb: after 7.9 s). It does not bound a chain of
/// references (3,000 nested `<use>` overflow an 8 MB stack), feTurbulence's octaves (a cost per
/// pixel each), the pictures in `data:` URLs (a 20000x20000 PNG of 389 kB took 3 GB), nor time.
package struct SVGLimits: Sendable, Equatable {
    /// The most bytes: `PictureInput.svgByteLimit`.
    package var bytes = PictureInput.svgByteLimit
    /// The most elements (start tags): librsvg takes about 1.7 kB and 9 µs each to load one.
    package var elements = 200_000
    /// The most elements drawn once references are followed (`<use>`, `url(#...)`, `href`s):
    /// each one drawn is a Cairo call or more, so this bounds the work of references that
    /// multiply (a `<use>` of a group of `<use>`s...).
    package var instances = 250_000
    /// The longest chain of elements inside elements and references to elements, which
    /// librsvg follows by recursion: 1,000 take some 5 MB of the 64 MB stack its thread gets.
    package var depth = 1_000
    /// The most primitives (`fe...` elements) in one `<filter>`: each is a pass over the
    /// filtered area.
    package var filterPrimitives = 32
    /// The most octaves of an `feTurbulence`: each is a noise evaluation per pixel, and
    /// beyond 10 they add less than 1/1024.
    package var turbulenceOctaves = 10
    /// The most pixels of the pictures in `data:` URLs, all together (librsvg holds each twice,
    /// as a pixbuf and a Cairo surface): the pixel limit.
    package var embeddedPixels = 256_000_000
    /// The most seconds librsvg may take to load the document, and again to draw it.
    package var seconds = 60.0

    /// The standard limits, pictures in `data:` URLs held to `maxPixels`.
    package init(maxPixels: Int = 256_000_000) { embeddedPixels = maxPixels }
}

/// An SVG's text, read by framed before librsvg reads it, for what librsvg does not bound
/// (`SVGLimits`) and for what it would load. The check is a single pass over the bytes with
/// an XML tokenizer of its own (no C): elements and their nesting, attributes with entity and
/// character references decoded, `<style>` sheets, comments, CDATA, processing instructions
/// and the DOCTYPE. Refused, with one line saying why (`RasterError.unsupportedContent`):
///
/// - entities other than plain text: parameter or external entities, or a replacement text
///   holding markup or references (libxml2 bounds their expansion, but elements made by an
///   entity would escape the element count);
/// - `data:` URLs, except pictures in `<image>` or `<feImage>` whose bytes are a PNG or a JPEG
///   of the type they claim, within `embeddedPixels` all together. librsvg loads nothing else
///   (it is given no base file: file and web addresses are refused by librsvg itself), so a
///   `data:` URL is the only way in for another document, a style sheet or a gdk-pixbuf loader;
/// - more elements, instances or depth than the limits, and filters beyond them.
///
/// Addresses that librsvg will not load (`file:`, `http:`, relative names) are listed in
/// `external` for a warning.
package struct SVGCheck: Sendable, Equatable {
    /// Start tags.
    package var elements = 0
    /// Elements drawn once every reference is followed, counted as if each element were drawn
    /// where it stands too (an upper bound); saturates at `Int.max / 4`.
    package var instances = 0
    /// The longest chain of nesting and references.
    package var depth = 0
    /// Whether a `<filter>` is defined.
    package var hasFilters = false
    /// The pixels of the pictures in `data:` URLs.
    package var embeddedPixels = 0
    /// Addresses librsvg will not load, the first few of them, and how many there are in all.
    package var external: [String] = []
    package var externalCount = 0

    /// Checks `bytes` against `limits`.
    package static func run(_ bytes: [UInt8], limits: SVGLimits) throws(RasterError) -> SVGCheck {
        var scanner = SVGScanner(bytes: bytes, limits: limits)
        try scanner.scan()
        return try scanner.finish()
    }

    /// One line for the reader when addresses were left unloaded; nil when none were.
    package var externalWarning: String? {
        guard let first = external.first else { return nil }
        let more = externalCount - 1
        return "the SVG refers to \(first)\(more > 0 ? " and \(more) more address\(more == 1 ? "" : "es")" : ""), "
            + "which framed does not load"
    }
}

/// The tokenizer and bookkeeping behind `SVGCheck.run`.
private struct SVGScanner {
    let b: [UInt8]
    let limits: SVGLimits
    var i = 0
    var result = SVGCheck()
    /// Declared entities: name → replacement text.
    var entities: [String: [UInt8]] = [:]

    // The element tree and references, by element index.
    var parent: [Int32] = []
    var stack: [Int32] = []
    var ids: [String: Int32] = [:]
    /// (element, id it refers to).
    var references: [(Int32, String)] = []
    /// Ids that a style sheet refers to: every element may use them.
    var sheetReferences: Set<String> = []
    /// The `<filter>` being read, and its primitive count.
    var filter: (element: Int32, primitives: Int)?
    /// Inside `<style>`: its text is a style sheet.
    var styleDepth: Int?

    init(bytes: [UInt8], limits: SVGLimits) {
        b = bytes
        self.limits = limits
    }

    // MARK: Failing

    func refuse(_ reason: String) -> RasterError { .unsupportedContent(.svg, "SVG refused: \(reason)") }
    func corrupt(_ reason: String) -> RasterError { .corrupt(.svg, reason) }

    // MARK: Bytes

    func at(_ text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        return text.withUTF8Buffer { $0.elementsEqual(b[i..<i + n]) }
    }

    /// Moves past the next `end`; false when the text ends first.
    mutating func skip(past end: StaticString) -> Bool {
        let first = end.withUTF8Buffer { $0[0] }
        while i < b.count {
            if b[i] == first && at(end) { i += end.utf8CodeUnitCount; return true }
            i += 1
        }
        return false
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == 0x5F || c == 0x2D || c == 0x2E || c == 0x3A || c >= 0x80
    }

    mutating func skipSpace() { while i < b.count, Self.isSpace(b[i]) { i += 1 } }

    mutating func name() -> ArraySlice<UInt8> {
        let start = i
        while i < b.count, Self.isNameByte(b[i]) { i += 1 }
        return b[start..<i]
    }

    /// The part of a qualified name after its prefix.
    static func local(_ name: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return name[(colon + 1)...]
    }

    // MARK: The document

    mutating func scan() throws(RasterError) {
        guard b.count <= limits.bytes else {
            throw refuse("it is \(b.count >> 20) MB, over the limit of \(limits.bytes >> 20) MB")
        }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        var text: [UInt8] = []
        while i < b.count {
            if b[i] != UInt8(ascii: "<") {
                let start = i
                while i < b.count, b[i] != UInt8(ascii: "<") { i += 1 }
                if styleDepth != nil { text += try decoded(b[start..<i]) }
                continue
            }
            if at("<!--") {
                guard skip(past: "-->") else { throw corrupt("a comment does not end") }
            } else if at("<![CDATA[") {
                i += 9
                let start = i
                guard skip(past: "]]>") else { throw corrupt("a CDATA section does not end") }
                if styleDepth != nil { text += b[start..<(i - 3)] }
            } else if at("<!DOCTYPE") {
                try doctype()
            } else if at("<?") {
                let start = i
                guard skip(past: "?>") else { throw corrupt("a processing instruction does not end") }
                // xml-stylesheet names a style sheet by its href.
                try cssText(b[start..<i], element: -1)
            } else if at("</") {
                i += 2
                _ = name()
                guard skip(past: ">") else { throw corrupt("an end tag does not end") }
                guard let element = stack.popLast() else { throw corrupt("an end tag without its start") }
                if styleDepth == stack.count {
                    styleDepth = nil
                    try cssText(text[...], element: -1, sheet: true)
                    text = []
                }
                if filter?.element == element { filter = nil }
            } else {
                try startTag()
            }
        }
    }

    /// `<!DOCTYPE ...>`: general entities of plain text are kept for the attributes that use
    /// them; any other entity is refused.
    mutating func doctype() throws(RasterError) {
        i += 9
        while i < b.count, b[i] != UInt8(ascii: "[") && b[i] != UInt8(ascii: ">") {
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") { try quoted() } else { i += 1 }
        }
        guard i < b.count else { throw corrupt("the DOCTYPE does not end") }
        if b[i] == UInt8(ascii: "[") {
            i += 1
            while true {
                skipSpace()
                guard i < b.count else { throw corrupt("the DOCTYPE does not end") }
                if b[i] == UInt8(ascii: "]") { i += 1; break }
                if at("<!--") {
                    guard skip(past: "-->") else { throw corrupt("a comment does not end") }
                } else if at("<!ENTITY") {
                    i += 8
                    skipSpace()
                    if i < b.count, b[i] == UInt8(ascii: "%") { throw refuse("it declares a parameter entity") }
                    let entity = String(decoding: name(), as: UTF8.self)
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                        throw refuse("the entity \(entity) is external")
                    }
                    let value = try quoted()
                    if value.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "%") }) {
                        throw refuse("the entity \(entity) holds markup or references")
                    }
                    if value.count > 0 { try cssText(value[...], element: -1, strict: true) }
                    entities[entity] = Array(value)
                    guard skip(past: ">") else { throw corrupt("an entity declaration does not end") }
                } else if b[i] == UInt8(ascii: "<") {
                    // ELEMENT, ATTLIST, NOTATION or a processing instruction: quoted parts may
                    // hold ">". Whatever they say, no URL may hide there.
                    let start = i
                    i += 1
                    while i < b.count, b[i] != UInt8(ascii: ">") {
                        if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") { try quoted() } else { i += 1 }
                    }
                    guard i < b.count else { throw corrupt("the DOCTYPE does not end") }
                    i += 1
                    try cssText(b[start..<i], element: -1, strict: true)
                } else {
                    throw corrupt("unexpected text in the DOCTYPE")
                }
            }
            skipSpace()
        }
        guard i < b.count, b[i] == UInt8(ascii: ">") else { throw corrupt("the DOCTYPE does not end") }
        i += 1
    }

    /// A quoted string at `i` (without its quotes), `i` moved past it.
    @discardableResult
    mutating func quoted() throws(RasterError) -> ArraySlice<UInt8> {
        let quote = b[i]
        i += 1
        let start = i
        while i < b.count, b[i] != quote { i += 1 }
        guard i < b.count else { throw corrupt("a quoted value does not end") }
        i += 1
        return b[start..<(i - 1)]
    }

    /// Text with its entity and character references replaced.
    func decoded(_ raw: ArraySlice<UInt8>) throws(RasterError) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = raw.startIndex
        while k < raw.endIndex {
            guard raw[k] == UInt8(ascii: "&"), let semicolon = raw[k...].firstIndex(of: UInt8(ascii: ";")) else {
                out.append(raw[k]); k += 1; continue
            }
            let reference = raw[(k + 1)..<semicolon]
            k = semicolon + 1
            if reference.first == UInt8(ascii: "#") {
                let hex = reference.dropFirst().first.map { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") } ?? false
                let digits = String(decoding: reference.dropFirst(hex ? 2 : 1), as: UTF8.self)
                guard let value = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(value) else {
                    throw corrupt("a character reference is not a character")
                }
                out += Array(String(Character(scalar)).utf8)
                continue
            }
            switch String(decoding: reference, as: UTF8.self) {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            case let name:
                guard let value = entities[name] else { throw corrupt("the entity \(name) is not declared") }
                out += value
            }
        }
        return out
    }

    /// A start tag at `i`.
    mutating func startTag() throws(RasterError) {
        i += 1
        let qualified = name()
        guard !qualified.isEmpty else { throw corrupt("a \"<\" that starts no element") }
        let local = Self.local(qualified)
        result.elements += 1
        guard result.elements <= limits.elements else {
            throw refuse("it has more than \(limits.elements) elements")
        }
        let element = Int32(parent.count)
        parent.append(stack.last ?? -1)
        if let open = filter, element != open.element, local.starts(with: "fe".utf8),
           stack.last == open.element {
            filter!.primitives += 1
            guard filter!.primitives <= limits.filterPrimitives else {
                throw refuse("a filter has more than \(limits.filterPrimitives) primitives")
            }
        }
        let kind = String(decoding: local, as: UTF8.self)
        if kind == "filter" {
            filter = (element, 0)
            result.hasFilters = true
        }

        // Attributes.
        var selfClosing = false
        while true {
            skipSpace()
            guard i < b.count else { throw corrupt("a start tag does not end") }
            if b[i] == UInt8(ascii: ">") { i += 1; break }
            if at("/>") { i += 2; selfClosing = true; break }
            let attribute = name()
            guard !attribute.isEmpty else { throw corrupt("a start tag holds an unexpected character") }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw corrupt("an attribute without a value") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw corrupt("an attribute value without quotes")
            }
            let value = try decoded(try quoted())
            try self.attribute(Self.local(attribute), value, element: element, kind: kind)
        }
        if !selfClosing {
            if kind == "style" && styleDepth == nil { styleDepth = stack.count }
            stack.append(element)
        } else if filter?.element == element {
            filter = nil
        }
    }

    /// The properties whose value may be `url(...)` (librsvg 2.54: paint, clipping, masking,
    /// filters and markers), as attributes.
    static let urlProperties: Set<String> = ["fill", "stroke", "clip-path", "mask", "filter", "marker",
                                             "marker-start", "marker-mid", "marker-end", "style"]

    mutating func attribute(_ name: ArraySlice<UInt8>, _ value: [UInt8], element: Int32, kind: String) throws(RasterError) {
        let key = String(decoding: name, as: UTF8.self)
        switch key {
        case "id":
            ids[String(decoding: value, as: UTF8.self)] = element
        case "href":
            try href(value, element: element, kind: kind)
        case "numOctaves" where kind == "feTurbulence":
            let octaves = Double(String(decoding: value, as: UTF8.self).trimmingSpaces) ?? 0
            guard octaves <= Double(limits.turbulenceOctaves) else {
                throw refuse("an feTurbulence has \(String(decoding: value, as: UTF8.self)) octaves, "
                             + "more than \(limits.turbulenceOctaves)")
            }
        default:
            if Self.urlProperties.contains(key) { try cssText(value[...], element: element) }
        }
    }

    /// An `href` (or `xlink:href`): a reference within the document, a picture in a `data:`
    /// URL, or an address librsvg will not load.
    mutating func href(_ value: [UInt8], element: Int32, kind: String) throws(RasterError) {
        let url = Self.urlText(value[...])
        if url.first == UInt8(ascii: "#") {
            references.append((element, String(decoding: url.dropFirst(), as: UTF8.self)))
        } else if Self.hasDataScheme(url) {
            guard kind == "image" || kind == "feImage" else {
                throw refuse("a data: URL in <\(kind)>: only pictures (in <image> and <feImage>) are read")
            }
            try dataPicture(url)
        } else if kind != "a" && !url.isEmpty {
            noteExternal(url)
        }
    }

    /// What the URL parser reads of an attribute: tabs and newlines anywhere removed, control
    /// characters and spaces at either end trimmed.
    static func urlText(_ value: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var text = value.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }[...]
        while let first = text.first, first <= 0x20 { text = text.dropFirst() }
        while let last = text.last, last <= 0x20 { text = text.dropLast() }
        return text
    }

    static func hasDataScheme(_ url: ArraySlice<UInt8>) -> Bool {
        url.count >= 5 && url.prefix(5).map { $0 | 0x20 }.elementsEqual("data:".utf8)
    }

    mutating func noteExternal(_ url: ArraySlice<UInt8>) {
        result.externalCount += 1
        if result.external.count < 3 {
            let text = String(decoding: url.prefix(80), as: UTF8.self)
            result.external.append(url.count > 80 ? text + "..." : text)
        }
    }

    /// CSS text (a `style` attribute, a property given as an attribute, a style sheet, an
    /// xml-stylesheet instruction, a declaration in the DOCTYPE): escapes resolved, it may hold
    /// no `data:` at all (librsvg would load it as a document or a style sheet); its `url(#id)`
    /// references are noted (a sheet's for every element), other addresses listed as not loaded.
    mutating func cssText(_ raw: ArraySlice<UInt8>, element: Int32, sheet: Bool = false,
                          strict: Bool = false) throws(RasterError) {
        let text = Self.unescapedCSS(raw)
        var k = text.startIndex
        let lowered = text.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }
        while k + 5 <= text.count {
            if lowered[k] == UInt8(ascii: "d"), lowered[k..<k + 5].elementsEqual("data:".utf8) {
                throw refuse(strict ? "a data: URL in the DOCTYPE" : "a data: URL in a style: only pictures (in <image> and <feImage>) are read")
            }
            guard lowered[k] == UInt8(ascii: "u"), k + 4 <= text.count, lowered[k..<k + 4].elementsEqual("url(".utf8) else {
                k += 1; continue
            }
            k += 4
            var end = k
            while end < text.count, text[end] != UInt8(ascii: ")") { end += 1 }
            var url = Self.urlText(text[k..<end])
            if let q = url.first, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                url = url.dropFirst()
                if url.last == q { url = url.dropLast() }
            }
            if url.first == UInt8(ascii: "#") {
                let id = String(decoding: url.dropFirst(), as: UTF8.self)
                if sheet || element < 0 { sheetReferences.insert(id) } else { references.append((element, id)) }
            } else if !url.isEmpty {
                noteExternal(url)
            }
            k = end
        }
        // @import "name" takes a string, not url(...).
        if sheet, lowered.count >= 7 {
            var k = 0
            while k + 7 <= lowered.count {
                if lowered[k..<k + 7].elementsEqual("@import".utf8) {
                    var s = k + 7
                    while s < lowered.count, Self.isSpace(lowered[s]) { s += 1 }
                    if s < text.count, text[s] == UInt8(ascii: "\"") || text[s] == UInt8(ascii: "'") {
                        let quote = text[s]
                        var e = s + 1
                        while e < text.count, text[e] != quote { e += 1 }
                        noteExternal(text[(s + 1)..<e])
                    }
                }
                k += 1
            }
        }
    }

    /// CSS escapes resolved (`\64 ata` is `data`), so that none can hide a `data:` URL.
    static func unescapedCSS(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")) else { return Array(raw) }
        var out: [UInt8] = []
        var k = raw.startIndex
        func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case 0x30...0x39: return UInt32(c - 0x30)
            case 0x41...0x46: return UInt32(c - 0x41 + 10)
            case 0x61...0x66: return UInt32(c - 0x61 + 10)
            default: return nil
            }
        }
        while k < raw.endIndex {
            guard raw[k] == UInt8(ascii: "\\"), k + 1 < raw.endIndex else { out.append(raw[k]); k += 1; continue }
            k += 1
            if hexValue(raw[k]) != nil {
                var value: UInt32 = 0, digits = 0
                while k < raw.endIndex, digits < 6, let v = hexValue(raw[k]) { value = value * 16 + v; k += 1; digits += 1 }
                if k < raw.endIndex, isSpace(raw[k]) { k += 1 }
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                out += Array(String(Character(scalar == "\0" ? "\u{FFFD}" : scalar)).utf8)
            } else if raw[k] == 0x0A {
                k += 1
            } else {
                out.append(raw[k]); k += 1
            }
        }
        return out
    }

    // MARK: Pictures in data: URLs

    /// A `data:` URL in an `<image>` or `<feImage>`: the type it claims must be PNG or JPEG, its
    /// bytes that picture (framed reads its header), its pixels within the limit.
    mutating func dataPicture(_ url: ArraySlice<UInt8>) throws(RasterError) {
        guard let comma = url.firstIndex(of: UInt8(ascii: ",")) else { throw refuse("a data: URL without a comma") }
        let header = String(decoding: url[(url.startIndex + 5)..<comma], as: UTF8.self).lowercased()
        let parts = header.split(separator: ";").map { $0.trimmingSpaces }
        let type = parts.first ?? ""
        let expected: PictureFormat
        switch type {
        case "image/png": expected = .png
        case "image/jpeg", "image/jpg": expected = .jpeg
        default:
            throw refuse("a data: URL of type \"\(type.isEmpty ? "text/plain" : String(type.prefix(40)))\": "
                         + "only PNG and JPEG pictures are read")
        }
        var body = Self.percentDecoded(url[(comma + 1)...])
        if parts.dropFirst().contains("base64") {
            guard let bytes = Self.base64Decoded(body) else { throw refuse("a data: URL whose base64 is broken") }
            body = bytes
        }
        guard PictureFormat.sniff(body) == expected else {
            throw refuse("a data: URL of type \(type) holds no \(expected.name) picture")
        }
        let info: PictureInfo
        do { info = try Pictures.info(data: body) } catch {
            throw refuse("a \(expected.name) picture in a data: URL cannot be read (\(error))")
        }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        result.embeddedPixels = overflow ? Int.max / 4 : min(Int.max / 4, result.embeddedPixels + pixels)
        guard result.embeddedPixels <= limits.embeddedPixels else {
            throw refuse("its pictures in data: URLs have \(result.embeddedPixels) pixels, "
                         + "over the limit of \(limits.embeddedPixels)")
        }
    }

    static func percentDecoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        guard text.contains(UInt8(ascii: "%")) else { return Array(text) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var k = text.startIndex
        while k < text.endIndex {
            if text[k] == UInt8(ascii: "%"), k + 2 < text.endIndex,
               let value = UInt8(String(decoding: text[(k + 1)...(k + 2)], as: UTF8.self), radix: 16) {
                out.append(value); k += 3
            } else {
                out.append(text[k]); k += 1
            }
        }
        return out
    }

    /// Forgiving base64 (white space ignored, padding optional); nil when broken.
    static func base64Decoded(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0, padding = 0
        for c in text {
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            case 0x20, 0x09, 0x0A, 0x0C, 0x0D: continue
            default: return nil
            }
            guard padding == 0 else { return nil }
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    // MARK: References

    /// Follows every reference from the elements' tree: the instances drawn and the longest
    /// chain, without recursion (a chain may be as long as the document). A style sheet's
    /// references may apply to any element: each element is counted as drawing all of them.
    mutating func finish() throws(RasterError) -> SVGCheck {
        guard stack.isEmpty, !parent.isEmpty else { throw corrupt(parent.isEmpty ? "no element" : "the root element does not end") }
        let count = parent.count
        var edges = [[Int32]](repeating: [], count: count)
        for element in 1..<max(1, count) where parent[element] >= 0 { edges[Int(parent[element])].append(Int32(element)) }
        for (element, id) in references { if let target = ids[id] { edges[Int(element)].append(target) } }

        let cap = Int.max / 4
        var cost = [Int](repeating: 0, count: count)
        var depth = [Int](repeating: 0, count: count)
        var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 open, 2 done
        for root in 0..<count where state[root] == 0 {
            var path: [(element: Int32, edge: Int)] = [(Int32(root), 0)]
            state[root] = 1
            while let (element, edge) = path.last {
                let e = Int(element)
                if edge < edges[e].count {
                    path[path.count - 1].edge += 1
                    let t = Int(edges[e][edge])
                    // A reference back to an element still open is a cycle, which librsvg does
                    // not draw.
                    guard state[t] == 0 else { continue }
                    state[t] = 1
                    path.append((Int32(t), 0))
                    guard path.count <= limits.depth else {
                        throw refuse("elements and references nest more than \(limits.depth) deep")
                    }
                    continue
                }
                var sum = 1, deepest = 0
                for t in edges[e] where state[Int(t)] == 2 {
                    sum = min(cap, sum + cost[Int(t)])
                    deepest = max(deepest, depth[Int(t)])
                }
                cost[e] = sum
                depth[e] = deepest + 1
                state[e] = 2
                path.removeLast()
            }
        }
        var sheetCost = 0, sheetDepth = 0
        for id in sheetReferences {
            guard let target = ids[id] else { continue }
            sheetCost = min(cap, sheetCost + cost[Int(target)])
            sheetDepth = max(sheetDepth, depth[Int(target)])
        }
        let (product, overflow) = cost[0].multipliedReportingOverflow(by: 1 + sheetCost)
        result.instances = overflow ? cap : min(cap, product)
        result.depth = depth[0] + sheetDepth
        guard result.instances <= limits.instances else {
            throw refuse("its references draw \(result.instances >= cap ? "an endless number of" : String(result.instances)) "
                         + "elements, more than \(limits.instances)")
        }
        guard result.depth <= limits.depth else {
            throw refuse("elements and references nest more than \(limits.depth) deep")
        }
        return result
    }
}

private extension StringProtocol {
    /// Without spaces, tabs and line ends at either end.
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
