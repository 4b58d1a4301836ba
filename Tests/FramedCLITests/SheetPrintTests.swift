import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Several prints on a sheet (issue 30, item 6), end to end: the sheet rendered at 300 dpi by
/// Ghostscript and by PDFium (each print's bleed band in the canvas colour, the paper between
/// bleeds, the marks along the cuts in the margin and nowhere else, nothing near the sheet's
/// edge, a turned print turned clockwise), the page boxes read back by pikepdf, and `framed
/// layout` against the millimetres worked out here.
///
/// The sheet: A4 (210 x 297 mm), 100 x 150 mm prints with 3 mm bleed and a 10 mm gutter. Less
/// the 9 mm margins and the outer bleeds, 186 x 273 mm hold one print upright (100 + 10 + 100 >
/// 186) and two turned (150 <= 186; 100 + 10 + 100 <= 273): landscape cells, one column, two
/// rows, the block 150 x 210 mm centred at (30, 43.5) mm; cut lines at x = 30, 180 and y =
/// 43.5, 143.5, 153.5, 253.5 mm.
struct SheetPrintTests {
    static let look = ["--sheet", "A4", "--page", "100mmx150mm", "--bleed", "3mm", "--gutter", "10mm", "--marks", "crop",
                       "--canvas-color", "#3366cc", "--shadow", "none", "--border", "2mm", "--border-color", "#222222",
                       "--padding", "0"]
    static let trims: [[Double]] = [[30, 43.5, 150, 100], [30, 153.5, 150, 100]]

    /// `tall.png`: 200 x 320, its left half red and its right half green, to see which way it turns.
    static func tall(in folder: URL) throws {
        var pixels: [UInt8] = []
        for _ in 0..<320 { for x in 0..<200 { pixels += x < 100 ? [220, 0, 0, 255] : [0, 200, 0, 255] } }
        try Data(PictureEncoder.png(RasterImage(width: 200, height: 320, pixels: pixels, hasAlpha: false), dropAlpha: true))
            .write(to: folder.appendingPathComponent("tall.png"))
    }

    static func json(_ result: CLITests.Result) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
    }

    static func millimetres(_ value: Any?) -> [Double] {
        let r = value as? [String: Double] ?? [:]
        return ["x", "y", "width", "height"].map { ((r[$0] ?? .nan) / 72 * 25.4 * 1000).rounded() / 1000 }
    }

    /// The same picture twice on one sheet is one image drawn twice, and the sheet's resources
    /// name it once: qpdf reads the file without a warning (it exits 3 on one, such as Cairo's
    /// "dictionary has duplicated key /x7"), and pikepdf finds one image drawn at two places.
    @Test func aPictureTwiceOnASheetIsNamedOnce() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try OptionOutputTests.framed(["photo.jpg", "photo.jpg", "-o", "twice.pdf"] + Self.look, in: folder)
        try #require(run.status == 0, "\(run.stderr)")
        let check = try Tool.run("qpdf", ["--check", "twice.pdf"], in: folder)
        #expect(check.status == 0 && !(check.output + check.stderr).contains("duplicated"), "\(check.output) \(check.stderr)")
        let script = """
            import pikepdf, re
            pdf = pikepdf.open("twice.pdf")
            page = pdf.pages[0]
            images = [name for name, x in page.Resources.XObject.items() if x.Subtype == "/Image"]
            contents = page.Contents if isinstance(page.Contents, pikepdf.Array) else [page.Contents]
            drawn = re.findall(rb"(/[A-Za-z0-9]+) Do", b"".join(c.read_bytes() for c in contents))
            print(len(pdf.pages), len(images), sum(1 for d in drawn if d.decode() in images))
            """
        let judged = try Tool.run(PDFViewer.pikepdfPython, ["-c", script], in: folder)
        #expect(judged.output == "1 1 2\n", "pages, images named, images drawn: \(judged.output) \(judged.stderr)")
    }

    @Test func sheetsRenderWhereTheGridSays() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.tall(in: folder)
        let inputs = ["photo.jpg", "tall.png", "photo.jpg"]
        let run = try OptionOutputTests.framed(inputs + ["-o", "sheets.pdf"] + Self.look, in: folder)
        #expect(run.stderr.isEmpty || run.stderr.contains("onto 2 sheets of sheets.pdf"), "\(run.stderr)")

        // framed layout: each print's sheet, cell and boxes.
        let layout = try Self.json(try CLITests.framed(["layout"] + inputs + Self.look, in: folder))
        try #require(layout.count == 3)
        let sheets = layout.map { $0["sheet"] as? [String: Any] ?? [:] }
        #expect(sheets.map { $0["number"] as? Int } == [1, 1, 2] && sheets.map { $0["row"] as? Int } == [1, 2, 1])
        #expect(sheets.map { $0["turned"] as? Bool } == [false, true, false])
        for (sheet, trim) in zip(sheets, Self.trims + [Self.trims[0]]) {
            #expect(Self.millimetres(sheet["trim"]) == trim, "\(sheet)")
            #expect(Self.millimetres(sheet["bleed"]) == [trim[0] - 3, trim[1] - 3, trim[2] + 6, trim[3] + 6])
        }
        // The turned print's own page is portrait, its picture within its trim on the sheet.
        #expect((layout[1]["page"] as? [String: Any])?["orientation"] as? String == "portrait")
        let clip = Self.millimetres(sheets[1]["pictureClip"])
        #expect(clip[0] >= 30 && clip[1] >= 153.5 && clip[0] + clip[2] <= 180 && clip[1] + clip[3] <= 253.5, "\(clip)")

        // The boxes of every page, read by pikepdf: the sheet, finished as it is.
        let script = "import pikepdf,sys\nfor p in pikepdf.open(sys.argv[1]).pages:\n"
            + "    print(' '.join('%.3f' % float(v) for b in ('/MediaBox','/BleedBox','/TrimBox') for v in p.obj[b]))"
        let boxes = try Tool.run(PDFViewer.pdfiumPython, ["-c", script, folder.appendingPathComponent("sheets.pdf").path])
        let a4 = "0.000 0.000 595.276 841.890"
        #expect(boxes.status == 0 && boxes.output == "\(a4) \(a4) \(a4)\n\(a4) \(a4) \(a4)\n", "\(boxes.output)\(boxes.stderr)")

        let pdf = folder.appendingPathComponent("sheets.pdf")
        for viewer in [PDFViewer.ghostscript, .pdfium] {
            let (image, sx, sy, top) = try viewer.render(pdf, page: 1, dpi: 300, pageSize: (595.276, 841.890))
            #expect(abs(Double(image.width) - 210 / 25.4 * 300) <= 1.5 && abs(Double(image.height) - 297 / 25.4 * 300) <= 1.5,
                    "\(viewer): \(image.width)x\(image.height)")
            func pixel(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int, a: Int) {
                image.rgba(min(image.width - 1, Int(x * 72 / 25.4 * sx)), min(image.height - 1, Int(y * 72 / 25.4 * sy + top)))
            }
            func near(_ p: (r: Int, g: Int, b: Int, a: Int), _ c: (Int, Int, Int), _ tolerance: Int = 8) -> Bool {
                abs(p.r - c.0) <= tolerance && abs(p.g - c.1) <= tolerance && abs(p.b - c.2) <= tolerance
            }
            /// The ink across a mark at (x, y) mm, running along x (`horizontal`) or along y: the
            /// darkness summed over 7 pixels across it. A 0.25 pt line at 300 dpi is 1.04 pixels
            /// wide, about 265 (PDFium spreads it over two rows, Ghostscript draws one); paper 0.
            func ink(_ x: Double, _ y: Double, horizontal: Bool) -> Int {
                (-3...3).reduce(0) { sum, d in
                    let p = image.rgba(Int(x * 72 / 25.4 * sx) + (horizontal ? 0 : d), Int(y * 72 / 25.4 * sy + top) + (horizontal ? d : 0))
                    return sum + 255 - (p.r + p.g + p.b) / 3
                }
            }
            let blue = (0x33, 0x66, 0xcc), white = (255, 255, 255)
            for trim in Self.trims {
                // The bleed band, 1.5 mm outside the trim at the middle of each edge: the canvas colour.
                let (x0, y0, x1, y1) = (trim[0], trim[1], trim[0] + trim[2], trim[1] + trim[3])
                for (x, y) in [((x0 + x1) / 2, y0 - 1.5), ((x0 + x1) / 2, y1 + 1.5), (x0 - 1.5, (y0 + y1) / 2), (x1 + 1.5, (y0 + y1) / 2)] {
                    #expect(near(pixel(x, y), blue), "\(viewer): bleed at \(x), \(y) mm is \(pixel(x, y))")
                }
                // Just past the bleed: paper.
                for (x, y) in [((x0 + x1) / 2, y0 - 4.5), (x0 - 4.5, (y0 + y1) / 2), (x1 + 4.5, (y0 + y1) / 2)] {
                    #expect(near(pixel(x, y), white, 2), "\(viewer): paper at \(x), \(y) mm is \(pixel(x, y))")
                }
            }
            // The gutter between the bleeds (146.5 to 150.5 mm): paper.
            #expect(near(pixel(105, 148.5), white, 2), "\(viewer): gutter \(pixel(105, 148.5))")
            // Marks along every cut, 3 to 8 mm beyond the block's bleed: ink halfway along.
            for x in [30.0, 180] {
                #expect(ink(x, 43.5 - 3 - 5.5, horizontal: false) > 150, "\(viewer): mark above x = \(x)")
                #expect(ink(x, 253.5 + 3 + 5.5, horizontal: false) > 150, "\(viewer): mark below x = \(x)")
                #expect(ink(x, 43.5 - 3 - 1.5, horizontal: false) < 10, "\(viewer): the gap above x = \(x) is paper")
            }
            for y in [43.5, 143.5, 153.5, 253.5] {
                #expect(ink(30 - 3 - 5.5, y, horizontal: true) > 150 && ink(180 + 3 + 5.5, y, horizontal: true) > 150,
                        "\(viewer): marks at y = \(y)")
            }
            // No mark between the prints: the gutter's middle, in line with the cuts, is paper.
            #expect(ink(30, 148.5, horizontal: false) < 10 && ink(105, 148.5, horizontal: true) < 10, "\(viewer): nothing in the gutter")
            // Nothing near the sheet's edge: a ring 2 mm in is paper all round.
            var inked = 0
            for t in stride(from: 2.0, through: 295.0, by: 3) {
                for (x, y) in [(2.0, t), (208.0, t), (min(t, 208), 2.0), (min(t, 208), 295.0)] where !near(pixel(x, y), white, 2) {
                    inked += 1
                }
            }
            #expect(inked == 0, "\(viewer): \(inked) inked points 2 mm from the sheet's edge")
            // The turned print: its left half (red) on top, its right half (green) below.
            let (cx, cy) = (clip[0] + clip[2] / 2, clip[1] + clip[3] / 2)
            #expect(near(pixel(cx, cy - clip[3] / 4), (220, 0, 0), 12), "\(viewer): top of the turned picture \(pixel(cx, cy - clip[3] / 4))")
            #expect(near(pixel(cx, cy + clip[3] / 4), (0, 200, 0), 12), "\(viewer): bottom \(pixel(cx, cy + clip[3] / 4))")
        }
    }

    /// A picture that fills its print's trim (a frame the page's size, `cover`, no border, mat
    /// or safe margin) continues
    /// into the print's bleed on the sheet: its red left edge left of the trim, its green right
    /// edge right of it. A5 (148 x 210 mm) holds two 60 x 90 mm prints either way up; a tie
    /// goes to the way that turns none: one column from (44, 12) mm, 6 mm between the rows.
    @Test func aPictureThatFillsItsPrintBleedsOnTheSheet() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.tall(in: folder)
        try OptionOutputTests.framed(["tall.png", "photo.jpg", "-o", "fill.pdf", "--sheet", "A5", "--page", "60mmx90mm",
                                      "--bleed", "3mm", "--safe-margin", "0", "--size", "60mmx90mm", "--border", "0", "--padding", "0",
                                      "--shadow", "none", "--fit", "cover", "--embed", "jpeg"], in: folder)
        let image = try PDFViewer.ghostscript.render(folder.appendingPathComponent("fill.pdf"), dpi: 150,
                                                     pageSize: (419.528, 595.276)).image
        func pixel(_ x: Double, _ y: Double) -> (r: Int, g: Int, b: Int, a: Int) { image.rgba(Int(x / 25.4 * 150), Int(y / 25.4 * 150)) }
        let left = pixel(44 - 1.5, 57), right = pixel(104 + 1.5, 57), paper = pixel(44 - 4.5, 57)
        #expect(left.r > 180 && left.g < 60, "left bleed \(left)")
        #expect(right.g > 160 && right.r < 60, "right bleed \(right)")
        #expect(paper.r > 250 && paper.g > 250 && paper.b > 250, "past the bleed \(paper)")
    }

    /// A contact sheet: a 4x5 grid with each picture's name under it, upright.
    @Test func aContactSheetIsAGridWithCaptions() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.tall(in: folder)
        let inputs = ["photo.jpg", "tall.png", "shot.png", "photo.jpg", "tall.png", "shot.png"]
        let look = ["--sheet", "A4", "--n-up", "4x5", "--caption", "{name}", "--orientation", "portrait", "--marks", "crop"]
        try OptionOutputTests.framed(inputs + ["-o", "contact.pdf"] + look, in: folder)
        let info = try Tool.run("pdfinfo", [folder.appendingPathComponent("contact.pdf").path])
        #expect(info.output.contains("Pages:           1"), "\(info.output)")
        let layout = try Self.json(try CLITests.framed(["layout"] + inputs + look, in: folder))
        // (192 / 4) x (279 / 5) mm cells from (9, 9): 48 x 55.8 mm.
        for (index, print) in layout.enumerated() {
            let sheet = try #require(print["sheet"] as? [String: Any])
            let trim = Self.millimetres(sheet["trim"])
            #expect(trim == [9 + Double(index % 4) * 48, 9 + Double(index / 4) * 55.8, 48, 55.8], "\(index): \(trim)")
            #expect(sheet["turned"] as? Bool == false)
            let caption = try #require(print["caption"] as? [String: Any], "a caption")
            let box = Self.millimetres(caption["box"])
            // The caption's box, in the print's own page, lies inside the page's trim.
            let own = Self.millimetres((print["page"] as? [String: Any])?["trim"])
            #expect(box[0] >= own[0] && box[1] >= own[1] && box[0] + box[2] <= own[0] + own[2] + 1e-3
                    && box[1] + box[3] <= own[1] + own[3] + 1e-3, "\(box) in \(own)")
        }
        // The names are drawn: ink under each picture (Ghostscript at 150 dpi).
        let image = try PDFViewer.ghostscript.render(folder.appendingPathComponent("contact.pdf"), dpi: 150,
                                                     pageSize: (595.276, 841.890)).image
        for print in layout {
            // The caption's box moved from the print's page (no bleed: its trim at 0, 0) to its cell.
            let trim = Self.millimetres((print["sheet"] as? [String: Any])?["trim"])
            let box = Self.millimetres((print["caption"] as? [String: Any])?["box"]), k = 150 / 25.4
            var dark = 0
            for y in Int((trim[1] + box[1]) * k)..<Int((trim[1] + box[1] + box[3]) * k) {
                for x in Int((trim[0] + box[0]) * k)..<Int((trim[0] + box[0] + box[2]) * k) {
                    let p = image.rgba(x, y)
                    if p.r + p.g + p.b < 300 { dark += 1 }
                }
            }
            #expect(dark > 20, "\(print["input"] ?? ""): \(dark) dark pixels in the caption's box")
        }
    }

    /// -j 1 and -j 2 give the same bytes; mistakes are one line and write nothing.
    @Test func sheetsAreTheSameWhateverTheWorkersAndRefuseMistakes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.tall(in: folder)
        let inputs = ["photo.jpg", "tall.png", "shot.png", "photo.jpg", "tall.png"]
        for (name, jobs) in [("one.pdf", "1"), ("two.pdf", "2")] {
            let r = try BatchTests.framed(inputs + ["-o", name, "-j", jobs, "--sheet", "A5"], in: folder, environment: BatchTests.reproducible)
            try #require(r.status == 0, "\(r.stderr)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("one.pdf"))
                == Data(contentsOf: folder.appendingPathComponent("two.pdf")))
        let cases: [([String], [String])] = [
            (["photo.jpg", "-o", "x.png", "--sheet", "A4"], ["--sheet", "PNG"]),
            (["photo.jpg", "-o", "x.pdf", "--n-up", "2x2"], ["--n-up needs --sheet"]),
            (["photo.jpg", "-o", "x.pdf", "--gutter", "2mm"], ["--gutter needs --sheet"]),
            (["photo.jpg", "-o", "x.pdf", "--sheet", "A4", "--bleed", "3mm", "--gutter", "4mm"], ["--gutter (4mm)", "6mm"]),
            (["photo.jpg", "-o", "x.pdf", "--sheet", "A5", "--page", "A4"], ["--page", "does not fit", "A5"]),
            (["photo.jpg", "-o", "x.pdf", "--sheet", "A4", "--n-up", "3x3", "--page", "100mmx150mm"], ["--n-up 3x3", "does not fit"]),
            (["photo.jpg", "-o", "x.pdf", "--sheet", "A4", "--n-up", "0x3"], ["--n-up", "COLUMNSxROWS"]),
            (["photo.jpg", "shot.png", "-o", "out/", "--sheet", "A4"], ["--sheet writes one PDF"]),
        ]
        for (arguments, words) in cases {
            CLITests.expectOneLineError(try CLITests.framed(arguments, in: folder), status: 2, mentioning: words)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.pdf").path))
    }
}
