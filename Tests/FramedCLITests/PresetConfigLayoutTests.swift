import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Presets, config files, `framed layout` and print pages (issue 5), end to end.
struct PresetConfigLayoutTests {
    typealias Run = (status: Int32, stdout: Data, stderr: String)

    @discardableResult
    static func run(_ arguments: [String], in folder: URL) throws -> Run {
        try BatchTests.framed(arguments, in: folder)
    }

    static func json(_ r: Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any], "\(r.stderr)")
    }

    static func rect(_ object: Any?) throws -> (x: Double, y: Double, w: Double, h: Double) {
        let r = try #require(object as? [String: Double])
        return (r["x"]!, r["y"]!, r["width"]!, r["height"]!)
    }

    /// A 200x100 solid red PNG.
    static func redPicture(in folder: URL) throws {
        let red = [UInt8]((0..<(200 * 100)).flatMap { _ in [255, 0, 0, 255] as [UInt8] })
        try Data(PictureEncoder.png(RasterImage(width: 200, height: 100, pixels: red))).write(to: folder.appendingPathComponent("red.png"))
    }

    // MARK: Presets

    static let presets = ["classic", "docs", "docs-dark", "print", "polaroid", "none"]

    @Test func presetsAreListedWithTheirSettings() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["presets"], in: folder)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(r.status == 0 && r.stderr.isEmpty)
        let names = text.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.contains(":") && !$0.hasPrefix("Use") }
            .map { String($0.prefix { $0 != ":" }) }
        #expect(names == Self.presets)
        #expect(text.contains("docs: ") && text.contains("    --radius 8px") && text.contains("    --border-color '#d0d0d0'"))
        #expect(text.contains("    --dpi 300"), "print carries its resolution")
        #expect(text.contains("    --padding '16px 16px 64px'"), "polaroid: wider at the bottom")
        #expect(text.contains("docs-dark: ") && text.contains("    --border-color '#30363d'"))
        #expect(text.components(separatedBy: "    --shadow ").count == 7, "every preset says its shadow")
    }

    @Test(arguments: presets)
    func everyPresetRenders(_ preset: String) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["svg", "pdf", "png"] {
            let r = try Self.run(["photo.jpg", "-o", "\(preset).\(format)", "--preset", preset], in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(preset) \(format): \(r.stderr)")
        }
        let layout = try Self.json(try Self.run(["layout", "photo.jpg", "--preset", preset, "-o", "x.png"], in: folder))
        let png = try Pictures.decode(contentsOf: folder.appendingPathComponent("\(preset).png").path).image
        let pixels = try #require(layout["canvasPixels"] as? [String: Int])
        #expect(png.width == pixels["width"] && png.height == pixels["height"])
        let frame = try Self.rect(layout["frame"]), content = try Self.rect(layout["contentBox"])
        switch preset {
        case "print":
            // 300 dpi: the PNG is the canvas at 300/72 pixels per point; no shadow, so canvas = frame.
            #expect(png.width == Int((frame.w * 300 / 72 - 1e-6).rounded(.up)))
            #expect((layout["shadows"] as? [Any])?.isEmpty == true)
            #expect(png.pixel(x: png.width / 2, y: 3) == (0x22, 0x22, 0x22, 255), "thin dark border")
            #expect(png.pixel(x: png.width / 2, y: 40) == (255, 255, 255, 255), "white mat")
        case "polaroid":
            let top = content.y - frame.y, bottom = frame.y + frame.h - content.y - content.h
            #expect(bottom == 4 * top && top == 12, "16px and 64px")
        case "docs", "docs-dark":
            #expect(png.pixel(x: Int(frame.x / 0.75), y: Int(frame.y / 0.75)).a < 128, "rounded corner")
            #expect(png.pixel(x: 0, y: 0).a <= 1, "transparent canvas")
        case "none":
            #expect(frame.w == 240 && frame.h == 150 && frame.x == 0, "just the picture: 320x200 px")
        default:
            #expect(png.pixel(x: 0, y: 0).a == 0)
        }
    }

    // MARK: Config files

    @Test func configIsOverriddenByTheCommandLine() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            {"preset": "none", "border": 5, "border-color": "red", "shadow": "0 2px 4px blue",
             "lossless": true, "no-auto-orient": false, "quality": 70, "padding": "4px 8px"}
            """.utf8).write(to: folder.appendingPathComponent("look.json"))
        let r = try Self.run(["--config", "look.json", "--border", "7", "--print-config"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let effective = try Self.json(r)
        #expect(effective["preset"] as? String == "none")
        #expect(effective["border"] as? String == "7px", "the command line wins")
        #expect(effective["border-color"] as? String == "#ff0000")
        #expect(effective["lossless"] as? Bool == true && effective["no-auto-orient"] as? Bool == false)
        #expect(effective["quality"] as? Int == 70 && effective["padding"] as? String == "4px 8px")
        // A preset on the command line replaces the config's, and the config still applies over it.
        let p = try Self.json(try Self.run(["--config", "look.json", "--preset", "print", "--print-config"], in: folder))
        #expect(p["preset"] as? String == "print" && p["dpi"] as? Int == 300 && p["border"] as? String == "5px")

        // The config gives the same bytes as the same options on the command line.
        try Self.run(["photo.jpg", "-o", "config.svg", "--config", "look.json", "--border", "7"], in: folder)
        try Self.run(["photo.jpg", "-o", "options.svg", "--preset", "none", "--border", "5", "--border-color", "red",
                      "--shadow", "0 2px 4px blue", "--lossless", "--quality", "70", "--padding", "4px 8px",
                      "--border", "7"], in: folder)
        #expect(try difference(Data(contentsOf: folder.appendingPathComponent("config.svg")),
                               Data(contentsOf: folder.appendingPathComponent("options.svg"))) == nil)
    }

    @Test(arguments: [
        (#"{"bordr": 3}"#, ["\"bordr\"", "border"]),
        (#"{"border": true}"#, ["\"border\"", "string or a number"]),
        (#"{"lossless": "yes"}"#, ["\"lossless\"", "true or false"]),
        (#"{"shadow": ["0 0 4px"]}"#, ["\"shadow\"", "a list"]),
        (#"{"border": "3qq"}"#, ["look.json", "--border", "3qq"]),
        (#"{"preset": "fancy"}"#, ["look.json", "--preset", "fancy"]),
        (#"{"size": "10x10", "width": 5}"#, ["\"size\"", "\"width\""]),
        (#"{"help": true}"#, ["\"help\""]),
        (#"[1, 2]"#, ["look.json", "object"]),
        (#"{"border": "#, ["look.json", "JSON"]),
        // Strict JSON, with the place of the mistake.
        (#"{"border": 3,}"#, ["look.json", "line 1, column 14"]),
        ("// a comment\n{}", ["look.json", "line 1, column 1"]),
        ("{\n  \"border\": 3\n  \"padding\": 2\n}", ["line 3, column 3", "','"]),
        (#"{"border": 3, "border": 4}"#, ["\"border\"", "twice"]),
        (#"{"border": 1e999}"#, ["1e999", "too large"]),
        (#"{"border": 03}"#, ["start with 0"]),
        (#"{"background": "\ud800"}"#, ["surrogate"]),
        (#"{"background": "\q"}"#, ["escape"]),
        ("{\"shadow\": " + String(repeating: "[", count: 100), ["nested"]),
        ("{\"border\": \"3\u{1}\"}", ["control character"]),
    ])
    func configErrorsNameTheKey(_ text: String, _ words: [String]) throws {
        // (The rows above are raw strings where they can be, plain ones where they hold escapes.)
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: folder.appendingPathComponent("look.json"))
        let r = try Self.run(["photo.jpg", "-o", "x.png", "--config", "look.json"], in: folder)
        BatchTests.expectError((r.status, r.stderr), status: 2, mentioning: words)
        #expect(try CLITests.files(in: folder) == ["look.json", "photo.jpg", "shot.png"])
        let missing = try Self.run(["photo.jpg", "-o", "x.png", "--config", "nothere.json"], in: folder)
        BatchTests.expectError((missing.status, missing.stderr), status: 1, mentioning: ["nothere.json"])
    }

    /// What JSON allows loads: a byte order mark, escapes (\u with a surrogate pair too), white
    /// space anywhere, exponents, nested values where they are refused only by their key.
    @Test func configReadsAllOfJSON() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "\u{FEFF} {\r\n\t\"background\" : \"\\u0023ABC\",\"border\":2.5E0, \"shadow\": \"0 0 1px \\/ \\uD83D\\uDE00\"}"
        try Data(text.utf8).write(to: folder.appendingPathComponent("look.json"))
        // The shadow holds a character no colour has, so the config loads and --shadow refuses it
        // naming what it read: the escapes were decoded.
        let r = try Self.run(["photo.jpg", "-o", "x.png", "--config", "look.json"], in: folder)
        #expect(r.status == 2 && r.stderr.contains("--shadow") && r.stderr.contains("/ \u{1F600}"), "\(r.stderr)")
        try Data("{\"background\": \"\\u0023ABC\", \"border\": 2.5E0}".utf8).write(to: folder.appendingPathComponent("ok.json"))
        let printed = try Self.json(try Self.run(["--config", "ok.json", "--print-config"], in: folder))
        #expect(printed["border"] as? String == "2.5px", "\(printed)")
        #expect(printed["background"] as? String == "#aabbcc", "\(printed)")
    }

    /// A value for every option `--print-config` writes: when an option is added, add it here
    /// (and a getter in Config.swift), or this fails.
    static let sampleValues: [String: [String]] = [
        "format": ["--format", "pdf"], "preset": ["--preset", "docs"], "size": ["--size", "150mmx100mm"],
        "width": [], "height": [], "border": ["--border", "2mm"], "border-color": ["--border-color", "rgba(10,20,30,.5)"],
        "border-style": ["--border-style", "double"], "inner-border": ["--inner-border", "1px #333"],
        "padding": ["--padding", "1px 2px 3px 4px"], "background": ["--background", "#abc"], "radius": ["--radius", "3.5pt"],
        "fit": ["--fit", "cover"], "position": ["--position", "bottom-left"],
        "shadow": ["--shadow", "0 0 0 1px #c8c8c8, 12px 16px 24px rgba(30,60,200,.45)"], "margin": ["--margin", "0.25in"],
        "canvas-color": ["--canvas-color", "beige"], "canvas-image": ["--canvas-image", "wall.jpg"],
        "canvas-blur": ["--canvas-blur", "12px"], "aspect": ["--aspect", "16:9"],
        // --canvas-size and --aspect replace each other: the size is kept by CanvasSizeTests.
        "canvas-size": [], "chrome": ["--chrome", "macos"], "chrome-theme": ["--chrome-theme", "dark"], "chrome-title": ["--chrome-title", "Notes \"2026\""], "trim": ["--trim", "10%"], "annotate": ["--annotate", "badge 1 10,10; label 'Here \"it\" is' 5%,5% color=#00f; pixelate 0,0 20x20"], "image-dpi": ["--image-dpi", "144"], "scale": ["--scale", "1,2,3"],
        "variant": ["--variant", "light,dark"],
        "caption": ["--caption", "Mont Blanc, 1998 — é"],
        "caption-font": ["--caption-font", "italic bold 14px/1.5 \"DejaVu Serif\", serif"], "caption-position": ["--caption-position", "below"],
        "caption-align": ["--caption-align", "end"], "caption-color": ["--caption-color", "#345"],
        "dpi": ["--dpi", "150"], "no-snap": ["--no-snap"], "embed": ["--embed", "png"], "quality": ["--quality", "80"],
        "lossless": ["--lossless"], "resample": ["--resample", "good"], "flatten": ["--flatten", "white"],
        "no-auto-orient": ["--no-auto-orient"], "rendering-intent": ["--rendering-intent", "relative"], "max-pixels": ["--max-pixels", "1000000"],
        "min-ppi": ["--min-ppi", "72.5"], "strict": ["--strict"], "page": ["--page", "A5"],
        "orientation": ["--orientation", "portrait"], "bleed": ["--bleed", "3mm"], "safe-margin": ["--safe-margin", "5mm"], "title": ["--title", "A \"title\""],
        "author": ["--author", "Ann"], "marks": ["--marks", "crop"], "pdf-variant": ["--pdf-variant", "x-4"],
        "output-intent": ["--output-intent", "/usr/share/color/icc/ghostscript/default_cmyk.icc"],
        "proof": ["--proof", "proof.png"], "gamut-warning": ["--gamut-warning", "magenta"],
        "sheet": ["--sheet", "Letter"], "n-up": ["--n-up", "2x3"], "gutter": ["--gutter", "8mm"],
    ]
    static let runOptions: Set<String> = ["output", "config", "print-config", "pages", "jobs", "recursive", "overwrite",
                                          "fail-fast", "quiet", "dry-run", "help", "version"]

    @Test func printConfigCoversEveryOptionAndRoundTrips() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = String(decoding: try Self.run(["--help"], in: folder).stdout, as: UTF8.self)
        let options = help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), line.drop(while: { $0 == " " }).hasPrefix("-"), let range = line.range(of: "--") else {
                return nil
            }
            return String(line[range.upperBound...].prefix { $0.isLetter || $0 == "-" })
        }
        #expect(options.count > 40)
        var arguments: [String] = []
        for option in options where !Self.runOptions.contains(option) {
            let sample = try #require(Self.sampleValues[option], "a sample value for --\(option)")
            arguments += sample
        }
        var r = try Self.run(arguments + ["--print-config"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let first = try Self.json(r)
        for option in options where !Self.runOptions.contains(option) && !["width", "height", "canvas-size"].contains(option) {
            #expect(first[option] != nil, "--print-config writes \(option)")
        }
        #expect(first["title"] as? String == "A \"title\"" && first["no-snap"] as? Bool == true)
        try r.stdout.write(to: folder.appendingPathComponent("effective.json"))
        r = try Self.run(["--config", "effective.json", "--print-config"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(String(decoding: r.stdout, as: UTF8.self)
                == String(decoding: try Data(contentsOf: folder.appendingPathComponent("effective.json")), as: UTF8.self),
                "fed back, the same settings")

        // And the same picture: the printed look renders byte for byte like the options.
        let look = ["--preset", "docs", "--size", "300x200", "--border", "2", "--padding", "3px 5px", "--shadow",
                    "1px 2px 5px rgba(0,0,0,.4)", "--fit", "contain", "--background", "#eee", "--dpi", "150"]
        r = try Self.run(look + ["--print-config"], in: folder)
        try r.stdout.write(to: folder.appendingPathComponent("look.json"))
        for format in ["svg", "png", "pdf"] {
            try BatchTests.framed(["shot.png", "-o", "a.\(format)"] + look, in: folder, environment: BatchTests.reproducible)
            try BatchTests.framed(["shot.png", "-o", "b.\(format)", "--config", "look.json"], in: folder,
                                  environment: BatchTests.reproducible)
            #expect(try difference(Data(contentsOf: folder.appendingPathComponent("a.\(format)")),
                                   Data(contentsOf: folder.appendingPathComponent("b.\(format)"))) == nil, "\(format)")
        }
    }

    // MARK: Layout

    @Test func layoutMatchesTheRenderedGeometry() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.redPicture(in: folder)
        let look = ["--size", "300x240", "--border", "6", "--border-color", "black", "--padding", "10px 20px",
                    "--background", "#0000ff", "--fit", "contain", "--position", "top", "--shadow", "4px 6px 8px black",
                    "--scale", "2", "--no-snap"]
        let r = try Self.run(["layout", "red.png", "-o", "red.png.png"] + look, in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let layout = try Self.json(r)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("red.png.png").path), "nothing written")
        let dry = try Self.run(["red.png", "-o", "red.png.png", "--dry-run"] + look, in: folder)
        #expect(difference(dry.stdout, r.stdout) == nil, "--dry-run is framed layout")

        let rendered = try Self.run(["red.png", "-o", "red.png.png"] + look, in: folder)
        #expect(rendered.status == 0)
        let png = try Pictures.decode(contentsOf: folder.appendingPathComponent("red.png.png").path).image
        let canvasPixels = try #require(layout["canvasPixels"] as? [String: Int])
        #expect(png.width == canvasPixels["width"] && png.height == canvasPixels["height"])
        let canvas = try #require(layout["canvas"] as? [String: Double])
        #expect(canvasPixels["width"] == Int((canvas["width"]! * 2 / 0.75 - 1e-6).rounded(.up)))
        // Device pixels per point at --scale 2.
        let k = 2 / 0.75
        let picture = try Self.rect(layout["picture"])
        #expect(picture.w == 248 * 0.75 && picture.h == 124 * 0.75, "contain: 248x124 px in a 248x208 px content box")
        func pixel(_ x: Double, _ y: Double) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) { png.pixel(x: Int(x * k), y: Int(y * k)) }
        #expect(pixel(picture.x + 2, picture.y + 2) == (255, 0, 0, 255), "the picture's top-left corner")
        #expect(pixel(picture.x + picture.w - 2, picture.y + picture.h - 2) == (255, 0, 0, 255), "its bottom-right corner")
        #expect(pixel(picture.x + picture.w / 2, picture.y + picture.h + 2) == (0, 0, 255, 255), "the mat below it")
        #expect(pixel(picture.x - 2, picture.y + 10) == (0, 0, 255, 255), "the mat left of it")
        let frame = try Self.rect(layout["frame"])
        #expect(pixel(frame.x + 1, frame.y + frame.h / 2) == (0, 0, 0, 255), "the border")
        let shadow = try Self.rect((layout["shadows"] as? [[String: Any]])?.first?["box"])
        #expect(shadow.x - frame.x == 3 && shadow.y - frame.y == 4.5, "4px 6px offset")
        #expect(pixel(frame.x + frame.w + 1, frame.y + frame.h / 2).a > 100, "shadow right of the frame")
        let ppi = try #require(layout["effectivePPI"] as? Double)
        #expect(abs(ppi - 96 * 200 / 248.0) < 1e-5, "200 picture pixels over 248 CSS px")
        let raster = try #require(layout["rasterPixels"] as? [String: Int])
        #expect(raster["width"] == 200 && raster["height"] == 100, "never more than the picture has")

        // Several inputs: an array, in order.
        let many = try Self.run(["layout", "photo.jpg", "red.png", "--format", "pdf"], in: folder)
        let list = try #require(try JSONSerialization.jsonObject(with: many.stdout) as? [[String: Any]])
        #expect(list.map { $0["input"] as? String } == ["photo.jpg", "red.png"])
        #expect(list.allSatisfy { $0["format"] as? String == "pdf" && $0["dpi"] as? Int == 300 })
    }

    // MARK: Pages

    @Test func pagesCentreTheFramedPictureAndBleedGrowsTheMedia() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.redPicture(in: folder)
        // A5 landscape is 210 x 148 mm = 595.28 x 419.53 pt; 3 mm of bleed on each side.
        var r = try Self.run(["red.png", "-o", "page.pdf", "--page", "A5", "--bleed", "3mm", "--preset", "none"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try Support.output("pdfinfo", [folder.appendingPathComponent("page.pdf").path])
        #expect(info.contains("612.283 x 436.535 pts"), "\(info)")
        // The same page as PNG at 72 dpi: the picture (150x75 pt) lands where layout says.
        let layout = try Self.json(try Self.run(["layout", "red.png", "--page", "A5", "--bleed", "3mm", "--preset", "none",
                                                 "--dpi", "72", "--canvas-color", "white"], in: folder))
        r = try Self.run(["red.png", "-o", "page.png", "--page", "A5", "--bleed", "3mm", "--preset", "none", "--dpi", "72",
                          "--canvas-color", "white"], in: folder)
        let png = try Pictures.decode(contentsOf: folder.appendingPathComponent("page.png").path).image
        #expect(png.width == 613 && png.height == 437)
        let picture = try Self.rect(layout["picture"])
        #expect(abs(picture.x + picture.w / 2 - 612.283 / 2) < 0.6 && abs(picture.y + picture.h / 2 - 436.535 / 2) < 0.6)
        #expect(png.pixel(x: Int(picture.x) + 1, y: Int(picture.y) + 1) == (255, 0, 0, 255))
        #expect(png.pixel(x: Int(picture.x) - 2, y: Int(picture.y) + 10) == (255, 255, 255, 255))
        #expect(png.pixel(x: 1, y: 1) == (255, 255, 255, 255), "the canvas colour runs into the bleed")
        let page = try #require(layout["page"] as? [String: Any])
        #expect(page["orientation"] as? String == "landscape" && page["size"] as? String == "A5")

        // A given size that does not fit is refused; without a size a large picture shrinks to fit.
        r = try Self.run(["red.png", "-o", "big.pdf", "--page", "A5", "--size", "300mmx200mm"], in: folder)
        BatchTests.expectError((r.status, r.stderr), status: 2, mentioning: ["red.png", "does not fit", "A5 landscape"])
        let fitted = try Self.json(try Self.run(["layout", "red.png", "--page", "50mmx40mm", "--orientation", "portrait"], in: folder))
        let canvas = try #require(fitted["canvas"] as? [String: Double])
        #expect(abs(canvas["width"]! - 40 / 25.4 * 72) < 1e-3 && abs(canvas["height"]! - 50 / 25.4 * 72) < 1e-3)
        let framed = try Self.rect((fitted["page"] as? [String: Any])?["framedCanvas"])
        #expect(abs(framed.w - 40 / 25.4 * 72) < 1e-3 || abs(framed.h - 50 / 25.4 * 72) < 1e-3, "as large as fits")
        r = try Self.run(["red.png", "-o", "x.pdf", "--bleed", "3mm"], in: folder)
        BatchTests.expectError((r.status, r.stderr), status: 2, mentioning: ["--bleed", "--page"])
    }

    @Test func severalPicturesMakeOneMultiPagePDFWithEachPictureOnce() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["photo.jpg", "shot.png", "photo.jpg", "photo.jpg", "--pages", "-o", "book.pdf", "--page", "A5",
                              "--title", "Holiday", "--author", "Ann Example"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("framed: framed 4 pictures into 4 pages of book.pdf in "))
        let path = folder.appendingPathComponent("book.pdf").path
        let info = try Support.output("pdfinfo", [path])
        #expect(info.contains("Pages:           4"), "\(info)")
        #expect(info.contains("Title:           Holiday") && info.contains("Author:          Ann Example"))
        #expect(info.contains("Creator:         framed "))
        // pdfimages -list: one row per image drawn; the photo's three pages share one object.
        let list = try Support.output("pdfimages", ["-list", path]).split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let images = list.filter { $0[2] == "image" }
        #expect(images.map { $0[0] } == ["1", "2", "3", "4"], "\(list)")
        let objects = images.map { $0[10] }
        #expect(Set(objects).count == 2 && objects[0] == objects[2] && objects[0] == objects[3], "\(objects)")

        // Pages without --page take each picture's own canvas size.
        let own = try Self.run(["photo.jpg", "shot.png", "--pages", "-o", "own.pdf", "-q"], in: folder)
        #expect(own.status == 0 && own.stderr.isEmpty)
        let sizes = try Support.output("pdfinfo", ["-f", "1", "-l", "2", folder.appendingPathComponent("own.pdf").path])
        let pageSizes = sizes.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains(" size:") }.map { $0.split(separator: ":")[1] }
        #expect(pageSizes.map { $0.trimmingCharacters(in: .whitespaces) } == ["267 x 177 pts", "252 x 252 pts"], "\(sizes)")
        // A page that fails leaves no PDF.
        try Data("junk".utf8).write(to: folder.appendingPathComponent("junk.jpg"))
        let bad = try Self.run(["photo.jpg", "junk.jpg", "--pages", "-o", "bad.pdf"], in: folder)
        #expect(bad.status == 1 && bad.stderr.contains("junk.jpg") && bad.stderr.contains("bad.pdf: not written"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.pdf").path))
        let svg = try Self.run(["photo.jpg", "shot.png", "--pages", "-o", "book.svg"], in: folder)
        BatchTests.expectError((svg.status, svg.stderr), status: 2, mentioning: ["--pages", "PDF"])
    }

    /// Inset shadows (and an outer one) on pages look as they do in a PDF of one picture:
    /// pdftoppm draws each page as it draws the single file. (`--pages` refused inset shadows
    /// after they were drawn everywhere else.)
    @Test func pagesDrawInsetShadowsAsOnePictureDoes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let look = ["--shadow", "inset 4px 4px 10px rgba(0,0,0,0.8), 0 0 8px red", "--radius", "6", "--padding", "10", "-q"]
        var r = try Self.run(["shot.png", "shot.png", "--pages", "-o", "book.pdf"] + look, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.run(["shot.png", "-o", "one.pdf"] + look, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        func page(_ name: String, _ number: Int) throws -> RasterImage {
            let base = folder.appendingPathComponent("\(name)-\(number)")
            _ = try Support.output("pdftoppm", ["-r", "72", "-png", "-singlefile", "-f", "\(number)", "-l", "\(number)",
                                                folder.appendingPathComponent(name).path, base.path])
            return try Pictures.decode(.file(base.path + ".png")).image
        }
        let single = try page("one.pdf", 1)
        // The inset shadow darkens the picture's top-left corner inside the mat.
        let plain = try Self.run(["shot.png", "-o", "plain.pdf", "--shadow", "0 0 8px red", "--radius", "6", "--padding", "10", "-q"],
                                 in: folder)
        #expect(plain.status == 0)
        #expect(single != (try page("plain.pdf", 1)))
        // Page 1 comes out identical; on page 2 pdftoppm's shadings land up to 2/255 apart.
        for number in [1, 2] {
            let drawn = try page("book.pdf", number)
            let most = zip(drawn.pixels, single.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
            #expect(drawn.width == single.width && drawn.height == single.height && most <= 2, "page \(number): \(most)")
        }
    }
}
