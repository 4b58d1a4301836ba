import FramedSystem

/// The canvas's paint that comes from pictures: `canvas-color auto` (a gradient from the
/// picture's edge colours, `BackdropColors`) and the canvas image (a file, or the picture
/// itself, scaled to cover the canvas and blurred), made once the picture is decoded.
extension Framer {
    /// `plan` with its style's `canvasAuto` made a gradient from `image`'s edge colours, its
    /// lightness chosen for the shadows the style casts; `plan` itself without `canvasAuto`.
    static func resolvingAutoBackdrop(_ plan: FramePlan, image: RasterImage) -> FramePlan {
        guard plan.style.canvasAuto else { return plan }
        var plan = plan
        let backdrop = BackdropColors.backdrop(samples: image.edgeSamples(), shadows: plan.style.shadows)
        plan.style.canvasColor = .transparent
        plan.style.canvasGradient = backdrop.gradient
        return plan
    }

    /// The area of the framed canvas that the canvas paint covers, in its points: the canvas,
    /// or on a page the whole bleed box (as the canvas colour reaches it).
    static func canvasArea(_ plan: FramePlan) -> Rect {
        guard let placement = plan.placement else { return Rect(origin: .zero, size: plan.layout.canvas) }
        return placement.bleedBox.offsetBy(dx: -placement.origin.x, dy: -placement.origin.y)
    }

    /// The pixels the canvas image is made at for `plan`: the area it covers at the output's
    /// resolution (`plan.dpi`), or fewer where its blur leaves them nothing to hold
    /// (`CanvasImageGeometry`).
    static func canvasImagePixels(_ plan: FramePlan) -> (pixels: PixelSize, pixelsPerPoint: Double) {
        let k = CanvasImageGeometry.pixelsPerPoint(output: plan.dpi / 72, blur: plan.style.canvasBlur.points)
        return (CanvasImageGeometry.pixels(of: canvasArea(plan).size, pixelsPerPoint: k), k)
    }

    /// The canvas image for `plan` in `format`, or nil when the style has none: the file read
    /// through the picture decoders (every limit of `PictureOptions` applies, and its
    /// orientation and colour conversion), or `itself` (the picture, for
    /// `FrameStyle.pictureItself`); scaled to cover the canvas's area (CSS `background-size:
    /// cover`, centred), blurred, and for SVG and PDF encoded as JPEG when it is opaque.
    /// `started` is the file's decode begun beforehand (`CanvasImageDecode`), if it was.
    func canvasPicture(_ plan: FramePlan, format: OutputFormat, itself: RasterImage?,
                       started: CanvasImageDecode? = nil) throws(FramingError) -> CanvasPicture? {
        guard let path = plan.style.canvasImage else { return nil }
        func fail(_ error: RasterError) -> FramingError {
            FramingError(picture: path, problem: .canvasImage(path: path, error: error))
        }
        let (need, k) = Self.canvasImagePixels(plan)
        var image: RasterImage
        if path == FrameStyle.pictureItself, let itself {
            image = itself
        } else if let started {
            image = try started.image()
        } else {
            image = try decodeCanvasImage(path, covering: need)
        }
        let cover = CanvasImageGeometry.cover(image: PixelSize(width: image.width, height: image.height), area: need)
        guard Memory.available(2 * cover.scaled.width * cover.scaled.height * 4) else { throw fail(.outOfMemory) }
        image = Resampler.resize(image, width: cover.scaled.width, height: cover.scaled.height, filter: picture.resample,
                                 threads: threads)
        image = image.cropped(to: PixelBox(x: cover.x, y: cover.y, width: need.width, height: need.height))
        if plan.style.canvasBlur.points > 0 {
            guard Memory.available(need.width * need.height * 36) else { throw fail(.outOfMemory) }
            image = image.blurred(sigma: plan.style.canvasBlur.points * k)
        }
        var jpeg: [UInt8]?
        if !format.isRaster && image.isOpaque {
            image = RasterImage(width: image.width, height: image.height, pixels: image.pixels, hasAlpha: false)
            do { jpeg = try PictureEncoder.jpeg(image, quality: output.quality, grayscale: image.isGrayscale, threads: threads) } catch {
                throw fail(error)
            }
        }
        return CanvasPicture(picture: EmbeddedPicture(image: image, jpeg: jpeg), area: Self.canvasArea(plan))
    }

    /// The picture file at `path` decoded for a canvas image of `need` pixels: its header checked
    /// against the pixel limit first, then decoded shrunk on load as far as covering `need`
    /// allows. An SVG is refused: a canvas image is pixels.
    func decodeCanvasImage(_ path: String, covering need: PixelSize) throws(FramingError) -> RasterImage {
        func fail(_ error: RasterError) -> FramingError {
            FramingError(picture: path, problem: .canvasImage(path: path, error: error))
        }
        do throws(RasterError) {
            let input = try PictureInput(.file(path), byteLimit: PictureInput.byteLimit(forPixels: picture.maxPixels))
            if try Pictures.format(of: input) == .svg {
                throw RasterError.unsupportedContent(.svg, "an SVG cannot be a canvas image (it is drawn as pixels); "
                                                     + "convert it to PNG or JPEG")
            }
            let info = try Pictures.info(input)
            let limit = picture.maxPixels
            if let over = info.sizeOver(limit: limit) {
                throw RasterError.tooLarge(width: over.width, height: over.height, limit: limit)
            }
            let oriented = info.decodedSize(autoOrient: picture.autoOrient)
            let cover = CanvasImageGeometry.cover(image: PixelSize(width: max(1, oriented.0), height: max(1, oriented.1)),
                                                  area: need)
            let scale = DecodeOptions.shrinkOnLoadScale(source: (oriented.0, oriented.1),
                                                        need: (cover.scaled.width, cover.scaled.height))
            var options = DecodeOptions(maxPixels: limit, scaleDenominator: scale.denominator)
            options.scaleNumerator = scale.numerator
            options.autoOrient = picture.autoOrient
            options.intent = picture.renderingIntent
            options.threads = threads
            (options.neededWidth, options.neededHeight) = (cover.scaled.width, cover.scaled.height)
            return try Pictures.decode(input, options: options).image
        } catch {
            throw fail(error)
        }
    }
}

/// A canvas image file decoding on a thread of its own, begun as soon as the plan says what it
/// must cover, so that it overlaps the picture's own decode on a machine with cores to spare.
/// Without a second core to use (one thread for the picture: `-j 1`), or when the system starts
/// no thread, it is decoded when asked for, as before. The result is the same either way.
final class CanvasImageDecode: @unchecked Sendable {
    private let framer: Framer
    private let path: String
    private let need: PixelSize
    /// Written by the thread before it ends, read only after `join`.
    private var result: Result<RasterImage, FramingError>?
    private var thread: WorkerThread?

    /// Starts decoding `plan`'s canvas image file for `format`; nil when there is none to decode
    /// (no canvas image, or the picture itself).
    init?(_ framer: Framer, plan: FramePlan, format: OutputFormat) {
        guard let path = plan.style.canvasImage, path != FrameStyle.pictureItself else { return nil }
        self.framer = framer
        self.path = path
        need = Framer.canvasImagePixels(plan).pixels
        guard framer.threads > 1 else { return }
        thread = try? WorkerThread { [self] in
            result = Result { () throws(FramingError) in try self.framer.decodeCanvasImage(self.path, covering: self.need) }
        }
    }

    /// The decoded picture (waiting for the thread, or decoding now).
    func image() throws(FramingError) -> RasterImage {
        if let thread {
            thread.join()
            self.thread = nil
        }
        if let result { return try result.get() }
        let image = try framer.decodeCanvasImage(path, covering: need)
        result = .success(image)
        return image
    }

    deinit { thread?.join() }
}

