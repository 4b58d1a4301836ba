internal import CText
import FramedLayout

/// Text laid out by Pango (through CText, loaded at the first caption): one `final class` owns
/// each layout and frees it in `deinit`, so Swift never holds a GLib object past its use.
final class TextLayout {
    private let pointer: OpaquePointer

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
        var message = [CChar](repeating: 0, count: Int(CTEXT_MESSAGE_SIZE))
        var layout: OpaquePointer?
        let status = font.families.joined(separator: ",").withCString { families in
            var spec = ctext_font(families: families, style: Self.style(font.style), small_caps: font.smallCaps ? 1 : 0,
                                  weight: Int32(font.weight), stretch: Int32(font.stretch), size: font.size.points,
                                  line_height: font.lineHeight?.points ?? 0)
            // The UTF-8 bytes and a zero after them, so that even empty text has an address.
            let bytes = text.utf8CString
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

    init(_ message: [CChar], status: Int32 = Int32(CTEXT_ERROR)) {
        description = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        isMissingLibrary = status == Int32(CTEXT_MISSING)
    }
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
            throw error.isMissingLibrary ? .textUnavailable(reason: error.description) : .caption(reason: error.description)
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
