import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// The bleed carries the paint that reaches the trim (issue 30, item 1), in every output that
/// has a bleed, rendered at 300 dpi by Ghostscript and PDFium for PDF, librsvg for SVG,
/// ImageMagick for JPEG and TIFF, and read straight from the PNG. Places come from millimetres
/// worked out here; the colour a band should have is what the rendering shows just inside the
/// trim beside it, or the colour the command line gave.
struct PrintBleedTests {
    /// A rendering and how to find a point on it given in millimetres from the output's top-left.
    struct Sheet {
        var image: RasterImage
        var pixelsPerMM: (x: Double, y: Double)
        var top: Double = 0
        var name: String

        /// The pixel at (`x`, `y`) mm, paper (transparent) as white.
        func at(_ x: Double, _ y: Double) -> [Int] {
            let p = image.rgba(Int(x * pixelsPerMM.x), Int(top + y * pixelsPerMM.y))
            if p.a == 0 { return [255, 255, 255] }
            return [p.r, p.g, p.b]
        }
    }

    static func near(_ a: [Int], _ b: [Int], _ tolerance: Int) -> Bool {
        a.count == 3 && b.count == 3 && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static let white = [255, 255, 255]

    /// Renders `pdf` (`media` mm wide and high) with Ghostscript and PDFium at 300 dpi.
    static func pdfSheets(_ pdf: URL, media: (Double, Double)) throws -> [Sheet] {
        let size = (width: media.0 * 72 / 25.4, height: media.1 * 72 / 25.4)
        return try [PDFViewer.ghostscript, .pdfium].map { viewer in
            let r = try viewer.render(pdf, dpi: 300, pageSize: size)
            return Sheet(image: r.image, pixelsPerMM: (r.scaleX * 72 / 25.4, r.scaleY * 72 / 25.4), top: r.top,
                         name: viewer.rawValue)
        }
    }

    /// For a trim at `trim` (x, y, width, height in mm) with `bleed` mm: along every side at
    /// `along` (fractions of it) and beyond every corner, the band halfway through the bleed has
    /// the colour just inside the trim beside it (0.4 mm in) within `tolerance`, and is not
    /// paper unless `paper` allows it.
    static func expectBandsMatchTheTrim(_ sheet: Sheet, trim: (Double, Double, Double, Double), bleed: Double,
                                        along: [Double] = [0.1, 0.5, 0.9], tolerance: Int, paper: Bool = false,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        let (x, y, w, h) = trim
        let out = bleed / 2, inside = 0.4
        var points: [(band: (Double, Double), edge: (Double, Double))] = []
        for f in along {
            points.append(((x + f * w, y - out), (x + f * w, y + inside)))
            points.append(((x + f * w, y + h + out), (x + f * w, y + h - inside)))
            points.append(((x - out, y + f * h), (x + inside, y + f * h)))
            points.append(((x + w + out, y + f * h), (x + w - inside, y + f * h)))
        }
        for (cx, cy) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1)] {
            let sx = cx == 0 ? -1.0 : 1.0, sy = cy == 0 ? -1.0 : 1.0
            let corner = (x + cx * w, y + cy * h)
            points.append(((corner.0 + sx * out, corner.1 + sy * out), (corner.0 - sx * inside, corner.1 - sy * inside)))
        }
        for (band, edge) in points {
            let b = sheet.at(band.0, band.1), e = sheet.at(edge.0, edge.1)
            #expect(near(b, e, tolerance), "\(sheet.name): bleed at \(band) mm is \(b), the trim beside it \(e)",
                    sourceLocation: sourceLocation)
            if !paper { #expect(!near(b, white, 6), "\(sheet.name): paper in the bleed at \(band)", sourceLocation: sourceLocation) }
        }
    }

    /// The example as written: a red mat as large as the page, no border, crop marks,
    /// and the default shadow (past the trim, under the bleed, cut off). Every band of the bleed
    /// is the mat's red, in PDF (Ghostscript, PDFium), PNG, JPEG, TIFF and SVG; the slug outside
    /// the bleed box stays paper; pikepdf reads the boxes.
    @Test func theMatOnTheTrimRunsThroughTheBleedInEveryFormat() throws {
        let folder = try CLITests.workspace()
        let look = ["--size", "150mmx100mm", "--page", "150mmx100mm", "--bleed", "3mm", "--border", "0",
                    "--background", "#c33", "--padding", "8mm", "--marks", "crop"]
        for name in ["p.pdf", "p.png", "p.jpg", "p.tif", "p.svg"] {
            let r = try CLITests.framed(["photo.jpg", "-o", name, "--dpi", "300"] + look, in: folder)
            try #require(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
        }
        // 150 x 100 mm, 3 mm of bleed and 9 mm of slug on each side.
        let media = (174.0, 124.0), trim = (12.0, 12.0, 150.0, 100.0)
        var sheets = try Self.pdfSheets(folder.appendingPathComponent("p.pdf"), media: media)
        let perMM = 300 / 25.4
        sheets.append(Sheet(image: try Support.readPNG(folder.appendingPathComponent("p.png")), pixelsPerMM: (perMM, perMM),
                            name: "PNG"))
        for lab in ["p.jpg", "p.tif"] {
            let png = folder.appendingPathComponent(lab + ".png")
            try #require(try Tool.run("convert", [folder.appendingPathComponent(lab).path, png.path]).status == 0)
            sheets.append(Sheet(image: try Support.readPNG(png), pixelsPerMM: (perMM, perMM), name: lab))
        }
        // librsvg at 96 dpi times 3.
        sheets.append(Sheet(image: try Support.rasteriseSVG(folder.appendingPathComponent("p.svg"), zoom: 3),
                            pixelsPerMM: (288 / 25.4, 288 / 25.4), name: "SVG"))
        let red = [0xcc, 0x33, 0x33]
        for sheet in sheets {
            // JPEG's loss, at the edge of a mark-free page, is a few levels.
            let tolerance = sheet.name == "p.jpg" ? 8 : 3
            Self.expectBandsMatchTheTrim(sheet, trim: trim, bleed: 3, tolerance: tolerance)
            for (x, y) in [(10.5, 62.0), (87.0, 10.5), (163.5, 62.0), (87.0, 113.5), (10.5, 10.5), (163.5, 113.5)] {
                #expect(Self.near(sheet.at(x, y), red, tolerance), "\(sheet.name): red mat at \(x), \(y) mm: \(sheet.at(x, y))")
            }
            // Outside the bleed box, the slug is paper (away from the marks).
            for (x, y) in [(8.5, 62.0), (87.0, 8.5), (165.5, 62.0), (8.5, 40.0)] {
                #expect(Self.near(sheet.at(x, y), Self.white, tolerance), "\(sheet.name): paper at \(x), \(y) mm: \(sheet.at(x, y))")
            }
        }
        // The boxes, read by pikepdf: trim 12 mm in, bleed 9 mm in.
        let mm = 72 / 25.4
        let boxes = try Self.pikepdfBoxes(folder.appendingPathComponent("p.pdf"))
        let expected: [String: [Double]] = ["/MediaBox": [0, 0, 174 * mm, 124 * mm], "/BleedBox": [9 * mm, 9 * mm, 165 * mm, 115 * mm],
                                            "/TrimBox": [12 * mm, 12 * mm, 162 * mm, 112 * mm]]
        for (name, values) in expected {
            let got = boxes[name] ?? []
            #expect(got.count == 4 && zip(got, values).allSatisfy { abs($0 - $1) < 1e-4 }, "\(name): \(got)")
        }
    }

    /// The page boxes of the first page as pikepdf reads them.
    static func pikepdfBoxes(_ pdf: URL) throws -> [String: [Double]] {
        let script = """
            import json, sys, pikepdf
            pdf = pikepdf.open(sys.argv[1])
            page = pdf.pages[0].obj
            print(json.dumps({k: [float(v) for v in page[k]] for k in ("/MediaBox", "/BleedBox", "/TrimBox")}))
            """
        let result = try Tool.run(PDFViewer.pikepdfPython.path, ["-c", script, pdf.path])
        try #require(result.status == 0, "pikepdf: \(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: [Double]] ?? [:]
    }

    /// A photo filling the trim (no border, no mat, `cover`): the bleed continues the picture,
    /// its cropped sides (the picture is 160 mm wide on a 150 mm page) and its top and bottom
    /// rows drawn outwards, in PDF, PNG and SVG.
    @Test func aPhotoOnTheTrimContinuesItsEdges() throws {
        let folder = try CLITests.workspace()
        let look = ["--preset", "none", "--size", "150mmx100mm", "--page", "150mmx100mm", "--bleed", "3mm", "--fit", "cover"]
        for name in ["f.pdf", "f.png", "f.svg"] {
            let r = try CLITests.framed(["photo.jpg", "-o", name, "--dpi", "300"] + look, in: folder)
            try #require(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
        }
        var sheets = try Self.pdfSheets(folder.appendingPathComponent("f.pdf"), media: (156, 106))
        sheets.append(Sheet(image: try Support.readPNG(folder.appendingPathComponent("f.png")),
                            pixelsPerMM: (300 / 25.4, 300 / 25.4), name: "PNG"))
        sheets.append(Sheet(image: try Support.rasteriseSVG(folder.appendingPathComponent("f.svg"), zoom: 3),
                            pixelsPerMM: (288 / 25.4, 288 / 25.4), name: "SVG"))
        for sheet in sheets {
            // The photo's red runs 0-255 over its 160 mm, its green over 100 mm: 1.9 mm out and
            // 0.4 mm in differ by 4 levels at most where the picture itself continues, and the
            // JPEG's own noise adds a few.
            Self.expectBandsMatchTheTrim(sheet, trim: (3, 3, 150, 100), bleed: 3, along: [0.05, 0.3, 0.5, 0.7, 0.95],
                                         tolerance: 10)
        }
        // In the PDF the picture is one image object, drawn again beside the sides it was
        // cropped at; its top and bottom rows are one-pixel strips of their own.
        let list = try Tool.run("pdfimages", ["-list", folder.appendingPathComponent("f.pdf").path]).output
        let rows = list.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let objects = Set(rows.compactMap { $0.count > 10 ? $0[10] : nil })
        let sizes = Set(rows.compactMap { $0.count > 4 ? "\($0[3])x\($0[4])" : nil })
        #expect(sizes == ["320x200", "320x1"] && objects.count == 3, "\(list)")
    }

    /// A rounded frame with a border on the trim: beside the straight part of each edge the
    /// bleed is the border's colour; beyond the corners, where the rounded frame leaves the trim
    /// unpainted, paper, as the trim edge there is.
    @Test func roundedCornersLeavePaperBesideThem() throws {
        let folder = try CLITests.workspace()
        let pdf = folder.appendingPathComponent("r.pdf")
        let r = try CLITests.framed(["photo.jpg", "-o", pdf.path, "--size", "150mmx100mm", "--page", "150mmx100mm",
                                     "--bleed", "3mm", "--border", "2mm", "--border-color", "#224488", "--radius", "8mm",
                                     "--background", "#c33", "--padding", "6mm", "--shadow", "none"], in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        let blue = [0x22, 0x44, 0x88]
        for sheet in try Self.pdfSheets(pdf, media: (156, 106)) {
            Self.expectBandsMatchTheTrim(sheet, trim: (3, 3, 150, 100), bleed: 3, along: [0.2, 0.5, 0.8], tolerance: 3,
                                         paper: true)
            for (x, y) in [(1.5, 53.0), (78.0, 1.5), (154.5, 53.0), (78.0, 104.5)] {
                #expect(Self.near(sheet.at(x, y), blue, 3), "\(sheet.name): border colour at \(x), \(y): \(sheet.at(x, y))")
            }
            // Beyond each corner, and beside the curve 2 mm along the edge: paper, in the
            // bleed and just inside the trim alike.
            for (x, y) in [(1.5, 1.5), (154.5, 1.5), (154.5, 104.5), (1.5, 104.5), (1.5, 5.0), (3.4, 5.0), (5.0, 1.5)] {
                #expect(Self.near(sheet.at(x, y), Self.white, 3), "\(sheet.name): paper at \(x), \(y): \(sheet.at(x, y))")
            }
        }
    }

    /// A gradient canvas covers the bleed, running on as it runs: the band is the colour of the
    /// trim edge beside it (the frame, small, touches no edge).
    @Test func aGradientCanvasRunsIntoTheBleed() throws {
        let folder = try CLITests.workspace()
        let pdf = folder.appendingPathComponent("g.pdf")
        let r = try CLITests.framed(["photo.jpg", "-o", pdf.path, "--page", "150mmx100mm", "--bleed", "3mm", "--marks", "crop",
                                     "--canvas-color", "linear-gradient(to right, #ff0000, #0000ff)", "--shadow", "none"],
                                    in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        for sheet in try Self.pdfSheets(pdf, media: (174, 124)) {
            Self.expectBandsMatchTheTrim(sheet, trim: (12, 12, 150, 100), bleed: 3, tolerance: 4)
        }
    }
}
