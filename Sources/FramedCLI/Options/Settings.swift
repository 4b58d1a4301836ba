import FramedLayout
import FramedRaster
import FramedRender

/// Everything one run of `framed` needs, after parsing.
struct Settings {
    var output: String?
    var format: OutputFormat?
    var style = Preset.classic.style
    var scale = 1.0
    var dpi: Double?
    var resample = ResamplingFilter.best
    var embed = EmbedMode.auto
    var quality = 90
    var lossless = false
    var autoOrient = true
    var intent = RenderingIntent.perceptual
    var flatten: RGBAColor?
    var maxPixels = 256_000_000
    /// Warn (or with `strict`, fail) when the placed picture has fewer pixels per inch.
    var minPPI: Double?
    var strict = false
    /// PNG: snap the frame's straight edges to whole device pixels.
    var snap = true

    // Batch, presets, config, pages and streams (issue 5).
    /// Every input given (files, folders, `-` for standard input), in order.
    var inputs: [String] = []
    /// The preset the look started from.
    var preset = Preset.classic
    /// `--page`: put the framed picture on a page of this size.
    var pageSize: PageSize?
    var orientation = PageOrientation.auto
    var bleed = Length.zero
    /// `--pages`: all inputs into one PDF, a page each.
    var pages = false
    var title: String?
    var author: String?
    /// Pictures framed at once (nil: one per core).
    var jobs: Int?
    var recursive = false
    var overwrite = false
    var quiet = false
    var failFast = false
    var dryRun = false
    var printConfig = false
    /// The config file read (`--config`), for messages.
    var config: String?
}

/// An option: how it shows in help and what its value does to the settings (flags get "").
struct Option: Sendable {
    var spec: OptionSpec
    var apply: @Sendable (inout Settings, String) throws(UsageError) -> Void
}

/// Parses `text` with a style parser, turning its error into a usage error naming the option.
func parse<T>(_ option: String, _ text: String, _ parser: (String) throws(StyleParseError) -> T) throws(UsageError) -> T {
    do { return try parser(text) } catch { throw UsageError("--\(option): \(error)") }
}

/// A positive, finite number no larger than `maximum`.
func number(_ option: String, _ text: String, maximum: Double) throws(UsageError) -> Double {
    guard let value = Double(trimmingSpaces(text)), value.isFinite, value > 0 else {
        throw UsageError("--\(option): \"\(text)\" is not a positive number")
    }
    guard value <= maximum else { throw UsageError("--\(option): \(text) is too large (at most \(Int(maximum)))") }
    return value
}

/// The text without the spaces and tabs around it: Unicode space separators and the tab, what
/// Foundation's `CharacterSet.whitespaces` trimmed (line breaks stay, and make a bad number).
func trimmingSpaces(_ text: String) -> String {
    let scalars = text.unicodeScalars
    let isSpace = { (scalar: Unicode.Scalar) in scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
          let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
    return String(scalars[first...last])
}

/// One of a fixed set of words.
func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ text: String, _: T.Type) throws(UsageError) -> T where T.RawValue == String {
    guard let value = T(rawValue: text.lowercased()) else {
        throw UsageError("--\(option): \"\(text)\" is not one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}

/// Every option of `framed`, in help order. Values apply in command-line order, after the preset.
let frameOptions: [Option] = generalOptions + lookOptions + outputOptions + pictureOptions + pageOptions + batchOptions
    + infoOptions
