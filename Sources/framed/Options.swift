import Foundation
import FramedLayout
import FramedRaster
import FramedRender

/// Everything one run of `framed` needs, after parsing.
struct Settings {
    var input: String?
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
}

/// An option: how it shows in help and what its value does to the settings (flags get "").
struct Option: Sendable {
    var spec: OptionSpec
    var apply: @Sendable (inout Settings, String) throws(UsageError) -> Void
}

/// Parses `text` with a style parser, turning its error into a usage error naming the option.
private func parse<T>(_ option: String, _ text: String, _ parser: (String) throws(StyleParseError) -> T) throws(UsageError) -> T {
    do { return try parser(text) } catch { throw UsageError("--\(option): \(error)") }
}

/// A positive, finite number no larger than `maximum`.
private func number(_ option: String, _ text: String, maximum: Double) throws(UsageError) -> Double {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
        throw UsageError("--\(option): \"\(text)\" is not a positive number")
    }
    guard value <= maximum else { throw UsageError("--\(option): \(text) is too large (at most \(Int(maximum)))") }
    return value
}

/// One of a fixed set of words.
private func choice<T: RawRepresentable & CaseIterable>(_ option: String, _ text: String, _: T.Type) throws(UsageError) -> T where T.RawValue == String {
    guard let value = T(rawValue: text.lowercased()) else {
        throw UsageError("--\(option): \"\(text)\" is not one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}

/// Every option of `framed`, in help order. Values apply in command-line order, after the preset.
let frameOptions: [Option] = [
    Option(spec: OptionSpec(name: "output", short: "o", valueName: "FILE",
                            help: "output file; its extension (.svg, .pdf, .png) picks the format")) { s, v throws(UsageError) in
        s.output = v
    },
    Option(spec: OptionSpec(name: "format", valueName: "FORMAT", help: "svg, pdf or png, whatever the output's extension")) { s, v throws(UsageError) in
        s.format = try choice("format", v, OutputFormat.self)
    },
    Option(spec: OptionSpec(name: "preset", valueName: "NAME",
                            help: "starting look: " + Preset.allCases.map(\.rawValue).joined(separator: ", "),
                            defaultText: "classic")) { _, _ throws(UsageError) in },
    Option(spec: OptionSpec(name: "size", valueName: "WxH",
                            help: "outer size of the frame, e.g. 600x400, 150mmx100mm, 6inx4in",
                            defaultText: "the picture's size plus border and padding")) { s, v throws(UsageError) in
        s.style.size = try parse("size", v, LengthSize.init(parsing:)); s.style.width = nil; s.style.height = nil
    },
    Option(spec: OptionSpec(name: "width", valueName: "LENGTH",
                            help: "outer width only; the height follows the picture")) { s, v throws(UsageError) in
        s.style.width = try parse("width", v, Length.init(parsing:)); s.style.size = nil; s.style.height = nil
    },
    Option(spec: OptionSpec(name: "height", valueName: "LENGTH",
                            help: "outer height only; the width follows the picture")) { s, v throws(UsageError) in
        s.style.height = try parse("height", v, Length.init(parsing:)); s.style.size = nil; s.style.width = nil
    },
    Option(spec: OptionSpec(name: "border", valueName: "LENGTH", help: "border width, drawn inside the frame",
                            defaultText: "3px")) { s, v throws(UsageError) in
        s.style.border = try parse("border", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "border-color", valueName: "COLOR", help: "border colour", defaultText: "white")) { s, v throws(UsageError) in
        s.style.borderColor = try parse("border-color", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "padding", valueName: "LENGTHS",
                            help: "mat between border and picture, 1 to 4 lengths in CSS order", defaultText: "0")) { s, v throws(UsageError) in
        s.style.padding = try parse("padding", v, EdgeInsets.init(parsing:))
    },
    Option(spec: OptionSpec(name: "background", valueName: "COLOR", help: "colour of the mat behind the picture",
                            defaultText: "#808080")) { s, v throws(UsageError) in
        s.style.background = try parse("background", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "radius", valueName: "LENGTH", help: "outer corner radius; inner = radius - border",
                            defaultText: "0")) { s, v throws(UsageError) in
        s.style.radius = try parse("radius", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "fit", valueName: "MODE",
                            help: "contain, cover, fill, none or scale-down (CSS object-fit)", defaultText: "scale-down")) { s, v throws(UsageError) in
        s.style.fit = try choice("fit", v, ContentFit.self)
    },
    Option(spec: OptionSpec(name: "position", valueName: "POS",
                            help: "center, top, bottom, left, right, top-left, ... (CSS object-position)",
                            defaultText: "center")) { s, v throws(UsageError) in
        s.style.position = try parse("position", v, ContentPosition.init(parsing:))
    },
    Option(spec: OptionSpec(name: "shadow", valueName: "SHADOWS",
                            help: "CSS box-shadow list 'X Y BLUR SPREAD COLOR, ...', or none",
                            defaultText: "0 0 10px rgba(0,0,0,0.6)")) { s, v throws(UsageError) in
        s.style.shadows = try parse("shadow", v, BoxShadow.parseList)
        if s.style.shadows.contains(where: \.inset) { throw UsageError("--shadow: inset shadows are not supported yet") }
    },
    Option(spec: OptionSpec(name: "margin", valueName: "LENGTH", help: "empty space around frame and shadows",
                            defaultText: "0")) { s, v throws(UsageError) in
        s.style.margin = try parse("margin", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "canvas-color", valueName: "COLOR", help: "colour outside the frame",
                            defaultText: "transparent")) { s, v throws(UsageError) in
        s.style.canvasColor = try parse("canvas-color", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "image-dpi", valueName: "css|auto|N",
                            help: "size of a picture pixel: 96 per inch, the file's own, or N per inch",
                            defaultText: "css")) { s, v throws(UsageError) in
        switch v.lowercased() {
        case "css": s.style.pictureResolution = .css
        case "auto": s.style.pictureResolution = .auto
        default: s.style.pictureResolution = .dpi(try number("image-dpi", v, maximum: 10_000))
        }
    },
    Option(spec: OptionSpec(name: "scale", valueName: "N", help: "PNG: device pixels per CSS px", defaultText: "1")) { s, v throws(UsageError) in
        s.scale = try number("scale", v, maximum: 64)
    },
    Option(spec: OptionSpec(name: "dpi", valueName: "N",
                            help: "PNG: pixels per inch of the output; SVG/PDF: of the embedded picture",
                            defaultText: "PNG 96 x scale, SVG 192, PDF 300")) { s, v throws(UsageError) in
        s.dpi = try number("dpi", v, maximum: 6_000)
    },
    Option(spec: OptionSpec(name: "resample", valueName: "FILTER",
                            help: "picture resampling: box (fastest), good (Catmull-Rom) or best (Lanczos-3)",
                            defaultText: "best")) { s, v throws(UsageError) in
        s.resample = try choice("resample", v, ResamplingFilter.self)
    },
    Option(spec: OptionSpec(name: "embed", valueName: "MODE",
                            help: "SVG/PDF picture storage: auto (JPEG for opaque photos, else PNG), jpeg or png",
                            defaultText: "auto")) { s, v throws(UsageError) in
        s.embed = try choice("embed", v, EmbedMode.self)
    },
    Option(spec: OptionSpec(name: "quality", valueName: "N", help: "JPEG quality 1-100 when the picture is re-encoded",
                            defaultText: "90")) { s, v throws(UsageError) in
        guard let q = Int(v), (1...100).contains(q) else { throw UsageError("--quality: \"\(v)\" is not a whole number from 1 to 100") }
        s.quality = q
    },
    Option(spec: OptionSpec(name: "lossless", valueName: nil, help: "SVG/PDF: never re-encode the picture lossily")) { s, _ throws(UsageError) in
        s.lossless = true
    },
    Option(spec: OptionSpec(name: "flatten", valueName: "COLOR", help: "composite a transparent picture onto this colour")) { s, v throws(UsageError) in
        s.flatten = try parse("flatten", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "no-auto-orient", valueName: nil, help: "ignore the EXIF orientation; keep the stored pixels")) { s, _ throws(UsageError) in
        s.autoOrient = false
    },
    Option(spec: OptionSpec(name: "intent", valueName: "INTENT",
                            help: "colour conversion from an embedded profile to sRGB: perceptual or relative",
                            defaultText: "perceptual")) { s, v throws(UsageError) in
        s.intent = try choice("intent", v, RenderingIntent.self)
    },
    Option(spec: OptionSpec(name: "max-pixels", valueName: "N",
                            help: "refuse pictures with more pixels (from the header, before decoding)",
                            defaultText: "256000000")) { s, v throws(UsageError) in
        s.maxPixels = Int(try number("max-pixels", v, maximum: 4_000_000_000))
    },
    Option(spec: OptionSpec(name: "min-ppi", valueName: "N",
                            help: "warn when the placed picture has fewer pixels per inch")) { s, v throws(UsageError) in
        s.minPPI = try number("min-ppi", v, maximum: 100_000)
    },
    Option(spec: OptionSpec(name: "strict", valueName: nil, help: "make the --min-ppi warning an error (exit 1, no output)")) { s, _ throws(UsageError) in
        s.strict = true
    },
    Option(spec: OptionSpec(name: "help", short: "h", valueName: nil, help: "show this help and exit")) { _, _ throws(UsageError) in },
    Option(spec: OptionSpec(name: "version", valueName: nil, help: "show the version and exit")) { _, _ throws(UsageError) in },
]
