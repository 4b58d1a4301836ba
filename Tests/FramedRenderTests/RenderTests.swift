import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import FramedTestSupport
import Testing

/// What users see in each format: canvas size, the one embedded raster, border colour, and the
/// picture inside the content box with its aspect ratio.
struct RenderTests {
    /// 200x100 picture, left half red and right half blue, in a 300x300 frame with a 6px green
    /// border on a gray mat; no shadow, so the frame is the canvas.
    static func scene(hasAlpha: Bool = false) throws -> (RasterImage, FrameLayout, FrameStyle) {
        var picture = Support.picture(width: 200, height: 100, rgb: (0, 0, 255), left: (255, 0, 0))
        if hasAlpha {
            var pixels = picture.pixels
            for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 128 }
            picture = RasterImage(width: 200, height: 100, pixels: pixels, hasAlpha: true)
        }
        let style = FrameStyle(size: LengthSize(width: .px(300), height: .px(300)), border: .px(6),
                               borderColor: RGBAColor(red: 0, green: 1, blue: 0),
                               background: RGBAColor(red8: 128, green8: 128, blue8: 128))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 200, pixelHeight: 100), style: style)
        return (picture, layout, style)
    }

    /// Renders the scene to `format` and rasterises it at `zoom` with the format's own judge.
    static func rasterised(_ format: OutputFormat, zoom: Double, hasAlpha: Bool = false) throws -> RasterImage {
        let (picture, layout, style) = try scene(hasAlpha: hasAlpha)
        let bytes = try FrameRenderer.render(picture, layout: layout, style: style,
                                             options: RenderOptions(format: format, scale: zoom))
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("scene.\(format.rawValue)")
        try Support.write(bytes, to: url)
        switch format {
        case .png: return try Support.readPNG(url)
        case .svg: return try Support.rasteriseSVG(url, zoom: zoom)
        case .pdf: return try Support.rasterisePDF(url, dpi: 96 * zoom)
        case .jpeg, .tiff: throw RenderError.unsupported("JPEG and TIFF are judged by PhotoLabTests")
        }
    }

    static func close(_ p: (r: Int, g: Int, b: Int, a: Int), _ c: (Int, Int, Int), within t: Int = 3) -> Bool {
        abs(p.r - c.0) <= t && abs(p.g - c.1) <= t && abs(p.b - c.2) <= t && p.a >= 255 - t
    }

    @Test(arguments: [OutputFormat.svg, .pdf, .png], [1.0, 2.0])
    func pixelsLandWhereTheLayoutSays(_ format: OutputFormat, zoom: Double) throws {
        let image = try Self.rasterised(format, zoom: zoom)
        let k = zoom  // device pixels per CSS px
        #expect(image.width == Int(300 * k) && image.height == Int(300 * k), "canvas size")
        // Border: all four sides, the middle of each edge's band.
        for (x, y) in [(3.0, 150.0), (297, 150), (150, 3), (150, 297), (3, 3), (296.5, 296.5)] {
            #expect(Self.close(image.rgba(Int(x * k), Int(y * k)), (0, 255, 0)), "border at \(x),\(y) in \(format)")
        }
        // Mat above and below the picture, inside the border.
        for (x, y) in [(150.0, 50.0), (150, 250), (20, 150), (280, 20)] {
            #expect(Self.close(image.rgba(Int(x * k), Int(y * k)), (128, 128, 128)), "mat at \(x),\(y) in \(format)")
        }
        // The picture: centred at natural size (scale-down), red left half, blue right half.
        #expect(Self.close(image.rgba(Int(100 * k), Int(150 * k)), (255, 0, 0)))
        #expect(Self.close(image.rgba(Int(200 * k), Int(150 * k)), (0, 0, 255)))
        // Its extent along the middle row and column: 200 by 100 px, so the aspect ratio is kept.
        let row = (0..<image.width).filter { !Self.close(image.rgba($0, Int(150 * k)), (128, 128, 128), within: 40)
            && !Self.close(image.rgba($0, Int(150 * k)), (0, 255, 0), within: 40) }
        let column = (0..<image.height).filter { !Self.close(image.rgba(Int(100 * k), $0), (128, 128, 128), within: 40)
            && !Self.close(image.rgba(Int(100 * k), $0), (0, 255, 0), within: 40) }
        #expect(abs(Double(row.count) / k - 200) <= 1, "picture width in \(format): \(row.count)")
        #expect(abs(Double(column.count) / k - 100) <= 1, "picture height in \(format): \(column.count)")
        #expect(abs(Double(row.first ?? 0) / k - 50) <= 1 && abs(Double(column.first ?? 0) / k - 100) <= 1)
    }

    /// A picture kept lossless in SVG is framed's own PNG of the straight pixels (not Cairo's
    /// re-encoding of its premultiplied copy, which moves translucent colours): RGB for an
    /// opaque picture, RGBA otherwise, decoding to exactly the picture.
    @Test(arguments: [false, true])
    func svgEmbedsTheExactPixelsAsPNG(hasAlpha: Bool) throws {
        let (picture, layout, style) = try Self.scene(hasAlpha: hasAlpha)
        var pixels = picture.pixels
        for i in stride(from: 0, to: pixels.count, by: 4) {  // colours that premultiplying by 128 would move
            pixels[i] = UInt8(i / 4 % 251); pixels[i + 1] = UInt8(i / 4 % 241); pixels[i + 2] = 77
        }
        let varied = RasterImage(width: picture.width, height: picture.height, pixels: pixels, hasAlpha: hasAlpha)
        let svg = String(decoding: try FrameRenderer.render(varied, layout: layout, style: style,
                                                            options: RenderOptions(format: .svg)), as: UTF8.self)
        let prefix = "data:image/png;base64,"
        let start = try #require(svg.range(of: prefix), "a PNG data URL")
        let encoded = svg[start.upperBound...].prefix { $0 != "\"" }.filter { !$0.isWhitespace }
        let png = try #require(Data(base64Encoded: String(encoded)), "valid base64")
        #expect(png[png.startIndex + 25] == (hasAlpha ? 6 : 2), "PNG colour type: RGBA 6, RGB 2")
        let decoded = try Pictures.decode(data: [UInt8](png)).image
        #expect(decoded.width == varied.width && decoded.height == varied.height)
        #expect(difference(decoded.pixels, varied.pixels) == nil, "the embedded pixels are the picture's own")
    }

    @Test func svgHasExactlyOneImageAndItsUnitIsSet() throws {
        let (picture, layout, style) = try Self.scene()
        var shadowed = style
        shadowed.shadows = FrameStyle.classic.shadows
        shadowed.radius = .px(12)
        let relaid = try FrameLayout(picture: PictureMetrics(pixelWidth: 200, pixelHeight: 100), style: shadowed)
        for (l, s) in [(layout, style), (relaid, shadowed)] {
            let svg = String(decoding: try FrameRenderer.render(picture, layout: l, style: s, options: RenderOptions(format: .svg)), as: UTF8.self)
            #expect(svg.components(separatedBy: "<image").count - 1 == 1)
            #expect(svg.contains("width=\"\(Self.format(l.canvas.width))pt\""), "document unit pt")
        }
        let svg = String(decoding: try FrameRenderer.render(picture, layout: relaid, style: shadowed, options: RenderOptions(format: .svg)), as: UTF8.self)
        #expect(svg.contains("<mask"), "the shadow is a vector mask")
        // Two for the sharp shadow; a rounded one adds the corner correction (two linear, and
        // radial ones), all vector.
        #expect(svg.components(separatedBy: "<linearGradient").count - 1 >= 2)
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? "\(Int(v))" : "\(v)" }

    @Test(arguments: [false, true])
    func pdfHasExactlyOneImage(hasAlpha: Bool) throws {
        let (picture, _, style) = try Self.scene(hasAlpha: hasAlpha)
        var shadowed = style
        shadowed.shadows = try BoxShadow.parseList("0 0 10px rgba(0,0,0,.6), 4px 4px 2px red")
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 200, pixelHeight: 100), style: shadowed)
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("one.pdf")
        try Support.write(try FrameRenderer.render(picture, layout: layout, style: shadowed,
                                                   options: RenderOptions(format: .pdf)), to: url)
        let rows = try Support.output("pdfimages", ["-list", url.path]).split(separator: "\n").dropFirst(2)
        let kinds = rows.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }
        #expect(kinds == (hasAlpha ? ["image", "smask"] : ["image"]))
        let info = try Support.output("pdfinfo", [url.path]).split(separator: "\n")
        #expect(info.contains { $0.hasPrefix("Pages:") && $0.dropFirst(6).trimmingCharacters(in: .whitespaces) == "1" })
    }

    @Test func pictureIsResampledToTheResolutionItNeeds() throws {
        // A 2000x1000 picture in a 400x200 frame: 400 px wide at 96 dpi (PNG), 800 at 192 (SVG),
        // 1250 at 300 (PDF).
        let picture = Support.picture(width: 2000, height: 1000)
        let style = FrameStyle(size: LengthSize(width: .px(400), height: .px(200)))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 2000, pixelHeight: 1000), style: style)
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("big.pdf")
        try Support.write(try FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .pdf)), to: url)
        let row = try Support.output("pdfimages", ["-list", url.path]).split(separator: "\n")[2]
        let fields = row.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields[3] == "1250" && fields[4] == "625")
        let svg = String(decoding: try FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .svg)), as: UTF8.self)
        #expect(svg.contains("width=\"800\"") && svg.contains("height=\"400\""))
    }

    @Test func pngIsEightBitRGBAWithTransparentCanvas() throws {
        let (picture, _, _) = try Self.scene()
        var style = FrameStyle.classic
        style.size = LengthSize(width: .px(100), height: .px(80))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 200, pixelHeight: 100), style: style)
        let bytes = try FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .png, scale: 2))
        #expect(bytes[24] == 8 && bytes[25] == 6, "bit depth 8, colour type RGBA")
        let image = try Pictures.decode(data: bytes).image
        #expect(image.width == 260 && image.height == 220)
        #expect(image.rgba(0, 0).a == 0, "transparent corner")
        #expect(image.rgba(130, 110).a == 255)
    }

    @Test func opaquePNGIsStillRGBA() throws {
        let picture = Support.picture(width: 40, height: 30)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: FrameStyle())
        let bytes = try FrameRenderer.render(picture, layout: layout, style: FrameStyle(), options: RenderOptions(format: .png))
        #expect(bytes[24] == 8 && bytes[25] == 6, "bit depth 8, colour type RGBA even when nothing is transparent")
        let image = try Pictures.decode(data: bytes).image
        #expect(image.width == 40 && image.height == 30 && image.rgba(20, 15) == (40, 120, 200, 255))
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let (picture, layout, style) = try Self.scene()
        // A PDF is dated when it is rendered, unless its metadata gives a date.
        let options = { (format: OutputFormat) in
            RenderOptions(format: format, metadata: DocumentMetadata(creationDate: "2023-11-14T22:13:20"))
        }
        for format in OutputFormat.allCases {
            let a = try FrameRenderer.render(picture, layout: layout, style: style, options: options(format))
            let b = try FrameRenderer.render(picture, layout: layout, style: style, options: options(format))
            #expect(difference(a, b) == nil, "\(format) is reproducible")
        }
    }
}

/// CSS draws an outer shadow only outside the border box: through a mat that is not opaque (and
/// a picture with transparent pixels) no shadow shows, in every format.
struct SeeThroughFrameTests {
    /// The frame by its CSS numbers (where the test looks comes from these, not from the layout).
    static let css = CSSFrame(width: 120, height: 90, border: 4, radius: 10,
                              shadows: [CSSShadow(4, 6, 12, rgba: (0, 0, 0, 0.8)), CSSShadow(0, 0, 3, 2, rgba: (0, 0, 0, 0.5))])

    static func render(_ format: OutputFormat, background: RGBAColor, folder: URL) throws -> RasterImage {
        var style = FrameStyle(size: LengthSize(width: .px(120), height: .px(90)), border: .px(4),
                               borderColor: RGBAColor(red8: 30, green8: 30, blue8: 30), background: background)
        style.radius = .px(10)
        style.shadows = try BoxShadow.parseList(CSSShadow.css(css.shadows))
        style.fit = .contain
        let picture = RasterImage(width: 40, height: 30, pixels: [UInt8](repeating: 0, count: 40 * 30 * 4), hasAlpha: true)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: style)
        let bytes = try FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: format))
        let url = folder.appendingPathComponent("see-through.\(format.rawValue)")
        try Support.write(bytes, to: url)
        switch format {
        case .png: return try Support.readPNG(url)
        case .svg: return try Support.rasteriseSVG(url, zoom: 1)
        case .pdf: return try Support.rasterisePDF(url, dpi: 96)
        case .jpeg, .tiff: throw RenderError.unsupported("JPEG and TIFF are judged by PhotoLabTests")
        }
    }

    @Test(arguments: [OutputFormat.png, .svg, .pdf])
    func noShadowShowsThroughTheFrame(_ format: OutputFormat) throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let css = Self.css
        for background in [RGBAColor.transparent, RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5)] {
            let image = try Self.render(format, background: background, folder: folder)
            #expect(image.width == css.canvasPixels(1).width && image.height == css.canvasPixels(1).height)
            var inside = 0, worst = 0, outsideDarkest = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let px = Double(x) + 0.5, py = Double(y) + 0.5  // CSS px: one device pixel each
                    let pixel = image.rgba(x, y)
                    // What the mat alone gives: its alpha (or, on poppler's white paper, white).
                    let darkness = format == .pdf ? 255 - pixel.r : abs(pixel.a - Int((background.alpha * 255).rounded()))
                    if ExactShadow.inside(px, py, box: css.paddingBox, radius: css.innerRadius, margin: -1.5) {
                        inside += 1
                        worst = max(worst, darkness)
                    } else if !ExactShadow.inside(px, py, box: css.frame, radius: css.outerRadius, margin: 1.5) {
                        outsideDarkest = max(outsideDarkest, format == .pdf ? 255 - pixel.r : pixel.a)
                    }
                }
            }
            #expect(inside > 5000, "\(format): the padding box is compared")
            #expect(worst <= 1, "\(format) on a mat of alpha \(background.alpha): shadow shows through by \(worst)/255")
            #expect(outsideDarkest > 100, "\(format): the shadow is still drawn outside the frame (\(outsideDarkest))")
        }
    }
}
