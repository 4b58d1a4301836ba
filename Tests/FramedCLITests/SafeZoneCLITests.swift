import Foundation
import FramedTestSupport
import Testing

/// The safe zone and the photo sizes end to end (issue 30, items 2 and 3): `framed layout`'s
/// boxes and warnings, framing's warning and `--strict`, `--safe-margin` from the command line
/// and a config file, and pages named as labs name them. Expected numbers from millimetres.
struct SafeZoneCLITests {
    static let mm = 72 / 25.4

    /// `framed layout`'s JSON and what it said on stderr.
    static func layout(_ arguments: [String], in folder: URL) throws -> (json: [String: Any], stderr: String, status: Int32) {
        let r = try CLITests.framed(["layout", "photo.jpg", "--format", "pdf"] + arguments, in: folder)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any] ?? [:]
        return (json, r.stderr, r.status)
    }

    static func rect(_ value: Any?) -> [Double] {
        let r = value as? [String: Double] ?? [:]
        return [r["x"] ?? .nan, r["y"] ?? .nan, r["width"] ?? .nan, r["height"] ?? .nan]
    }

    /// The issue's print on 10 x 15 cm with 3 mm of bleed: the frame no longer is the trim box
    /// but fits inside it less 3 mm, centred, and nothing is warned about. Landscape: the trim
    /// is 150 x 100 mm from 3 mm in; the 16:10 picture (at 20 pixels per inch, far larger than
    /// the page) in the print preset's mat fills the height.
    @Test func thePrintPresetKeepsItsBorderOffTheCut() throws {
        let folder = try CLITests.workspace()
        let (json, stderr, status) = try Self.layout(["--preset", "print", "--page", "10cmx15cm", "--bleed", "3mm", "--image-dpi", "20"],
                                                     in: folder)
        try #require(status == 0, "\(stderr)")
        #expect(stderr.isEmpty, "no warning: \(stderr)")
        let mm = Self.mm
        let page = json["page"] as? [String: Any] ?? [:]
        #expect(abs((page["safeMargin"] as? Double ?? 0) - 3 * mm) < 1e-5)
        let safe = Self.rect(page["safe"]), frame = Self.rect(json["frame"])
        #expect(zip(safe, [6 * mm, 6 * mm, 144 * mm, 94 * mm]).allSatisfy { abs($0 - $1) < 1e-5 }, "safe box \(safe)")
        // Inside the safe box, touching it top and bottom, centred across.
        #expect(frame[0] >= safe[0] - 1e-6 && frame[0] + frame[2] <= safe[0] + safe[2] + 1e-6, "frame \(frame)")
        #expect(abs(frame[1] - safe[1]) < 1e-5 && abs(frame[3] - safe[3]) < 1e-5, "frame \(frame)")
        #expect(abs(frame[0] + frame[2] / 2 - 78 * mm) < 1e-5)
        #expect(json["safeMarginWarnings"] == nil)
        // --safe-margin 0: the frame fills the page's height, as before; 5mm leaves 5 mm.
        let full = Self.rect(try Self.layout(["--preset", "print", "--page", "10x15", "--bleed", "3mm", "--safe-margin", "0",
                                              "--image-dpi", "20"],
                                             in: folder).json["frame"])
        #expect(abs(full[1] - 3 * mm) < 1e-5 && abs(full[3] - 100 * mm) < 1e-5, "\(full)")
        let five = Self.rect(try Self.layout(["--preset", "print", "--page", "10x15", "--safe-margin", "5mm",
                                              "--image-dpi", "20"],
                                             in: folder).json["frame"])
        #expect(abs(five[1] - 5 * mm) < 1e-5 && abs(five[3] - 90 * mm) < 1e-5, "\(five)")
    }

    /// A given size that puts the border on the trim: framing warns (one line: how far, the
    /// edges, what to change) and writes; `--strict` makes it an error (exit 1, nothing
    /// written); `framed layout` says the same, in its JSON too.
    @Test func aBorderOnTheCutIsWarnedAboutOrRefused() throws {
        let folder = try CLITests.workspace()
        let look = ["--preset", "print", "--page", "10x15", "--size", "150mmx100mm"]
        let warned = try CLITests.framed(["photo.jpg", "-o", "w.pdf"] + look, in: folder)
        #expect(warned.status == 0)
        #expect(warned.stderr == "framed: warning: photo.jpg: the border is 0 mm from the trim (top, right, bottom, left), "
                + "within the 3 mm --safe-margin where a cut can drift onto it; give a smaller --size (or none, to fit the "
                + "frame inside the margin) or --border 0\n", "\(warned.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("w.pdf").path))
        let strict = try CLITests.framed(["photo.jpg", "-o", "s.pdf", "--strict"] + look, in: folder)
        CLITests.expectOneLineError(strict, status: 1, mentioning: ["photo.jpg", "0 mm from the trim", "--safe-margin", "--strict"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.pdf").path))

        let (json, stderr, status) = try Self.layout(look, in: folder)
        #expect(status == 0 && stderr.contains("warning: photo.jpg: the border is 0 mm from the trim"), "\(stderr)")
        let warnings = json["safeMarginWarnings"] as? [[String: Any]] ?? []
        #expect(warnings.count == 1 && warnings.first?["element"] as? String == "border"
                && warnings.first?["distance"] as? Double == 0
                && warnings.first?["edges"] as? [String] == ["top", "right", "bottom", "left"], "\(warnings)")
        #expect(try Self.layout(look + ["--strict"], in: folder).status == 1)
        // A picture filling the trim on purpose, without a border: nothing to say.
        let plain = try CLITests.framed(["photo.jpg", "-o", "p.pdf", "--preset", "none", "--page", "10x15", "--size", "150mmx100mm",
                                         "--fit", "cover", "--strict"], in: folder)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
    }

    /// At the edges of the margin: a border whose outer edge is 2.9 mm from the trim is warned
    /// about, one 3.1 mm from it is not; an inner border and a caption likewise (the print
    /// preset's 8 mm mat, a frame on the trim: a 5.1 mm hairline reaches 2.9 mm from it).
    @Test(arguments: [
        (["--size", "144.2mmx94.2mm"], "border", true), (["--size", "143.8mmx93.8mm"], "border", false),
        (["--border", "0", "--padding", "3.1mm", "--caption", "A caption"], "caption", false),
        (["--border", "0", "--padding", "2.9mm", "--caption", "A caption"], "caption", true),
        (["--border", "0", "--padding", "8mm", "--fit", "contain", "--inner-border", "5.1mm #333"], "inner border", true),
        (["--border", "0", "--padding", "8mm", "--fit", "contain", "--inner-border", "4.9mm #333"], "inner border", false),
    ])
    func theEdgesOfTheMargin(options: [String], element: String, warned: Bool) throws {
        let folder = try CLITests.workspace()
        var look = ["--preset", "print", "--page", "150mmx100mm"] + options
        if !options.contains("--size") { look += ["--size", "150mmx100mm"] }
        let (json, stderr, status) = try Self.layout(look, in: folder)
        #expect(status == 0, "\(stderr)")
        let warnings = (json["safeMarginWarnings"] as? [[String: Any]] ?? []).compactMap { $0["element"] as? String }
        #expect(warnings == (warned ? [element] : []), "\(options): \(warnings) \(stderr)")
        #expect(stderr.contains("the \(element) is") == warned, "\(stderr)")
    }

    /// `--safe-margin` in a config file, printed back; without `--page` and negative, a usage
    /// error.
    @Test func theSafeMarginFromAConfigFileAndItsErrors() throws {
        let folder = try CLITests.workspace()
        try Data(#"{"page": "4x6", "safe-margin": "4mm", "preset": "print"}"#.utf8).write(to: folder.appendingPathComponent("c.json"))
        let (json, _, status) = try Self.layout(["--config", "c.json"], in: folder)
        #expect(status == 0)
        let page = json["page"] as? [String: Any] ?? [:]
        #expect(abs((page["safeMargin"] as? Double ?? 0) - 4 * Self.mm) < 1e-5 && page["size"] as? String == "4x6")
        let printed = try CLITests.framed(["--config", "c.json", "--print-config"], in: folder)
        #expect(printed.stdout.contains(#""safe-margin": "4mm""#) && printed.stdout.contains(#""page": "4x6""#), "\(printed.stdout)")
        for (arguments, words) in [(["--safe-margin", "3mm"], ["--safe-margin", "--page"]),
                                   (["--page", "A6", "--safe-margin", "-1mm"], ["--safe-margin", "negative"]),
                                   (["--page", "A6", "--safe-margin", "3"], ["--safe-margin", "3"])] {
            let r = try CLITests.framed(["photo.jpg", "-o", "x.pdf"] + arguments, in: folder)
            if arguments.last == "3" {
                // A bare 3 is 3px, as every length.
                #expect(r.status == 0, "\(r.stderr)")
            } else {
                CLITests.expectOneLineError(r, status: 2, mentioning: words)
            }
        }
    }

    /// Pages in the words labs use: `4x6` is 4 x 6 in and `10x15` is 10 x 15 cm, either way
    /// round; other bare numbers are an error that suggests units.
    @Test func photoSizesAndBareNumbers() throws {
        let folder = try CLITests.workspace()
        let sizes: [(String, Double, Double)] = [("4x6", 6 * 72, 4 * 72), ("7x5", 7 * 72, 5 * 72), ("10x15", 150 * Self.mm, 100 * Self.mm),
                                                 ("30X20", 300 * Self.mm, 200 * Self.mm)]
        for (name, width, height) in sizes {
            let (json, stderr, status) = try Self.layout(["--page", name], in: folder)
            #expect(status == 0, "\(name): \(stderr)")
            let trim = Self.rect((json["boxes"] as? [String: Any])?["trim"])
            #expect(abs(trim[2] - width) < 1e-4 && abs(trim[3] - height) < 1e-4, "\(name): \(trim)")
        }
        // A 6x4 in print for a lab at 300 dpi: 1800 x 1200 pixels.
        let jpeg = try CLITests.framed(["photo.jpg", "-o", "p.jpg", "--page", "6x4"], in: folder)
        #expect(jpeg.status == 0)
        #expect(try PrintTests.magick(["identify", "-format", "%wx%h", folder.appendingPathComponent("p.jpg").path]) == "1800x1200")
        for bare in ["4x5", "600x400", "4inx6"] {
            let r = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--page", bare], in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: ["--page", bare, "4inx6in", "10x15cm"])
        }
        #expect(try CLITests.files(in: folder).contains("x.pdf") == false)
    }
}
