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

    /// The pixels the canvas image is made at for `plan` in `format`: the area it covers at the
    /// output's resolution, or fewer where its blur leaves them nothing to hold
    /// (`CanvasImageGeometry`).
    func canvasImagePixels(_ plan: FramePlan, format: OutputFormat) -> (pixels: PixelSize, pixelsPerPoint: Double) {
        let k = CanvasImageGeometry.pixelsPerPoint(output: renderOptions(format).pictureDPI / 72,
                                                   blur: plan.style.canvasBlur.points)
        return (CanvasImageGeometry.pixels(of: Self.canvasArea(plan).size, pixelsPerPoint: k), k)
    }

    /// The canvas image for `plan` in `format`, or nil when the style has none: the file read
    /// through the picture decoders (every limit of `PictureOptions` applies, and its
    /// orientation and colour conversion), or `itself` (the picture, for
    /// `FrameStyle.pictureItself`); scaled to cover the canvas's area (CSS `background-size:
    /// cover`, centred), blurred, and for SVG and PDF encoded as JPEG when it is opaque.
    func canvasPicture(_ plan: FramePlan, format: OutputFormat, itself: RasterImage?) throws(FramingError) -> CanvasPicture? {
        guard let path = plan.style.canvasImage else { return nil }
        func fail(_ error: RasterError) -> FramingError {
            FramingError(picture: path, problem: .canvasImage(path: path, error: error))
        }
        let (need, k) = canvasImagePixels(plan, format: format)
        var image: RasterImage
        if path == FrameStyle.pictureItself, let itself {
            image = itself
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
            guard info.width.multipliedReportingOverflow(by: info.height).partialValue <= limit,
                  info.width <= limit, info.height <= limit else {
                throw RasterError.tooLarge(width: info.width, height: info.height, limit: limit)
            }
            let oriented = info.decodedSize(autoOrient: picture.autoOrient)
            let cover = CanvasImageGeometry.cover(image: PixelSize(width: max(1, oriented.0), height: max(1, oriented.1)),
                                                  area: need)
            let scale = DecodeOptions.shrinkOnLoadScale(source: (oriented.0, oriented.1),
                                                        need: (cover.scaled.width, cover.scaled.height))
            var options = DecodeOptions(maxPixels: limit, scaleDenominator: scale.denominator)
            options.scaleNumerator = scale.numerator
            options.autoOrient = picture.autoOrient
            options.intent = picture.intent
            options.threads = threads
            (options.neededWidth, options.neededHeight) = (cover.scaled.width, cover.scaled.height)
            return try Pictures.decode(input, options: options).image
        } catch {
            throw fail(error)
        }
    }
}
