import Foundation
@testable import FramedRender
import FramedLayout
import FramedRaster
import FramedTestSupport
import Testing

/// JPEG and TIFF outputs are the PNG's drawing composited on white, as 8-bit RGB: decoded by
/// ImageMagick (not framed), the TIFF matches the PNG over white within rounding, the JPEG
/// within what JPEG loses at quality 100.
struct PhotoLabTests {
    static func scene() throws -> (EmbeddedPicture, FrameLayout, FrameStyle) {
        var style = FrameStyle(size: LengthSize(width: .px(160), height: .px(120)), border: .px(5),
                               borderColor: RGBAColor(red8: 200, green8: 30, blue8: 30), background: .white)
        style.shadows = try BoxShadow.parseList("4px 6px 12px rgba(0,0,0,.6)")
        style.radius = .px(8)
        let picture = Support.picture(width: 60, height: 40, rgb: (20, 140, 60))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 60, pixelHeight: 40), style: style)
        return (EmbeddedPicture(image: picture), layout, style)
    }

    /// `bytes` decoded by ImageMagick into RGBA.
    static func decodedByImageMagick(_ bytes: [UInt8], name: String, folder: URL) throws -> RasterImage {
        let file = folder.appendingPathComponent(name), png = folder.appendingPathComponent(name + ".png")
        try Support.write(bytes, to: file)
        #expect(try Support.run("convert", [file.path, "-depth", "8", "PNG32:" + png.path]) == 0)
        return try Support.readPNG(png)
    }

    @Test(arguments: [OutputFormat.tiff, .jpeg])
    func theDrawingOfThePNGOnWhite(_ format: OutputFormat) throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (picture, layout, style) = try Self.scene()
        var options = RenderOptions(format: format, dpi: 150)
        options.quality = 100
        let bytes = try FrameRenderer.render(picture, layout: layout, style: style, options: options)
        let png = try Pictures.decode(data: FrameRenderer.render(picture, layout: layout, style: style,
                                                                  options: RenderOptions(format: .png, dpi: 150))).image
        let image = try Self.decodedByImageMagick(bytes, name: "out.\(format.rawValue)", folder: folder)
        #expect(image.width == png.width && image.height == png.height)
        // 160 px and shadow at 150 dpi: the canvas's side in points times 150/72, rounded up.
        #expect(png.width == Int((layout.canvas.width * 150 / 72 - 1e-6).rounded(.up)))
        var worst = 0, total = 0
        for y in 0..<png.height {
            for x in 0..<png.width {
                let p = png.rgba(x, y), q = image.rgba(x, y)
                #expect(q.a == 255)
                for (a, b) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
                    // PNG is straight alpha: over white, c * a + 255 * (1 - a).
                    let white = (a * p.a + 255 * (255 - p.a) + 127) / 255
                    worst = max(worst, abs(white - b))
                    total += abs(white - b)
                }
            }
        }
        let mean = Double(total) / Double(3 * png.width * png.height)
        if format == .tiff {
            #expect(worst <= 2, "TIFF is lossless: worst \(worst)")
        } else {
            #expect(worst <= 24 && mean < 1.0, "JPEG at quality 100: worst \(worst), mean \(mean)")
        }
    }
}
