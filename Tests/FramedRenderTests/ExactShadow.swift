import Foundation
import FramedLayout

/// The exact blurred shapes that rendered shadows are judged against, computed numerically and
/// independently of the renderer's own fit: the rounded box's chord at each height is blurred
/// along x in closed form (erf), and the heights are integrated numerically (Gauss–Legendre, the
/// corners by the arc's angle so that the integrand stays smooth).
enum ExactShadow {
    /// Alpha of `shadows` (CSS order, first on top) at device-pixel sample points: the point of
    /// column i is `(xOrigin + i) / k`, of row j `(yOrigin + j) / k`, in points. Outer shadows give
    /// their alpha; inset shadows `A · (1 − blur)`; composited with OVER.
    static func alpha(_ shadows: [ShadowGeometry], columns: Int, rows: Int, devicePerPoint k: Double,
                      offset: Double) -> [Double] {
        var total = [Double](repeating: 0, count: columns * rows)
        let xs = (0..<columns).map { (Double($0) + offset) / k }, ys = (0..<rows).map { (Double($0) + offset) / k }
        for shadow in shadows.reversed() {
            let blurred = blur(box: shadow.box, radius: shadow.radius, sigma: shadow.sigma, xs: xs, ys: ys)
            for p in total.indices {
                let a = shadow.color.alpha * (shadow.inset ? 1 - blurred[p] : blurred[p])
                total[p] = a + total[p] * (1 - a)
            }
        }
        return total
    }

    /// The box with corner radius `radius` convolved with the Gaussian of `sigma`, at every
    /// (xs[i], ys[j]), row by row.
    static func blur(box: Rect, radius: Double, sigma: Double, xs: [Double], ys: [Double]) -> [Double] {
        guard box.width > 0, box.height > 0 else { return [Double](repeating: 0, count: xs.count * ys.count) }
        let r = min(max(0, radius), box.width / 2, box.height / 2)
        // Nodes (height v, chord [a, b], weight) over the box's height.
        var nodes: [(v: Double, a: Double, b: Double, w: Double)] = []
        func add(from t0: Double, to t1: Double, panels: Int, _ map: (Double) -> (v: Double, a: Double, b: Double, dv: Double)) {
            let gx = [-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                      0.2386191860831969, 0.6612093864662645, 0.9324695142031521]
            let gw = [0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                      0.4679139345726910, 0.3607615730481386, 0.1713244923791704]
            let h = (t1 - t0) / Double(panels)
            for p in 0..<panels {
                for (x, w) in zip(gx, gw) {
                    let t = t0 + h * (Double(p) + 0.5 + x / 2)
                    let m = map(t)
                    nodes.append((m.v, m.a, m.b, w * h / 2 * m.dv))
                }
            }
        }
        if r > 0 {
            let panels = max(2, Int((r / sigma * 2).rounded(.up)))
            // Top and bottom corners by angle θ: v = top + r(1 − sin θ), chord inset r(1 − cos θ).
            add(from: 0, to: .pi / 2, panels: panels) { t in
                let inset = r * (1 - cos(t))
                return (box.minY + r * (1 - sin(t)), box.minX + inset, box.maxX - inset, r * cos(t))
            }
            add(from: 0, to: .pi / 2, panels: panels) { t in
                let inset = r * (1 - cos(t))
                return (box.maxY - r * (1 - sin(t)), box.minX + inset, box.maxX - inset, r * cos(t))
            }
        }
        let straight = box.height - 2 * r
        if straight > 0 {
            add(from: box.minY + r, to: box.maxY - r, panels: max(1, Int((straight / sigma * 2).rounded(.up)))) { t in
                (t, box.minX, box.maxX, 1)
            }
        }
        let n = nodes.count, nx = xs.count, ny = ys.count
        var across = [Double](repeating: 0, count: n * nx)
        for k in 0..<n {
            for i in 0..<nx {
                across[k * nx + i] = phi((xs[i] - nodes[k].a) / sigma) - phi((xs[i] - nodes[k].b) / sigma)
            }
        }
        var down = [Double](repeating: 0, count: ny * n)
        for j in 0..<ny {
            for k in 0..<n {
                let u = (ys[j] - nodes[k].v) / sigma
                down[j * n + k] = nodes[k].w * exp(-0.5 * u * u) / (sigma * (2 * Double.pi).squareRoot())
            }
        }
        var out = [Double](repeating: 0, count: nx * ny)
        across.withUnsafeBufferPointer { f in
            down.withUnsafeBufferPointer { g in
                out.withUnsafeMutableBufferPointer { o in
                    for j in 0..<ny {
                        for k in 0..<n {
                            let weight = g[j * n + k]
                            if weight < 1e-12 { continue }
                            let row = k * nx, base = j * nx
                            for i in 0..<nx { o[base + i] += weight * f[row + i] }
                        }
                    }
                }
            }
        }
        return out.map { min(1, max(0, $0)) }
    }

    static func phi(_ u: Double) -> Double { 0.5 * erfc(-u / 2.squareRoot()) }

    /// Whether `p` lies within `margin` of the rounded box's inside (used to leave out antialiased
    /// edges).
    static func inside(_ p: Point, box: Rect, radius: Double, margin: Double) -> Bool {
        let r = min(max(0, radius), box.width / 2, box.height / 2)
        let dx = max(box.minX + r - p.x, p.x - (box.maxX - r), 0)
        let dy = max(box.minY + r - p.y, p.y - (box.maxY - r), 0)
        guard p.x >= box.minX - margin, p.x <= box.maxX + margin, p.y >= box.minY - margin,
              p.y <= box.maxY + margin else { return false }
        // Corners: within r + margin of the arc centre (a negative margin shrinks the box's corner
        // radius no further than to a point).
        return (dx * dx + dy * dy).squareRoot() <= max(r + margin, 0) || (dx == 0 && dy == 0)
    }
}
