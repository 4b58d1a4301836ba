import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// `--canvas-size`: social cards and slides at exactly their pixels. The picture's place is the
/// test's own arithmetic: a 1600 x 900 px picture with a 48 px margin on 1200 x 630 is fitted to
/// the 534 px left down (1200 - 96 leaves 1104 across, more than 534 * 16 / 9 = 949.33), and
/// centred: (1200 - 96 - 949.33) / 2 = 77.33, rounded down to whole pixels, plus the margin.
struct CanvasSizeTests {
    static let left = 77.0 + 48, top = 48.0, width = 534.0 * 16 / 9, height = 534.0

    /// Red picture inside, green canvas outside, with a pixel of slack at each edge.
    static func checkPlace(_ image: RasterImage, scale: Double = 1, tolerance: Int = 0, _ what: String) {
        func near(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ c: (Int, Int, Int)) -> Bool {
            abs(Int(p.r) - c.0) <= tolerance && abs(Int(p.g) - c.1) <= tolerance && abs(Int(p.b) - c.2) <= tolerance
        }
        let y = Int(315 * scale), x = Int(600 * scale)
        let inside = [(Int((left + 2) * scale), y), (Int((left + width - 2) * scale), y), (x, Int((top + 2) * scale)),
                      (x, Int((top + height - 2) * scale))]
        let outside = [(Int((left - 2) * scale), y), (Int((left + width + 2) * scale), y), (x, Int((top - 2) * scale)),
                       (x, Int((top + height + 2) * scale))]
        for (px, py) in inside { #expect(near(image.pixel(x: px, y: py), (255, 0, 0)), "\(what): picture at \(px), \(py)") }
        for (px, py) in outside { #expect(near(image.pixel(x: px, y: py), (0, 255, 0)), "\(what): canvas at \(px), \(py)") }
    }

    @Test func theOutputIsExactlyTheSizeInEveryFormatWithThePictureFittedAndCentred() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 1600, height: 900, rgb: (255, 0, 0)), "big.png", in: folder)
        let look = ["--preset", "none", "--margin", "48", "--canvas-color", "#00ff00", "--canvas-size", "1200x630"]
        try OptionOutputTests.framed(["big.png", "-o", "card.png"] + look, in: folder)
        let png = try OptionOutputTests.png("card.png", in: folder)
        #expect(png.width == 1200 && png.height == 630)
        Self.checkPlace(png, "PNG")
        try OptionOutputTests.framed(["big.png", "-o", "card2.png", "--scale", "2"] + look, in: folder)
        let two = try OptionOutputTests.png("card2.png", in: folder)
        #expect(two.width == 2400 && two.height == 1260)
        Self.checkPlace(two, scale: 2, "PNG at 2x")
        // SVG and PDF: 1200 x 630 CSS px are 900 x 472.5 pt.
        try OptionOutputTests.framed(["big.png", "-o", "card.svg"] + look, in: folder)
        let svg = try String(contentsOf: folder.appendingPathComponent("card.svg"), encoding: .utf8)
        #expect(svg.contains("width=\"900pt\"") && svg.contains("height=\"472.5pt\""), "\(svg.prefix(300))")
        Self.checkPlace(try Support.rasteriseSVG(folder.appendingPathComponent("card.svg"), zoom: 1), tolerance: 2, "SVG")
        try OptionOutputTests.framed(["big.png", "-o", "card.pdf"] + look, in: folder)
        let info = try Support.output("pdfinfo", [folder.appendingPathComponent("card.pdf").path])
        #expect(info.contains("Page size:       900 x 472.5 pts"), "\(info)")
        Self.checkPlace(try Support.rasterisePDF(folder.appendingPathComponent("card.pdf"), dpi: 96), tolerance: 3, "PDF")
        // framed layout says the same.
        let r = try CLITests.framed(["layout", "big.png"] + look, in: folder)
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(layout["canvas"] as? [String: Double] == ["width": 900, "height": 472.5])
        #expect(layout["canvasPixels"] as? [String: Double] == ["width": 1200, "height": 630])
        let picture = try #require(layout["picture"] as? [String: Double])
        #expect(abs(picture["x"]! - Self.left * 0.75) < 1e-6 && abs(picture["height"]! - Self.height * 0.75) < 1e-6, "\(picture)")
        // A batch from a config file: every picture, whatever its size, on the card.
        try OptionOutputTests.write(Support.picture(width: 300, height: 500, rgb: (255, 0, 0)), "tall.png", in: folder)
        try Data(#"{"preset": "docs", "canvas-size": "1200x630", "canvas-color": "white"}"#.utf8)
            .write(to: folder.appendingPathComponent("card.json"))
        try OptionOutputTests.framed(["big.png", "tall.png", "-o", "cards/", "--format", "png", "--config", "card.json"], in: folder)
        for name in ["big.png", "tall.png"] {
            let card = try OptionOutputTests.png("cards/" + name, in: folder)
            #expect(card.width == 1200 && card.height == 630, "\(name)")
        }
    }

    @Test func whatCannotFitIsAnErrorAndTheRatioOptionsReplaceEachOther() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A frame of a given size that is larger: the error names both sizes (1300 + 96, 600 + 96).
        var r = try CLITests.framed(["photo.jpg", "-o", "x.png", "--preset", "none", "--margin", "48", "--size", "1300x600",
                                     "--canvas-size", "1200x630"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["photo.jpg", "1396x696px", "--canvas-size 1200x630px", "--size"])
        r = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--canvas-size", "1200x630", "--page", "A4"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["--canvas-size", "--page"])
        try Data(#"{"aspect": "16:9", "canvas-size": "1200x630"}"#.utf8).write(to: folder.appendingPathComponent("both.json"))
        r = try CLITests.framed(["photo.jpg", "-o", "x.png", "--config", "both.json"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["aspect", "canvas-size", "replace each other"])
        #expect(try CLITests.files(in: folder) == ["both.json", "photo.jpg", "shot.png"], "nothing written")
        // On the command line the later one counts, as --size and --width do.
        try OptionOutputTests.framed(["photo.jpg", "-o", "a.png", "--aspect", "1:1", "--canvas-size", "600x300"], in: folder)
        var png = try OptionOutputTests.png("a.png", in: folder)
        #expect(png.width == 600 && png.height == 300)
        try OptionOutputTests.framed(["photo.jpg", "-o", "b.png", "--canvas-size", "600x300", "--aspect", "1:1"], in: folder)
        png = try OptionOutputTests.png("b.png", in: folder)
        #expect(png.width == png.height)
        // And --print-config keeps it, as --size is written.
        r = try CLITests.framed(["--canvas-size", "1600x900", "--print-config"], in: folder)
        #expect(r.stdout.contains("\"canvas-size\": \"1600pxx900px\"") && !r.stdout.contains("aspect"), "\(r.stdout)")
    }
}
