/// Redaction: a region of a picture's pixels replaced before the picture goes into any output, so
/// that what was there is in no file (a box drawn over the intact picture leaves the pixels in
/// the PDF or SVG for anyone to take out).
///
/// - `solid`: every pixel of the region becomes one opaque colour.
/// - `pixelate`: the region is cut into blocks on a grid that starts at its top-left corner;
///   each block becomes its pixels' mean colour (alpha-weighted). A last partial block along
///   an edge joins the block before it, so every block is at least the block size a side
///   (or the whole region, when it is smaller).
/// - `blur`: the region alone, blurred as `blurred(sigma:)` blurs (its edges continued, so
///   nothing from outside it comes in). Blurred text can often be read back.

/// One region to redact, in the pixels of the picture it is applied to.
package struct Redaction: Sendable, Equatable {
    /// How the region's pixels are replaced.
    package enum Method: Sendable, Equatable {
        /// One opaque colour, straight RGB.
        case solid(r: UInt8, g: UInt8, b: UInt8)
        /// Blocks `width` by `height` pixels (fractions allowed: the grid's lines fall on the
        /// nearest pixel edge), each its mean colour.
        case pixelate(width: Double, height: Double)
        /// A Gaussian of standard deviation `sigma` pixels.
        case blur(sigma: Double)
    }

    /// The region: whole pixels, inside the picture.
    package var box: PixelBox
    package var method: Method

    package init(box: PixelBox, method: Method) { self.box = box; self.method = method }

    /// The columns and rows of the region inside a picture `width` x `height` (empty ranges
    /// when it lies outside).
    func clipped(width: Int, height: Int) -> (x: Range<Int>, y: Range<Int>) {
        let x0 = max(0, box.x), x1 = min(width, box.x + box.width)
        let y0 = max(0, box.y), y1 = min(height, box.y + box.height)
        return (x0..<max(x0, x1), y0..<max(y0, y1))
    }

    /// The memory applying `redactions` takes beside the picture: a blur's copy of its region,
    /// its planes of floats and its result, 24 bytes a pixel of the largest blurred region.
    package static func workingBytes(_ redactions: [Redaction]) -> Int {
        redactions.map { r in
            guard case .blur = r.method else { return 0 }
            return 24 * max(0, r.box.width) * max(0, r.box.height)
        }.max() ?? 0
    }
}

extension RasterImage {
    /// The picture with each of `redactions` applied in turn (regions are clipped to the
    /// picture; an empty one changes nothing).
    package func redacted(_ redactions: [Redaction]) -> RasterImage {
        guard !redactions.isEmpty else { return self }
        var pixels = self.pixels
        Self.redact(&pixels, width: width, height: height, hasAlpha: hasAlpha, redactions)
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha,
                           resolution: resolution)
    }

    /// The image redacted in place: its pixels taken out, changed and put back, so that a
    /// picture of many megapixels is not copied for a few small regions (`redacted`'s copy of
    /// a 3000x2000 screenshot cost more than the redaction).
    package mutating func redact(_ redactions: [Redaction]) {
        guard !redactions.isEmpty else { return }
        var pixels = self.pixels
        let (width, height, hasAlpha, resolution) = (self.width, self.height, self.hasAlpha, self.resolution)
        self = RasterImage(width: 0, height: 0, pixels: [], hasAlpha: false)
        Self.redact(&pixels, width: width, height: height, hasAlpha: hasAlpha, redactions)
        self = RasterImage(width: width, height: height, pixels: pixels, hasAlpha: hasAlpha, resolution: resolution)
    }

    /// `pixels` (`width` x `height` RGBA) with each of `redactions` applied in turn.
    private static func redact(_ pixels: inout [UInt8], width: Int, height: Int, hasAlpha: Bool, _ redactions: [Redaction]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for redaction in redactions {
                Self.redact(base, width: width, height: height, hasAlpha: hasAlpha, redaction)
            }
        }
    }

    /// `redaction` applied to `pixels` (`width` x `height` RGBA, rows `width * 4` bytes apart):
    /// only the rows and columns of its region are read or written.
    static func redact(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, hasAlpha: Bool,
                       _ redaction: Redaction) {
        let (columns, rows) = redaction.clipped(width: width, height: height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let (x0, x1, y0, y1) = (columns.lowerBound, columns.upperBound, rows.lowerBound, rows.upperBound)
        switch redaction.method {
        case let .solid(r, g, b):
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * width + x) * 4
                    pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b; pixels[i + 3] = 255
                }
            }
        case let .pixelate(bw, bh):
            let columns = Self.blockEdges(from: x0, to: x1, size: bw), rows = Self.blockEdges(from: y0, to: y1, size: bh)
            for (ya, yb) in zip(rows, rows.dropFirst()) {
                for (xa, xb) in zip(columns, columns.dropFirst()) {
                    Self.fillWithMean(pixels, width: width, x0: xa, y0: ya, x1: xb, y1: yb)
                }
            }
        case let .blur(sigma):
            let rowBytes = (x1 - x0) * 4
            var region = [UInt8](repeating: 0, count: rowBytes * (y1 - y0))
            for y in y0..<y1 {
                for k in 0..<rowBytes { region[(y - y0) * rowBytes + k] = pixels[(y * width + x0) * 4 + k] }
            }
            let blurred = RasterImage(width: x1 - x0, height: y1 - y0, pixels: region, hasAlpha: hasAlpha).blurred(sigma: sigma)
            for y in y0..<y1 {
                for k in 0..<rowBytes { pixels[(y * width + x0) * 4 + k] = blurred.pixels[(y - y0) * rowBytes + k] }
            }
        }
    }

    /// The edges of blocks `size` pixels long from `start` to `end`: whole pixels at the
    /// nearest edge to each multiple of `size`, at least one pixel apart; a last block shorter
    /// than `size` joins the one before.
    package static func blockEdges(from start: Int, to end: Int, size: Double) -> [Int] {
        let length = Double(end - start)
        let count = max(1, Int((length / max(size, 1e-9)).rounded(.down)))
        var edges = [start]
        for k in 1..<count {
            let edge = start + Int((Double(k) * size).rounded())
            if edge > edges[edges.count - 1] && edge < end { edges.append(edge) }
        }
        edges.append(end)
        return edges
    }

    /// Sets the block's pixels to their mean: colours weighted by alpha, alpha averaged.
    private static func fillWithMean(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, x0: Int, y0: Int, x1: Int, y1: Int) {
        var r = 0, g = 0, b = 0, a = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y * width + x) * 4
                let alpha = Int(pixels[i + 3])
                r += Int(pixels[i]) * alpha; g += Int(pixels[i + 1]) * alpha; b += Int(pixels[i + 2]) * alpha
                a += alpha
            }
        }
        let count = (x1 - x0) * (y1 - y0)
        let mean: (UInt8, UInt8, UInt8, UInt8)
        if a == 0 {
            mean = (0, 0, 0, 0)
        } else {
            func channel(_ sum: Int) -> UInt8 { UInt8(min(255, (sum + a / 2) / a)) }
            mean = (channel(r), channel(g), channel(b), UInt8((a + count / 2) / count))
        }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let i = (y * width + x) * 4
                pixels[i] = mean.0; pixels[i + 1] = mean.1; pixels[i + 2] = mean.2; pixels[i + 3] = mean.3
            }
        }
    }
}
