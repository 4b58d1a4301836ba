import FramedSystem

/// The stages after planning: shrink-on-load decode → colour and orientation → flatten →
/// resample to the pixels needed → embed (JPEG passed through, re-encoded, or lossless) →
/// render. The picture comes from a `PictureSource`, opened once per call (`PictureInput`): a
/// JPEG or PNG file is read a chunk at a time while it is decoded, and read whole only when a
/// JPEG is embedded byte for byte; a pipe is read whole when opened.
extension Framer {
    /// Decodes, orients, converts, resamples and encodes the picture for its place: everything
    /// but drawing. Pure: the same bytes and settings give the same result on any thread. A
    /// picture placed below `PictureOptions.minimumPPI` gets a warning here (never an error: the
    /// caller decides, with the report in hand).
    package func prepare(_ source: PictureSource, label: String, format: OutputFormat) throws(FramingError) -> PreparedPicture {
        // A file of annotations is read first; the settings then hold its list (once: a Framer
        // holding a NaN is not equal to itself, so equality cannot say when to stop).
        if annotationsAreAFile { return try resolvingAnnotations(for: source, label: label).prepare(source, label: label, format: format) }
        let input = try open(source, label: label)
        let (plan, document, probe) = try planned(input, label: label, format: format)
        if let document { return try prepared(document, plan: plan, format: format, label: label) }
        let canvasImage = CanvasImageDecode(self, plan: plan, format: format)
        let decoded = try decoded(input, plan: plan, probe: probe, resize: true, label: label)
        return try finished(decoded, input: input, plan: plan, format: format, label: label, canvasImage: canvasImage)
    }

    /// The picture decoded (shrunk on load, or taken from the trimming probe) for `plan`, and
    /// cropped to its trimmed box: the one decode of a picture, however many outputs it makes.
    /// With `resize`, a decoder may resize it to `plan.rasterPixels` as it decodes. Redactions
    /// are applied here, to the picture's own pixels: then nothing made from the picture (its
    /// resampled pixels, the canvas made of it, the JPEG embedded) holds a trace of what they
    /// hide. So a picture with redactions is decoded whole, at its own size (a JPEG's reduced
    /// decode and a resampler mix each pixel with its neighbours, inside the region too); a
    /// decoder that resizes while it decodes redacts each row before its resize reads it.
    func decoded(_ input: borrowing PictureInput, plan: FramePlan, probe: TrimProbe?, resize: Bool, label: String)
        throws(FramingError) -> DecodedPicture {
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: label, problem: problem) }
        let info = plan.info, need = plan.rasterPixels
        // Trimmed: the whole picture is decoded at the scale that gives the kept box its pixels.
        let whole = plan.sourcePixels
        var needWhole = need
        if let box = plan.trim {
            needWhole = PixelSize(width: (need.width * whole.width + box.width - 1) / box.width,
                                  height: (need.height * whole.height + box.height - 1) / box.height)
        }
        let redactions = plan.annotations.redactions
        if !redactions.isEmpty { needWhole = whole }
        let scale = redactions.isEmpty ? DecodeOptions.shrinkOnLoadScale(source: (whole.width, whole.height),
                                                                         need: (needWhole.width, needWhole.height))
            : (numerator: 1, denominator: 1)

        var decoded: DecodedPicture
        if let probe, probe.scale.numerator * scale.denominator >= scale.numerator * probe.scale.denominator {
            // The picture decoded to find the edges has the pixels needed: no second decode.
            decoded = probe.decoded
        } else {
            // Resized as it is decoded (on a second core), unless a picture that may have alpha
            // is flattened first, or the picture is cropped first.
            let resize = resize && threads > 1 && (picture.flatten == nil || info.hasAlpha == false) && plan.trim == nil
            let redactedByDecoder = resize && !redactions.isEmpty
                ? Self.redactions(redactions, width: whole.width, height: whole.height, picture: plan.layout.picturePixels) : []
            decoded = try decode(input, scale: scale, need: needWhole, resizeTo: resize ? need : nil,
                                 redactions: redactedByDecoder, redactionsSize: whole, label: label)
        }
        if let box = plan.trim {
            // The kept box in the decoded picture's pixels, rounded outwards.
            let dw = decoded.image.width, dh = decoded.image.height
            let x0 = box.x * dw / whole.width, y0 = box.y * dh / whole.height
            let x1 = max(x0 + 1, min(dw, ((box.x + box.width) * dw + whole.width - 1) / whole.width))
            let y1 = max(y0 + 1, min(dh, ((box.y + box.height) * dh + whole.height - 1) / whole.height))
            guard Memory.available((x1 - x0) * (y1 - y0) * 4) else { throw fail(.picture(.outOfMemory)) }
            decoded.image = decoded.image.cropped(to: PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
        if !redactions.isEmpty && !decoded.redacted {
            guard Memory.available(decoded.image.pixels.count) else { throw fail(.picture(.outOfMemory)) }
            decoded.image.redact(Self.redactions(redactions, width: decoded.image.width, height: decoded.image.height,
                                                 picture: plan.layout.picturePixels))
        }
        return decoded
    }

    /// Placed redactions (in the picture's pixels, `picture` of them) in the pixels of the
    /// picture as decoded, `width` x `height`: each region rounded outwards to whole pixels, a
    /// pixelation's blocks and a blur's sigma scaled alike.
    static func redactions(_ placed: [PlacedRedaction], width: Int, height: Int, picture: PixelSize) -> [Redaction] {
        let fx = Double(width) / Double(picture.width), fy = Double(height) / Double(picture.height)
        return placed.map { redaction in
            let r = redaction.region
            let x0 = max(0, Int((r.minX * fx + 1e-9).rounded(.down))), y0 = max(0, Int((r.minY * fy + 1e-9).rounded(.down)))
            let x1 = min(width, Int((r.maxX * fx - 1e-9).rounded(.up)))
            let y1 = min(height, Int((r.maxY * fy - 1e-9).rounded(.up)))
            let box = PixelBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
            switch redaction.kind {
            case .pixelate: return Redaction(box: box, method: .pixelate(width: redaction.block * fx, height: redaction.block * fy))
            case .blur: return Redaction(box: box, method: .blur(sigma: redaction.sigma * (fx + fy) / 2))
            default:
                let c = redaction.color.rgb8
                return Redaction(box: box, method: .solid(r: c.r, g: c.g, b: c.b))
            }
        }
    }

    /// The decoded picture made ready for `plan`'s place: flattened, resampled to
    /// `plan.rasterPixels`, and for SVG and PDF encoded for embedding. `decoded` is only read,
    /// so that one decode can serve several plans (a set of scales). `canvasImage` is the
    /// canvas image's decode begun with the picture's, if it was.
    func finished(_ decoded: DecodedPicture, input: borrowing PictureInput, plan: FramePlan, format: OutputFormat,
                  label: String, canvasImage: CanvasImageDecode? = nil) throws(FramingError) -> PreparedPicture {
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: label, problem: problem) }
        let info = plan.info, need = plan.rasterPixels
        var warnings = decoded.warningSummary.map { [FramingWarning.decoder($0)] } ?? []
        warnings += decoded.colorWarnings.map(FramingWarning.color)
        warnings += plan.warnings
        // A covered background on a picture that may have transparent pixels: it hides the
        // mat only if none is.
        if plan.backgroundCovered && info.hasAlpha != false && decoded.image.isOpaque {
            warnings.append(.backgroundCovered)
        }

        var image = decoded.image
        // Flattening copies the picture, resampling makes one of the size needed: memory first.
        if let flatten = picture.flatten, image.hasAlpha {
            guard Memory.available(image.pixels.count) else { throw fail(.picture(.outOfMemory)) }
            image = image.flattened(onto: flatten.rgb8)
        }
        let resampled = decoded.resampled || image.width != need.width || image.height != need.height
        if resampled && !decoded.resampled {
            guard Memory.available(need.width * need.height * 4) else { throw fail(.picture(.outOfMemory)) }
        }
        let unresampled = image
        image = Resampler.resize(image, width: need.width, height: need.height, filter: picture.resample, threads: threads)
        // The canvas's paint from the picture: its edge colours, or the picture itself behind it.
        var plan = Self.resolvingAutoBackdrop(plan, image: image)
        let backdrop = try canvasPicture(plan, format: format, itself: unresampled, started: canvasImage)
        paintCaption(&plan, backdrop: backdrop)

        // How the picture goes into the file.
        var embedding = Embedding.raster
        var jpeg: [UInt8]?
        if !format.isRaster {
            // A JPEG the decoder warned about (cut short, damaged, no end marker and whatever
            // follows) is not passed through: what it holds past its picture, and how viewers
            // show its damage, are unknown; its decoded pixels are.
            let untouched = info.format == .jpeg && decoded.scaleNumerator == decoded.scaleDenominator && !resampled
                && plan.trim == nil && decoded.warningCount == 0 && plan.annotations.redactions.isEmpty
                && !decoded.colorConverted && plan.orientation == .up
            if output.embed == .jpeg && image.hasAlpha { throw fail(.transparencyInJPEG) }
            if untouched && output.embed != .png && !output.lossless {
                do { jpeg = try input.jpegContents() } catch { throw fail(.picture(error)) }
                embedding = .passthroughJPEG
            } else if output.embed == .jpeg
                        || (output.embed == .auto && !image.hasAlpha && !output.lossless && !info.format.isLossless) {
                do {
                    jpeg = try PictureEncoder.jpeg(image, quality: output.quality, grayscale: image.isGrayscale,
                                                  threads: threads)
                } catch { throw fail(.picture(error)) }
                embedding = .jpeg(quality: output.quality)
            } else {
                embedding = .lossless
            }
        }
        if let minimum = picture.minimumPPI, plan.effectivePPI < minimum - 1e-9 {
            warnings.append(.belowMinimumPPI(ppi: plan.effectivePPI, minimum: minimum))
        }
        warnings += CaptionCheck.warnings(plan.style.caption).map(FramingWarning.caption)
        warnings += plan.captionContrastWarnings
        warnings += plan.safeMarginWarnings.map(FramingWarning.safeMargin)

        let report = PictureReport(sourcePixels: plan.sourcePixels, scaleNumerator: decoded.scaleNumerator,
                                   scaleDenominator: decoded.scaleDenominator, embeddedPixels: plan.rasterPixels,
                                   effectivePPI: plan.effectivePPI, embedding: embedding, warnings: warnings)
        return PreparedPicture(picture: .raster(EmbeddedPicture(image: image, jpeg: jpeg)), plan: plan, report: report,
                               backdrop: backdrop)
    }

    /// An SVG ready to draw: nothing to decode or resample; librsvg draws it at the output's
    /// resolution. The addresses it names but librsvg will not load are a warning. The canvas's
    /// paint from the picture reads it drawn as pixels.
    func prepared(_ document: SVGDocument, plan: FramePlan, format: OutputFormat, label: String) throws(FramingError)
        -> PreparedPicture {
        var plan = plan
        var itself: RasterImage?
        if plan.style.canvasAuto || plan.style.canvasImage == FrameStyle.pictureItself {
            // At the size the canvas image covers with it (at most its own size in CSS px for
            // the edge colours alone).
            let own = plan.sourcePixels
            let size = plan.style.canvasImage == FrameStyle.pictureItself
                ? CanvasImageGeometry.cover(image: own, area: Self.canvasImagePixels(plan).pixels).scaled
                : PixelSize(width: min(own.width, 512), height: min(own.height, 512))
            do { itself = try document.rasterised(size) } catch {
                throw FramingError(picture: label, problem: .render(error))
            }
            plan = Self.resolvingAutoBackdrop(plan, image: itself!)
        }
        let backdrop = try canvasPicture(plan, format: format, itself: itself)
        paintCaption(&plan, backdrop: backdrop)
        var warnings: [FramingWarning] = plan.warnings
        if picture.trim != nil { warnings.append(.decoder("SVG: not trimmed (trim applies to pixels; a vector picture is drawn whole)")) }
        let check = document.check
        for note in check.notes { warnings.append(.decoder("SVG: " + note)) }
        if check.externalCount > 0 {
            let more = check.externalCount > check.external.count ? " and \(check.externalCount - check.external.count) more" : ""
            warnings.append(.decoder("SVG: not loaded (framed loads nothing outside the file): "
                                     + check.external.joined(separator: ", ") + more))
        }
        warnings += CaptionCheck.warnings(plan.style.caption).map(FramingWarning.caption)
        warnings += plan.captionContrastWarnings
        warnings += plan.safeMarginWarnings.map(FramingWarning.safeMargin)
        let report = PictureReport(sourcePixels: plan.sourcePixels, scaleNumerator: 1, scaleDenominator: 1,
                                   embeddedPixels: plan.rasterPixels, effectivePPI: plan.effectivePPI,
                                   embedding: format.isRaster ? .raster : .vector, warnings: warnings)
        return PreparedPicture(picture: .vector(VectorPicture(document: document, background: picture.flatten)),
                               plan: plan, report: report, backdrop: backdrop)
    }

    /// The caption's colour decided again once the canvas's paint from the picture is known: the
    /// gradient of `canvas-color auto`, and the canvas image's pixels under the lines.
    func paintCaption(_ plan: inout FramePlan, backdrop: CanvasPicture?) {
        guard plan.layout.caption != nil, plan.style.canvasAuto || backdrop != nil else { return }
        var image: ((Point) -> RGBAColor)?
        if let backdrop {
            let pixels = backdrop.picture.image, area = backdrop.area
            image = { point in
                let x = Int((point.x - area.minX) / area.width * Double(pixels.width))
                let y = Int((point.y - area.minY) / area.height * Double(pixels.height))
                let p = pixels.pixel(x: min(max(x, 0), pixels.width - 1), y: min(max(y, 0), pixels.height - 1))
                return RGBAColor(red8: p.r, green8: p.g, blue8: p.b, alpha: Double(p.a) / 255)
            }
        }
        plan.layout.paintCaption(style: plan.style, pageColor: captionPageColor, canvasImage: image)
    }

    /// The picture framed in memory as a file of `format` (with `page.sheet`, a PDF of one
    /// sheet).
    package func framed(_ source: PictureSource, label: String, format: OutputFormat) throws(FramingError) -> FramedPicture {
        if page.sheet != nil {
            guard format == .pdf else { throw FramingError(picture: label, problem: .sheetNeedsPDF(format)) }
            let plan = try sheetPlan([source]).prints[0]
            let (pdf, reports, proofs) = try framedSheets([source])
            return FramedPicture(bytes: pdf, plan: plan, report: reports[0], proof: proofs.first)
        }
        return try rendered(prepare(source, label: label, format: format), source: source, label: label, format: format)
    }

    /// A prepared picture drawn as a file of `format` with these settings' render options.
    func rendered(_ prepared: PreparedPicture, source: PictureSource, label: String,
                  format: OutputFormat) throws(FramingError) -> FramedPicture {
        let options = try renderOptions(format, printing: [source])
        let bytes: [UInt8]
        do { bytes = try FrameRenderer.render(prepared.renderPage, options: options) } catch {
            throw FramingError(picture: label, problem: .render(error))
        }
        var framed = FramedPicture(bytes: bytes, plan: prepared.plan, report: prepared.report)
        if output.proof != nil && format == .pdf {
            let page = try proofs([OutputPage(prepared.renderPage)], options: options, label: label)[0]
            framed.proof = page.png
            framed.report.outOfGamut = page.gamut.first.map(Self.share)
        }
        return framed
    }

    /// The soft proof of each page (`FrameRenderer.proof`), through the output intent's profile
    /// that `options` carry (none: sRGB), painting `output.gamutWarning` where the press falls
    /// short.
    func proofs(_ pages: [OutputPage], options: RenderOptions, label: String) throws(FramingError) -> [ProofPage] {
        do {
            return try FrameRenderer.proof(pages, options: options,
                                           proof: ProofOptions(profile: options.print.intent, warning: output.gamutWarning))
        } catch {
            throw FramingError(picture: label, problem: .render(error))
        }
    }

    /// A count of pixels out of gamut as a share from 0 to 1 (0 for a picture with no pixels).
    static func share(_ count: (pixels: Int, outOfGamut: Int)) -> Double {
        count.pixels == 0 ? 0 : Double(count.outOfGamut) / Double(count.pixels)
    }

    /// The picture framed in memory once per member of a set, in their order (an empty list:
    /// the settings as they are), from one read and one decode (`Framer.frame(_:set:)`).
    package func framedSet(_ source: PictureSource, label: String, format: OutputFormat, members: [SetMember])
        throws(FramingError) -> [FramedPicture] {
        if annotationsAreAFile {
            return try resolvingAnnotations(for: source, label: label).framedSet(source, label: label, format: format, members: members)
        }
        let input = try open(source, label: label)
        let set = try plannedSet(input, label: label, format: format, members: members)
        // One decode, for the plan that needs the most pixels (the largest scale, unless a dpi
        // makes them all alike), not resized on the way: each output resamples its own.
        var decoded: DecodedPicture?
        if set.document == nil {
            let plans = set.plans
            let most = plans.indices.max { a, b in
                plans[a].rasterPixels.width * plans[a].rasterPixels.height
                    < plans[b].rasterPixels.width * plans[b].rasterPixels.height
            }!
            decoded = try set.framers[most].decoded(input, plan: plans[most], probe: set.probe, resize: false, label: label)
        }
        var framed: [FramedPicture] = []
        for (framer, plan) in zip(set.framers, set.plans) {
            let prepared: PreparedPicture
            if let document = set.document {
                prepared = try framer.prepared(document, plan: plan, format: format, label: label)
            } else {
                prepared = try framer.finished(decoded!, input: input, plan: plan, format: format, label: label)
            }
            framed.append(try framer.rendered(prepared, source: source, label: label, format: format))
        }
        return framed
    }

    /// The plans of a set's members, as `plannedSet` makes them (what `framed layout` prints).
    package func setPlans(_ input: borrowing PictureInput, label: String, format: OutputFormat, members: [SetMember])
        throws(FramingError) -> [FramePlan] {
        try plannedSet(input, label: label, format: format, members: members).plans
    }

    /// Each member of a set planned from one read of the header (an empty list: the settings as
    /// they are): the members' settings, their plans in order, and what the largest scale's plan
    /// read (an SVG's document, the trimming probe), which the others reuse. In a set of several
    /// scales, a member whose picture has fewer pixels than it needs gets a warning.
    func plannedSet(_ input: borrowing PictureInput, label: String, format: OutputFormat, members: [SetMember])
        throws(FramingError) -> (framers: [Framer], plans: [FramePlan], document: SVGDocument?, probe: TrimProbe?) {
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: label, problem: problem) }
        let members = members.isEmpty ? [SetMember(scale: output.scale)] : members
        let severalScales = Set(members.map(\.scale)).count > 1
        if severalScales {
            guard format.isRaster else { throw fail(.scalesNeedRaster(format)) }
            if let dpi = output.dpi { throw fail(.scalesWithDPI(dpi)) }
        }
        var framers: [Framer] = []
        for member in members {
            guard let framer = self.member(member) else { throw fail(.noVariant(preset, member.variant!)) }
            framers.append(framer)
        }
        let scales = members.map(\.scale)
        // The largest scale is planned first: where trimming is asked for, the edges are found
        // on its pixels, and the other plans take that box (and an SVG's document) from it.
        let largest = scales.indices.max { scales[$0] < scales[$1] }!
        let first = try framers[largest].planned(input, label: label, format: format)
        var plans: [FramePlan] = []
        for index in scales.indices {
            var plan = index == largest ? first.plan
                : try framers[index].planned(input, label: label, format: format, reusing: first).plan
            if severalScales && first.document == nil {
                let need = PixelSize(width: Self.devicePixels(plan.layout.picture.width, dpi: plan.dpi),
                                     height: Self.devicePixels(plan.layout.picture.height, dpi: plan.dpi))
                let has = plan.layout.picturePixels
                if need.width > has.width || need.height > has.height {
                    plan.warnings.append(.fewerPixels(scale: scales[index], needed: need, available: has))
                }
            }
            plans.append(plan)
        }
        return (framers, plans, first.document, first.probe)
    }

    /// Prepared pictures as one PDF, a page each (a picture that repeats is stored once).
    /// `label` names the document in errors; `sources` (the pictures, in order) name it in a
    /// PDF/X-4 without a title.
    package func document(_ pages: [PreparedPicture], label: String, sources: [PictureSource] = []) throws(FramingError) -> [UInt8] {
        try document(pages.map { OutputPage($0.renderPage) }, label: label, sources: sources, proofs: false).pdf
    }

    /// Pages as one PDF and, with `proofs` and `output.proof`, each page's soft proof.
    package func document(_ pages: [OutputPage], label: String, sources: [PictureSource] = [], proofs: Bool)
        throws(FramingError) -> (pdf: [UInt8], proofs: [ProofPage]) {
        let options = try renderOptions(.pdf, printing: sources)
        let pdf: [UInt8]
        do { pdf = try FrameRenderer.render(document: pages, options: options) } catch {
            throw FramingError(picture: label, problem: .render(error))
        }
        guard proofs && output.proof != nil else { return (pdf, []) }
        return (pdf, try self.proofs(pages, options: options, label: label))
    }
}

