import FramedLayout
import FramedRaster
import FramedSystem

/// The file formats framed writes.
public enum OutputFormat: String, Sendable, Equatable, CaseIterable, Codable {
    /// Scalable Vector Graphics: the frame and shadows as paths and gradients, the picture as an
    /// embedded JPEG or PNG.
    case svg
    /// PDF: the frame and shadows as vector paths and shadings, the picture as an image object;
    /// the page is the canvas, or a paper size with bleed.
    case pdf
    /// PNG: the whole drawing as pixels, RGBA, transparent outside the frame unless the canvas
    /// has a colour.
    case png
    /// JPEG for photo labs: the drawing as pixels, 8-bit RGB without alpha (on the canvas
    /// colour, white when it has none), 4:4:4 chroma, sRGB profile and resolution embedded.
    case jpeg
    /// TIFF for photo labs: as `jpeg`, compressed losslessly (LZW).
    case tiff

    /// The format for a file name's extension (`.svg`, `.pdf`, `.png`, `.jpg` or `.jpeg`,
    /// `.tif` or `.tiff`, any case), if any.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jpg": self = .jpeg
        case "tif": self = .tiff
        case let name: self.init(rawValue: name)
        }
    }

    /// Whether the whole drawing is pixels (PNG, JPEG, TIFF) rather than vector (SVG, PDF).
    public var isRaster: Bool { self == .png || self == .jpeg || self == .tiff }

    /// Pixels per inch of the embedded picture when no resolution is given: SVG 192 (sharp on
    /// screens of twice the CSS density), PDF 300 (print), PNG 96 (one pixel per CSS px, times
    /// the scale), JPEG and TIFF 300 (what photo labs print at).
    public var defaultPictureDPI: Double {
        switch self {
        case .svg: return 192
        case .pdf, .jpeg, .tiff: return 300
        case .png: return 96
        }
    }
}

/// Document information written into a PDF (`cairo_pdf_surface_set_metadata`).
public struct DocumentMetadata: Sendable, Equatable {
    /// The document's title, if any.
    public var title: String?
    /// The document's author, if any.
    public var author: String?
    /// The program that made the document.
    public var creator: String?
    /// When the document was made, `YYYY-MM-DDThh:mm:ss` in UTC; nil (the default): when it is
    /// framed, or `SOURCE_DATE_EPOCH` when that is set (`framingDate()`), so that a build that
    /// sets it gets the same bytes every time.
    public var creationDate: String?

    /// Metadata with the given fields; dated when framed unless a creation date is given.
    public init(title: String? = nil, author: String? = nil, creator: String? = nil, creationDate: String? = nil) {
        self.title = title; self.author = author; self.creator = creator; self.creationDate = creationDate
    }
}

/// What rendering needs besides the drawing: the format, its resolution, the PDF's metadata,
/// the pixel limit of a PNG canvas, and the cores it may use.
package struct RenderOptions: Sendable, Equatable {
    package var format: OutputFormat
    /// Raster formats only: device pixels per CSS px.
    package var scale: Double
    /// Raster formats: device pixels per inch (overrides `scale`). SVG and PDF: pixels per inch
    /// of the embedded picture.
    package var dpi: Double?
    package var metadata: DocumentMetadata
    /// PDF: the PDF/X variant and its output intent (`PDFPrint`).
    package var print = PDFPrintOptions()
    /// JPEG: the quality, 1-100.
    package var quality = 90
    /// PNG canvases with more pixels are refused.
    package var maxPixels: Int
    /// The cores one picture may use: compressing spreads over them. Outputs are the same bytes
    /// whatever the number.
    package var threads: Int = Resampler.processorCount

    package init(format: OutputFormat, scale: Double = 1, dpi: Double? = nil,
                 metadata: DocumentMetadata = DocumentMetadata(), maxPixels: Int = 256_000_000) {
        self.format = format; self.scale = scale; self.dpi = dpi
        self.metadata = metadata; self.maxPixels = maxPixels
    }

    /// These options as the document states them, fixed once so that every place a PDF states
    /// them (Cairo's Info, PDF/X-4's XMP) agrees: the date given, else the time of framing; the
    /// title, author and creator with each noncharacter (U+FDD0 to U+FDEF, U+xFFFE, U+xFFFF) as
    /// U+FFFD, as a caption draws it. Cairo refuses such a string in a PDF's metadata ("input
    /// string not valid UTF-8"), which failed the whole output, and XML does not allow U+FFFE
    /// or U+FFFF in the XMP.
    package var stated: RenderOptions {
        var options = self
        options.metadata.creationDate = metadata.creationDate ?? DocumentMetadata.framingDate()
        options.metadata.title = metadata.title.map(TextLayout.drawable)
        options.metadata.author = metadata.author.map(TextLayout.drawable)
        options.metadata.creator = metadata.creator.map(TextLayout.drawable)
        return options
    }

    /// Pixels per inch of the embedded picture (and of a raster canvas). JPEG and TIFF are
    /// 300 unless a scale other than 1 asks for 96 times it.
    package var pictureDPI: Double {
        if let dpi { return dpi }
        switch format {
        case .png: return 96 * scale
        case .jpeg, .tiff: return scale == 1 ? format.defaultPictureDPI : 96 * scale
        case .svg, .pdf: return format.defaultPictureDPI
        }
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

    /// The lowest resolution, in pixels per inch: a PNG at a scale of 0.01. Far below it Cairo's
    /// fixed-point coordinates cannot hold the drawing (at a scale of 0.00001 it fails).
    package static let minimumDPI = 0.96

    /// The largest canvas side in points, whatever the format: far beyond any page or screen
    /// (about 350 m), well inside the range where Cairo's 24.8 fixed-point coordinates hold.
    package static let maxCanvasPoints = 1_000_000.0
    /// The largest PNG canvas side in device pixels (Cairo's image surfaces).
    package static let maxCanvasPixelsPerSide = 32767

    /// Checks, before any surface exists, that the style's text (the caption, the window's
    /// title) is drawn at most `TextLayout.maximumDevicePixels` tall at these options' resolution:
    /// Pango and FreeType draw no larger (a 12 pt caption at `--scale` 56 failed).
    package func checkText(_ style: FrameStyle) throws(RenderError) {
        let k = format.isRaster ? pictureDPI / 72 : 1
        var texts: [(String, Double)] = []
        if !style.caption.text.isEmpty { texts.append(("caption", style.caption.font.size.points)) }
        if let kind = style.chrome.kind, let title = style.chrome.title, !title.isEmpty {
            texts.append(("window title", WindowChromeDrawing.titleFont(ChromeFigures.of(kind, style.chrome.theme)).size.points))
        }
        for (what, points) in texts where points * k > TextLayout.maximumDevicePixels {
            throw .textTooLarge(what, pixels: points * k, limit: TextLayout.maximumDevicePixels)
        }
    }

    /// Checks, before any surface exists, that a canvas of `canvas` points can be rendered with
    /// these options: a positive finite resolution and scale; at most `maxCanvasPoints` a side;
    /// for PNG, at most `maxCanvasPixelsPerSide` device pixels a side and `maxPixels` in all
    /// (the same limit as the picture's, so that one number bounds the memory a run takes).
    package func checkCanvas(_ canvas: Size) throws(RenderError) {
        guard pictureDPI > 0, pictureDPI.isFinite, scale > 0, scale.isFinite else {
            throw .unsupported("the resolution must be a positive number")
        }
        guard pictureDPI >= Self.minimumDPI else {
            throw .unsupported("a resolution of \(pictureDPI) pixels per inch is too low (at least \(Self.minimumDPI))")
        }
        guard canvas.width <= Self.maxCanvasPoints, canvas.height <= Self.maxCanvasPoints else {
            throw .canvasTooLargeInPoints(canvas, limit: Self.maxCanvasPoints)
        }
        guard format.isRaster else { return }
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
    /// The pixels; none (a 0x0 image) once `droppingPixels()` let them go.
    package var image: RasterImage
    package var jpeg: [UInt8]?
    /// The picture's size in pixels, with or without `image`'s.
    package var size: PixelSize
    /// Whether the picture may be translucent.
    package var hasAlpha: Bool

    package init(image: RasterImage, jpeg: [UInt8]? = nil) {
        self.image = image; self.jpeg = jpeg
        size = PixelSize(width: image.width, height: image.height)
        hasAlpha = image.hasAlpha
    }

    /// The picture without its pixels when SVG and PDF embed its JPEG bytes and nothing else
    /// draws it (no PNG, no soft proof): a document holds its pages' pictures until it is
    /// written, and 100 prints hold 450 MB of pixels against 20 MB of JPEG.
    package func droppingPixels() -> EmbeddedPicture {
        guard jpeg != nil else { return self }
        var kept = self
        kept.image = RasterImage(width: 0, height: 0, pixels: [], hasAlpha: hasAlpha)
        return kept
    }
}

/// A picture that librsvg draws (an SVG), and the colour framed paints under it.
package struct VectorPicture: Sendable {
    package var document: SVGDocument
    /// Painted over the picture's whole place before the drawing (`--flatten`); nil: nothing,
    /// the mat shows through where the drawing is transparent.
    package var background: RGBAColor?

    package init(document: SVGDocument, background: RGBAColor? = nil) {
        self.document = document; self.background = background
    }
}

/// What a page shows inside its frame: pixels at their final size, or a vector drawing.
package enum PagePicture: Sendable {
    case raster(EmbeddedPicture)
    case vector(VectorPicture)
}

/// The canvas image (`FrameStyle.canvasImage`) ready to draw: its pixels (and, for SVG and PDF,
/// the JPEG bytes they embed), and the area of the framed canvas it covers, in points.
package struct CanvasPicture: Sendable {
    package var picture: EmbeddedPicture
    package var area: Rect

    package init(picture: EmbeddedPicture, area: Rect) { self.picture = picture; self.area = area }
}

/// One framed picture ready to draw: the picture (at its final size, when pixels), its geometry
/// and look, and where its canvas goes on a page (nil: the output is the canvas).
package struct RenderPage: Sendable {
    package var picture: PagePicture
    package var layout: FrameLayout
    package var style: FrameStyle
    package var placement: PagePlacement?
    /// The canvas image, painted over the canvas colour and under the canvas gradient.
    package var backdrop: CanvasPicture?
    /// The callouts drawn over everything else, in order (`AnnotationLayout`).
    package var annotations: [PlacedAnnotation] = []

    package init(picture: PagePicture, layout: FrameLayout, style: FrameStyle, placement: PagePlacement? = nil) {
        self.picture = picture; self.layout = layout; self.style = style; self.placement = placement
    }

    package init(picture: EmbeddedPicture, layout: FrameLayout, style: FrameStyle, placement: PagePlacement? = nil) {
        self.init(picture: .raster(picture), layout: layout, style: style, placement: placement)
    }

    /// The output's size in points: the page plus bleed with a page, else the framed canvas.
    var outputSize: Size { placement?.media ?? layout.canvas }

    /// Moves the drawing to where the framed canvas goes on the page, if there is a page.
    func placeOnPage(_ context: CairoContext) {
        if let origin = placement?.origin { context.translate(origin.x, origin.y) }
    }

    /// The one drawing routine over this page (raster output pads the picture's edge pixels).
    func drawing(for format: OutputFormat, pdfShadows: PDFShadows? = nil,
                 backdrop: (surface: CairoImageSurface, area: Rect)? = nil,
                 annotationLayer: AnnotationLayerMarker? = nil) -> FrameDrawing {
        var drawing = FrameDrawing(layout: layout, style: style, padPictureEdges: format.isRaster, pdfShadows: pdfShadows,
                                   backdrop: backdrop)
        // SVG writes its callouts itself (`SVGAnnotations`), as elements a page can style.
        drawing.annotations = format == .svg ? [] : annotations
        drawing.annotationLayer = annotationLayer
        return drawing
    }
}

/// Renders framed pictures into SVG, PDF or PNG files.
package enum FrameRenderer {
    /// Memory that Cairo may want while it draws and writes, beyond the buffers framed makes
    /// itself: Cairo 1.16 does not check every allocation, and out of memory it can crash where
    /// framed would give an error. So the memory is asked for first (`headroom`): the picture's
    /// pixels and bytes again, a PNG canvas twice over, and 32 MB for the rest.
    static func headroom(_ pages: [OutputPage], options: RenderOptions) -> Int {
        var bytes = 32 << 20
        for page in pages.flatMap({ $0.prints.map(\.page) }) {
            if let backdrop = page.backdrop {
                bytes += 2 * backdrop.picture.image.pixels.count + (backdrop.picture.jpeg?.count ?? 0)
            }
            switch page.picture {
            case let .raster(picture): bytes += picture.image.pixels.count + (picture.jpeg?.count ?? 0)
            // librsvg's copies of the pictures in data: URLs (a pixbuf and a surface each).
            case let .vector(picture): bytes += 8 * picture.document.check.embeddedPixels
            }
        }
        if options.format.isRaster, let page = pages.first {
            let size = options.pixelSize(ofCanvas: page.media)
            bytes += 8 * size.width * size.height
        }
        return bytes
    }

    /// Fails (`out of memory`) when `headroom` cannot be had.
    static func checkHeadroom(_ pages: [OutputPage], options: RenderOptions) throws(RenderError) {
        guard Memory.available(headroom(pages, options: options)) else {
            throw .cairo(operation: "starting to draw", message: "out of memory")
        }
    }

    /// One framed picture as a file of `options.format`: a PDF of one page, an SVG or a PNG.
    package static func render(_ page: RenderPage, options: RenderOptions) throws(RenderError) -> [UInt8] {
        try options.checkCanvas(page.outputSize)
        try checkHeadroom([OutputPage(page)], options: options)
        let options = options.stated
        switch options.format {
        case .svg: return try SVGBackend.render(page, options: options)
        case .pdf: return try PDFBackend.render([OutputPage(page)], options: options)
        case .png: return try PNGBackend.render(page, options: options)
        case .jpeg, .tiff: return try PhotoLabBackend.render(page, options: options)
        }
    }

    /// Several framed pictures as one PDF, a page each, in order; a picture that repeats is
    /// embedded once. Cairo objects live inside this call only.
    package static func render(document pages: [RenderPage], options: RenderOptions) throws(RenderError) -> [UInt8] {
        try render(document: pages.map(OutputPage.init), options: options)
    }

    /// Pages (a framed picture's own, or sheets of prints) as one PDF, in order; a picture that
    /// repeats is embedded once.
    package static func render(document pages: [OutputPage], options: RenderOptions) throws(RenderError) -> [UInt8] {
        guard options.format == .pdf else { throw .unsupported("pages go into a PDF only") }
        guard options.pictureDPI > 0, options.pictureDPI.isFinite else {
            throw .unsupported("the resolution must be a positive number")
        }
        for page in pages { try options.checkCanvas(page.media) }
        try checkHeadroom(pages, options: options)
        return try PDFBackend.render(pages, options: options.stated)
    }

    /// Each page's soft proof (`ProofBackend`): the page at the output's resolution through
    /// the press's profile, and how much of each picture the press cannot print.
    package static func proof(_ pages: [OutputPage], options: RenderOptions, proof: ProofOptions) throws(RenderError)
        -> [ProofPage] {
        try checkHeadroom(pages, options: options)
        return try ProofBackend.render(pages, options: options, proof: proof)
    }

    /// Draws `picture` framed as `layout` and `style` say, after resampling it to the pixels it
    /// needs at the output's resolution (for tests and tools that hold decoded pixels).
    package static func render(_ picture: RasterImage, layout: FrameLayout, style: FrameStyle, options: RenderOptions,
                               resample: ResamplingFilter = .best) throws(RenderError) -> [UInt8] {
        let need = layout.rasterSize(atDPI: options.pictureDPI)
        let image = Resampler.resize(picture, width: need.width, height: need.height, filter: resample,
                                     threads: options.threads)
        return try render(RenderPage(picture: EmbeddedPicture(image: image), layout: layout, style: style), options: options)
    }

    /// Draws a picture that is already at its final pixel size.
    package static func render(_ picture: EmbeddedPicture, layout: FrameLayout, style: FrameStyle,
                               options: RenderOptions) throws(RenderError) -> [UInt8] {
        try render(RenderPage(picture: picture, layout: layout, style: style), options: options)
    }
}
