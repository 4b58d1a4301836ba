import FramedSystem

/// The last look at a PDF that Cairo wrote, for numbers no reader takes: `nan` or `inf` where a
/// number goes, or one of 2^31 or more (Cairo writes a large number as an integer, and a PDF
/// reader's integers stop there: qpdf refuses the file). framed's own drawing never hands Cairo
/// such a number (`CairoNumbers`); librsvg draws an SVG picture with calls of its own, and an
/// SVG's `stroke-width="1e30"` came out as a 30-digit line width. Every dictionary is read, and
/// every stream of drawing operators (pages, forms, patterns, glyphs) inflated and read; the
/// streams of pictures, sampled functions, profiles, font programs and metadata are data, not
/// numbers, and are left alone.
enum PDFNumbers {
    /// The largest magnitude taken: 2^31 - 1, the integers of PDF's implementation limits.
    static let limit = 2_147_483_647.0

    /// The most a stream may inflate to here; one that inflates to more (or does not inflate)
    /// is not read: Cairo writes only good streams, the check is for numbers.
    static let inflateLimit = 256 << 20

    /// The first token of `pdf` that is not a number a reader takes, or nil when there is none
    /// (and when the file is not laid out as Cairo writes it: nothing is assumed then).
    static func firstUnusable(in pdf: [UInt8]) -> String? {
        guard let file = PDFCompaction.CairoPDF(pdf) else { return nil }
        for object in file.objects {
            let body = pdf[object.body]
            guard let streamStart = streamData(body) else {
                if let bad = firstUnusable(tokensOf: body) { return bad }
                continue
            }
            let dictionary = body[body.startIndex..<streamStart.keyword]
            if let bad = firstUnusable(tokensOf: dictionary) { return bad }
            guard isDrawing(dictionary), let end = PDFCompaction.Syntax.lastRange(of: "endstream", in: pdf, before: object.body.upperBound),
                  end.lowerBound >= streamStart.data else { continue }
            let data = pdf[streamStart.data..<end.lowerBound]
            let flate = dictionary.firstOccurrence(of: Array("/FlateDecode".utf8)) != nil
            guard flate, Memory.available(inflateLimit / 4) || data.count < 1 << 20,
                  let operators = Zlib.decompress(data, limit: inflateLimit) else {
                if !flate, let bad = firstUnusable(tokensOf: data) { return bad }
                continue
            }
            if let bad = firstUnusable(tokensOf: operators[...]) { return bad }
        }
        return nil
    }

    /// Where `stream` starts in an object's body (right after its dictionary, as Cairo writes
    /// it), and its data after the end of line; nil for an object without a stream.
    static func streamData(_ body: ArraySlice<UInt8>) -> (keyword: Int, data: Int)? {
        guard PDFCompaction.Syntax.hasStream(body) else { return nil }
        var i = body.startIndex
        while let found = body[i...].firstOccurrence(of: Array("stream".utf8)) {
            let at = found.lowerBound
            if at > body.startIndex, PDFCompaction.Syntax.isWhite(body[at - 1]) || body[at - 1] == UInt8(ascii: ">") {
                var data = found.upperBound
                if data < body.endIndex, body[data] == 0x0D { data += 1 }
                if data < body.endIndex, body[data] == 0x0A { data += 1 }
                return (at, data)
            }
            i = found.upperBound
        }
        return nil
    }

    /// Whether a stream with this dictionary holds drawing operators: not a picture or any other
    /// subtype than a form, not a sampled function, an ICC profile, a font program or metadata.
    static func isDrawing(_ dictionary: ArraySlice<UInt8>) -> Bool {
        func has(_ text: String) -> Bool { dictionary.firstOccurrence(of: Array(text.utf8)) != nil }
        if has("/Subtype") && !has("/Subtype /Form") { return false }
        return !(has("/FunctionType 0") || has("/N ") || has("/Length1") || has("/Length2") || has("/Type /Metadata")
                 || has("/Type /XRef") || has("/Type /ObjStm"))
    }

    /// The first number token in PDF syntax (strings, hex strings, names and comments skipped,
    /// an inline image's data too) that is `nan`, `inf` or 2^31 or more in magnitude.
    static func firstUnusable(tokensOf bytes: ArraySlice<UInt8>) -> String? {
        let isWhite = PDFCompaction.Syntax.isWhite
        func isDelimiter(_ b: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(b) }
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if isWhite(b) { i += 1; continue }
            switch b {
            case UInt8(ascii: "("): i = PDFCompaction.Syntax.skipString(bytes, from: i); continue
            case UInt8(ascii: "%"):
                while i < bytes.endIndex, bytes[i] != 0x0A, bytes[i] != 0x0D { i += 1 }
                continue
            case UInt8(ascii: "<"):
                if i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "<") { i += 2; continue }
                while i < bytes.endIndex, bytes[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                continue
            case UInt8(ascii: "/"):
                i += 1
                while i < bytes.endIndex, !isWhite(bytes[i]), !isDelimiter(bytes[i]) { i += 1 }
                continue
            default:
                if isDelimiter(b) { i += 1; continue }
            }
            let start = i
            while i < bytes.endIndex, !isWhite(bytes[i]), !isDelimiter(bytes[i]) { i += 1 }
            let token = bytes[start..<i]
            if token.elementsEqual("ID".utf8) {
                // An inline image's data, up to `EI` between white space.
                i += 1
                while i + 2 < bytes.endIndex,
                      !(isWhite(bytes[i]) && bytes[i + 1] == UInt8(ascii: "E") && bytes[i + 2] == UInt8(ascii: "I")
                        && (i + 3 == bytes.endIndex || isWhite(bytes[i + 3]) || isDelimiter(bytes[i + 3]))) { i += 1 }
                i += 3
                continue
            }
            if let bad = unusable(token) { return bad }
        }
        return nil
    }

    /// The token as a message shows it when it is a number a reader does not take.
    static func unusable(_ token: ArraySlice<UInt8>) -> String? {
        var digits = token[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { digits = digits.dropFirst() }
        let word = String(decoding: digits.prefix(8), as: UTF8.self).lowercased()
        if word == "nan" || word == "inf" || word == "infinity" { return String(decoding: token, as: UTF8.self) }
        guard let first = digits.first, (0x30...0x39).contains(first) || first == UInt8(ascii: ".") else { return nil }
        let whole = digits.prefix { $0 != UInt8(ascii: ".") }
        guard whole.count >= 10, whole.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let significant = whole.drop { $0 == UInt8(ascii: "0") }
        guard significant.count > 10 || (significant.count == 10 && Double(String(decoding: significant, as: UTF8.self))! > limit)
        else { return nil }
        let text = String(decoding: token, as: UTF8.self)
        return text.count <= 40 ? text : String(text.prefix(39)) + "…"
    }
}
