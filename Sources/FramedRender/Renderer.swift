import FramedLayout
import FramedRaster

/// The file formats framed writes.
public enum OutputFormat: String, Sendable, Equatable, CaseIterable, Codable {
    case svg, pdf, png

    /// The format for a file name's extension (`.svg`, `.pdf`, `.png`, any case), if any.
    package init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Pixels per inch of the embedded picture when `--dpi` is not given (PNG: 96 × scale).
    package var defaultPictureDPI: Double {
        switch self {
        case .svg: return 192
        case .pdf: return 300
        case .png: return 96
        }
    }
}

/// Document information written into a PDF.
public struct DocumentMetadata: Sendable, Equatable {
    public var title: String?
    public var author: String?
    public var creator: String?
    /// `YYYY-MM-DDThh:mm:ss`; fixed by default so that output is reproducible.
    public var creationDate: String
    public init(title: String? = nil, author: String? = nil, creator: String? = nil,
                creationDate: String = "2000-01-01T00:00:00") {
        self.title = title; self.author = author; self.creator = creator; self.creationDate = creationDate
    }
}

/// How to render: format, resolution, and what to do with the picture on the way.
package struct RenderOptions: Sendable, Equatable {
    package var format: OutputFormat
    /// PNG only: device pixels per CSS px.
    package var scale: Double
    /// PNG: device pixels per inch (overrides `scale`). SVG and PDF: pixels per inch of the
    /// embedded picture.
    package var dpi: Double?
    /// The kernel that shrinks (or enlarges) the picture to the pixels it needs.
    package var resample: ResamplingFilter
    package var metadata: DocumentMetadata
    /// SVG and PDF: how the picture is stored.
    package var embed: EmbedMode
    /// JPEG quality (1–100) when the picture is re-encoded as JPEG.
    package var quality: Int
    /// SVG and PDF: never re-encode lossily.
    package var lossless: Bool
    /// Apply the EXIF orientation so that the picture stands as it was taken.
    package var autoOrient: Bool
    /// Rendering intent of the conversion from an embedded ICC profile to sRGB.
    package var intent: RenderingIntent
    /// Composite a picture with alpha onto this colour first.
    package var flatten: RGBAColor?
    /// Pictures with more pixels are refused from their header.
    package var maxPixels: Int
    /// PNG: move the frame's straight edges to whole device pixels so they come out crisp.
    package var snap: Bool = true
    /// Put the framed picture centred on this page (the output is then the page plus bleed).
    package var page: PageSpec? = nil
    /// Where the framed canvas goes on the page; `Framer` sets it from `page`.
    package var placement: PagePlacement? = nil
    /// The cores one picture may use: resizing while decoding, resampling and compressing
    /// spread over them. A batch of several workers gives each worker its share (with as many
    /// workers as cores, 1), since splitting one picture over cores that are busy with others
    /// only costs. Outputs are the same bytes whatever the number.
    package var threads: Int = Resampler.processorCount

    package init(format: OutputFormat, scale: Double = 1, dpi: Double? = nil,
                resample: ResamplingFilter = .best, metadata: DocumentMetadata = DocumentMetadata(),
                embed: EmbedMode = .auto, quality: Int = 90, lossless: Bool = false,
                autoOrient: Bool = true, intent: RenderingIntent = .perceptual,
                flatten: RGBAColor? = nil, maxPixels: Int = 256_000_000) {
        self.format = format; self.scale = scale; self.dpi = dpi
        self.resample = resample; self.metadata = metadata
        self.embed = embed; self.quality = quality; self.lossless = lossless
        self.autoOrient = autoOrient; self.intent = intent; self.flatten = flatten
        self.maxPixels = maxPixels
    }

    /// Pixels per inch of the embedded picture (and of the PNG canvas).
    package var pictureDPI: Double {
        if let dpi { return dpi }
        return format == .png ? 96 * scale : format.defaultPictureDPI
    }

    /// The PNG canvas in whole pixels for a canvas of `size` points. A side too large for an
    /// `Int` (or not a number) comes out as `Int.max`, which `checkCanvas` refuses.
    package func pixelSize(ofCanvas size: Size) -> PixelSize {
        let k = pictureDPI / 72
        func pixels(_ points: Double) -> Int {
            let v = (points * k - 1e-6).rounded(.up)
            return v < 1e15 ? max(0, Int(v)) : Int.max  // NaN fails the comparison too
        }
        return PixelSize(width: pixels(size.width), height: pixels(size.height))
    }

    /// The largest canvas side in points, whatever the format: far beyond any page or screen
    /// (about 350 m), well inside the range where Cairo's 24.8 fixed-point coordinates hold.
    package static let maxCanvasPoints = 1_000_000.0
    /// The largest PNG canvas side in device pixels (Cairo's image surfaces).
    package static let maxCanvasPixelsPerSide = 32767

    /// Checks, before any surface exists, that a canvas of `canvas` points can be rendered with
    /// these options: a positive finite resolution and scale; at most `maxCanvasPoints` a side;
    /// for PNG, at most `maxCanvasPixelsPerSide` device pixels a side and `maxPixels` in all
    /// (the same limit as the picture's, so that one number bounds the memory a run takes).
    package func checkCanvas(_ canvas: Size) throws(RenderError) {
        guard pictureDPI > 0, pictureDPI.isFinite, scale > 0, scale.isFinite else {
            throw .unsupported("the resolution must be a positive number")
        }
        guard canvas.width <= Self.maxCanvasPoints, canvas.height <= Self.maxCanvasPoints else {
            throw .canvasTooLargeInPoints(canvas, limit: Self.maxCanvasPoints)
        }
        guard format == .png else { return }
        let size = pixelSize(ofCanvas: canvas)
        guard size.width <= Self.maxCanvasPixelsPerSide, size.height <= Self.maxCanvasPixelsPerSide else {
            throw .canvasTooLarge(size)
        }
        guard Double(size.width) * Double(size.height) <= Double(maxPixels) else {
            throw .canvasTooManyPixels(size, limit: maxPixels)
        }
    }
}

/// The picture as it goes into the file: pixels at their final size, and optionally JPEG bytes
/// that SVG and PDF embed instead of the pixels (Cairo's JPEG mime data).
package struct EmbeddedPicture: Sendable, Equatable {
    package var image: RasterImage
    package var jpeg: [UInt8]?
    package init(image: RasterImage, jpeg: [UInt8]? = nil) { self.image = image; self.jpeg = jpeg }
}

extension RenderOptions {
    /// The output's size in points: the page plus bleed with a page, else the framed canvas.
    func outputCanvas(_ layout: FrameLayout) -> Size { placement?.media ?? layout.canvas }

    /// Moves the drawing to where the framed canvas goes on the page, if there is a page.
    func placeOnPage(_ context: CairoContext) {
        if let origin = placement?.origin { context.translate(origin.x, origin.y) }
    }
}

/// A backend: one output format's surface around the shared `FrameDrawing`.
protocol Backend {
    static func render(_ drawing: FrameDrawing, picture: EmbeddedPicture, options: RenderOptions) throws(RenderError) -> [UInt8]
}

/// Renders framed pictures.
package enum FrameRenderer {
    /// Draws `picture` framed as `layout` and `style` say, after resampling it to the pixels it
    /// needs at the output's resolution, and returns the encoded file.
    package static func render(_ picture: RasterImage, layout: FrameLayout, style: FrameStyle,
                              options: RenderOptions) throws(RenderError) -> [UInt8] {
        let need = layout.rasterSize(atDPI: options.pictureDPI)
        let image = Resampler.resize(picture, width: need.width, height: need.height, filter: options.resample,
                                     threads: options.threads)
        return try render(EmbeddedPicture(image: image), layout: layout, style: style, options: options)
    }

    /// Several prepared pictures as one multi-page PDF, a page each, in order; a picture that
    /// repeats is embedded once. Cairo objects live inside this call only.
    package static func renderPages(_ pages: [PreparedPicture], options: RenderOptions) throws(RenderError) -> [UInt8] {
        guard options.format == .pdf else { throw .unsupported("pages go into a PDF only") }
        guard options.pictureDPI > 0, options.pictureDPI.isFinite else {
            throw .unsupported("the resolution must be a positive number")
        }
        return try PDFBackend.renderPages(pages, options: options)
    }

    /// Draws a picture that is already at its final pixel size.
    package static func render(_ picture: EmbeddedPicture, layout: FrameLayout, style: FrameStyle,
                              options: RenderOptions) throws(RenderError) -> [UInt8] {
        try options.checkCanvas(options.outputCanvas(layout))
        let drawing = FrameDrawing(layout: layout, style: style, padPictureEdges: options.format == .png)
        switch options.format {
        case .svg: return try SVGBackend.render(drawing, picture: picture, options: options)
        case .pdf: return try PDFBackend.render(drawing, picture: picture, options: options)
        case .png: return try PNGBackend.render(drawing, picture: picture, options: options)
        }
    }
}
