/// The first stage of framing: the picture's header, the layout and page placement, the output's
/// size checked, and the pixels the placed picture needs; nothing is decoded.
extension Framer {
    /// What rendering needs of these settings for `format`: the resolution, the metadata, the
    /// pixel limit of a PNG canvas and the cores.
    package func renderOptions(_ format: OutputFormat) -> RenderOptions {
        var options = RenderOptions(format: format, scale: output.scale, dpi: output.dpi, metadata: output.metadata,
                                    maxPixels: picture.maxPixels)
        options.threads = threads
        options.quality = output.quality
        options.print.variant = output.pdfVariant
        return options
    }

    /// What shows through a transparent canvas under a caption: the page the preset's look is
    /// for (`Variant.pageColor`), or on a `page` the paper, white.
    var captionPageColor: RGBAColor { page.spec == nil ? preset.variant.pageColor : .white }

    /// Opens `source` for the decoders (a file is opened, not read; a pipe or device is read
    /// whole, as far as a picture within the pixel limit can go).
    package func open(_ source: PictureSource, label: String) throws(FramingError) -> PictureInput {
        do { return try PictureInput(source, byteLimit: PictureInput.byteLimit(forPixels: picture.maxPixels)) } catch {
            throw FramingError(picture: label, problem: .picture(error))
        }
    }

    /// Lays out the picture that `input` holds, from its header alone, for output in `format`.
    /// `label` names the picture in errors.
    package func plan(_ input: borrowing PictureInput, label: String, format: OutputFormat) throws(FramingError) -> FramePlan {
        try planned(input, label: label, format: format).plan
    }

    /// The plan, and for an SVG the document librsvg loaded to learn its size (drawn later from
    /// the same load). `reusing` is what an earlier plan of the same input read (its header,
    /// the SVG document, the trimming probe), taken again instead of reading, loading or
    /// decoding a second time.
    func planned(_ input: borrowing PictureInput, label: String, format: OutputFormat, trimming: Bool = true,
                 reusing earlier: (plan: FramePlan, document: SVGDocument?, probe: TrimProbe?)? = nil)
        throws(FramingError) -> (plan: FramePlan, document: SVGDocument?, probe: TrimProbe?) {
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: label, problem: problem) }
        if output.pdfVariant != nil && format != .pdf { throw fail(.pdfVariantNeedsPDF(format)) }
        if output.proof != nil && format != .pdf { throw fail(.proofNeedsPDF(format)) }
        if page.sheet != nil && format != .pdf { throw fail(.sheetNeedsPDF(format)) }
        if style.canvasSize != nil && page.spec != nil { throw fail(.canvasSizeWithPage) }
        if style.canvasAuto && style.canvasImage != nil { throw fail(.twoBackdrops) }
        let info: PictureInfo
        let orientation: Orientation
        let metrics: PictureMetrics
        var document: SVGDocument?
        let pictureFormat: PictureFormat
        if let earlier { pictureFormat = earlier.plan.info.format } else {
            do { pictureFormat = try Pictures.format(of: input) } catch { throw fail(.picture(error)) }
        }
        if pictureFormat == .svg {
            // A vector picture: its size is what its root says, read by librsvg (no pixel limit:
            // a PNG canvas is held to it below, and SVG and PDF draw no pixels of it).
            let svg: SVGDocument
            if let known = earlier?.document { svg = known } else {
                do { svg = try loadSVG(input) } catch { throw fail(.picture(error)) }
            }
            metrics = PictureMetrics(naturalSize: svg.naturalSize)
            info = PictureInfo(format: .svg, width: metrics.pixelWidth, height: metrics.pixelHeight, hasAlpha: true,
                               resolution: nil)
            orientation = .up
            document = svg
        } else {
            if let earlier { info = earlier.plan.info } else {
                do { info = try Pictures.info(input) } catch { throw fail(.picture(error)) }
            }
            let limit = picture.maxPixels
            if let over = info.sizeOver(limit: limit) {
                throw fail(.picture(.tooLarge(width: over.width, height: over.height, limit: limit)))
            }
            orientation = picture.autoOrient ? info.orientation : .up
            let oriented = info.decodedSize(autoOrient: picture.autoOrient)
            metrics = PictureMetrics(pixelWidth: oriented.0, pixelHeight: oriented.1, fileResolution: info.resolution)
        }
        let oriented = (metrics.pixelWidth, metrics.pixelHeight)
        // Trimming: the uniform edges are found on the picture as it would be decoded for the
        // untrimmed frame (shrunk on load), then the frame is laid out around what is left.
        var probe: TrimProbe?
        var metricsLaidOut = metrics
        if trimming, document == nil, picture.trim != nil, let known = earlier?.probe {
            probe = known
            if let box = known.sourceBox {
                metricsLaidOut = PictureMetrics(pixelWidth: box.width, pixelHeight: box.height,
                                                fileResolution: metrics.fileResolution)
            }
        } else if trimming, document == nil, let tolerance = picture.trim {
            let untrimmed = try planned(input, label: label, format: format, trimming: false).plan
            probe = try trimProbe(input, plan: untrimmed, tolerance: tolerance, label: label)
            if let box = probe?.sourceBox {
                metricsLaidOut = PictureMetrics(pixelWidth: box.width, pixelHeight: box.height,
                                                fileResolution: metrics.fileResolution)
            }
        }

        var layout: FrameLayout
        var style = self.style
        var placement: PagePlacement?
        let pageColor = captionPageColor
        // Text too large to draw at the output's resolution is refused first; then Pango's
        // threads and fonts for the caption, the title and the callouts' texts are made ready,
        // before the picture takes its memory.
        do { try renderOptions(format).checkText(style) } catch { throw fail(.canvas(error)) }
        let calloutTexts = annotationList.compactMap { annotation -> (text: String, font: CSSFont)? in
            switch annotation.shape {
            case let .badge(number, _): (String(number), annotation.style.font ?? Annotation.defaultFont)
            case let .label(text, _, _): (text, annotation.style.font ?? Annotation.defaultFont)
            default: nil
            }
        }
        do { try TextPreparation.prepare(style, options: renderOptions(format), annotations: calloutTexts) } catch {
            throw fail(.layout(error))
        }
        if let page = page.spec {
            do {
                (style, layout, placement) = try PageLayout.place(picture: metricsLaidOut, style: style, page: page,
                                                                  text: PangoTextMeasure(), pageColor: pageColor)
            } catch {
                if case let .layout(reason) = error { throw fail(.layout(reason)) }
                throw fail(.page(error))
            }
        } else {
            // With the other looks of a set, on the canvas they share.
            do {
                let styles = [style] + companions.filter { $0 != style }
                let fitted = try FrameLayout.set(picture: metricsLaidOut, styles: styles, text: PangoTextMeasure(),
                                                 pageColor: pageColor)[0]
                (style, layout) = (fitted.style, fitted.layout)
            } catch { throw fail(.layout(error)) }
            // Marks without a page: the trim box is the framed canvas.
            if page.marks != .none { placement = .unpaged(canvas: layout.canvas, marks: page.marks) }
        }
        // A background the user set (not the preset's) that the picture covers wholly.
        let preset = self.preset.style
        let backgroundSet = style.background != preset.background || style.backgroundGradient != preset.backgroundGradient
        let backgroundCovered = backgroundSet && (style.background.alpha > 0 || style.backgroundGradient != nil)
            && document == nil && layout.matCovered
        let options = renderOptions(format)
        if format.isRaster && output.snap {
            let k = options.pictureDPI / 72
            layout = layout.snapped(devicePixelsPerPoint: k)
            if let origin = placement?.origin {
                let snapped = Point(x: (origin.x * k).rounded() / k, y: (origin.y * k).rounded() / k)
                placement?.origin = snapped
                // Without a page the trim box is the framed canvas, wherever it lands.
                if page.spec == nil { placement?.trim = Rect(origin: snapped, size: layout.canvas) }
            }
        }
        // The output's size is known now: refuse one too large to render before decoding.
        let canvas = placement?.media ?? layout.canvas
        do { try options.checkCanvas(canvas) } catch { throw fail(.canvas(error)) }
        // A soft proof draws the page's pixels at the picture's resolution: the same limits.
        if output.proof != nil {
            do { try options.proofRaster.checkCanvas(canvas) } catch { throw fail(.canvas(error)) }
        }
        // A vector picture is drawn at the output's resolution, however large it is placed.
        let need = document == nil ? layout.rasterSize(atDPI: options.pictureDPI)
            : PixelSize(width: Self.devicePixels(layout.picture.width, dpi: options.pictureDPI),
                        height: Self.devicePixels(layout.picture.height, dpi: options.pictureDPI))
        let plan = FramePlan(pictureFormat: info.format, orientation: orientation,
                         sourcePixels: PixelSize(width: oriented.0, height: oriented.1), style: style, layout: layout,
                         page: placement == nil ? nil : page.size, placement: placement, outputFormat: format,
                         dpi: options.pictureDPI, rasterPixels: need,
                         effectivePPI: document == nil ? layout.effectivePPI(of: need) : options.pictureDPI,
                         canvasPixels: format.isRaster ? options.pixelSize(ofCanvas: canvas) : nil, info: info)
        if let document {
            // Filters work on the picture's device pixels (points on a vector surface).
            let area = format.isRaster ? Double(need.width) * Double(need.height) : layout.picture.width * layout.picture.height
            let scale = (format.isRaster ? options.pictureDPI / 72 : 1) * layout.picture.width / document.naturalSize.width * 0.75
            do { try document.checkFilters(area: area, scale: scale) } catch { throw fail(.picture(error)) }
        }
        var result = plan
        result.trim = probe?.sourceBox
        result.backgroundCovered = backgroundCovered
        // (The untrimmed plan that trimming starts from has no annotations: they are in the
        // trimmed picture's pixels.)
        if trimming || picture.trim == nil {
            result.annotations = try placedAnnotations(on: layout, vector: document != nil, label: label)
        }
        result.warnings += result.annotations.warnings.map(FramingWarning.annotationCutOff)
        // A picture that has no alpha channel hides the mat for sure; one that may have
        // transparent pixels is looked at once decoded.
        if backgroundCovered && info.hasAlpha == false { result.warnings.append(.backgroundCovered) }
        if style.canvasBlur.points > 0 && style.canvasImage == nil { result.warnings.append(.canvasBlurWithoutImage) }
        return (result, document, probe)
    }

    /// The annotations placed over the picture as `layout` lays it out (after snapping, so that
    /// they follow the picture as drawn). A vector picture has no pixels to redact or enlarge.
    func placedAnnotations(on layout: FrameLayout, vector: Bool, label: String) throws(FramingError) -> AnnotationPlacement {
        let list = annotationList
        guard !list.isEmpty else { return AnnotationPlacement() }
        func fail(_ problem: AnnotationProblem) -> FramingError { FramingError(picture: label, problem: .annotations(problem)) }
        if vector, let (offset, needing) = list.enumerated().first(where: { $0.element.kind.isRedaction || $0.element.kind == .magnify }) {
            throw fail(.needsPixels(index: offset + 1, kind: needing.kind))
        }
        do { return try AnnotationLayout.place(list, layout: layout, text: PangoTextMeasure()) } catch {
            throw fail(.invalid(path: annotationFile, error))
        }
    }

    /// `points` at `dpi` in whole pixels, at least 1 (clamped before `Int()` can trap).
    static func devicePixels(_ points: Double, dpi: Double) -> Int {
        Int(min(1e15, max(1, (points * dpi / 72).rounded())))
    }

    /// An SVG's bytes (at most `PictureInput.svgByteLimit`) checked and loaded by librsvg.
    func loadSVG(_ input: borrowing PictureInput) throws(RasterError) -> SVGDocument {
        guard input.count <= PictureInput.svgByteLimit else { throw .tooManyBytes(limit: PictureInput.svgByteLimit) }
        return try SVGDocument.load(try input.contents(), limits: SVGLimits(maxPixels: picture.maxPixels), sandbox: svgSandbox)
    }
}

/// The picture decoded to find its uniform edges, used again after planning when it has at
/// least the pixels the kept part needs.
struct TrimProbe {
    /// The picture as decoded (oriented, colour-converted, not resized).
    var decoded: DecodedPicture
    /// The shrink-on-load scale it was decoded at.
    var scale: (numerator: Int, denominator: Int)
    /// What is left after trimming, in the oriented picture's own pixels; nil when nothing is trimmed.
    var sourceBox: PixelBox?
}

extension Framer {
    /// Decodes the picture at the scale `plan` would decode it at, and finds the box left after
    /// trimming there, in the whole picture's pixels (rounded outwards when the picture was
    /// shrunk on load, so a box found on a reduced picture is at most one reduced pixel too big
    /// on each side).
    func trimProbe(_ input: borrowing PictureInput, plan: FramePlan, tolerance: Double, label: String)
        throws(FramingError) -> TrimProbe {
        let scale = DecodeOptions.shrinkOnLoadScale(source: (plan.sourcePixels.width, plan.sourcePixels.height),
                                                    need: (plan.rasterPixels.width, plan.rasterPixels.height))
        let decoded = try decode(input, scale: scale, need: plan.rasterPixels, label: label)
        let image = decoded.image
        guard let box = image.trimBox(tolerance: tolerance) else {
            return TrimProbe(decoded: decoded, scale: scale, sourceBox: nil)
        }
        let w = plan.sourcePixels.width, h = plan.sourcePixels.height
        let x0 = box.x * w / image.width, y0 = box.y * h / image.height
        let x1 = min(w, ((box.x + box.width) * w + image.width - 1) / image.width)
        let y1 = min(h, ((box.y + box.height) * h + image.height - 1) / image.height)
        return TrimProbe(decoded: decoded, scale: scale, sourceBox: PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
    }

    /// Decodes `input` shrunk on load by `scale`, for a place that needs `need` pixels (resized
    /// to `resizeTo` as it is decoded where the decoder can, and there is a second core), with
    /// `redactions` in the pixels of an upright picture of `redactionsSize`, applied by the
    /// decoder when its picture has that size (`DecodeOptions.redactions`).
    func decode(_ input: borrowing PictureInput, scale: (numerator: Int, denominator: Int), need: PixelSize,
                resizeTo: PixelSize? = nil, redactions: [Redaction] = [], redactionsSize: PixelSize = PixelSize(width: 0, height: 0),
                label: String) throws(FramingError)
        -> DecodedPicture {
        do {
            var decodeOptions = DecodeOptions(maxPixels: picture.maxPixels, scaleDenominator: scale.denominator)
            decodeOptions.scaleNumerator = scale.numerator
            decodeOptions.autoOrient = picture.autoOrient
            decodeOptions.intent = picture.renderingIntent
            decodeOptions.threads = threads
            (decodeOptions.neededWidth, decodeOptions.neededHeight) = (need.width, need.height)
            if let size = resizeTo { decodeOptions.resize = ResizeRequest(width: size.width, height: size.height, filter: picture.resample) }
            decodeOptions.redactions = redactions
            (decodeOptions.redactionsWidth, decodeOptions.redactionsHeight) = (redactionsSize.width, redactionsSize.height)
            return try Pictures.decode(input, options: decodeOptions)
        } catch { throw FramingError(picture: label, problem: .picture(error)) }
    }
}
