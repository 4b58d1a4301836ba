/// Why a picture could not be framed: the picture, and the problem, by the stage that found it.
public struct FramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The picture: its path, or `picture in memory` for bytes.
    public var picture: String
    /// What went wrong.
    public var problem: Problem

    /// An error about `picture`.
    public init(picture: String, problem: Problem) {
        self.picture = picture
        self.problem = problem
    }

    /// What went wrong, by stage.
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// The picture could not be read or decoded (missing, not a picture, corrupt, too large).
        case picture(RasterError)
        /// The style cannot frame this picture (a length out of range, no room for the picture).
        case layout(LayoutError)
        /// The framed picture does not fit the page.
        case page(PageError)
        /// The output would be larger than can be rendered (checked before decoding).
        case canvas(RenderError)
        /// JPEG embedding was asked for a picture with transparency, and no colour to flatten it on.
        case transparencyInJPEG
        /// The picture is placed at fewer pixels per inch than `PictureOptions.minimumPPI`, and
        /// `failBelowMinimumPPI` is set.
        case belowMinimumPPI(ppi: Double, minimum: Double)
        /// The output's format cannot be told from its name (and `OutputOptions.format` is nil).
        case unknownFormat(output: String)
        /// The output exists, and was not to be replaced.
        case outputExists(String)
        /// The output is the picture itself: writing it would destroy the picture.
        case outputIsPicture(String)
        /// The output could not be written: its path and the system's reason.
        case cannotWrite(output: String, reason: String)
        /// Drawing or encoding failed.
        case render(RenderError)
        /// A PDF/X variant was asked for an output of another format than PDF.
        case pdfVariantNeedsPDF(OutputFormat)
        /// Several scales were asked for an SVG or PDF output: a vector file serves every scale,
        /// so a set of them would be the same file several times.
        case scalesNeedRaster(OutputFormat)
        /// Several scales with a resolution set (`OutputOptions.dpi`): the resolution decides the
        /// pixels, so every file of the set would be the same.
        case scalesWithDPI(Double)
        /// A variant was asked of a preset that has no such twin (`Preset.twin(_:)`).
        case noVariant(Preset, Variant)
        /// The output intent's ICC profile file could not be read: its path and the system's reason.
        case outputIntentUnreadable(path: String, reason: String)
        /// The output intent's file is no ICC profile that can be an output intent: its path and why.
        case outputIntentInvalid(path: String, reason: String)
        /// A soft proof was asked for an output of another format than PDF.
        case proofNeedsPDF(OutputFormat)
        /// The soft proof would be written over the output, or over the picture: the path.
        case proofOverwrites(String)
        /// The prints cannot be ganged on the sheet (`PageOptions.sheet`).
        case sheet(SheetError)
        /// Sheets were asked for an output of another format than PDF.
        case sheetNeedsPDF(OutputFormat)
        /// A border, inner border or caption lies within the page's safe margin, and
        /// `PageOptions.failWithinSafeMargin` is set.
        case withinSafeMargin(SafeMarginWarning)
        /// A canvas size and a page were both asked for: each sets the output's size.
        case canvasSizeWithPage
        /// `canvasAuto` and a `canvasImage` were both asked for: each paints the whole canvas.
        case twoBackdrops
        /// The canvas image could not be read or decoded: its path and why.
        case canvasImage(path: String, error: RasterError)
        /// The annotations cannot be read, or one is wrong or lies outside the picture.
        case annotations(AnnotationProblem)

        /// One line, in the library's words (settings are named as `Framer.set` names them).
        public var description: String {
            switch self {
            case let .picture(error): return error.description
            case let .layout(error): return error.description
            case let .page(error): return error.description
            case let .canvas(error): return error.description
            case .transparencyInJPEG:
                return "a JPEG cannot hold the picture's transparency; set flatten to a colour or embed as png"
            case let .belowMinimumPPI(ppi, minimum):
                return "the picture is placed at \(Int(ppi.rounded(.down))) pixels per inch, below the minimum of "
                    + (minimum == minimum.rounded() ? String(Int(minimum)) : String(minimum))
            case let .unknownFormat(output):
                return "cannot tell the format of \"\(output)\"; end it in .svg, .pdf, .png, .jpg or .tif, or set the format"
            case let .outputExists(output): return "\(output) exists"
            case let .outputIsPicture(output): return "the output \(output) is the picture itself; it would be overwritten"
            case let .cannotWrite(output, reason): return "\(output): cannot write: \(reason)"
            case let .render(error): return error.description
            case let .pdfVariantNeedsPDF(format):
                return "a PDF/X variant needs a PDF output, not \(format.rawValue.uppercased()); set the format to pdf or drop pdf-variant"
            case let .scalesNeedRaster(format):
                return "several scales make one file each for PNG, JPEG or TIFF; \(format.rawValue.uppercased()) is vector "
                    + "and one file serves every scale: give one scale"
            case let .noVariant(preset, variant):
                return "the preset \(preset.rawValue) has no \(variant.rawValue) variant (docs has: docs-dark)"
            case let .scalesWithDPI(dpi):
                return "several scales with dpi \(dpi == dpi.rounded() ? String(Int(dpi)) : String(dpi)) would make "
                    + "the same file each time (the dpi decides the pixels); drop the dpi"
            case let .outputIntentUnreadable(path, reason): return "cannot read the output intent \(path) (\(reason))"
            case let .outputIntentInvalid(path, reason): return "the output intent \(path) cannot be used: \(reason)"
            case let .proofNeedsPDF(format):
                return "a soft proof shows a PDF's pages as the press prints them, not \(format.rawValue.uppercased()); "
                    + "set the format to pdf or drop proof"
            case let .proofOverwrites(path):
                return "the soft proof \(path) would be written over the output or the picture; give the proof another name"
            case let .sheet(error): return error.description
            case let .sheetNeedsPDF(format):
                return "sheets are the pages of one PDF, not \(format.rawValue.uppercased()); set the format to pdf or drop sheet"
            case let .withinSafeMargin(warning): return warning.description
            case .canvasSizeWithPage:
                return "canvas-size and page both set the output's size; give one"
            case .twoBackdrops:
                return "canvas-color auto and canvas-image both paint the whole canvas; give one"
            case let .canvasImage(path, error): return "the canvas image \(path): \(error)"
            case let .annotations(problem): return problem.description
            }
        }
    }

    /// `picture: problem`.
    public var description: String { "\(picture): \(problem)" }
}

/// Something a framed picture's reader should know, though the picture was framed.
public enum FramingWarning: Equatable, Sendable, CustomStringConvertible {
    /// The decoder's warnings, summed up in one line (a truncated JPEG decodes, with warnings).
    case decoder(String)
    /// Colour management's warning: a profile ignored, CMYK converted without a profile.
    case color(String)
    /// The picture is placed at fewer pixels per inch than `PictureOptions.minimumPPI`.
    case belowMinimumPPI(ppi: Double, minimum: Double)
    /// The caption's font is not installed (the line names it and the one used instead), or
    /// its text has characters no installed font has.
    case caption(String)
    /// The caption is hard to read on what lies under it: the colour the style gives has less
    /// than `Caption.warningContrast` with it (`automatic` false), or no grey reaches
    /// `Caption.minimumContrast` and `color` is the best one (`automatic` true). `contrast` is
    /// the lowest WCAG 2 contrast ratio under the text's box.
    case captionContrast(color: RGBAColor, contrast: Double, automatic: Bool)
    /// A border, inner border or caption lies within the page's safe margin, where a cut a
    /// little off the trim can take it.
    case safeMargin(SafeMarginWarning)
    /// A background was set, but the picture covers the whole mat, so it shows nowhere: the
    /// paint around the frame is the canvas colour (`canvas-color`, also called `backdrop`).
    case backgroundCovered
    /// A canvas blur was given without a canvas image: there is nothing to blur, and it
    /// changes nothing.
    case canvasBlurWithoutImage
    /// A member of a set of scales needs more pixels than the picture has (`needed` at `scale`;
    /// `available` is what it has): that file is enlarged, no sharper than a smaller scale.
    case fewerPixels(scale: Double, needed: PixelSize, available: PixelSize)
    /// An annotation lies partly or wholly where the picture is cropped away (`fit` `cover` or
    /// `none`): it is drawn cut off.
    case annotationCutOff(AnnotationWarning)

    /// One line.
    public var description: String {
        switch self {
        case let .decoder(text), let .color(text), let .caption(text): return text
        case let .belowMinimumPPI(ppi, minimum):
            return FramingError.Problem.belowMinimumPPI(ppi: ppi, minimum: minimum).description
        case let .captionContrast(color, contrast, automatic):
            return Self.contrastText(color: color, contrast: contrast, automatic: automatic)
        case let .safeMargin(warning): return warning.description
        case .backgroundCovered:
            return "the background does not show: the picture covers the whole mat; the paint around the frame is "
                + "canvas-color (also called backdrop)"
        case .canvasBlurWithoutImage:
            return "canvas-blur changes nothing: it blurs the canvas-image, and there is none"
        case let .fewerPixels(scale, needed, available):
            return "at scale \(Self.number(scale)) the picture needs \(needed) pixels but has \(available): "
                + "that file is enlarged, no sharper than a smaller scale"
        case let .annotationCutOff(warning): return warning.description
        }
    }

    /// A scale as written: `2`, `1.5`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// The contrast warning's words, without a remedy (each caller names its own setting).
    static func contrastText(color: RGBAColor, contrast: Double, automatic: Bool) -> String {
        let tenths = Int((contrast * 10).rounded(.down))
        let ratio = "\(tenths / 10).\(tenths % 10):1"
        return automatic
            ? "no grey reads on everything under the caption at 4.5:1 (WCAG AA): drawn in \(color) at \(ratio)"
            : "the caption's colour \(color) stands out from what lies under it at only \(ratio) "
                + "(text needs 4.5:1 for WCAG AA, 3:1 at the least)"
    }
}

extension FramePlan {
    /// The warning the caption's contrast calls for, if any: a colour the style gives under
    /// `Caption.warningContrast`, or an automatic one that falls short of `Caption.minimumContrast`.
    var captionContrastWarnings: [FramingWarning] {
        guard let caption = layout.caption, !style.caption.text.isEmpty else { return [] }
        let automatic = style.caption.color == nil
        let floor = automatic ? Caption.minimumContrast : Caption.warningContrast
        guard caption.contrast < floor else { return [] }
        return [.captionContrast(color: caption.color, contrast: caption.contrast, automatic: automatic)]
    }
}
