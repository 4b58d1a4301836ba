import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// `--chrome` and `--chrome-theme`, read back from PNG, from SVG through librsvg and from PDF
/// through poppler. Where each part should be comes from the platforms' own sizes, worked out
/// here in CSS px: macOS's bar 28 px high with 12 px buttons whose centres are 14, 34 and 54 px
/// from the bar's left, each ringed by a darker rim half a px wide; in the dark theme a 1 px
/// rim of white at 20 % inside the window's edge and one of black at 50 % outside it (the
/// canvas one px larger all round); Windows 11's caption 32 px high with 46 px buttons from the
/// right, their 10 px glyphs drawn in whole px, the title at the left, 16 px in; the colours
/// are the platforms' (see `ChromeFigures`).
@Suite struct ChromeTests {
    typealias RGB = (Int, Int, Int)

    static let macButtons: [RGB] = [(0xff, 0x5f, 0x57), (0xfe, 0xbc, 0x2e), (0x28, 0xc8, 0x40)]
    static let macRims: [RGB] = [(0xe0, 0x44, 0x3e), (0xde, 0xa1, 0x23), (0x1a, 0xab, 0x29)]
    static let macBar: [String: RGB] = ["light": (0xec, 0xec, 0xec), "dark": (0x32, 0x32, 0x32)]
    static let windowsBar: [String: RGB] = ["light": (0xf3, 0xf3, 0xf3), "dark": (0x20, 0x20, 0x20)]
    /// The glyph colour over the bar: black at 228/255 in the light theme, white in the dark.
    static func windowsGlyph(_ theme: String) -> RGB {
        guard theme == "light" else { return (255, 255, 255) }
        let v = Int((243.0 * (1 - 228.0 / 255)).rounded())
        return (v, v, v)
    }

    /// The output as PNG (at `scale`), and the SVG and PDF outputs rasterised by librsvg and
    /// poppler at the same scale, each with the pixels per CSS px it was drawn at.
    static func renderings(_ arguments: [String], in folder: URL) throws -> [(String, RasterImage)] {
        try BackdropTests.renderings(arguments, in: folder)
    }

    /// Whether the pixel at (x, y) is `expected` within `tolerance` levels, fully opaque.
    static func check(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: RGB, tolerance: Int = 1,
                      _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = image.pixel(x: x, y: y)
        let d = max(abs(Int(p.r) - expected.0), abs(Int(p.g) - expected.1), abs(Int(p.b) - expected.2))
        #expect(d <= tolerance && p.a == 255, "\(what) at (\(x), \(y)): \(p), expected \(expected)",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: ["light", "dark"])
    func macOSButtonsSitOnTheBarAboveThePicture(theme: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        let bar = Self.macBar[theme]!
        // The dark window's outer rim takes a px of canvas on every side; its inner rim covers
        // the window's outermost px, which the checks here keep 2 px away from (poppler's
        // antialiasing spills an eighth of a thin fill into the next pixel).
        let o = theme == "dark" ? 1 : 0
        for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "macos",
                                                    "--chrome-theme", theme], in: folder) {
            #expect(image.width == 200 + 2 * o && image.height == 100 + 28 + 2 * o, "\(format): \(image.width)x\(image.height)")
            for (index, colour) in Self.macButtons.enumerated() {
                let cx = o + 14 + 20 * index
                Self.check(image, cx, o + 14, colour, "\(format): button \(index)")
                Self.check(image, cx - 4, o + 13, colour, "\(format): button \(index) left of its centre")
                // Between the buttons (4 px from either circle) and after the last: the bar.
                Self.check(image, cx + 10, o + 14, bar, "\(format): the bar right of button \(index)")
            }
            for (x, y) in [(2, 2), (197, 2), (100, 5), (197, 25), (2, 25), (150, 14)] {
                Self.check(image, o + x, o + y, bar, "\(format): the bar")
            }
            for (x, y) in [(2, 29), (197, 125), (100, 60)] {
                Self.check(image, o + x, o + y, (0, 0, 255), "\(format): the picture")
            }
        }
    }

    @Test(arguments: ["light", "dark"])
    func windowsGlyphsAreRightAlignedInTheirButtons(theme: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        let bar = Self.windowsBar[theme]!, glyph = Self.windowsGlyph(theme)
        for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "windows",
                                                    "--chrome-theme", theme], in: folder) {
            #expect(image.width == 200 && image.height == 100 + 32, "\(format): \(image.width)x\(image.height)")
            // Button centres: 23 px in from the right edge of each 46 px button; the glyphs' middle row 16.
            let close = 200 - 23, maximise = close - 46, minimise = maximise - 46, cy = 16
            // Minimise: the middle row, 10 px long.
            Self.check(image, minimise, cy, glyph, "\(format): minimise")
            Self.check(image, minimise - 5, cy, glyph, "\(format): minimise's left end")
            Self.check(image, minimise + 4, cy, glyph, "\(format): minimise's right end")
            Self.check(image, minimise, cy - 1, bar, "\(format): above minimise")
            Self.check(image, minimise + 5, cy, bar, "\(format): past minimise")
            // Maximise: the outline of the 10 px square from (cx - 5, cy - 5), empty inside.
            Self.check(image, maximise - 5, cy, glyph, "\(format): maximise's left side")
            Self.check(image, maximise + 4, cy, glyph, "\(format): maximise's right side")
            Self.check(image, maximise, cy - 5, glyph, "\(format): maximise's top")
            Self.check(image, maximise, cy + 4, glyph, "\(format): maximise's bottom")
            Self.check(image, maximise, cy, bar, "\(format): inside maximise")
            // Close: the diagonals cover pixels on them (mostly) and leave the ones between.
            let onDiagonal = image.pixel(x: close - 3, y: cy - 3)
            let darker = theme == "light" ? Int(onDiagonal.r) < bar.0 - 150 : Int(onDiagonal.r) > bar.0 + 150
            #expect(darker, "\(format): close's diagonal at (\(close - 3), \(cy - 3)): \(onDiagonal)")
            Self.check(image, close, cy - 3, bar, "\(format): between close's diagonals")
            Self.check(image, close - 3, cy + 0, bar, "\(format): between close's diagonals, left")
            for (x, y) in [(0, 0), (60, 16), (199, 0), (199, 31), (0, 31)] { Self.check(image, x, y, bar, "\(format): the bar") }
            Self.check(image, 100, 32, (0, 0, 255), "\(format): the picture under the bar")
        }
    }

    /// A plain bar, under the frame's rounded corners (radius 20 px, no border): the corner
    /// outside the circle stays transparent, so the bar is clipped there.
    @Test func thePlainBarIsRoundedByTheFramesCorners() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "plain", "--radius", "20"],
                                                   in: folder) {
            #expect(image.width == 200 && image.height == 128)
            // (2.5, 2.5) is 24.7 px from the corner circle's centre (20, 20): outside it, so
            // transparent (poppler draws on white paper).
            for (x, y) in [(0, 0), (2, 2), (197, 2)] {
                let p = image.pixel(x: x, y: y)
                #expect(format == "pdf" ? p == (255, 255, 255, 255) : p.a == 0, "\(format): (\(x), \(y)): \(p)")
            }
            for (x, y) in [(20, 5), (100, 0), (179, 5), (5, 20)] { Self.check(image, x, y, (0xec, 0xec, 0xec), "\(format): the bar") }
        }

        // With a 4 px black border the bar starts inside it and is rounded by the inner radius 16.
        try OptionOutputTests.framed(["blue.png", "-o", "b.png", "--preset", "none", "--chrome", "plain", "--radius", "20",
                                      "--border", "4", "--border-color", "#000000"], in: folder)
        let bordered = try OptionOutputTests.png("b.png", in: folder)
        #expect(bordered.width == 208 && bordered.height == 136)
        // (3.5, 14.5) is 17.4 px from (20, 20): outside the inner circle, inside the outer.
        Self.check(bordered, 3, 14, (0, 0, 0), "the border's corner")
        Self.check(bordered, 100, 3, (0, 0, 0), "the border's top")
        for (x, y) in [(100, 4), (6, 20), (100, 31)] { Self.check(bordered, x, y, (0xec, 0xec, 0xec), "the bar") }
        Self.check(bordered, 100, 32, (0, 0, 255), "the picture")
    }

    /// The bar scales like every other length: at --scale 2 everything is twice as far.
    @Test func theBarScalesWithTheOutput() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 100, height: 50, rgb: (0, 0, 255)), "blue.png", in: folder)
        try OptionOutputTests.framed(["blue.png", "-o", "s.png", "--preset", "none", "--chrome", "macos", "--scale", "2"],
                                     in: folder)
        let image = try OptionOutputTests.png("s.png", in: folder)
        #expect(image.width == 200 && image.height == 2 * (50 + 28))
        for (index, colour) in Self.macButtons.enumerated() {
            Self.check(image, 2 * (14 + 20 * index), 28, colour, "button \(index)")
        }
        Self.check(image, 100, 55, (0xec, 0xec, 0xec), "the bar's last row")
        Self.check(image, 100, 56, (0, 0, 255), "the picture's first row")
    }

    /// Vector in SVG and PDF: the picture is the only image, the buttons are paths.
    @Test func theBarStaysVectorInSVGAndPDF() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        let arguments = ["blue.png", "--preset", "none", "--chrome", "macos", "--radius", "12"]
        try OptionOutputTests.framed(arguments + ["-o", "v.svg"], in: folder)
        let svg = try String(contentsOf: folder.appendingPathComponent("v.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: "data:image/").count == 2, "only the picture is an image")
        for colour in ["fill:#ff5f57", "fill:#febc2e", "fill:#28c840"] {
            #expect(svg.contains(colour), "a path filled with \(colour)")
        }
        try OptionOutputTests.framed(arguments + ["-o", "v.pdf"], in: folder)
        let images = try Support.output("pdfimages", ["-list", folder.appendingPathComponent("v.pdf").path])
        #expect(images.split(separator: "\n").count == 3, "one image, the picture:\n\(images)")
    }

    /// The title's glyphs are one opaque colour in the SVG, the title's colour already blended
    /// over the bar: LibreOffice draws translucent glyphs too light, so none may be translucent.
    @Test(arguments: ["light", "dark"])
    func theTitleIsAnOpaqueColourInTheSVG(_ theme: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        try OptionOutputTests.framed(["blue.png", "--preset", "none", "--chrome", "macos", "--chrome-theme", theme,
                                      "--chrome-title", "Settings", "-o", "t.svg"], in: folder)
        let svg = try String(contentsOf: folder.appendingPathComponent("t.svg"), encoding: .utf8)
        // Each run of glyphs sits in a group whose style gives its fill.
        let runs = svg.components(separatedBy: "<g style=\"").dropFirst().filter { $0.prefix(400).contains("#glyph") }
        try #require(!runs.isEmpty, "the title's glyphs in \(theme)")
        for run in runs {
            let style = String(run.prefix { $0 != "\"" })
            #expect(style.contains("fill-opacity:1;"), "\(theme): the title's glyphs drawn with \(style)")
            // Light: near-black text on a light bar; dark: near-white on a dark one.
            if let hash = style.range(of: "fill:#") {
                let hex = style[hash.upperBound...].prefix(6)
                let level = Int(hex.prefix(2), radix: 16) ?? -1
                #expect(theme == "light" ? level < 0x40 : level > 0xc0, "\(theme): title colour #\(hex)")
            }
        }
    }

    /// The PDF's bar, buttons and glyphs as Ghostscript and MuPDF draw them too (poppler is in
    /// the tests above): plain fills and strokes, the same in every viewer.
    @Test func ghostscriptAndMuPDFDrawTheSameBar() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        try OptionOutputTests.framed(["blue.png", "-o", "m.pdf", "--preset", "none", "--chrome", "macos"], in: folder)
        try OptionOutputTests.framed(["blue.png", "-o", "w.pdf", "--preset", "none", "--chrome", "windows",
                                      "--chrome-theme", "dark"], in: folder)
        let m = folder.appendingPathComponent("m.pdf"), w = folder.appendingPathComponent("w.pdf")
        for (viewer, mac, windows) in [
            ("gs", try Support.rasterisePDFWithGhostscript(m, dpi: 96), try Support.rasterisePDFWithGhostscript(w, dpi: 96)),
            ("mupdf", try Support.rasterisePDFWithMuPDF(m, dpi: 96), try Support.rasterisePDFWithMuPDF(w, dpi: 96)),
        ] {
            for (index, colour) in Self.macButtons.enumerated() {
                Self.check(mac, 14 + 20 * index, 14, colour, "\(viewer): button \(index)")
            }
            Self.check(mac, 150, 14, Self.macBar["light"]!, "\(viewer): the bar")
            Self.check(mac, 100, 28, (0, 0, 255), "\(viewer): the picture")
            let glyph = Self.windowsGlyph("dark"), bar = Self.windowsBar["dark"]!
            Self.check(windows, 200 - 23 - 92, 16, glyph, "\(viewer): minimise")
            Self.check(windows, 200 - 23 - 46 - 5, 16, glyph, "\(viewer): maximise's left side")
            Self.check(windows, 200 - 23 - 46, 16, bar, "\(viewer): inside maximise")
            Self.check(windows, 20, 16, bar, "\(viewer): the bar")
        }
    }

    /// JPEG and TIFF draw the bar as PNG does (JPEG within its noise), at 96 dpi.
    @Test func jpegAndTIFFOutputsHaveTheBar() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        for (name, tolerance) in [("c.tif", 1), ("c.jpg", 10)] {
            try OptionOutputTests.framed(["blue.png", "-o", name, "--preset", "none", "--chrome", "macos",
                                          "--chrome-theme", "dark", "--dpi", "96"], in: folder)
            let image = try OptionOutputTests.png(name, in: folder)
            // The dark window's outer rim: a px of canvas all round.
            #expect(image.width == 202 && image.height == 130, "\(name): \(image.width)x\(image.height)")
            Self.check(image, 15, 15, Self.macButtons[0], tolerance: tolerance, "\(name): close button")
            Self.check(image, 151, 15, (0x32, 0x32, 0x32), tolerance: tolerance, "\(name): the bar")
            Self.check(image, 101, 81, (0, 0, 255), tolerance: tolerance, "\(name): the picture")
        }
    }

    /// `framed layout` names the bar's box; a batch frames every picture with it.
    @Test func layoutAndBatchesHaveTheBar() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "a.png", in: folder)
        try OptionOutputTests.write(Support.picture(width: 60, height: 40, rgb: (0, 0, 255)), "b.png", in: folder)
        // 3 px border, 10 px mat: the bar at (3, 3), 200 + 2 x 10 px wide, 32 px high; in points.
        let layout = try SVGInputTests.layout("a.png", ["--preset", "none", "--border", "3", "--padding", "10",
                                                        "--chrome", "windows"], in: folder)
        let bar = try SVGInputTests.rect(layout, "titleBar")
        let expected: [Double] = [3, 3, 220, 32].map { $0 * 0.75 }
        #expect([bar.x, bar.y, bar.width, bar.height] == expected, "\(bar)")
        let content = try SVGInputTests.rect(layout, "contentBox")
        let contentTop: Double = (3 + 32 + 10) * 0.75
        #expect(content.y == contentTop)
        let plain = try SVGInputTests.layout("a.png", ["--preset", "none"], in: folder)
        #expect(plain["titleBar"] == nil, "no bar, no titleBar")

        try OptionOutputTests.framed(["a.png", "b.png", "-o", "out/", "--format", "png", "--preset", "none",
                                      "--chrome", "macos"], in: folder)
        for (name, w, h) in [("a", 200, 100), ("b", 60, 40)] {
            let png = try Support.readPNG(folder.appendingPathComponent("out/\(name).png"))
            #expect(png.width == w && png.height == h + 28, "\(name): \(png.width)x\(png.height)")
            Self.check(png, 14, 14, Self.macButtons[0], "\(name): close button")
            Self.check(png, w / 2, 28, (0, 0, 255), "\(name): the picture")
        }
    }

    // MARK: The title

    /// The columns and rows (bounding box) in the bar where the pixels differ from `bar` by
    /// more than 40 levels, between the x limits; nil when none do.
    static func ink(_ image: RasterImage, bar: RGB, top: Int = 0, height: Int, from x0: Int, to x1: Int)
        -> (minX: Int, maxX: Int, minY: Int, maxY: Int, darkest: Int, lightest: Int)? {
        var box: (minX: Int, maxX: Int, minY: Int, maxY: Int, darkest: Int, lightest: Int)?
        for y in top..<(top + height) {
            for x in x0..<x1 {
                let p = image.pixel(x: x, y: y)
                guard abs(Int(p.r) - bar.0) > 40 else { continue }
                let b = box ?? (x, x, y, y, 255, 0)
                box = (min(b.minX, x), max(b.maxX, x), min(b.minY, y), max(b.maxY, y), min(b.darkest, Int(p.r)),
                       max(b.lightest, Int(p.r)))
            }
        }
        return box
    }

    /// The title is centred on the bar (its ink within 2 px of the middle both ways, measured
    /// between the buttons' insets), in the theme's text colour (black or white at 85 %: a
    /// glyph's stem reaches it), in PNG, librsvg's SVG and poppler's PDF.
    @Test(arguments: ["light", "dark"])
    func theTitleIsCentredInTheThemesColour(theme: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 400, height: 60, rgb: (0, 0, 255)), "blue.png", in: folder)
        let bar = Self.macBar[theme]!
        // The dark window's rims: the window a px in, its outermost rows left out.
        let o = theme == "dark" ? 1 : 0
        for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "macos",
                                                    "--chrome-theme", theme, "--chrome-title", "HHHH"], in: folder) {
            let box = try #require(Self.ink(image, bar: bar, top: o + 1, height: 26, from: o + 68, to: o + 400 - 68),
                                   "\(format): no title")
            let middle = Double(box.minX + box.maxX + 1) / 2 - Double(o), rows = Double(box.minY + box.maxY + 1) / 2 - Double(o)
            #expect(abs(middle - 200) <= 2, "\(format): the title's ink spans \(box.minX)...\(box.maxX)")
            #expect(abs(rows - 14) <= 2, "\(format): the title's ink spans rows \(box.minY)...\(box.maxY)")
            // Cap height of DejaVu Sans at 13 px: 0.73 em, about 9.5 px.
            #expect((8...11).contains(box.maxY - box.minY + 1), "\(format): rows \(box.minY)...\(box.maxY)")
            if theme == "light" {
                #expect(box.darkest <= Int((0.15 * Double(bar.0)).rounded()) + 6, "\(format): darkest \(box.darkest)")
            } else {
                #expect(box.lightest >= Int((0.85 * 255 + 0.15 * Double(bar.0)).rounded()) - 6, "\(format): lightest \(box.lightest)")
            }
            // The buttons' side of the bar is left alone.
            Self.check(image, o + 64, o + 14, bar, "\(format): between the buttons and the title")
        }
    }

    /// A title too long for the bar is ellipsised within the room between the insets (the
    /// buttons and 8 px on both sides); in PDF it stays text, in DejaVu Sans, and copies whole.
    @Test func aLongTitleIsEllipsisedAndStaysTextInPDF() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 300, height: 60, rgb: (0, 0, 255)), "blue.png", in: folder)
        let title = "The quarterly report, final version, reviewed and approved by everyone involved"
        for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "macos",
                                                    "--chrome-title", title], in: folder) {
            let box = try #require(Self.ink(image, bar: Self.macBar["light"]!, height: 28, from: 60, to: 300),
                                   "\(format): no title")
            #expect(box.minX >= 68 && box.maxX < 300 - 68, "\(format): the title's ink spans \(box.minX)...\(box.maxX)")
            #expect(box.maxX - box.minX > 120, "\(format): the room is used: \(box.minX)...\(box.maxX)")
        }
        // The ellipsis stands for the words it hides: the PDF's text is the whole title.
        let whole = try Support.output("pdftotext", [folder.appendingPathComponent("out.pdf").path, "-"])
        #expect(whole.contains(title), "\(whole)")
        try OptionOutputTests.framed(["blue.png", "-o", "t.pdf", "--preset", "none", "--chrome", "windows",
                                      "--chrome-title", "Quarterly report"], in: folder)
        let pdf = folder.appendingPathComponent("t.pdf").path
        let text = try Support.output("pdftotext", [pdf, "-"])
        #expect(text.contains("Quarterly report"), "\(text)")
        let fonts = try Support.output("pdffonts", [pdf])
        #expect(fonts.contains("DejaVuSans"), "\(fonts)")
    }

    /// Pango shapes and orders the text: a Hebrew title comes out as Hebrew text, in logical
    /// order, in the PDF, and is drawn centred in PNG.
    @Test func rightToLeftTitlesAreShaped() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 300, height: 60, rgb: (0, 0, 255)), "blue.png", in: folder)
        let title = "שלום עולם"
        try OptionOutputTests.framed(["blue.png", "-o", "h.pdf", "--preset", "none", "--chrome", "plain",
                                      "--chrome-title", title], in: folder)
        let text = try Support.output("pdftotext", [folder.appendingPathComponent("h.pdf").path, "-"])
        // pdftotext puts spaces between some Hebrew glyphs: compare the letters, in logical order.
        let letters = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.isAlphabetic }))
        #expect(letters.contains("שלוםעולם"), "\(text)")
        try OptionOutputTests.framed(["blue.png", "-o", "h.png", "--preset", "none", "--chrome", "plain",
                                      "--chrome-title", title], in: folder)
        let image = try OptionOutputTests.png("h.png", in: folder)
        let box = try #require(Self.ink(image, bar: Self.macBar["light"]!, height: 28, from: 0, to: 300))
        #expect(abs(Double(box.minX + box.maxX + 1) / 2 - 150) <= 2, "\(box)")
    }

    /// Windows 11 puts the title at the left, 16 px in (DejaVu's H starts 1.2 px into its
    /// advance at 12 px), in Microsoft's Caption size: 12 px, its capitals 0.73 em (about 9 px)
    /// high, centred on the 32 px bar; a long title ends before the caption buttons (3 x 46 px
    /// and 8 px). In PNG, SVG (librsvg) and PDF (poppler), in both themes.
    @Test(arguments: ["light", "dark"])
    func theWindowsTitleSitsAtTheLeft(theme: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 400, height: 60, rgb: (0, 0, 255)), "blue.png", in: folder)
        let bar = Self.windowsBar[theme]!, glyph = Self.windowsGlyph(theme)
        for title in ["HHHH", String(repeating: "Quarterly report ", count: 6)] {
            for (format, image) in try Self.renderings(["blue.png", "--preset", "none", "--chrome", "windows",
                                                        "--chrome-theme", theme, "--chrome-title", title], in: folder) {
                let box = try #require(Self.ink(image, bar: bar, height: 32, from: 0, to: 400 - 3 * 46), "\(format): no title")
                #expect((16...18).contains(box.minX), "\(format): the title's ink starts at \(box.minX)")
                #expect(box.maxX < 400 - 3 * 46 - 8 + 1, "\(format): the title's ink ends at \(box.maxX)")
                #expect(abs(Double(box.minY + box.maxY + 1) / 2 - 16) <= 2, "\(format): rows \(box.minY)...\(box.maxY)")
                if title == "HHHH" {
                    #expect((8...10).contains(box.maxY - box.minY + 1), "\(format): rows \(box.minY)...\(box.maxY)")
                    #expect(box.maxX < 17 + 4 * 9 + 2, "\(format): four Hs of 12 px end by \(box.maxX)")
                    // The stems of a 12 px H are 1.2 px wide: none covers a pixel whole.
                    if theme == "light" {
                        #expect(box.darkest <= glyph.0 + 16, "\(format): darkest \(box.darkest)")
                    } else {
                        #expect(box.lightest >= glyph.0 - 16, "\(format): lightest \(box.lightest)")
                    }
                } else {
                    #expect(box.maxX > 400 - 3 * 46 - 8 - 20, "\(format): a long title fills the room: \(box.maxX)")
                }
            }
        }
    }

    /// macOS's dark window keeps apart from a dark page by two rims: 1 px of white at 20 % just
    /// inside its edge (over the bar and the picture), 1 px of black at 50 % just outside it, on
    /// the canvas, which grows by that px; worked out here over GitHub's #0d1117, the bar's
    /// #323232 and the blue picture. The light window has neither. PNG, SVG (librsvg) and PDF
    /// (Ghostscript: poppler's antialiasing spills a thin fill into the next pixel).
    @Test func darkMacOSWindowsHaveRims() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100, rgb: (0, 0, 255)), "blue.png", in: folder)
        func over(_ rgb: RGB, _ alpha: Double, _ under: RGB) -> RGB {
            func mix(_ a: Int, _ b: Int) -> Int { Int((Double(a) * alpha + Double(b) * (1 - alpha)).rounded()) }
            return (mix(rgb.0, under.0), mix(rgb.1, under.1), mix(rgb.2, under.2))
        }
        let page: RGB = (0x0d, 0x11, 0x17), bar = Self.macBar["dark"]!, blue: RGB = (0, 0, 255)
        let outer = over((0, 0, 0), 0.5, page)
        let arguments = ["blue.png", "--preset", "none", "--chrome", "macos", "--chrome-theme", "dark", "--canvas-color", "#0d1117"]
        for (format, image) in try ["png", "svg", "pdf"].map({ format in
            (format, try CaptionContrastTests.render(arguments, format: format, in: folder))
        }) {
            #expect(image.width == 202 && image.height == 130, "\(format): \(image.width)x\(image.height)")
            for (x, y) in [(0, 0), (0, 60), (201, 60), (100, 0), (100, 129), (201, 129)] {
                Self.check(image, x, y, outer, "\(format): the outer rim")
            }
            for (x, y) in [(1, 14), (100, 1), (200, 14)] { Self.check(image, x, y, over((255, 255, 255), 0.2, bar), "\(format): the inner rim on the bar") }
            for (x, y) in [(1, 60), (100, 128), (200, 60)] { Self.check(image, x, y, over((255, 255, 255), 0.2, blue), "\(format): the inner rim on the picture") }
            for (x, y) in [(2, 14), (100, 2)] { Self.check(image, x, y, bar, "\(format): the bar inside the rim") }
            for (x, y) in [(2, 60), (100, 127)] { Self.check(image, x, y, blue, "\(format): the picture inside the rim") }
        }
        try OptionOutputTests.framed(["blue.png", "-o", "light.png", "--preset", "none", "--chrome", "macos",
                                      "--canvas-color", "#0d1117"], in: folder)
        let light = try OptionOutputTests.png("light.png", in: folder)
        #expect(light.width == 200 && light.height == 128)
        Self.check(light, 0, 0, Self.macBar["light"]!, "the light window's corner: the bar, no rim")
    }

    /// Each macOS button has a rim of a darker shade half a px wide inside its circle: at 4
    /// device px per CSS px, the circle's 24 px radius has the rim from 22 to 24 and the fill
    /// inside it, in PNG, SVG (librsvg) and PDF (poppler).
    @Test func macOSButtonsHaveADarkerRim() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 100, height: 40, rgb: (0, 0, 255)), "blue.png", in: folder)
        let arguments = ["blue.png", "--preset", "none", "--chrome", "macos"]
        try OptionOutputTests.framed(arguments + ["-o", "b.png", "--scale", "4"], in: folder)
        try OptionOutputTests.framed(arguments + ["-o", "b.svg"], in: folder)
        try OptionOutputTests.framed(arguments + ["-o", "b.pdf"], in: folder)
        let images = [("png", try OptionOutputTests.png("b.png", in: folder)),
                      ("svg", try Support.rasteriseSVG(folder.appendingPathComponent("b.svg"), zoom: 4)),
                      ("pdf", try Support.rasterisePDF(folder.appendingPathComponent("b.pdf"), dpi: 384))]
        for (format, image) in images {
            for index in 0..<3 {
                let cx = 4 * (14 + 20 * index), cy = 4 * 14
                Self.check(image, cx, cy - 23, Self.macRims[index], tolerance: 2, "\(format): button \(index)'s rim")
                Self.check(image, cx - 23, cy, Self.macRims[index], tolerance: 2, "\(format): button \(index)'s rim, left")
                Self.check(image, cx, cy - 20, Self.macButtons[index], tolerance: 2, "\(format): button \(index)'s fill")
                Self.check(image, cx, cy - 26, Self.macBar["light"]!, tolerance: 2, "\(format): the bar past button \(index)")
            }
        }
    }

    @Test func wrongValuesNameTheSetting() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 20, height: 10), "a.png", in: folder)
        for (arguments, line) in [
            (["--chrome", "linux"], "--chrome: \"linux\" is not one of macos, windows, plain, none"),
            (["--chrome-theme", "blue"], "--chrome-theme: \"blue\" is not one of light, dark"),
            (["--chrome-title", String(repeating: "x", count: 1001)], "--chrome-title: is 1001 bytes long: at most 1000"),
            (["--chrome-title", "two\nlines"], "--chrome-title: holds the control character U+000A: a title is one line of text"),
        ] {
            let r = try CLITests.framed(["a.png", "-o", "x.png"] + arguments, in: folder)
            #expect(r.status == 2, "\(arguments): \(r.status)")
            #expect(r.stderr.contains(line) && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
        }
        // none takes the bar away again, after a config or an earlier option.
        try OptionOutputTests.framed(["a.png", "-o", "n.png", "--preset", "none", "--chrome", "macos", "--chrome", "none"],
                                     in: folder)
        #expect(try OptionOutputTests.png("n.png", in: folder).height == 10)
    }
}
