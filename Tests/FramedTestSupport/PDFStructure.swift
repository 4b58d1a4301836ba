import CCodecs

/// A PDF's structure checked byte by byte, independently of the code that wrote it: the header
/// and `%%EOF`, `startxref`, the cross-reference table or stream, every object where the table
/// says it is (`N G obj` … `endobj`, the offset on its first digit), each stream's `/Length` landing on `endstream`, each
/// FlateDecode stream inflating whole, each object in an object stream listed in its header,
/// the trailer's `/Root`, and no number written as `nan` or `inf` in any dictionary, content
/// stream or form. For the fuzz targets, where qpdf is too slow to run on every input, and for
/// tests that corrupt a file on purpose.
package enum PDFStructure {
    /// nil when `pdf` is sound, else the first thing found wrong.
    package static func problem(in pdf: [UInt8]) -> String? {
        var checker = Checker(pdf)
        do throws(Failure) { try checker.check(); return nil } catch { return error.text }
    }

    struct Failure: Error { var text: String }

    enum Entry { case offset(Int, generation: Int), compressed(stream: Int, index: Int) }

    enum Token: Equatable {
        case name(String), number(Double), keyword(String), open, close, dictOpen, dictClose, string
    }

    struct Checker {
        let pdf: [UInt8]
        var entries: [Int: Entry] = [:]
        var trailer: [Token] = []
        /// Streams found while checking objects: their dictionary and data (inflated if flate).
        var streams: [Int: (dictionary: [Token], data: [UInt8]?)] = [:]
        var plainObjects: [Int: [Token]] = [:]

        init(_ pdf: [UInt8]) { self.pdf = pdf }

        func fail(_ text: String) -> Failure { Failure(text: text) }

        mutating func check() throws(Failure) {
            guard pdf.starts(with: Array("%PDF-".utf8)) else { throw fail("no %PDF- header") }
            var end = pdf.count
            while end > 0, [9, 10, 13, 32].contains(pdf[end - 1]) { end -= 1 }
            guard end >= 5, pdf[(end - 5)..<end].elementsEqual("%%EOF".utf8) else { throw fail("does not end in %%EOF") }
            guard let startxref = lastIndex(of: "startxref", before: end) else { throw fail("no startxref") }
            var p = startxref + 9
            guard case .number(let x)? = token(at: &p), x >= 0, x < Double(pdf.count), x == x.rounded() else {
                throw fail("startxref is not followed by an offset in the file")
            }
            let xref = Int(x)
            if pdf[xref...].starts(with: Array("xref".utf8)) { try readTable(at: xref) } else { try readStream(at: xref) }
            for (number, entry) in entries.sorted(by: { $0.key < $1.key }) {
                if case let .offset(offset, generation) = entry { try readObject(number, generation: generation, at: offset) }
            }
            for (number, entry) in entries {
                if case let .compressed(stream, index) = entry { try checkCompressed(number, stream: stream, index: index) }
            }
            guard let root = reference(in: trailer, key: "Root"), entries[root] != nil else {
                throw fail("the trailer's /Root is not an object in the file")
            }
            try checkNumbers()
        }

        // MARK: Cross-reference

        mutating func readTable(at offset: Int) throws(Failure) {
            var p = offset + 4
            while true {
                let save = p
                guard let first = token(at: &p) else { throw fail("the xref table ends early") }
                if first == .keyword("trailer") {
                    trailer = try value(at: &p)
                    return
                }
                guard case .number(let start) = first, case .number(let count)? = token(at: &p), start >= 0, count >= 0 else {
                    throw fail("a bad xref subsection header at \(save)")
                }
                while p < pdf.count, pdf[p] == 10 || pdf[p] == 13 || pdf[p] == 32 { p += 1 }
                for i in 0..<Int(count) {
                    guard p + 20 <= pdf.count else { throw fail("the xref table is cut short") }
                    let line = Array(pdf[p..<(p + 20)])
                    guard let o = Int(String(decoding: line[0..<10], as: UTF8.self)),
                          let g = Int(String(decoding: line[11..<16], as: UTF8.self)),
                          line[10] == 32, line[16] == 32, line[17] == UInt8(ascii: "n") || line[17] == UInt8(ascii: "f")
                    else { throw fail("a bad xref entry at \(p)") }
                    if line[17] == UInt8(ascii: "n") { entries[Int(start) + i] = .offset(o, generation: g) }
                    p += 20
                }
            }
        }

        mutating func readStream(at offset: Int) throws(Failure) {
            var p = offset
            let (number, dictionary, data) = try streamObject(at: &p)
            guard name(in: dictionary, key: "Type") == "XRef" else { throw fail("startxref points at neither xref nor /XRef") }
            guard let data, let w = numbers(in: dictionary, key: "W"), w.count == 3, let size = integer(in: dictionary, key: "Size")
            else { throw fail("the xref stream lacks /W or /Size, or does not inflate") }
            let widths = w.map(Int.init), row = widths.reduce(0, +)
            let index = numbers(in: dictionary, key: "Index")?.map(Int.init) ?? [0, size]
            guard row > 0, index.count % 2 == 0 else { throw fail("a bad /W or /Index") }
            let rows = stride(from: 0, to: index.count, by: 2).reduce(0) { $0 + index[$1 + 1] }
            guard data.count == rows * row else { throw fail("the xref stream holds \(data.count) bytes for \(rows) rows of \(row)") }
            var at = 0
            for pair in stride(from: 0, to: index.count, by: 2) {
                for n in index[pair]..<(index[pair] + index[pair + 1]) {
                    var fields = [0, 0, 0]
                    for f in 0..<3 {
                        for _ in 0..<widths[f] { fields[f] = fields[f] << 8 | Int(data[at]); at += 1 }
                    }
                    if widths[0] == 0 { fields[0] = 1 }
                    switch fields[0] {
                    case 1: entries[n] = .offset(fields[1], generation: fields[2])
                    case 2: entries[n] = .compressed(stream: fields[1], index: fields[2])
                    default: break
                    }
                }
            }
            guard entries.keys.allSatisfy({ $0 < size }) else { throw fail("an object past the xref's /Size") }
            trailer = dictionary
            streams[number] = (dictionary, data)
        }

        // MARK: Objects

        mutating func readObject(_ number: Int, generation: Int, at offset: Int) throws(Failure) {
            guard offset >= 0, offset < pdf.count else { throw fail("object \(number) is said to be past the end") }
            var p = offset
            if case .offset = entries[number], streams[number] != nil { return }
            guard Self.isDigit(pdf[offset]), case .number(let n)? = token(at: &p), Int(n) == number,
                  case .number(let g)? = token(at: &p), Int(g) == generation,
                  token(at: &p) == .keyword("obj") else { throw fail("object \(number) is not at offset \(offset)") }
            let body = try value(at: &p)
            let after = token(at: &p)
            if after == .keyword("stream") {
                p = offset
                let (_, dictionary, data) = try streamObject(at: &p)
                streams[number] = (dictionary, data)
            } else {
                guard after == .keyword("endobj") else { throw fail("object \(number) does not end in endobj") }
                plainObjects[number] = body
            }
        }

        /// `N G obj << … >> stream … endstream endobj` at `p`: its number, dictionary and data
        /// (inflated when FlateDecode is its one filter; nil when it is not).
        func streamObject(at p: inout Int) throws(Failure) -> (Int, [Token], [UInt8]?) {
            let start = p
            guard start < pdf.count, Self.isDigit(pdf[start]), case .number(let n)? = token(at: &p), case .number? = token(at: &p),
                  token(at: &p) == .keyword("obj") else {
                throw fail("no object at offset \(start)")
            }
            let dictionary = try value(at: &p)
            guard dictionary.first == .dictOpen, token(at: &p) == .keyword("stream") else { throw fail("object \(Int(n)) is not a stream") }
            if p < pdf.count, pdf[p] == 13 { p += 1 }
            guard p < pdf.count, pdf[p] == 10 else { throw fail("object \(Int(n)): stream is not followed by an end of line") }
            p += 1
            let length: Int
            if let direct = integer(in: dictionary, key: "Length") {
                length = direct
            } else if let ref = reference(in: dictionary, key: "Length"), case let .offset(o, _)? = entries[ref] {
                var q = o
                _ = token(at: &q); _ = token(at: &q); _ = token(at: &q)
                guard case .number(let l)? = token(at: &q) else { throw fail("object \(Int(n)): its /Length object holds no number") }
                length = Int(l)
            } else {
                throw fail("object \(Int(n)): no /Length")
            }
            guard length >= 0, p + length <= pdf.count else { throw fail("object \(Int(n)): /Length \(length) runs past the end") }
            let data = Array(pdf[p..<(p + length)])
            p += length
            if p < pdf.count, pdf[p] == 13 { p += 1 }
            if p < pdf.count, pdf[p] == 10 { p += 1 }
            guard token(at: &p) == .keyword("endstream"), token(at: &p) == .keyword("endobj") else {
                throw fail("object \(Int(n)): /Length \(length) does not end at endstream")
            }
            let filters: [String]
            if let one = name(in: dictionary, key: "Filter") { filters = [one] } else { filters = names(in: dictionary, key: "Filter") }
            guard filters == ["FlateDecode"], !has(dictionary, key: "DecodeParms") else { return (Int(n), dictionary, filters.isEmpty ? data : nil) }
            var out = ccodecs_buffer()
            defer { ccodecs_free(out.data) }
            var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
            let status = data.withUnsafeBufferPointer { ccodecs_inflate($0.baseAddress, $0.count, 1 << 28, &out, &message) }
            guard status == CCODECS_OK else { throw fail("object \(Int(n)): its FlateDecode stream does not inflate") }
            return (Int(n), dictionary, Array(UnsafeBufferPointer(start: out.data, count: out.size)))
        }

        mutating func checkCompressed(_ number: Int, stream: Int, index: Int) throws(Failure) {
            guard let (dictionary, data) = streams[stream], name(in: dictionary, key: "Type") == "ObjStm", let data,
                  let n = integer(in: dictionary, key: "N"), let first = integer(in: dictionary, key: "First"), first <= data.count
            else { throw fail("object \(number) is said to be in object \(stream), which is no object stream") }
            var p = 0
            var header: [Int] = []
            let scanner = Checker(Array(data[..<first]))
            while case .number(let v)? = scanner.token(at: &p) { header.append(Int(v)) }
            guard header.count == 2 * n, index < n, header[2 * index] == number, first + header[2 * index + 1] < data.count else {
                throw fail("object \(number) is not where object stream \(stream) lists it")
            }
            let body = Checker(Array(data[(first + header[2 * index + 1])...]))
            var q = 0
            plainObjects[number] = try body.value(at: &q)
        }

        // MARK: Numbers

        func checkNumbers() throws(Failure) {
            var contents = Set<Int>()
            let dictionaries = plainObjects.values.map { $0 } + streams.values.map(\.dictionary)
            for tokens in dictionaries {
                for (i, t) in tokens.enumerated() where t == .name("Contents") {
                    var j = i + 1
                    if tokens.indices.contains(j), tokens[j] == .open { j += 1 }
                    while j + 2 < tokens.count, case .number(let r) = tokens[j], tokens[j + 2] == .keyword("R") {
                        contents.insert(Int(r)); j += 3
                    }
                }
                if let bad = tokens.first(where: Self.notFinite) { throw fail("a dictionary holds \(bad)") }
            }
            for (number, stream) in streams {
                let isContent = contents.contains(number) || name(in: stream.dictionary, key: "Subtype") == "Form"
                    || has(stream.dictionary, key: "PatternType")
                guard isContent, let data = stream.data else { continue }
                let scanner = Checker(data)
                var p = 0
                while let t = scanner.token(at: &p) {
                    if Self.notFinite(t) { throw fail("the content of object \(number) holds \(t)") }
                    if t == .keyword("ID") { scanner.skipInlineImage(at: &p) }
                }
            }
        }

        static func notFinite(_ t: Token) -> Bool {
            guard case .keyword(let k) = t else { return false }
            return ["nan", "-nan", "inf", "-inf", "infinity", "-infinity"].contains(k.lowercased())
        }

        func skipInlineImage(at p: inout Int) {
            p += 1
            while p + 3 < pdf.count {
                if Self.isSpace(pdf[p]), pdf[p + 1] == UInt8(ascii: "E"), pdf[p + 2] == UInt8(ascii: "I"),
                   Self.isSpace(pdf[p + 3]) { p += 3; return }
                p += 1
            }
            p = pdf.count
        }

        // MARK: Tokens

        static func isSpace(_ b: UInt8) -> Bool { [0, 9, 10, 12, 13, 32].contains(b) }
        static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        static func isDelimiter(_ b: UInt8) -> Bool { "()<>[]{}/%".utf8.contains(b) }

        /// The next token from `p` (strings and comments skipped over), or nil at the end.
        func token(at p: inout Int) -> Token? {
            while p < pdf.count {
                let b = pdf[p]
                if Self.isSpace(b) { p += 1; continue }
                if b == UInt8(ascii: "%") {
                    while p < pdf.count, pdf[p] != 10, pdf[p] != 13 { p += 1 }
                    continue
                }
                if b == UInt8(ascii: "(") {
                    var depth = 0
                    while p < pdf.count {
                        let c = pdf[p]; p += 1
                        if c == UInt8(ascii: "\\") { p += 1; continue }
                        if c == UInt8(ascii: "(") { depth += 1 }
                        if c == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                    }
                    return .string
                }
                if b == UInt8(ascii: "<") {
                    if p + 1 < pdf.count, pdf[p + 1] == UInt8(ascii: "<") { p += 2; return .dictOpen }
                    while p < pdf.count, pdf[p] != UInt8(ascii: ">") { p += 1 }
                    p += 1
                    return .string
                }
                if b == UInt8(ascii: ">") {
                    p += 1
                    if p < pdf.count, pdf[p] == UInt8(ascii: ">") { p += 1 }
                    return .dictClose
                }
                if b == UInt8(ascii: "[") { p += 1; return .open }
                if b == UInt8(ascii: "]") { p += 1; return .close }
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "}") { p += 1; return .keyword(String(UnicodeScalar(b))) }
                let start = b == UInt8(ascii: "/") ? p + 1 : p
                p = start
                while p < pdf.count, !Self.isSpace(pdf[p]), !Self.isDelimiter(pdf[p]) { p += 1 }
                if p == start, b != UInt8(ascii: "/") { p += 1; return .keyword(String(UnicodeScalar(b))) }
                let word = String(decoding: pdf[start..<p], as: UTF8.self)
                if b == UInt8(ascii: "/") { return .name(word) }
                if let v = Double(word), word.first.map({ $0.isNumber || "+-.".contains($0) }) == true, v.isFinite {
                    return .number(v)
                }
                return .keyword(word)
            }
            return nil
        }

        /// One whole value from `p`: a dictionary or array with everything in it, else one token.
        func value(at p: inout Int) throws(Failure) -> [Token] {
            guard let first = token(at: &p) else { throw fail("a value is missing at the end") }
            guard first == .dictOpen || first == .open else { return [first] }
            var tokens = [first], depth = 1
            while depth > 0 {
                guard let t = token(at: &p) else { throw fail("a dictionary or array is not closed") }
                if t == .dictOpen || t == .open { depth += 1 }
                if t == .dictClose || t == .close { depth -= 1 }
                tokens.append(t)
            }
            return tokens
        }

        /// The tokens of `key`'s value in a dictionary's tokens (top level only).
        func entry(_ tokens: [Token], _ key: String) -> ArraySlice<Token>? {
            var depth = 0, i = 0
            while i < tokens.count {
                let t = tokens[i]
                if t == .dictOpen || t == .open { depth += 1 } else if t == .dictClose || t == .close { depth -= 1 }
                if depth == 1, t == .name(key), i + 1 < tokens.count {
                    var j = i + 1, d = 0
                    repeat {
                        let u = tokens[j]
                        if u == .dictOpen || u == .open { d += 1 } else if u == .dictClose || u == .close { d -= 1 }
                        j += 1
                    } while d > 0 && j < tokens.count
                    if d == 0, j + 1 < tokens.count, case .number = tokens[i + 1], case .number = tokens[j], tokens[j + 1] == .keyword("R") {
                        return tokens[(i + 1)...(j + 1)]
                    }
                    return tokens[(i + 1)..<j]
                }
                i += 1
            }
            return nil
        }
        func has(_ tokens: [Token], key: String) -> Bool { entry(tokens, key) != nil }
        func integer(in tokens: [Token], key: String) -> Int? {
            guard let v = entry(tokens, key), v.count == 1, case .number(let n) = v.first! else { return nil }
            return Int(n)
        }
        func reference(in tokens: [Token], key: String) -> Int? {
            guard let v = entry(tokens, key), v.count == 3, case .number(let n) = v.first!, v.last == .keyword("R") else { return nil }
            return Int(n)
        }
        func name(in tokens: [Token], key: String) -> String? {
            guard let v = entry(tokens, key), v.count == 1, case .name(let n) = v.first! else { return nil }
            return n
        }
        func names(in tokens: [Token], key: String) -> [String] {
            entry(tokens, key)?.compactMap { if case .name(let n) = $0 { n } else { nil } } ?? []
        }
        func numbers(in tokens: [Token], key: String) -> [Double]? {
            guard let v = entry(tokens, key), v.first == .open else { return nil }
            return v.compactMap { if case .number(let n) = $0 { n } else { nil } }
        }

        func lastIndex(of word: String, before end: Int) -> Int? {
            let w = Array(word.utf8)
            var i = end - w.count
            while i >= 0 {
                if pdf[i..<(i + w.count)].elementsEqual(w) { return i }
                i -= 1
            }
            return nil
        }
    }
}
