import Foundation
import Testing

/// The exact shadows of a frame, computed from its CSS values alone (sizes in CSS px, as a user
/// writes them), to judge what PDF viewers draw. Nothing here comes from framed's own geometry or
/// shadow code: the boxes follow CSS Backgrounds 3 (offset, then spread, the corner radius grown
/// by the spread with its rule for small radii), the canvas follows framed's documented rule (the
/// frame plus each outer shadow's box and 3σ, each side rounded up to whole CSS px), and the blur
/// is integrated numerically (the rounded box's chord at each height blurred along x in closed
/// form, the heights by Gauss–Legendre, the corners by the arc's angle).
struct CSSFrameScene: CustomTestStringConvertible, Sendable {
    struct Shadow: Sendable {
        var x = 0.0, y = 0.0, blur = 0.0, spread = 0.0, alpha = 1.0, inset = false
        /// `"X Y BLUR SPREAD rgba(0,0,0,A)"`, or with `inset ` in front.
        var css: String {
            "\(inset ? "inset " : "")\(x)px \(y)px \(blur)px \(spread)px rgba(0,0,0,\(alpha))"
        }
    }

    var name: String
    var width: Double, height: Double
    var radius = 0.0, border = 0.0, padding = 0.0
    var shadows: [Shadow]
    /// Empty space around the frame and its shadows (`--margin`), in CSS px.
    var margin = 0.0
    var testDescription: String { name }

    /// A box in points: left, top, right, bottom, corner radius.
    struct Box: Sendable { var x0, y0, x1, y1, r: Double }

    static let pt = 0.75

    /// The canvas's left and top margins around the frame (the shadows' room and the margin), in points.
    var origin: (x: Double, y: Double) {
        var left = 0.0, top = 0.0
        for s in shadows where !s.inset {
            left = max(left, 1.5 * s.blur + s.spread - s.x)
            top = max(top, 1.5 * s.blur + s.spread - s.y)
        }
        return (((left - 1e-9).rounded(.up) + margin) * Self.pt, ((top - 1e-9).rounded(.up) + margin) * Self.pt)
    }

    var canvas: (width: Double, height: Double) {
        var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0
        for s in shadows where !s.inset {
            left = max(left, 1.5 * s.blur + s.spread - s.x); right = max(right, 1.5 * s.blur + s.spread + s.x)
            top = max(top, 1.5 * s.blur + s.spread - s.y); bottom = max(bottom, 1.5 * s.blur + s.spread + s.y)
        }
        func whole(_ v: Double) -> Double { (v - 1e-9).rounded(.up) }
        return ((whole(left) + width + whole(right) + 2 * margin) * Self.pt,
                (whole(top) + height + whole(bottom) + 2 * margin) * Self.pt)
    }

    var frame: Box {
        let o = origin
        return Box(x0: o.x, y0: o.y, x1: o.x + width * Self.pt, y1: o.y + height * Self.pt,
                   r: min(radius * Self.pt, width * Self.pt / 2, height * Self.pt / 2))
    }

    var paddingBox: Box {
        let f = frame, b = border * Self.pt
        return Box(x0: f.x0 + b, y0: f.y0 + b, x1: f.x1 - b, y1: f.y1 - b, r: max(0, f.r - b))
    }

    var contentBox: Box {
        let p = paddingBox, d = padding * Self.pt
        return Box(x0: p.x0 + d, y0: p.y0 + d, x1: p.x1 - d, y1: p.y1 - d, r: 0)
    }

    /// CSS Backgrounds 3: a spread adds to the radius, except that a radius below a positive
    /// spread grows by spread · (1 + (r/spread − 1)³); sharp corners stay sharp.
    static func radius(_ r: Double, spread: Double) -> Double {
        guard r > 0 else { return 0 }
        guard spread > 0, r < spread else { return max(0, r + spread) }
        let q = r / spread - 1
        return r + spread * (1 + q * q * q)
    }

    /// The shadow's box (offset, then grown by the spread; inset shadows start from the padding
    /// box and shrink) and its σ, in points.
    func geometry(_ s: Shadow) -> (box: Box, sigma: Double) {
        let start = s.inset ? paddingBox : frame
        let grow = (s.inset ? -s.spread : s.spread) * Self.pt, dx = s.x * Self.pt, dy = s.y * Self.pt
        let r = Self.radius(s.inset ? paddingBox.r : frame.r, spread: grow)
        return (Box(x0: start.x0 + dx - grow, y0: start.y0 + dy - grow, x1: start.x1 + dx + grow, y1: start.y1 + dy + grow, r: r),
                s.blur / 2 * Self.pt)
    }

    /// Alpha of the outer (or inset) shadows composited with OVER, first in the list on top, at
    /// the points (xs[i], ys[j]), row by row.
    func alpha(inset: Bool, xs: [Double], ys: [Double]) -> [Double] {
        var total = [Double](repeating: 0, count: xs.count * ys.count)
        for s in shadows.reversed() where s.inset == inset {
            let (box, sigma) = geometry(s)
            let blurred = Self.blur(box, sigma: sigma, xs: xs, ys: ys)
            for p in total.indices {
                let a = s.alpha * (inset ? 1 - blurred[p] : blurred[p])
                total[p] = a + total[p] * (1 - a)
            }
        }
        return total
    }

    static func phi(_ u: Double) -> Double { 0.5 * erfc(-u / 2.squareRoot()) }

    /// The rounded box convolved with the Gaussian of `sigma`.
    static func blur(_ box: Box, sigma: Double, xs: [Double], ys: [Double]) -> [Double] {
        let w = box.x1 - box.x0, h = box.y1 - box.y0
        guard w > 0, h > 0 else { return [Double](repeating: 0, count: xs.count * ys.count) }
        let r = min(max(0, box.r), w / 2, h / 2)
        let gx = [-0.9324695142031521, -0.6612093864662645, -0.2386191860831969, 0.2386191860831969, 0.6612093864662645, 0.9324695142031521]
        let gw = [0.1713244923791704, 0.3607615730481386, 0.4679139345726910, 0.4679139345726910, 0.3607615730481386, 0.1713244923791704]
        // Nodes: height v, chord from a to b, weight.
        var nodes: [(v: Double, a: Double, b: Double, w: Double)] = []
        func add(_ t0: Double, _ t1: Double, _ panels: Int, _ map: (Double) -> (Double, Double, Double, Double)) {
            let step = (t1 - t0) / Double(panels)
            for p in 0..<panels {
                for (x, wt) in zip(gx, gw) {
                    let (v, a, b, dv) = map(t0 + step * (Double(p) + 0.5 + x / 2))
                    nodes.append((v, a, b, wt * step / 2 * dv))
                }
            }
        }
        if r > 0 {
            let panels = max(2, Int((r / sigma * 2).rounded(.up)))
            add(0, .pi / 2, panels) { t in (box.y0 + r * (1 - sin(t)), box.x0 + r * (1 - cos(t)), box.x1 - r * (1 - cos(t)), r * cos(t)) }
            add(0, .pi / 2, panels) { t in (box.y1 - r * (1 - sin(t)), box.x0 + r * (1 - cos(t)), box.x1 - r * (1 - cos(t)), r * cos(t)) }
        }
        if h - 2 * r > 0 {
            add(box.y0 + r, box.y1 - r, max(1, Int(((h - 2 * r) / sigma * 2).rounded(.up)))) { t in (t, box.x0, box.x1, 1) }
        }
        var out = [Double](repeating: 0, count: xs.count * ys.count)
        let norm = 1 / (sigma * (2 * Double.pi).squareRoot())
        for node in nodes {
            let across = xs.map { phi(($0 - node.a) / sigma) - phi(($0 - node.b) / sigma) }
            for (j, y) in ys.enumerated() {
                let u = (y - node.v) / sigma
                let weight = node.w * exp(-0.5 * u * u) * norm
                if weight < 1e-12 { continue }
                for i in xs.indices { out[j * xs.count + i] += weight * across[i] }
            }
        }
        return out.map { min(1, max(0, $0)) }
    }

    /// Whether (x, y) lies within `margin` of the rounded box's inside.
    static func inside(_ x: Double, _ y: Double, _ box: Box, margin: Double) -> Bool {
        let r = min(max(0, box.r), (box.x1 - box.x0) / 2, (box.y1 - box.y0) / 2)
        guard x >= box.x0 - margin, x <= box.x1 + margin, y >= box.y0 - margin, y <= box.y1 + margin else { return false }
        let dx = max(box.x0 + r - x, x - (box.x1 - r), 0), dy = max(box.y0 + r - y, y - (box.y1 - r), 0)
        return (dx * dx + dy * dy).squareRoot() <= max(r + margin, 0) || (dx == 0 && dy == 0)
    }
}
