import FramedRaster
import FramedSystem

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
    /// The largest `font-size`, in CSS px (em and % taken at 16 px): FreeType draws no glyph
    /// over 65,535 pixels, and librsvg 2.54 panics ("assertion failed: h >= 0.0") once a size
    /// times Pango's 1,024 units overflows 32 bits (some 2,100,000 device pixels).
    package var fontSize = 100_000.0
    /// The most characters in one `<text>` element, its `<tspan>`s included: librsvg 2.54 lays
    /// out a text's characters in a time that grows faster than their number (4,000 took
    /// 1.9 s, 10,000 32 s; 5,000 copies of the wide U+FDFD 7 s).
    package var textCharacters = 4_000
    /// The most characters of text in the document (10,000 texts of 11 characters took 6 s).
    package var documentCharacters = 100_000
    /// The most work Cairo's tessellator may do for the document's paths (`SVGPathWork`: a
    /// crossing of two edges counts 1): 8 million is some 8 seconds.
    package var pathWork = 8_000_000.0
    /// The most pixels the filters may work on, all told (`SVGCheck.filterWeight` passes over
    /// the area drawn): a Gaussian blur of an 8000x8000 drawing took 28 s and 1.5 GB. A
    /// quarter of the pixel limit.
    package var filterPixels = 64_000_000
    /// The largest kernel of an `feConvolveMatrix`, in cells (each a multiplication per pixel).
    package var convolveCells = 256
    /// The most stops in one gradient: Cairo's gradients cost each pixel more with each stop
    /// (100,000 stops over a million pixels took 41 s, 10,000 1.5 s).
    package var gradientStops = 10_000
    /// The most dashes a dashed stroke may cut its path into (a line of 14 million units in
    /// dashes of 0.01 took 13 s and 930 MB; 1.4 million dashes 0.6 s).
    package var dashes = 10_000_000.0
    /// The private memory of a sandbox's child (`SVGSandbox`), when not worked out from the
    /// document and the area it draws.
    package var childMemory: Int?

    /// The standard limits, pictures in `data:` URLs held to `maxPixels` and filters to a
    /// quarter of it.
    package init(maxPixels: Int = 256_000_000) {
        embeddedPixels = maxPixels
        filterPixels = max(1, maxPixels / 4)
    }
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
/// - more elements, instances or depth than the limits, and filters beyond them;
/// - work that a few bytes can ask of librsvg and Cairo: font sizes, characters of text, path
///   crossings (`SVGPathWork`), dashes, gradient stops, convolution kernels, and a `data:`
///   picture's work as framed's own decoder counts it (a progressive JPEG's scans). Filters are
///   weighed here (`filterWeight`) and refused once the area they cover is known
///   (`SVGDocument.checkFilters`).
///
/// Noncharacters in text are replaced in what librsvg reads (`sanitized`); negative font
/// sizes are noted for a warning (`notes`).
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
    /// The passes the filters make over the area they filter, all told: for each element that
    /// names a filter, the filter's primitives (a blur counts 2, an `feConvolveMatrix` its
    /// cells, an `feTurbulence` its octaves, others 1).
    package var filterWeight = 0.0
    /// The `feMorphology` radii (x plus y, in user units) of those filters: each pixel looks at
    /// that many more pixels, in device pixels.
    package var filterRadius = 0.0
    /// The characters of text.
    package var textCharacters = 0
    /// The tessellator's work for the paths (`SVGPathWork`).
    package var pathWork = 0.0
    /// What the document holds that librsvg reads otherwise than CSS: negative font sizes
    /// (ignored, as CSS ignores them). One line each, for a warning.
    package var notes: [String] = []
    /// Where the bytes need another character before librsvg reads them (`sanitized`).
    var replacements: [Replacement] = []

    /// Bytes replaced: `range` of the document by `bytes`.
    struct Replacement: Sendable, Equatable {
        var range: Range<Int>
        var bytes: [UInt8]
    }

    /// The document as librsvg is given it: the noncharacters in its text (U+FDD0 to U+FDEF and
    /// the last two code points of each plane, as characters or references) replaced by U+FFFD.
    /// Cairo refuses a PDF's text that holds one ("invalid string"), which would fail the whole
    /// output; XML allows most of them.
    package func sanitized(_ bytes: [UInt8]) -> [UInt8] {
        guard !replacements.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var at = 0
        for replacement in replacements {
            out += bytes[at..<replacement.range.lowerBound]
            out += replacement.bytes
            at = replacement.range.upperBound
        }
        out += bytes[at...]
        return out
    }
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
    /// The font size of each open element in CSS px, as it inherits (em and % of the
    /// parent's), and the size the element being read sets.
    var fontSizes: [Double] = []
    var elementFontSize: Double?
    /// Inside `<text>`: its depth, and the characters counted so far.
    var textDepth: Int?
    var textCharacters = 0
    /// The gradient being read, and its stops so far.
    var gradient: (element: Int32, stops: Int)?
    /// The dashes of dashed strokes so far.
    var dashes = 0.0
    /// The filter primitives' weights and radii, by the `<filter>` element's index.
    var filterWeights: [Int32: (weight: Double, radius: Double)] = [:]
    /// (element, filter id) for each element that names a filter.
    var filterUses: [(Int32, String)] = []

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
                if textDepth != nil { try characters(start..<i, raw: false) }
                continue
            }
            if at("<!--") {
                guard skip(past: "-->") else { throw corrupt("a comment does not end") }
            } else if at("<![CDATA[") {
                i += 9
                let start = i
                guard skip(past: "]]>") else { throw corrupt("a CDATA section does not end") }
                if styleDepth != nil { text += b[start..<(i - 3)] }
                if textDepth != nil { try characters(start..<(i - 3), raw: true) }
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
                fontSizes.removeLast()
                if styleDepth == stack.count {
                    styleDepth = nil
                    try declarations(text[...], element: -1)
                    try cssText(text[...], element: -1, sheet: true)
                    text = []
                }
                if textDepth == stack.count { textDepth = nil }
                if filter?.element == element { filter = nil }
                if gradient?.element == element { gradient = nil }
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
        elementFontSize = nil
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

        // Attributes (those the checks below read are kept).
        var selfClosing = false
        var attributes: [String: [UInt8]] = [:]
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
            let name = Self.local(attribute)
            try self.attribute(name, value, element: element, kind: kind)
            let key = String(decoding: name, as: UTF8.self)
            if Self.keptAttributes.contains(key) { attributes[key] = value }
        }
        if let open = filter, open.element != element, stack.last == open.element, kind.hasPrefix("fe") {
            try primitive(kind, attributes, filter: open.element)
        }
        if attributes["d"] != nil || attributes["points"] != nil { try path(kind, attributes) }
        try dashes(kind, attributes)
        if kind == "stop", let open = gradient, stack.last == open.element {
            gradient!.stops += 1
            guard gradient!.stops <= limits.gradientStops else {
                throw refuse("a gradient has more than \(limits.gradientStops) stops")
            }
        }
        if (kind == "linearGradient" || kind == "radialGradient") && !selfClosing { gradient = (element, 0) }
        if !selfClosing {
            if kind == "style" && styleDepth == nil { styleDepth = stack.count }
            if kind == "text" && textDepth == nil {
                textDepth = stack.count
                textCharacters = 0
            }
            stack.append(element)
            fontSizes.append(elementFontSize ?? fontSizes.last ?? 16)
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
        case "font-size":
            try fontSize(String(decoding: value, as: UTF8.self), own: true)
        case "filter":
            try filterUse(value[...], element: element)
            try cssText(value[...], element: element)
        case "numOctaves" where kind == "feTurbulence":
            let octaves = Double(String(decoding: value, as: UTF8.self).trimmingSpaces) ?? 0
            guard octaves <= Double(limits.turbulenceOctaves) else {
                throw refuse("an feTurbulence has \(String(decoding: value, as: UTF8.self)) octaves, "
                             + "more than \(limits.turbulenceOctaves)")
            }
        case "style":
            try declarations(value[...], element: element)
            try cssText(value[...], element: element)
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

    // MARK: Work: text, fonts, paths, filters

    /// The attributes the checks of text, paths and filters read once the tag is whole.
    static let keptAttributes: Set<String> = ["d", "points", "stroke", "style", "radius", "order", "kernelMatrix",
                                              "numOctaves", "stroke-dasharray", "x1", "y1", "x2", "y2", "r", "rx", "ry",
                                              "width", "height"]

    /// A dashed stroke's dashes: the outline's length (a path's or a shape's; a curve's control
    /// polygon) over the dash pattern's period, times the pattern's dashes; refused over
    /// `limits.dashes` all told.
    mutating func dashes(_ kind: String, _ attributes: [String: [UInt8]]) throws(RasterError) {
        var pattern = attributes["stroke-dasharray"].map { String(decoding: $0, as: UTF8.self) }
        if let style = attributes["style"] {
            let text = String(decoding: style, as: UTF8.self)
            for declaration in text.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces.lowercased() == "stroke-dasharray" { pattern = String(parts[1]) }
            }
        }
        guard let pattern, !pattern.contains(Character("%")) else { return }
        var scanner = NumberScanner(Array(pattern.utf8)[...])
        var values: [Double] = []
        while let n = scanner.number() { values.append(n) }
        guard !values.isEmpty, values.allSatisfy({ $0 >= 0 }) else { return }
        let period = values.reduce(0, +) * (values.count % 2 == 1 ? 2 : 1)
        guard period > 0 else { return }
        func number(_ name: String) -> Double {
            guard let value = attributes[name] else { return 0 }
            var scanner = NumberScanner(value[...])
            return abs(scanner.number() ?? 0)
        }
        let length: Double
        switch kind {
        case "path":
            guard let data = attributes["d"] else { return }
            length = SVGPathWork(pathData: data[...]).length
        case "polyline", "polygon":
            guard let points = attributes["points"] else { return }
            length = SVGPathWork(points: points[...], closed: kind == "polygon").length
        case "line": length = ((number("x2") - number("x1")) * (number("x2") - number("x1"))
                               + (number("y2") - number("y1")) * (number("y2") - number("y1"))).squareRoot()
        case "rect": length = 2 * (number("width") + number("height"))
        case "circle": length = 2 * Double.pi * number("r")
        case "ellipse": length = 2 * Double.pi * max(number("rx"), number("ry"))
        default: return
        }
        let count = length / period * Double(values.count * (values.count % 2 == 1 ? 2 : 1))
        dashes += count.isFinite ? count : .infinity
        guard dashes <= limits.dashes else {
            throw refuse("its dashed strokes would have \(Self.millions(dashes)) million dashes, more than "
                         + "\(Self.millions(limits.dashes)) million")
        }
    }

    /// Character data inside a `<text>` (`raw`: CDATA, without references): counted, and its
    /// noncharacters noted for replacement.
    mutating func characters(_ range: Range<Int>, raw: Bool) throws(RasterError) {
        var k = range.lowerBound
        var count = 0
        while k < range.upperBound {
            let c = b[k]
            if !raw && c == UInt8(ascii: "&"), let end = b[k..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) {
                let reference = b[(k + 1)..<end]
                if reference.first == UInt8(ascii: "#") {
                    let hex = reference.dropFirst().first.map { $0 | 0x20 == UInt8(ascii: "x") } ?? false
                    if let value = UInt32(String(decoding: reference.dropFirst(hex ? 2 : 1), as: UTF8.self), radix: hex ? 16 : 10),
                       Self.isNoncharacter(value) {
                        result.replacements.append(.init(range: k..<(end + 1), bytes: Array("&#xFFFD;".utf8)))
                    }
                } else if let value = entities[String(decoding: reference, as: UTF8.self)] {
                    count += String(decoding: value, as: UTF8.self).unicodeScalars.count - 1
                }
                count += 1
                k = end + 1
                continue
            }
            let length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            if length > 1, k + length <= range.upperBound,
               let scalar = String(decoding: b[k..<(k + length)], as: UTF8.self).unicodeScalars.first,
               Self.isNoncharacter(scalar.value) {
                result.replacements.append(.init(range: k..<(k + length), bytes: [0xEF, 0xBF, 0xBD]))
            }
            if c < 0x80 || c >= 0xC0 { count += 1 }
            k += length
        }
        textCharacters += count
        result.textCharacters += count
        guard textCharacters <= limits.textCharacters else {
            throw refuse("a <text> has more than \(limits.textCharacters) characters")
        }
        guard result.textCharacters <= limits.documentCharacters else {
            throw refuse("it has more than \(limits.documentCharacters) characters of text")
        }
    }

    /// U+FDD0 to U+FDEF, and U+xFFFE and U+xFFFF of every plane.
    static func isNoncharacter(_ value: UInt32) -> Bool {
        (value >= 0xFDD0 && value <= 0xFDEF) || (value & 0xFFFE == 0xFFFE && value <= 0x10FFFF)
    }

    /// CSS declarations (a `style` attribute, a style sheet): their font sizes.
    mutating func declarations(_ raw: ArraySlice<UInt8>, element: Int32) throws(RasterError) {
        let text = String(decoding: Self.unescapedCSS(raw), as: UTF8.self)
        for declaration in text.split(whereSeparator: { $0 == ";" || $0 == "{" || $0 == "}" }) {
            let parts = declaration.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let property = parts[0].trimmingSpaces.lowercased()
            if property == "font-size" {
                try fontSize(String(parts[1]), own: element >= 0)
            } else if property == "font" {
                // The shorthand's size is its first word that starts with a digit, a sign or a dot.
                let words = parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "/" })
                if let size = words.first(where: { $0.first.map { "0123456789+-.".contains($0) } ?? false }) {
                    try fontSize(String(size), own: element >= 0)
                }
            } else if property == "filter", element >= 0 {
                try filterUse(Array(parts[1].utf8)[...], element: element)
            }
        }
    }

    /// A font size as CSS writes it: refused over `limits.fontSize` px, em and % taken of the
    /// parent's size (`own`: the element's own, which its children inherit) or of 16 px (a
    /// style sheet's); a negative one noted (CSS ignores it; librsvg hands it to Pango, which
    /// complains and keeps its own).
    mutating func fontSize(_ text: String, own: Bool) throws(RasterError) {
        let parent = own ? fontSizes.last ?? 16 : 16
        let value = text.trimmingSpaces.lowercased().replacingImportant
        var number = Substring(value)
        var unit = ""
        while let last = number.last, last.isLetter || last == "%" {
            unit = String(last) + unit
            number = number.dropLast()
        }
        guard !number.isEmpty, let size = Double(number) else { return }  // a keyword (large, inherit...)
        let pixels: Double
        switch unit {
        case "pt": pixels = size * 96 / 72
        case "pc": pixels = size * 16
        case "in": pixels = size * 96
        case "cm": pixels = size * 96 / 2.54
        case "mm": pixels = size * 96 / 25.4
        case "q": pixels = size * 96 / 101.6
        case "em", "ex", "ch": pixels = size * parent
        case "rem": pixels = size * 16
        case "%": pixels = size * parent / 100
        default: pixels = size
        }
        if own, pixels > 0 { elementFontSize = pixels }
        guard pixels.isFinite, pixels <= limits.fontSize else {
            throw refuse("a font-size of \(String(text.trimmingSpaces.prefix(40))) is over \(Int(limits.fontSize)) px")
        }
        if pixels < 0, result.notes.count < 3 {
            result.notes.append("a negative font-size (\(String(text.trimmingSpaces.prefix(40)))) is ignored")
        }
    }

    /// `url(#id)` in a filter property: the element uses that filter.
    mutating func filterUse(_ value: ArraySlice<UInt8>, element: Int32) throws(RasterError) {
        let text = String(decoding: Self.unescapedCSS(value), as: UTF8.self)
        guard let open = text.firstOccurrence(of: "url("), let close = text[open.upperBound...].firstIndex(of: ")") else { return }
        var id = text[open.upperBound..<close].trimmingSpaces
        if let q = id.first, q == "\"" || q == "'" { id = String(id.dropFirst().dropLast(id.last == q ? 1 : 0)) }
        if id.hasPrefix("#") { filterUses.append((element, String(id.dropFirst()))) }
    }

    /// A filter primitive: its weight (passes over the filtered area) and radius.
    mutating func primitive(_ kind: String, _ attributes: [String: [UInt8]], filter: Int32) throws(RasterError) {
        func numbers(_ name: String) -> [Double] {
            guard let value = attributes[name] else { return [] }
            var scanner = NumberScanner(value[...])
            var out: [Double] = []
            while let n = scanner.number() { out.append(n) }
            return out
        }
        var weight = 1.0, radius = 0.0
        switch kind {
        case "feGaussianBlur": weight = 2
        case "feDropShadow": weight = 4
        case "feDiffuseLighting", "feSpecularLighting": weight = 2
        case "feTurbulence": weight = max(1, numbers("numOctaves").first ?? 1)
        case "feMorphology":
            let r = numbers("radius")
            let rx = abs(r.first ?? 0), ry = abs(r.count > 1 ? r[1] : r.first ?? 0)
            guard rx.isFinite, ry.isFinite else { throw refuse("an feMorphology radius is not a number") }
            radius = rx + ry
        case "feConvolveMatrix":
            let order = numbers("order")
            let ox = order.first ?? 3, oy = order.count > 1 ? order[1] : ox
            let cells = ox * oy
            guard cells.isFinite, cells <= Double(limits.convolveCells) else {
                throw refuse("an feConvolveMatrix of order \(String(printf: "%g", ox))x\(String(printf: "%g", oy)) "
                             + "is over \(limits.convolveCells) cells")
            }
            // librsvg 2.54 panics on a kernel whose size is not the order's; SVG makes it an error.
            if ox >= 1, oy >= 1, ox == ox.rounded(), oy == oy.rounded(), numbers("kernelMatrix").count != Int(cells) {
                throw refuse("an feConvolveMatrix kernel does not have order \(Int(ox))x\(Int(oy))'s \(Int(cells)) numbers")
            }
            weight = max(1, cells)
        default: break
        }
        let sum = filterWeights[filter] ?? (0, 0)
        filterWeights[filter] = (sum.weight + weight, sum.radius + radius)
    }

    /// A path's or a shape's points: the tessellator's work, all told.
    mutating func path(_ kind: String, _ attributes: [String: [UInt8]]) throws(RasterError) {
        let work: SVGPathWork
        if kind == "path", let d = attributes["d"] {
            work = SVGPathWork(pathData: d[...])
        } else if kind == "polyline" || kind == "polygon", let points = attributes["points"] {
            work = SVGPathWork(points: points[...], closed: kind == "polygon")
        } else {
            return
        }
        var stroked = false
        if let stroke = attributes["stroke"] { stroked = String(decoding: stroke, as: UTF8.self).trimmingSpaces != "none" }
        if let style = attributes["style"] {
            let text = String(decoding: style, as: UTF8.self).lowercased()
            if let range = text.firstOccurrence(of: "stroke:") {
                stroked = !text[range.upperBound...].trimmingSpaces.hasPrefix("none")
            }
        }
        result.pathWork += work.work(stroked: stroked)
        guard result.pathWork <= limits.pathWork else {
            throw refuse("its paths cross themselves too often to draw in time (about \(Self.millions(result.pathWork)) "
                         + "million crossings, more than \(Self.millions(limits.pathWork)) million)")
        }
    }

    static func millions(_ value: Double) -> String { SVGScannerText.millions(value) }

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
        do {
            info = try Pictures.info(data: body)
            try Pictures.checkWork(data: body, maxPixels: limits.embeddedPixels)
        } catch {
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
        for (_, id) in filterUses {
            guard let target = ids[id], let filter = filterWeights[target] else { continue }
            result.filterWeight += filter.weight
            result.filterRadius += filter.radius
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

private extension String {
    /// Without a trailing `!important`.
    var replacingImportant: String {
        guard let bang = firstIndex(of: "!") else { return self }
        return String(self[..<bang]).trimmingSpaces
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

/// Numbers in the check's messages.
enum SVGScannerText {
    /// `value` in millions: one decimal under ten, whole beyond.
    static func millions(_ value: Double) -> String {
        let m = value / 1e6
        return m < 10 ? String(printf: "%.1f", m) : m < 1e12 ? String(Int(m)) : String(printf: "%.3g", m)
    }
}
