import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// A backdrop from the picture: `--canvas-color auto` (a gradient from the picture's edge
/// colours, judged here with the test's own OKLab: Ottosson's matrices) and `--canvas-image`
/// with `--canvas-blur` (CSS `background-size: cover` and `filter: blur()`, worked out here:
/// the cover scale and crop, and the Gaussian's CDF by `erf`), read back from PNG, from SVG
/// through librsvg and from PDF through poppler.
struct PictureBackdropTests {
    /// OKLCH of an 8-bit sRGB colour (Ottosson's published matrices, the sRGB curve).
    static func lch(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (l: Double, c: Double, h: Double) {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let l = cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
        let m = cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
        let s = cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
        let lab = (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s, 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                   0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
        var h = atan2(lab.2, lab.1) * 180 / .pi
        if h < 0 { h += 360 }
        return (lab.0, (lab.1 * lab.1 + lab.2 * lab.2).squareRoot(), h)
    }

    static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    /// A `w` x `h` picture: a `band`-pixel border of `edge`, `inside` within.
    static func banded(_ w: Int, _ h: Int, band: Int, edge: [UInt8], inside: [UInt8]) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<h { for x in 0..<w { pixels += min(x, y, w - 1 - x, h - 1 - y) < band ? edge : inside } }
        return RasterImage(width: w, height: h, pixels: pixels)
    }

    static func rgb(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> [Int] { [Int(p.r), Int(p.g), Int(p.b)] }

    /// The alpha of each outer shadow of a `--print-config` shadow list, whose colours are
    /// written `#rrggbb`, `#rrggbbaa` or `rgb(r g b / a)`.
    static func alphas(_ shadows: String) -> [Double] {
        guard shadows != "none" else { return [] }
        return SetSizeTests.split(shadows, at: ",").compactMap { shadow -> Double? in
            let words = SetSizeTests.split(String(shadow), at: " ")
            guard !words.contains("inset"), let colour = words.last else { return nil }
            if colour.hasPrefix("#") {
                return colour.count == 9 ? Double(Int(colour.suffix(2), radix: 16) ?? 255) / 255 : 1
            }
            if let slash = colour.firstIndex(of: "/") {
                return Double(colour[colour.index(after: slash)...].filter { $0 == "." || $0.isNumber })
            }
            return 1
        }
    }

    @Test func autoTakesTheEdgesHueAndLetsTheShadowRead() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edge: [UInt8] = [0x2a, 0x7a, 0xb0, 255]
        try OptionOutputTests.write(Self.banded(200, 120, band: 10, edge: edge, inside: [0xf0, 0x90, 0x30, 255]), "pic.png", in: folder)
        let look = ["--preset", "docs", "--canvas-color", "auto", "--margin", "30"]
        // The shadow's alpha as the preset has it (its values are never written here).
        let config = try CLITests.framed(look + ["--print-config"], in: folder).stdout
        #expect(config.contains("\"canvas-color\": \"auto\""))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any])
        let alphas = Self.alphas(json["shadow"] as? String ?? "none")
        #expect(!alphas.isEmpty, "the preset's shadow: \(config)")
        var corners: [String: [[Int]]] = [:]
        for format in ["png", "svg", "pdf"] {
            try OptionOutputTests.framed(["pic.png", "-o", "a.\(format)"] + look, in: folder)
            let url = folder.appendingPathComponent("a.\(format)")
            let image = format == "png" ? try OptionOutputTests.png("a.png", in: folder)
                : format == "svg" ? try Support.rasteriseSVG(url, zoom: 1) : try Support.rasterisePDF(url, dpi: 96)
            corners[format] = [Self.rgb(image.pixel(x: 1, y: 1)), Self.rgb(image.pixel(x: image.width - 2, y: image.height - 2))]
        }
        let png = try #require(corners["png"])
        let edgeLCH = Self.lch(edge[0], edge[1], edge[2])
        for (name, corner) in zip(["start", "end"], png) {
            let c = Self.lch(UInt8(corner[0]), UInt8(corner[1]), UInt8(corner[2]))
            #expect(c.l >= 0.3 - 0.01 && c.l <= 0.92 + 0.01 && c.c > 0.04, "\(name): \(c)")
            // The densest shadow, black at its alpha over the backdrop, differs by 0.08 in lightness.
            for alpha in alphas {
                let mixed = corner.map { UInt8((Double($0) * (1 - alpha)).rounded()) }
                let contrast = c.l - Self.lch(mixed[0], mixed[1], mixed[2]).l
                #expect(contrast >= 0.08 - 0.01, "\(name): shadow \(alpha) reads \(contrast)")
            }
        }
        // The start is the edge's hue; the end (one hue only) is turned 20 degrees.
        let start = Self.lch(UInt8(png[0][0]), UInt8(png[0][1]), UInt8(png[0][2]))
        let end = Self.lch(UInt8(png[1][0]), UInt8(png[1][1]), UInt8(png[1][2]))
        #expect(Self.hueDistance(start.h, edgeLCH.h) < 3, "start \(start) for \(edgeLCH)")
        #expect(abs(Self.hueDistance(end.h, edgeLCH.h) - 20) < 4, "end \(end)")
        // SVG and PDF have the same gradient.
        for format in ["svg", "pdf"] {
            for (a, b) in zip(try #require(corners[format]), png) {
                #expect(zip(a, b).allSatisfy { abs($0 - $1) <= (format == "pdf" ? 7 : 3) }, "\(format): \(a) against \(b)")
            }
        }
        // Each picture of a batch gets its own; the dark variant its own on the pair's canvas.
        try OptionOutputTests.write(Self.banded(200, 120, band: 10, edge: [0xc0, 0x30, 0x60, 255], inside: [0, 0, 0, 255]),
                                    "pink.png", in: folder)
        try OptionOutputTests.framed(["pic.png", "pink.png", "-o", "out/{stem}{variant}.png", "--variant", "light,dark"] + look,
                                     in: folder)
        let pink = try OptionOutputTests.png("out/pink.png", in: folder).pixel(x: 1, y: 1)
        #expect(Self.hueDistance(Self.lch(pink.r, pink.g, pink.b).h, Self.lch(0xc0, 0x30, 0x60).h) < 3)
        let dark = try OptionOutputTests.png("out/pic-dark.png", in: folder).pixel(x: 1, y: 1)
        #expect(dark.a == 255 && Self.hueDistance(Self.lch(dark.r, dark.g, dark.b).h, edgeLCH.h) < 3)
        // An SVG picture has no pixels: its drawing is read instead.
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><rect width="200" height="120" fill="#2a7ab0"/>\
            <rect x="20" y="20" width="160" height="80" fill="#f09030"/></svg>
            """.utf8).write(to: folder.appendingPathComponent("pic.svg"))
        try OptionOutputTests.framed(["pic.svg", "-o", "v.png"] + look, in: folder)
        let vector = try OptionOutputTests.png("v.png", in: folder).pixel(x: 1, y: 1)
        #expect(Self.hueDistance(Self.lch(vector.r, vector.g, vector.b).h, edgeLCH.h) < 3, "\(vector)")
    }

    @Test func aCanvasImageCoversTheCanvasAsCSSDoes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A ramp, 200 x 100: red rises 0 to 255 across, blue falls.
        var pixels: [UInt8] = []
        for _ in 0..<100 { for x in 0..<200 { let r = UInt8((Double(x) * 255 / 199).rounded()); pixels += [r, 60, 255 - r, 255] } }
        try OptionOutputTests.write(RasterImage(width: 200, height: 100, pixels: pixels), "wall.png", in: folder)
        try OptionOutputTests.write(Support.picture(width: 20, height: 20, rgb: (255, 0, 0)), "dot.png", in: folder)
        let look = ["--preset", "none", "--canvas-size", "300x300", "--canvas-image", "wall.png"]
        // Cover: 300 / 100 = 3 > 300 / 200, so 600 x 300, 150 cut off each side; canvas pixel x
        // shows the wall at (x + 150 + 0.5) / 3 - 0.5.
        func expected(_ x: Int) -> Double { ((Double(x) + 150.5) / 3 - 0.5) * 255 / 199 }
        for (format, tolerance) in [("png", 2.0), ("svg", 4), ("pdf", 6)] {
            try OptionOutputTests.framed(["dot.png", "-o", "c.\(format)"] + look, in: folder)
            let url = folder.appendingPathComponent("c.\(format)")
            let image = format == "png" ? try OptionOutputTests.png("c.png", in: folder)
                : format == "svg" ? try Support.rasteriseSVG(url, zoom: 1) : try Support.rasterisePDF(url, dpi: 96)
            #expect(image.width == 300 && image.height == 300)
            var worst = 0.0
            for x in stride(from: 5, to: 295, by: 10) {
                let p = image.pixel(x: x, y: 10)
                worst = max(worst, abs(Double(p.r) - expected(x)), abs(Double(p.b) - (255 - expected(x))), abs(Double(p.g) - 60))
            }
            #expect(worst <= tolerance, "\(format): \(worst) levels off the covered ramp")
            #expect(image.pixel(x: 150, y: 150).r > 240 && image.pixel(x: 150, y: 150).g < 15, "\(format): the picture on top")
        }
        // SVG and PDF hold it as a second raster.
        let svg = try String(contentsOf: folder.appendingPathComponent("c.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: "data:image/").count == 3, "two pictures in the SVG")
        let list = try Support.output("pdfimages", ["-list", folder.appendingPathComponent("c.pdf").path])
        #expect(list.split(separator: "\n").count == 2 + 2, "two images in the PDF: \(list)")
        // framed layout says what it covers and at how many pixels: 300 x 300 CSS px, the PNG's
        // own; blurred by 30px (22.5 pt) it is made at 8 / 22.5 pixels a point: 225 pt, 80 px.
        for (blur, side) in [("0", 300.0), ("30px", 80)] {
            let r = try CLITests.framed(["layout", "dot.png", "--canvas-blur", blur] + look, in: folder)
            let layout = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
            let image = try #require(layout["canvasImage"] as? [String: Any])
            #expect(image["file"] as? String == "wall.png" && image["pixels"] as? [String: Double] == ["width": side, "height": side])
            #expect(image["area"] as? [String: Double] == ["x": 0, "y": 0, "width": 225, "height": 225])
        }
        // --print-config keeps it; a config file takes it.
        let printed = try CLITests.framed(look + ["--canvas-blur", "4px", "--print-config"], in: folder).stdout
        #expect(printed.contains("\"canvas-image\": \"wall.png\"") && printed.contains("\"canvas-blur\": \"4px\""), "\(printed)")
    }

    @Test func theBlurIsCSSsGaussianAtEveryScaleAndFormat() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pixels: [UInt8] = []
        for _ in 0..<200 { for x in 0..<400 { pixels += x < 200 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        try OptionOutputTests.write(RasterImage(width: 400, height: 200, pixels: pixels), "step.png", in: folder)
        try OptionOutputTests.write(Support.picture(width: 4, height: 4, rgb: (255, 0, 0)), "dot.png", in: folder)
        let look = ["--preset", "none", "--canvas-size", "400x200", "--canvas-image", "step.png", "--canvas-blur", "10px"]
        // CSS blur(10px): a Gaussian of standard deviation 10 CSS px across the step at x = 200.
        func expected(_ x: Double) -> Double { 255 * 0.5 * (1 + erf((x - 200) / (10 * 2.0.squareRoot()))) }
        for (format, scale, tolerance) in [("png", 1.0, 6.0), ("png", 2, 6), ("svg", 1, 8), ("pdf", 1, 10)] {
            let name = "b\(Int(scale)).\(format)"
            try OptionOutputTests.framed(["dot.png", "-o", name, "--scale", "\(Int(scale))"] + look, in: folder)
            let url = folder.appendingPathComponent(name)
            let image = format == "png" ? try OptionOutputTests.png(name, in: folder)
                : format == "svg" ? try Support.rasteriseSVG(url, zoom: 1) : try Support.rasterisePDF(url, dpi: 96)
            var worst = 0.0
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: image.height / 8)
                worst = max(worst, abs(Double(p.r) - expected((Double(x) + 0.5) / scale)))
            }
            #expect(worst <= tolerance, "\(format) at \(scale)x: \(worst) levels off the Gaussian")
        }
        // The picture itself, blurred behind its frame: a red-and-blue picture's own colours at
        // the canvas's left and right.
        try OptionOutputTests.write(Support.picture(width: 120, height: 80, rgb: (0, 0, 255), left: (255, 0, 0)), "rb.png", in: folder)
        try OptionOutputTests.framed(["rb.png", "-o", "self.png", "--preset", "docs", "--margin", "40",
                                      "--canvas-image", "picture", "--canvas-blur", "8px"], in: folder)
        let own = try OptionOutputTests.png("self.png", in: folder)
        let l = own.pixel(x: 1, y: own.height / 2), r = own.pixel(x: own.width - 2, y: own.height / 2)
        #expect(l.r > 200 && l.b < 40 && r.b > 200 && r.r < 40 && l.a == 255, "\(l) \(r)")
    }

    @Test func aCanvasImageThatCannotBeReadIsOneLine() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 200, height: 100), "wall.png", in: folder)
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>".utf8).write(to: folder.appendingPathComponent("w.svg"))
        let cases: [([String], Int32, [String])] = [
            (["--canvas-image", "nothere.png"], 1, ["nothere.png", "--canvas-image"]),
            (["--canvas-image", "w.svg"], 1, ["w.svg", "SVG"]),
            (["--canvas-image", "wall.png", "--max-pixels", "10000", "--format", "svg"], 1, ["wall.png", "10000"]),
            (["--canvas-image", "wall.png", "--canvas-color", "auto"], 2, ["--canvas-color auto", "--canvas-image"]),
            (["--canvas-blur", "-2px"], 2, ["--canvas-blur", "negative"]),
        ]
        try OptionOutputTests.write(Support.picture(width: 20, height: 20), "dot.png", in: folder)
        for (arguments, status, words) in cases {
            let output = arguments.contains("svg") ? "x.svg" : "x.png"
            let r = try CLITests.framed(["dot.png", "-o", output] + arguments, in: folder)
            CLITests.expectOneLineError(r, status: status, mentioning: words)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(output).path), "\(arguments): nothing written")
        }
    }
}
