import FramedLayout
import FramedRaster

/// The file formats framed writes.
public enum OutputFormat: String, Sendable, Equatable, CaseIterable, Codable {
    case svg, pdf, png

    /// The format for a file name's extension (`.svg`, `.pdf`, `.png`, any case), if any.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// Pixels per inch of the embedded picture when `--dpi` is not given (PNG: 96 × scale).
    public var defaultPictureDPI: Double {
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

/// How to render: format, resolution and quality.
public struct RenderOptions: Sendable, Equatable {
    public var format: OutputFormat
    /// PNG only: device pixels per CSS px.
    public var scale: Double
    /// PNG: device pixels per inch (overrides `scale`). SVG and PDF: pixels per inch of the
    /// embedded picture.
    public var dpi: Double?
    public var filter: ResampleFilter
    public var metadata: DocumentMetadata

    public init(format: OutputFormat, scale: Double = 1, dpi: Double? = nil,
                filter: ResampleFilter = .good, metadata: DocumentMetadata = DocumentMetadata()) {
        self.format = format; self.scale = scale; self.dpi = dpi
        self.filter = filter; self.metadata = metadata
    }

    /// Pixels per inch of the embedded picture (and of the PNG canvas).
    public var pictureDPI: Double {
        if let dpi { return dpi }
        return format == .png ? 96 * scale : format.defaultPictureDPI
    }

    /// The PNG canvas in whole pixels for a canvas of `size` points.
    public func pixelSize(ofCanvas size: Size) -> PixelSize {
        let k = pictureDPI / 72
        return PixelSize(width: Int((size.width * k - 1e-6).rounded(.up)),
                         height: Int((size.height * k - 1e-6).rounded(.up)))
    }
}

/// A backend: one output format's surface around the shared `FrameDrawing`.
protocol Backend {
    static func render(_ drawing: FrameDrawing, picture: CairoImageSurface, options: RenderOptions) throws(RenderError) -> [UInt8]
}

/// Renders framed pictures.
public enum FrameRenderer {
    /// Draws `picture` framed as `layout` and `style` say, and returns the encoded file.
    public static func render(_ picture: RasterImage, layout: FrameLayout, style: FrameStyle,
                              options: RenderOptions) throws(RenderError) -> [UInt8] {
        if layout.shadows.contains(where: \.inset) {
            throw .unsupported("inset shadows are not supported yet")
        }
        let dpi = options.pictureDPI
        guard dpi > 0, dpi.isFinite, options.scale > 0, options.scale.isFinite else {
            throw .unsupported("the resolution must be a positive number")
        }
        let surface = try PictureSurface.make(from: picture, size: layout.rasterSize(atDPI: dpi),
                                              filter: options.filter)
        let drawing = FrameDrawing(layout: layout, style: style, padPictureEdges: options.format == .png)
        switch options.format {
        case .svg: return try SVGBackend.render(drawing, picture: surface, options: options)
        case .pdf: return try PDFBackend.render(drawing, picture: surface, options: options)
        case .png: return try PNGBackend.render(drawing, picture: surface, options: options)
        }
    }
}
