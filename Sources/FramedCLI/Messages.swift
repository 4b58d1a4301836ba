import Framed

/// A file error: exit code 1. The message names the file and says what went wrong.
struct FileError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }
}

/// The library's errors in the command line's words: settings named as options (`--border`),
/// and each kind of problem sorted as a file problem (`FileError`, exit 1) or a usage problem
/// (`UsageError`, exit 2 when it is the only picture).
extension FramingError {
    /// This error for a picture called `input` (its path, or `standard input`), written to
    /// `output` when there is an output file.
    func commandLineError(input: String, output: String? = nil) -> any Error {
        let option = { (setting: String) in "--" + setting }
        switch problem {
        case let .picture(error): return FileError(path: input, reason: error.description)
        case let .layout(.textUnavailable(reason)):
            return FileError(path: input, reason: LayoutError.textUnavailable(reason: reason).description)
        case let .layout(error): return UsageError("\(input): \(error.message(naming: Self.optionWords))")
        case let .page(error): return UsageError("\(input): \(error.message(naming: option))")
        case let .canvas(error): return UsageError("\(input): \(error.message(naming: option))")
        case .transparencyInJPEG:
            return UsageError("\(input): a JPEG cannot hold the picture's transparency; add --flatten COLOR or use --embed png")
        case let .belowMinimumPPI(ppi, minimum):
            return FileError(path: input, reason: Self.belowMinimum(ppi: ppi, minimum: minimum) + " (--strict)")
        case let .unknownFormat(path):
            return UsageError("cannot tell the format of \"\(path)\"; end it in .svg, .pdf, .png, .jpg or .tif, or give --format")
        case let .outputExists(path): return FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        case let .outputIsPicture(path): return UsageError("the output \(path) is the input picture; it would be overwritten")
        case let .cannotWrite(path, reason): return FileError(path: path, reason: "cannot write: \(reason)")
        case let .render(error): return FileError(path: output ?? input, reason: error.description)
        case let .pdfVariantNeedsPDF(format):
            return UsageError("\(output ?? input): --pdf-variant makes a PDF, but the output is \(format.rawValue.uppercased()); "
                              + "write a .pdf or give --format pdf")
        case let .scalesNeedRaster(format): return Self.scalesNeedRaster(format)
        case let .scalesWithDPI(dpi): return Self.scalesWithDPI(dpi)
        case let .noVariant(preset, variant): return Self.noVariant(preset, variant)
        case let .outputIntentUnreadable(path, reason):
            return FileError(path: path, reason: "cannot read the --output-intent profile (\(reason))")
        case let .outputIntentInvalid(path, reason):
            return UsageError("--output-intent \(path): not a usable output intent: \(reason)")
        case let .proofNeedsPDF(format):
            return UsageError("\(output ?? input): --proof shows a PDF's pages as the press prints them, but the output is "
                              + "\(format.rawValue.uppercased()); write a .pdf or give --format pdf")
        case let .proofOverwrites(path):
            return UsageError("--proof \(path) would be written over the output or an input; give the proof another name")
        case let .sheet(error): return UsageError(error.message(naming: option))
        case let .sheetNeedsPDF(format):
            return UsageError("\(output ?? input): --sheet makes the pages of one PDF, but the output is "
                              + "\(format.rawValue.uppercased()); write a .pdf or give --format pdf")
        case let .withinSafeMargin(warning):
            return FileError(path: input, reason: warning.message(naming: option) + " (--strict)")
        case .canvasSizeWithPage:
            return UsageError("--canvas-size and --page both set the output's size; give one")
        case .twoBackdrops:
            return UsageError("--canvas-color auto and --canvas-image both paint the whole canvas; give one")
        case let .canvasImage(path, error): return FileError(path: path, reason: "--canvas-image: \(error)")
        case let .annotations(.unreadable(path, reason)): return FileError(path: path, reason: "--annotate: \(reason)")
        case let .annotations(.invalid(_, error)) where error.textUnavailable: return FileError(path: input, reason: "--annotate: \(error)")
        case let .annotations(.invalid(path?, error)): return UsageError("\(input): --annotate \(path): \(error)")
        case let .annotations(.invalid(nil, error)): return UsageError("\(input): --annotate: \(error)")
        case let .annotations(problem): return UsageError("\(input): --annotate: \(problem)")
        }
    }

    /// Several scales for a vector output (the planner finds it first, the library too).
    static func scalesNeedRaster(_ format: OutputFormat) -> UsageError {
        UsageError("--scale with several values writes PNG, JPEG or TIFF; \(format.rawValue.uppercased()) is vector "
                   + "and one file serves every scale: give one --scale")
    }

    /// Several scales with a resolution that decides the pixels.
    static func scalesWithDPI(_ dpi: Double) -> UsageError {
        UsageError("--scale with several values and --dpi \(dpi == dpi.rounded() ? String(Int(dpi)) : String(dpi)) "
                   + "would make the same file each time (--dpi decides the pixels); drop --dpi")
    }

    /// A variant the preset has no twin for.
    static func noVariant(_ preset: Preset, _ variant: Variant) -> UsageError {
        UsageError("--variant \(variant.rawValue): the preset \(preset.rawValue) has no \(variant.rawValue) twin "
                   + "(docs has: docs-dark)")
    }

    /// How the command line names a length of the style: the option that sets it (`--border`,
    /// `--padding top`), or for a shadow's lengths, the part (`shadow blur`).
    static func optionWords(_ field: StyleField) -> String {
        switch field {
        case let .size(axis): return "--size \(axis.rawValue)"
        case .width: return "--width"
        case .height: return "--height"
        case .border: return "--border"
        case let .padding(edge): return "--padding \(edge.rawValue)"
        case .radius: return "--radius"
        case .margin: return "--margin"
        case .innerBorderWidth: return "--inner-border width"
        case let .canvasSize(axis): return "--canvas-size \(axis.rawValue)"
        case .canvasBlur: return "--canvas-blur"
        case let .shadow(_, part):
            switch part {
            case .offsetX: return "shadow x offset"
            case .offsetY: return "shadow y offset"
            case .blur: return "shadow blur"
            case .spread: return "shadow spread"
            }
        }
    }

    /// The `--min-ppi` warning's words.
    static func belowMinimum(ppi: Double, minimum: Double) -> String {
        "the picture is placed at \(Int(ppi.rounded(.down))) pixels per inch, below --min-ppi "
            + (minimum == minimum.rounded() ? String(Int(minimum)) : String(minimum))
    }
}

extension FramingWarning {
    /// The warning in the command line's words.
    var commandLineText: String {
        switch self {
        case .decoder, .color, .caption: return description
        case let .belowMinimumPPI(ppi, minimum): return FramingError.belowMinimum(ppi: ppi, minimum: minimum)
        case let .captionContrast(_, _, automatic):
            return description + (automatic ? "; give a plainer --canvas-color or --background under it, or a --caption-color"
                                            : "; choose another --caption-color, or auto")
        case let .safeMargin(warning): return warning.message(naming: { "--" + $0 })
        case .backgroundCovered:
            return "--background does not show: the picture covers the whole mat; to paint around the frame "
                + "use --canvas-color (or --backdrop), or give --padding to show the mat"
        case let .annotationCutOff(warning): return "--annotate: \(warning)"
        case .canvasBlurWithoutImage:
            return "--canvas-blur changes nothing: it blurs the --canvas-image, and there is none"
        case let .fewerPixels(scale, needed, available):
            return "--scale \(FramingWarning.number(scale)): the picture needs \(needed) pixels but has \(available); "
                + "that file is enlarged, no sharper than a smaller scale"
        }
    }
}
