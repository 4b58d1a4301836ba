import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Captions (issue 22), end to end: the text found in the PDF by poppler and its font embedded,
/// its ink inside the box `framed layout` reports and nowhere else, in PNG and in SVG and PDF
/// as independent renderers draw them; wrapping, alignment, position, colour, font, warnings.
struct CaptionTests {
    /// A folder with `white.png` (200x120, white) and the workspace's `photo.jpg`.
    static func folder() throws -> URL {
        let folder = try CLITests.workspace()
        let white = [UInt8](repeating: 255, count: 200 * 120 * 4)
        try Data(PictureEncoder.png(RasterImage(width: 200, height: 120, pixels: white)))
            .write(to: folder.appendingPathComponent("white.png"))
        return folder
    }

    /// White mat and picture, no border or shadow, a red caption: every red pixel is the text's.
    static let plain = ["--shadow", "none", "--border", "0", "--padding", "20", "--background", "white",
                        "--caption-color", "#ff0000"]

    /// The caption's box in CSS px from `framed layout` with the same arguments, and the layout.
    static func layout(_ arguments: [String], in folder: URL) throws -> (box: (x: Double, y: Double, w: Double, h: Double),
                                                                         lines: Int, json: [String: Any]) {
        let r = try PresetConfigLayoutTests.run(["layout"] + arguments, in: folder)
        let json = try PresetConfigLayoutTests.json(r)
        let caption = try #require(json["caption"] as? [String: Any], "\(json)")
        let box = try PresetConfigLayoutTests.rect(caption["box"])
        return ((box.x / 0.75, box.y / 0.75, box.w / 0.75, box.h / 0.75), try #require(caption["lines"] as? Int), json)
    }

    /// Pixels where red clearly wins over green and blue: the caption's ink on white.
    static func redPixels(_ image: RasterImage) -> [(x: Int, y: Int)] {
        var found: [(Int, Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgba(x, y)
                if p.a > 128 && p.r - p.g > 60 && p.r - p.b > 60 { found.append((x, y)) }
            }
        }
        return found
    }

    static func render(_ arguments: [String], to name: String, in folder: URL) throws -> RasterImage {
        let r = try CLITests.framed(arguments + ["-o", name, "-f"], in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        return try Support.readPNG(folder.appendingPathComponent(name))
    }

    /// Every red pixel inside the box (grown by a pixel for antialiasing), and some there.
    static func expectInkInBox(_ image: RasterImage, box: (x: Double, y: Double, w: Double, h: Double), scale: Double = 1,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        let red = redPixels(image)
        #expect(red.count > 20, "the caption has ink: \(red.count) red pixels", sourceLocation: sourceLocation)
        let outside = red.filter { p in
            Double(p.x) < (box.x - 1) * scale || Double(p.x) >= (box.x + box.w + 1) * scale
                || Double(p.y) < (box.y - 1) * scale || Double(p.y) >= (box.y + box.h + 1) * scale
        }
        #expect(outside.isEmpty, "red pixels outside the caption's box \(box): \(outside.prefix(5))", sourceLocation: sourceLocation)
    }

    @Test func pdfKeepsTheCaptionAsTextInAnEmbeddedSubsetFont() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // "é" as e + U+0301, and a line of Hebrew and one of Arabic (right to left), each a PDF
        // of its own: pdftotext reorders a line that mixes directions in its own way.
        let captions = ["Caf\u{65}\u{301} au Mont-Blanc", "\u{5E9}\u{5DC}\u{5D5}\u{5DD} \u{5E2}\u{5D5}\u{5DC}\u{5DD}",
                        "\u{645}\u{631}\u{62D}\u{628}\u{627}"]
        for (index, words) in captions.enumerated() {
            let r = try CLITests.framed(["white.png", "-o", "c\(index).pdf", "--caption", words] + Self.plain, in: folder)
            try #require(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            let text = try Tool.run("pdftotext", ["-enc", "UTF-8", "c\(index).pdf", "-"], in: folder)
            try #require(text.status == 0, "pdftotext (poppler-utils): \(text.stderr)")
            // Swift compares strings by canonical equivalence ("é" precomposed or not). poppler
            // wraps right-to-left text in embedding marks, and puts spaces between Arabic letters
            // that join: both are left out of the comparison.
            let marks: Set<Unicode.Scalar> = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{200E}", "\u{200F}"]
            let found = String(String.UnicodeScalarView(text.output.unicodeScalars.filter { !marks.contains($0) }))
            if index == 2 {
                #expect(found.filter { !$0.isWhitespace }.contains(words), "pdftotext finds \(words) in \(text.output.debugDescription)")
            } else {
                #expect(found.contains(index == 0 ? "Café au Mont-Blanc" : words), "pdftotext finds \(words) in \(text.output.debugDescription)")
            }
        }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("c0.pdf"), to: folder.appendingPathComponent("c.pdf"))
        let fonts = try Tool.run("pdffonts", ["c.pdf"], in: folder)
        try #require(fonts.status == 0, "pdffonts: \(fonts.stderr)")
        let rows = fonts.output.split(separator: "\n").dropFirst(2)
        #expect(!rows.isEmpty, "a font in the PDF: \(fonts.output)")
        for row in rows {
            // name type encoding emb sub uni object: the subset's name is six capitals and a plus.
            #expect(row.contains("DejaVuSans") && row.range(of: #"^[A-Z]{6}\+"#, options: .regularExpression) != nil, "\(row)")
            let columns = row.split(separator: " ")
            let emb = columns[columns.count - 5], sub = columns[columns.count - 4]
            #expect(emb == "yes" && sub == "yes", "embedded and subset: \(row)")
        }
    }

    @Test func pngInkStaysInTheBoxThatLayoutReports() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for extra in [[], ["--scale", "2"], ["--caption-position", "below", "--canvas-color", "white"]] {
            let arguments = ["white.png", "--caption", "Lac d’Annecy, 1998"] + Self.plain + extra
            let scale = extra.contains("--scale") ? 2.0 : 1
            let (box, lines, _) = try Self.layout(arguments + ["-o", "x.png"], in: folder)
            #expect(lines == 1)
            let image = try Self.render(arguments, to: "c.png", in: folder)
            Self.expectInkInBox(image, box: box, scale: scale)
        }
    }

    @Test func svgAndPDFDrawTheCaptionWhereLayoutSays() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["white.png", "--caption", "Lac d’Annecy at dawn, from the road above Talloires"] + Self.plain
            + ["--canvas-color", "white"]
        let svg = try Self.layout(arguments + ["-o", "x.svg"], in: folder).box
        var r = try CLITests.framed(arguments + ["-o", "c.svg"], in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        Self.expectInkInBox(try Support.rasteriseSVG(folder.appendingPathComponent("c.svg"), zoom: 1), box: svg)
        let pdf = try Self.layout(arguments + ["-o", "x.pdf"], in: folder).box
        r = try CLITests.framed(arguments + ["-o", "c.pdf"], in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        let poppler = try Support.rasterisePDF(folder.appendingPathComponent("c.pdf"), dpi: 96)
        Self.expectInkInBox(poppler, box: pdf)
        Self.expectInkInBox(try Support.rasterisePDFWithMuPDF(folder.appendingPathComponent("c.pdf"), dpi: 96), box: pdf)
        Self.expectInkInBox(try Support.rasterisePDFWithGhostscript(folder.appendingPathComponent("c.pdf"), dpi: 96), box: pdf)
        // Drawn alike: the ink's bounds in framed's PNG, in poppler's render of the PDF and in
        // librsvg's of the SVG agree to a pixel (the lines break in the same places).
        let png = try Self.render(arguments, to: "c.png", in: folder)
        func bounds(_ image: RasterImage) -> [Int] {
            let red = Self.redPixels(image)
            return [red.map(\.x).min() ?? -1, red.map(\.y).min() ?? -1, red.map(\.x).max() ?? -1, red.map(\.y).max() ?? -1]
        }
        let svgImage = try Support.rasteriseSVG(folder.appendingPathComponent("c.svg"), zoom: 1)
        for other in [bounds(poppler), bounds(svgImage)] {
            #expect(zip(bounds(png), other).allSatisfy { abs($0 - $1) <= 1 }, "PNG \(bounds(png)), other \(other)")
        }
    }

    @Test func thePictureKeepsItsBoxAndPixels() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = ["photo.jpg", "--shadow", "none", "--border", "0", "--padding", "20", "--background", "white"]
        for format in ["png", "svg"] {
            let plain = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + base + ["-o", "x.\(format)"], in: folder))
            let captioned = try Self.layout(base + ["--caption", "Photo", "-o", "x.\(format)"], in: folder).json
            let before = try PresetConfigLayoutTests.rect(plain["picture"]), after = try PresetConfigLayoutTests.rect(captioned["picture"])
            #expect(before == after, "the picture's box: \(before) then \(after)")
        }
        // The frame grows under the picture by half an em (16px / 2) and the text's height (in
        // SVG: a PNG's frame is snapped to whole pixels).
        let plain = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + base + ["-o", "x.svg"], in: folder))
        let (box, _, captioned) = try Self.layout(base + ["--caption", "Photo", "-o", "x.svg"], in: folder)
        let frame0 = try PresetConfigLayoutTests.rect(plain["frame"]), frame1 = try PresetConfigLayoutTests.rect(captioned["frame"])
        #expect(abs(frame1.h - frame0.h - (8 + box.h) * 0.75) < 1e-6, "\(frame0) \(frame1) \(box)")
        #expect(abs(box.y - (20 + 200 + 8)) < 1e-6, "the caption starts half an em under the picture: \(box)")
        let a = try Self.render(base, to: "a.png", in: folder), b = try Self.render(base + ["--caption", "Photo"], to: "b.png", in: folder)
        for y in 20..<220 {
            for x in stride(from: 20, to: 340, by: 7) { #expect(a.rgba(x, y) == b.rgba(x, y), "picture pixel \(x),\(y)") }
        }
    }

    @Test func aLongCaptionWrapsInWholeLines() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try Self.layout(["white.png", "--caption", "Short", "-o", "x.png"] + Self.plain, in: folder)
        let long = "The long way round the lake takes most of a day, past the old mill and the church"
        let many = try Self.layout(["white.png", "--caption", long, "-o", "x.png"] + Self.plain, in: folder)
        #expect(one.lines == 1 && many.lines >= 3, "\(one.lines) then \(many.lines) lines")
        #expect(abs(many.box.h - Double(many.lines) * one.box.h) < 1e-6, "whole lines: \(one.box.h) and \(many.box.h)")
        #expect(many.box.w == one.box.w && abs(many.box.w - 200) < 1e-9, "wrapped to the picture's width")
        // Below the frame it wraps to the frame's width (picture and padding).
        let below = try Self.layout(["white.png", "--caption", long, "--caption-position", "below", "-o", "x.png"] + Self.plain,
                                    in: folder)
        #expect(abs(below.box.w - 240) < 1e-9 && below.lines <= many.lines)
        let image = try Self.render(["white.png", "--caption", long] + Self.plain, to: "c.png", in: folder)
        Self.expectInkInBox(image, box: many.box)
        let rows = Set(Self.redPixels(image).map(\.y)).sorted()
        let bands = zip(rows, rows.dropFirst()).filter { $1 - $0 > 1 }.count + 1
        #expect(bands == many.lines, "\(many.lines) lines of ink, found \(bands) bands")
    }

    @Test func alignmentMovesTheInk() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func inkLeft(_ align: String, _ words: String = "Short") throws -> (left: Int, right: Int) {
            let image = try Self.render(["white.png", "--caption", words, "--caption-align", align] + Self.plain,
                                        to: "align.png", in: folder)
            let xs = Self.redPixels(image).map(\.x)
            return (xs.min() ?? -1, xs.max() ?? -1)
        }
        let left = try inkLeft("left"), center = try inkLeft("center"), right = try inkLeft("right")
        #expect(left.left < center.left && center.left < right.left, "\(left) \(center) \(right)")
        #expect(left.left <= 22 && right.right >= 217, "flush with the content box (20 to 220): \(left) \(right)")
        #expect(try inkLeft("start") == left && inkLeft("end") == right, "left to right: start is left")
        // Right to left: start is the right side.
        let hebrew = "\u{5E9}\u{5DC}\u{5D5}\u{5DD}"
        let start = try inkLeft("start", hebrew), end = try inkLeft("end", hebrew)
        #expect(start.right >= 217 && end.left <= 22, "\(start) \(end)")
        #expect(try inkLeft("left", hebrew).left <= 22 && inkLeft("right", hebrew).right >= 217)
    }

    @Test func colourFontAndPositionChangeTheOutput() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The default colour: dark grey on the white mat, light grey on a black one.
        for (mat, expected) in [("white", 0x33), ("black", 0xee)] {
            let image = try Self.render(["white.png", "--caption", "IIIII", "--caption-font", "bold 40px \"DejaVu Sans\"",
                                         "--shadow", "none", "--border", "0", "--padding", "20", "--background", mat],
                                        to: "mat-\(mat).png", in: folder)
            var counts: [Int: Int] = [:]
            for y in 160..<image.height { for x in 0..<image.width { counts[image.rgba(x, y).r, default: 0] += 1 } }
            #expect((counts[expected] ?? 0) > 100, "solid \(expected) strokes on \(mat): \(counts.sorted { $0.value > $1.value }.prefix(3))")
        }
        // A bigger font makes a taller box; italic and serif keep the text.
        let small = try Self.layout(["white.png", "--caption", "Words", "--caption-font", "10px sans-serif", "-o", "x.png"],
                                    in: folder)
        let big = try Self.layout(["white.png", "--caption", "Words", "--caption-font", "italic 30px/2 \"DejaVu Serif\"",
                                   "-o", "x.png"], in: folder)
        #expect(small.box.h > 10 && small.box.h < 14, "a 10px font's line: \(small.box)")
        #expect(abs(big.box.h - 60) < 1e-3, "line-height 2 at 30px: 60px, \(big.box.h)")
        let r = try CLITests.framed(["white.png", "-o", "s.pdf", "--caption", "Words", "--caption-font",
                                     "italic 14px \"DejaVu Serif\""], in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        let fonts = try Tool.run("pdffonts", ["s.pdf"], in: folder)
        #expect(fonts.output.contains("DejaVuSerif-Italic"), "\(fonts.output)")
        // Below: under the frame, and the canvas grows to hold it.
        let base = ["white.png", "--shadow", "none", "--border", "0", "--padding", "20", "-o", "x.png"]
        let plain = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + base, in: folder))
        let below = try Self.layout(base + ["--caption", "Words", "--caption-position", "below"], in: folder)
        let frame = try PresetConfigLayoutTests.rect(below.json["frame"])
        #expect(abs(below.box.y - (frame.y + frame.h) / 0.75 - 8) < 1e-6, "half an em under the frame: \(below.box) \(frame)")
        let canvas0 = try #require(plain["canvas"] as? [String: Double]), canvas1 = try #require(below.json["canvas"] as? [String: Double])
        #expect(canvas1["height"]! >= canvas0["height"]! + (8 + below.box.h) * 0.75 - 1e-6, "\(canvas0) \(canvas1)")
        #expect(frame.h == (try PresetConfigLayoutTests.rect(plain["frame"])).h, "the frame keeps its size")
    }

    @Test func aMissingFontFallsBackWithAWarning() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["white.png", "-o", "c.png", "--caption", "Words",
                                     "--caption-font", "14px \"No Such Family Anywhere\""], in: folder)
        #expect(r.status == 0)
        #expect(r.stderr.contains("warning") && r.stderr.contains("No Such Family Anywhere") && r.stderr.contains("DejaVu"),
                "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        // A generic family at the end of the list is the fallback asked for: no warning.
        let quiet = try CLITests.framed(["white.png", "-o", "d.png", "--caption", "Words",
                                         "--caption-font", "14px \"No Such Family Anywhere\", sans-serif"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func badCaptionSettingsAreOneLineErrors() throws {
        for bad in [["--caption-font", "italic"], ["--caption-font", "14qq Serif"], ["--caption-font", "14px"],
                    ["--caption-font", "bolder 14px Serif"], ["--caption-font", "14px \"Open"],
                    ["--caption-font", "101in x"], ["--caption", String(repeating: "x", count: 10_001)],
                    ["--caption-position", "above"], ["--caption-align", "justify"], ["--caption-color", "reddish"]] {
            let r = try CLITests.framed(["x.png", "-o", "y.png", "--caption", "Words"] + bad)
            CLITests.expectOneLineError(r, status: 2, mentioning: [bad[0]])
        }
    }

    /// Pango and GLib are opened at the first caption only (dlopen): a run without one loads
    /// none of their libraries, as `ldd` and the dynamic loader's own log (LD_DEBUG) show.
    @Test func pangoIsOpenedForACaptionOnly() throws {
        let linked = try LinkageTests.sharedLibraries(of: CLITests.binary)
        #expect(!linked.contains { $0.hasPrefix("libpango") || $0.hasPrefix("libglib") || $0.hasPrefix("libharfbuzz") },
                "\(linked.sorted())")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func loadsPango(_ extra: [String]) throws -> Bool {
            let r = try Tool.run(CLITests.binary, ["white.png", "-o", "c.png", "-f"] + extra, in: folder,
                                 environment: ["LD_DEBUG": "files"])
            #expect(r.status == 0, "\(r.stderr)")
            return r.stderr.contains("file=libpangocairo-1.0.so.0")
        }
        #expect(try !loadsPango([]))
        #expect(try loadsPango(["--caption", "Words"]))
    }

    /// Without a usable Pango (here a stand-in of its name, with none of its functions, found
    /// first through LD_LIBRARY_PATH), a caption or a window title is one line saying what is
    /// missing, exit 1 as for any library the machine lacks (not 2: no setting is wrong), and
    /// nothing is written; a picture without text is framed as usual.
    @Test func withoutPangoTextIsOneLineAndExit1() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("int framed_stand_in;\n".utf8).write(to: folder.appendingPathComponent("empty.c"))
        let made = try Tool.run("cc", ["-shared", "-fPIC", "-o", "libpangocairo-1.0.so.0", "empty.c"], in: folder)
        #expect(made.status == 0, "cc: \(made.stderr)")
        let environment = ["LD_LIBRARY_PATH": folder.path]
        // Both found when the picture is planned (Pango is made ready for the text then), before
        // it is read: the line names the picture.
        for (extra, named) in [(["--caption", "Words"], "white.png"), (["--chrome", "macos", "--chrome-title", "Words"], "white.png")] {
            let r = try Tool.run(CLITests.binary, ["white.png", "-o", "c.png"] + extra, in: folder, environment: environment)
            CLITests.expectOneLineError(CLITests.Result(status: r.status, stdout: r.output, stderr: r.stderr), status: 1,
                                        mentioning: [named, "Pango", "libpangocairo-1.0-0"])
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.png").path), "\(extra)")
        }
        let r = try Tool.run(CLITests.binary, ["white.png", "-o", "c.png", "--chrome", "macos"], in: folder, environment: environment)
        #expect(r.status == 0, "no text, no Pango needed: \(r.stderr)")
    }

    @Test func everyPictureOfABatchGetsItsCaption() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["white.png", "photo.jpg", "-o", "out/{stem}.pdf", "--caption", "{stem} ({ext}) {x}"],
                                    in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        for (name, ext) in [("white", "png"), ("photo", "jpg")] {
            let text = try Tool.run("pdftotext", ["out/\(name).pdf", "-"], in: folder)
            #expect(text.output.contains("\(name) (\(ext)) {x}"), "\(name): \(text.output)")
        }
        // One PDF of pages: each page has its own picture's name.
        let pages = try CLITests.framed(["white.png", "photo.jpg", "-o", "both.pdf", "--pages", "--caption", "{name}"], in: folder)
        try #require(pages.status == 0, "\(pages.stderr)")
        let text = try Tool.run("pdftotext", ["both.pdf", "-"], in: folder)
        #expect(text.output.contains("white.png") && text.output.contains("photo.jpg"), "\(text.output)")
    }
}
