import FramedSystem

/// Writes each gradient's stops once. Cairo's SVG backend writes every gradient it is handed in
/// full, and a shadow hands it the same stops several times: the four corners' radial gradients,
/// and the blur across and down, which are alike. (The two halves of a blur are not the same
/// stops run the other way: LibreOffice steps a gradient from its start, and a half run from the
/// outside came out 5.6/255 off where it was 3.5.) A `<linearGradient>` or `<radialGradient>` whose
/// stops and attribute names are those of an earlier one of its kind becomes an empty element
/// that takes them by `xlink:href`, which every SVG reader follows (SVG 1.1, 13.2: a gradient
/// without stops of its own uses those of the one it references; LibreOffice, librsvg, Chromium,
/// Firefox and Inkscape alike). Only stops come that way: the attribute names must be the same,
/// so that nothing else (a spread method, a transform) is inherited.
enum SVGSharedGradients {
    /// The SVG with repeated stops replaced by references; the SVG as it is when it declares no
    /// `xlink` namespace; nil when there is no memory for the copy.
    static func rewrite(_ svg: [UInt8]) -> [UInt8]? {
        guard Memory.available(svg.count) else { return nil }
        guard svg.firstRange(of: Array("xmlns:xlink=".utf8), in: svg.indices) != nil else { return svg }
        var output = [UInt8]()
        output.reserveCapacity(svg.count)
        var first: [[UInt8]: [UInt8]] = [:]  // kind, attribute names and stops → the first id
        var i = 0
        while i < svg.count {
            guard let open = svg.firstIndex(of: UInt8(ascii: "<"), in: i..<svg.count) else {
                output.append(bytesOf: svg, in: i..<svg.count)
                break
            }
            output.append(bytesOf: svg, in: i..<open)
            guard let element = Gradient(svg, at: open) else {
                output.append(svg[open])
                i = open + 1
                continue
            }
            if let id = first[element.key] {
                output.append(bytesOf: svg, in: element.tag.lowerBound..<(element.tagEnd - 1))
                while output.last == UInt8(ascii: " ") { output.removeLast() }
                output += Array(" xlink:href=\"#".utf8) + id + Array("\"/>".utf8)
            } else {
                first[element.key] = element.id
                output.append(bytesOf: svg, in: element.tag.lowerBound..<element.end)
            }
            i = element.end
        }
        return output
    }

    /// A gradient element as Cairo writes it: a start tag with an `id`, stops, an end tag.
    private struct Gradient {
        /// The start tag (from `<` up to and including `>`).
        var tag: Range<Int>
        var tagEnd: Int { tag.upperBound }
        /// Past the end tag.
        var end: Int
        var id: [UInt8]
        /// The kind, the attribute names other than `id` (sorted) and the stops.
        var key: [UInt8]

        init?(_ svg: [UInt8], at start: Int) {
            let kinds = ["linearGradient", "radialGradient"]
            guard let kind = kinds.first(where: { svg.hasBytes(Array($0.utf8), at: start + 1) }) else { return nil }
            var i = start + 1 + kind.utf8.count
            guard i < svg.count, svg[i] == UInt8(ascii: " ") else { return nil }
            // Attributes up to the tag's end: name="value", values without quotes inside.
            var names: [[UInt8]] = [], id: [UInt8]?
            while true {
                while i < svg.count, svg[i] == UInt8(ascii: " ") || svg[i] == UInt8(ascii: "\n") { i += 1 }
                guard i < svg.count else { return nil }
                if svg[i] == UInt8(ascii: ">") { break }
                let nameStart = i
                while i < svg.count, svg[i] != UInt8(ascii: "="), svg[i] != UInt8(ascii: ">"), svg[i] != UInt8(ascii: " ") { i += 1 }
                guard i + 1 < svg.count, svg[i] == UInt8(ascii: "="), svg[i + 1] == UInt8(ascii: "\"") else { return nil }
                let name = Array(svg[nameStart..<i])
                let valueStart = i + 2
                guard let close = svg.firstIndex(of: UInt8(ascii: "\""), in: valueStart..<svg.count) else { return nil }
                if name == Array("id".utf8) { id = Array(svg[valueStart..<close]) } else { names.append(name) }
                i = close + 1
            }
            let tagEnd = i + 1
            let endTag = Array("</\(kind)>".utf8)
            guard let id, !names.contains(Array("xlink:href".utf8)), !names.contains(Array("href".utf8)),
                  let bodyEnd = svg.firstRange(of: endTag, in: tagEnd..<svg.count)?.lowerBound else { return nil }
            let body = svg[tagEnd..<bodyEnd]
            // Stops only: anything else in the body (an animation, a comment) is left alone.
            guard svg.firstRange(of: Array("<stop".utf8), in: tagEnd..<bodyEnd) != nil,
                  svg.firstRange(of: Array("<!".utf8), in: tagEnd..<bodyEnd) == nil else {
                return nil
            }
            tag = start..<tagEnd
            end = bodyEnd + endTag.count
            self.id = id
            key = Array(kind.utf8) + [0] + names.sorted { $0.lexicographicallyPrecedes($1) }.joined(separator: [0]) + [0] + body
        }
    }
}
