import FramedSystem

/// An XML document's well-formedness checked byte by byte, independently of the code that wrote
/// it (XML 1.0, as far as an SVG or an XMP packet uses it): UTF-8 of XML's characters only; an
/// optional declaration, then one root element with comments, processing instructions and white
/// space around it; start and end tags that match and nest; attribute values quoted, without `<`,
/// each name once per element; `&` only in a character reference to a character XML allows or a
/// predefined entity reference; comments without `--`; CDATA sections and processing
/// instructions closed; no DOCTYPE (framed writes none, and one could declare entities). With
/// `references`, for SVG: each `id` once, and each local reference (`href="#…"`,
/// `xlink:href="#…"`, `url(#…)` in any attribute) naming one of them. For the fuzz targets, and
/// for tests that break a file on purpose.
package enum XMLStructure {
    /// nil when `xml` is well formed (and its references resolve), else the first thing found
    /// wrong, with its byte offset.
    package static func problem(in xml: [UInt8], references: Bool = false) -> String? {
        var checker = Checker(xml: xml)
        do throws(Failure) {
            try checker.document()
            if references { try checker.resolve() }
            return nil
        } catch {
            return error.text
        }
    }

    /// The XMP packet in `pdf` (`<?xpacket begin` to the end of `<?xpacket end="w"?>` or
    /// `end="r"`), which a PDF/X keeps uncompressed; nil when there is none.
    package static func xmpPacket(in pdf: [UInt8]) -> [UInt8]? {
        guard let start = pdf.firstRange(of: Array("<?xpacket begin".utf8), in: pdf.indices),
              let end = pdf.firstRange(of: Array("<?xpacket end=".utf8), in: start.lowerBound..<pdf.count),
              let close = pdf.firstRange(of: Array("?>".utf8), in: end.lowerBound..<pdf.count) else { return nil }
        return Array(pdf[start.lowerBound..<close.upperBound])
    }

    struct Failure: Error { var text: String }

    struct Checker {
        let xml: [UInt8]
        var i = 0
        var ids: Set<[UInt8]> = []
        var wanted: [(id: [UInt8], at: Int)] = []

        init(xml: [UInt8]) { self.xml = xml }

        func fail(_ text: String, at offset: Int? = nil) -> Failure { Failure(text: "\(text) (byte \(offset ?? i))") }

        func at(_ text: String) -> Bool { xml[i...].starts(with: text.utf8) }

        mutating func document() throws(Failure) {
            try characters()
            if at("\u{FEFF}") { i += 3 }
            if at("<?xml") && !at("<?xml-") { try instruction() }
            var roots = 0
            while true {
                skipSpace()
                guard i < xml.count else { break }
                if at("<!--") { try comment() }
                else if at("<?") { try instruction() }
                else if at("<!DOCTYPE") { throw fail("a DOCTYPE") }
                else if xml[i] == UInt8(ascii: "<") {
                    guard roots == 0 else { throw fail("a second root element") }
                    roots += 1
                    try element()
                } else {
                    throw fail("text outside the root element")
                }
            }
            guard roots == 1 else { throw fail("no root element") }
        }

        /// Every byte sequence valid UTF-8, every character one XML allows (XML 1.0, 2.2).
        func characters() throws(Failure) {
            var k = 0
            while k < xml.count {
                let b = xml[k]
                if b < 0x80 {
                    guard b >= 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { throw fail("control character \(b)", at: k) }
                    k += 1
                    continue
                }
                let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
                guard length > 0, b < 0xF5, k + length <= xml.count else { throw fail("bad UTF-8", at: k) }
                var scalar = UInt32(b) & (0xFF >> (length + 1))
                for c in xml[(k + 1)..<(k + length)] {
                    guard c & 0xC0 == 0x80 else { throw fail("bad UTF-8", at: k) }
                    scalar = scalar << 6 | UInt32(c & 0x3F)
                }
                let least: UInt32 = [0, 0, 0x80, 0x800, 0x10000][length]
                guard scalar >= least, scalar <= 0x10FFFF, Self.allowed(scalar) else { throw fail("bad UTF-8 or character", at: k) }
                k += length
            }
        }

        static func allowed(_ c: UInt32) -> Bool {
            c == 0x9 || c == 0xA || c == 0xD || (0x20...0xD7FF).contains(c) || (0xE000...0xFFFD).contains(c)
                || (0x10000...0x10FFFF).contains(c)
        }

        mutating func skipSpace() {
            while i < xml.count, [0x20, 0x09, 0x0A, 0x0D].contains(xml[i]) { i += 1 }
        }

        mutating func comment() throws(Failure) {
            let start = i
            i += 4
            while i < xml.count {
                if at("--") {
                    guard at("-->") else { throw fail("-- inside a comment") }
                    i += 3
                    return
                }
                i += 1
            }
            throw fail("a comment not closed", at: start)
        }

        mutating func instruction() throws(Failure) {
            let start = i
            i += 2
            guard name() != nil else { throw fail("a processing instruction without a target") }
            while i < xml.count {
                if at("?>") { i += 2; return }
                i += 1
            }
            throw fail("a processing instruction not closed", at: start)
        }

        /// A name (ASCII letters, digits, `_ : - .`, and any non-ASCII character; not starting
        /// with a digit, `-` or `.`), or nil.
        mutating func name() -> [UInt8]? {
            let start = i
            while i < xml.count {
                let b = xml[i]
                let letter = (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x5F || b == 0x3A || b >= 0x80
                let other = (0x30...0x39).contains(b) || b == 0x2D || b == 0x2E
                guard letter || (other && i > start) else { break }
                i += 1
            }
            return i > start ? Array(xml[start..<i]) : nil
        }

        /// An element from its `<` to past its end tag (or `/>`), with everything inside.
        mutating func element() throws(Failure) {
            var open: [[UInt8]] = []
            repeat {
                if at("</") {
                    let start = i
                    i += 2
                    guard let name = name() else { throw fail("an end tag without a name") }
                    skipSpace()
                    guard i < xml.count, xml[i] == UInt8(ascii: ">") else { throw fail("an end tag not closed") }
                    i += 1
                    guard let last = open.popLast() else { throw fail("an end tag with no start tag", at: start) }
                    guard last == name else {
                        throw fail("</\(String(decoding: name, as: UTF8.self))> closes <\(String(decoding: last, as: UTF8.self))>", at: start)
                    }
                } else if at("<!--") {
                    try comment()
                } else if at("<![CDATA[") {
                    let start = i
                    guard let end = xml.firstRange(of: Array("]]>".utf8), in: i..<xml.count) else {
                        throw fail("a CDATA section not closed", at: start)
                    }
                    i = end.upperBound
                } else if at("<?") {
                    try instruction()
                } else if at("<!") {
                    throw fail("a declaration inside an element")
                } else if xml[i] == UInt8(ascii: "<") {
                    if let name = try startTag() { open.append(name) }
                } else {
                    try text()
                }
                guard i < xml.count || open.isEmpty else {
                    throw fail("<\(String(decoding: open.last!, as: UTF8.self))> not closed")
                }
            } while !open.isEmpty
        }

        /// A start tag; its name when it is not empty (`/>`).
        mutating func startTag() throws(Failure) -> [UInt8]? {
            i += 1
            guard let element = name() else { throw fail("a < not starting a tag") }
            var names: Set<[UInt8]> = []
            while true {
                let spaced = i
                skipSpace()
                guard i < xml.count else { throw fail("a start tag not closed") }
                if at("/>") { i += 2; return nil }
                if xml[i] == UInt8(ascii: ">") { i += 1; return element }
                guard i > spaced else { throw fail("no space before an attribute") }
                let nameAt = i
                guard let attribute = name() else { throw fail("an attribute without a name") }
                guard names.insert(attribute).inserted else {
                    throw fail("the attribute \(String(decoding: attribute, as: UTF8.self)) twice", at: nameAt)
                }
                skipSpace()
                guard i < xml.count, xml[i] == UInt8(ascii: "=") else { throw fail("an attribute without a value") }
                i += 1
                skipSpace()
                guard i < xml.count, xml[i] == UInt8(ascii: "\"") || xml[i] == UInt8(ascii: "'") else {
                    throw fail("an attribute value without quotes")
                }
                let quote = xml[i]
                i += 1
                let valueStart = i
                while i < xml.count, xml[i] != quote {
                    if xml[i] == UInt8(ascii: "<") { throw fail("< in an attribute value") }
                    if xml[i] == UInt8(ascii: "&") { try reference() } else { i += 1 }
                }
                guard i < xml.count else { throw fail("an attribute value not closed", at: valueStart) }
                note(attribute, value: Array(xml[valueStart..<i]), at: valueStart)
                i += 1
            }
        }

        /// Character data up to the next `<`.
        mutating func text() throws(Failure) {
            while i < xml.count, xml[i] != UInt8(ascii: "<") {
                if at("]]>") { throw fail("]]> in text") }
                if xml[i] == UInt8(ascii: "&") { try reference() } else { i += 1 }
            }
        }

        /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` or `&#xH;` naming a character XML
        /// allows.
        mutating func reference() throws(Failure) {
            let start = i
            i += 1
            guard let semicolon = xml[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { throw fail("& not starting a reference") }
            let body = String(decoding: xml[i..<semicolon], as: UTF8.self)
            i = semicolon + 1
            if ["amp", "lt", "gt", "quot", "apos"].contains(body) { return }
            let digits = body.hasPrefix("#x") ? body.dropFirst(2) : body.hasPrefix("#") ? body.dropFirst() : nil
            guard let digits, !digits.isEmpty, digits.allSatisfy({ body.hasPrefix("#x") ? $0.isHexDigit : $0.isNumber && $0.isASCII }),
                  let value = UInt32(digits, radix: body.hasPrefix("#x") ? 16 : 10), Self.allowed(value) else {
                throw fail("the reference &\(body); is not one XML knows", at: start)
            }
        }

        /// An `id`, or the ids a value refers to.
        mutating func note(_ attribute: [UInt8], value: [UInt8], at offset: Int) {
            if attribute == Array("id".utf8) {
                if !ids.insert(value).inserted { wanted.append((Array("the id ".utf8) + value, -offset - 1)) }
                return
            }
            if attribute == Array("href".utf8) || attribute == Array("xlink:href".utf8), value.first == UInt8(ascii: "#") {
                wanted.append((Array(value.dropFirst()), offset))
            }
            var from = 0
            while let url = value.firstRange(of: Array("url(#".utf8), in: from..<value.count) {
                let end = value.firstIndex(of: UInt8(ascii: ")"), in: url.upperBound..<value.count) ?? value.count
                wanted.append((Array(value[url.upperBound..<end]), offset + url.lowerBound))
                from = end
            }
        }

        /// Every id once, every reference to one that is there.
        func resolve() throws(Failure) {
            for (id, offset) in wanted {
                if offset < 0 { throw fail("\(String(decoding: id, as: UTF8.self)) twice", at: -offset - 1) }
                guard ids.contains(id) else { throw fail("a reference to #\(String(decoding: id, as: UTF8.self)), which no element has", at: offset) }
            }
        }
    }
}
