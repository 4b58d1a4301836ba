import Framed
import FramedTestSupport

/// The whole pipeline, `Framer.frame`, on a small picture with settings that the input chooses.
/// An input is one line of settings, a newline, then the picture's bytes:
///
///     format=png;size=60x40;border=2;shadow=0 2px 4px red;scale=2
///     <picture bytes>
///
/// Settings are `key=value` separated by `;`: format, size, width, height, border,
/// border-color, padding, background, radius, fit, position, shadow, margin, canvas,
/// image-dpi, scale, dpi, resample, embed, quality, lossless, flatten, no-auto-orient,
/// intent, no-snap, preset (none), the caption's and the window chrome's settings, canvas-color
/// (gradients included), aspect, canvas-size, border-style, inner-border, trim, annotate (the
/// inline form, without `;`), variant, and the page's and the sheet's settings (page,
/// orientation, bleed, marks, safe-margin, pdf-variant, sheet, n-up, gutter), canvas-image (the
/// picture itself only) and canvas-blur, title, author, strict, min-ppi and rendering-intent.
/// Values go through `Framer.set`, as the command line's do (ones
/// that do not parse are skipped), except the resolutions (scale, dpi, image-dpi), which are set
/// as any number, so that the limits are tried beyond what the command line lets through.
/// Checks that a PNG output is no larger than the limits, and decodes; that a PDF is sound
/// (`PDFStructure`: its cross-references, objects, stream lengths and inflation, and no `nan` or
/// `inf`), and its XMP packet, if any, well-formed XML; that an SVG is well-formed XML whose
/// references resolve (`XMLStructure`) and holds no `nan` or `inf`.
package enum FrameFuzz {
    /// The settings an input may give, by the names of `Framer.set` (`canvas` is `canvas-color`).
    static let names: Set<String> = ["format", "size", "width", "height", "border", "border-color", "padding",
                                     "background", "radius", "fit", "position", "shadow", "margin", "resample",
                                     "embed", "quality", "lossless", "flatten", "no-auto-orient", "intent", "no-snap",
                                     "caption", "caption-font", "caption-position", "caption-align", "caption-color",
                                     "chrome", "chrome-theme", "chrome-title", "canvas-color", "aspect", "canvas-size",
                                     "border-style", "inner-border", "trim", "annotate", "variant",
                                     "page", "orientation", "bleed", "marks", "safe-margin", "pdf-variant", "sheet",
                                     "n-up", "gutter", "canvas-blur", "title", "author", "strict", "min-ppi",
                                     "rendering-intent"]

    package static func run(_ data: [UInt8]) {
        let newline = data.firstIndex(of: 10) ?? -1
        let header = newline < 0 ? "" : String(decoding: data[..<newline], as: UTF8.self)
        let picture = Array(data[(newline + 1)...])
        var framer = Framer()
        framer.output.format = .png
        framer.picture.maxPixels = FuzzLimits.maxPixels
        for item in header.split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].lowercased(), value = parts.count > 1 ? String(parts[1]) : ""
            apply(key, value, to: &framer)
        }
        guard let framed = try? framer.frame(picture) else { return }
        require(!framed.bytes.isEmpty, "empty output")
        if framer.output.format == .png {
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
        if framer.output.format == .pdf {
            if let problem = PDFStructure.problem(in: framed.bytes) { fatalError("the PDF output is broken: \(problem)") }
            if let packet = XMLStructure.xmpPacket(in: framed.bytes), let problem = XMLStructure.problem(in: packet) {
                fatalError("the PDF's XMP packet is not well-formed XML: \(problem)")
            }
        }
        if framer.output.format == .svg { AnnotationFuzz.checkSVG(framed.bytes) }
    }

    static func apply(_ key: String, _ value: String, to framer: inout Framer) {
        switch key {
        case "preset": if value == "none" { framer.apply(.none) }
        case "canvas": try? framer.set("canvas-color", value)
        case "image-dpi":
            if value == "auto" { framer.style.pictureResolution = .auto } else if let v = Double(value) {
                framer.style.pictureResolution = .dpi(v)
            }
        case "scale": if let v = Double(value) { framer.output.scale = v }
        case "dpi": if let v = Double(value) { framer.output.dpi = v }
        // The picture itself only: a path would have the fuzzer read the machine's files.
        case "canvas-image": if value == "picture" || value == "none" { try? framer.set(key, value) }
        case _ where names.contains(key): try? framer.set(key, value)
        default: break
        }
    }
}
