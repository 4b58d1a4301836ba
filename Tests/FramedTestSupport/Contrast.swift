import Foundation
import FramedRaster

/// WCAG 2's contrast arithmetic, worked out by the tests on their own from 8-bit sRGB values
/// (never from framed's colour types), and the contrast of rendered text read from its pixels.
package enum WCAG {
    /// The relative luminance of an sRGB colour given as 0...255 channels.
    package static func luminance(_ r: Int, _ g: Int, _ b: Int) -> Double {
        func linear(_ v: Int) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// The luminance of the grey `v, v, v`.
    package static func grey(_ v: Int) -> Double { luminance(v, v, v) }

    /// The contrast ratio of two luminances: the lighter plus 0.05 over the darker plus 0.05.
    package static func ratio(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }

    /// The luminance where black and white contrast alike with a background: `(L + 0.05)² = 1.05 · 0.05`.
    package static let switchLuminance = (1.05 * 0.05).squareRoot() - 0.05

    /// `top` (straight alpha, 0...255) over the opaque `bottom`, rounded as an 8-bit viewer shows it.
    package static func over(_ top: (r: Int, g: Int, b: Int, a: Int), _ bottom: (Int, Int, Int)) -> (Int, Int, Int) {
        func mix(_ t: Int, _ b: Int) -> Int { Int((Double(t * top.a + b * (255 - top.a)) / 255).rounded()) }
        return (mix(top.r, bottom.0), mix(top.g, bottom.1), mix(top.b, bottom.2))
    }

    /// What rendered text in `box` (pixels: x0, y0, x1, y1, end excluded) reads like, laid on
    /// the opaque `page` where the picture is not opaque: the glyphs' core colour (the commonest
    /// colour among the pixels farthest from the background in luminance) and, of the background
    /// just above and just below the glyphs in the core pixels' columns, the one with the least
    /// contrast with it. Nil when the box has no ink.
    package static func text(in image: RasterImage, box: (Int, Int, Int, Int), page: (Int, Int, Int))
        -> (core: (Int, Int, Int), background: (Int, Int, Int), contrast: Double)? {
        func opaque(_ x: Int, _ y: Int) -> (Int, Int, Int) { over(image.rgba(x, y), page) }
        func lum(_ c: (Int, Int, Int)) -> Double { luminance(c.0, c.1, c.2) }
        let x0 = max(0, box.0), y0 = max(0, box.1), x1 = min(image.width, box.2), y1 = min(image.height, box.3)
        guard x1 > x0, y1 - y0 > 6 else { return nil }
        // Each column's background: two rows inside the box's top and bottom edges, where the
        // line's ascent and descent leave no ink in capitals.
        func backgrounds(_ x: Int) -> [(Int, Int, Int)] { [opaque(x, y0 + 1), opaque(x, y1 - 2)] }
        var farthest = 0.0
        var distances: [(x: Int, y: Int, d: Double)] = []
        for y in (y0 + 3)..<(y1 - 3) {
            for x in x0..<x1 {
                let here = lum(opaque(x, y))
                let d = backgrounds(x).map { abs(ratio(here, lum($0)) - 1) }.min() ?? 0
                distances.append((x, y, d))
                farthest = max(farthest, d)
            }
        }
        guard farthest > 0.5 else { return nil }
        var counts: [Int: Int] = [:]
        var columns: [Int: Int] = [:]
        for p in distances where p.d >= 0.9 * farthest {
            let c = opaque(p.x, p.y)
            counts[c.0 << 16 | c.1 << 8 | c.2, default: 0] += 1
            columns[c.0 << 16 | c.1 << 8 | c.2] = p.x
        }
        guard let (key, _) = counts.max(by: { $0.value < $1.value }), let x = columns[key] else { return nil }
        let core = (key >> 16 & 255, key >> 8 & 255, key & 255)
        let worst = backgrounds(x).min { ratio(lum(core), lum($0)) < ratio(lum(core), lum($1)) }!
        return (core, worst, ratio(lum(core), lum(worst)))
    }
}
