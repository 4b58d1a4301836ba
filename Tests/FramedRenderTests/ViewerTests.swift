import FramedTestSupport
import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import Testing

/// Where users look at the files: the same SVG in headless Chromium and in librsvg, and framed's
/// own PNG, agree within 8/255 per channel; the PDF passes `qpdf --check` and renders alike in
/// poppler and MuPDF. Pixels within 1.5 device pixels of a geometric edge (frame, border's inner
/// edge, content box, the picture's rectangle and its colour split) are left out: antialiasing
/// differs between renderers there. Everything is compared on white at 96 dpi.
///
/// The three renderers share no code with each other, but framed's drawing is the same in all
/// three files: that the pictures agree says the SVG is read alike everywhere, not that it is
/// right (ShadowColourTests, ShadowAccuracyTests and RoundedShadowTests hold the drawing to
/// exact values). `chromium` (Debian's package) is installed by `make test`; a Chromium that is
/// missing or makes no picture fails the test.
struct ViewerTests {
    static let shadow = "0 6px 16px rgba(20,40,120,.55), -3px 2px 4px 1px rgba(120,0,0,.3), inset 0 2px 6px rgba(0,0,0,.45)"

    static func scene() throws -> (RasterImage, FrameLayout, FrameStyle) {
        var style = FrameStyle(size: LengthSize(width: .px(150), height: .px(110)), border: .px(3),
                               borderColor: RGBAColor(red8: 230, green8: 220, blue8: 200),
                               padding: try EdgeInsets(parsing: "12px"), background: RGBAColor(red8: 250, green8: 248, blue8: 240))
        style.radius = .px(14)
        style.shadows = try BoxShadow.parseList(shadow)
        style.fit = .fill
        let picture = Support.picture(width: 40, height: 30, rgb: (40, 120, 200), left: (230, 160, 40))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: style)
        return (picture, layout, style)
    }

    /// Whether the centre of pixel (x, y) (at `k` pixels per point) lies within 1.5 px of an edge.
    static func nearEdge(_ x: Int, _ y: Int, layout: FrameLayout, k: Double) -> Bool {
        let p = Point(x: (Double(x) + 0.5) / k, y: (Double(y) + 0.5) / k), band = 1.5 / k
        func onRoundedEdge(_ box: Rect, _ r: Double) -> Bool {
            ExactShadow.inside(p, box: box, radius: r, margin: band) && !ExactShadow.inside(p, box: box, radius: r, margin: -band)
        }
        let picture = layout.pictureClip
        let split = Rect(x: layout.picture.midX - band, y: picture.minY, width: 2 * band, height: picture.height)
        return onRoundedEdge(layout.frame, layout.outerRadius) || onRoundedEdge(layout.paddingBox, layout.innerRadius)
            || onRoundedEdge(layout.contentBox, 0) || onRoundedEdge(picture, 0)
            || ExactShadow.inside(p, box: split, radius: 0, margin: 0)
    }

    /// Largest and mean per-channel difference of two renders (on white), edges left out.
    static func difference(_ a: RasterImage, _ b: RasterImage, layout: FrameLayout, k: Double) -> (max: Int, mean: Double, count: Int) {
        var worst = 0, sum = 0, count = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) where !nearEdge(x, y, layout: layout, k: k) {
                let p = a.onWhite(x, y), q = b.onWhite(x, y)
                for (u, v) in [(p.0, q.0), (p.1, q.1), (p.2, q.2)] {
                    worst = max(worst, abs(u - v)); sum += abs(u - v); count += 1
                }
            }
        }
        if ProcessInfo.processInfo.environment["FRAMED_SHADOW_REPORT"] != nil {
            print("viewer-report max \(worst) mean \(Double(sum) / Double(max(count, 1))) over \(count / 3) px")
        }
        return (worst, Double(sum) / Double(max(count, 1)), count / 3)
    }

    @Test func chromiumLibrsvgAndPNGAgree() throws {
        let (picture, layout, style) = try Self.scene()
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("scene.svg")
        try Support.write(FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .svg)), to: svg)
        let png = try Pictures.decode(data: FrameRenderer.render(picture, layout: layout, style: style,
                                                                 options: RenderOptions(format: .png))).image
        let rsvg = try Support.rasteriseSVG(svg, zoom: 1)
        let k = 96.0 / 72
        #expect(png.width == rsvg.width && png.height == rsvg.height)
        let librsvg = Self.difference(png, rsvg, layout: layout, k: k)
        #expect(librsvg.max <= 8, "PNG vs librsvg: max \(librsvg.max), mean \(librsvg.mean)")
        #expect(librsvg.count > 10_000, "most of the canvas is compared")

        let chromium = try Self.chromiumScreenshot(svg, width: png.width, height: png.height, folder: folder)
        #expect(chromium.width == png.width && chromium.height == png.height)
        let toPNG = Self.difference(png, chromium, layout: layout, k: k)
        let toRsvg = Self.difference(rsvg, chromium, layout: layout, k: k)
        #expect(toPNG.max <= 8, "PNG vs Chromium: max \(toPNG.max), mean \(toPNG.mean)")
        #expect(toRsvg.max <= 8, "librsvg vs Chromium: max \(toRsvg.max), mean \(toRsvg.mean)")
    }

    @Test func pdfPassesQpdfAndRendersAlikeInPopplerAndMuPDF() throws {
        let (picture, layout, style) = try Self.scene()
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("scene.pdf")
        try Support.write(FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .pdf)), to: pdf)
        #expect(try Support.run("qpdf", ["--check", pdf.path]) == 0, "qpdf --check")
        let poppler = try Support.rasterisePDF(pdf, dpi: 96)
        let mupdfURL = folder.appendingPathComponent("scene-mupdf.png")
        try #require(try Support.run("mutool", ["draw", "-q", "-r", "96", "-o", mupdfURL.path, pdf.path]) == 0, "mutool draw")
        let mupdf = try Support.readPNG(mupdfURL)
        #expect(poppler.width == mupdf.width && poppler.height == mupdf.height)
        // MuPDF starts each span of a shading mesh at a whole pixel (up to a pixel off along x):
        // within 16/255 anywhere off the edges, 1.5/255 on average.
        let d = Self.difference(poppler, mupdf, layout: layout, k: 96.0 / 72)
        #expect(d.max <= 16 && d.mean <= 1.5, "poppler vs MuPDF: max \(d.max), mean \(d.mean)")
    }

    /// Renders `svg` with headless Chromium (`Support.chromiumScreenshot`).
    static func chromiumScreenshot(_ svg: URL, width: Int, height: Int, folder: URL) throws -> RasterImage {
        try Support.chromiumScreenshot(svg, width: width, height: height, folder: folder)
    }
}

extension RasterImage {
    /// Pixel (x, y) composited on white, as 0...255 channels.
    func onWhite(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = rgba(x, y)
        func over(_ c: Int) -> Int { (c * p.a + 255 * (255 - p.a) + 127) / 255 }
        return (over(p.r), over(p.g), over(p.b))
    }
}
