import FramedLayout
import FramedSystem

/// Callouts in an SVG, written by framed after Cairo's drawing rather than by Cairo: each is a
/// `<g class="framed-annotation KIND">` of paths with their paint in presentation attributes
/// (`stroke`, `fill`), so that a page's style sheet can find, restyle or hide it
/// (`.framed-annotation.arrow { stroke: ... }`), which Cairo's inline styles would not let it.
///
/// The highlighter's multiply is `mix-blend-mode: multiply` on its path (browsers, librsvg and
/// Inkscape blend it with the picture under it): Cairo 1.16's SVG backend turns the whole page
/// into one picture for any operator but OVER. A viewer that does not know the property (LibreOffice)
/// shows the ink as a translucent fill over the picture, still marking the place. Nothing
/// that contains the highlighter has a clip, opacity or transform: those would make it blend
/// with an empty group instead of the picture; it carries its own clip.
///
/// Text (badge numbers, labels) is written as the outlines of the glyphs Pango sets, as Cairo
/// writes a caption. A magnifier reuses the picture Cairo embedded (`<use>` of its `<image>`,
/// clipped to a circle): the picture is in the file once.
enum SVGAnnotations {
    /// `svg` (Cairo's, ids made stable) with `page`'s callouts before its closing tag;
    /// `picture` is the size of the picture's surface (what its `<image>` says), for a
    /// magnifier.
    static func insert(_ page: RenderPage, into svg: [UInt8], picture: (width: Int, height: Int)?) throws(RenderError) -> [UInt8] {
        guard !page.annotations.isEmpty else { return svg }
        guard let end = PDFCompaction.Syntax.lastRange(of: "</svg>", in: svg) else {
            throw .cairo(operation: "writing the annotations", message: "Cairo's SVG has no closing tag")
        }
        let origin = page.placement?.origin ?? .zero
        let drawing = page.drawing(for: .png)
        let writer = Writer(origin: origin)
        let clip = "framed-annotations-clip"
        var defs = "<clipPath id=\"\(clip)\"><path d=\"\(writer.path(drawing.visiblePicturePath))\"/></clipPath>\n"
        var body = ""
        var lensUse: (id: String, matrix: [Double])?
        for annotation in page.annotations {
            let pieces = try annotation.pieces()
            let blends = pieces.contains { if case .path(_, .multiply, _) = $0 { return true } else { return false } }
            body += "<g class=\"framed-annotation \(annotation.kind.rawValue)\" id=\"framed-annotation-\(annotation.index)\""
                + (blends ? "" : " clip-path=\"url(#\(clip))\"") + ">\n"
            for piece in pieces {
                switch piece {
                case let .path(path, ink, halo):
                    body += "<path" + (halo ? " class=\"framed-halo\"" : "") + " d=\"\(writer.path(path))\" " + writer.paint(ink)
                    if case .multiply = ink { body += " style=\"mix-blend-mode:multiply\" clip-path=\"url(#\(clip))\"" }
                    body += "/>\n"
                case let .text(text, font, at, color):
                    let layout: TextLayout
                    do throws(TextError) {
                        layout = try TextLayout(text, font: font, width: 0, alignment: .center, oneLine: false)
                    } catch {
                        throw .cairo(operation: "outlining an annotation's text", message: error.description)
                    }
                    let outline = try layout.outline(at: Point(x: at.x + origin.x, y: at.y + origin.y))
                    body += "<path class=\"framed-text\" d=\"\(Writer(origin: .zero).path(outline))\" "
                        + writer.paint(.fill(color, evenOdd: false)) + "/>\n"
                case let .lens(lens):
                    if lensUse == nil {
                        guard let picture, let found = pictureUse(in: svg, picture: page.layout.picture, origin: origin, size: picture) else {
                            throw .cairo(operation: "writing a magnifier", message: "the picture is not where Cairo's SVG was expected to put it")
                        }
                        lensUse = found
                    }
                    let m = lensUse!.matrix, z = lens.zoom
                    // The picture's own transform, then enlarged about the source's middle onto the lens.
                    let sx = lens.source.midX + origin.x, sy = lens.source.midY + origin.y
                    let cx = lens.center.x + origin.x, cy = lens.center.y + origin.y
                    let matrix = [z * m[0], z * m[1], z * m[2], z * m[3], z * (m[4] - sx) + cx, z * (m[5] - sy) + cy]
                    let id = "framed-lens-\(annotation.index)"
                    defs += "<clipPath id=\"\(id)\"><path d=\"\(writer.path(PathElement.circle(lens.center, radius: lens.radius)))\"/></clipPath>\n"
                    body += "<g clip-path=\"url(#\(id))\"><use xlink:href=\"#\(lensUse!.id)\" transform=\"matrix("
                        + matrix.map(Writer.number).joined(separator: ",") + ")\"/></g>\n"
                }
            }
            body += "</g>\n"
        }
        let group = "<g class=\"framed-annotations\">\n<defs>\n" + defs + "</defs>\n" + body + "</g>\n"
        var out = [UInt8]()
        out.reserveCapacity(svg.count + group.utf8.count)
        out += svg[..<end.lowerBound]
        out += Array(group.utf8)
        out += svg[end.lowerBound...]
        return out
    }

    /// Cairo's `<use>` of the picture: the `<image>` of `size` whose transform puts it on
    /// `picture` (moved by `origin`), and that transform's six numbers.
    static func pictureUse(in svg: [UInt8], picture: Rect, origin: Point, size: (width: Int, height: Int))
        -> (id: String, matrix: [Double])? {
        var images: [String: (Double, Double)] = [:]
        for attributes in elements(named: "image", in: svg) {
            guard let id = attributes["id"], let w = attributes["width"].flatMap(Double.init),
                  let h = attributes["height"].flatMap(Double.init) else { continue }
            images[id] = (w, h)
        }
        for attributes in elements(named: "use", in: svg) {
            guard let href = attributes["xlink:href"], href.hasPrefix("#"), let (w, h) = images[String(href.dropFirst())],
                  Int(w) == size.width, Int(h) == size.height else { continue }
            let m = matrix(attributes["transform"])
            guard m.count == 6 else { continue }
            func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 0.01 }
            if near(m[0] * w, picture.width), near(m[3] * h, picture.height), near(m[1], 0), near(m[2], 0),
               near(m[4], picture.minX + origin.x), near(m[5], picture.minY + origin.y) {
                return (String(href.dropFirst()), m)
            }
        }
        return nil
    }

    /// The attributes of every `<name ...>` element of `svg`.
    static func elements(named name: String, in svg: [UInt8]) -> [[String: String]] {
        let open = Array("<\(name) ".utf8)
        var out: [[String: String]] = [], from = 0
        while let start = svg[from...].firstOccurrence(of: open) {
            guard let close = svg[start.upperBound...].firstIndex(of: UInt8(ascii: ">")) else { break }
            out.append(attributes(svg[start.upperBound..<close]))
            from = close
        }
        return out
    }

    /// `name="value"` pairs (values without entities, as Cairo writes them).
    static func attributes(_ text: ArraySlice<UInt8>) -> [String: String] {
        var out: [String: String] = [:], i = text.startIndex
        while i < text.endIndex {
            while i < text.endIndex, PDFCompaction.Syntax.isWhite(text[i]) { i += 1 }
            let nameStart = i
            while i < text.endIndex, text[i] != UInt8(ascii: "="), !PDFCompaction.Syntax.isWhite(text[i]) { i += 1 }
            let name = String(decoding: text[nameStart..<i], as: UTF8.self)
            guard i + 1 < text.endIndex, text[i] == UInt8(ascii: "="), text[i + 1] == UInt8(ascii: "\"") else { break }
            let valueStart = i + 2
            guard let valueEnd = text[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            // A data URL can be megabytes: its text is not needed.
            out[name] = name == "xlink:href" && valueEnd - valueStart > 256 ? "data:" : String(decoding: text[valueStart..<valueEnd], as: UTF8.self)
            i = valueEnd + 1
        }
        return out
    }

    /// `matrix(a,b,c,d,e,f)` (or none: the identity) as six numbers; empty for another transform.
    static func matrix(_ transform: String?) -> [Double] {
        guard let transform else { return [1, 0, 0, 1, 0, 0] }
        guard transform.hasPrefix("matrix("), transform.hasSuffix(")") else { return [] }
        let numbers = transform.dropFirst(7).dropLast().split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
        return numbers.count == 6 ? numbers : []
    }

    /// Paths and paint as SVG text, every point moved by `origin` (the canvas's place on a page).
    struct Writer {
        var origin: Point

        /// A number with at most three decimals, trailing zeros dropped.
        static func number(_ v: Double) -> String {
            guard v.isFinite else { return "0" }
            var text = String(printf: "%.3f", v)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text == "-0" ? "0" : text
        }

        func point(_ p: Point) -> String { Self.number(p.x + origin.x) + " " + Self.number(p.y + origin.y) }

        /// The path's `d`.
        func path(_ path: [PathElement]) -> String {
            path.map { element -> String in
                switch element {
                case let .move(p): "M" + point(p)
                case let .line(p): "L" + point(p)
                case let .curve(a, b, c): "C" + point(a) + " " + point(b) + " " + point(c)
                case .close: "Z"
                }
            }.joined(separator: " ")
        }

        /// `#rrggbb` of a colour (its alpha apart).
        static func hex(_ color: RGBAColor) -> String {
            let bytes = color.rgb8Components
            return "#" + [bytes.0, bytes.1, bytes.2].map { byte in
                let digits = String(byte, radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
        }

        /// The paint's presentation attributes.
        func paint(_ ink: PieceInk) -> String {
            func opacity(_ name: String, _ color: RGBAColor) -> String {
                color.alpha < 1 ? " \(name)=\"\(Self.number(color.alpha))\"" : ""
            }
            switch ink {
            case let .stroke(color, width):
                return "fill=\"none\" stroke=\"\(Self.hex(color))\"" + opacity("stroke-opacity", color)
                    + " stroke-width=\"\(Self.number(width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\""
            case let .fill(color, evenOdd):
                return "fill=\"\(Self.hex(color))\"" + opacity("fill-opacity", color) + (evenOdd ? " fill-rule=\"evenodd\"" : "")
            case let .multiply(color):
                return "fill=\"\(Self.hex(color))\"" + opacity("fill-opacity", color)
            }
        }
    }
}

extension RGBAColor {
    /// The colour's red, green and blue as bytes.
    var rgb8Components: (UInt8, UInt8, UInt8) {
        func byte(_ v: Double) -> UInt8 { v.isNaN ? 0 : UInt8(min(max(v, 0), 1) * 255 + 0.5) }
        return (byte(red), byte(green), byte(blue))
    }
}
