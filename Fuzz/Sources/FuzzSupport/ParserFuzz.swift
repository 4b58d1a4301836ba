import FramedLayout
import FramedRaster

/// Every style parser over the same text: lengths, sizes, padding, colours, shadows, positions,
/// fonts, gradients, aspect ratios, page sizes and sheet grids (and the picture-format sniffer
/// over the raw bytes). A value that parses must describe itself as text that parses back to the
/// same value (the config files and `--help` rely on it); for fonts, gradients, ratios, pages and
/// grids, to a value that describes itself the same way.
package enum ParserFuzz {
    package static func run(_ data: [UInt8]) {
        _ = PictureFormat.sniff(data)
        let text = String(decoding: data, as: UTF8.self)

        if let length = try? Length(parsing: text) {
            let again = reparse(length, Length.init(parsing:))
            require(same(length, again), "length \(length) parses back as \(again)")
        }
        if let size = try? LengthSize(parsing: text) {
            require(size.width.points > 0 && size.height.points > 0, "size \(size) is not positive")
            let again = reparse(size, LengthSize.init(parsing:))
            require(same(size.width, again.width) && same(size.height, again.height), "size \(size) parses back as \(again)")
        }
        if let insets = try? EdgeInsets(parsing: text) {
            let again = reparse(insets, EdgeInsets.init(parsing:))
            require(same(insets.top, again.top) && same(insets.right, again.right)
                         && same(insets.bottom, again.bottom) && same(insets.left, again.left),
                         "padding \(insets) parses back as \(again)")
        }
        if let color = try? RGBAColor(parsing: text) {
            for c in [color.red, color.green, color.blue, color.alpha] {
                require(c >= 0 && c <= 1, "colour \(color) has a component out of 0...1")
            }
            let again = reparse(color, RGBAColor.init(parsing:))
            require(same(color, again), "colour \(color) parses back as \(again)")
        }
        if let shadows = try? BoxShadow.parseList(text) {
            for shadow in shadows {
                require(shadow.blur.points >= 0, "shadow \(shadow) has a negative blur")
                let again = reparse(shadow, BoxShadow.init(parsing:))
                require(same(shadow.offsetX, again.offsetX) && same(shadow.offsetY, again.offsetY)
                             && same(shadow.blur, again.blur) && same(shadow.spread, again.spread)
                             && same(shadow.color, again.color) && shadow.inset == again.inset,
                             "shadow \(shadow) parses back as \(again)")
            }
        }
        if let position = try? ContentPosition(parsing: text) {
            require((0...1).contains(position.x) && (0...1).contains(position.y), "position \(position) out of 0...1")
            let again = reparse(position, ContentPosition.init(parsing:))
            require(position == again, "position \(position) parses back as \(again)")
        }
        // The newer values: each description parses, to a value that describes itself the
        // same way (what a printed configuration needs to load back to itself).
        if let font = try? CSSFont(parsing: text) {
            require(font.size.points > 0 && font.size.points.isFinite, "font \(font) has a size that is not positive")
            settles(font, CSSFont.init(parsing:))
        }
        if let gradient = try? CSSGradient(parsing: text) { settles(gradient, CSSGradient.init(parsing:)) }
        if let ratio = try? AspectRatio(parsing: text) { settles(ratio, AspectRatio.init(parsing:)) }
        if let page = try? PageSize(parsing: text) { settles(page, PageSize.init(parsing:)) }
        if let grid = try? NUp(parsing: text) { settles(grid, NUp.init(parsing:)) }
    }

    /// `value`'s description parses to a value with the same description.
    static func settles<T: CustomStringConvertible>(_ value: T, _ parse: (String) throws(StyleParseError) -> T) {
        let again = reparse(value, parse)
        require(again.description == value.description, "\(T.self) \"\(value)\" parses back as \"\(again)\"")
    }

    /// `value.description` parsed again; a description that does not parse is a failure.
    static func reparse<T: CustomStringConvertible>(_ value: T, _ parse: (String) throws(StyleParseError) -> T) -> T {
        do { return try parse(value.description) } catch {
            fatalError("\(T.self) \"\(value)\" describes itself as text that does not parse: \(error)")
        }
    }

    /// Equal within a few units in the last place (descriptions print doubles in full).
    static func same(_ a: Double, _ b: Double) -> Bool {
        a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
    }

    static func same(_ a: Length, _ b: Length) -> Bool { same(a.points, b.points) }

    static func same(_ a: RGBAColor, _ b: RGBAColor) -> Bool {
        same(a.red, b.red) && same(a.green, b.green) && same(a.blue, b.blue) && same(a.alpha, b.alpha)
    }
}
