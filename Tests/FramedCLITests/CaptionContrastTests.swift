import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Captions that read on what lies under them, and their room (issue 31, items 1 and 2; issue
/// 36, item 4), judged in the rendered pixels: the glyphs' core colour against the background
/// right above and below them, with WCAG 2's arithmetic worked out here (`WCAG`), never taken
/// from framed.
struct CaptionContrastTests {
    /// Capitals in a bold 40px face: stems wide enough for a core of whole pixels, and rows of
    /// background above and below them inside the line's box.
    static let bold = ["--caption", "IIII", "--caption-font", "bold 40px \"DejaVu Sans\""]

    /// A folder with `white.png` (160x60, white) and the workspace's `photo.jpg`.
    static func folder() throws -> URL {
        let folder = try CLITests.workspace()
        try OptionOutputTests.write(Support.picture(width: 160, height: 60, rgb: (255, 255, 255)), "white.png", in: folder)
        return folder
    }

    /// The caption of `framed layout` with the same arguments: the box its lines take in CSS px
    /// (x0, y0, x1, y1), its colour and its contrast.
    static func caption(_ arguments: [String], in folder: URL) throws -> (box: (Double, Double, Double, Double),
                                                                          color: String, contrast: Double) {
        let json = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + arguments, in: folder))
        let caption = try #require(json["caption"] as? [String: Any], "\(json)")
        let t = try PresetConfigLayoutTests.rect(caption["textBox"])
        return ((t.x / 0.75, t.y / 0.75, (t.x + t.w) / 0.75, (t.y + t.h) / 0.75),
                try #require(caption["color"] as? String), try #require(caption["contrast"] as? Double))
    }

    /// The output of `arguments` in `format`, as pixels at one per CSS px: framed's own PNG,
    /// the SVG through librsvg, the PDF through Ghostscript (transparency kept).
    static func render(_ arguments: [String], format: String, in folder: URL) throws -> RasterImage {
        let name = "contrast.\(format)"
        try OptionOutputTests.framed(arguments + ["-o", name], in: folder)
        let url = folder.appendingPathComponent(name)
        switch format {
        case "png": return try OptionOutputTests.png(name, in: folder)
        case "svg": return try Support.rasteriseSVG(url, zoom: 1)
        default: return try Support.rasterisePDFWithGhostscript(url, dpi: 96)
        }
    }

    /// The text's contrast read from `image` inside `box` (CSS px), on `page` where transparent.
    static func measured(_ image: RasterImage, box: (Double, Double, Double, Double), page: (Int, Int, Int) = (255, 255, 255),
                         sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (core: (Int, Int, Int), background: (Int, Int, Int), contrast: Double) {
        let pixels = (Int(box.0.rounded(.down)), Int(box.1.rounded(.down)), Int(box.2.rounded(.up)), Int(box.3.rounded(.up)))
        return try #require(WCAG.text(in: image, box: pixels, page: page), "no ink in \(pixels)", sourceLocation: sourceLocation)
    }

    /// The grey the documented rule picks on a background of luminance `l`, worked out here:
    /// dark text when black contrasts at least as well as white; #333333 (or #eeeeee) when it
    /// reaches 4.5:1, else the nearest grey that does, else black (white).
    static func expectedGrey(on l: Double) -> Int {
        let dark = WCAG.ratio(l, 0) >= WCAG.ratio(l, 1)
        let candidates = dark ? Array(stride(from: 0x33, through: 0, by: -1)) : Array(0xee...255)
        return candidates.first { WCAG.ratio(WCAG.grey($0), l) >= 4.5 } ?? (dark ? 0 : 255)
    }

    /// Issue 36, item 4: mats of the greys just either side of each place where the rule changes
    /// its answer, found by the test's own arithmetic: where dark text gives way to light (black
    /// and white contrast alike), where #333333 stops reaching 4.5:1, where #eeeeee stops; and
    /// #555555, where dark text was once kept. Each caption is the grey the rule gives, reads at
    /// 4.5:1 at least in the pixels, and `framed layout` says the same.
    @Test func theAutomaticColourAtTheEdgesOfItsRule() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edges = [WCAG.switchLuminance, 4.5 * (WCAG.grey(0x33) + 0.05) - 0.05, (WCAG.grey(0xee) + 0.05) / 4.5 - 0.05]
        var greys = [0x55]
        for edge in edges {
            let below = try #require((0...254).last { WCAG.grey($0) < edge })
            #expect(WCAG.grey(below + 1) >= edge)
            greys += [below, below + 1]
        }
        // The switch itself lies between two greys whose answers differ in lightness.
        #expect(Self.expectedGrey(on: WCAG.grey(greys[1])) > 0x80 && Self.expectedGrey(on: WCAG.grey(greys[2])) < 0x80)
        for v in greys {
            let hex = String(format: "#%02x%02x%02x", v, v, v)
            let arguments = ["white.png", "--preset", "none", "--background", hex] + Self.bold
            let expected = Self.expectedGrey(on: WCAG.grey(v))
            let layout = try Self.caption(arguments + ["-o", "x.png"], in: folder)
            #expect(layout.color == String(format: "#%02x%02x%02x", expected, expected, expected), "\(hex): \(layout)")
            let text = try Self.measured(try Self.render(arguments, format: "png", in: folder), box: layout.box)
            #expect(text.core == (expected, expected, expected) && text.background == (v, v, v), "\(hex): \(text)")
            #expect(text.contrast >= 4.5, "\(hex): \(text.contrast)")
            #expect(abs(layout.contrast - WCAG.ratio(WCAG.grey(expected), WCAG.grey(v))) < 1e-3, "\(hex): \(layout)")
        }
    }

    /// Issue 31, item 1: a dark gradient canvas, a transparent canvas on the dark page docs-dark
    /// is for, the gray mat of classic under a window, and a canvas that darkens towards the
    /// caption: every caption reaches 4.5:1 in PNG, in SVG (librsvg) and in PDF (Ghostscript),
    /// against the background at its glyphs.
    @Test func captionsReadOnGradientsAndDarkPagesInEveryFormat() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let github = (0x0d, 0x11, 0x17)
        let cases: [(arguments: [String], page: (Int, Int, Int), light: Bool)] = [
            (["--canvas-color", "linear-gradient(#111827,#111827)", "--caption-position", "below"], (255, 255, 255), true),
            (["--preset", "docs", "--variant", "dark", "--caption-position", "below"], github, true),
            (["--preset", "docs-dark"], github, true),
            (["--preset", "docs"], (255, 255, 255), false),
            (["--chrome", "macos"], (255, 255, 255), false),
            (["--preset", "none", "--canvas-color", "linear-gradient(white, #777)", "--caption-position", "below"],
             (255, 255, 255), false),
        ]
        for (extra, page, light) in cases {
            let arguments = ["white.png"] + extra + Self.bold
            for format in ["png", "svg", "pdf"] {
                let layout = try Self.caption(arguments + ["-o", "x.\(format)"], in: folder)
                let text = try Self.measured(try Self.render(arguments, format: format, in: folder), box: layout.box, page: page)
                // Gradients drawn by viewers may be a level off; the text's grey is exact.
                #expect(text.contrast >= 4.45, "\(extra) \(format): \(text)")
                let lightText = WCAG.luminance(text.core.0, text.core.1, text.core.2)
                    > WCAG.luminance(text.background.0, text.background.1, text.background.2)
                #expect(lightText == light, "\(extra) \(format): \(text)")
            }
        }
    }

    /// The canvas's paint that comes from pictures, known only once they are decoded: a dark
    /// canvas image under the caption, and `--canvas-color auto` around a dark picture. The
    /// caption reads on each at 4.5:1 in PNG, SVG and PDF, and is light text.
    @Test func captionsReadOnBackdropsMadeFromPictures() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 60, height: 40, rgb: (20, 30, 40)), "night.png", in: folder)
        for (picture, extra) in [("white.png", ["--canvas-image", "night.png"]), ("night.png", ["--canvas-color", "auto"])] {
            let arguments = [picture, "--preset", "none", "--caption-position", "below", "--margin", "20"] + extra + Self.bold
            for format in ["png", "svg", "pdf"] {
                let layout = try Self.caption(arguments + ["-o", "x.\(format)"], in: folder)
                let text = try Self.measured(try Self.render(arguments, format: format, in: folder), box: layout.box)
                #expect(text.contrast >= 4.45, "\(extra) \(format): \(text)")
                #expect(WCAG.luminance(text.core.0, text.core.1, text.core.2)
                        > WCAG.luminance(text.background.0, text.background.1, text.background.2), "\(extra) \(format): \(text)")
            }
        }
    }

    /// A colour given that reads at less than 3:1 is a warning naming --caption-color, from the
    /// command line, a config file and in a batch (once per picture); an automatic colour that
    /// no grey lets reach 4.5:1 is one too; colours that read are not.
    @Test func captionsThatDoNotReadAreWarnedAbout() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func warnings(_ arguments: [String]) throws -> [Substring] {
            let r = try OptionOutputTests.framed(arguments, in: folder)
            return r.stderr.split(separator: "\n")
        }
        // #777777 on #808080: the test's own ratio, written as framed rounds it down.
        let ratio = WCAG.ratio(WCAG.grey(0x80), WCAG.grey(0x77))
        let tenths = Int((ratio * 10).rounded(.down))
        let grey = ["--background", "#808080", "--caption", "Words", "--caption-color", "#777"]
        var lines = try warnings(["white.png", "-o", "w.png"] + grey)
        #expect(lines.count == 1 && lines[0].contains("--caption-color") && lines[0].contains("#777777")
                && lines[0].contains("\(tenths / 10).\(tenths % 10):1"), "\(lines)")
        try Data(##"{"background": "#808080", "caption": "Words", "caption-color": "#777"}"##.utf8)
            .write(to: folder.appendingPathComponent("look.json"))
        lines = try warnings(["white.png", "-o", "c.pdf", "--config", "look.json"])
        #expect(lines.count == 1 && lines[0].contains("--caption-color"), "\(lines)")
        lines = try warnings(["white.png", "photo.jpg", "-o", "out/{stem}.svg"] + grey)
        #expect(lines.filter { $0.contains("--caption-color") }.count == 2
                && lines.contains { $0.contains("white.png") } && lines.contains { $0.contains("photo.jpg") }, "\(lines)")
        // Just over 3:1 is no warning: black text on a grey whose ratio with it is 3.1.
        let over = try #require((0...255).first { WCAG.ratio(WCAG.grey($0), 0) >= 3.05 })
        #expect(try warnings(["white.png", "-o", "k.png", "--background", String(format: "#%02x%02x%02x", over, over, over),
                              "--caption", "Words", "--caption-color", "black"]).isEmpty)
        #expect(try warnings(["white.png", "-o", "a.png", "--background", "#808080", "--caption", "Words"]).isEmpty,
                "auto reads on #808080")
        // White to black across a centred caption: no grey reads on both ends.
        lines = try warnings(["white.png", "-o", "g.png", "--preset", "none", "--caption", "A wide caption here",
                              "--caption-position", "below", "--canvas-color", "linear-gradient(to right, white, black)"])
        #expect(lines.count == 1 && lines[0].contains("no grey") && lines[0].contains("4.5:1"), "\(lines)")
        // #666666 to #999999 under lines as wide as the frame: black is the best grey and reads
        // at only 3.6:1 on the #666666 end, short of 4.5 though above 3.
        let best = WCAG.ratio(WCAG.grey(0x66), 0), bestTenths = Int((best * 10).rounded(.down))
        #expect(best > 3 && best < 4.5)
        lines = try warnings(["white.png", "-o", "h.png", "--preset", "none", "--caption-position", "below",
                              "--caption", "Lines as wide as the frame, wrapped to its whole width",
                              "--canvas-color", "linear-gradient(to right, #666, #999)"])
        #expect(lines.count == 1 && lines[0].contains("no grey") && lines[0].contains("#000000")
                && lines[0].contains("\(bestTenths / 10).\(bestTenths % 10):1"), "\(lines)")
    }

    /// Issue 31, item 2: under a window's title bar with classic's white border and no padding,
    /// the lowest ink of "Figure 1: settings" (the descenders of g) stays half an em (8px) above
    /// the border, in PNG, SVG and PDF.
    @Test func descendersKeepHalfAnEmFromTheBorder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 240, height: 100, rgb: (40, 120, 200)), "blue.png", in: folder)
        let arguments = ["blue.png", "--chrome", "macos", "--caption", "Figure 1: settings"]
        for format in ["png", "svg", "pdf"] {
            let json = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + arguments + ["-o", "x.\(format)"],
                                                                                      in: folder))
            let frame = try PresetConfigLayoutTests.rect(json["frame"])
            let borderTop = Int(((frame.y + frame.h) / 0.75 - 3).rounded())
            let image = try Self.render(arguments, format: format, in: folder)
            // The caption's ink: dark pixels on the #808080 mat, between the picture and the border.
            let left = Int((frame.x / 0.75).rounded()) + 3
            var lowest = -1
            for y in (borderTop - 30)..<borderTop {
                for x in left..<(left + 240) where image.rgba(x, y).r < 100 { lowest = max(lowest, y) }
            }
            #expect(lowest > 0, "\(format): no caption ink")
            #expect(borderTop - (lowest + 1) >= 7, "\(format): the ink ends on row \(lowest), the border starts on \(borderTop)")
            #expect(image.rgba(left + 120, borderTop - 2) == (0x80, 0x80, 0x80, 255), "\(format): the mat under the text")
        }
    }

    /// Issue 31, items 2 and 3: docs puts the caption under the frame, where its soft shadow
    /// (0 12px 32px -6px) has faded: offset 12 + spread −6 + blur 32 = 38px under the frame. The
    /// rows of the caption's box are the page's white outside the glyphs, while the shadow still
    /// shows between the frame and the caption; the canvas holds half an em under the text.
    @Test func theCaptionUnderTheFrameClearsItsShadow() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["white.png", "--preset", "docs", "--canvas-color", "white", "--caption", "Figure 1: settings"]
        let json = try PresetConfigLayoutTests.json(try PresetConfigLayoutTests.run(["layout"] + arguments + ["-o", "x.png"], in: folder))
        let frame = try PresetConfigLayoutTests.rect(json["frame"])
        let caption = try #require(json["caption"] as? [String: Any])
        let box = try PresetConfigLayoutTests.rect(caption["box"])
        #expect(abs(box.y - (frame.y + frame.h) - 38 * 0.75) < 1e-6, "\(box) under \(frame)")
        let canvas = try #require(json["canvas"] as? [String: Double])
        #expect(canvas["height"]! >= box.y + box.h + 8 * 0.75 + 16 * 0.75 - 1e-6, "half an em and the margin under it")
        let image = try Self.render(arguments, format: "png", in: folder)
        let x = Int(frame.x / 0.75) + 4, top = Int((box.y / 0.75).rounded(.up)), bottom = Int((box.y + box.h) / 0.75)
        for y in top..<bottom { #expect(image.rgba(x, y).r >= 252, "shadow under the caption's row \(y): \(image.rgba(x, y))") }
        let between = Int((frame.y + frame.h) / 0.75) + 8
        #expect(image.rgba(x + 40, between).r < 240, "the shadow shows under the frame: \(image.rgba(x + 40, between))")
    }
}
