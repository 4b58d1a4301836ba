import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Gradient backdrops and `--aspect`, read back from PNG, from SVG through librsvg and from PDF
/// through poppler. The expected colours come from CSS Images 3's own formulas worked out here
/// (the gradient line through the box's centre, `|w sin a| + |h cos a|` long; a corner direction
/// perpendicular to the diagonal through the neighbouring corners; a radial gradient's distance
/// over the ending shape's radius), from the CSS values the test passes.
@Suite struct BackdropTests {
    typealias RGB = (Double, Double, Double)

    static func hex(_ text: String) -> RGB {
        let v = Int(text.dropFirst(), radix: 16)!
        return (Double(v >> 16 & 255), Double(v >> 8 & 255), Double(v & 255))
    }

    /// The colour of a two-stop gradient at fraction `t` (clamped to the ends).
    static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        let t = min(1, max(0, t))
        return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    /// Where the pixel centre (x + .5, y + .5) falls on a linear gradient's line in a w x h box
    /// whose direction is the unit vector (dx, dy): 0 at the start, 1 at the end.
    static func linearFraction(x: Int, y: Int, w: Double, h: Double, dx: Double, dy: Double) -> Double {
        let length = abs(w * dx) + abs(h * dy)
        return ((Double(x) + 0.5 - w / 2) * dx + (Double(y) + 0.5 - h / 2) * dy) / length + 0.5
    }

    /// The largest difference, over `points`, between the image and `expected` on any channel.
    /// How far from the formula each rasteriser may be, in 8-bit levels.
    static func tolerance(_ format: String) -> Double { format == "pdf" ? 7 : 3 }

    static func worst(_ image: RasterImage, _ points: [(Int, Int)], _ expected: (Int, Int) -> RGB) -> (Double, String) {
        var worst = 0.0, at = ""
        for (x, y) in points {
            let p = image.pixel(x: x, y: y), e = expected(x, y)
            let d = max(abs(Double(p.r) - e.0), abs(Double(p.g) - e.1), abs(Double(p.b) - e.2))
            if d > worst { worst = d; at = "(\(x), \(y)): \(p) against \(e)" }
        }
        return (worst, at)
    }

    /// The output as PNG, and the SVG and PDF outputs rasterised by librsvg and poppler at 96 dpi.
    /// Poppler (and MuPDF alike) draw a PDF shading in steps, not exactly: measured up to 6.4
    /// levels off the formula on these gradients (MuPDF 5.7), where Cairo and librsvg stay within 3.
    static func renderings(_ arguments: [String], in folder: URL) throws -> [(String, RasterImage)] {
        var images: [(String, RasterImage)] = []
        for format in ["png", "svg", "pdf"] {
            let name = "out.\(format)"
            try OptionOutputTests.framed(arguments + ["-o", name], in: folder)
            let url = folder.appendingPathComponent(name)
            switch format {
            case "png": images.append((format, try OptionOutputTests.png(name, in: folder)))
            case "svg": images.append((format, try Support.rasteriseSVG(url, zoom: 1)))
            default: images.append((format, try Support.rasterisePDF(url, dpi: 96)))
            }
        }
        return images
    }

    /// Canvas points on a grid, away from the frame `frame` (x, y, w, h in px) by 2 px.
    static func grid(_ w: Int, _ h: Int, step: Int, outside frame: (Int, Int, Int, Int)) -> [(Int, Int)] {
        var points: [(Int, Int)] = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
        for y in stride(from: 0, to: h, by: step) {
            for x in stride(from: 0, to: w, by: step) {
                let inX = x >= frame.0 - 2 && x < frame.0 + frame.2 + 2
                let inY = y >= frame.1 - 2 && y < frame.1 + frame.3 + 2
                if !(inX && inY) { points.append((x, y)) }
            }
        }
        return points
    }

    @Test func linearCanvasGradientFollowsTheCSSGradientLine() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 40, height: 20, rgb: (255, 0, 0)), "red.png", in: folder)
        // 40 px of margin: a 120 x 100 canvas with the picture at (40, 40).
        let from = Self.hex("#6a11cb"), to = Self.hex("#2575fc"), angle = 135.0 * .pi / 180
        let images = try Self.renderings(["red.png", "--preset", "none", "--margin", "40",
                                          "--canvas-color", "linear-gradient(135deg, #6a11cb, #2575fc)"], in: folder)
        for (format, image) in images {
            #expect(image.width == 120 && image.height == 100, "\(format): \(image.width)x\(image.height)")
            let points = Self.grid(120, 100, step: 6, outside: (40, 40, 40, 20))
            let (d, at) = Self.worst(image, points) { x, y in
                Self.mix(from, to, Self.linearFraction(x: x, y: y, w: 120, h: 100, dx: sin(angle), dy: -cos(angle)))
            }
            #expect(d <= Self.tolerance(format), "\(format): off by \(d) at \(at)")
            #expect(image.pixel(x: 60, y: 50) == (255, 0, 0, 255), "\(format): the picture over it")
        }
    }

    /// `to bottom left` in a box that is not square: the line is perpendicular to the diagonal
    /// from the top-left to the bottom-right corner, so those two corners get the middle colour.
    /// Stops at 25% and 75% on the mat: solid before and after them.
    @Test func cornerKeywordsAndStopPositions() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 60, height: 20, rgb: (255, 0, 0)), "red.png", in: folder)
        let black = Self.hex("#000000"), white = Self.hex("#ffffff")
        let images = try Self.renderings(["red.png", "--preset", "none", "--margin", "20",
                                          "--canvas-color", "linear-gradient(to bottom left, #000000, #ffffff)"], in: folder)
        let w = 100.0, h = 60.0, norm = (w * w + h * h).squareRoot()
        for (format, image) in images {
            let (d, at) = Self.worst(image, Self.grid(100, 60, step: 5, outside: (20, 20, 60, 20))) { x, y in
                Self.mix(black, white, Self.linearFraction(x: x, y: y, w: w, h: h, dx: -h / norm, dy: w / norm))
            }
            #expect(d <= Self.tolerance(format), "\(format): off by \(d) at \(at)")
            for (x, y) in [(0, 0), (99, 59)] {
                #expect(abs(Int(image.pixel(x: x, y: y).g) - 128) <= 3, "\(format): middle grey at the corner (\(x), \(y))")
            }
        }

        // The mat: a 100 x 100 frame (20 px picture, 40 px of padding), stops at 25 and 75 px.
        try OptionOutputTests.write(Support.picture(width: 20, height: 20, rgb: (0, 255, 0)), "green.png", in: folder)
        let red = Self.hex("#ff0000"), blue = Self.hex("#0000ff")
        let mats = try Self.renderings(["green.png", "--preset", "none", "--padding", "40",
                                        "--background", "linear-gradient(to right, #ff0000 25%, #0000ff 75%)"], in: folder)
        for (format, image) in mats {
            #expect(image.width == 100 && image.height == 100)
            let points = (0..<100).map { ($0, 10) } + (0..<100).map { ($0, 90) }
            let (d, at) = Self.worst(image, points) { x, _ in Self.mix(red, blue, ((Double(x) + 0.5) / 100 - 0.25) / 0.5) }
            #expect(d <= Self.tolerance(format), "\(format): off by \(d) at \(at)")
        }
    }

    /// `circle closest-side at 30% 50%`: the radius is the distance to the nearest side; the
    /// default ellipse (farthest-corner) has the closest-side ellipse's proportions, through the corners.
    @Test func radialGradientsHaveTheirCSSShapeAndSize() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 60, height: 20, rgb: (255, 0, 0)), "red.png", in: folder)
        let white = Self.hex("#ffffff"), navy = Self.hex("#000080")
        let points = Self.grid(100, 60, step: 4, outside: (20, 20, 60, 20))
        let circle = try Self.renderings(["red.png", "--preset", "none", "--margin", "20", "--canvas-color",
                                          "radial-gradient(circle closest-side at 30% 50%, #ffffff, #000080)"], in: folder)
        for (format, image) in circle {
            let (d, at) = Self.worst(image, points) { x, y in
                let dx = Double(x) + 0.5 - 30, dy = Double(y) + 0.5 - 30
                return Self.mix(white, navy, (dx * dx + dy * dy).squareRoot() / 30)
            }
            #expect(d <= Self.tolerance(format), "\(format): off by \(d) at \(at)")
        }
        let ellipse = try Self.renderings(["red.png", "--preset", "none", "--margin", "20", "--canvas-color",
                                           "radial-gradient(#ffffff, #000080)"], in: folder)
        for (format, image) in ellipse {
            let rx = 50 * 2.0.squareRoot(), ry = 30 * 2.0.squareRoot()
            let (d, at) = Self.worst(image, points) { x, y in
                let dx = (Double(x) + 0.5 - 50) / rx, dy = (Double(y) + 0.5 - 30) / ry
                return Self.mix(white, navy, (dx * dx + dy * dy).squareRoot())
            }
            #expect(d <= Self.tolerance(format), "\(format): off by \(d) at \(at)")
        }
    }

    /// The photo-lab outputs draw the same gradient: TIFF (lossless) and JPEG (within its noise),
    /// at 96 dpi so that a pixel is a CSS px.
    @Test func jpegAndTIFFOutputsHaveTheGradientToo() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 40, height: 20, rgb: (255, 0, 0)), "red.png", in: folder)
        let black = Self.hex("#000000"), white = Self.hex("#ffffff")
        for (name, tolerance) in [("g.tif", 3.0), ("g.jpg", 8.0)] {
            try OptionOutputTests.framed(["red.png", "-o", name, "--preset", "none", "--margin", "40", "--dpi", "96",
                                          "--canvas-color", "linear-gradient(to right, #000000, #ffffff)"], in: folder)
            let image = try OptionOutputTests.png(name, in: folder)
            #expect(image.width == 120 && image.height == 100, "\(name): \(image.width)x\(image.height)")
            let (d, at) = Self.worst(image, Self.grid(120, 100, step: 6, outside: (40, 40, 40, 20))) { x, _ in
                Self.mix(black, white, (Double(x) + 0.5) / 120)
            }
            #expect(d <= tolerance, "\(name): off by \(d) at \(at)")
        }
    }

    /// Vector: the SVG holds gradient elements and no picture but the one framed, the PDF a
    /// shading of the gradient's type.
    @Test func gradientsStayVectorInSVGAndPDF() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 40, height: 20, rgb: (255, 0, 0)), "red.png", in: folder)
        let arguments = ["red.png", "--preset", "none", "--margin", "30", "--padding", "10",
                         "--canvas-color", "radial-gradient(circle at left top, #ffffff, #000080)",
                         "--background", "linear-gradient(90deg, #ff0000, #0000ff)"]
        try OptionOutputTests.framed(arguments + ["-o", "v.svg"], in: folder)
        let svg = try String(contentsOf: folder.appendingPathComponent("v.svg"), encoding: .utf8)
        #expect(svg.contains("<linearGradient") && svg.contains("<radialGradient"))
        #expect(svg.components(separatedBy: "data:image/").count == 2, "only the picture is an image")
        try OptionOutputTests.framed(arguments + ["-o", "v.pdf"], in: folder)
        let qdf = folder.appendingPathComponent("v.qdf").path
        _ = try Support.run("qpdf", ["--qdf", "--object-streams=disable", folder.appendingPathComponent("v.pdf").path, qdf])
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        #expect(text.contains("/ShadingType 2") && text.contains("/ShadingType 3"), "axial and radial shadings")
        let images = try Support.output("pdfimages", ["-list", folder.appendingPathComponent("v.pdf").path])
        #expect(images.split(separator: "\n").count == 3, "one image, the picture:\n\(images)")
    }

    /// `--aspect` grows the short side of the canvas and centres the frame on whole pixels.
    @Test func aspectGrowsTheCanvasAroundTheFrame() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 90, height: 90, rgb: (255, 0, 0)), "square.png", in: folder)
        try OptionOutputTests.write(Support.picture(width: 120, height: 63, rgb: (255, 0, 0)), "wide.png", in: folder)
        let cases: [(String, String, Int, Int, Int, Int)] = [
            // picture, ratio, canvas width, height, picture's left, top
            ("square.png", "16:9", 160, 90, 35, 0),
            ("wide.png", "1200x630", 120, 63, 0, 0),
            ("wide.png", "1:1", 120, 120, 0, 28),
        ]
        for (picture, ratio, w, h, left, top) in cases {
            try OptionOutputTests.framed([picture, "-o", "a.png", "--preset", "none", "--aspect", ratio,
                                          "--canvas-color", "#00ff00"], in: folder)
            let png = try OptionOutputTests.png("a.png", in: folder)
            #expect(png.width == w && png.height == h, "\(ratio): \(png.width)x\(png.height)")
            let pw = picture == "square.png" ? 90 : 120, ph = picture == "square.png" ? 90 : 63
            #expect(png.pixel(x: left, y: top) == (255, 0, 0, 255) && png.pixel(x: left + pw - 1, y: top + ph - 1) == (255, 0, 0, 255))
            if left > 0 { #expect(png.pixel(x: left - 1, y: top) == (0, 255, 0, 255) && png.pixel(x: left + pw, y: top) == (0, 255, 0, 255)) }
            if top > 0 { #expect(png.pixel(x: left, y: top - 1) == (0, 255, 0, 255) && png.pixel(x: left, y: top + ph) == (0, 255, 0, 255)) }
        }
        // PDF: the page has the ratio too (120 x 120 px = 90 x 90 pt).
        try OptionOutputTests.framed(["wide.png", "-o", "a.pdf", "--preset", "none", "--aspect", "1:1"], in: folder)
        let info = try Support.output("pdfinfo", [folder.appendingPathComponent("a.pdf").path])
        #expect(info.contains("Page size:       90 x 90 pts"), "\(info)")
    }

    @Test func wrongGradientsAndRatiosNameTheSetting() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, words) in [
            (["--background", "linear-gradient(red)"], ["background", "two colour stops"]),
            (["--canvas-color", "radial-gradient(square, red, blue)"], ["canvas-color", "circle or ellipse"]),
            (["--canvas-color", "linear-gradient(45px, red, blue)"], ["canvas-color", "angle"]),
            (["--aspect", "16:0"], ["aspect", "W:H"]),
        ] {
            let r = try CLITests.framed(["shot.png", "-o", "x.png"] + arguments, in: folder)
            #expect(r.status != 0)
            for word in words { #expect(r.stderr.contains(word), "\(arguments): \(r.stderr)") }
        }
    }
}
