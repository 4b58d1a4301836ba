import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Sets that swap cleanly (`--variant light,dark`, `--scale 1,2,3`): every file of a set has one
/// CSS size, and at one scale one pixel size, with the frame at one place. The expected sizes
/// come from the test's own box-model arithmetic on the looks `--print-config` reports for each
/// variant (the presets' values are never written here: they change), and are compared with the
/// files' real sizes and pixels.
struct SetSizeTests {
    /// What the box model needs of a look, in CSS px: border, padding (top, right, bottom,
    /// left), margin, and each outer shadow's x, y, blur and spread.
    struct Look {
        var border = 0.0, margin = 0.0
        var padding = [0.0, 0, 0, 0]
        var shadows: [[Double]] = []
    }

    /// A CSS length in px (`1px`, `0.5mm`, `3pt`, a bare number).
    static func px(_ text: Substring) -> Double? {
        let units: [(String, Double)] = [("px", 1), ("pt", 96.0 / 72), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96)]
        for (unit, factor) in units where text.hasSuffix(unit) { return Double(text.dropLast(unit.count)).map { $0 * factor } }
        return Double(text)
    }

    /// `text` split at `separator` where no parenthesis is open.
    static func split(_ text: String, at separator: Character) -> [Substring] {
        var parts: [Substring] = [], depth = 0, start = text.startIndex
        for i in text.indices {
            if text[i] == "(" { depth += 1 } else if text[i] == ")" { depth -= 1 } else if text[i] == separator && depth == 0 {
                parts.append(text[start..<i]); start = text.index(after: i)
            }
        }
        parts.append(text[start...])
        return parts.map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }

    /// The look that these options make, from `framed --print-config`.
    static func look(_ options: [String], in folder: URL) throws -> Look {
        let r = try CLITests.framed(options + ["--print-config"], in: folder)
        let config = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        var look = Look()
        look.border = try #require(px(Substring(config["border"] as? String ?? "")))
        look.margin = try #require(px(Substring(config["margin"] as? String ?? "")))
        let padding = try (config["padding"] as? String ?? "").split(separator: " ").map { try #require(px($0)) }
        look.padding = [padding[0], padding.count > 1 ? padding[1] : padding[0], padding.count > 2 ? padding[2] : padding[0],
                        padding.count > 3 ? padding[3] : padding.count > 1 ? padding[1] : padding[0]]
        let shadow = config["shadow"] as? String ?? "none"
        if shadow != "none" {
            for one in split(shadow, at: ",") {
                let words = split(String(one), at: " ")
                guard !words.contains("inset") else { continue }
                var lengths = words.compactMap { px($0) }
                while lengths.count < 4 { lengths.append(0) }
                look.shadows.append(lengths)
            }
        }
        return look
    }

    /// The frame's own canvas for a `w` x `h` px picture at its natural size: the frame's size,
    /// and how far the shadows and margin reach past it on the left, top, right and bottom
    /// (a shadow reaches 3 sigma = 1.5 blur past its box, the box moved by the offset and grown
    /// by the spread; each side in whole px, never inside the frame).
    static func canvas(_ look: Look, _ w: Double, _ h: Double) -> (frame: [Double], sides: [Double]) {
        let frame = [w + 2 * look.border + look.padding[1] + look.padding[3], h + 2 * look.border + look.padding[0] + look.padding[2]]
        var sides = [0.0, 0, 0, 0]
        for s in look.shadows {
            let reach = 1.5 * s[2] + s[3]
            let each = [reach - s[0], reach - s[1], reach + s[0], reach + s[1]]
            for i in 0..<4 { sides[i] = max(sides[i], (each[i] - 1e-9).rounded(.up)) }
        }
        return (frame, sides.map { $0 + look.margin })
    }

    /// A set's canvas by the rule: the frames' centres on one point (the farthest one's), each
    /// moved by whole px, rounded down; the canvas as large as the largest moved one. Returns the
    /// canvas and each frame's top-left corner.
    static func shared(_ members: [(frame: [Double], sides: [Double])]) -> (size: [Double], origins: [[Double]]) {
        let cx = members.map { $0.sides[0] + $0.frame[0] / 2 }.max()!, cy = members.map { $0.sides[1] + $0.frame[1] / 2 }.max()!
        var size = [0.0, 0], origins: [[Double]] = []
        for m in members {
            let dx = (cx - m.sides[0] - m.frame[0] / 2 + 1e-9).rounded(.down), dy = (cy - m.sides[1] - m.frame[1] / 2 + 1e-9).rounded(.down)
            size[0] = max(size[0], dx + m.sides[0] + m.frame[0] + m.sides[2])
            size[1] = max(size[1], dy + m.sides[1] + m.frame[1] + m.sides[3])
            origins.append([dx + m.sides[0], dy + m.sides[1]])
        }
        return (size, origins)
    }

    static func size(_ name: String, in folder: URL) throws -> [Int] {
        let png = try OptionOutputTests.png(name, in: folder)
        return [png.width, png.height]
    }

    @Test func lightAndDarkHaveOneSizeAtEveryScaleWithTheFrameAtOnePlace() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A HiDPI screenshot: 640 x 400 pixels at 192 dpi, 320 x 200 CSS px, with the pixels 2x
        // needs. The docs pair as it is, then with a margin and padding of the user's own (kept
        // in both looks), at scales that do not all divide evenly.
        try OptionOutputTests.write(Support.picture(width: 640, height: 400, rgb: (30, 90, 160)), "hidpi.png", in: folder)
        for extra in [[], ["--margin", "10", "--padding", "3px 9px"]] {
            let options = ["--preset", "docs", "--image-dpi", "192"] + extra
            let looks = [try Self.look(options, in: folder), try Self.look(options + ["--preset", "docs-dark"], in: folder)]
            let canvases = looks.map { Self.canvas($0, 320, 200) }
            let (size, origins) = Self.shared(canvases)
            let r = try CLITests.framed(["hidpi.png", "-o", "set.png", "-f"] + options + ["--variant", "light,dark", "--scale", "1,1.5,2"],
                                        in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            for (suffix, scale) in [("", 1.0), ("@1.5x", 1.5), ("@2x", 2.0)] {
                let expected = size.map { Int(($0 * scale - 1e-6).rounded(.up)) }
                #expect(try Self.size("set\(suffix).png", in: folder) == expected, "\(extra) light \(suffix)")
                #expect(try Self.size("set-dark\(suffix).png", in: folder) == expected, "\(extra) dark \(suffix)")
            }
            // The frame where the arithmetic puts it, in both: its first opaque pixel across the
            // middle row and down the middle column (the border is on whole pixels).
            for (name, origin) in zip(["set.png", "set-dark.png"], origins) {
                let png = try OptionOutputTests.png(name, in: folder)
                let left = (0..<png.width).first { png.pixel(x: $0, y: png.height / 2).a == 255 }
                let top = (0..<png.height).first { png.pixel(x: png.width / 2, y: $0).a == 255 }
                #expect(left == Int(origin[0]) && top == Int(origin[1]), "\(extra) \(name): frame at \(String(describing: left)), \(String(describing: top))")
            }
            #expect(origins[0] == origins[1], "one place for both frames when they have one size")
            // SVG: both files the same size in points (0.75 pt a CSS px).
            let svg = try CLITests.framed(["hidpi.png", "-o", "set.svg", "-f"] + options + ["--variant", "light,dark"], in: folder)
            #expect(svg.status == 0, "\(svg.stderr)")
            for name in ["set.svg", "set-dark.svg"] {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                let points = size.map { String(format: "%g", $0 * 0.75) }
                #expect(text.contains("width=\"\(points[0])pt\"") && text.contains("height=\"\(points[1])pt\""),
                        "\(name): \(text.prefix(200))")
            }
        }
        // One variant alone is that file of the pair, so files made in two runs swap cleanly too.
        for (variant, name) in [("light", "set.png"), ("dark", "set-dark.png")] {
            let r = try CLITests.framed(["hidpi.png", "-o", "alone.png", "-f", "--preset", "docs", "--image-dpi", "192", "--margin", "10",
                                         "--padding", "3px 9px", "--variant", variant], in: folder)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("alone.png")) == Data(contentsOf: folder.appendingPathComponent(name)),
                    "--variant \(variant) alone is \(name)")
        }
    }

    /// The issue's case: a 1280 px screenshot at --width 640 has the pixels for 1x and 2x, not for
    /// 3x (640 * 3 = 1920): that file alone gets a warning naming the scale and the pixels, and
    /// `framed layout` lists it on that entry.
    @Test func aMemberWithFewerPixelsThanItNeedsIsNamedWithThePixels() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Support.picture(width: 1280, height: 800, rgb: (90, 140, 200)), "wide.png", in: folder)
        let options = ["wide.png", "-o", "w.png", "--preset", "none", "--width", "640", "--scale", "1,2,3"]
        let r = try CLITests.framed(options + ["-f"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("wide.png") && r.stderr.contains("--scale 3")
                && r.stderr.contains("1920x1200") && r.stderr.contains("1280x800"), "\(r.stderr)")
        #expect(try Self.size("w@3x.png", in: folder) == [1920, 1200], "the file is still written")
        let layout = try CLITests.framed(["layout"] + options, in: folder)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { ($0["warnings"] as? [String])?.count ?? 0 } == [0, 0, 1])
        #expect((entries[2]["warnings"] as? [String])?.first?.contains("1920x1200") == true)
        // From a config file, the same.
        try Data(#"{"preset": "none", "width": 640, "scale": "1,2,3"}"#.utf8).write(to: folder.appendingPathComponent("set.json"))
        let configured = try CLITests.framed(["wide.png", "-o", "c.png", "--config", "set.json"], in: folder)
        #expect(configured.status == 0 && configured.stderr.contains("--scale 3"), "\(configured.stderr)")
    }
}
