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
        var numbers: [[UInt8]: [UInt8]] = [:]  // old id → new number, per prefix
        var counters = [Int](repeating: 0, count: prefixes.count)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), n = svg.count
        // The next of each byte that matters, each found again once the copy has passed it.
        var nextQuote = -1, nextHash = -1
        var nextLine = marking ? svg.firstIndex(of: UInt8(ascii: "\n"), in: 0..<n) ?? n : n
        var i = 0
        while i < n {
            if nextQuote < i { nextQuote = svg.firstIndex(of: quote, in: i..<n) ?? n }
            if nextHash < i { nextHash = svg.firstIndex(of: hash, in: i..<n) ?? n }
            let j = min(nextQuote, nextHash, nextLine)
            guard j < n else {
                output.append(bytesOf: svg, in: i..<n)
                break
            }
            output.append(bytesOf: svg, in: i..<(j + 1))
            i = j + 1
            if j == nextLine {
                output += mark
                nextLine = n
                continue
            }
            for (k, prefix) in prefixes.enumerated() where svg.hasBytes(prefix, at: i) {
                var end = i + prefix.count
                while end < n, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[end]) { end += 1 }
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
        let name = Array("rgb".utf8), n = svg.count
        var output = [UInt8]()
        output.reserveCapacity(svg.count)
        // Each `(` is a place a colour may start (a picture's base64 holds none).
        var i = 0
        while i < n {
            guard let open = svg.firstIndex(of: UInt8(ascii: "("), in: i..<n) else {
                output.append(bytesOf: svg, in: i..<n)
                break
            }
            if open - name.count >= i, svg.hasBytes(name, at: open - name.count), let (hex, end) = color(svg, from: open + 1) {
                output.append(bytesOf: svg, in: i..<(open - name.count))
                output += hex
                i = end
            } else {
                output.append(bytesOf: svg, in: i..<(open + 1))
                i = open + 1
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
