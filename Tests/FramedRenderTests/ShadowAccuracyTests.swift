import FramedTestSupport
import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import Testing

/// The shadow as users see it, compared with the exact blurred rectangle (the erf product),
/// computed by the test from the CSS values it gives framed (`CSSFrame`, `ExactShadow`), never
/// from framed's own layout or profile.
///
/// Each case renders PNG (Cairo's image surface), SVG (rasterised by librsvg) and PDF (rasterised
/// by poppler and by Ghostscript) at 1x and 3x, and compares the alpha of every device pixel that
/// lies wholly outside the frame with `A · fx · fy`: at most 4/255 anywhere and at most 1/255 on
/// average.
///
/// Poppler (22.12) evaluates axial shadings at each device pixel's top-left corner rather than its
/// centre, so its render is compared with the exact shape sampled there. Measured on the classic
/// shadow at 1x: against pixel centres max 6.7/255 and mean 2.0/255 (the half-pixel shift alone);
/// against corners max 1.1/255 and mean 0.4/255. Ghostscript, sampled at centres, gives 1.7/0.35.
struct ShadowAccuracyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var shadows: [CSSShadow]
        var testDescription: String { name }
    }

    /// The expected picture comes from these numbers alone (`CSSFrame`, `ExactShadow`): framed
    /// gets them as CSS text.
    static let cases = [
        Case(name: "classic", shadows: [CSSShadow(0, 0, 10, rgba: (0, 0, 0, 0.6))]),
        Case(name: "offset", shadows: [CSSShadow(6, 9, 14, rgba: (0, 0, 0, 0.8))]),
        Case(name: "fractional", shadows: [CSSShadow(-3.3, 2.7, 7, 2.5, rgba: (0, 0, 0, 77.0 / 255))]),
    ]

    enum Judge: String, CaseIterable, Sendable {
        case png, rsvg, poppler, ghostscript

        /// Where in a device pixel the renderer samples the shading (0.5: the centre).
        var sampleOffset: Double { self == .poppler ? 0 : 0.5 }
        /// Renders on opaque white paper (alpha read back from the black shadow's darkness).
        var onWhite: Bool { self == .poppler }
    }

    static let zooms: [Double] = [1, 3]

    @Test(arguments: cases, zooms)
    func shadowMatchesErfProduct(_ testCase: Case, zoom: Double) throws {
        // The classic look (3px border) in a 170x110 px frame.
        let css = CSSFrame(width: 170, height: 110, border: 3, shadows: testCase.shadows)
        var style = FrameStyle.classic
        style.shadows = try BoxShadow.parseList(CSSShadow.css(testCase.shadows))
        style.size = LengthSize(width: .px(170), height: .px(110))
        let picture = Support.picture(width: 160, height: 100)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 160, pixelHeight: 100), style: style)
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }

        for judge in Judge.allCases {
            let image: RasterImage
            switch judge {
            case .png:
                image = try Pictures.decode(data: FrameRenderer.render(
                    picture, layout: layout, style: style, options: RenderOptions(format: .png, scale: zoom))).image
            case .rsvg:
                let url = folder.appendingPathComponent("shadow.svg")
                try Support.write(try FrameRenderer.render(picture, layout: layout, style: style,
                                                           options: RenderOptions(format: .svg)), to: url)
                image = try Support.rasteriseSVG(url, zoom: zoom)
            case .poppler:
                let url = folder.appendingPathComponent("shadow.pdf")
                try Support.write(try FrameRenderer.render(picture, layout: layout, style: style,
                                                           options: RenderOptions(format: .pdf)), to: url)
                image = try Support.rasterisePDF(url, dpi: 96 * zoom)
            case .ghostscript:
                let url = folder.appendingPathComponent("shadow-gs.pdf")
                try Support.write(try FrameRenderer.render(picture, layout: layout, style: style,
                                                           options: RenderOptions(format: .pdf)), to: url)
                image = try Support.rasterisePDFWithGhostscript(url, dpi: 96 * zoom)
            }
            let size = css.canvasPixels(zoom)
            #expect(image.width == size.width && image.height == size.height,
                    "\(testCase.name) \(judge): \(image.width)x\(image.height), not \(size.width)x\(size.height)")
            let error = Self.compare(image, judge: judge, css: css, k: zoom)
            // Ghostscript draws the PDF's sampled function shadings (`PDFShadow`) up to 7/255 off at 96 dpi.
            #expect(error.max <= (judge == .ghostscript && zoom < 2 ? 8 : 4),
                    "\(testCase.name) \(judge) \(zoom)x: max error \(error.max)/255")
            #expect(error.mean <= 1, "\(testCase.name) \(judge) \(zoom)x: mean error \(error.mean)/255")
            #expect(error.count > 1000, "enough pixels compared")
        }
    }

    /// Largest and mean absolute difference, in 1/255, between the rendered shadow alpha and the
    /// exact one, over device pixels (`k` a CSS px) wholly outside the frame (one pixel of edge
    /// excluded).
    static func compare(_ image: RasterImage, judge: Judge, css: CSSFrame, k: Double) -> (max: Double, mean: Double, count: Int) {
        let frame = css.frame.outset(1 / k)
        let exact = ExactShadow.alpha(css, inset: false, columns: image.width, rows: image.height, k: k,
                                      offset: judge.sampleOffset)
        var worst = 0.0, sum = 0.0, count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let x0 = Double(x) / k, x1 = Double(x + 1) / k, y0 = Double(y) / k, y1 = Double(y + 1) / k
                if x1 > frame.minX && x0 < frame.maxX && y1 > frame.minY && y0 < frame.maxY { continue }
                let p = image.rgba(x, y)
                let measured = judge.onWhite ? Double(255 - p.r) : Double(p.a)
                let diff = abs(measured - exact[y * image.width + x] * 255)
                worst = max(worst, diff); sum += diff; count += 1
            }
        }
        return (worst, sum / Double(max(count, 1)), count)
    }
}
