import FramedLayout
import FramedRaster
import FramedRender

/// An SVG picture through what framed does with one: `PictureFormat.sniff`, `SVGCheck` (framed's
/// own XML scan, before librsvg reads a byte), librsvg's load on its thread, and the drawing in
/// a small frame into PNG, PDF or SVG (the first byte picks the output and the fit). Limits are
/// the command line's, lowered to stay within libFuzzer's time and memory (librsvg takes about
/// 1.7 kB an element). Checks that a document that loads has a natural size within the bounds,
/// that a PNG output reads back, and that an SVG output is well-formed XML whose references
/// resolve.
package enum SVGFuzz {
    package static func run(_ data: [UInt8]) {
        _ = PictureFormat.sniff(data.prefix(PictureFormat.sniffLength))
        var limits = SVGLimits(maxPixels: FuzzLimits.maxPixels)
        limits.elements = 20_000
        limits.instances = 50_000
        limits.seconds = 4
        guard let document = try? SVGDocument.load(data, limits: limits) else { return }
        let size = document.naturalSize
        require(document.width > 0 && document.height > 0 && document.width <= SVGDocument.maximumSide
                    && document.height <= SVGDocument.maximumSide, "natural size \(size) out of bounds")
        let knob = data.first ?? 0
        let formats: [OutputFormat] = [.png, .pdf, .svg]
        let format = formats[Int(knob) % 3]
        var style = FrameStyle()
        style.width = .pt(45)
        style.height = .pt(30)
        style.fit = [.contain, .cover, .fill, .scaleDown][Int(knob / 3) % 4]
        style.radius = .pt(Double(knob % 7))
        guard let layout = try? FrameLayout(picture: PictureMetrics(naturalSize: size), style: style) else { return }
        let options = RenderOptions(format: format, maxPixels: FuzzLimits.maxPixels)
        let page = RenderPage(picture: .vector(VectorPicture(document: document)), layout: layout, style: style)
        guard let bytes = try? FrameRenderer.render(page, options: options) else { return }
        require(!bytes.isEmpty, "empty output")
        if format == .png {
            do { _ = try Pictures.info(data: bytes) } catch { fatalError("the PNG output does not read back: \(error)") }
        }
        if format == .svg { AnnotationFuzz.checkSVG(bytes) }
    }
}
