import FramedTestSupport
import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import Testing

/// PDF shadows as the viewers people open PDFs with draw them: PDFium (Chrome, Edge), MuPDF,
/// Ghostscript and poppler, at 72, 100 and 216 dpi, against the exact blurred shapes computed from
/// the scene's CSS values alone (`CSSFrameScene`). Sharp and rounded corners, spread both ways,
/// offsets, three shadows, inset and outer together, and the second page of a document.
///
/// Compared: the darkness of every device pixel outside the frame (outer shadows) or on the mat
/// (inset ones), on white, 1.5 device pixels away from any edge (antialiasing differs there),
/// each viewer at the point of a pixel where it samples shadings (`PDFViewer.sampleOffset`).
///
/// What each viewer reaches (the README's table; `FRAMED_SHADOW_REPORT=1` prints the figures):
/// the shadow is one luminosity soft mask built of axial and radial shadings, each factor of the
/// blur a black fill through a mask of its complement (`PDFShadow`), so that Inkscape's two PDF
/// importers draw it too (`PlacedFigureTests`). Every viewer then tabulates or rounds each factor
/// on its own: PDFium looks each shading up in 256 steps and blends in 8 bits rounding down
/// (within 5.4/255, 1/255 on average), MuPDF tabulates too and starts each span at a whole pixel
/// (9.4/255 at 72 and 100 dpi, 5.3 at 216, 1.1 on average), poppler within 4.4 and 0.56 (the 2 px
/// blur of "three shadows" at its steepest), Ghostscript within 3.5 and 0.55 at every resolution.
/// The sampled function-based shadings that came before were closer in PDFium (2.3, 0.46) and
/// poppler (1.8, 0.35), farther in Ghostscript (13.7 at 72 dpi), and Inkscape could not import
/// them (flat blocks; its poppler importer spun for minutes).
struct PDFViewerShadowTests {
    typealias S = CSSFrameScene.Shadow

    static let scenes: [CSSFrameScene] = [
        CSSFrameScene(name: "sharp", width: 160, height: 110, shadows: [S(blur: 12, alpha: 0.6)]),
        CSSFrameScene(name: "rounded, spread, offset", width: 160, height: 110, radius: 16,
                      shadows: [S(y: 6, blur: 12, spread: 4, alpha: 0.6)]),
        CSSFrameScene(name: "large radius, negative spread", width: 200, height: 150, radius: 40,
                      shadows: [S(x: 4, y: 4, blur: 10, spread: -2, alpha: 0.6)]),
        CSSFrameScene(name: "three shadows", width: 160, height: 110, radius: 8,
                      shadows: [S(y: 1, blur: 2, alpha: 0.3), S(y: 4, blur: 8, alpha: 0.25), S(y: 12, blur: 24, spread: -4, alpha: 0.2)]),
        CSSFrameScene(name: "inset and outer", width: 160, height: 120, radius: 16, border: 2, padding: 18,
                      shadows: [S(y: 2, blur: 8, alpha: 0.5, inset: true), S(y: 6, blur: 20, spread: 2, alpha: 0.6)]),
    ]

    /// The issue's own scenes (issue 19), at the size it measured: a 600x400 frame (the classic
    /// preset's 3 px border) and its shadows in rgba(0,0,0,0.6). The long axis is what made PDFium
    /// draw axial shadings in coarse steps.
    static let issueScenes: [CSSFrameScene] = [
        CSSFrameScene(name: "issue 600x400, radius 16, 0 6 12 4", width: 600, height: 400, radius: 16, border: 3,
                      shadows: [S(y: 6, blur: 12, spread: 4, alpha: 0.6)]),
        CSSFrameScene(name: "issue 600x400, radius 6, 0 0 12 0", width: 600, height: 400, radius: 6, border: 3,
                      shadows: [S(blur: 12, alpha: 0.6)]),
        CSSFrameScene(name: "issue 600x400, radius 40, 4 4 10 -2", width: 600, height: 400, radius: 40, border: 3,
                      shadows: [S(x: 4, y: 4, blur: 10, spread: -2, alpha: 0.6)]),
        CSSFrameScene(name: "issue 600x400, sharp, 0 0 20 0", width: 600, height: 400, border: 3,
                      shadows: [S(blur: 20, alpha: 0.6)]),
    ]

    static let resolutions: [Double] = [72, 100, 216]

    /// Largest and mean error allowed, in 1/255, per viewer: just above the worst measured over
    /// these scenes (max at 72 / 100 / 216 dpi, worst mean): PDFium 5.1 / 5.2 / 5.4, 0.99;
    /// poppler 3.2 / 4.1 / 4.4, 0.56; Ghostscript 3.2 / 3.1 / 3.5, 0.55; MuPDF 9.3 / 9.4 / 5.3,
    /// 1.08. The issue's target is 6 and 1: MuPDF at 72 and 100 dpi misses its max, and its mean
    /// by a little.
    static func limits(_ viewer: PDFViewer, dpi: Double) -> (max: Double, mean: Double) {
        switch viewer {
        case .pdfium: return (5.8, 1.1)
        case .poppler: return (5, 0.65)
        case .ghostscript: return (4, 0.65)
        case .mupdf: return (dpi < 200 ? 10 : 6, 1.2)
        }
    }

    static func render(_ scene: CSSFrameScene, pages: Int = 1, picture: RasterImage = Support.picture(width: 8, height: 6),
                       to url: URL) throws {
        var style = FrameStyle(size: LengthSize(width: .px(scene.width), height: .px(scene.height)), border: .px(scene.border),
                               borderColor: RGBAColor(red: 0.3, green: 0.3, blue: 0.3),
                               padding: try EdgeInsets(parsing: "\(scene.padding)px"), background: .white)
        style.radius = .px(scene.radius)
        style.shadows = try BoxShadow.parseList(scene.shadows.map(\.css).joined(separator: ", "))
        style.fit = .fill
        let (w, h) = (picture.width, picture.height)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: w, pixelHeight: h), style: style)
        let options = RenderOptions(format: .pdf)
        let page = RenderPage(picture: EmbeddedPicture(image: Resampler.resize(picture, width: w, height: h, filter: .best, threads: 1)),
                              layout: layout, style: style)
        let bytes = pages == 1 ? try FrameRenderer.render(page, options: options)
            : try FrameRenderer.render(document: [RenderPage](repeating: page, count: pages), options: options)
        try Support.write(bytes, to: url)
    }

    @Test(arguments: scenes)
    func viewersDrawTheExactShadow(_ scene: CSSFrameScene) throws {
        try judge(scene, pages: 1)
    }

    @Test(arguments: issueScenes)
    func viewersDrawTheIssuesScenes(_ scene: CSSFrameScene) throws {
        try judge(scene, pages: 1)
    }

    /// `--pages`: every page's shadows are the PDF's own too.
    @Test func theSecondPageOfADocument() throws {
        try judge(Self.scenes[1], pages: 2)
    }

    func judge(_ scene: CSSFrameScene, pages: Int) throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("scene.pdf")
        try Self.render(scene, pages: pages, to: pdf)
        #expect(try Support.run("qpdf", ["--check", pdf.path]) == 0, "\(scene.name): qpdf --check")
        for viewer in PDFViewer.allCases {
            for dpi in Self.resolutions {
                let (image, kx, ky, top) = try viewer.render(pdf, page: pages, dpi: dpi, pageSize: scene.canvas)
                let sample = viewer.sampleOffset
                let m = Self.measure(image, scene: scene, kx: kx, ky: ky, top: top, offset: sample)
                let label = "\(scene.name)\(pages > 1 ? " page \(pages)" : "") \(viewer.rawValue) \(Int(dpi)) dpi: "
                    + "max \(String(format: "%.1f", m.max)) mean \(String(format: "%.2f", m.mean)) over \(m.count) px"
                    + " (worst at \(String(format: "%.1f, %.1f", m.at.x, m.at.y)) pt)"
                if ProcessInfo.processInfo.environment["FRAMED_SHADOW_REPORT"] != nil { print("viewer-shadow", label) }
                let limit = Self.limits(viewer, dpi: dpi)
                #expect(m.max <= limit.max, "\(label)")
                #expect(m.mean <= limit.mean, "\(label)")
                #expect(m.count > 500, "\(label): enough pixels compared")
            }
        }
    }

    /// Largest and mean |rendered − exact| darkness, in 1/255; the page's top lies `top` device
    /// pixels down the picture.
    static func measure(_ image: RasterImage, scene: CSSFrameScene, kx: Double, ky: Double, top: Double,
                        offset: (x: Double, y: Double)) -> (max: Double, mean: Double, count: Int, at: (x: Double, y: Double)) {
        let w = image.width, h = image.height
        let xs = (0..<w).map { (Double($0) + offset.x) / kx }, ys = (0..<h).map { (Double($0) + offset.y - top) / ky }
        let outer = scene.alpha(inset: false, xs: xs, ys: ys), inset = scene.alpha(inset: true, xs: xs, ys: ys)
        let hasInset = scene.shadows.contains(where: \.inset)
        let frame = scene.frame, padding = scene.paddingBox, content = scene.contentBox
        let edge = 1.5 / kx
        var worst = 0.0, sum = 0.0, count = 0, at = (x: 0.0, y: 0.0)
        for y in 0..<h {
            for x in 0..<w {
                let px = (Double(x) + 0.5) / kx, py = (Double(y) + 0.5 - top) / ky
                let exact: Double
                if !CSSFrameScene.inside(px, py, frame, margin: edge) {
                    exact = outer[y * w + x]
                } else if hasInset, CSSFrameScene.inside(px, py, padding, margin: -edge),
                          !CSSFrameScene.inside(px, py, content, margin: edge) {
                    exact = inset[y * w + x]
                } else {
                    continue
                }
                let e = abs(Double(255 - image.rgba(x, y).r) - exact * 255)
                if e > worst { worst = e; at = (px, py) }
                sum += e; count += 1
            }
        }
        return (worst, sum / Double(max(count, 1)), count, at)
    }
}
