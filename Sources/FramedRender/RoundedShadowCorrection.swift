internal import Glibc
import FramedLayout

/// A function drawn as straight segments between knots: what a gradient's stops draw.
struct Polyline: Sendable, Equatable {
    var positions: [Double]
    var values: [Double]

    /// Linear interpolation between the knots, the end values beyond them.
    func value(at t: Double) -> Double {
        guard let first = positions.first, let last = positions.last else { return 0 }
        if t <= first { return values[0] }
        if t >= last { return values[values.count - 1] }
        var lo = 0, hi = positions.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if positions[mid] <= t { lo = mid } else { hi = mid }
        }
        let span = positions[hi] - positions[lo]
        let w = span > 0 ? (t - positions[lo]) / span : 0
        return values[lo] + (values[hi] - values[lo]) * w
    }

    /// `f` sampled every `step` from `start` to `end` (both included).
    static func sampling(from start: Double, to end: Double, step: Double,
                         _ f: (Double) -> Double) -> Polyline {
        let count = max(1, Int(((end - start) / step).rounded(.up)))
        let positions = (0...count).map { start + (end - start) * Double($0) / Double(count) }
        return Polyline(positions: positions, values: positions.map(f))
    }

    /// The same polyline followed by `other`, whose first knot must not come before this one's last.
    func appending(_ other: Polyline) -> Polyline {
        var result = self
        for (t, v) in zip(other.positions, other.values) where t > (result.positions.last ?? -.infinity) {
            result.positions.append(t)
            result.values.append(v)
        }
        return result
    }

    /// A subset of the knots (always the first and the last) whose segments stay within each
    /// dropped knot's tolerance (looser where the value matters less): few gradient stops where
    /// the function is nearly straight.
    func simplified(tolerances: [Double]) -> Polyline {
        guard positions.count > 2 else { return self }
        var kept = [0]
        var i = 0
        while i < positions.count - 1 {
            var j = i + 1
            // Extend the segment from knot i as far as every knot in between stays close to it.
            while j + 1 < positions.count && fits(from: i, to: j + 1, tolerances: tolerances) { j += 1 }
            kept.append(j)
            i = j
        }
        return Polyline(positions: kept.map { positions[$0] }, values: kept.map { values[$0] })
    }

    /// Fewest knots whose segments stay within `tolerance` of every knot of `self`, the knot values
    /// being free (not on the curve): each knot moves by the mean of its two segments' mid-range
    /// error, which about halves the error of the interpolating simplification, so the same
    /// tolerance takes about 1/√2 as many stops.
    func fitted(tolerance: Double) -> Polyline {
        fitted(tolerances: [Double](repeating: tolerance, count: positions.count))
    }

    /// The same with a tolerance for each knot.
    func fitted(tolerances: [Double]) -> Polyline {
        for factor in [1.9, 1.6, 1.3] {
            let candidate = simplified(tolerances: tolerances.map { $0 * factor }).balanced(against: self)
            if candidate.fits(self, within: tolerances) { return candidate }
        }
        return simplified(tolerances: tolerances)
    }

    private func fits(_ reference: Polyline, within tolerances: [Double]) -> Bool {
        reference.positions.indices.allSatisfy {
            abs(value(at: reference.positions[$0]) - reference.values[$0]) <= tolerances[$0]
        }
    }

    /// The knots moved toward the middle of the error band of their segments (values kept in 0...1).
    private func balanced(against reference: Polyline) -> Polyline {
        let n = positions.count
        guard n > 2 else { return self }
        var midrange = [Double](repeating: 0, count: n - 1)
        var segment = 0
        var low = [Double](repeating: 0, count: n - 1), high = [Double](repeating: 0, count: n - 1)
        for (t, v) in zip(reference.positions, reference.values) {
            while segment < n - 2 && t > positions[segment + 1] { segment += 1 }
            let e = v - value(at: t)
            low[segment] = min(low[segment], e); high[segment] = max(high[segment], e)
        }
        for i in 0..<(n - 1) { midrange[i] = (low[i] + high[i]) / 2 }
        var result = self
        for k in 0..<n {
            let left = k > 0 ? midrange[k - 1] : midrange[0], right = k < n - 1 ? midrange[k] : midrange[n - 2]
            result.values[k] = min(1, max(0, values[k] + (left + right) / 2))
        }
        return result
    }

    private func fits(from i: Int, to j: Int, tolerances: [Double]) -> Bool {
        let t0 = positions[i], t1 = positions[j], v0 = values[i], v1 = values[j]
        guard t1 > t0 else { return true }
        for k in (i + 1)..<j {
            let line = v0 + (v1 - v0) * (positions[k] - t0) / (t1 - t0)
            if abs(values[k] - line) > tolerances[k] { return false }
        }
        return true
    }
}

/// What turns the separable (sharp-corner) shadow into the shadow of a rounded box.
///
/// The blurred rounded box is `S · (1 − D)`, where `S = fx · fy` is the blurred sharp box and
/// `D = N / S`, N being the blur of the four corner notches (the sharp corner minus the quarter
/// disc). `D` is fitted numerically as a product of one-dimensional factors,
///
///     D ≈ bx(x) · by(y) · a(ρ₁) · a(ρ₂) · a(ρ₃) · a(ρ₄),
///
/// ρᵢ the distance to the i-th arc centre; `bx`, `by` are symmetric about the box's middle. Each
/// factor is a gradient, and the product is what OVER composes: layers with alphas `1 − bx`,
/// `1 − by` and `1 − a(ρᵢ)` give `1 − D` (transmittances multiply). The fit (weighted least
/// squares in the blurred alpha, alternating over the three factors) stays within about 1.2/255
/// of the exact shape for radius/sigma from 0 to 10 and any aspect ratio, and within about 2.2/255
/// for frames smaller than 6σ or nearly a pill (the corners' regions overlap). Why this form: it
/// is exact for small radii (a small notch blurs to a separable bump) and close for large ones (D
/// is then "outside the arc" times "not past the arc's ends"), it needs no clip (so no seam), and
/// it costs six gradients per shadow.
struct CornerCorrection: Sendable, Equatable {
    /// a(ρ), ρ in points from an arc centre; 1 (no correction) from the last knot on.
    var radial: Polyline
    /// bx, x in points from the box's left edge, up to its middle.
    var across: Polyline
    /// by, y in points from the box's top edge, up to its middle.
    var down: Polyline
    /// For each knot of `radial`, `across` and `down`: how much an error there moves the shadow's
    /// alpha at most (the product of the other factors and S), so that stops can be sparser where
    /// the shadow is faint.
    var radialWeight: [Double], acrossWeight: [Double], downWeight: [Double]

    /// Below this radius (in sigmas) the sharp shadow is within 0.6/255 of the rounded one.
    static let smallestRadius = 0.25

    /// Fits the correction for a box of `size` with corner `radius`, blurred by `sigma`. Errors
    /// inside the rounded box weigh `insideWeight` times those outside it. nil when no correction
    /// is needed: when the sharp shadow, drawn at `opacity`, is within `negligible` (in alpha) of
    /// the rounded one everywhere.
    static func fit(size: Size, radius: Double, sigma: Double, insideWeight: Double,
                    opacity: Double = 1, negligible: Double = 0.6 / 255) -> CornerCorrection? {
        guard sigma > 0, size.width > 0, size.height > 0 else { return nil }
        let w = size.width / sigma, h = size.height / sigma
        let r = min(radius / sigma, w / 2, h / 2)
        guard r >= smallestRadius else { return nil }
        var problem = CornerFitProblem(width: w, height: h, radius: r, insideWeight: insideWeight)
        guard problem.largestDifference * opacity > negligible else { return nil }
        problem.solve(iterations: 30)
        func inPoints(_ line: Polyline) -> Polyline {
            Polyline(positions: line.positions.map { $0 * sigma }, values: line.values)
        }
        let arcs = problem.radialKnots, xs = problem.xs, ys = problem.ys
        var across = Polyline(positions: xs, values: problem.bx)
        var down = Polyline(positions: ys, values: problem.by)
        // Past the fitted part (large boxes) no correction is needed: b = 0 up to the middle.
        if xs.last! < w / 2 - 1e-9 { across = across.appending(Polyline(positions: [w / 2], values: [0])) }
        if ys.last! < h / 2 - 1e-9 { down = down.appending(Polyline(positions: [h / 2], values: [0])) }
        let weights = problem.sensitivities()
        func padded(_ w: [Double], to count: Int) -> [Double] { w + [Double](repeating: 0, count: count - w.count) }
        return CornerCorrection(radial: inPoints(Polyline(positions: arcs, values: problem.a)),
                                across: inPoints(across), down: inPoints(down),
                                radialWeight: weights.radial,
                                acrossWeight: padded(weights.across, to: across.positions.count),
                                downWeight: padded(weights.down, to: down.positions.count))
    }

    /// D at `p` for the box `box` (the model, as drawn), for tests and diagnostics.
    func deficit(at p: Point, box: Rect, radius: Double) -> Double {
        let r = min(radius, box.width / 2, box.height / 2)
        let dx = min(p.x - box.minX, box.maxX - p.x), dy = min(p.y - box.minY, box.maxY - p.y)
        var d = across.value(at: dx) * down.value(at: dy)
        for (cx, cy) in [(box.minX + r, box.minY + r), (box.maxX - r, box.minY + r),
                         (box.minX + r, box.maxY - r), (box.maxX - r, box.maxY - r)] {
            d *= radial.value(at: ((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy)).squareRoot())
        }
        return d
    }
}

/// The numerical fit behind `CornerCorrection`, in units of sigma, on a grid over the top-left
/// quarter of the box plus 4σ (the rest follows by symmetry), with the origin at the box's corner.
struct CornerFitProblem {
    let width, height, radius: Double
    /// Grid coordinates.
    let xs: [Double], ys: [Double]
    /// Knots of a(ρ).
    let radialKnots: [Double]
    /// Per grid point: the exact deficit D, the weight of its error (S², less inside) and S.
    private var target: [Double] = [], weight: [Double] = [], sharp: [Double] = []
    /// Per grid point and arc centre: where ρ falls among the radial knots.
    private var cells: [[(index: Int, fraction: Double)]] = []
    private(set) var a: [Double], bx: [Double], by: [Double]
    /// The largest difference between the sharp and the rounded shadow, S · D, on the grid.
    private(set) var largestDifference = 0.0

    init(width: Double, height: Double, radius: Double, insideWeight: Double) {
        self.width = width; self.height = height; self.radius = radius
        // About 0.3σ between grid points, at most 100 per side.
        let xEnd = min(width / 2, radius + 5), yEnd = min(height / 2, radius + 5)
        let step = max(0.3, (max(xEnd, yEnd) + 4) / 100)
        xs = Polyline.sampling(from: -4, to: xEnd, step: step) { $0 }.positions
        ys = Polyline.sampling(from: -4, to: yEnd, step: step) { $0 }.positions
        let farthest = ((radius + 4) * (radius + 4) * 2).squareRoot()
        radialKnots = Polyline.sampling(from: 0, to: farthest, step: step) { $0 }.positions
        a = [Double](repeating: 1, count: radialKnots.count)
        bx = [Double](repeating: 1, count: xs.count)
        by = [Double](repeating: 1, count: ys.count)
        computeTarget(insideWeight: insideWeight)
    }

    /// The exact deficit N/S on the grid: N summed over the four notches, each integrated over the
    /// arc's angle (Gauss–Legendre), the blur along x in closed form.
    private mutating func computeTarget(insideWeight: Double) {
        let nx = xs.count, ny = ys.count, r = radius
        var notch = [Double](repeating: 0, count: nx * ny)
        // Quadrature over θ in [0, π/2]: the arc point (r − r cos θ, r − r sin θ).
        let (nodes, weights) = Self.gaussLegendre(panels: max(2, Int((r * 0.8).rounded(.up))))
        let depth = nodes.map { r * (1 - sin($0)) }  // v: height of the chord below the top edge
        let reach = nodes.map { r * (1 - cos($0)) }  // w: the notch's width at that height
        let mass = zip(nodes, weights).map { r * cos($0) * $1 }
        for corner in 0..<4 {
            let right = corner & 1 == 1, bottom = corner & 2 == 2
            // Skip notches too far from the grid to matter.
            if right && width - r - xs.last! > 7 { continue }
            if bottom && height - r - ys.last! > 7 { continue }
            let lx = xs.map { right ? width - $0 : $0 }, ly = ys.map { bottom ? height - $0 : $0 }
            var fx = [Double](repeating: 0, count: nx * nodes.count)
            for i in 0..<nx {
                let base = EdgeProfile.phi(lx[i])
                for k in nodes.indices { fx[i * nodes.count + k] = base - EdgeProfile.phi(lx[i] - reach[k]) }
            }
            var gy = [Double](repeating: 0, count: ny * nodes.count)
            for j in 0..<ny {
                for k in nodes.indices { gy[j * nodes.count + k] = mass[k] * EdgeProfile.density(ly[j] - depth[k]) }
            }
            fx.withUnsafeBufferPointer { fx in
                gy.withUnsafeBufferPointer { gy in
                    notch.withUnsafeMutableBufferPointer { out in
                        let n = nodes.count
                        for j in 0..<ny {
                            for i in 0..<nx {
                                var sum = 0.0
                                for k in 0..<n { sum += gy[j * n + k] * fx[i * n + k] }
                                out[j * nx + i] += sum
                            }
                        }
                    }
                }
            }
        }
        let profileX = EdgeProfile(start: 0, end: width, sigma: 1), profileY = EdgeProfile(start: 0, end: height, sigma: 1)
        let sx = xs.map(profileX.value(at:)), sy = ys.map(profileY.value(at:))
        target = []; weight = []; cells = []
        let centres = [(r, r), (width - r, r), (r, height - r), (width - r, height - r)]
        let step = radialKnots[1] - radialKnots[0], last = radialKnots.count - 1
        for j in 0..<ny {
            for i in 0..<nx {
                let s = sx[i] * sy[j]
                sharp.append(s)
                target.append(s > 1e-12 ? min(1, max(0, notch[j * nx + i] / s)) : 0)
                largestDifference = max(largestDifference, s * target[target.count - 1])
                weight.append(s * s * (Self.insideRoundedBox(xs[i], ys[j], width, height, r) ? insideWeight : 1))
                cells.append(centres.map { c in
                    let rho = ((xs[i] - c.0) * (xs[i] - c.0) + (ys[j] - c.1) * (ys[j] - c.1)).squareRoot()
                    let u = min(rho / step, Double(last))
                    let k = min(Int(u), last - 1)
                    return (k, u - Double(k))
                })
            }
        }
    }

    static func insideRoundedBox(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) -> Bool {
        guard x >= 0, y >= 0, x <= w, y <= h else { return false }
        let dx = max(0, max(r - x, x - (w - r))), dy = max(0, max(r - y, y - (h - r)))
        return dx * dx + dy * dy <= r * r
    }

    /// Gauss–Legendre nodes and weights over [0, π/2], in `panels` equal panels of 6 points.
    static func gaussLegendre(panels: Int) -> ([Double], [Double]) {
        let x = [0.2386191860831969, 0.6612093864662645, 0.9324695142031521]
        let w = [0.4679139345726910, 0.3607615730481386, 0.1713244923791704]
        var nodes: [Double] = [], weights: [Double] = []
        let width = Double.pi / 2 / Double(panels)
        for p in 0..<panels {
            let mid = (Double(p) + 0.5) * width
            for (xi, wi) in zip(x, w) {
                for sign in [-1.0, 1.0] {
                    nodes.append(mid + sign * xi * width / 2)
                    weights.append(wi * width / 2)
                }
            }
        }
        return (nodes, weights)
    }

    private func radialValue(_ cell: (index: Int, fraction: Double), _ knots: [Double]) -> Double {
        knots[cell.index] * (1 - cell.fraction) + knots[cell.index + 1] * cell.fraction
    }

    /// Weighted squared error of the model with radial knots `knots`.
    private func error(radial knots: [Double]) -> Double {
        var sum = 0.0
        let nx = xs.count
        for p in target.indices {
            var d = bx[p % nx] * by[p / nx]
            for cell in cells[p] { d *= radialValue(cell, knots) }
            sum += weight[p] * (d - target[p]) * (d - target[p])
        }
        return sum
    }

    /// For each knot of a, bx and by, the largest S · (the other factors) over the grid points it
    /// touches: an error ε in that knot changes the shadow's alpha by at most ε times it.
    func sensitivities() -> (radial: [Double], across: [Double], down: [Double]) {
        let nx = xs.count
        var radial = [Double](repeating: 0, count: a.count), across = [Double](repeating: 0, count: nx)
        var down = [Double](repeating: 0, count: ys.count)
        for q in target.indices {
            let factors = cells[q].map { radialValue($0, a) }
            let all = factors.reduce(1, *)
            across[q % nx] = max(across[q % nx], sharp[q] * by[q / nx] * all)
            down[q / nx] = max(down[q / nx], sharp[q] * bx[q % nx] * all)
            for (k, cell) in cells[q].enumerated() {
                let others = factors.enumerated().reduce(1.0) { $1.offset == k ? $0 : $0 * $1.element }
                let w = sharp[q] * bx[q % nx] * by[q / nx] * others
                radial[cell.index] = max(radial[cell.index], w)
                radial[min(cell.index + 1, a.count - 1)] = max(radial[min(cell.index + 1, a.count - 1)], w)
            }
        }
        return (radial, across, down)
    }

    /// Alternating least squares: a (with a damped step when arc centres coincide, as in a circle),
    /// then bx, then by, each a linear weighted fit with the other factors held.
    mutating func solve(iterations: Int) {
        let nx = xs.count, p = target.count
        // The knots each cell falls on, the same in every pass.
        let ownCorner = cells.map { $0[0] }
        let columns = (0..<p).map { ($0 % nx, 0.0) }, rows = (0..<p).map { ($0 / nx, 0.0) }
        for _ in 0..<iterations {
            // a: the top-left corner's own factor, the others held at their current values.
            var coefficient = [Double](repeating: 0, count: p)
            for q in 0..<p {
                var c = bx[q % nx] * by[q / nx]
                for k in 1..<4 { c *= radialValue(cells[q][k], a) }
                coefficient[q] = c
            }
            var fresh = Self.leastSquares(knots: a.count, cells: ownCorner, coefficient: coefficient,
                                          weight: weight, target: target)
            fresh[fresh.count - 1] = 1
            var best = (error: Double.infinity, knots: a)
            for eta in [1.0, 0.5, 0.25] {
                let candidate = zip(a, fresh).map { pow(max($0, 1e-12), 1 - eta) * pow(max($1, 1e-12), eta) }
                let e = error(radial: candidate)
                if e < best.error { best = (e, candidate) }
            }
            a = best.knots
            // bx, then by: one knot per grid column (row).
            var product = [Double](repeating: 1, count: p)
            for q in 0..<p { for cell in cells[q] { product[q] *= radialValue(cell, a) } }
            bx = Self.leastSquares(knots: nx, cells: columns,
                                   coefficient: (0..<p).map { product[$0] * by[$0 / nx] }, weight: weight, target: target)
            by = Self.leastSquares(knots: ys.count, cells: rows,
                                   coefficient: (0..<p).map { product[$0] * bx[$0 % nx] }, weight: weight, target: target)
        }
    }

    /// Minimises Σ weight · (target − coefficient · f)² over piecewise-linear f (knot values
    /// clamped to 0...1), with a light second-difference penalty that keeps unobserved knots smooth.
    static func leastSquares(knots n: Int, cells: [(index: Int, fraction: Double)], coefficient: [Double],
                             weight: [Double], target: [Double]) -> [Double] {
        // Symmetric band matrix with bandwidth 2: band[d][i] = A[i][i + d].
        var band = [[Double]](repeating: [Double](repeating: 0, count: n), count: 3)
        var rhs = [Double](repeating: 0, count: n)
        for q in cells.indices {
            let (k, f) = cells[q]
            let wc = weight[q] * coefficient[q]
            guard wc != 0 else { continue }
            let w0 = 1 - f, w1 = f
            band[0][k] += wc * coefficient[q] * w0 * w0
            rhs[k] += wc * target[q] * w0
            if w1 > 0, k + 1 < n {
                band[0][k + 1] += wc * coefficient[q] * w1 * w1
                band[1][k] += wc * coefficient[q] * w0 * w1
                rhs[k + 1] += wc * target[q] * w1
            }
        }
        let scale = max(band[0].reduce(0, +) / Double(n), 1e-30)
        let lambda = 1e-6 * scale
        // Second differences: D^T D has the stencil 1, -4, 6, -4, 1 (fewer terms at the ends).
        for i in 0..<(n - 2) {
            let idx = [i, i + 1, i + 2], c = [1.0, -2.0, 1.0]
            for u in 0..<3 { for v in u..<3 { band[idx[v] - idx[u]][idx[u]] += lambda * c[u] * c[v] } }
        }
        for i in 0..<n { band[0][i] += 1e-12 * scale }
        // Banded Cholesky (LDLᵀ) and solve.
        var l1 = [Double](repeating: 0, count: n), l2 = [Double](repeating: 0, count: n)
        var d = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let a2 = i >= 2 ? band[2][i - 2] : 0
            let a1 = i >= 1 ? band[1][i - 1] : 0
            l2[i] = i >= 2 ? a2 / d[i - 2] : 0
            l1[i] = i >= 1 ? (a1 - (i >= 2 ? l2[i] * d[i - 2] * l1[i - 1] : 0)) / d[i - 1] : 0
            d[i] = band[0][i] - l1[i] * l1[i] * (i >= 1 ? d[i - 1] : 0) - l2[i] * l2[i] * (i >= 2 ? d[i - 2] : 0)
            d[i] = max(d[i], 1e-300)
        }
        var y = rhs
        for i in 0..<n {
            if i >= 1 { y[i] -= l1[i] * y[i - 1] }
            if i >= 2 { y[i] -= l2[i] * y[i - 2] }
        }
        for i in 0..<n { y[i] /= d[i] }
        for i in stride(from: n - 1, through: 0, by: -1) {
            if i + 1 < n { y[i] -= l1[i + 1] * y[i + 1] }
            if i + 2 < n { y[i] -= l2[i + 2] * y[i + 2] }
        }
        return y.map { min(1, max(0, $0)) }
    }
}
