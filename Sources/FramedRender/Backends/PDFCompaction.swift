import FramedSystem

/// Packs the small objects of a PDF that Cairo wrote into one object stream (PDF 1.5), and puts
/// framed's own picture objects in the place of their placeholders (`PDFPicture`).
///
/// Cairo writes every gradient stop, function, soft mask and graphics state as its own object with
/// a generously spaced dictionary and a 20-byte cross-reference entry; a vector shadow has
/// hundreds. Here every object without a stream of its own (except bare numbers, which are
/// `/Length` values, and the document information) goes, with its white space collapsed, into
/// one object stream, and the cross-reference table becomes a cross-reference stream; the object
/// stream is deflated (`Zlib`). Other streams (content, forms, JPEG pictures) are copied byte for
/// byte, so the page renders exactly as Cairo drew it.
enum PDFCompaction {
    /// The packed file, or `pdf` itself when it is not as Cairo writes it.
    static func compact(_ pdf: [UInt8]) -> [UInt8] { compact(pdf, pictures: []) ?? pdf }

    /// The packed file with each picture's image object (see `PDFPicture`) in place of the
    /// object Cairo wrote for its placeholder. Nil when the file is not as Cairo writes it or a
    /// placeholder is missing: the caller then lets Cairo embed the pictures.
    /// Each shadow's form (see `PDFShadow`) goes in place of its placeholder image likewise,
    /// naming `defaultRGB` (the object `PDFPrint` added under a CMYK output intent) as its
    /// `DefaultRGB` colour space.
    static func compact(_ pdf: [UInt8], pictures: [PDFPicture], shadows: [PDFShadow] = [], defaultRGB: Int? = nil) -> [UInt8]? {
        guard let file = CairoPDF(pdf), file.objects.count > 1 else { return nil }
        var packed: [(number: Int, body: [UInt8])] = []
        var kept: [(number: Int, parts: [ArraySlice<UInt8>])] = []
        var nextNumber = file.size, found = Set<Int>(), shadowsFound = Set<Int>(), functions: [[UInt8]: Int] = [:]
        for object in file.objects {
            // Looked at in place: a stream object may hold a picture, megabytes not to copy.
            let body = pdf[object.body]
            if !shadows.isEmpty, Syntax.hasStream(body), body.firstOccurrence(of: Array("/DCTDecode".utf8)) != nil,
               let index = shadows.firstIndex(where: { body.firstOccurrence(of: $0.placeholder) != nil }) {
                guard let objects = shadows[index].objects(number: object.number, next: &nextNumber, functions: &functions,
                                                                     defaultRGB: defaultRGB) else { return nil }
                kept += objects.streams.map { ($0.number, [$0.bytes[...]]) }
                packed += objects.plain
                shadowsFound.insert(index)
            } else if Syntax.hasStream(body), !pictures.isEmpty, body.firstOccurrence(of: Array("/DCTDecode".utf8)) != nil,
               let index = pictures.firstIndex(where: { body.firstOccurrence(of: $0.placeholder) != nil }) {
                let objects = pictures[index].objects(number: object.number, maskNumber: nextNumber,
                                                      interpolate: body.firstOccurrence(of: Array("/Interpolate true".utf8)) != nil)
                kept.append((object.number, objects.image))
                if let mask = objects.mask {
                    kept.append((nextNumber, mask))
                    nextNumber += 1
                }
                found.insert(index)
            } else if Syntax.hasStream(body) || Syntax.isNumber(body) || object.number == file.info {
                // The document information stays readable as plain text (dates, title, creator).
                kept.append((object.number, [pdf[object.range]]))
            } else {
                var dictionary = Self.withoutRepeatedResources(Syntax.collapsingWhiteSpace(Array(body)))
                if !shadows.isEmpty { dictionary = Self.withoutPageGroup(dictionary) }
                packed.append((object.number, dictionary))
            }
        }
        guard !packed.isEmpty, found.count == pictures.count, shadowsFound.count == shadows.count else { return nil }

        // PDF 1.5 at least (object streams); a later version the file states (PDF/X-4's 1.6) stays.
        var out = Array("%PDF-\(max(file.version, "1.5"))\n%\u{B5}\u{B5}\u{B5}\u{B5}\n".utf8)
        // Room for everything kept (the pictures' megabytes copied once, never regrown) and
        // the packed objects, which only shrink; asked for first (nil without it).
        let capacity = kept.reduce(0) { $0 + $1.parts.reduce(1) { $0 + $1.count } } + packed.reduce(0) { $0 + $1.body.count + 16 } + 1024
        guard Memory.available(capacity) else { return nil }
        out.reserveCapacity(capacity)
        var offsets: [Int: (type: UInt8, field2: Int, field3: Int)] = [:]
        for object in kept {
            offsets[object.number] = (1, out.count, 0)
            for part in object.parts { out += part }
            if out.last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
        }
        // The object stream: "number offset" pairs, then the objects.
        let streamNumber = nextNumber, xrefNumber = nextNumber + 1
        var header = [UInt8](), bodies = [UInt8]()
        for (index, object) in packed.enumerated() {
            header += Array("\(object.number) \(bodies.count) ".utf8)
            bodies += object.body
            bodies.append(UInt8(ascii: "\n"))
            offsets[object.number] = (2, streamNumber, index)
        }
        header[header.count - 1] = UInt8(ascii: "\n")
        guard let compressed = Zlib.compress(header + bodies) else { return nil }
        offsets[streamNumber] = (1, out.count, 0)
        out += Array(("\(streamNumber) 0 obj\n<< /Type /ObjStm /N \(packed.count) /First \(header.count) "
            + "/Filter /FlateDecode /Length \(compressed.count) >>\nstream\n").utf8)
        out += compressed
        out += Array("\nendstream\nendobj\n".utf8)

        // The cross-reference stream, fields of 1, 4 and 2 bytes.
        let size = xrefNumber + 1
        offsets[xrefNumber] = (1, out.count, 0)
        var table = [UInt8]()
        for number in 0..<size {
            let entry = offsets[number] ?? (0, 0, number == 0 ? 65535 : 0)
            table.append(entry.type)
            for shift in [24, 16, 8, 0] { table.append(UInt8(truncatingIfNeeded: entry.field2 >> shift)) }
            for shift in [8, 0] { table.append(UInt8(truncatingIfNeeded: entry.field3 >> shift)) }
        }
        let xrefOffset = out.count
        var trailer = "<< /Type /XRef /Size \(size) /W [1 4 2] /Root \(file.root) 0 R"
        if let info = file.info { trailer += " /Info \(info) 0 R" }
        if let id = file.id { trailer += " /ID \(id)" }
        trailer += " /Length \(table.count) >>"
        out += Array("\(xrefNumber) 0 obj\n\(trailer)\nstream\n".utf8)
        out += table
        out += Array("\nendstream\nendobj\nstartxref\n\(xrefOffset)\n%%EOF\n".utf8)
        return out
    }

    /// The parts of a PDF as Cairo 1.16 writes it: objects located through its one classic
    /// cross-reference table, and the trailer's /Size, /Root and /Info.
    struct CairoPDF {
        struct Object { var number: Int; var range: Range<Int>; var body: Range<Int> }
        var objects: [Object] = []
        var size: Int, root: Int, info: Int?
        /// The header's version ("1.5"), and the trailer's `/ID` array as written, if any.
        var version = "1.5", id: String?

        init?(_ pdf: [UInt8]) {
            guard let startxref = Syntax.lastRange(of: "startxref", in: pdf),
                  let xrefOffset = Syntax.integer(after: startxref.upperBound, in: pdf),
                  xrefOffset < pdf.count, pdf[xrefOffset...].starts(with: Array("xref".utf8)),
                  let trailerRange = Syntax.lastRange(of: "trailer", in: pdf), trailerRange.lowerBound > xrefOffset
            else { return nil }
            let trailer = String(decoding: pdf[trailerRange.upperBound..<startxref.lowerBound], as: UTF8.self)
            guard let size = Syntax.reference(named: "/Size", in: trailer, isObject: false),
                  let root = Syntax.reference(named: "/Root", in: trailer, isObject: true),
                  !trailer.containsOccurrence(of: "/Encrypt"), !trailer.containsOccurrence(of: "/Prev") else { return nil }
            self.size = size; self.root = root
            info = Syntax.reference(named: "/Info", in: trailer, isObject: true)
            if let key = trailer.firstOccurrence(of: "/ID"), let close = trailer[key.upperBound...].firstIndex(of: "]") {
                id = String(trailer[key.upperBound...close]).drop(while: \.isWhitespace).description
            }
            if pdf.starts(with: Array("%PDF-1.".utf8)), pdf.count > 8, (0x30...0x39).contains(pdf[7]) {
                version = "1." + String(UnicodeScalar(pdf[7]))
            }
            // One subsection "0 N", then N entries of 20 bytes.
            let table = String(decoding: pdf[xrefOffset..<trailerRange.lowerBound], as: UTF8.self)
            let lines = table.split(whereSeparator: \.isNewline).map(Syntax.trimmingBlanks)
            guard lines.count >= 2, lines[1] == "0 \(size)", lines.count == size + 2 else { return nil }
            var starts: [(number: Int, offset: Int)] = []
            for (number, line) in lines.dropFirst(2).enumerated() {
                let fields = line.split(separator: " ")
                guard fields.count == 3, let offset = Int(fields[0]) else { return nil }
                if fields[2] == "n" {
                    guard fields[1] == "00000", offset < xrefOffset else { return nil }
                    starts.append((number, offset))
                }
            }
            starts.sort { $0.offset < $1.offset }
            for (i, start) in starts.enumerated() {
                let end = i + 1 < starts.count ? starts[i + 1].offset : xrefOffset
                let prefix = Array("\(start.number) 0 obj".utf8)
                guard pdf[start.offset..<end].starts(with: prefix),
                      let close = Syntax.lastRange(of: "endobj", in: pdf, before: end), close.lowerBound > start.offset
                else { return nil }
                objects.append(Object(number: start.number, range: start.offset..<close.upperBound,
                                      body: (start.offset + prefix.count)..<close.lowerBound))
            }
        }
    }

    /// Just enough PDF syntax: strings are skipped, everything else is tokens and white space.
    /// The page group that Cairo gives every page (blending in DeviceRGB, isolated), as it reads
    /// once collapsed.
    static let pageGroup = Array("/Group << /Type /Group /S /Transparency /I true /CS /DeviceRGB >> ".utf8)

    /// A page dictionary without Cairo's page group; any other dictionary as it is. MuPDF draws a
    /// page that has a group into a buffer of its own and then onto the paper, truncating once
    /// more: every translucent pixel came out about 1/255 light (PDF shadows: 1.2/255 on average
    /// instead of 0.5). PDFium, poppler and Ghostscript draw the page alike with and without it
    /// (byte for byte on the shadow tests' scenes), as blending in DeviceRGB is what a screen
    /// viewer does anyway; a CMYK printer may blend the shadows in its own colour space instead.
    static func withoutPageGroup(_ dictionary: [UInt8]) -> [UInt8] {
        guard dictionary.starts(with: Array("<< /Type /Page ".utf8)), let range = dictionary.firstOccurrence(of: pageGroup)
        else { return dictionary }
        var out = dictionary
        out.removeSubrange(range)
        return out
    }

    /// The resource categories whose entries Cairo lists once per use rather than once per
    /// object (`_cairo_pdf_surface_add_xobject` and its kin append without looking).
    static let resourceCategories = ["/XObject", "/Pattern", "/Shading", "/Font", "/ExtGState"].map { Array(($0 + " << ").utf8) }

    /// A collapsed dictionary whose resource lists name each resource once. Cairo lists an
    /// object again each time it is drawn, so the same picture twice on a page (a sheet) gave
    /// `/XObject << /x7 7 0 R /x7 7 0 R >>`: a duplicated key, which qpdf and preflight
    /// report. A list is changed only when every entry is `/Name N 0 R` and a name's entries
    /// agree; anything else stays as Cairo wrote it.
    static func withoutRepeatedResources(_ dictionary: [UInt8]) -> [UInt8] {
        var out = dictionary
        for category in resourceCategories {
            var from = out.startIndex
            while let found = out[from...].firstOccurrence(of: category) {
                let start = found.upperBound
                guard let end = out[start...].firstOccurrence(of: Array(">>".utf8))?.lowerBound,
                      let entries = referenceEntries(out[start..<end]) else { from = start; continue }
                var seen: [String: String] = [:], kept: [String] = []
                var consistent = true
                for (name, target) in entries {
                    if let earlier = seen[name] {
                        consistent = consistent && earlier == target
                    } else {
                        seen[name] = target
                        kept.append("\(name) \(target)")
                    }
                }
                guard consistent, kept.count < entries.count else { from = start; continue }
                let replacement = Array((kept.joined(separator: " ") + " ").utf8)
                out.replaceSubrange(start..<end, with: replacement)
                from = start + replacement.count
            }
        }
        return out
    }

    /// The entries of a resource list's inside ("/x6 6 0 R /x7 7 0 R "), each a name and its
    /// "N 0 R", or nil when anything else is there (a nested dictionary, a direct object).
    static func referenceEntries(_ inside: ArraySlice<UInt8>) -> [(String, String)]? {
        let words = inside.split(whereSeparator: Syntax.isWhite).map { String(decoding: $0, as: UTF8.self) }
        guard words.count % 4 == 0 else { return nil }
        var entries: [(String, String)] = []
        for i in stride(from: 0, to: words.count, by: 4) {
            let (name, number, generation, r) = (words[i], words[i + 1], words[i + 2], words[i + 3])
            guard name.hasPrefix("/"), name.count > 1, Int(number) != nil, Int(generation) != nil, r == "R" else { return nil }
            entries.append((name, "\(number) \(generation) R"))
        }
        return entries
    }

    enum Syntax {
        static func isWhite(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0 }

        static func lastRange(of word: String, in bytes: [UInt8], before end: Int? = nil) -> Range<Int>? {
            let w = Array(word.utf8), stop = min(end ?? bytes.count, bytes.count)
            var i = stop - w.count
            while i >= 0 {
                if bytes[i..<(i + w.count)].elementsEqual(w) { return i..<(i + w.count) }
                i -= 1
            }
            return nil
        }

        /// The line without the spaces and tabs around it (Cairo ends cross-reference entries
        /// with a space).
        static func trimmingBlanks(_ line: Substring) -> Substring {
            let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            guard let first = line.firstIndex(where: { !isBlank($0) }),
                  let last = line.lastIndex(where: { !isBlank($0) }) else { return line[line.endIndex...] }
            return line[first...last]
        }

        static func integer(after index: Int, in bytes: [UInt8]) -> Int? {
            var i = index
            while i < bytes.count, isWhite(bytes[i]) { i += 1 }
            var j = i
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) { j += 1 }
            return j > i ? Int(String(decoding: bytes[i..<j], as: UTF8.self)) : nil
        }

        /// The number after `/Name` in a trailer ("/Root 12 0 R" gives 12).
        static func reference(named name: String, in text: String, isObject: Bool) -> Int? {
            guard let range = text.firstOccurrence(of: name + " ") ?? text.firstOccurrence(of: name + "\n") else { return nil }
            let fields = text[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\n" }).prefix(3)
            guard let value = fields.first.flatMap({ Int($0) }) else { return nil }
            if isObject { guard fields.count == 3, fields.dropFirst().first == "0", fields.last?.hasPrefix("R") == true else { return nil } }
            return value
        }

        static func isNumber(_ body: ArraySlice<UInt8>) -> Bool {
            let trimmed = body.drop(while: isWhite).reversed().drop(while: isWhite)
            return !trimmed.isEmpty && trimmed.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        }

        /// Whether the object is a dictionary followed by `stream`.
        static func hasStream(_ body: ArraySlice<UInt8>) -> Bool {
            var i = body.startIndex, depth = 0
            while i < body.endIndex {
                let b = body[i]
                if b == UInt8(ascii: "(") { i = skipString(body, from: i); continue }
                if b == UInt8(ascii: "%") {
                    while i < body.endIndex, body[i] != 0x0A, body[i] != 0x0D { i += 1 }
                    continue
                }
                if b == UInt8(ascii: "<"), i + 1 < body.endIndex, body[i + 1] == UInt8(ascii: "<") { depth += 1; i += 2; continue }
                if b == UInt8(ascii: ">"), i + 1 < body.endIndex, body[i + 1] == UInt8(ascii: ">") {
                    depth -= 1; i += 2
                    if depth == 0 {
                        let rest = body[i...].drop(while: isWhite)
                        return rest.starts(with: Array("stream".utf8))
                    }
                    continue
                }
                i += 1
            }
            return false
        }

        /// The index just past the literal string that starts at `start` (nested parentheses and
        /// backslash escapes honoured).
        static func skipString<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int) -> Int
            where Bytes.Index == Int {
            var i = start + 1, depth = 1
            while i < bytes.endIndex, depth > 0 {
                switch bytes[i] {
                case UInt8(ascii: "\\"): i += 1
                case UInt8(ascii: "("): depth += 1
                case UInt8(ascii: ")"): depth -= 1
                default: break
                }
                i += 1
            }
            return i
        }

        /// Runs of white space outside strings become one space; comments (Cairo marks page
        /// dictionaries with one) are dropped; leading and trailing space goes.
        static func collapsingWhiteSpace(_ body: [UInt8]) -> [UInt8] {
            var out = [UInt8](), i = 0, pendingSpace = false
            while i < body.count {
                let b = body[i]
                if b == UInt8(ascii: "%") {
                    while i < body.count, body[i] != 0x0A, body[i] != 0x0D { i += 1 }
                    pendingSpace = !out.isEmpty
                    continue
                }
                if isWhite(b) { pendingSpace = !out.isEmpty; i += 1; continue }
                if pendingSpace { out.append(0x20); pendingSpace = false }
                if b == UInt8(ascii: "(") {
                    let end = skipString(body, from: i)
                    out += body[i..<end]
                    i = end
                    continue
                }
                out.append(b)
                i += 1
            }
            return out
        }
    }
}
