import Foundation
import Framed
import FramedRaster
import FramedTestSupport
import Testing

/// The mat nobody sees: a `--background` the user set that the picture covers wholly changes no
/// pixel, and says so, pointing at `--canvas-color`; `--backdrop` is `--canvas-color` by another
/// name, everywhere a setting's name is taken.
struct BackgroundWarningTests {
    static let gradient = "linear-gradient(red, blue)"

    /// The warning lines of a run that succeeded.
    static func warnings(_ arguments: [String], in folder: URL) throws -> [Substring] {
        let r = try CLITests.framed(arguments + ["-f"], in: folder)
        try #require(r.status == 0, "\(arguments): \(r.stderr)")
        return r.stderr.split(separator: "\n").filter { $0.contains("--background") }
    }

    @Test func aCoveredBackgroundChangesNothingAndSaysSo() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // photo.jpg is opaque and fills docs' frame: the gradient is under it everywhere.
        let lines = try Self.warnings(["photo.jpg", "-o", "with.png", "--preset", "docs", "--background", Self.gradient], in: folder)
        #expect(lines.count == 1 && lines[0].contains("photo.jpg") && lines[0].contains("--canvas-color")
                && lines[0].contains("--backdrop"), "\(lines)")
        try OptionOutputTests.framed(["photo.jpg", "-o", "without.png", "--preset", "docs"], in: folder)
        // Not a pixel differs but at the frame's rounded corners, where its antialiased outer
        // edge blends what lies under it (the frame: the opaque pixels of the plain output).
        let with = try OptionOutputTests.png("with.png", in: folder), without = try OptionOutputTests.png("without.png", in: folder)
        #expect(with.width == without.width && with.height == without.height)
        var opaque: [(Int, Int)] = []
        for y in 0..<without.height { for x in 0..<without.width where without.pixel(x: x, y: y).a == 255 { opaque.append((x, y)) } }
        let x0 = opaque.map(\.0).min()!, x1 = opaque.map(\.0).max()!, y0 = opaque.map(\.1).min()!, y1 = opaque.map(\.1).max()!
        var elsewhere = 0, differing = 0
        for y in 0..<with.height {
            for x in 0..<with.width where with.pixel(x: x, y: y) != without.pixel(x: x, y: y) {
                differing += 1
                let nearCorner = min(abs(x - x0), abs(x - x1)) <= 9 && min(abs(y - y0), abs(y - y1)) <= 9
                if !nearCorner { elsewhere += 1 }
            }
        }
        #expect(elsewhere == 0 && differing < 200, "\(differing) pixels differ, \(elsewhere) away from the corners")
        // In every format, from a config file, and in framed layout's JSON.
        for output in ["with.svg", "with.pdf"] {
            #expect(try Self.warnings(["photo.jpg", "-o", output, "--preset", "docs", "--background", "#123456"], in: folder).count == 1)
        }
        try Data(##"{"preset": "docs", "background": "#123456"}"##.utf8).write(to: folder.appendingPathComponent("bg.json"))
        #expect(try Self.warnings(["photo.jpg", "-o", "c.png", "--config", "bg.json"], in: folder).count == 1)
        let r = try CLITests.framed(["layout", "photo.jpg", "--config", "bg.json"], in: folder)
        let layout = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((layout["warnings"] as? [String])?.first?.contains("canvas-color") == true, "\(layout)")
        // An RGBA picture whose pixels are all opaque hides the mat too (seen once decoded).
        try OptionOutputTests.write(RasterImage(width: 40, height: 30, pixels: Support.picture(width: 40, height: 30).pixels,
                                                hasAlpha: true), "rgba.png", in: folder)
        #expect(try Self.warnings(["rgba.png", "-o", "r.png", "--background", "white"], in: folder).count == 1)
        // The library reports it.
        var framer = Framer(preset: .docs)
        try framer.set("background", Self.gradient)
        let framed = try framer.frame(folder.appendingPathComponent("photo.jpg").path)
        #expect(framed.report.warnings == [.backgroundCovered])
    }

    @Test func aBackgroundThatShowsOrIsThePresetsSaysNothing() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [[String]] = [
            ["photo.jpg", "--preset", "docs"],                                     // the preset's own white mat
            ["photo.jpg"],                                                         // classic's grey mat
            ["photo.jpg", "--background", Self.gradient, "--padding", "1"],        // the mat shows round the picture
            ["photo.jpg", "--background", Self.gradient, "--size", "400x400", "--fit", "contain"],  // bands
            ["shot.png", "--background", Self.gradient],                           // seen through the picture
        ]
        for arguments in cases {
            let r = try CLITests.framed(arguments + ["-o", "x.png", "-f"], in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(arguments): \(r.stderr)")
        }
    }

    /// A canvas blur with no canvas image blurs nothing: one warning, from the command line,
    /// `framed layout` and the library; none with an image.
    @Test func aCanvasBlurWithoutAnImageSaysItChangesNothing() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["photo.jpg", "-o", "b.png", "--canvas-blur", "20px"], in: folder)
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == 0 && lines.count == 1 && lines[0].contains("photo.jpg") && lines[0].contains("--canvas-blur")
                && lines[0].contains("--canvas-image"), "\(r.stderr)")
        let layout = try CLITests.framed(["layout", "photo.jpg", "--canvas-blur", "20px"], in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any])
        #expect((json["warnings"] as? [String])?.contains { $0.contains("canvas-blur") } == true, "\(json)")
        let with = try CLITests.framed(["photo.jpg", "-o", "c.png", "--canvas-image", "shot.png", "--canvas-blur", "20px"], in: folder)
        #expect(with.status == 0 && with.stderr.isEmpty, "\(with.stderr)")
        var framer = Framer(preset: .docs)
        try framer.set("canvas-blur", "8px")
        #expect(try framer.frame(folder.appendingPathComponent("photo.jpg").path).report.warnings.contains(.canvasBlurWithoutImage))
    }

    @Test func backdropIsCanvasColourByAnotherName() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.framed(["photo.jpg", "-o", "a.png", "--margin", "8", "--canvas-color", "#336699"], in: folder)
        try OptionOutputTests.framed(["photo.jpg", "-o", "b.png", "--margin", "8", "--backdrop", "#336699"], in: folder)
        try OptionOutputTests.framed(["photo.jpg", "-o", "c.png", "--margin", "8", "--backdrop=#336699"], in: folder)
        let a = try Data(contentsOf: folder.appendingPathComponent("a.png"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.png")) == a)
        #expect(try Data(contentsOf: folder.appendingPathComponent("c.png")) == a)
        #expect(try OptionOutputTests.png("a.png", in: folder).pixel(x: 2, y: 2) == (0x33, 0x66, 0x99, 255))
        // A config file takes the name; --print-config writes the setting's own.
        try Data(##"{"backdrop": "#336699", "margin": 8}"##.utf8).write(to: folder.appendingPathComponent("b.json"))
        try OptionOutputTests.framed(["photo.jpg", "-o", "d.png", "--config", "b.json"], in: folder)
        #expect(try Data(contentsOf: folder.appendingPathComponent("d.png")) == a)
        let printed = try CLITests.framed(["--config", "b.json", "--print-config"], in: folder)
        #expect(printed.stdout.contains("\"canvas-color\": \"#336699\"") && !printed.stdout.contains("backdrop"), "\(printed.stdout)")
        // Both names at once in a file is a mistake; its words name both.
        try Data(#"{"backdrop": "red", "canvas-color": "blue"}"#.utf8).write(to: folder.appendingPathComponent("both.json"))
        let both = try CLITests.framed(["photo.jpg", "-o", "e.png", "--config", "both.json"], in: folder)
        CLITests.expectOneLineError(both, status: 2, mentioning: ["backdrop", "canvas-color"])
        // Its help line says so, and the library takes it too.
        let help = try CLITests.framed(["--help"]).stdout
        #expect(help.contains("--canvas-color, --backdrop PAINT"))
        var framer = Framer()
        try framer.set("backdrop", "#336699")
        #expect(framer.style.canvasColor == RGBAColor(red8: 0x33, green8: 0x66, blue8: 0x99))
        #expect(Setting.named("backdrop")?.name == "canvas-color")
        #expect(try Framer(configuration: Array(#"{"backdrop": "red"}"#.utf8)).style.canvasColor == RGBAColor(red: 1, green: 0, blue: 0))
    }
}
