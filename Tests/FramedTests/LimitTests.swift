import Foundation
import Framed
import FramedTestSupport
import Testing

/// Outputs too large to render (issue 7): refused from the header and the settings, before the
/// picture is decoded and before any Cairo surface exists, as a canvas error (the command line's
/// exit 2), never a trap or a giant allocation.
@Suite struct LimitTests {
    /// A PNG whose header is fine and whose image data is not: decoding it fails, so a limit
    /// reported for it was checked before decoding.
    static func undecodablePNG(_ width: Int = 40, _ height: Int = 30) throws -> [UInt8] {
        var bytes = try PictureEncoder.png(Support.picture(width: width, height: height))
        let idat = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 4, bytes.count)]) == Array("IDAT".utf8) })
        for i in idat + 4..<idat + 12 { bytes[i] ^= 0x5A }
        return bytes
    }

    /// The canvas error's description that framing `data` with `framer` (its style replaced by
    /// `style`) gives.
    static func canvasError(_ data: [UInt8], _ style: FrameStyle, _ framer: Framer,
                            sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        var framer = framer
        framer.style = style
        do {
            _ = try framer.frame(data)
            Issue.record("framed a picture that is too large to render", sourceLocation: sourceLocation)
        } catch {
            if case let .canvas(reason) = error.problem, error.picture == Framer.bytesLabel { return reason.description }
            Issue.record("expected a canvas error, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    static func sized(_ text: String, fit: ContentFit = .scaleDown) throws -> FrameStyle {
        var style = FrameStyle.classic
        style.size = try LengthSize(parsing: text)
        style.fit = fit
        return style
    }

    @Test func overCairosSidePerPixelLimit() throws {
        let reason = Self.canvasError(try Self.undecodablePNG(), try Self.sized("20000x20000"), Framer(.classic, format: .png, scale: 2))
        #expect(reason == "the output would be 40060x40060 pixels, over the limit of 32767 per side; use a smaller scale or dpi")
    }

    @Test func aGiantCanvasIsRefusedByItsPixelCount() throws {
        // 30030 x 30030 is under 32767 a side, but 3.6 GB as ARGB.
        let reason = Self.canvasError(try Self.undecodablePNG(), try Self.sized("30000x30000"), Framer(.classic, format: .png))
        #expect(reason == "the output would be 30030x30030 pixels (902 megapixels), over the limit of 256 megapixels (max-pixels); use a smaller size, scale or dpi")
        // The limit is the pixel limit: raise it and the same canvas is allowed (the decode error shows).
        let framer = Framer(try Self.sized("30000x30000"), format: .png, maxPixels: 1_000_000_000)
        let data = try Self.undecodablePNG()
        do {
            _ = try framer.frame(data)
            Issue.record("decoded an undecodable picture")
        } catch {
            guard case .picture = error.problem else { Issue.record("expected the picture's error, got \(error)"); return }
        }
    }

    @Test(arguments: [OutputFormat.svg, .pdf, .png])
    func vectorCoordinatesStayWhereCairoCanHoldThem(_ format: OutputFormat) throws {
        let reason = Self.canvasError(try Self.undecodablePNG(), try Self.sized("1e20x1e20", fit: .fill), Framer(.classic, format: format))
        #expect(reason == "the output would be 7.5e+19x7.5e+19 pt, over the limit of 1000000 pt per side")
    }

    @Test(arguments: [0, -1, Double.nan, .infinity])
    func aResolutionMustBeAPositiveNumber(_ value: Double) throws {
        for framer in [Framer(.classic, format: .png, scale: value), Framer(.classic, format: .svg, dpi: value)] {
            let reason = Self.canvasError(try Self.undecodablePNG(), .classic, framer)
            #expect(reason == "the resolution must be a positive number")
        }
    }

    /// Found by fuzz-frame: a shadow blurred by 2.2e52 px made a canvas whose pixel size
    /// trapped converting to Int (Renderer.swift, `pixelSize(ofCanvas:)`). The fixture is the
    /// fuzz input: a settings line, then a WebP picture.
    @Test func aShadowTooLargeToDrawIsACanvasErrorNotATrap() throws {
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/hostile/frame-huge-shadow.fuzz").standardized))
        let newline = try #require(input.firstIndex(of: 10))
        let settings = String(decoding: input[..<newline], as: UTF8.self)
        let blur = try #require(settings.split(separator: ";").first { $0.hasPrefix("shadow=") }).dropFirst("shadow=".count)
        var style = try Self.sized("22x40")
        style.shadows = try BoxShadow.parseList(String(blur))
        #expect(style.shadows[0].blur.pixels > 1e52)
        let reason = Self.canvasError(Array(input[(newline + 1)...]), style, Framer(.classic, format: .png, scale: 2))
        #expect(reason?.hasSuffix("pt, over the limit of 1000000 pt per side") == true, "\(reason ?? "")")
    }

    /// The renderer's entry that takes pixels already decoded checks the same limits before it
    /// creates a surface.
    @Test func frameRendererChecksTooBeforeAnySurface() throws {
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: try Self.sized("30000x30000"))
        #expect(throws: RenderError.canvasTooManyPixels(PixelSize(width: 30030, height: 30030), limit: 256_000_000)) {
            try FrameRenderer.render(Support.picture(width: 40, height: 30), layout: layout, style: .classic,
                                     options: RenderOptions(format: .png))
        }
    }

    /// Huge numbers never trap on their way to whole pixels.
    @Test func pixelSizesOfHugeCanvasesDoNotTrap() throws {
        let options = RenderOptions(format: .png, dpi: 6000)
        #expect(options.pixelSize(ofCanvas: Size(width: 1e300, height: .nan)) == PixelSize(width: .max, height: .max))
        #expect(options.pixelSize(ofCanvas: Size(width: 72, height: 36)) == PixelSize(width: 6000, height: 3000))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: try Self.sized("1e200x1e200", fit: .fill))
        #expect(layout.rasterSize(atDPI: 1e300) == PixelSize(width: 40, height: 30), "never more than the picture has")
    }
}
