/// How the picture ended up in the output.
public enum Embedding: Sendable, Equatable, CustomStringConvertible {
    /// The source JPEG's own bytes (no resampling, rotation or colour conversion was needed).
    case passthroughJPEG
    /// Re-encoded as JPEG at this quality.
    case jpeg(quality: Int)
    /// Lossless: PNG in SVG, Flate in PDF.
    case lossless
    /// Drawn into a raster output (PNG, JPEG, TIFF).
    case raster
    /// Drawn as vectors: an SVG picture in SVG or PDF output, its paths and text kept as paths
    /// and text (what it holds as pixels stays pixels).
    case vector

    /// A few words, e.g. `JPEG quality 90`.
    public var description: String {
        switch self {
        case .passthroughJPEG: return "source JPEG passed through"
        case let .jpeg(quality): return "JPEG quality \(quality)"
        case .lossless: return "lossless"
        case .raster: return "raster"
        case .vector: return "vector"
        }
    }
}

/// One picture laid out from its header alone, before anything is decoded: every rectangle,
/// where it goes on the page, and the pixels the placed picture gets.
public struct FramePlan: Sendable, Equatable {
    /// The picture's format, read from its first bytes.
    public var pictureFormat: PictureFormat
    /// The EXIF orientation applied (`.up` when `PictureOptions.autoOrient` is off).
    public var orientation: Orientation
    /// The picture's size in pixels after orientation (an SVG picture's natural size in CSS
    /// px, rounded up).
    public var sourcePixels: PixelSize
    /// The style as used: fitting a page may have set its `width` or `height`.
    public var style: FrameStyle
    /// Every rectangle of the framed picture, in points, the framed canvas's top-left at (0, 0).
    public var layout: FrameLayout
    /// The page the framed canvas goes on, if any.
    public var page: PageSize?
    /// Where the framed canvas goes on that page.
    public var placement: PagePlacement?
    /// The format the plan is for.
    public var outputFormat: OutputFormat
    /// Pixels per inch of the embedded picture (and of a PNG's canvas).
    public var dpi: Double
    /// The pixels the placed picture gets at `dpi` (never more than it has; an SVG picture,
    /// drawn at the output's resolution, gets its placed size at `dpi` in full).
    public var rasterPixels: PixelSize
    /// Picture pixels per inch as placed (the lower of the two axes); `dpi` for an SVG picture.
    public var effectivePPI: Double
    /// A PNG's, JPEG's or TIFF's size in pixels; nil for SVG and PDF.
    public var canvasPixels: PixelSize?
    /// What the picture's header said, for the stages after planning.
    package var info: PictureInfo
    /// With trimming: the part of the oriented picture that is kept and laid out; nil when
    /// nothing is trimmed.
    package var trim: PixelBox? = nil
    /// What the reader should know from the layout alone: a background set but covered by the
    /// picture, a member of a set of scales that needs more pixels than the picture has.
    /// `framed layout` lists them; framing puts them in the report.
    public var warnings: [FramingWarning] = []
    /// A background that was set (not the preset's) lies wholly under the picture: it shows
    /// only if the picture has transparent pixels, which the header alone may not tell.
    package var backgroundCovered = false
    /// The annotations placed: callouts in output points, redactions in the picture's pixels.
    public var annotations = AnnotationPlacement()

    /// The whole output's size in points: the page plus bleed, or the framed canvas.
    public var canvas: Size { placement?.media ?? layout.canvas }

    /// The border, inner border and caption that lie within the page's safe margin (none
    /// without a page): where a cut a little off the trim can take them. In PNG, JPEG and TIFF,
    /// whose edges move to whole pixels, by more than a pixel.
    public var safeMarginWarnings: [SafeMarginWarning] {
        guard page != nil, let placement else { return [] }
        return SafeZone.warnings(layout: layout, style: style, trim: placement.trimOnCanvas, safeMargin: placement.safeMargin,
                                 tolerance: outputFormat.isRaster ? 72 / dpi : 1e-6)
    }
}

/// What happened to the picture on its way into the output.
public struct PictureReport: Sendable, Equatable {
    /// The picture's size after EXIF orientation.
    public var sourcePixels: PixelSize
    /// The scale the picture was decoded at, `scaleNumerator/scaleDenominator` (1/1, 1/2, 3/8,
    /// 1/4 or 1/8: JPEG and WebP shrink while decoding when fewer pixels are needed; a HEIF
    /// thumbnail or a TIFF pyramid level that has them all stands for the picture at its width's
    /// fraction of the picture's).
    public var scaleNumerator: Int
    /// See `scaleNumerator`.
    public var scaleDenominator: Int
    /// The pixels that went into the output.
    public var embeddedPixels: PixelSize
    /// Picture pixels per inch as placed (the lower of the two axes).
    public var effectivePPI: Double
    /// How the picture is stored in the output.
    public var embedding: Embedding
    /// What the reader should know: decoder and colour warnings, a low resolution.
    public var warnings: [FramingWarning]
    /// With a soft proof (`OutputOptions.proof`): the share, from 0 to 1, of the picture's
    /// pixels in the proof that the press cannot print (its visible part only, not the mat,
    /// border, shadow or canvas); nil without a proof.
    public var outOfGamut: Double? = nil
}

/// A framed picture in memory: the output file's bytes, its plan and what was done to the picture.
public struct FramedPicture: Sendable {
    /// The SVG, PDF or PNG file.
    public var bytes: [UInt8]
    /// The geometry.
    public var plan: FramePlan
    /// What happened to the picture.
    public var report: PictureReport
    /// With `OutputOptions.proof`: the soft proof, a PNG; nil without one.
    public var proof: [UInt8]? = nil
}

/// A picture decoded, resampled and encoded for embedding, with its plan and report: everything
/// but the drawing. Several make a document.
package struct PreparedPicture: Sendable {
    package var picture: PagePicture
    package var plan: FramePlan
    package var report: PictureReport
    /// The canvas image, made for this picture's canvas.
    package var backdrop: CanvasPicture? = nil

    /// The picture as a document keeps it until its PDF is written: without the pixels when
    /// only its JPEG bytes go in, no soft proof (`proof` false) will draw them, and its bleed
    /// does not continue its edge pixels.
    package func keptForDocument(proof: Bool) -> PreparedPicture {
        guard !proof, case let .raster(embedded) = picture, !renderPage.bleedReadsPicturePixels else { return self }
        var kept = self
        kept.picture = .raster(embedded.droppingPixels())
        return kept
    }

    /// The page this picture makes.
    package var renderPage: RenderPage {
        var page = RenderPage(picture: picture, layout: plan.layout, style: plan.style, placement: plan.placement)
        page.backdrop = backdrop
        page.annotations = plan.annotations.drawn
        return page
    }
}
