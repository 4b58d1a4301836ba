import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// `--proof` and `--gamut-warning` (issue 30, item 5): the soft proof against lcms2's own
/// `tificc` soft-proofing the same page through the same profile, within ΔE 1; the share of the
/// picture out of gamut against the pixels `tificc -g` marks; the sRGB proof exactly the page.
///
/// The press is Ghostscript's default CMYK profile (Artifex's SWOP profile, 2011, from Debian's
/// libgs-common, AGPL-3+), read where Debian installs it; the Makefile installs the package.
/// The page the proof is judged on is framed's TIFF of the same page at the same resolution
/// without snapping (the same drawing over white paper, `PhotoLabBackend`), which `tificc`
/// proofs with its built-in sRGB in and out (`-n`: the TIFF's own sRGB profile ignored),
/// relative colorimetric into the press (`-t1`) and absolute colorimetric back (`-m3`).
struct ProofTests {
    static let press = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    static let dpi = 100.0

    /// 240x160: the top half a sweep of full-saturation hues (mostly beyond a press's gamut),
    /// the bottom half soft greys and browns (within it).
    static func picture(in folder: URL) throws {
        var pixels: [UInt8] = []
        for y in 0..<160 {
            for x in 0..<240 {
                if y < 80 {
                    let h = Double(x) / 240 * 6, f = h - h.rounded(.down)
                    let rgb: [Double]
                    switch Int(h) {
                    case 0: rgb = [1, f, 0]
                    case 1: rgb = [1 - f, 1, 0]
                    case 2: rgb = [0, 1, f]
                    case 3: rgb = [0, 1 - f, 1]
                    case 4: rgb = [f, 0, 1]
                    default: rgb = [1, 0, 1 - f]
                    }
                    pixels += rgb.map { UInt8(($0 * 255).rounded()) } + [255]
                } else {
                    let v = UInt8(90 + x / 3)
                    pixels += [v, UInt8(Int(v) * 9 / 10), UInt8(Int(v) * 8 / 10), 255]
                }
            }
        }
        let png = try PictureEncoder.png(RasterImage(width: 240, height: 160, pixels: pixels, hasAlpha: false), dropAlpha: true)
        try Data(png).write(to: folder.appendingPathComponent("hues.png"))
    }

    /// The look: a vivid green mat (beyond the press too) on an A6 page (105 x 148 mm) with bleed and marks.
    static let look = ["--page", "105mmx148mm", "--bleed", "3mm", "--marks", "crop", "--background", "#00c000", "--padding", "5mm",
                       "--shadow", "none", "--border", "0", "--dpi", "\(Int(dpi))"]

    static func decode(_ url: URL) throws -> RasterImage { try Pictures.decode(contentsOf: url.path).image }

    /// CIE L*a*b* (D65) of an 8-bit sRGB colour.
    static func lab(_ r: Int, _ g: Int, _ b: Int) -> (Double, Double, Double) {
        func linear(_ v: Int) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (R, G, B) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047
        let y = 0.2126 * R + 0.7152 * G + 0.0722 * B
        let z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// ΔE*ab (CIE 1976) between two pixels.
    static func deltaE(_ a: (r: Int, g: Int, b: Int, a: Int), _ b: (r: Int, g: Int, b: Int, a: Int)) -> Double {
        let p = lab(a.r, a.g, a.b), q = lab(b.r, b.g, b.b)
        return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
    }

    /// The pixels whose centres lie in the picture's visible rectangle, from `framed layout`.
    static func pictureRect(_ arguments: [String], in folder: URL) throws -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let r = try CLITests.framed(["layout", "hues.png", "--format", "pdf"] + arguments, in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        let clip = try #require(json["pictureClip"] as? [String: Double])
        let k = dpi / 72
        func first(_ v: Double) -> Int { Int((v * k - 0.5).rounded(.up)) }
        return (first(clip["x"]!), first(clip["y"]!), first(clip["x"]! + clip["width"]!), first(clip["y"]! + clip["height"]!))
    }

    @Test func theProofIsWhatTificcProofsAndTheShareWhatItMarks() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.picture(in: folder)
        let intent = ["--pdf-variant", "x-4", "--output-intent", Self.press]
        let proofRun = try OptionOutputTests.framed(["hues.png", "-o", "print.pdf", "--proof", "proof.png"] + Self.look + intent,
                                                     in: folder)
        let warned = try OptionOutputTests.framed(["hues.png", "-o", "warned.pdf", "--proof", "warned.png",
                                                   "--gamut-warning", "#ff00ff"] + Self.look + intent, in: folder)
        try OptionOutputTests.framed(["hues.png", "-o", "page.tif", "--no-snap"] + Self.look, in: folder)
        for (arguments, output) in [(["-t1", "-m3"], "tificc.tif"), (["-t1", "-m3", "-g"], "tificc-g.tif")] {
            let r = try Tool.run("tificc", ["-n", "-p\(Self.press)"] + arguments + ["page.tif", output], in: folder)
            try #require(r.status == 0, "tificc: \(r.stderr)")
        }
        let proof = try Self.decode(folder.appendingPathComponent("proof.png"))
        let warning = try Self.decode(folder.appendingPathComponent("warned.png"))
        let page = try Self.decode(folder.appendingPathComponent("page.tif"))
        let reference = try Self.decode(folder.appendingPathComponent("tificc.tif"))
        let marked = try Self.decode(folder.appendingPathComponent("tificc-g.tif"))
        try #require(proof.width == page.width && proof.height == page.height && reference.width == page.width
                     && reference.height == page.height, "the page's size at \(Self.dpi) dpi")

        // Every pixel within ΔE 1 of tificc's; the press changes many by far more.
        var worst = 0.0, changed = 0
        for y in 0..<page.height {
            for x in 0..<page.width {
                worst = max(worst, Self.deltaE(proof.rgba(x, y), reference.rgba(x, y)))
                if Self.deltaE(page.rgba(x, y), reference.rgba(x, y)) > 5 { changed += 1 }
            }
        }
        #expect(worst <= 1, "largest ΔE from tificc's proof: \(worst)")
        #expect(changed > page.width * page.height / 4, "the press changes the page: \(changed) pixels by ΔE > 5")
        // The paper's white is simulated: the slug (paper) is not sRGB white, as tificc has it.
        let paper = proof.rgba(2, 2)
        #expect(paper.r + paper.g + paper.b < 3 * 255 - 6 && Self.deltaE(paper, reference.rgba(2, 2)) <= 1, "paper \(paper)")

        // Out of gamut: where tificc -g differs from the plain proof (ambiguous where the plain
        // proof is the alarm colour itself, which it never is here).
        let area = try Self.pictureRect(Self.look, in: folder)
        var pixels = 0, out = 0
        for y in area.y0..<area.y1 {
            for x in area.x0..<area.x1 {
                pixels += 1
                if marked.rgba(x, y) != reference.rgba(x, y) { out += 1 }
            }
        }
        let share = Double(out) / Double(pixels) * 100
        #expect(share > 10 && share < 60, "the hues are partly out of gamut: \(share) %")
        let line = try #require(proofRun.stderr.split(separator: "\n").first { $0.contains("soft proof proof.png") })
        let said = try #require(Double(line.split(separator: " ").first { Double($0) != nil } ?? ""), "\(line)")
        #expect(abs(said - share) <= 0.051, "framed says \(said) %, tificc marks \(share) %")
        #expect(warned.stderr.contains(String(format: "%.1f %%", said)), "the same share with a warning colour")

        // A warning colour that the press's proof of out-of-gamut pixels gives too: those pixels
        // still count (a check whose alarm colour is the proof's own would miss them).
        var tally: [String: Int] = [:]
        for y in area.y0..<area.y1 {
            for x in area.x0..<area.x1 where marked.rgba(x, y) != reference.rgba(x, y) {
                let p = reference.rgba(x, y)
                tally[String(format: "#%02x%02x%02x", p.r, p.g, p.b), default: 0] += 1
            }
        }
        let common = try #require(tally.max { $0.value < $1.value })
        #expect(Double(common.value) / Double(pixels) * 100 > 0.2, "\(common.value) pixels of \(pixels) proof as \(common.key)")
        let alike = try OptionOutputTests.framed(["hues.png", "-o", "alike.pdf", "--proof", "alike.png",
                                                  "--gamut-warning", common.key] + Self.look + intent, in: folder)
        #expect(alike.stderr.contains(String(format: ": %.1f %% of", said)), "\(alike.stderr)")

        // The warning colour exactly where tificc marks a pixel, on the mat too; elsewhere the proof.
        var painted = 0
        for y in 0..<page.height {
            for x in 0..<page.width {
                if marked.rgba(x, y) != reference.rgba(x, y) {
                    #expect(warning.rgba(x, y) == (255, 0, 255, 255), "warning at \(x), \(y)")
                    painted += 1
                } else if Self.deltaE(warning.rgba(x, y), reference.rgba(x, y)) > 1 {
                    Issue.record("proof at \(x), \(y): \(warning.rgba(x, y)) against tificc's \(reference.rgba(x, y))")
                    return
                }
            }
        }
        #expect(painted > out, "the vivid mat is painted too: \(painted) pixels, \(out) in the picture")
    }

    /// Without a CMYK intent (no --pdf-variant, or its sRGB default) the proof is the page as it
    /// is, pixel for pixel, which Ghostscript shows too; nothing is out of gamut.
    @Test func anSRGBProofIsThePage() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.picture(in: folder)
        let plain = try OptionOutputTests.framed(["hues.png", "-o", "plain.pdf", "--proof", "plain.png"] + Self.look, in: folder)
        let x4 = try OptionOutputTests.framed(["hues.png", "-o", "x4.pdf", "--proof", "x4.png", "--pdf-variant", "x-4",
                                               "--gamut-warning", "red"] + Self.look, in: folder)
        try OptionOutputTests.framed(["hues.png", "-o", "page.tif", "--no-snap"] + Self.look, in: folder)
        let page = try Self.decode(folder.appendingPathComponent("page.tif"))
        for name in ["plain.png", "x4.png"] {
            let proof = try Self.decode(folder.appendingPathComponent(name))
            #expect(!proof.hasAlpha && proof.width == page.width && proof.height == page.height)
            #expect(proof.pixels == page.pixels, "\(name) is the page, pixel for pixel")
        }
        for run in [plain, x4] { #expect(run.stderr.contains(": 0.0 % of the picture is out of the press's gamut"), "\(run.stderr)") }

        // The page the PDF shows: Ghostscript's render at the same resolution, away from edges.
        let proof = try Self.decode(folder.appendingPathComponent("plain.png"))
        let gs = try PDFViewer.ghostscript.render(folder.appendingPathComponent("plain.pdf"), dpi: Self.dpi,
                                                  pageSize: (Double(proof.width) * 72 / Self.dpi, Double(proof.height) * 72 / Self.dpi)).image
        #expect(abs(gs.width - proof.width) <= 1 && abs(gs.height - proof.height) <= 1)
        let area = try Self.pictureRect(Self.look, in: folder)
        for (x, y) in [((area.x0 + area.x1) / 2, area.y0 + 20), ((area.x0 + area.x1) / 2, area.y1 - 20), (area.x0 - 10, area.y0 - 10)] {
            let a = proof.rgba(x, y), b = gs.rgba(x, y)
            #expect(abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b) <= 12, "at \(x), \(y): proof \(a), Ghostscript \(b)")
        }
    }

    /// One proof a page with --pages, numbered; the share of all pictures, and the one with most.
    @Test func pagesGetAProofEach() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.picture(in: folder)
        let r = try OptionOutputTests.framed(["hues.png", "photo.jpg", "hues.png", "-o", "book.pdf", "--pages", "--proof", "book.png",
                                              "--pdf-variant", "x-4", "--output-intent", Self.press] + Self.look, in: folder)
        #expect(try CLITests.files(in: folder).filter { $0.hasPrefix("book") } == ["book-1.png", "book-2.png", "book-3.png", "book.pdf"])
        #expect(r.stderr.contains("soft proof book-1.png to book-3.png: ") && r.stderr.contains("; most in hues.png ("),
                "\(r.stderr)")
        let one = try Self.decode(folder.appendingPathComponent("book-1.png"))
        let three = try Self.decode(folder.appendingPathComponent("book-3.png"))
        #expect(one.pixels == three.pixels, "the same picture, the same proof")
        let layout = try CLITests.framed(["layout", "hues.png", "photo.jpg", "--pages", "--proof", "book.png"] + Self.look,
                                         in: folder)
        let pages = try #require(try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [[String: Any]])
        let files = pages.compactMap { ($0["proof"] as? [String: Any])?["file"] as? String }
        #expect(files == ["book-1.png", "book-2.png"], "\(layout.stdout)")
        let size = (pages.first?["proof"] as? [String: Any])?["pixels"] as? [String: Int]
        #expect(size?["width"] == one.width && size?["height"] == one.height, "\(String(describing: size))")
    }

    /// On a sheet each print's picture counts as its own: the vivid one has the most.
    @Test func aSheetGetsAProofAndEachPrintItsShare() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.picture(in: folder)
        let r = try OptionOutputTests.framed(["photo.jpg", "hues.png", "-o", "sheet.pdf", "--sheet", "A5", "--proof", "sheet.png",
                                              "--pdf-variant", "x-4", "--output-intent", Self.press, "--dpi", "100"], in: folder)
        #expect(try CLITests.files(in: folder).filter { $0.hasPrefix("sheet") } == ["sheet.pdf", "sheet.png"])
        #expect(r.stderr.contains("soft proof sheet.png: ") && r.stderr.contains("; most in hues.png ("), "\(r.stderr)")
        let proof = try Self.decode(folder.appendingPathComponent("sheet.png"))
        #expect(abs(Double(proof.width) - 148 / 25.4 * 100) <= 1 && abs(Double(proof.height) - 210 / 25.4 * 100) <= 1,
                "the A5 sheet at 100 dpi: \(proof.width)x\(proof.height)")
    }

    @Test func proofMistakesAreRefused() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], [String])] = [
            (["photo.jpg", "-o", "x.png", "--proof", "p.png"], ["--proof", "PNG"]),
            (["photo.jpg", "-o", "x.pdf", "--gamut-warning", "red"], ["--gamut-warning needs --proof"]),
            (["photo.jpg", "-o", "x.pdf", "--proof", "p.jpg"], ["--proof", "does not end in .png"]),
            (["photo.jpg", "-o", "x.pdf", "--proof", "p.png", "--gamut-warning", "rgba(255,0,0,.5)"], ["--gamut-warning", "opaque"]),
            (["photo.jpg", "-o", "x.png", "--format", "pdf", "--proof", "x.png"], ["--proof x.png", "another name"]),
            (["photo.jpg", "shot.png", "-o", "out/", "--format", "pdf", "--proof", "p.png"], ["--proof", "--pages"]),
        ]
        for (arguments, words) in cases {
            CLITests.expectOneLineError(try CLITests.framed(arguments, in: folder), status: 2, mentioning: words)
        }
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"], "nothing written")
        // An existing proof is kept without --overwrite, and nothing is written.
        try Data("keep".utf8).write(to: folder.appendingPathComponent("p.png"))
        let kept = try CLITests.framed(["photo.jpg", "-o", "x.pdf", "--proof", "p.png"], in: folder)
        #expect(kept.status == 1 && kept.stderr.contains("p.png: exists"), "\(kept.stderr)")
        #expect(try String(contentsOf: folder.appendingPathComponent("p.png"), encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.pdf").path))
    }
}
