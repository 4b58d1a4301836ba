import Foundation
import FramedLayout

/// The vector drop shadow.
///
/// A Gaussian blur of a sharp-cornered box is separable: its alpha at (x, y) is
/// `A · fx(x) · fy(y)` with `fx(x) = Φ((x − x0)/σ) − Φ((x − x1)/σ)` (Φ the normal CDF), and `fy`
/// likewise. Cairo draws that exactly and as vectors: the source is a linear gradient along x
/// carrying `A · fx`, masked (`cairo_mask`) by a linear gradient along y carrying `fy`. SVG gets a
/// `<mask>` with `<linearGradient>`s, PDF a soft mask with shadings; nothing is rasterised.
enum VectorShadow {
    /// Largest error allowed between a gradient's piecewise-linear stops and the exact profile, in
    /// alpha (0...1); the product of two profiles then stays within about 1/255.
    static let tolerance = 0.002

    /// Draws `shadow` with the OVER operator. Rounded shadow boxes use the separable (sharp-corner)
    /// shadow for now.
    static func draw(_ shadow: ShadowGeometry, in context: CairoContext) throws(RenderError) {
        let box = shadow.box
        guard box.width > 0, box.height > 0, shadow.color.alpha > 0 else { return }
        let sigma = shadow.sigma
        guard sigma > 1e-6 else {
            context.addRoundedRect(box, radius: shadow.radius)
            context.setSource(shadow.color)
            context.fill()
            return
        }
        let reach = 4 * sigma
        let across = try gradient(from: Point(x: box.minX - reach, y: 0), to: Point(x: box.maxX + reach, y: 0),
                                  profile: EdgeProfile(start: box.minX, end: box.maxX, sigma: sigma),
                                  color: shadow.color)
        let down = try gradient(from: Point(x: 0, y: box.minY - reach), to: Point(x: 0, y: box.maxY + reach),
                                profile: EdgeProfile(start: box.minY, end: box.maxY, sigma: sigma),
                                color: .black)
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(box.outset(by: reach), radius: 0)
            context.clip()
            context.setSource(across)
            context.mask(down)
        }
    }

    /// A padded linear gradient from `start` to `end` whose alpha follows `profile` (times the
    /// colour's own alpha).
    private static func gradient(from start: Point, to end: Point, profile: EdgeProfile,
                                 color: RGBAColor) throws(RenderError) -> CairoPattern {
        let pattern = try CairoPattern.linear(from: start, to: end)
        let stops = profile.stops(tolerance: tolerance)
        let first = stops.first!.position, span = stops.last!.position - first
        for stop in stops {
            var c = color
            c.alpha = color.alpha * stop.value
            pattern.addStop((stop.position - first) / span, c)
        }
        pattern.padEnds()
        return pattern
    }
}

/// One axis of a blurred box: `f(t) = Φ((t − start)/σ) − Φ((t − end)/σ)`.
struct EdgeProfile: Sendable, Equatable {
    var start: Double
    var end: Double
    var sigma: Double

    /// Φ, the standard normal CDF.
    static func phi(_ u: Double) -> Double { 0.5 * erfc(-u / 2.squareRoot()) }
    /// The standard normal density.
    static func density(_ u: Double) -> Double { exp(-0.5 * u * u) / (2 * Double.pi).squareRoot() }

    func value(at t: Double) -> Double {
        Self.phi((t - start) / sigma) - Self.phi((t - end) / sigma)
    }

    /// f''(t), which bounds the error of linear interpolation (h²/8 · |f''|).
    func curvature(at t: Double) -> Double {
        let u = (t - start) / sigma, v = (t - end) / sigma
        return (-u * Self.density(u) + v * Self.density(v)) / (sigma * sigma)
    }

    /// Gradient stops from `start − 4σ` to `end + 4σ` such that linear interpolation between them
    /// stays within `tolerance` of `f`. Step lengths follow the curvature, so flat stretches get no
    /// stops and the steep edges about twenty each. The end stops are exactly zero.
    func stops(tolerance: Double) -> [(position: Double, value: Double)] {
        let lower = start - 4 * sigma, upper = end + 4 * sigma
        var result = [(position: lower, value: 0.0)]
        var t = lower
        while t < upper {
            var h = upper - t
            while h > sigma * 1e-3 {
                let c = max(abs(curvature(at: t)), abs(curvature(at: t + h / 2)), abs(curvature(at: t + h)))
                let bound = c > 0 ? (8 * tolerance / c).squareRoot() : h
                if bound < h { h = max(bound, 0.5 * h) * 0.98; continue }
                if maxError(from: t, to: t + h) <= tolerance { break }
                h *= 0.7
            }
            t = min(upper, t + h)
            result.append((t, t >= upper ? 0 : value(at: t)))
        }
        return result
    }

    /// Largest difference between `f` and the straight line joining its ends on [a, b].
    private func maxError(from a: Double, to b: Double) -> Double {
        let fa = a == start - 4 * sigma ? 0 : value(at: a), fb = value(at: b)
        var worst = 0.0
        for i in 1..<16 {
            let w = Double(i) / 16, t = a + (b - a) * w
            worst = max(worst, abs(value(at: t) - (fa + (fb - fa) * w)))
        }
        return worst
    }
}
