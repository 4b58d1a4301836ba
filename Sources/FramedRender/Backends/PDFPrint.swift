internal import CCairo
import FramedLayout
import FramedRaster

/// The PDF/X variants framed writes (`--pdf-variant`).
public enum PDFVariant: String, Sendable, Equatable, CaseIterable, Codable, CustomStringConvertible {
    /// PDF/X-4 (ISO 15930-7): the PDF/X that allows transparency, which soft shadows are. PDF
    /// 1.6, an output intent with an embedded ICC profile, XMP metadata, a trailer ID, page
    /// boxes.
    case x4 = "pdf/x-4"

    /// `pdf/x-4` or `x-4`, in any case.
    public init?(parsing text: String) {
        var name = text.lowercased()
        if name.hasPrefix("pdf/") { name.removeFirst(4) }
        guard let variant = Self.allCases.first(where: { $0.rawValue.dropFirst(4) == name }) else { return nil }
        self = variant
    }

    /// The name as PDF/X writes it in `GTS_PDFXVersion`: `PDF/X-4`.
    public var description: String { rawValue.uppercased() }
}

/// What `PDFPrint` writes beyond the page boxes: the PDF/X variant, if any, and its output
/// intent's profile (nil: sRGB, made by lcms2).
package struct PDFPrintOptions: Sendable, Equatable {
    /// The PDF/X variant; nil for a plain PDF (boxes and marks only).
    package var variant: PDFVariant?
    /// The output intent's ICC profile; nil: sRGB.
    package var intent: ICCProfile?

    package init(variant: PDFVariant? = nil, intent: ICCProfile? = nil) { self.variant = variant; self.intent = intent }
}

/// Framed's print pass over the PDF that Cairo wrote, before `PDFCompaction` packs it: Cairo 1.16
/// writes none of what a print shop's preflight looks for, so this pass adds it.
///
/// - Every page gets a TrimBox (the page, or the framed canvas without one) and a BleedBox (the
///   trim grown by the bleed) beside its MediaBox (the bleed box, grown by the slug with marks).
/// - Crop marks, with `PagePlacement.marks`, are a content stream of their own after Cairo's,
///   stroked in the registration colour (a `Separation` colour space named `All`, which prints on
///   every plate), behind a `q` stream so that Cairo's graphics state cannot leak into them.
/// - PDF/X-4: version 1.6; the document information rewritten with the title, `Trapped`,
///   `GTS_PDFXVersion` and dates with their `D:` prefix and time zone; an XMP metadata stream
///   saying the same; an output intent `GTS_PDFX` embedding the ICC profile; with a CMYK intent,
///   a `DefaultRGB` ICC-based sRGB colour space in every resource dictionary and as the blending
///   space of every RGB transparency group, so that what Cairo draws in DeviceRGB stays
///   device-independent; and a trailer ID, a hash of the file, so that the same input gives the
///   same bytes.
///
/// Its output is again a file with one classic cross-reference table, as Cairo writes them, so
/// that `PDFCompaction` packs it the same way (and keeps its version and ID).
enum PDFPrint {
    /// The file with its boxes (and marks, and PDF/X-4's parts), and the object number of the
    /// `DefaultRGB` colour space when there is one (for the resources of what the PDF pass adds
    /// later, `PDFShadow`'s forms); nil when the file is not as Cairo writes it.
    static func apply(_ pdf: [UInt8], pages: [OutputPage], options: RenderOptions) -> (pdf: [UInt8], defaultRGB: Int?)? {
        guard let file = PDFCompaction.CairoPDF(pdf), let catalog = file.objects.first(where: { $0.number == file.root })
        else { return nil }
        var document = Document(pdf: pdf, file: file)
        guard let kids = document.pageNumbers(catalog: catalog), kids.count == pages.count else { return nil }

        let variant = options.print.variant
        let cmykIntent = variant != nil && options.print.intent?.space == .cmyk
        var resourceNames: [(name: String, object: Int)] = []

        // PDF/X-4's colour: the sRGB profile for DefaultRGB, the output intent's profile.
        var defaultRGB: Int?
        var intentProfile: (object: Int, profile: ICCProfile)?
        if variant != nil {
            guard let srgb = try? ICCProfile.sRGB() else { return nil }
            let profile = options.print.intent ?? srgb
            let profileObject = document.add(stream: profile.bytes, dictionary: "/N \(profile.components)", compress: true)
            intentProfile = (profileObject, profile)
            if cmykIntent {
                let srgbObject = document.add(stream: srgb.bytes, dictionary: "/N 3", compress: true)
                defaultRGB = document.add("[/ICCBased \(srgbObject) 0 R]")
                resourceNames.append(("DefaultRGB", defaultRGB!))
            }
        }

        // Page boxes, and crop marks.
        var registration: Int?, openState: Int?
        for (kid, page) in zip(kids, pages) {
            guard var body = document.body(of: kid) else { return nil }
            let media = page.media
            guard let boxes = Self.replacingMediaBox(in: body, with: [("MediaBox", Rect(origin: .zero, size: media)),
                                                                     ("BleedBox", page.bleed), ("TrimBox", page.trim)],
                                                     height: media.height) else { return nil }
            body = boxes
            let marks = page.marks
            if !marks.isEmpty {
                if registration == nil {
                    // Under an RGB output intent the composite stays RGB; elsewhere it is CMYK's 100 % of every ink.
                    let rgbIntent = variant != nil && (options.print.intent?.space ?? .rgb) == .rgb
                    let alternate = rgbIntent
                        ? "/DeviceRGB << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0 0] /N 1 >>"
                        : "/DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [1 1 1 1] /N 1 >>"
                    registration = document.add("[/Separation /All \(alternate)]")
                    openState = document.add(stream: Array("q\n".utf8), dictionary: "", compress: false)
                }
                let content = Self.marksContent(marks, height: media.height)
                let marksObject = document.add(stream: Array(content.utf8), dictionary: "", compress: true)
                guard let contents = Self.appendingContents(in: body, before: openState!, after: marksObject) else { return nil }
                body = contents
                guard let resources = Syntax.referenceValue(named: "/Resources", in: body) else { return nil }
                document.pendingNames[resources, default: []].append(("FramedRegistration", registration!))
            }
            document.replace(kid, body: body)
        }

        // Every resource dictionary gets DefaultRGB (with a CMYK intent); the pages with marks
        // get the registration colour; RGB transparency groups blend in sRGB.
        guard document.addColorSpaces(everywhere: resourceNames) else { return nil }
        if let defaultRGB { document.replaceInDictionaries("/CS /DeviceRGB", with: "/CS \(defaultRGB) 0 R") }
        guard variant != nil, let intentProfile else {
            // A plain PDF keeps Cairo's document information, its dates made whole: Cairo 1.16
            // writes them without the `D:` prefix and without a time zone.
            if let info = file.info, let body = document.body(of: info) {
                document.replace(info, body: Self.datingInfo(body, metadata: options.metadata))
            }
            return (document.write(version: nil, id: nil), defaultRGB)
        }

        // The identity: a hash of what Cairo drew and of the facts written about it.
        let metadata = options.metadata
        var hash = PictureIdentity.Hash128()
        hash.mix(pdf)
        hash.mix(Array("\(metadata.title ?? "")\u{0}\(metadata.author ?? "")\u{0}\(metadata.creator ?? "")\u{0}\(metadata.creationDate ?? "")".utf8))
        hash.mix(intentProfile.profile.bytes)
        let id = PrintMetadata.hex(hash.a) + PrintMetadata.hex(hash.b)
        let facts = PrintMetadata(metadata: metadata, variant: variant!, id: id, producer: PrintMetadata.producer(metadata))

        let xmp = document.add(stream: Array(facts.xmp().utf8), dictionary: "/Type /Metadata /Subtype /XML", compress: false)
        let intent = document.add(facts.outputIntent(profile: intentProfile.profile, object: intentProfile.object))
        guard let catalogBody = document.body(of: file.root),
              let withIntent = Syntax.inserting(" /Metadata \(xmp) 0 R /OutputIntents [\(intent) 0 R]", afterOpeningOf: catalogBody)
        else { return nil }
        document.replace(file.root, body: withIntent)
        let info = file.info ?? document.add("<< >>")
        document.replace(info, body: Array(facts.info().utf8))
        document.info = info
        return (document.write(version: "1.6", id: id), defaultRGB)
    }

    /// Cairo's document information with its dates, `(YYYYMMDDhhmmss)`, written as PDF dates
    /// say them, `(D:YYYYMMDDhhmmss+00'00')`: framed's dates are UTC.
    static func datingInfo(_ body: [UInt8], metadata: DocumentMetadata) -> [UInt8] {
        guard let date = metadata.creationDate else { return body }
        let cairo = Array("(\(date.filter(\.isNumber)))".utf8), whole = Array("(\(metadata.pdfDate))".utf8)
        var body = body
        for key in ["/CreationDate ", "/ModDate "] {
            guard let range = body.firstOccurrence(of: Array(key.utf8) + cairo) else { continue }
            body.replaceSubrange(range, with: Array(key.utf8) + whole)
        }
        return body
    }

    /// The page dictionary with its MediaBox replaced by `boxes`, each `[llx lly urx ury]` in PDF
    /// space (y upwards from the bottom of a page `height` points tall).
    static func replacingMediaBox(in body: [UInt8], with boxes: [(String, Rect)], height: Double) -> [UInt8]? {
        guard let key = body.firstOccurrence(of: Array("/MediaBox".utf8)),
              let close = body[key.upperBound...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let text = boxes.map { name, r in
            "/\(name) [\(number(r.minX)) \(number(height - r.maxY)) \(number(r.maxX)) \(number(height - r.minY))]"
        }.joined(separator: " ")
        return Array(body[..<key.lowerBound]) + Array(text.utf8) + Array(body[(close + 1)...])
    }

    /// A length as the boxes write it: at most six decimals, no trailing zeros.
    static func number(_ value: Double) -> String {
        let micro = (value * 1_000_000).rounded()
        let sign = micro < 0 ? "-" : ""
        let whole = Int(abs(micro)) / 1_000_000, fraction = Int(abs(micro)) % 1_000_000
        guard fraction > 0 else { return micro == 0 ? "0" : sign + String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return sign + String(whole) + "." + digits
    }

    /// The crop marks as a content stream in PDF space, after Cairo's content: `Q` ends the
    /// state that the `q` stream before Cairo's saved, so Cairo's transformation and colours are
    /// gone; then the lines in the registration colour.
    static func marksContent(_ lines: [CropMarks.Line], height: Double) -> String {
        var text = "Q\nq\n/FramedRegistration CS 1 SCN \(number(CropMarks.lineWidth)) w 0 J 0 j [] 0 d\n"
        for line in lines {
            text += "\(number(line.start.x)) \(number(height - line.start.y)) m "
                + "\(number(line.end.x)) \(number(height - line.end.y)) l\n"
        }
        return text + "S\nQ\n"
    }

    /// The page dictionary with `/Contents N 0 R` made `[before N after]`.
    static func appendingContents(in body: [UInt8], before: Int, after: Int) -> [UInt8]? {
        guard let key = body.firstOccurrence(of: Array("/Contents".utf8)),
              let (number, end) = Syntax.referenceAfter(key.upperBound, in: body) else { return nil }
        return Array(body[..<key.lowerBound]) + Array("/Contents [\(before) 0 R \(number) 0 R \(after) 0 R]".utf8)
            + Array(body[end...])
    }

    typealias Syntax = PDFCompaction.Syntax
}

extension PDFPrint {
    /// Cairo's objects, some replaced and some added, written again as a classic PDF.
    struct Document {
        let pdf: [UInt8]
        let file: PDFCompaction.CairoPDF
        /// Bodies that replace Cairo's (what comes between `N 0 obj` and `endobj`).
        var replaced: [Int: [UInt8]] = [:]
        /// Objects added, numbered from Cairo's size up.
        var added: [(number: Int, body: [UInt8])] = []
        /// Names to add to a resource dictionary object's `/ColorSpace`, by object.
        var pendingNames: [Int: [(name: String, object: Int)]] = [:]
        var info: Int?

        init(pdf: [UInt8], file: PDFCompaction.CairoPDF) { self.pdf = pdf; self.file = file; info = file.info }

        var nextNumber: Int { file.size + added.count }

        /// The body of object `number` as it stands.
        func body(of number: Int) -> [UInt8]? {
            if let body = replaced[number] { return body }
            if let index = added.firstIndex(where: { $0.number == number }) { return added[index].body }
            return file.objects.first { $0.number == number }.map { Array(pdf[$0.body]) }
        }

        mutating func replace(_ number: Int, body: [UInt8]) {
            if let index = added.firstIndex(where: { $0.number == number }) { added[index].body = body } else { replaced[number] = body }
        }

        /// Adds an object whose body is `text`; returns its number.
        mutating func add(_ text: String) -> Int {
            let number = nextNumber
            added.append((number, Array(("\n" + text + "\n").utf8)))
            return number
        }

        /// Adds a stream object of `data` (deflated when `compress` and zlib can), its dictionary
        /// holding `dictionary` too; returns its number.
        mutating func add(stream data: [UInt8], dictionary: String, compress: Bool) -> Int {
            let packed = compress ? Zlib.compress(data) : nil
            let head = "\n<< \(dictionary)\(dictionary.isEmpty ? "" : " ")\(packed == nil ? "" : "/Filter /FlateDecode ")"
                + "/Length \((packed ?? data).count) >>\nstream\n"
            let number = nextNumber
            added.append((number, Array(head.utf8) + (packed ?? data) + Array("\nendstream\n".utf8)))
            return number
        }

        /// The page objects in order, from the catalog's page tree (Cairo writes one `/Pages`
        /// whose `/Kids` are the pages).
        func pageNumbers(catalog: PDFCompaction.CairoPDF.Object) -> [Int]? {
            let body = Array(pdf[catalog.body])
            guard let key = body.firstOccurrence(of: Array("/Pages".utf8)),
                  let (pages, _) = Syntax.referenceAfter(key.upperBound, in: body),
                  let tree = self.body(of: pages), let kids = tree.firstOccurrence(of: Array("/Kids".utf8)),
                  let open = tree[kids.upperBound...].firstIndex(of: UInt8(ascii: "[")),
                  let close = tree[open...].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let fields = String(decoding: tree[(open + 1)..<close], as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard fields.count % 3 == 0 else { return nil }
            var numbers: [Int] = []
            for i in stride(from: 0, to: fields.count, by: 3) {
                guard let n = Int(fields[i]), fields[i + 1] == "0", fields[i + 2] == "R" else { return nil }
                numbers.append(n)
            }
            return numbers
        }

        /// Adds `names` to the `/ColorSpace` of every resource dictionary (those written inline
        /// after `/Resources` in any dictionary, and the objects `/Resources` refers to), and the
        /// names waiting in `pendingNames` to theirs. False when one already has a `/ColorSpace`
        /// (Cairo 1.16 writes none), which this pass does not merge into.
        mutating func addColorSpaces(everywhere names: [(name: String, object: Int)]) -> Bool {
            var targets = pendingNames
            pendingNames = [:]
            if !names.isEmpty {
                var inline: [Int: [UInt8]] = [:]
                for number in numbers where number != info {
                    guard let part = dictionaryPart(of: number) else { continue }
                    var dictionary = part.dictionary
                    var changed = false, searchFrom = 0
                    while let key = dictionary[searchFrom...].firstOccurrence(of: Array("/Resources".utf8)) {
                        searchFrom = key.upperBound
                        if let (target, _) = Syntax.referenceAfter(key.upperBound, in: dictionary) {
                            if targets[target] == nil { targets[target] = [] }
                            continue
                        }
                        var open = key.upperBound
                        while open < dictionary.count, Syntax.isWhite(dictionary[open]) { open += 1 }
                        guard dictionary[open...].starts(with: Array("<<".utf8)),
                              let close = Syntax.matchingClose(dictionary, open: open),
                              dictionary[open..<close].firstOccurrence(of: Array("/ColorSpace".utf8)) == nil else { return false }
                        dictionary.insert(contentsOf: Array(Self.colorSpaces(names).utf8), at: open + 2)
                        changed = true
                    }
                    if changed { inline[number] = dictionary + part.rest }
                }
                for (number, body) in inline { replace(number, body: body) }
            }
            for (number, extra) in targets {
                guard let body = body(of: number), body.firstOccurrence(of: Array("/ColorSpace".utf8)) == nil,
                      let edited = Syntax.inserting(Self.colorSpaces(names + extra), afterOpeningOf: body) else { return false }
                replace(number, body: edited)
            }
            return true
        }

        /// Every object's number, Cairo's and those added.
        var numbers: [Int] { file.objects.map(\.number) + added.map(\.number) }

        /// An object's top-level dictionary (copied, to edit) and what follows it (a stream,
        /// left in place); nil when the object is not a dictionary.
        func dictionaryPart(of number: Int) -> (dictionary: [UInt8], rest: ArraySlice<UInt8>)? {
            if let body = replaced[number] ?? added.first(where: { $0.number == number })?.body {
                guard let end = Syntax.dictionaryEnd(body[...]) else { return nil }
                return (Array(body[..<end]), body[end...])
            }
            guard let object = file.objects.first(where: { $0.number == number }) else { return nil }
            let body = pdf[object.body]
            guard let end = Syntax.dictionaryEnd(body) else { return nil }
            return (Array(body[..<end]), body[end...])
        }

        /// `/ColorSpace << /Name N 0 R ... >>` with a space in front.
        static func colorSpaces(_ names: [(name: String, object: Int)]) -> String {
            " /ColorSpace << " + names.map { "/\($0.name) \($0.object) 0 R" }.joined(separator: " ") + " >>"
        }

        /// Replaces `old` by `new` in every dictionary (stream data and the document
        /// information left alone), where `old` ends at a delimiter.
        mutating func replaceInDictionaries(_ old: String, with new: String) {
            let from = Array(old.utf8), to = Array(new.utf8)
            for number in numbers where number != info {
                guard let part = dictionaryPart(of: number) else { continue }
                var dictionary = part.dictionary
                var start = 0, changed = false
                while let range = dictionary[start...].firstOccurrence(of: from) {
                    start = range.upperBound
                    guard range.upperBound >= dictionary.count || !Syntax.isRegular(dictionary[range.upperBound]) else { continue }
                    dictionary.replaceSubrange(range, with: to)
                    start = range.lowerBound + to.count
                    changed = true
                }
                if changed { replace(number, body: dictionary + part.rest) }
            }
        }

        /// Writes every object in number order, a classic cross-reference table and the
        /// trailer (with `/ID` when given); the header says `version` (Cairo's otherwise).
        func write(version: String?, id: String?) -> [UInt8] {
            let header = version.map { "%PDF-\($0)\n%\u{B5}\u{B5}\u{B5}\u{B5}\n" }
            var out: [UInt8] = []
            out.reserveCapacity(pdf.count + added.reduce(0) { $0 + $1.body.count + 32 } + 4096)
            let first = file.objects.map(\.range.lowerBound).min() ?? 0
            if let header { out += Array(header.utf8) } else { out += pdf[..<first] }
            let size = nextNumber
            var offsets = [Int](repeating: -1, count: size)
            let cairo = Dictionary(uniqueKeysWithValues: file.objects.map { ($0.number, $0) })
            for number in 0..<size {
                if let body = replaced[number] ?? added.first(where: { $0.number == number })?.body {
                    offsets[number] = out.count
                    out += Array("\(number) 0 obj".utf8) + body + Array("endobj\n".utf8)
                } else if let object = cairo[number] {
                    offsets[number] = out.count
                    out += pdf[object.range]
                    out.append(0x0A)
                }
            }
            let xref = out.count
            var table = "xref\n0 \(size)\n"
            for number in 0..<size {
                let offset = offsets[number]
                if offset < 0 {
                    table += number == 0 ? "0000000000 65535 f \n" : "0000000000 00000 f \n"
                } else {
                    let digits = String(offset)
                    table += String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
                }
            }
            var trailer = "trailer\n<< /Size \(size) /Root \(file.root) 0 R"
            if let info { trailer += " /Info \(info) 0 R" }
            if let id { trailer += " /ID [<\(id)> <\(id)>]" } else if let cairoID = file.id { trailer += " /ID \(cairoID)" }
            trailer += " >>\nstartxref\n\(xref)\n%%EOF\n"
            out += Array((table + trailer).utf8)
            return out
        }
    }
}

extension PDFCompaction.Syntax {
    /// Whether `b` is a regular character (neither white space nor a delimiter).
    static func isRegular(_ b: UInt8) -> Bool {
        !isWhite(b) && !"()<>[]{}/%".utf8.contains(b)
    }

    /// `N 0 R` right after `index` (white space first): its number and the index past the `R`.
    static func referenceAfter(_ index: Int, in bytes: [UInt8]) -> (Int, Int)? {
        var i = index
        func field() -> Substring? {
            while i < bytes.count, isWhite(bytes[i]) { i += 1 }
            let start = i
            while i < bytes.count, isRegular(bytes[i]) { i += 1 }
            return i > start ? Substring(String(decoding: bytes[start..<i], as: UTF8.self)) : nil
        }
        guard let n = field().flatMap({ Int($0) }), field() == "0", field() == "R" else { return nil }
        return (n, i)
    }

    /// The object that `/Name N 0 R` in `bytes` refers to.
    static func referenceValue(named name: String, in bytes: [UInt8]) -> Int? {
        guard let key = bytes.firstOccurrence(of: Array(name.utf8)) else { return nil }
        return referenceAfter(key.upperBound, in: bytes)?.0
    }

    /// The index just past the `>>` that closes the `<<` at `open` (strings skipped).
    static func matchingClose<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, open: Int) -> Int?
        where Bytes.Index == Int {
        var i = open, depth = 0
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "(") { i = skipString(bytes, from: i); continue }
            if b == UInt8(ascii: "<"), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "<") { depth += 1; i += 2; continue }
            if b == UInt8(ascii: ">"), i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: ">") {
                depth -= 1; i += 2
                if depth == 0 { return i }
                continue
            }
            i += 1
        }
        return nil
    }

    /// The index just past the object's top-level dictionary, if its body starts with one.
    static func dictionaryEnd(_ body: ArraySlice<UInt8>) -> Int? {
        guard let open = body.firstIndex(where: { !isWhite($0) }), body[open...].starts(with: Array("<<".utf8)) else { return nil }
        return matchingClose(body, open: open)
    }

    /// `body` (a dictionary) with `text` inserted right after its opening `<<`.
    static func inserting(_ text: String, afterOpeningOf body: [UInt8]) -> [UInt8]? {
        guard let open = body.firstIndex(where: { !isWhite($0) }), body[open...].starts(with: Array("<<".utf8)) else { return nil }
        var out = body
        out.insert(contentsOf: Array(text.utf8), at: open + 2)
        return out
    }
}

/// The facts a PDF/X-4 states twice, in the document information and in XMP, which must agree:
/// title, author, creator, producer, dates, trapping, the PDF/X version and the document's ID.
struct PrintMetadata {
    let metadata: DocumentMetadata
    let variant: PDFVariant
    /// 32 hexadecimal digits: the trailer ID, and the XMP's document and instance IDs.
    let id: String
    let producer: String

    var title: String { metadata.title ?? "Untitled" }

    /// "cairo 1.16.0 (https://cairographics.org)", as Cairo names itself, after the creator.
    static func producer(_ metadata: DocumentMetadata) -> String {
        let cairo = String(cString: cairo_version_string())
        return "\(metadata.creator ?? "framed") with cairo \(cairo)"
    }

    static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The creation date as PDF writes dates: `D:YYYYMMDDhhmmss+00'00'`.
    var pdfDate: String { metadata.pdfDate }

    /// The same date as XMP writes it: `YYYY-MM-DDThh:mm:ss+00:00`.
    var xmpDate: String { (metadata.creationDate ?? "") + "+00:00" }

    /// `uuid:` and the ID in the 8-4-4-4-12 form.
    var uuid: String {
        let d = Array(id)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(d[$0]) }
        return "uuid:" + parts.joined(separator: "-")
    }

    /// The document information dictionary.
    func info() -> String {
        var fields = ["/Title \(Self.pdfString(title))"]
        if let author = metadata.author { fields.append("/Author \(Self.pdfString(author))") }
        if let creator = metadata.creator { fields.append("/Creator \(Self.pdfString(creator))") }
        fields += ["/Producer \(Self.pdfString(producer))", "/CreationDate (\(pdfDate))", "/ModDate (\(pdfDate))",
                   "/Trapped /False", "/GTS_PDFXVersion (\(variant))"]
        return "\n<< " + fields.joined(separator: "\n   ") + " >>\n"
    }

    /// The output intent dictionary: sRGB by its registered name, any other profile as
    /// `Custom` with its description.
    func outputIntent(profile: ICCProfile, object: Int) -> String {
        let name = profile.description.isEmpty ? "Custom output profile" : profile.description
        var fields = ["/Type /OutputIntent", "/S /GTS_PDFX"]
        if name == "sRGB IEC61966-2.1" {
            fields += ["/OutputConditionIdentifier \(Self.pdfString(name))", "/RegistryName (http://www.color.org)"]
        } else {
            fields += ["/OutputConditionIdentifier (Custom)"]
        }
        fields += ["/OutputCondition \(Self.pdfString(name))", "/Info \(Self.pdfString(name))", "/DestOutputProfile \(object) 0 R"]
        return "<< " + fields.joined(separator: " ") + " >>"
    }

    /// The XMP packet: the same facts as `info()`, UTF-8, with room to edit in place.
    func xmp() -> String {
        var description = """
              <dc:format>application/pdf</dc:format>
              <dc:title><rdf:Alt><rdf:li xml:lang="x-default">\(Self.xml(title))</rdf:li></rdf:Alt></dc:title>

            """
        if let author = metadata.author {
            description += "      <dc:creator><rdf:Seq><rdf:li>\(Self.xml(author))</rdf:li></rdf:Seq></dc:creator>\n"
        }
        if let creator = metadata.creator { description += "      <xmp:CreatorTool>\(Self.xml(creator))</xmp:CreatorTool>\n" }
        description += """
              <xmp:CreateDate>\(xmpDate)</xmp:CreateDate>
              <xmp:ModifyDate>\(xmpDate)</xmp:ModifyDate>
              <xmp:MetadataDate>\(xmpDate)</xmp:MetadataDate>
              <xmpMM:DocumentID>\(uuid)</xmpMM:DocumentID>
              <xmpMM:InstanceID>\(uuid)</xmpMM:InstanceID>
              <xmpMM:VersionID>1</xmpMM:VersionID>
              <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
              <pdf:Producer>\(Self.xml(producer))</pdf:Producer>
              <pdf:Trapped>False</pdf:Trapped>
              <pdfxid:GTS_PDFXVersion>\(variant)</pdfxid:GTS_PDFXVersion>

            """
        let padding = String(repeating: String(repeating: " ", count: 63) + "\n", count: 32)
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
              <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about=""
                    xmlns:dc="http://purl.org/dc/elements/1.1/"
                    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
                    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
                    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
            \(description)    </rdf:Description>
              </rdf:RDF>
            </x:xmpmeta>
            \(padding)<?xpacket end="w"?>
            """
    }

    /// A PDF text string: a literal one for printable ASCII (backslash, parentheses escaped),
    /// else UTF-16BE with its byte-order mark, in hexadecimal.
    static func pdfString(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) {
            var out = "("
            for c in text {
                if c == "\\" || c == "(" || c == ")" { out.append("\\") }
                out.append(c)
            }
            return out + ")"
        }
        var hex = "<FEFF"
        for unit in text.utf16 {
            let digits = String(unit, radix: 16, uppercase: true)
            hex += String(repeating: "0", count: 4 - digits.count) + digits
        }
        return hex + ">"
    }

    /// Text escaped for XML.
    static func xml(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // Control characters other than tab and line breaks are not allowed in XML 1.0.
                if c.value < 0x20 && c != "\t" && c != "\n" && c != "\r" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }
}
