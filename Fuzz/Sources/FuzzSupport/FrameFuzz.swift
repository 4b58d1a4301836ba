import FramedLayout
import FramedRaster
import FramedRender

/// The whole pipeline, `Framer.frame`, on a small picture with a style and options that the
/// input chooses. An input is one line of settings, a newline, then the picture's bytes:
///
///     format=png;size=60x40;border=2;shadow=0 2px 4px red;scale=2
///     <picture bytes>
///
/// Settings are `key=value` separated by `;`: format, size, width, height, border,
/// border-color, padding, background, radius, fit, position, shadow, margin, canvas,
/// image-dpi, scale, dpi, resample, embed, quality, lossless, flatten, no-auto-orient,
/// intent, no-snap, preset (none). Values go through the same parsers as the command line;
/// ones that do not parse are skipped. Checks that a PNG output is no larger than the limits,
/// and decodes.
public enum FrameFuzz {
    public static func run(_ data: [UInt8]) {
        let newline = data.firstIndex(of: 10) ?? -1
        let header = newline < 0 ? "" : String(decoding: data[..<newline], as: UTF8.self)
        let picture = Array(data[(newline + 1)...])
        var style = FrameStyle.classic
        var options = RenderOptions(format: .png, maxPixels: FuzzLimits.maxPixels)
        for item in header.split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].lowercased(), value = parts.count > 1 ? String(parts[1]) : ""
            apply(key, value, to: &style, &options)
        }
        guard let framed = try? Framer.frame(picture, style: style, options: options) else { return }
        require(!framed.bytes.isEmpty, "empty output")
        if options.format == .png {
            let info: PictureInfo
            do { info = try Pictures.info(data: framed.bytes) } catch {
                fatalError("the PNG output does not read back: \(error)")
            }
            require(info.width <= 32767 && info.height <= 32767 && info.width * info.height <= FuzzLimits.maxPixels,
                         "a \(info.width)x\(info.height) PNG canvas got past the limits")
            // Its rows (deflated by framed's own writer when flat, else zlib) read back through
            // libpng, which checks the stream and its Adler-32, as framed's reader does.
            var reading = DecodeOptions(maxPixels: FuzzLimits.maxPixels)
            for libpng in [false, true] {
                reading.engines = libpng ? [] : .all
                do { _ = try Pictures.decode(.bytes(framed.bytes), options: reading) } catch {
                    fatalError("the PNG output does not decode (libpng rows: \(libpng)): \(error)")
                }
            }
        }
    }

    static func apply(_ key: String, _ value: String, to style: inout FrameStyle, _ options: inout RenderOptions) {
        func number() -> Double? { Double(value) }
        switch key {
        case "format": if let f = OutputFormat(rawValue: value.lowercased()) { options.format = f }
        case "preset": if value == "none" { style = FrameStyle() }
        case "size": if let v = try? LengthSize(parsing: value) { style.size = v; style.width = nil; style.height = nil }
        case "width": if let v = try? Length(parsing: value) { style.width = v; style.size = nil; style.height = nil }
        case "height": if let v = try? Length(parsing: value) { style.height = v; style.size = nil; style.width = nil }
        case "border": if let v = try? Length(parsing: value) { style.border = v }
        case "border-color": if let v = try? RGBAColor(parsing: value) { style.borderColor = v }
        case "padding": if let v = try? EdgeInsets(parsing: value) { style.padding = v }
        case "background": if let v = try? RGBAColor(parsing: value) { style.background = v }
        case "radius": if let v = try? Length(parsing: value) { style.radius = v }
        case "fit": if let v = ContentFit(rawValue: value) { style.fit = v }
        case "position": if let v = try? ContentPosition(parsing: value) { style.position = v }
        case "shadow": if let v = try? BoxShadow.parseList(value) { style.shadows = v }
        case "margin": if let v = try? Length(parsing: value) { style.margin = v }
        case "canvas": if let v = try? RGBAColor(parsing: value) { style.canvasColor = v }
        case "image-dpi":
            if value == "auto" { style.pictureResolution = .auto } else if let v = number() { style.pictureResolution = .dpi(v) }
        case "scale": if let v = number() { options.scale = v }
        case "dpi": if let v = number() { options.dpi = v }
        case "resample": if let v = ResamplingFilter(rawValue: value) { options.resample = v }
        case "embed": if let v = EmbedMode(rawValue: value) { options.embed = v }
        case "quality": if let v = Int(value), (1...100).contains(v) { options.quality = v }
        case "lossless": options.lossless = true
        case "flatten": if let v = try? RGBAColor(parsing: value) { options.flatten = v }
        case "no-auto-orient": options.autoOrient = false
        case "intent": if let v = RenderingIntent(rawValue: value) { options.intent = v }
        case "no-snap": options.snap = false
        default: break
        }
    }
}
