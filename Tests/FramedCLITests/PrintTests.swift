import Foundation
import FoundationXML
import FramedTestSupport
import Testing

/// Print-ready output end to end (issue 20): page boxes on every PDF, crop marks, PDF/X-4, and
/// the photo labs' JPEG and TIFF, each read back by a tool that is not framed: qpdf's JSON for the
/// PDF's structure, poppler and Ghostscript for what it shows, exiftool, tiffinfo and ImageMagick
/// for the JPEG and TIFF. Expected numbers come from millimetres and inches by hand.
struct PrintTests {
    static let mm = 72 / 25.4

    // MARK: qpdf's view of a PDF

    /// The objects of `pdf` as qpdf sees them (`qpdf --json=2`, streams' data inline): trailer
    /// first, then objects by "N 0 R".
    struct PDFObjects {
        var objects: [String: Any]
        var trailer: [String: Any]
        /// The version qpdf read from the file's header and catalog.
        var version: String?

        init(_ pdf: URL) throws {
            let result = try Tool.run("qpdf", ["--json=2", "--json-stream-data=inline", "--decode-level=generalized", pdf.path])
            #expect(result.status == 0, "qpdf --json: \(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
            let qpdf = json?["qpdf"] as? [Any]
            objects = qpdf?.count == 2 ? (qpdf?[1] as? [String: Any] ?? [:]) : [:]
            version = (qpdf?.first as? [String: Any])?["pdfversion"] as? String
            trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any] ?? [:]
        }

        /// The dictionary of the object `reference` ("12 0 R"), or of a stream's dictionary.
        func dictionary(_ reference: Any?) -> [String: Any] {
            guard let reference = reference as? String, let object = objects["obj:" + reference] as? [String: Any] else { return [:] }
            if let value = object["value"] as? [String: Any] { return value }
            return (object["stream"] as? [String: Any])?["dict"] as? [String: Any] ?? [:]
        }

        /// A stream's decoded data.
        func streamData(_ reference: Any?) -> Data {
            guard let reference = reference as? String, let object = objects["obj:" + reference] as? [String: Any],
                  let data = (object["stream"] as? [String: Any])?["data"] as? String else { return Data() }
            return Data(base64Encoded: data) ?? Data()
        }

        var catalog: [String: Any] { dictionary(trailer["/Root"]) }
        var info: [String: Any] { dictionary(trailer["/Info"]) }

        /// The page dictionaries in order.
        var pages: [[String: Any]] {
            ((dictionary(catalog["/Pages"])["/Kids"] as? [Any]) ?? []).map { dictionary($0) }
        }
    }

    /// A box as qpdf gives it, as four numbers.
    static func box(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }

    static func expectBox(_ value: Any?, _ expected: [Double], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let got = box(value)
        #expect(got.count == 4 && zip(got, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "\(name) \(got) != \(expected)",
                sourceLocation: sourceLocation)
    }

    /// A text string as qpdf writes it in JSON ("u:" and the text).
    static func text(_ value: Any?) -> String? {
        (value as? String).map { $0.hasPrefix("u:") ? String($0.dropFirst(2)) : $0 }
    }

    // MARK: Boxes

    /// A4 portrait with 3 mm bleed and crop marks: media = 210 + 2 x 3 + 2 x 9 mm wide; trim
    /// inset 12 mm, bleed 9 mm; without a page the trim is the canvas, and the media is it.
    @Test func everyPDFHasItsBoxes() throws {
        let folder = try CLITests.workspace()
        let paged = folder.appendingPathComponent("paged.pdf"), plain = folder.appendingPathComponent("plain.pdf")
        try #require(CLITests.framed(["photo.jpg", "-o", paged.path, "--page", "A4", "--orientation", "portrait",
                                      "--bleed", "3mm", "--marks", "crop"], in: folder).status == 0)
        try #require(CLITests.framed(["photo.jpg", "-o", plain.path, "--shadow", "none", "--border", "0"], in: folder).status == 0)

        let mm = Self.mm
        let width = (210 + 6 + 18) * mm, height = (297 + 6 + 18) * mm
        let page = try #require(PDFObjects(paged).pages.first)
        Self.expectBox(page["/MediaBox"], [0, 0, width, height], "MediaBox")
        Self.expectBox(page["/BleedBox"], [9 * mm, 9 * mm, width - 9 * mm, height - 9 * mm], "BleedBox")
        Self.expectBox(page["/TrimBox"], [12 * mm, 12 * mm, width - 12 * mm, height - 12 * mm], "TrimBox")

        // 320x200 px at 96 per inch is 240x150 pt: every box is the canvas.
        let canvas = try #require(PDFObjects(plain).pages.first)
        for name in ["/MediaBox", "/BleedBox", "/TrimBox"] { Self.expectBox(canvas[name], [0, 0, 240, 150], name) }
        #expect(try Tool.run("qpdf", ["--check", paged.path]).status == 0)

        // framed layout says the same, y downwards from the top-left corner.
        let layout = try CLITests.framed(["layout", "photo.jpg", "--page", "A4", "--orientation", "portrait", "--bleed", "3mm",
                                          "--marks", "crop"], in: folder)
        let json = try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any]
        let boxes = json?["boxes"] as? [String: Any]
        func rect(_ name: String) -> [Double] {
            let r = boxes?[name] as? [String: Double] ?? [:]
            return [r["x"] ?? .nan, r["y"] ?? .nan, r["width"] ?? .nan, r["height"] ?? .nan]
        }
        let expected: [String: [Double]] = ["media": [0, 0, width, height],
                                            "bleed": [9 * mm, 9 * mm, (210 + 6) * mm, (297 + 6) * mm],
                                            "trim": [12 * mm, 12 * mm, 210 * mm, 297 * mm]]
        for (name, values) in expected {
            #expect(zip(rect(name), values).allSatisfy { abs($0 - $1) < 1e-5 }, "layout \(name): \(rect(name))")
        }
        #expect(boxes?["marks"] as? String == "crop")
    }

    // MARK: Crop marks

    /// The marks as poppler and Ghostscript draw them: dark where the geometry puts them (in
    /// line with the trim's edges, 3 to 8 mm outside the bleed), white in between, and the
    /// canvas colour stops at the bleed box.
    @Test func cropMarksRenderWhereTheyBelong() throws {
        let folder = try CLITests.workspace()
        let pdf = folder.appendingPathComponent("marks.pdf")
        try #require(CLITests.framed(["photo.jpg", "-o", pdf.path, "--page", "100mmx100mm", "--bleed", "3mm", "--marks", "crop",
                                      "--canvas-color", "#3366cc", "--shadow", "none"], in: folder).status == 0)
        let dpi = 300.0, px = dpi / 25.4  // pixels per mm
        // In mm from the media box's top-left corner: 3 mm of bleed, then a 3 mm gap, a 5 mm
        // mark and 1 mm of paper beyond it, so the trim starts 12 mm in and the media is 124 mm.
        let side = 100.0, bleed = 3.0, gap = 3.0, length = 5.0, slug = gap + length + 1
        let trimStart = slug + bleed, trimEnd = trimStart + side, media = side + 2 * (bleed + slug)
        let nearStart = trimStart - bleed - gap - length, nearEnd = trimEnd + bleed + gap + length / 2
        for (renderer, image) in [("poppler", try Support.rasterisePDF(pdf, dpi: dpi)),
                                  ("Ghostscript", try Support.rasterisePDFWithGhostscript(pdf, dpi: dpi))] {
            #expect(abs(Double(image.width) - media * px) <= 1.5, "\(renderer): width \(image.width)")
            func luma(_ xmm: Double, _ ymm: Double) -> Int {
                let p = image.rgba(Int(xmm * px), Int(ymm * px))
                // Ghostscript's pngalpha leaves paper transparent: count it as white.
                return p.a == 0 ? 255 : (p.r + p.g + p.b) / 3
            }
            // The marks are 0.25 pt (about 1 px at 300 dpi): look in a small window across them.
            func darkest(alongX x: Double, y: Double) -> Int {
                (-2...2).map { dy in
                    let p = image.rgba(Int(x * px), Int(y * px) + dy)
                    return p.a == 0 ? 255 : (p.r + p.g + p.b) / 3
                }.min()!
            }
            func darkestAcross(x: Double, alongY y: Double) -> Int {
                (-2...2).map { dx in
                    let p = image.rgba(Int(x * px) + dx, Int(y * px))
                    return p.a == 0 ? 255 : (p.r + p.g + p.b) / 3
                }.min()!
            }
            // Eight marks: at each trim corner one in line with each edge, halfway along it.
            let middleBefore = nearStart + length / 2
            for corner in [trimStart, trimEnd] {
                for other in [trimStart, trimEnd] {
                    let along = other == trimStart ? middleBefore : nearEnd
                    #expect(darkest(alongX: along, y: corner) < 128, "\(renderer): horizontal mark at y \(corner), x \(along)")
                    #expect(darkestAcross(x: corner, alongY: along) < 128, "\(renderer): vertical mark at x \(corner), y \(along)")
                }
            }
            // The gap between mark and bleed, and the slug away from the marks, are paper.
            #expect(darkest(alongX: trimStart - bleed - gap / 2, y: trimStart) > 230, "\(renderer): the gap is paper")
            #expect(luma(middleBefore, trimStart + 18) > 230, "\(renderer): the slug away from the marks is paper")
            // From the bleed box's edge (9 mm) the canvas colour, #3366cc, runs to the trim and past it.
            for x in [slug + 0.5, trimStart - 0.5] {
                let p = image.rgba(Int(x * px), Int(media / 2 * px))
                #expect(abs(p.r - 0x33) < 8 && abs(p.g - 0x66) < 8 && abs(p.b - 0xcc) < 8,
                        "\(renderer): canvas colour in the bleed at \(x) mm: \(p)")
            }
            #expect(luma(slug - 0.5, media / 2) > 230, "\(renderer): paper just outside the bleed box")
        }
        // In the PDF the marks are in the registration colour: a Separation named All.
        let objects = try PDFObjects(pdf)
        let page = try #require(objects.pages.first)
        let spaces = objects.dictionary(page["/Resources"])["/ColorSpace"] as? [String: Any]
        let registration = try #require(spaces?.values.first as? String)
        let array = (objects.objects["obj:" + registration] as? [String: Any])?["value"] as? [Any]
        #expect(array?.first as? String == "/Separation" && array?.dropFirst().first as? String == "/All")
        // A plain PDF has no output intent: the registration colour's alternate is CMYK's 100 %
        // of every ink (an RGB alternate is for an RGB output intent alone).
        Self.expectRegistration(array, space: "/DeviceCMYK", full: [1, 1, 1, 1], none: [0, 0, 0, 0])
        // Stroked at full tint of that colour, 0.25 pt wide.
        let name = try #require(spaces?.keys.first)
        let contents = page["/Contents"].map { ($0 as? [Any]) ?? [$0] } ?? []
        let stream = contents.map { String(decoding: objects.streamData($0), as: UTF8.self) }.joined(separator: "\n")
        #expect(stream.contains("\(name) CS 1 SCN 0.25 w"), "the marks' stroke")
    }

    /// `--marks crop` in SVG and PNG too: the output grows by 9 mm a side, the marks are drawn.
    @Test func cropMarksInSVGAndPNG() throws {
        let folder = try CLITests.workspace()
        let svg = folder.appendingPathComponent("m.svg"), png = folder.appendingPathComponent("m.png")
        let look = ["--marks", "crop", "--shadow", "none", "--border", "0"]
        try #require(CLITests.framed(["photo.jpg", "-o", svg.path] + look, in: folder).status == 0)
        try #require(CLITests.framed(["photo.jpg", "-o", png.path, "--dpi", "254"] + look, in: folder).status == 0)
        // 240x150 pt canvas plus 2 x 9 mm.
        let text = try String(contentsOf: svg, encoding: .utf8)
        let width = 240 + 18 * Self.mm
        let sized = text.contains("width=\"\(PrintTests.cairoNumber(width))pt\""), stroked = text.contains("stroke-width:0.25")
        #expect(sized, "SVG width \(width)")
        #expect(stroked, "the marks are 0.25 pt strokes")
        // At 254 dpi a mm is 10 px: the canvas is 240 pt = 846.67 px plus 180 px.
        let image = try Support.readPNG(png)
        #expect(image.width == Int((240.0 / 72 * 254 + 180 - 1e-6).rounded(.up)), "\(image.width)")
        // The top-left vertical mark: x at the trim's left edge (90 px), y from 10 to 60 px;
        // 0.25 pt is 0.9 px at 254 dpi, so it is a faint line.
        let mark = (86...94).map { image.rgba($0, 35).a }.max()!
        #expect(mark > 64, "a mark in the PNG")
        #expect(image.rgba(90, 75).a == 0, "the gap is transparent")
    }

    /// The registration colour's alternate space and its tint transform's ends (C1 at full
    /// tint, C0 at none), from the Separation array qpdf gives.
    static func expectRegistration(_ array: [Any]?, space: String, full: [Double], none: [Double],
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(array?.count == 4 && array?[2] as? String == space, "alternate \(String(describing: array))",
                sourceLocation: sourceLocation)
        let function = array?.last as? [String: Any] ?? [:]
        func numbers(_ key: String) -> [Double] { (function[key] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
        #expect(numbers("/C1") == full && numbers("/C0") == none && (function["/FunctionType"] as? NSNumber)?.intValue == 2,
                "tint transform \(function)", sourceLocation: sourceLocation)
    }

    static func cairoNumber(_ v: Double) -> String {
        var text = String(format: "%.6f", v)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    @Test func marksTakeOnlyCropOrNone() throws {
        let folder = try CLITests.workspace()
        let result = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--marks", "registration"], in: folder)
        CLITests.expectOneLineError(result, status: 2, mentioning: ["--marks", "registration"])
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"])
    }

    // MARK: PDF/X-4

    /// Everything PDF/X-4 asks for, read back with qpdf: version, ID, Info, XMP, output intent
    /// with its profile, boxes; and nothing it forbids.
    @Test func pdfX4HasEveryPart() throws {
        let folder = try CLITests.workspace()
        let pdf = folder.appendingPathComponent("x4.pdf")
        let result = try Tool.run(CLITests.binary, ["photo.jpg", "-o", pdf.path, "--pdf-variant", "PDF/X-4", "--page", "A5",
                                                    "--bleed", "3mm", "--marks", "crop", "--author", "Ann"],
                                  in: folder, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        try #require(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: pdf)
        #expect(bytes.starts(with: Data("%PDF-1.6".utf8)))
        #expect(try Tool.run("qpdf", ["--check", pdf.path]).status == 0)

        let objects = try PDFObjects(pdf)
        #expect(objects.version == "1.6", "qpdf reads PDF \(objects.version ?? "?")")
        #expect(objects.catalog["/Version"] == nil || objects.catalog["/Version"] as? String == "/1.6")
        let ids = objects.trailer["/ID"] as? [String]
        #expect(ids?.count == 2 && ids?[0].count == 2 + 32 && ids?[0] == ids?[1], "trailer /ID \(String(describing: ids))")
        #expect(objects.trailer["/Encrypt"] == nil)

        // 1700000000 s is 2023-11-14 22:13:20 UTC.
        let info = objects.info
        #expect(Self.text(info["/Title"]) == "photo.jpg", "the input's name when there is no --title")
        #expect(Self.text(info["/Author"]) == "Ann")
        #expect(info["/Trapped"] as? String == "/False")
        #expect(Self.text(info["/GTS_PDFXVersion"]) == "PDF/X-4")
        #expect(Self.text(info["/CreationDate"]) == "D:20231114221320+00'00'")
        #expect(Self.text(info["/ModDate"]) == "D:20231114221320+00'00'")

        // XMP: the same facts.
        let catalog = objects.catalog
        let metadata = objects.dictionary(catalog["/Metadata"])
        #expect(metadata["/Type"] as? String == "/Metadata" && metadata["/Subtype"] as? String == "/XML")
        let xmp = String(decoding: objects.streamData(catalog["/Metadata"]), as: UTF8.self)
        let hex = (ids?.first ?? "").dropFirst(2)
        let uuid = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { r in
            String(hex.dropFirst(r.lowerBound).prefix(r.count))
        }.joined(separator: "-")
        for field in ["<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>",
                      "<rdf:li xml:lang=\"x-default\">photo.jpg</rdf:li>", "<rdf:li>Ann</rdf:li>",
                      "<xmp:CreateDate>2023-11-14T22:13:20+00:00</xmp:CreateDate>",
                      "<xmp:ModifyDate>2023-11-14T22:13:20+00:00</xmp:ModifyDate>",
                      "<xmpMM:DocumentID>uuid:\(uuid)</xmpMM:DocumentID>", "<xmpMM:VersionID>1</xmpMM:VersionID>",
                      "<xmpMM:RenditionClass>default</xmpMM:RenditionClass>", "<pdf:Trapped>False</pdf:Trapped>",
                      "<pdf:Producer>\(Self.text(info["/Producer"]) ?? "?")</pdf:Producer>",
                      "<xmp:CreatorTool>\(Self.text(info["/Creator"]) ?? "?")</xmp:CreatorTool>"] {
            #expect(xmp.contains(field), "XMP has \(field)")
        }
        #expect(XMLParser(data: Data(xmp.utf8)).parse(), "the XMP is well-formed XML")
        #expect(XMLStructure.problem(in: Array(xmp.utf8)) == nil, "\(XMLStructure.problem(in: Array(xmp.utf8)) ?? "")")

        // The output intent: sRGB, embedded, its profile an RGB ICC profile read by the header.
        let intents = catalog["/OutputIntents"] as? [Any]
        #expect(intents?.count == 1)
        let intent = objects.dictionary(intents?.first)
        #expect(intent["/S"] as? String == "/GTS_PDFX" && intent["/Type"] as? String == "/OutputIntent")
        #expect(Self.text(intent["/OutputConditionIdentifier"]) == "sRGB IEC61966-2.1")
        #expect(Self.text(intent["/Info"]) != nil)
        let profile = objects.streamData(intent["/DestOutputProfile"])
        #expect(objects.dictionary(intent["/DestOutputProfile"])["/N"] as? Int == 3)
        let header = Self.iccHeader(profile)
        #expect(header?.0 == "RGB " && header?.1 == "mntr", "an RGB display profile")

        // The marks' registration colour under the sRGB intent: an RGB alternate, black at full tint.
        let page = try #require(objects.pages.first)
        let spaces = objects.dictionary(page["/Resources"])["/ColorSpace"] as? [String: Any]
        let registration = (spaces?["/FramedRegistration"] as? String).flatMap { objects.objects["obj:" + $0] as? [String: Any] }
        Self.expectRegistration(registration?["value"] as? [Any], space: "/DeviceRGB", full: [0, 0, 0], none: [1, 1, 1])

        // Every page has its boxes; nothing X-4 forbids.
        for page in objects.pages { #expect(page["/TrimBox"] != nil && page["/BleedBox"] != nil && page["/MediaBox"] != nil) }
        // No object, once qpdf has unpacked the object streams, names what X-4 forbids.
        let structure = try Tool.run("qpdf", ["--json=2", "--json-key=qpdf", pdf.path]).output
        for forbidden in ["/JavaScript", "/JS", "/Encrypt", "/Launch", "/URI", "/AA", "/OpenAction", "/EmbeddedFiles",
                          "/Ref", "/OPI"] {
            #expect(!structure.contains("\"\(forbidden)\""), "\(forbidden)")
        }

        // Same input, same bytes.
        let again = folder.appendingPathComponent("again.pdf")
        _ = try Tool.run(CLITests.binary, ["photo.jpg", "-o", again.path, "--pdf-variant", "x-4", "--page", "A5", "--bleed", "3mm",
                                           "--marks", "crop", "--author", "Ann"],
                         in: folder, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(try Data(contentsOf: again) == bytes, "reproducible")
    }

    /// The ICC header's colour space and device class (bytes 16-19 and 12-15), after checking
    /// the size field and the `acsp` signature.
    static func iccHeader(_ icc: Data) -> (String, String)? {
        let b = [UInt8](icc)
        guard b.count >= 128, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) == b.count,
              String(decoding: b[36..<40], as: UTF8.self) == "acsp" else { return nil }
        return (String(decoding: b[16..<20], as: UTF8.self), String(decoding: b[12..<16], as: UTF8.self))
    }

    /// A CMYK intent: the file's profile embedded as it is, and RGB kept device-independent by
    /// DefaultRGB in every resource dictionary and sRGB blending spaces; the page still renders.
    @Test func cmykOutputIntent() throws {
        let cmyk = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
        let folder = try CLITests.workspace()
        let pdf = folder.appendingPathComponent("cmyk.pdf")
        let result = try CLITests.framed(["photo.jpg", "-o", pdf.path, "--pdf-variant", "x-4", "--output-intent", cmyk,
                                          "--title", "Proof", "--border", "0", "--shadow", "0 0 5px black"], in: folder)
        try #require(result.status == 0, "\(result.stderr)")
        let objects = try PDFObjects(pdf)
        #expect(Self.text(objects.info["/Title"]) == "Proof")
        let intent = objects.dictionary((objects.catalog["/OutputIntents"] as? [Any])?.first)
        #expect(objects.streamData(intent["/DestOutputProfile"]) == (try Data(contentsOf: URL(fileURLWithPath: cmyk))))
        #expect(objects.dictionary(intent["/DestOutputProfile"])["/N"] as? Int == 4)

        // Every resource dictionary, the page's and each form's, names DefaultRGB: ICC-based, N 3.
        var resources: [[String: Any]] = []
        for case let (key, value as [String: Any]) in objects.objects where key.hasPrefix("obj:") {
            let dictionary = value["value"] as? [String: Any] ?? (value["stream"] as? [String: Any])?["dict"] as? [String: Any] ?? [:]
            if let inline = dictionary["/Resources"] as? [String: Any] { resources.append(inline) }
            if let reference = dictionary["/Resources"] as? String { resources.append(objects.dictionary(reference)) }
            if let group = dictionary["/Group"] as? [String: Any] { #expect(group["/CS"] as? String != "/DeviceRGB", "\(key)") }
        }
        #expect(resources.count >= 2, "the page's and the shadow's")
        for dictionary in resources {
            let space = (dictionary["/ColorSpace"] as? [String: Any])?["/DefaultRGB"]
            let array = ((space as? String).map { objects.objects["obj:" + $0] } as? [String: Any])?["value"] as? [Any]
            #expect(array?.first as? String == "/ICCBased", "DefaultRGB in \(dictionary.keys.sorted())")
            #expect(objects.dictionary(array?.last)["/N"] as? Int == 3)
        }
        let image = try Support.rasterisePDF(pdf, dpi: 72)
        // The shadow's blur of 5px is 2 sigma: the canvas grows by 3 sigma, 7.5 px = 5.625 pt, a side.
        #expect(image.width == Int((240 + 2 * 5.625).rounded(.up)) && image.height == Int((150 + 2 * 5.625).rounded(.up)),
                "\(image.width)x\(image.height)")
        #expect(try Tool.run("qpdf", ["--check", pdf.path]).status == 0)
    }

    @Test func pdfVariantErrorsWriteNothing() throws {
        let folder = try CLITests.workspace()
        let gray = "/usr/share/color/icc/ghostscript/default_gray.icc"
        let cases: [([String], Int32, [String])] = [
            (["-o", "x.png", "--pdf-variant", "x-4"], 2, ["x.png", "--pdf-variant", "PNG"]),
            (["-o", "x.pdf", "--pdf-variant", "pdf/x-1a"], 2, ["--pdf-variant", "pdf/x-1a"]),
            (["-o", "x.pdf", "--pdf-variant", "x-4", "--output-intent", "missing.icc"], 1, ["missing.icc"]),
            (["-o", "x.pdf", "--pdf-variant", "x-4", "--output-intent", "photo.jpg"], 2, ["--output-intent", "photo.jpg"]),
            (["-o", "x.pdf", "--pdf-variant", "x-4", "--output-intent", gray], 2, ["--output-intent", "GRAY"]),
            (["-o", "x.pdf", "--output-intent", gray], 2, ["--output-intent", "--pdf-variant"]),
        ]
        for (arguments, status, words) in cases {
            let result = try CLITests.framed(["photo.jpg"] + arguments, in: folder)
            CLITests.expectOneLineError(result, status: status, mentioning: words)
            #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"], "nothing written for \(arguments)")
        }
    }

    /// Issue 32: an output intent whose size is not what its header says, or over 64 MB, is
    /// refused (lcms2 reads what it can of either): a header claiming 300 MB in a file that size
    /// (sparse) is refused unread, where the first 64 MB of it were embedded; a profile with bytes
    /// after it, or cut short, is refused too. Nothing is written.
    @Test func anOutputIntentOfTheWrongSizeIsRefused() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/default_cmyk.icc")))
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
            return name
        }
        func claiming(_ size: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + profile.dropFirst(4) }
        let huge = try write("huge.icc", claiming(300 << 20))
        #expect(truncate(folder.appendingPathComponent(huge).path, 300 << 20) == 0)
        let over = try write("over.icc", claiming((64 << 20) + 1))
        #expect(truncate(folder.appendingPathComponent(over).path, (64 << 20) + 1) == 0)
        let cases: [(String, [String])] = [
            (huge, ["larger than 64 MB"]),
            (over, ["larger than 64 MB"]),
            (try write("long.icc", profile + [UInt8](repeating: 0, count: 1000)),
             ["header says it holds \(profile.count) bytes, but it has \(profile.count + 1000)"]),
            (try write("cut.icc", Array(profile.prefix(profile.count / 2))),
             ["header says it holds \(profile.count) bytes, but it has \(profile.count / 2)"]),
        ]
        for (name, words) in cases {
            let r = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--pdf-variant", "x-4", "--output-intent", name], in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: [name] + words)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.pdf").path), "\(name): no PDF")
        }
        let r = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--pdf-variant", "x-4", "--output-intent",
                                     try write("good.icc", profile)], in: folder)
        #expect(r.status == 0, "the profile itself: \(r.stderr)")
    }

    // MARK: Photo labs

    /// A 6x4 in print for a lab: 1800x1200 pixels at 300 dpi, 8-bit RGB without alpha, sRGB
    /// profile, JFIF density, 4:4:4, as exiftool reads them; a transparent PNG comes out on
    /// white unless the canvas has a colour.
    @Test func labJPEG() throws {
        let folder = try CLITests.workspace()
        let jpeg = folder.appendingPathComponent("print.jpg")
        try #require(CLITests.framed(["shot.png", "-o", jpeg.path, "--page", "6inx4in", "--orientation", "landscape",
                                      "--quality", "95"], in: folder).status == 0)
        let tags = try Self.exiftool(jpeg)
        #expect(tags["File:ImageWidth"] as? Int == 1800 && tags["File:ImageHeight"] as? Int == 1200)
        #expect(tags["File:ColorComponents"] as? Int == 3 && tags["File:BitsPerSample"] as? Int == 8)
        #expect(tags["File:YCbCrSubSampling"] as? String == "1 1", "4:4:4")
        #expect(tags["JFIF:XResolution"] as? Int == 300 && tags["JFIF:YResolution"] as? Int == 300)
        #expect(tags["JFIF:ResolutionUnit"] as? Int == 1, "dots per inch")
        #expect(tags["ICC_Profile:ProfileDescription"] as? String == "sRGB IEC61966-2.1")
        #expect(tags["ICC-header:ColorSpaceData"] as? String == "RGB ")
        #expect(try Self.pixel(jpeg, x: 5, y: 5).allSatisfy { $0 > 250 }, "the page around the frame is white")
        #expect(try Self.magick(["identify", "-format", "%[quality]", jpeg.path]) == "95")

        // --canvas-color shows instead of white; --scale 2 means 192 dpi.
        let blue = folder.appendingPathComponent("blue.jpeg")
        try #require(CLITests.framed(["photo.jpg", "-o", blue.path, "--canvas-color", "#0000ff", "--margin", "10",
                                      "--scale", "2"], in: folder).status == 0)
        let blueTags = try Self.exiftool(blue)
        #expect(blueTags["JFIF:XResolution"] as? Int == 192)
        let corner = try Self.pixel(blue, x: 2, y: 2)
        #expect(corner[0] < 10 && corner[1] < 10 && corner[2] > 245, "the canvas colour \(corner)")
    }

    /// TIFF: the same pixels' size, LZW, RGB 8 bits, no extra samples, the profile in tag 34675
    /// and the resolution, as tiffinfo and exiftool read them; with --bleed and --marks the
    /// output grows as a PDF's media box does.
    @Test func labTIFF() throws {
        let folder = try CLITests.workspace()
        let tiff = folder.appendingPathComponent("print.tif")
        try #require(CLITests.framed(["photo.jpg", "-o", tiff.path, "--page", "6inx4in", "--bleed", "0.125in", "--marks", "crop",
                                      "--dpi", "200"], in: folder).status == 0)
        // 6.25 x 4.25 in plus 2 x 9 mm of slug, at 200 dpi.
        let slug = 18 / 25.4
        let width = Int(((6.25 + slug) * 200 - 1e-6).rounded(.up)), height = Int(((4.25 + slug) * 200 - 1e-6).rounded(.up))
        let info = try Tool.run("tiffinfo", [tiff.path])
        #expect(info.status == 0)
        #expect(info.output.contains("Image Width: \(width) Image Length: \(height)"), "\(info.output)")
        #expect(info.output.contains("Compression Scheme: LZW"))
        #expect(info.output.contains("Samples/Pixel: 3") && info.output.contains("Bits/Sample: 8"))
        #expect(info.output.contains("Resolution: 200, 200 pixels/inch"))
        #expect(info.output.contains("ICC Profile: <present>"))
        let tags = try Self.exiftool(tiff)
        #expect(tags["ICC_Profile:ProfileDescription"] as? String == "sRGB IEC61966-2.1")
        #expect(tags["IFD0:PhotometricInterpretation"] as? Int == 2, "RGB")
        #expect(tags["IFD0:ExtraSamples"] == nil, "no alpha")

        // .tiff at the default 300 dpi: the 320x200 px picture with a 10 px margin is 340x220 px
        // at 96 per inch, so 1062.5x687.5 pixels, rounded up; the margin is the canvas colour.
        let red = folder.appendingPathComponent("red.TIFF")
        try #require(CLITests.framed(["photo.jpg", "-o", red.path, "--shadow", "none", "--border", "0", "--margin", "10",
                                      "--canvas-color", "#ff0000"], in: folder).status == 0)
        let redInfo = try Tool.run("tiffinfo", [red.path]).output
        #expect(redInfo.contains("Image Width: 1063 Image Length: 688"), "\(redInfo)")
        #expect(redInfo.contains("Resolution: 300, 300 pixels/inch"))
        let corner = try Self.pixel(red, x: 3, y: 3)
        #expect(corner == [255, 0, 0], "the canvas colour \(corner)")

        let format = try CLITests.framed(["photo.jpg", "-o", "-", "--format", "tiff"], in: folder)
        #expect(format.status == 0 && format.stdout.utf8.starts(with: [0x49, 0x49, 0x2A, 0x00]), "--format tiff")
        let jpeg = try Tool.run(CLITests.binary, ["photo.jpg", "-o", "-", "--format", "jpeg"], in: folder)
        #expect(jpeg.status == 0 && jpeg.stdout.starts(with: [0xFF, 0xD8, 0xFF]), "--format jpeg")
    }

    static func exiftool(_ file: URL) throws -> [String: Any] {
        let result = try Tool.run("exiftool", ["-j", "-G1", "-n", file.path])
        #expect(result.status == 0, "exiftool: \(result.stderr)")
        let list = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
        return list?.first ?? [:]
    }

    static func magick(_ arguments: [String]) throws -> String {
        let result = try Tool.run(arguments[0], Array(arguments.dropFirst()))
        #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One pixel's 8-bit RGB as ImageMagick decodes it.
    static func pixel(_ file: URL, x: Int, y: Int) throws -> [Int] {
        let text = try magick(["convert", file.path, "-crop", "1x1+\(x)+\(y)", "-depth", "8", "-format", "%[fx:int(255*r)] %[fx:int(255*g)] %[fx:int(255*b)]", "info:"])
        return text.split(separator: " ").compactMap { Int($0) }
    }
}

/// The date a PDF states (issue 30, item 4): the time of framing without `SOURCE_DATE_EPOCH`,
/// checked against this test's own clock, the same second in the Info and in PDF/X-4's XMP.
struct PDFDateTests {
    /// `D:YYYYMMDDhhmmss+00'00'` as a date, nil when it is not that.
    static func pdfDate(_ text: String?) -> Date? {
        guard let text, text.hasPrefix("D:"), text.hasSuffix("+00'00'") else { return nil }
        let digits = text.dropFirst(2).prefix(14)
        let format = DateFormatter()
        format.dateFormat = "yyyyMMddHHmmss"
        format.timeZone = TimeZone(identifier: "UTC")
        return format.date(from: String(digits))
    }

    @Test func withoutSourceDateEpochAPDFIsDatedWhenItIsFramed() throws {
        let folder = try CLITests.workspace()
        for (name, extra) in [("plain.pdf", [String]()), ("x4.pdf", ["--pdf-variant", "x-4"])] {
            let pdf = folder.appendingPathComponent(name)
            let result = try Tool.run(CLITests.binary, ["photo.jpg", "-o", pdf.path] + extra, in: folder,
                                      removing: ["SOURCE_DATE_EPOCH"])
            try #require(result.status == 0, "\(result.stderr)")
            let objects = try PrintTests.PDFObjects(pdf)
            let created = PrintTests.text(objects.info["/CreationDate"])
            let date = try #require(Self.pdfDate(created), "\(name): /CreationDate \(created ?? "none")")
            #expect(abs(date.timeIntervalSinceNow) < 60, "\(name): \(date) is not now")
            #expect(PrintTests.text(objects.info["/ModDate"]) == created, "\(name): /ModDate")
            guard name == "x4.pdf" else { continue }
            // XMP says the same second.
            let xmp = String(decoding: objects.streamData(objects.catalog["/Metadata"]), as: UTF8.self)
            let iso = ISO8601DateFormatter()
            for field in ["xmp:CreateDate", "xmp:ModifyDate", "xmp:MetadataDate"] {
                let value = xmp.components(separatedBy: "<\(field)>").dropFirst().first?.components(separatedBy: "<").first
                #expect(value.flatMap { iso.date(from: $0) } == date, "\(field) \(value ?? "none") against \(date)")
            }
        }
    }
}
