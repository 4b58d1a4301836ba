internal import CCairo
import FramedRaster
import FramedSystem

/// SVG through `cairo_svg_surface_create_for_stream`, sized in points.
enum SVGBackend {
    static func render(_ page: RenderPage, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        var pictureSize: (width: Int, height: Int)?
        do {
            let surface = try OutputSurface.vector(.svg, size: page.outputSize, metadata: options.metadata, into: sink)
            let context = try CairoContext(surface)
            // The picture's surface ends here, before Cairo encodes it: Cairo's recording of the
            // page holds a snapshot of it, which takes the pixels over when the surface goes
            // (a small allocation, not a copy). Cairo 1.16 crashes if even that small allocation
            // fails, which was likely once the encoded SVG and its copy filled the memory.
            do {
                let picture = try PictureSurface.embedding(page.picture, format: .svg, threads: options.threads)
                if case let .surface(image) = picture { pictureSize = (image.width, image.height) }
                try OutputPage(page).draw([picture], in: context, format: .svg)
            }
            try context.checkStatus("drawing the SVG")
            try surface.finish()
        }
        guard let svg = withExtendedLifetime(sink, { StableSVGIdentifiers.rewrite(sink.bytes, marking: true) })
            .flatMap(SVGHexColors.rewrite).flatMap(SVGSharedGradients.rewrite) else {
            throw .cairo(operation: "writing the SVG", message: "out of memory")
        }
        return try SVGAnnotations.insert(page, into: svg, picture: pictureSize)
    }
}

/// Renumbers the ids that Cairo's SVG backend takes from process-wide counters (`surfaceN`,
/// `imageN`), in order of first appearance, so that the same drawing gives the same bytes
/// whatever else the process drew before.
enum StableSVGIdentifiers {
    static let prefixes: [[UInt8]] = [Array("surface".utf8), Array("image".utf8)]

    /// Rewrites `"surfaceN"`, `#surfaceN`, `"imageN"` and `#imageN`. Only ids right after `"` or
    /// `#` are touched: embedded base64 data never holds either character. With `marking`,
    /// framed's mark (`OutputMark.svgComment`) goes on a line of its own after the first (the
    /// XML declaration). Nil when there is no memory for the copy.
    static func rewrite(_ svg: [UInt8], marking: Bool = false) -> [UInt8]? {
        let mark = marking ? Array((OutputMark.svgComment + "\n").utf8) : []
        guard Memory.available(svg.count + mark.count) else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(svg.count + mark.count)
        var marked = !marking
        var numbers: [[UInt8]: [UInt8]] = [:]  // old id → new number, per prefix
        var counters = [Int](repeating: 0, count: prefixes.count)
        var i = 0
        while i < svg.count {
            let byte = svg[i]
            output.append(byte)
            i += 1
            if !marked && byte == UInt8(ascii: "\n") {
                output += mark
                marked = true
            }
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#") else { continue }
            for (k, prefix) in prefixes.enumerated() where svg[i...].starts(with: prefix) {
                var end = i + prefix.count
                while end < svg.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[end]) { end += 1 }
                guard end > i + prefix.count else { continue }
                let old = Array(svg[i..<end])
                if numbers[old] == nil {
                    counters[k] += 1
                    numbers[old] = Array(String(counters[k]).utf8)
                }
                output += prefix
                output += numbers[old]!
                i = end
                break
            }
        }
        return output
    }
}

/// Writes Cairo's colours, `rgb(41.568627%,6.666667%,79.607843%)`, as `#6a11cb`: Inkscape 1.2
/// reads a percentage as a whole percent (the gradient canvas of a docs figure came out 2.5/255
/// dark in red), while every SVG reader takes the hex form exactly. Cairo's percentages hold
/// the 8-bit colours framed draws with to six decimals, so the hex form loses nothing of them.
enum SVGHexColors {
    /// The SVG with every `rgb(P%,Q%,R%)` replaced; nil when there is no memory for the copy.
    static func rewrite(_ svg: [UInt8]) -> [UInt8]? {
        guard Memory.available(svg.count) else { return nil }
        let prefix = Array("rgb(".utf8)
        var output = [UInt8]()
        output.reserveCapacity(svg.count)
        var i = 0
        while i < svg.count {
            if svg[i] == prefix[0], svg[i...].starts(with: prefix), let (hex, end) = color(svg, from: i + prefix.count) {
                output += hex
                i = end
            } else {
                output.append(svg[i])
                i += 1
            }
        }
        return output
    }

    /// Three `N%` separated by commas and closed by `)` from `start`: the hex colour and the
    /// index after the `)`.
    private static func color(_ svg: [UInt8], from start: Int) -> ([UInt8], Int)? {
        var i = start, channels: [Int] = []
        for k in 0..<3 {
            var value = 0.0, scale = 0.0, digits = 0
            while i < svg.count {
                let c = svg[i]
                if c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                    let d = Double(c - UInt8(ascii: "0"))
                    if scale == 0 { value = value * 10 + d } else { value += d * scale; scale /= 10 }
                    digits += 1
                } else if c == UInt8(ascii: "."), scale == 0 {
                    scale = 0.1
                } else {
                    break
                }
                i += 1
            }
            guard digits > 0, digits < 16, i + 1 < svg.count, svg[i] == UInt8(ascii: "%"),
                  svg[i + 1] == UInt8(ascii: k < 2 ? "," : ")") else { return nil }
            channels.append(Int((min(100, value) * 2.55).rounded()))
            i += 2
        }
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8(ascii: "#")]
        for v in channels { out += [hex[v >> 4], hex[v & 15]] }
        return (out, i)
    }
}
