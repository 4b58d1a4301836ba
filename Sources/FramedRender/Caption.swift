internal import CCairo
internal import CText
import FramedLayout
import FramedSystem
import Synchronization

/// Text laid out by Pango (through CText, loaded at the first caption): one `final class` owns
/// each layout and frees it in `deinit`, so Swift never holds a GLib object past its use.
final class TextLayout {
    let pointer: OpaquePointer

    /// Lays out `caption`'s text wrapped to `width` points, for drawing on `context` or (nil)
    /// for measuring. The family list, weights and sizes go to Pango as fields, never as a
    /// description string that Pango would parse again.
    convenience init(_ caption: Caption, width: Double, on context: CairoContext? = nil) throws(TextError) {
        try self.init(caption.text, font: caption.font, width: width, alignment: caption.alignment, oneLine: false,
                      on: context)
    }

    /// Lays out `text` in `font`: wrapped to `width` points, or with `oneLine` on one line
    /// ellipsised at its end when it is wider (`ctext_line_new`, a window's title).
    init(_ text: String, font: CSSFont, width: Double, alignment: CaptionAlignment, oneLine: Bool,
         on context: CairoContext? = nil) throws(TextError) {
        if let context {
            // The size on the device: past it Pango warns and Cairo draws nothing.
            var dx = font.size.points, dy = 0.0
            cairo_user_to_device_distance(context.pointer, &dx, &dy)
            let pixels = (dx * dx + dy * dy).squareRoot()
            guard pixels <= Self.maximumDevicePixels else {
                throw TextError("the text would be drawn \(Int(pixels.rounded(.up))) pixels tall, over the "
                                + "\(Int(Self.maximumDevicePixels)) that text can be")
            }
        }
        try Self.checkMemory()
        var message = [CChar](repeating: 0, count: Int(CTEXT_MESSAGE_SIZE))
        var layout: OpaquePointer?
        let status = font.families.joined(separator: ",").withCString { families in
            var spec = ctext_font(families: families, style: Self.style(font.style), small_caps: font.smallCaps ? 1 : 0,
                                  weight: Int32(font.weight), stretch: Int32(font.stretch), size: font.size.points,
                                  line_height: font.lineHeight?.points ?? 0)
            // The UTF-8 bytes and a zero after them, so that even empty text has an address.
            let bytes = Self.drawable(text).utf8CString
            let cairo = context.map { UnsafeMutableRawPointer($0.pointer) }
            let make = oneLine ? ctext_line_new : ctext_layout_new
            return bytes.withUnsafeBufferPointer { text in
                make(text.baseAddress!, text.count - 1, &spec, width, Self.alignment(alignment), cairo, &layout, &message)
            }
        }
        guard status == Int32(CTEXT_OK), let layout else { throw TextError(message, status: status) }
        pointer = layout
    }

    deinit { ctext_layout_free(pointer) }

    /// `text` with each noncharacter (U+FDD0 to U+FDEF, U+xFFFE and U+xFFFF) as U+FFFD: Cairo
    /// refuses a PDF's text that holds one ("invalid string"), which would fail the output.
    static func drawable(_ text: String) -> String {
        func isNoncharacter(_ v: UInt32) -> Bool { (v >= 0xFDD0 && v <= 0xFDEF) || v & 0xFFFE == 0xFFFE }
        guard text.unicodeScalars.contains(where: { isNoncharacter($0.value) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isNoncharacter(scalar.value) ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// The address space Pango is sure to find before it is called once its fonts are ready
    /// (`TextPreparation`): room for a thread of its own (a stack of 8 MB; GLib ends the process
    /// when one cannot start) and what a layout allocates.
    static let memoryHeadroom = 64 << 20

    /// Refuses to call Pango without `memoryHeadroom` to spare: "out of memory", one line.
    static func checkMemory() throws(TextError) {
        guard Memory.available(memoryHeadroom) else { throw TextError("out of memory") }
    }

    /// The largest font drawn, in device pixels: Pango 1.50 and FreeType fail a little over 890
    /// (a 12 pt DejaVu Sans at 5376 pixels per inch), with warnings and nothing drawn.
    package static let maximumDevicePixels = 800.0

    /// The layout's size, lines and ink.
    var extents: ctext_extents {
        var extents = ctext_extents()
        ctext_layout_extents(pointer, &extents)
        return extents
    }

    /// Draws the text with its box's top-left corner at `origin`, in the context's source colour.
    func draw(on context: CairoContext, at origin: Point) throws(TextError) {
        var message = [CChar](repeating: 0, count: Int(CTEXT_MESSAGE_SIZE))
        guard ctext_layout_draw(pointer, UnsafeMutableRawPointer(context.pointer), origin.x, origin.y, &message)
                == Int32(CTEXT_OK) else { throw TextError(message) }
    }

    private static func style(_ style: CSSFont.Style) -> Int32 {
        switch style {
        case .normal: Int32(CTEXT_STYLE_NORMAL)
        case .italic: Int32(CTEXT_STYLE_ITALIC)
        case .oblique: Int32(CTEXT_STYLE_OBLIQUE)
        }
    }

    private static func alignment(_ alignment: CaptionAlignment) -> Int32 {
        switch alignment {
        case .left: Int32(CTEXT_ALIGN_LEFT)
        case .center: Int32(CTEXT_ALIGN_CENTER)
        case .right: Int32(CTEXT_ALIGN_RIGHT)
        case .start: Int32(CTEXT_ALIGN_START)
        case .end: Int32(CTEXT_ALIGN_END)
        }
    }

    /// The family fontconfig gives for `font`: its first family when installed, else the one
    /// fontconfig falls back to.
    static func family(of font: CSSFont) throws(TextError) -> String {
        try checkMemory()
        var message = [CChar](repeating: 0, count: Int(CTEXT_MESSAGE_SIZE))
        var family = [CChar](repeating: 0, count: 256)
        let status = font.families.joined(separator: ",").withCString { families in
            var spec = ctext_font(families: families, style: style(font.style), small_caps: font.smallCaps ? 1 : 0,
                                  weight: Int32(font.weight), stretch: Int32(font.stretch), size: font.size.points,
                                  line_height: 0)
            return ctext_font_family(&spec, &family, family.count, &message)
        }
        guard status == Int32(CTEXT_OK) else { throw TextError(message, status: status) }
        return String(decoding: family.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why text could not be laid out or drawn: Pango missing, or refusing. One line.
struct TextError: Error, CustomStringConvertible {
    var description: String
    /// Pango could not be loaded (`CTEXT_MISSING`): the machine lacks it, the text is not at fault.
    var isMissingLibrary = false
    /// The process is short of memory: not the text's fault either.
    var isOutOfMemory: Bool { description == "out of memory" }

    init(_ message: [CChar], status: Int32 = Int32(CTEXT_ERROR)) {
        description = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        isMissingLibrary = status == Int32(CTEXT_MISSING)
    }

    init(_ description: String) { self.description = description }
}

/// The layout's measure of captions: Pango's, with the font options that drawing uses, so that
/// the lines measured are the lines drawn.
package struct PangoTextMeasure: TextMeasure {
    package init() {}

    package func measure(_ caption: Caption, width: Double) throws(LayoutError) -> TextBlock {
        guard caption.text.unicodeScalars.count <= Caption.maximumLength else {
            throw .caption(reason: "it has more than \(Caption.maximumLength) characters")
        }
        do throws(TextError) {
            // The lines' height (CSS line-height), or down to the ink's lowest point when a line
            // height smaller than the font's lets a descender hang below it: the box holds it.
            let extents = try TextLayout(caption, width: width).extents
            let ink = extents.ink_height > 0 ? extents.ink_y + extents.ink_height : 0
            return TextBlock(height: max(extents.height, ink), lines: Int(extents.lines), width: extents.width,
                             rightToLeft: extents.right_to_left != 0)
        } catch {
            throw error.isMissingLibrary || error.isOutOfMemory ? .textUnavailable(reason: error.description)
                : .caption(reason: error.description)
        }
    }
}

/// What a caption's font and text warn of: a family that is not installed (named, with the one
/// used instead), characters that no installed font has.
package enum CaptionCheck {
    /// One line per problem; empty when the caption is fine or there is none.
    package static func warnings(_ caption: Caption) -> [String] {
        guard !caption.text.isEmpty else { return [] }
        var warnings: [String] = []
        let named = caption.font.families.filter { !CSSFont.genericFamilies.contains($0.lowercased()) }
        if !named.isEmpty, let used = try? TextLayout.family(of: caption.font),
           !caption.font.families.contains(where: { $0.lowercased() == used.lowercased() }),
           !caption.font.families.contains(where: { CSSFont.genericFamilies.contains($0.lowercased()) }) {
            let asked = named.map { "\"\($0)\"" }.joined(separator: ", ")
            warnings.append("caption font \(asked) is not installed: using \"\(used)\"")
        }
        if let layout = try? TextLayout(caption, width: 0), layout.extents.unknown_glyphs > 0 {
            let n = Int(layout.extents.unknown_glyphs)
            warnings.append("\(n) character\(n == 1 ? "" : "s") of the caption \(n == 1 ? "has" : "have") no glyph in any installed font")
        }
        return warnings
    }
}

extension FrameDrawing {
    /// The caption, over everything else: Pango's layout drawn on the same context, so PDF keeps
    /// it as text (Cairo embeds and subsets the font), SVG as glyph outlines, PNG as pixels.
    func drawCaption(in context: CairoContext) throws(RenderError) {
        guard let geometry = layout.caption, !style.caption.text.isEmpty else { return }
        try context.withSavedState { () throws(RenderError) in
            context.setSource(geometry.color)
            do throws(TextError) {
                let text = try TextLayout(style.caption, width: geometry.box.width, on: context)
                try text.draw(on: context, at: Point(x: geometry.box.minX, y: geometry.box.minY))
            } catch {
                throw .cairo(operation: "drawing the caption", message: error.description)
            }
        }
    }
}

/// Pango made ready for a style's text before the picture takes its memory. Pango starts
/// threads of its own, fontconfig's first reading of its configuration, then a sort of the
/// fonts for each new font, size and set of font options, each with an 8 MB stack and, often, a
/// heap of 64 MB of address space that the C library gives each new thread; GLib ends the
/// process when a thread cannot start, and fontconfig crashes when its first reading runs out
/// of memory. Measured with Pango 1.50: measuring a first caption took 138 MB of address space
/// at its peak, drawing it at a new scale 76 MB more. So before the first text of a style and
/// an output, framed asks for `headroom`, then measures the caption and the title and draws
/// them, once, on a surface of the output's kind and resolution that keeps nothing: Pango's
/// threads start then, and its font sets are cached for the picture's own text, which
/// afterwards asks only for `TextLayout.memoryHeadroom`.
package enum TextPreparation {
    /// The address space asked for before a first text.
    static let headroom = 160 << 20

    /// What was prepared: fonts, scale and surface kind.
    private static let prepared = Mutex<Set<String>>([])

    /// Prepares Pango for `style`'s caption and window title as `options` draw them; "out of
    /// memory" when the process cannot spare `headroom`.
    /// `annotations` are callouts' texts (badge numbers, labels) and their fonts, prepared alike.
    package static func prepare(_ style: FrameStyle, options: RenderOptions, annotations: [(text: String, font: CSSFont)] = [])
        throws(LayoutError) {
        var texts: [(text: String, font: CSSFont, oneLine: Bool)] = annotations.map { ($0.text, $0.font, false) }
        if !style.caption.text.isEmpty { texts.append((style.caption.text, style.caption.font, false)) }
        if let kind = style.chrome.kind, let title = style.chrome.title, !title.isEmpty {
            texts.append((title, WindowChromeDrawing.titleFont(ChromeFigures.of(kind, style.chrome.theme)), true))
        }
        guard !texts.isEmpty else { return }
        let k = options.format.isRaster ? options.pictureDPI / 72 : 1
        let kind = options.format.isRaster ? "image" : options.format.rawValue
        var keys = texts.map { "\($0.font)|\($0.oneLine)|\(k)|\(kind)|\($0.text.unicodeScalars.map { $0.value > 0x7F }.contains(true) ? $0.text : "")" }
        // One preparation a key (a thousand badges in one font are one).
        var seen = Set<String>()
        let unique = keys.indices.filter { seen.insert(keys[$0]).inserted }
        texts = unique.map { texts[$0] }
        keys = unique.map { keys[$0] }
        do throws(TextError) {
            try prepared.withLock { (done: inout Set<String>) throws(TextError) in
                let needed = keys.indices.filter { !done.contains(keys[$0]) }
                guard !needed.isEmpty else { return }
                guard Memory.available(headroom) else { throw TextError("out of memory") }
                for index in needed {
                    let (text, font, oneLine) = texts[index]
                    _ = try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: oneLine).extents
                    try draw(text, font: font, oneLine: oneLine, scale: k, kind: kind)
                    done.insert(keys[index])
                }
            }
        } catch {
            throw error.isMissingLibrary || error.isOutOfMemory ? .textUnavailable(reason: error.description)
                : .caption(reason: error.description)
        }
    }

    /// Draws `text` on a 1x1 surface of `kind` scaled by `scale`: its glyphs are looked up and
    /// rendered at the output's size, and nothing is kept.
    private static func draw(_ text: String, font: CSSFont, oneLine: Bool, scale: Double, kind: String) throws(TextError) {
        let discard: cairo_write_func_t = { _, _, _ in CAIRO_STATUS_SUCCESS }
        let pointer: OpaquePointer?
        switch kind {
        case "image": pointer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        case "svg": pointer = cairo_svg_surface_create_for_stream(discard, nil, 1, 1)
        default: pointer = cairo_pdf_surface_create_for_stream(discard, nil, 1, 1)
        }
        guard let pointer, let surface = try? CairoSurface(taking: pointer, "preparing text"),
              let context = try? CairoContext(surface) else { throw TextError("out of memory") }
        context.scale(scale, scale)
        let layout = try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: oneLine, on: context)
        try layout.draw(on: context, at: Point(x: 0, y: 0))
        cairo_surface_finish(surface.pointer)
    }
}
