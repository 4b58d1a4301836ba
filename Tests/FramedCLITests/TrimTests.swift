import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// `--trim`: pictures built here with known margins, framed with no border, mat or shadow, so
/// that the output is the kept part of the picture and its size and colours say what was kept.
@Suite struct TrimTests {
    /// `width` x `height` of `background`, with `paint` deciding the pixels that differ.
    static func picture(_ width: Int, _ height: Int, background: [UInt8],
                        paint: (Int, Int) -> [UInt8]?) -> RasterImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height { for x in 0..<width { pixels += paint(x, y) ?? background } }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// White, a red block at (20, 10) 50 x 40, and one near-white pixel (250, 250, 250) at
    /// (5, 5): 3.4% from white (5 levels on each channel: 5 · √3 / 255), so inside `--trim 10%`
    /// and outside exact trimming.
    @Test func exactAndFuzzyTrimKeepTheFixturesContent() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = Self.picture(100, 80, background: [255, 255, 255, 255]) { x, y in
            if (20..<70).contains(x) && (10..<50).contains(y) { return [255, 0, 0, 255] }
            return x == 5 && y == 5 ? [250, 250, 250, 255] : nil
        }
        try OptionOutputTests.write(image, "margin.png", in: folder)
        // Exact: the near-white pixel stays, so the box runs from (5, 5) to the block's far corner.
        try OptionOutputTests.framed(["margin.png", "-o", "exact.png", "--preset", "none", "--trim"], in: folder)
        let exact = try OptionOutputTests.png("exact.png", in: folder)
        #expect(exact.width == 65 && exact.height == 45, "\(exact.width)x\(exact.height)")
        #expect(exact.pixel(x: 0, y: 0) == (250, 250, 250, 255) && exact.pixel(x: 64, y: 44) == (255, 0, 0, 255))
        #expect(exact.pixel(x: 14, y: 4) == (255, 255, 255, 255) && exact.pixel(x: 15, y: 5) == (255, 0, 0, 255))
        // 10%: the block alone, the option's value after it or after `=`.
        for arguments in [["--trim", "10%"], ["--trim=10%"]] {
            try OptionOutputTests.framed(["margin.png", "-o", "fuzzy.png", "--preset", "none"] + arguments, in: folder)
            let fuzzy = try OptionOutputTests.png("fuzzy.png", in: folder)
            #expect(fuzzy.width == 50 && fuzzy.height == 40, "\(arguments): \(fuzzy.width)x\(fuzzy.height)")
            #expect(fuzzy.pixel(x: 0, y: 0) == (255, 0, 0, 255) && fuzzy.pixel(x: 49, y: 39) == (255, 0, 0, 255))
        }
        // `--trim` before the picture: the picture's name is not taken for a tolerance.
        try OptionOutputTests.framed(["--trim", "margin.png", "-o", "first.png", "--preset", "none"], in: folder)
        #expect(try OptionOutputTests.png("first.png", in: folder).width == 65)
        // PDF: the embedded picture is the kept part, 65 x 45 pixels (not the file passed through).
        try OptionOutputTests.framed(["margin.png", "-o", "t.pdf", "--preset", "none", "--trim"], in: folder)
        let pictures = try OptionOutputTests.pdfPictures("t.pdf", in: folder)
        #expect(pictures.count == 1 && pictures[0].width == 65 && pictures[0].height == 45)
        // `framed layout` names the kept part in the picture's pixels; a batch trims each picture.
        let layout = try CLITests.framed(["layout", "margin.png", "--preset", "none", "--trim", "10%"], in: folder)
        #expect(layout.stdout.contains(#""trimmed": {"x": 20, "y": 10, "width": 50, "height": 40}"#), "\(layout.stdout)")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("margin.png"),
                                         to: folder.appendingPathComponent("again.png"))
        try OptionOutputTests.framed(["margin.png", "again.png", "-o", "out/", "--format", "png", "--preset", "none",
                                      "--trim=10%"], in: folder)
        for name in ["margin", "again"] {
            let png = try Support.readPNG(folder.appendingPathComponent("out/\(name).png"))
            #expect(png.width == 50 && png.height == 40, "\(name): \(png.width)x\(png.height)")
        }
        // A frame around the kept part: 10 px of padding on each side.
        try OptionOutputTests.framed(["margin.png", "-o", "mat.png", "--preset", "none", "--trim", "10%",
                                      "--padding", "10", "--background", "#0000ff"], in: folder)
        let mat = try OptionOutputTests.png("mat.png", in: folder)
        #expect(mat.width == 70 && mat.height == 60 && mat.pixel(x: 9, y: 9) == (0, 0, 255, 255)
                && mat.pixel(x: 10, y: 10) == (255, 0, 0, 255))
    }

    /// A transparent margin whose hidden colours vary from pixel to pixel: transparent matches
    /// transparent, whatever its colour.
    @Test func transparentEdgesAreTrimmed() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = Self.picture(60, 70, background: [0, 0, 0, 0]) { x, y in
            if (10..<30).contains(x) && (20..<50).contains(y) { return [0, 0, 255, 255] }
            return [UInt8(x * 4), UInt8(y * 3), 7, 0]
        }
        try OptionOutputTests.write(image, "alpha.png", in: folder)
        try OptionOutputTests.framed(["alpha.png", "-o", "a.png", "--preset", "none", "--trim"], in: folder)
        let trimmed = try OptionOutputTests.png("a.png", in: folder)
        #expect(trimmed.width == 20 && trimmed.height == 30, "\(trimmed.width)x\(trimmed.height)")
        #expect(trimmed.pixel(x: 0, y: 0) == (0, 0, 255, 255) && trimmed.pixel(x: 19, y: 29) == (0, 0, 255, 255))
    }

    /// A 20 MP JPEG (5472 x 3648) with a 400 px white margin round a 4672 x 2848 photo (colours
    /// that change across it), framed 600 px wide: the trim is decided on the picture decoded at
    /// 1/8, so the kept box is the content's to within 8 source pixels, about one output pixel.
    @Test func aBigPhotoIsTrimmedOnItsShrunkDecode() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (w, h, m) = (5472, 3648, 400)
        let image = Self.picture(w, h, background: [255, 255, 255, 255]) { x, y in
            guard (m..<(w - m)).contains(x) && (m..<(h - m)).contains(y) else { return nil }
            return [UInt8(40 + (x - m) * 100 / (w - 2 * m)), UInt8(60 + (y - m) * 100 / (h - 2 * m)), 120, 255]
        }
        try Data(try PictureEncoder.jpeg(image, quality: 92)).write(to: folder.appendingPathComponent("big.jpg"))
        let start = ContinuousClock.now
        try OptionOutputTests.framed(["big.jpg", "-o", "big.png", "--preset", "none", "--width", "600", "--trim", "10%"],
                                     in: folder)
        let elapsed = ContinuousClock.now - start
        let out = try OptionOutputTests.png("big.png", in: folder)
        // The content's ratio: 600 x 365.75.
        #expect(out.width == 600 && abs(out.height - 366) <= 2, "\(out.width)x\(out.height)")
        // No white band left: the second row and column in from each side are the photo's colours.
        for (x, y) in [(1, out.height / 2), (out.width - 2, out.height / 2), (out.width / 2, 1), (out.width / 2, out.height - 2)] {
            let p = out.pixel(x: x, y: y)
            #expect(p.b < 160 && p.r < 180, "(\(x), \(y)): \(p)")
        }
        #expect(elapsed < .seconds(10), "framing a 20 MP JPEG with --trim took \(elapsed)")
        print("TrimTests: 20 MP JPEG trimmed and framed in \(elapsed)")
    }

    @Test func anSVGPictureIsDrawnWholeWithAWarning() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect x="10" y="10" width="10" height="10" fill="red"/></svg>"#
        try Data(svg.utf8).write(to: folder.appendingPathComponent("v.svg"))
        let r = try OptionOutputTests.framed(["v.svg", "-o", "v.png", "--preset", "none", "--trim"], in: folder)
        #expect(r.stderr.contains("not trimmed"), "\(r.stderr)")
        let png = try OptionOutputTests.png("v.png", in: folder)
        #expect(png.width == 40 && png.height == 30)
    }

    @Test func aToleranceIsAPercentage() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for value in ["--trim=10", "--trim=150%", "--trim=abc"] {
            let r = try CLITests.framed(["shot.png", "-o", "x.png", value], in: folder)
            #expect(r.status == 2 && r.stderr.contains("trim") && r.stderr.contains("percentage"), "\(value): \(r.stderr)")
        }
    }
}
