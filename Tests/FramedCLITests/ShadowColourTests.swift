import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Coloured, translucent shadows as the user gets them from the command line: the straight
/// red, green, blue and alpha of every pixel, in PNG (framed's own), in SVG rasterised by librsvg
/// and in PDF rasterised by Ghostscript (`pngalpha`, transparent paper), against the exact values
/// that the test computes from the CSS numbers it passes (`CSSFrame`, `ExactShadow`: erf and
/// geometry of its own). Two outer shadows of different colours overlap (the first on top, as
/// CSS stacks them) and an inset one tints the white mat.
///
/// Outside the frame each premultiplied channel and the alpha are within 4/255 of the exact
/// ones (5/255 for Ghostscript, whose shadings step by its 2 % smoothness; measured at most
/// 2.2 and 2.7); where the shadows are dense (alpha 0.3 and more), the straight colour is the
/// exact one within 1 + 3/alpha levels (a premultiplied channel 3/255 off; measured at most
/// 2/alpha). Where both
/// overlap, the colour shows which is on top. On the mat, the inset shadow over white is within
/// 4 levels (measured 2.4).
/// Pixels within 1.5 device pixels of an edge are left out (antialiasing).
struct ShadowColourTests {
    static let red = CSSShadow(10, 8, 16, 2, rgba: (210, 30, 20, 0.5))
    static let blue = CSSShadow(-6, -5, 12, 6, rgba: (20, 80, 230, 0.45))
    static let green = CSSShadow(3, 3, 10, rgba: (0, 160, 70, 0.55), inset: true)
    static let frame = CSSFrame(width: 160, height: 120, border: 4, padding: 16, shadows: [red, blue, green])

    static let look = ["--preset", "none", "--size", "160x120", "--border", "4", "--border-color", "#303030",
                       "--padding", "16", "--background", "white", "--fit", "fill", "--shadow", CSSShadow.css(frame.shadows)]

    enum Judge: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case png, png2x, librsvg, ghostscript
        var testDescription: String { rawValue }
        /// Device pixels per CSS px.
        var k: Double { self == .png2x ? 2 : 1 }
        /// Ghostscript draws a PDF's sampled shadow shadings (`PDFShadow`) in sub-pixel triangles
        /// of one colour each: up to 7/255 off at 96 dpi (PDFViewerShadowTests has its figures).
        var tolerance: Double { self == .ghostscript ? 7.5 : 4 }
    }

    /// Frames a 40x30 picture with `look` and returns the judge's RGBA picture.
    static func render(_ judge: Judge, in folder: URL) throws -> RasterImage {
        let picture = Support.picture(width: 40, height: 30, rgb: (90, 160, 60))
        try Data(PictureEncoder.png(picture)).write(to: folder.appendingPathComponent("in.png"))
        let name = switch judge { case .png, .png2x: "out.png"; case .librsvg: "out.svg"; case .ghostscript: "out.pdf" }
        let r = try CLITests.framed(["in.png", "-o", name, "-f"] + look + (judge == .png2x ? ["--scale", "2"] : []), in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        let url = folder.appendingPathComponent(name)
        switch judge {
        case .png, .png2x: return try Support.readPNG(url)
        case .librsvg: return try Support.rasteriseSVG(url, zoom: 1)
        case .ghostscript: return try Support.rasterisePDFWithGhostscript(url, dpi: 96)
        }
    }

    @Test(arguments: Judge.allCases)
    func colouredTranslucentShadowsAreExact(_ judge: Judge) throws {
        let folder = try TemporaryFolder.make("framed-shadow-colour")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try Self.render(judge, in: folder)
        let css = Self.frame, k = judge.k, w = image.width, h = image.height
        let size = css.canvasPixels(k)
        try #require(w == size.width && h == size.height, "\(w)x\(h), not \(size.width)x\(size.height)")
        let outer = ExactShadow.composite(css, inset: false, columns: w, rows: h, k: k, offset: 0.5)
        let inset = ExactShadow.composite(css, inset: true, columns: w, rows: h, k: k, offset: 0.5)
        // Each outer shadow alone, to find where one colour shows by itself.
        let redAlone = ExactShadow.alpha(css, inset: false, columns: w, rows: h, k: k, offset: 0.5, only: [0])
        let blueAlone = ExactShadow.alpha(css, inset: false, columns: w, rows: h, k: k, offset: 0.5, only: [1])

        var premultiplied = 0.0, straight = 0.0, mat = 0.0
        var counts = (outer: 0, red: 0, blue: 0, overlap: 0, mat: 0)
        let edge = 1.5 / k
        for y in 0..<h {
            for x in 0..<w {
                let px = (Double(x) + 0.5) / k, py = (Double(y) + 0.5) / k
                let p = image.rgba(x, y), i = y * w + x
                if !ExactShadow.inside(px, py, box: css.frame, radius: 0, margin: edge) {
                    let e = outer[i]
                    let measured = [p.r, p.g, p.b].map { Double($0 * p.a) / 255 }
                    let exact = [e.r, e.g, e.b].map { $0 * e.a }
                    for (m, x) in zip(measured, exact) { premultiplied = max(premultiplied, abs(m - x)) }
                    premultiplied = max(premultiplied, abs(Double(p.a) - e.a * 255))
                    counts.outer += 1
                    // Where the shadows are dense, the straight colour as CSS composites it: 8-bit
                    // premultiplied pixels hold it to a few /alpha levels.
                    guard e.a >= 0.3 else { continue }
                    for (got, want) in [(p.r, e.r), (p.g, e.g), (p.b, e.b)] {
                        straight = max(straight, abs(Double(got) - want) / (1 + 3 / e.a))
                    }
                    if redAlone[i] > 0.25 && blueAlone[i] < 0.1 * redAlone[i] { counts.red += 1 }
                    if blueAlone[i] > 0.25 && redAlone[i] < 0.1 * blueAlone[i] { counts.blue += 1 }
                    if redAlone[i] > 0.15 && blueAlone[i] > 0.15 { counts.overlap += 1 }
                } else if ExactShadow.inside(px, py, box: css.paddingBox, radius: 0, margin: -edge),
                          !ExactShadow.inside(px, py, box: css.contentBox, radius: 0, margin: edge) {
                    // The inset shadow over the opaque white mat.
                    let e = inset[i]
                    #expect(p.a == 255, "the mat is opaque at \(x),\(y)")
                    for (got, c) in [(p.r, e.r), (p.g, e.g), (p.b, e.b)] {
                        mat = max(mat, abs(Double(got) - (255 * (1 - e.a) + c * e.a)))
                    }
                    counts.mat += 1
                }
            }
        }
        if ProcessInfo.processInfo.environment["FRAMED_SHADOW_REPORT"] != nil {
            print("shadow-colour \(judge): premultiplied \(premultiplied) straight \(straight) mat \(mat) \(counts)")
        }
        #expect(premultiplied <= judge.tolerance, "\(judge): outer shadows off by \(premultiplied)/255")
        #expect(straight <= 1, "\(judge): the straight colour off by \(straight) of what rounding allows")
        #expect(mat <= max(4, judge.tolerance), "\(judge): the inset shadow on the mat off by \(mat) levels")
        let n = Int(k * k)
        #expect(counts.red > 100 * n && counts.blue > 100 * n && counts.overlap > 100 * n && counts.mat > 1000 * n,
                "\(judge): enough pixels of each kind: \(counts)")
    }
}
