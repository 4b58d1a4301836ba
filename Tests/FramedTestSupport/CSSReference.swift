import Foundation

// What a framed picture must look like, computed by the tests from the CSS values they give
// framed, with their own arithmetic: the box model of docs/box-model.md and the blurred shadow
// of CSS (a Gaussian of sigma = blur / 2). Nothing here uses framed's own layout or shadow
// types, so that a mistake there cannot cancel out in a comparison with the rendered pixels.
// Lengths are CSS px, with the canvas's top-left corner at (0, 0).

/// A rectangle in CSS px.
package struct CSSBox: Sendable, Equatable, CustomStringConvertible {
    package var x, y, width, height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    package var minX: Double { x }
    package var minY: Double { y }
    package var maxX: Double { x + width }
    package var maxY: Double { y + height }

    /// Grown by `d` on every side (shrunk when negative).
    package func outset(_ d: Double) -> CSSBox { CSSBox(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d) }
    /// Shrunk by each side's inset.
    package func inset(top: Double, right: Double, bottom: Double, left: Double) -> CSSBox {
        CSSBox(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }
    package func offset(dx: Double, dy: Double) -> CSSBox { CSSBox(x: x + dx, y: y + dy, width: width, height: height) }

    package var description: String { "(\(x), \(y)) \(width)x\(height)" }
}

/// One CSS box shadow, by its numbers: offsets, blur and spread in px, colour as 8-bit RGB and
/// an alpha. `css` is how the tests hand it to framed.
package struct CSSShadow: Sendable, CustomStringConvertible {
    package var x, y, blur, spread: Double
    package var red, green, blue: Int
    package var alpha: Double
    package var inset: Bool

    package init(_ x: Double, _ y: Double, _ blur: Double, _ spread: Double = 0, rgba: (Int, Int, Int, Double) = (0, 0, 0, 1),
                 inset: Bool = false) {
        self.x = x; self.y = y; self.blur = blur; self.spread = spread
        (red, green, blue, alpha) = rgba
        self.inset = inset
    }

    /// The Gaussian's standard deviation: CSS's blur is two sigmas.
    package var sigma: Double { blur / 2 }

    /// `[inset] Xpx Ypx BLURpx SPREADpx rgba(r, g, b, a)`.
    package var css: String {
        (inset ? "inset " : "") + "\(x)px \(y)px \(blur)px \(spread)px rgba(\(red), \(green), \(blue), \(alpha))"
    }

    package var description: String { css }

    /// A comma-separated list, as `--shadow` takes it.
    package static func css(_ shadows: [CSSShadow]) -> String {
        shadows.isEmpty ? "none" : shadows.map(\.css).joined(separator: ", ")
    }
}

/// A frame as CSS describes it, and every box of it on the canvas.
package struct CSSFrame: Sendable {
    /// The frame's outer size (border-box).
    package var width, height: Double
    package var border: Double
    /// Top, right, bottom, left.
    package var padding: (top: Double, right: Double, bottom: Double, left: Double)
    package var radius: Double
    package var shadows: [CSSShadow]
    package var margin: Double

    package init(width: Double, height: Double, border: Double = 0, padding: Double = 0, radius: Double = 0,
                 shadows: [CSSShadow] = [], margin: Double = 0) {
        self.width = width; self.height = height; self.border = border
        self.padding = (padding, padding, padding, padding)
        self.radius = radius; self.shadows = shadows; self.margin = margin
    }

    /// The shadow's box before blurring, in frame coordinates (the frame's corner at 0, 0): the
    /// frame (an inset shadow: the padding box) moved by the offset, grown by the spread (an
    /// inset one: shrunk), with its corner radius, and its sigma.
    package func shadowShape(_ s: CSSShadow) -> (box: CSSBox, radius: Double, sigma: Double) {
        let frame0 = CSSBox(x: 0, y: 0, width: width, height: height)
        let grow = s.inset ? -s.spread : s.spread
        let base = s.inset ? frame0.outset(-border) : frame0
        let baseRadius = s.inset ? innerRadius : outerRadius
        return (base.offset(dx: s.x, dy: s.y).outset(grow), Self.spreadRadius(baseRadius, spread: grow), s.sigma)
    }

    /// CSS Backgrounds 3, "shadow shape": the spread is added to the radius, except that a radius
    /// smaller than a positive spread grows by spread · (1 + (r/spread − 1)³) (sharp corners stay
    /// sharp); a negative spread shrinks it, never below zero.
    package static func spreadRadius(_ r: Double, spread: Double) -> Double {
        if r <= 0 { return 0 }
        if spread > 0 && r < spread {
            let ratio = r / spread - 1
            return r + spread * (1 + ratio * ratio * ratio)
        }
        return max(0, r + spread)
    }

    /// How far the canvas reaches beyond the frame on each side: each outer shadow's box grown
    /// by 3 sigma, rounded up to whole px, then the margin.
    package var reach: (left: Double, top: Double, right: Double, bottom: Double) {
        var left = 0.0, top = 0.0, right = 0.0, bottom = 0.0
        for s in shadows where !s.inset {
            let extent = shadowShape(s).box.outset(3 * s.sigma)
            left = max(left, -extent.minX); top = max(top, -extent.minY)
            right = max(right, extent.maxX - width); bottom = max(bottom, extent.maxY - height)
        }
        func up(_ v: Double) -> Double { (v - 1e-9).rounded(.up) + margin }
        return (up(left), up(top), up(right), up(bottom))
    }

    package var canvasWidth: Double { reach.left + width + reach.right }
    package var canvasHeight: Double { reach.top + height + reach.bottom }

    /// The frame (border-box) on the canvas.
    package var frame: CSSBox { CSSBox(x: reach.left, y: reach.top, width: width, height: height) }
    /// Inside the border.
    package var paddingBox: CSSBox { frame.outset(-border) }
    /// Inside the padding.
    package var contentBox: CSSBox {
        paddingBox.inset(top: padding.top, right: padding.right, bottom: padding.bottom, left: padding.left)
    }
    /// The frame's corner radius: at most half its shorter side.
    package var outerRadius: Double { min(radius, width / 2, height / 2) }
    /// The border's inner corner radius.
    package var innerRadius: Double { max(0, outerRadius - border) }

    /// A shadow's shape on the canvas.
    package func placedShadow(_ s: CSSShadow) -> (box: CSSBox, radius: Double, sigma: Double) {
        let shape = shadowShape(s)
        return (shape.box.offset(dx: reach.left, dy: reach.top), shape.radius, shape.sigma)
    }

    /// The canvas in device pixels at `k` device pixels per CSS px (PNG: 1 at scale 1).
    package func canvasPixels(_ k: Double) -> (width: Int, height: Int) {
        (Int((canvasWidth * k - 1e-6).rounded(.up)), Int((canvasHeight * k - 1e-6).rounded(.up)))
    }
}

/// The exact blurred shapes: the rounded box's chord at each height blurred along x in closed
/// form (erf), the heights integrated numerically (Gauss–Legendre; the corners by the arc's
/// angle so that the integrand stays smooth). For a sharp box that is `A · fx · fy`.
package enum ExactShadow {
    /// Φ, the standard normal CDF.
    package static func phi(_ u: Double) -> Double { 0.5 * erfc(-u / 2.squareRoot()) }

    /// The sample points of device-pixel columns (or rows): pixel i at `(i + offset) / k` px.
    package static func samples(_ count: Int, k: Double, offset: Double) -> [Double] {
        (0..<count).map { (Double($0) + offset) / k }
    }

    /// Per device pixel, the straight colour (0...255) and alpha (0...1) of `frame`'s shadows of
    /// one kind (outer, or inset: `A · (1 − blur)`), composited with OVER, the first on top;
    /// `only` keeps the shadows at those indices (placed as in the whole frame).
    package static func composite(_ frame: CSSFrame, inset: Bool, columns: Int, rows: Int, k: Double,
                                  offset: Double, only: Set<Int>? = nil) -> [(r: Double, g: Double, b: Double, a: Double)] {
        let xs = samples(columns, k: k, offset: offset), ys = samples(rows, k: k, offset: offset)
        var out = [(r: Double, g: Double, b: Double, a: Double)](repeating: (0, 0, 0, 0), count: columns * rows)
        for (index, shadow) in frame.shadows.enumerated().reversed() where shadow.inset == inset && only?.contains(index) != false {
            let shape = frame.placedShadow(shadow)
            let blurred = blur(box: shape.box, radius: shape.radius, sigma: shape.sigma, xs: xs, ys: ys)
            for p in out.indices {
                let a = shadow.alpha * (inset ? 1 - blurred[p] : blurred[p])
                let below = out[p]
                let alpha = a + below.a * (1 - a)
                func over(_ c: Int, _ under: Double) -> Double {
                    alpha > 0 ? (Double(c) * a + under * below.a * (1 - a)) / alpha : 0
                }
                out[p] = (over(shadow.red, below.r), over(shadow.green, below.g), over(shadow.blue, below.b), alpha)
            }
        }
        return out
    }

    /// The alpha (0...1) of `frame`'s outer (or inset) shadows at each device pixel (`only`: as
    /// for `composite`).
    package static func alpha(_ frame: CSSFrame, inset: Bool, columns: Int, rows: Int, k: Double, offset: Double,
                              only: Set<Int>? = nil) -> [Double] {
        composite(frame, inset: inset, columns: columns, rows: rows, k: k, offset: offset, only: only).map(\.a)
    }

    /// The box with corner radius `radius` convolved with the Gaussian of `sigma`, at every
    /// (xs[i], ys[j]), row by row.
    package static func blur(box: CSSBox, radius: Double, sigma: Double, xs: [Double], ys: [Double]) -> [Double] {
        guard box.width > 0, box.height > 0 else { return [Double](repeating: 0, count: xs.count * ys.count) }
        guard sigma > 1e-9 else {
            return ys.flatMap { y in xs.map { x in inside(x, y, box: box, radius: radius, margin: 0) ? 1.0 : 0 } }
        }
        let r = min(max(0, radius), box.width / 2, box.height / 2)
        if r == 0 {
            // A sharp box is separable: A · fx · fy in closed form.
            let fx = xs.map { phi(($0 - box.minX) / sigma) - phi(($0 - box.maxX) / sigma) }
            let fy = ys.map { phi(($0 - box.minY) / sigma) - phi(($0 - box.maxY) / sigma) }
            return fy.flatMap { y in fx.map { min(1, max(0, $0 * y)) } }
        }
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

    /// The blurred sharp-cornered box at one point: `fx · fy`, each the difference of two Φ.
    package static func sharp(_ x: Double, _ y: Double, box: CSSBox, sigma: Double) -> Double {
        (phi((x - box.minX) / sigma) - phi((x - box.maxX) / sigma)) * (phi((y - box.minY) / sigma) - phi((y - box.maxY) / sigma))
    }

    /// Whether (x, y) lies within `margin` of the rounded box's inside (a negative margin: that
    /// far inside it), for leaving antialiased edges out.
    package static func inside(_ x: Double, _ y: Double, box: CSSBox, radius: Double, margin: Double) -> Bool {
        let r = min(max(0, radius), box.width / 2, box.height / 2)
        guard x >= box.minX - margin, x <= box.maxX + margin, y >= box.minY - margin, y <= box.maxY + margin else {
            return false
        }
        let dx = max(box.minX + r - x, x - (box.maxX - r), 0)
        let dy = max(box.minY + r - y, y - (box.maxY - r), 0)
        // Corners: within r + margin of the arc centre (a negative margin shrinks the box's corner
        // radius no further than to a point).
        return (dx * dx + dy * dy).squareRoot() <= max(r + margin, 0) || (dx == 0 && dy == 0)
    }
}
