import FramedLayout
import FramedRaster

/// How the picture is stored inside an SVG or PDF.
public enum EmbedMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// An untouched JPEG source is passed through byte for byte; other opaque pictures from
    /// lossy sources (JPEG, WebP) are re-encoded as JPEG; pictures with alpha and pictures from
    /// lossless sources (PNG: screenshots, diagrams) stay lossless, so text keeps sharp edges.
    case auto
    /// Always JPEG (pictures with alpha need `--flatten`).
    case jpeg
    /// Always lossless (PNG in SVG, Flate in PDF).
    case png
}

/// How the picture ended up in the output.
public enum Embedding: Sendable, Equatable, CustomStringConvertible {
    /// The source JPEG's own bytes (no resampling, rotation or colour conversion was needed).
    case passthroughJPEG
    /// Re-encoded as JPEG at this quality.
    case jpeg(quality: Int)
    /// Lossless: PNG in SVG, Flate in PDF.
    case lossless
    /// Drawn into a raster output (PNG).
    case raster

    public var description: String {
        switch self {
        case .passthroughJPEG: return "source JPEG passed through"
        case let .jpeg(quality): return "JPEG quality \(quality)"
        case .lossless: return "lossless"
        case .raster: return "raster"
        }
    }
}

/// What happened to the picture on its way into the output.
package struct PictureReport: Sendable, Equatable {
    /// The picture's size after EXIF orientation.
    package var sourcePixels: PixelSize
    /// JPEG/WebP shrink-on-load: the picture was decoded at scaleNumerator/scaleDenominator.
    package var scaleNumerator: Int
    package var scaleDenominator: Int
    /// The pixels that went into the output.
    package var embeddedPixels: PixelSize
    /// Picture pixels per inch as placed (the lower of the two axes).
    package var effectivePPI: Double
    package var embedding: Embedding
    /// Decoder and colour warnings, one line each.
    package var warnings: [String]
}

/// A framed picture: the file's bytes, the geometry and what was done to the picture.
package struct FramedPicture: Sendable {
    package var bytes: [UInt8]
    package var layout: FrameLayout
    package var report: PictureReport
    /// Where the framed canvas sits on the page (`RenderOptions.page`); nil without a page.
    package var placement: PagePlacement? = nil
}

/// One picture laid out from its header alone, before anything is decoded: what `framed
/// layout` reports, and the first step of `Framer.prepare`.
package struct FramePlan: Sendable {
    package var info: PictureInfo
    /// The EXIF orientation applied (`.up` with `autoOrient` off).
    package var orientation: Orientation
    /// The picture's size after orientation.
    package var sourcePixels: PixelSize
    /// The style as used: fitting a page may have set its `width` or `height`.
    package var style: FrameStyle
    package var layout: FrameLayout
    /// Where the framed canvas goes on the page, with `RenderOptions.page`.
    package var placement: PagePlacement?
    /// The pixels the placed picture gets (at `RenderOptions.pictureDPI`).
    package var rasterPixels: PixelSize
    /// Picture pixels per inch as placed (the lower of the two axes).
    package var effectivePPI: Double
    /// The whole output's size in points: the page plus bleed, or the framed canvas.
    package var canvas: Size { placement?.media ?? layout.canvas }
}

/// A picture decoded, resampled and encoded for embedding, with its geometry: everything but
/// the drawing. Several of them make a multi-page PDF (`FrameRenderer.renderPages`).
package struct PreparedPicture: Sendable {
    package var picture: EmbeddedPicture
    package var plan: FramePlan
    package var report: PictureReport
}

/// Why a picture could not be framed, by the stage that failed.
package enum FramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input could not be read or decoded.
    case picture(RasterError)
    /// The style cannot frame this picture.
    case layout(LayoutError)
    /// The options ask for something impossible (e.g. JPEG embedding of a transparent picture).
    case options(String)
    /// Drawing or encoding failed.
    case render(RenderError)

    package var description: String {
        switch self {
        case let .picture(error): return error.description
        case let .layout(error): return error.description
        case let .options(text): return text
        case let .render(error): return error.description
        }
    }
}

/// The whole job for one picture: header → layout → shrink-on-load decode → colour and
/// orientation → resample to the pixels needed → embed → render.
/// The picture comes from a `PictureSource`, opened once per call (`PictureInput`): a JPEG or
/// PNG file is read a chunk at a time while it is decoded, and read whole only when a JPEG is
/// embedded byte for byte; a pipe is read whole when opened.
package enum Framer {
    package static func frame(_ source: PictureSource, style: FrameStyle, options: RenderOptions) throws(FramingError) -> FramedPicture {
        let prepared = try prepare(source, style: style, options: options)
        var options = options
        options.placement = prepared.plan.placement
        let bytes: [UInt8]
        do {
            bytes = try FrameRenderer.render(prepared.picture, layout: prepared.plan.layout,
                                             style: prepared.plan.style, options: options)
        } catch { throw .render(error) }
        return FramedPicture(bytes: bytes, layout: prepared.plan.layout, report: prepared.report,
                             placement: prepared.plan.placement)
    }

    /// The geometry from the picture's header alone: layout, page placement, pixels needed.
    package static func plan(_ source: PictureSource, style: FrameStyle, options: RenderOptions) throws(FramingError) -> FramePlan {
        try plan(open(source), style: style, options: options)
    }

    static func open(_ source: PictureSource) throws(FramingError) -> PictureInput {
        do { return try PictureInput(source) } catch { throw .picture(error) }
    }

    static func plan(_ input: borrowing PictureInput, style: FrameStyle, options: RenderOptions) throws(FramingError) -> FramePlan {
        let info: PictureInfo
        do { info = try Pictures.info(input) } catch { throw .picture(error) }
        guard info.width.multipliedReportingOverflow(by: info.height).partialValue <= options.maxPixels,
              info.width <= options.maxPixels, info.height <= options.maxPixels else {
            throw .picture(.tooLarge(width: info.width, height: info.height, limit: options.maxPixels))
        }
        let orientation = options.autoOrient ? info.orientation : .up
        let oriented = orientation.orientedSize(width: info.width, height: info.height)

        var layout: FrameLayout
        var style = style
        var placement: PagePlacement?
        let metrics = PictureMetrics(pixelWidth: oriented.0, pixelHeight: oriented.1, fileResolution: info.resolution)
        if let page = options.page {
            do { (style, layout, placement) = try PageLayout.place(picture: metrics, style: style, page: page) } catch {
                if case let .layout(reason) = error { throw .layout(reason) }
                throw .options(error.description)
            }
        } else {
            do {
                layout = try FrameLayout(picture: metrics, style: style)
            } catch { throw .layout(error) }
        }
        if options.format == .png && options.snap {
            let k = options.pictureDPI / 72
            layout = layout.snapped(devicePixelsPerPoint: k)
            if let origin = placement?.origin {
                placement?.origin = Point(x: (origin.x * k).rounded() / k, y: (origin.y * k).rounded() / k)
            }
        }
        // The output's size is known now: refuse one too large to render before decoding.
        do { try options.checkCanvas(placement?.media ?? layout.canvas) } catch { throw .options(error.description) }
        let need = layout.rasterSize(atDPI: options.pictureDPI)
        return FramePlan(info: info, orientation: orientation, sourcePixels: PixelSize(width: oriented.0, height: oriented.1),
                         style: style, layout: layout, placement: placement, rasterPixels: need,
                         effectivePPI: layout.effectivePPI(of: need))
    }

    /// Decodes, orients, converts, resamples and encodes the picture for its place: everything
    /// but drawing. Pure: the same bytes and options give the same result on any thread.
    package static func prepare(_ source: PictureSource, style: FrameStyle, options: RenderOptions) throws(FramingError) -> PreparedPicture {
        let input = try open(source)
        let plan = try plan(input, style: style, options: options)
        let info = plan.info, orientation = plan.orientation, need = plan.rasterPixels
        let scale = shrinkOnLoadScale(source: plan.sourcePixels, need: need)

        let decoded: DecodedPicture
        do {
            var decodeOptions = DecodeOptions(maxPixels: options.maxPixels, scaleDenominator: scale.denominator)
            decodeOptions.scaleNumerator = scale.numerator
            decodeOptions.autoOrient = options.autoOrient
            decodeOptions.intent = options.intent
            decodeOptions.threads = options.threads
            // Resized as it is decoded (on a second core), unless a picture that may have alpha
            // is flattened first.
            if options.threads > 1 && (options.flatten == nil || info.hasAlpha == false) {
                decodeOptions.resize = ResizeRequest(width: need.width, height: need.height, filter: options.resample)
            }
            decoded = try Pictures.decode(input, options: decodeOptions)
        } catch { throw .picture(error) }
        var warnings = decoded.warningSummary.map { [$0] } ?? []
        warnings += decoded.colorWarnings

        var image = decoded.image
        if let flatten = options.flatten, image.hasAlpha {
            image = image.flattened(onto: flatten.rgb8)
        }
        let resampled = decoded.resampled || image.width != need.width || image.height != need.height
        image = Resampler.resize(image, width: need.width, height: need.height, filter: options.resample,
                                 threads: options.threads)

        // How the picture goes into the file.
        var embedding = Embedding.raster
        var jpeg: [UInt8]?
        if options.format != .png {
            let untouched = info.format == .jpeg && decoded.scaleNumerator == decoded.scaleDenominator && !resampled
                && !decoded.colorConverted && orientation == .up
            if options.embed == .jpeg && image.hasAlpha {
                throw .options("a JPEG cannot hold the picture's transparency; add --flatten COLOR or use --embed png")
            }
            if untouched && options.embed != .png && !options.lossless {
                do { jpeg = try input.contents() } catch { throw .picture(error) }
                embedding = .passthroughJPEG
            } else if options.embed == .jpeg
                        || (options.embed == .auto && !image.hasAlpha && !options.lossless && info.format != .png) {
                do {
                    jpeg = try PictureEncoder.jpeg(image, quality: options.quality, grayscale: image.isGrayscale,
                                                  threads: options.threads)
                } catch { throw .picture(error) }
                embedding = .jpeg(quality: options.quality)
            } else {
                embedding = .lossless
            }
        }

        let report = PictureReport(sourcePixels: plan.sourcePixels,
                                   scaleNumerator: decoded.scaleNumerator,
                                   scaleDenominator: decoded.scaleDenominator,
                                   embeddedPixels: plan.rasterPixels, effectivePPI: plan.effectivePPI,
                                   embedding: embedding, warnings: warnings)
        return PreparedPicture(picture: EmbeddedPicture(image: image, jpeg: jpeg), plan: plan, report: report)
    }

    /// `frame` for a picture in memory.
    package static func frame(_ data: [UInt8], style: FrameStyle, options: RenderOptions) throws(FramingError) -> FramedPicture {
        try frame(.bytes(data), style: style, options: options)
    }

    /// `plan` for a picture in memory.
    package static func plan(_ data: [UInt8], style: FrameStyle, options: RenderOptions) throws(FramingError) -> FramePlan {
        try plan(.bytes(data), style: style, options: options)
    }

    /// `prepare` for a picture in memory.
    package static func prepare(_ data: [UInt8], style: FrameStyle, options: RenderOptions) throws(FramingError) -> PreparedPicture {
        try prepare(.bytes(data), style: style, options: options)
    }

    /// The smallest DCT scale (`DecodeOptions.shrinkScales`: 1/8, 1/4, 3/8, 1/2) that still
    /// leaves at least `need` pixels, so a big photo is never held at full size when a small one
    /// is placed; 1/1 when none does.
    /// 3/8 decodes 56 % of the pixels of 1/2 where 1/4 is too few: a 24 MP photo in a PDF at
    /// 300 ppi and 6 x 4 inches (2250 x 1500 pixels for 1819 x 1213).
    package static func shrinkOnLoadScale(source: PixelSize, need: PixelSize) -> (numerator: Int, denominator: Int) {
        for (numerator, denominator) in DecodeOptions.shrinkScales {
            let w = (source.width * numerator + denominator - 1) / denominator
            let h = (source.height * numerator + denominator - 1) / denominator
            if w >= need.width && h >= need.height { return (numerator, denominator) }
        }
        return (1, 1)
    }
}

extension RGBAColor {
    /// The colour as 8-bit components (alpha ignored).
    var rgb8: (r: UInt8, g: UInt8, b: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue))
    }
}
