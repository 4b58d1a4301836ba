/// The canvas image's blur (`--canvas-blur`): a Gaussian of standard deviation `sigma` pixels,
/// as CSS `filter: blur()` takes it, made of three box blurs on each axis as SVG 1.1 says for
/// `feGaussianBlur` (and as browsers draw it): with d = floor(sigma * 3 * sqrt(2 * pi) / 4 +
/// 0.5), an odd d gives three boxes of d pixels centred on the pixel; an even d gives two boxes
/// of d pixels, the first centred between the pixel and its left (upper) neighbour, the second
/// between the pixel and its right (lower) neighbour, then one of d + 1 centred. The edges
/// continue their own colour (SVG's `edgeMode="duplicate"`), so a backdrop does not fade out
/// at the canvas's edges. Colours are blurred premultiplied by their alpha, in floating point,
/// rounded once at the end. The work is the same whatever the sigma: a running sum a box.
extension RasterImage {
    /// The picture blurred with a Gaussian of standard deviation `sigma` pixels (see the
    /// extension's summary); itself for a sigma under 0.5 pixel (a box of one pixel).
    package func blurred(sigma: Double) -> RasterImage {
        let boxes = Self.boxes(sigma: sigma)
        guard !boxes.isEmpty, width > 0, height > 0 else { return self }
        let count = width * height
        var plane = [Float](repeating: 0, count: count * 4)
        for i in 0..<count {
            let a = Float(pixels[i * 4 + 3]) / 255
            plane[i * 4] = Float(pixels[i * 4]) * a
            plane[i * 4 + 1] = Float(pixels[i * 4 + 1]) * a
            plane[i * 4 + 2] = Float(pixels[i * 4 + 2]) * a
            plane[i * 4 + 3] = Float(pixels[i * 4 + 3])
        }
        var scratch = [Float](repeating: 0, count: max(width, height) * 4)
        // Rows, then columns: each line through the three boxes.
        for (lines, length, step, lineStep) in [(height, width, 4, width * 4), (width, height, width * 4, 4)] {
            for line in 0..<lines {
                for box in boxes {
                    Self.box(&plane, start: line * lineStep, step: step, length: length, box: box, scratch: &scratch)
                }
            }
        }
        var out = [UInt8](repeating: 0, count: count * 4)
        for i in 0..<count {
            let a = plane[i * 4 + 3]
            out[i * 4 + 3] = Self.byte(a)
            guard a > 0 else { continue }
            let scale = 255 / a
            out[i * 4] = Self.byte(plane[i * 4] * scale)
            out[i * 4 + 1] = Self.byte(plane[i * 4 + 1] * scale)
            out[i * 4 + 2] = Self.byte(plane[i * 4 + 2] * scale)
        }
        return RasterImage(width: width, height: height, pixels: out, hasAlpha: hasAlpha, resolution: resolution)
    }

    /// The three boxes, as (size, first offset): box `k` averages the pixels from
    /// `x + offset` to `x + offset + size - 1`. Empty when there is nothing to blur.
    package static func boxes(sigma: Double) -> [(size: Int, offset: Int)] {
        guard sigma.isFinite, sigma > 0 else { return [] }
        let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        guard d > 1 else { return [] }
        if d % 2 == 1 { return Array(repeating: (d, -(d / 2)), count: 3) }
        return [(d, -(d / 2)), (d, -(d / 2) + 1), (d + 1, -(d / 2))]
    }

    /// One box blur along a line of `length` samples of four channels, `step` floats apart from
    /// `start`; what lies beyond an end is that end's sample.
    private static func box(_ plane: inout [Float], start: Int, step: Int, length: Int, box: (size: Int, offset: Int),
                            scratch: inout [Float]) {
        let (size, offset) = box
        let inverse = 1 / Float(size)
        func at(_ i: Int) -> Int { start + min(max(i, 0), length - 1) * step }
        for c in 0..<4 {
            // The sum over the window of pixel 0: from `offset` to `offset + size - 1`.
            var sum: Float = 0
            for i in offset..<(offset + size) { sum += plane[at(i) + c] }
            for x in 0..<length {
                scratch[x * 4 + c] = sum * inverse
                sum += plane[at(x + offset + size) + c] - plane[at(x + offset) + c]
            }
        }
        for x in 0..<length {
            let p = start + x * step
            plane[p] = scratch[x * 4]; plane[p + 1] = scratch[x * 4 + 1]
            plane[p + 2] = scratch[x * 4 + 2]; plane[p + 3] = scratch[x * 4 + 3]
        }
    }

    /// A value rounded to a byte, clamped to 0...255.
    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 { UInt8(min(max(v, 0), 255) + 0.5) }
}

extension RasterImage {
    /// What `--canvas-color auto` looks at: the colours (three bytes each: red, green, blue) of
    /// the picture's edge, the band of pixels within 3 % of the shorter side of its border (at
    /// least one), taken every `stride` pixels so that at most about `limit` come back. Pixels
    /// that are more than half transparent are left out; when the whole band is, the picture's
    /// other pixels that are not stand in for it (a window shot with a transparent shadow
    /// round it), and when every pixel is, all of them.
    package func edgeSamples(limit: Int = 20_000) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        let band = max(1, min(width, height) * 3 / 100)
        let inBand = min(width * height, 2 * band * (width + height))
        var stride = 1
        while inBand / (stride * stride) > limit { stride += 1 }
        func collect(_ include: (Int, Int) -> Bool, opaqueOnly: Bool) -> [UInt8] {
            var samples: [UInt8] = []
            for y in Swift.stride(from: 0, to: height, by: stride) {
                for x in Swift.stride(from: 0, to: width, by: stride) where include(x, y) {
                    let i = (y * width + x) * 4
                    if opaqueOnly && pixels[i + 3] < 128 { continue }
                    samples += [pixels[i], pixels[i + 1], pixels[i + 2]]
                }
            }
            return samples
        }
        let edge = { (x: Int, y: Int) in x < band || y < band || x >= width - band || y >= height - band }
        let samples = collect(edge, opaqueOnly: true)
        if !samples.isEmpty { return samples }
        // The band is transparent: the rest of the picture, as evenly spread.
        var wide = 1
        while (width * height) / (wide * wide) > limit { wide += 1 }
        stride = wide
        let inside = collect({ _, _ in true }, opaqueOnly: true)
        return inside.isEmpty ? collect({ _, _ in true }, opaqueOnly: false) : inside
    }
}
