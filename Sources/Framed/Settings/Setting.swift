import FramedSystem

/// A setting that `Framer.set(_:_:)` takes by name: the words a configuration file and the
/// `framed` command line use (`border`, `shadow`, `dpi`...), each with a value written as text
/// in CSS words where CSS has them.
public struct Setting: Sendable {
    /// The name, e.g. `border-color`.
    public let name: String
    /// Other names that set it too: the CSS property a setting takes its values from
    /// (`border-radius` for `radius`, `box-shadow` for `shadow`), the words people type first;
    /// `backdrop` for `canvas-color`, since to CSS users a background is what lies behind; and
    /// `intent` for `rendering-intent`. A configuration is written with `name`.
    public let aliases: [String]
    /// Whether the setting is a switch, which takes `true` or `false` (an empty value means
    /// `true`), rather than a value.
    public let isSwitch: Bool
    /// Parses `value` and sets it.
    let apply: @Sendable (inout Framer, String) throws(SettingError) -> Void
    /// The effective value as a configuration writes it; nil when it has none (an optional
    /// setting that is not set).
    let read: @Sendable (Framer) -> JSON?

    init(_ name: String, aliases: [String] = [], switch isSwitch: Bool = false,
         apply: @escaping @Sendable (inout Framer, String) throws(SettingError) -> Void,
         read: @escaping @Sendable (Framer) -> JSON?) {
        self.name = name; self.aliases = aliases; self.isSwitch = isSwitch; self.apply = apply; self.read = read
    }

    /// The name and the aliases.
    public var names: [String] { [name] + aliases }
}

/// A setting's value that does not parse, or a name that is no setting.
public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting's name.
    public var setting: String
    /// What is wrong with the value, e.g. `invalid length "12qq": unknown unit "qq" (use px, pt,
    /// in, mm or cm)`.
    public var reason: String

    /// An error about `setting`.
    public init(setting: String, reason: String) { self.setting = setting; self.reason = reason }

    /// `setting: reason`.
    public var description: String { "\(setting): \(reason)" }
}

extension Setting {
    /// Every setting, in the order of the stages: format and preset, the look, the output, the
    /// picture, the page.
    public static let all: [Setting] = general + look + output + picture + page

    /// Every setting's name and aliases, in `all` order.
    public static var allNames: [String] { all.flatMap(\.names) }

    /// The setting called `name`, or that has `name` as an alias, if there is one.
    public static func named(_ name: String) -> Setting? {
        all.first { $0.name == name } ?? all.first { $0.aliases.contains(name) }
    }

    static let general: [Setting] = [
        Setting("format") { f, v throws(SettingError) in
            f.output.format = try choice("format", v, OutputFormat.self)
        } read: { f in f.output.format.map { .string($0.rawValue) } },
        Setting("preset") { f, v throws(SettingError) in
            f.apply(try choice("preset", v, Preset.self))
        } read: { f in .string(f.preset.rawValue) },
    ]

    static let look: [Setting] = [
        Setting("size") { f, v throws(SettingError) in
            f.style.size = try parse("size", v, LengthSize.init(parsing:)); f.style.width = nil; f.style.height = nil
        } read: { f in f.style.size.map { .string("\($0.width)x\($0.height)") } },
        Setting("width") { f, v throws(SettingError) in
            f.style.width = try parse("width", v, Length.init(parsing:)); f.style.size = nil; f.style.height = nil
        } read: { f in f.style.width.map { .string($0.description) } },
        Setting("height") { f, v throws(SettingError) in
            f.style.height = try parse("height", v, Length.init(parsing:)); f.style.size = nil; f.style.width = nil
        } read: { f in f.style.height.map { .string($0.description) } },
        Setting("border", aliases: ["border-width"]) { f, v throws(SettingError) in
            f.style.border = try parse("border", v, Length.init(parsing:))
        } read: { f in .string(f.style.border.description) },
        Setting("border-color") { f, v throws(SettingError) in
            f.style.borderColor = try parse("border-color", v, RGBAColor.init(parsing:))
        } read: { f in .string(f.style.borderColor.description) },
        Setting("border-style") { f, v throws(SettingError) in
            f.style.borderStyle = try choice("border-style", v, BorderStyle.self)
        } read: { f in .string(f.style.borderStyle.rawValue) },
        Setting("inner-border") { f, v throws(SettingError) in
            f.style.innerBorder = try parse("inner-border", v, InnerBorder.parse)
        } read: { f in .string(f.style.innerBorder?.description ?? "none") },
        Setting("padding") { f, v throws(SettingError) in
            f.style.padding = try parse("padding", v, EdgeInsets.init(parsing:))
        } read: { f in .string(f.style.padding.description) },
        Setting("background", aliases: ["background-color"]) { f, v throws(SettingError) in
            (f.style.background, f.style.backgroundGradient) = try paint("background", v)
        } read: { f in .string(f.style.backgroundGradient?.description ?? f.style.background.description) },
        Setting("radius", aliases: ["border-radius"]) { f, v throws(SettingError) in
            f.style.radius = try parse("radius", v, Length.init(parsing:))
        } read: { f in .string(f.style.radius.description) },
        Setting("fit", aliases: ["object-fit"]) { f, v throws(SettingError) in
            f.style.fit = try choice("fit", v, ContentFit.self)
        } read: { f in .string(f.style.fit.rawValue) },
        Setting("position", aliases: ["object-position"]) { f, v throws(SettingError) in
            f.style.position = try parse("position", v, ContentPosition.init(parsing:))
        } read: { f in .string(f.style.position.description) },
        Setting("shadow", aliases: ["box-shadow"]) { f, v throws(SettingError) in
            f.style.shadows = try parse("shadow", v, BoxShadow.parseList)
        } read: { f in
            .string(f.style.shadows.isEmpty ? "none" : f.style.shadows.map(\.description).joined(separator: ", "))
        },
        Setting("margin") { f, v throws(SettingError) in
            f.style.margin = try parse("margin", v, Length.init(parsing:))
        } read: { f in .string(f.style.margin.description) },
        Setting("canvas-color", aliases: ["backdrop"]) { f, v throws(SettingError) in
            if trimmingSpaces(v).lowercased() == "auto" {
                f.style.canvasAuto = true
                (f.style.canvasColor, f.style.canvasGradient) = (.transparent, nil)
            } else {
                f.style.canvasAuto = false
                (f.style.canvasColor, f.style.canvasGradient) = try paint("canvas-color", v)
            }
        } read: { f in
            .string(f.style.canvasAuto ? "auto" : f.style.canvasGradient?.description ?? f.style.canvasColor.description)
        },
        Setting("canvas-image") { f, v throws(SettingError) in
            let path = try text("canvas-image", v)
            guard !path.isEmpty else {
                throw SettingError(setting: "canvas-image", reason: "needs a picture file, \(FrameStyle.pictureItself) or none")
            }
            f.style.canvasImage = path.lowercased() == "none" ? nil : path
        } read: { f in f.style.canvasImage.map { .string($0) } },
        Setting("canvas-blur") { f, v throws(SettingError) in
            let blur = try parse("canvas-blur", v, Length.init(parsing:))
            guard blur.points >= 0 else {
                throw SettingError(setting: "canvas-blur", reason: "\"\(excerpt(v))\" is negative: the blur must be zero or more")
            }
            f.style.canvasBlur = blur
        } read: { f in
            f.style.canvasImage == nil && f.style.canvasBlur == .zero ? nil : .string(f.style.canvasBlur.description)
        },
        Setting("aspect", aliases: ["aspect-ratio"]) { f, v throws(SettingError) in
            f.style.aspect = v.lowercased() == "none" ? nil : try parse("aspect", v, AspectRatio.init(parsing:))
            if f.style.aspect != nil { f.style.canvasSize = nil }
        } read: { f in f.style.aspect.map { .string($0.description) } },
        Setting("canvas-size") { f, v throws(SettingError) in
            f.style.canvasSize = trimmingSpaces(v).lowercased() == "none" ? nil : try parse("canvas-size", v, LengthSize.init(parsing:))
            if f.style.canvasSize != nil { f.style.aspect = nil }
        } read: { f in f.style.canvasSize.map { .string("\($0.width)x\($0.height)") } },
        Setting("chrome") { f, v throws(SettingError) in
            guard v.lowercased() != "none" else { f.style.chrome.kind = nil; return }
            guard let kind = ChromeKind(rawValue: v.lowercased()) else {
                throw SettingError(setting: "chrome", reason: "\"\(excerpt(v))\" is not one of "
                                   + (ChromeKind.allCases.map(\.rawValue) + ["none"]).joined(separator: ", "))
            }
            f.style.chrome.kind = kind
        } read: { f in f.style.chrome.kind.map { .string($0.rawValue) } },
        Setting("chrome-theme") { f, v throws(SettingError) in
            f.style.chrome.theme = try choice("chrome-theme", v, ChromeTheme.self)
        } read: { f in
            f.style.chrome.kind == nil && f.style.chrome.theme == .light ? nil : .string(f.style.chrome.theme.rawValue)
        },
        Setting("chrome-title") { f, v throws(SettingError) in
            let title = try text("chrome-title", v)
            guard title.utf8.count <= WindowChrome.maximumTitleBytes else {
                throw SettingError(setting: "chrome-title", reason: "is \(title.utf8.count) bytes long: at most "
                                   + "\(WindowChrome.maximumTitleBytes)")
            }
            // One line of text: a line break, a tab or a NUL (which would end it early) is a slip.
            if let control = title.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw SettingError(setting: "chrome-title", reason: "holds the control character U+"
                                   + String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)
                                   + ": a title is one line of text")
            }
            f.style.chrome.title = title.isEmpty ? nil : title
        } read: { f in f.style.chrome.title.map { .string($0) } },
        Setting("caption") { f, v throws(SettingError) in
            let words = try text("caption", v)
            guard words.unicodeScalars.count <= Caption.maximumLength else {
                throw SettingError(setting: "caption", reason: "has more than \(Caption.maximumLength) characters")
            }
            guard !words.unicodeScalars.contains(where: { $0 == "\0" }) else {
                throw SettingError(setting: "caption", reason: "holds a NUL character")
            }
            f.style.caption.text = words
        } read: { f in f.style.caption.text.isEmpty ? nil : .string(f.style.caption.text) },
        Setting("caption-font") { f, v throws(SettingError) in
            f.style.caption.font = try parse("caption-font", v, CSSFont.init(parsing:))
        } read: { f in .string(f.style.caption.font.description) },
        Setting("caption-position") { f, v throws(SettingError) in
            f.style.caption.position = try choice("caption-position", v, CaptionPosition.self)
        } read: { f in .string(f.style.caption.position.rawValue) },
        Setting("caption-align") { f, v throws(SettingError) in
            f.style.caption.alignment = try choice("caption-align", v, CaptionAlignment.self)
        } read: { f in .string(f.style.caption.alignment.rawValue) },
        Setting("caption-color") { f, v throws(SettingError) in
            f.style.caption.color = trimmingSpaces(v).lowercased() == "auto" ? nil
                : try parse("caption-color", v, RGBAColor.init(parsing:))
        } read: { f in .string(f.style.caption.color?.description ?? "auto") },
        Setting("image-dpi") { f, v throws(SettingError) in
            switch v.lowercased() {
            case "css": f.style.pictureResolution = .css
            case "auto": f.style.pictureResolution = .auto
            default: f.style.pictureResolution = .dpi(try number("image-dpi", v, minimum: 1, maximum: 10_000))
            }
        } read: { f in
            switch f.style.pictureResolution {
            case .css: return .string("css")
            case .auto: return .string("auto")
            case let .dpi(n): return .number(n)
            }
        },
    ]

    static let output: [Setting] = [
        Setting("scale") { f, v throws(SettingError) in
            // One number, or a set: numbers separated by commas, each once.
            var scales: [Double] = []
            for part in v.split(separator: ",", omittingEmptySubsequences: false) {
                let scale = try number("scale", String(part), minimum: 0.01, maximum: 64)
                guard !scales.contains(scale) else {
                    throw SettingError(setting: "scale", reason: "\(formatNumber(scale)) is given twice in \"\(excerpt(v))\"")
                }
                scales.append(scale)
            }
            f.output.scale = scales[0]
            f.output.scales = scales.count > 1 ? scales : []
        } read: { f in
            f.output.scales.isEmpty ? .number(f.output.scale)
                : .string(f.output.scales.map(formatNumber).joined(separator: ","))
        },
        Setting("variant") { f, v throws(SettingError) in
            var variants: [Variant] = []
            for part in v.split(separator: ",", omittingEmptySubsequences: false) {
                let variant = try choice("variant", trimmingSpaces(String(part)), Variant.self)
                guard !variants.contains(variant) else {
                    throw SettingError(setting: "variant", reason: "\(variant.rawValue) is given twice in \"\(excerpt(v))\"")
                }
                variants.append(variant)
            }
            f.output.variants = variants
        } read: { f in f.output.variants.isEmpty ? nil : .string(f.output.variants.map(\.rawValue).joined(separator: ",")) },
        Setting("dpi") { f, v throws(SettingError) in
            f.output.dpi = try number("dpi", v, minimum: 1, maximum: 6_000)
        } read: { f in f.output.dpi.map { .number($0) } },
        Setting("no-snap", switch: true) { f, v throws(SettingError) in
            f.output.snap = !(try switchValue("no-snap", v))
        } read: { f in .bool(!f.output.snap) },
        Setting("embed") { f, v throws(SettingError) in
            f.output.embed = try choice("embed", v, EmbedMode.self)
        } read: { f in .string(f.output.embed.rawValue) },
        Setting("quality") { f, v throws(SettingError) in
            guard let q = Int(v), (1...100).contains(q) else {
                throw SettingError(setting: "quality", reason: "\"\(excerpt(v))\" is not a whole number from 1 to 100")
            }
            f.output.quality = q
        } read: { f in .number(Double(f.output.quality)) },
        Setting("lossless", switch: true) { f, v throws(SettingError) in
            f.output.lossless = try switchValue("lossless", v)
        } read: { f in .bool(f.output.lossless) },
    ]

    static let picture: [Setting] = [
        Setting("resample") { f, v throws(SettingError) in
            f.picture.resample = try choice("resample", v, ResamplingFilter.self)
        } read: { f in .string(f.picture.resample.rawValue) },
        Setting("flatten") { f, v throws(SettingError) in
            f.picture.flatten = try parse("flatten", v, RGBAColor.init(parsing:))
        } read: { f in f.picture.flatten.map { .string($0.description) } },
        Setting("no-auto-orient", switch: true) { f, v throws(SettingError) in
            f.picture.autoOrient = !(try switchValue("no-auto-orient", v))
        } read: { f in .bool(!f.picture.autoOrient) },
        Setting("rendering-intent", aliases: ["intent"]) { f, v throws(SettingError) in
            f.picture.renderingIntent = try choice("rendering-intent", v, RenderingIntent.self)
        } read: { f in .string(f.picture.renderingIntent.rawValue) },
        Setting("max-pixels") { f, v throws(SettingError) in
            f.picture.maxPixels = Int(try number("max-pixels", v, maximum: 4_000_000_000))
        } read: { f in .number(Double(f.picture.maxPixels)) },
        Setting("min-ppi") { f, v throws(SettingError) in
            f.picture.minimumPPI = try number("min-ppi", v, maximum: 100_000)
        } read: { f in f.picture.minimumPPI.map { .number($0) } },
        Setting("trim") { f, v throws(SettingError) in
            f.picture.trim = try trimTolerance(v)
        } read: { f in f.picture.trim.map { .string(formatPercent($0 * 100) + "%") } },
        Setting("annotate") { f, v throws(SettingError) in
            f.picture.annotations = try annotationSource(v)
        } read: { f in
            switch f.picture.annotations {
            case nil: return nil
            case let .file(path)?: return .string(path)
            case let .list(list)?: return .array(list.map(\.json))
            }
        },
        Setting("strict", switch: true) { f, v throws(SettingError) in
            f.picture.failBelowMinimumPPI = try switchValue("strict", v)
            f.page.failWithinSafeMargin = f.picture.failBelowMinimumPPI
        } read: { f in .bool(f.picture.failBelowMinimumPPI || f.page.failWithinSafeMargin) },
    ]

    static let page: [Setting] = [
        Setting("page") { f, v throws(SettingError) in
            f.page.size = try parse("page", v, PageSize.init(parsing:))
        } read: { f in f.page.size.map { .string($0.description) } },
        Setting("orientation") { f, v throws(SettingError) in
            f.page.orientation = try choice("orientation", v, PageOrientation.self)
        } read: { f in f.page.size == nil && f.page.sheet == nil ? nil : .string(f.page.orientation.rawValue) },
        Setting("bleed") { f, v throws(SettingError) in
            let bleed = try parse("bleed", v, Length.init(parsing:))
            guard bleed.points >= 0 else {
                throw SettingError(setting: "bleed", reason: "\"\(excerpt(v))\" is negative: the bleed must be zero or more")
            }
            f.page.bleed = bleed
        } read: { f in f.page.size == nil && f.page.sheet == nil ? nil : .string(f.page.bleed.description) },
        Setting("safe-margin") { f, v throws(SettingError) in
            let margin = try parse("safe-margin", v, Length.init(parsing:))
            guard margin.points >= 0 else {
                throw SettingError(setting: "safe-margin", reason: "\"\(excerpt(v))\" is negative: the safe margin must be zero or more")
            }
            f.page.safeMargin = margin
        } read: { f in f.page.size == nil && f.page.sheet == nil ? nil : .string(f.page.safeMargin.description) },
        Setting("marks") { f, v throws(SettingError) in
            f.page.marks = try choice("marks", v, PrintMarks.self)
        } read: { f in f.page.marks == .none ? nil : .string(f.page.marks.rawValue) },
        Setting("sheet") { f, v throws(SettingError) in
            f.page.sheet = try parse("sheet", v, PageSize.init(parsing:))
        } read: { f in f.page.sheet.map { .string($0.description) } },
        Setting("n-up") { f, v throws(SettingError) in
            f.page.nUp = try parse("n-up", v, NUp.init(parsing:))
        } read: { f in f.page.sheet == nil ? nil : .string(f.page.nUp.description) },
        Setting("gutter") { f, v throws(SettingError) in
            let gutter = try parse("gutter", v, Length.init(parsing:))
            guard gutter.points >= 0 else {
                throw SettingError(setting: "gutter", reason: "\"\(excerpt(v))\" is negative: the gutter must be zero or more")
            }
            f.page.gutter = gutter
        } read: { f in f.page.sheet == nil ? nil : f.page.gutter.map { .string($0.description) } },
        Setting("pdf-variant") { f, v throws(SettingError) in
            guard let variant = PDFVariant(parsing: trimmingSpaces(v)) else {
                throw SettingError(setting: "pdf-variant", reason: "\"\(excerpt(v))\" is not one of "
                                   + PDFVariant.allCases.map(\.rawValue).joined(separator: ", ") + " (or x-4)")
            }
            f.output.pdfVariant = variant
        } read: { f in f.output.pdfVariant.map { .string($0.rawValue) } },
        Setting("output-intent") { f, v throws(SettingError) in
            guard !v.isEmpty else { throw SettingError(setting: "output-intent", reason: "needs the path of an ICC profile") }
            f.output.outputIntent = v
        } read: { f in f.output.outputIntent.map { .string($0) } },
        Setting("proof") { f, v throws(SettingError) in
            guard !v.isEmpty else { throw SettingError(setting: "proof", reason: "needs the path of a PNG to write") }
            guard v.lowercased().hasSuffix(".png") else {
                throw SettingError(setting: "proof", reason: "\"\(excerpt(v))\" does not end in .png: the soft proof is a PNG")
            }
            f.output.proof = v
        } read: { f in f.output.proof.map { .string($0) } },
        Setting("gamut-warning") { f, v throws(SettingError) in
            let color = try parse("gamut-warning", v, RGBAColor.init(parsing:))
            guard color.alpha >= 1 else {
                throw SettingError(setting: "gamut-warning", reason: "\"\(excerpt(v))\" is not opaque: the warning paints "
                                   + "whole pixels, give an opaque colour")
            }
            f.output.gamutWarning = color
        } read: { f in f.output.gamutWarning.map { .string($0.description) } },
        Setting("title") { f, v throws(SettingError) in
            f.output.metadata.title = try text("title", v)
        } read: { f in f.output.metadata.title.map { .string($0) } },
        Setting("author") { f, v throws(SettingError) in
            f.output.metadata.author = try text("author", v)
        } read: { f in f.output.metadata.author.map { .string($0) } },
    ]
}

// MARK: - Value parsers

/// Parses `text` with a style parser; its error becomes the setting's.
private func parse<T>(_ setting: String, _ text: String,
                      _ parser: (String) throws(StyleParseError) -> T) throws(SettingError) -> T {
    do { return try parser(text) } catch { throw SettingError(setting: setting, reason: error.description) }
}

/// A positive, finite number from `minimum` (when given) to `maximum`.
private func number(_ setting: String, _ text: String, minimum: Double? = nil, maximum: Double) throws(SettingError) -> Double {
    guard let value = styleNumber(trimmingSpaces(text)), value > 0 else {
        throw SettingError(setting: setting, reason: "\"\(excerpt(text))\" is not a positive number")
    }
    guard value <= maximum else { throw SettingError(setting: setting, reason: "\(excerpt(text)) is too large (at most \(Int(maximum)))") }
    if let minimum, value < minimum {
        throw SettingError(setting: setting, reason: "\(excerpt(text)) is too small (at least \(formatNumber(minimum)))")
    }
    return value
}

/// Text that goes into a file as it is (a PDF's title): valid UTF-8. An argument that is not
/// comes with its bytes kept (`SystemPath`), and would be written as other characters.
private func text(_ setting: String, _ text: String) throws(SettingError) -> String {
    if let byte = text.unicodeScalars.lazy.compactMap(SystemPath.escapedByte).first {
        throw SettingError(setting: setting, reason: "is not UTF-8 text (it holds the byte 0x\(String(byte, radix: 16, uppercase: true)))")
    }
    return text
}

/// A number as a message writes it: `1` rather than `1.0`.
private func formatNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// One of a fixed set of words, in any case.
private func choice<T: RawRepresentable & CaseIterable>(_ setting: String, _ text: String, _: T.Type) throws(SettingError) -> T
    where T.RawValue == String {
    guard let value = T(rawValue: text.lowercased()) else {
        throw SettingError(setting: setting, reason: "\"\(excerpt(text))\" is not one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
}

/// A switch's value: empty or `true` turns it on, `false` off.
private func switchValue(_ setting: String, _ text: String) throws(SettingError) -> Bool {
    switch text.lowercased() {
    case "", "true": return true
    case "false": return false
    default: throw SettingError(setting: setting, reason: "\"\(excerpt(text))\" is not true or false")
    }
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

/// A colour, or a CSS gradient over transparent: what `background` and `canvas-color` take.
private func paint(_ setting: String, _ text: String) throws(SettingError) -> (RGBAColor, CSSGradient?) {
    if CSSGradient.looksLikeGradient(text) {
        return (.transparent, try parse(setting, text, CSSGradient.init(parsing:)))
    }
    return (try parse(setting, text, RGBAColor.init(parsing:)), nil)
}

/// `trim`'s value: empty, `true` or `0` for exact, a percentage for ImageMagick's `-fuzz`
/// distance, `none` or `false` for no trimming.
private func trimTolerance(_ text: String) throws(SettingError) -> Double? {
    let value = trimmingSpaces(text).lowercased()
    switch value {
    case "", "true", "0": return 0
    case "none", "false": return nil
    default:
        guard value.hasSuffix("%"), let percent = styleNumber(value.dropLast()), percent >= 0, percent <= 100 else {
            throw SettingError(setting: "trim", reason: "\"\(excerpt(text))\" is not a tolerance: give a percentage"
                               + " from 0% to 100%, like 10%, or none")
        }
        return percent / 100
    }
}

/// `annotate`'s value: `none` (or nothing); a JSON list (starting with `[`); a file, its path
/// ending in `.json` or holding `{name}`, `{stem}` or `{ext}`; else the inline form.
private func annotationSource(_ given: String) throws(SettingError) -> AnnotationSource? {
    let value = trimmingSpaces(given)
    if value.isEmpty || value.lowercased() == "none" { return nil }
    if value.lowercased().hasSuffix(".json") || AnnotationSource.isTemplate(value) {
        return .file(try text("annotate", value))
    }
    do {
        return .list(value.hasPrefix("[") ? try Annotation.list(jsonText: Array(value.utf8)) : try Annotation.parseList(value))
    } catch { throw SettingError(setting: "annotate", reason: error.description) }
}

/// A percentage as short as it reads back exactly: 10, 2.5.
private func formatPercent(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

extension String {
    /// The string with zeros in front up to `width` characters (hexadecimal code points).
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
