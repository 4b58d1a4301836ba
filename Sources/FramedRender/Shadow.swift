internal import Glibc
import FramedLayout

/// The vector shadow.
///
/// A Gaussian blur of a sharp-cornered box is separable: its alpha at (x, y) is
/// `A · fx(x) · fy(y)` with `fx(x) = Φ((x − x0)/σ) − Φ((x − x1)/σ)` (Φ the normal CDF), and `fy`
/// likewise. Cairo draws that exactly and as vectors: the shadow's colour masked (`cairo_mask`)
/// by fx, then by fy, each factor white with that alpha. SVG gets `<mask>`s with
/// `<linearGradient>`s, PDF soft masks with shadings; nothing is rasterised. A factor of a box
/// wider than 8σ is two padded gradients, one per edge, a few σ long, that overlap at the middle
/// where both are 1: LibreOffice draws an SVG gradient in steps of its whole axis, and one across
/// half the frame came out 19/255 off.
///
/// Rounded boxes multiply that by `1 − D`, the corner correction (`CornerCorrection`): a group of
/// gradients composited with OVER (the two linear ones in halves likewise, four radial), used as
/// one more mask.
///
/// Only the OVER operator is used (Cairo's SVG backend rasterises the page for any other), no mesh
/// patterns, and every gradient is padded or reflected. Symmetric profiles are stored as their
/// first half and reflected, which halves the stops in SVG and the functions in PDF.
enum VectorShadow {
    /// Largest error allowed between a gradient's stops and its exact profile, in alpha (0...1),
    /// for an opaque shadow colour; lighter colours allow proportionally more (the error is
    /// multiplied by the colour's alpha), up to `loosestTolerance`.
    static let tolerance = 0.003
    static let loosestTolerance = 0.02
    /// The shadow is drawn out to this many sigmas from its box (the alpha there is 3e-5).
    static let reach = 4.0

    /// Where an outer shadow is painted: its box and `reach` sigmas around it.
    static func area(of shadow: ShadowGeometry) -> Rect {
        shadow.box.outset(by: reach * shadow.sigma)
    }

    static func tolerance(for color: RGBAColor) -> Double {
        min(loosestTolerance, tolerance / max(color.alpha, 1e-6))
    }

    /// Draws an outer shadow with the OVER operator.
    static func draw(_ shadow: ShadowGeometry, in context: CairoContext) throws(RenderError) {
        let box = shadow.box
        guard box.width > 0, box.height > 0, shadow.color.alpha > 0 else { return }
        let sigma = shadow.sigma
        guard sigma > 1e-6 else {
            context.newPath()
            context.addRoundedRect(box, radius: shadow.radius)
            context.setSource(shadow.color)
            context.fill()
            return
        }
        let tol = tolerance(for: shadow.color)
        let area = Self.area(of: shadow)
        let across = try factorMask(box: box, sigma: sigma, horizontal: true, area: area, tolerance: tol, in: context)
        let down = try factorMask(box: box, sigma: sigma, horizontal: false, area: area, tolerance: tol, in: context)
        let correction = CornerCorrection.fit(size: box.size, radius: shadow.radius, sigma: sigma, insideWeight: 0.3,
                                              opacity: shadow.color.alpha)
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(area, radius: 0)
            context.clip()
            // The colour through fx, then through fy: each factor a mask of its own, so that each
            // gradient runs over one edge only (LibreOffice draws a gradient in steps of its
            // whole axis: one across half the frame was 19/255 off).
            // The colour is a group's too: Cairo 1.16's SVG backend places a mask that is itself a
            // group wrongly (off by the group's origin) under a plain colour, not under a group.
            let blurred = { () throws(RenderError) -> CairoPattern in
                let color = try context.group { () throws(RenderError) in
                    context.setSource(shadow.color)
                    context.paint()
                }
                let masked = try context.group { () throws(RenderError) in
                    context.setSource(color)
                    context.mask(across)
                }
                return try context.group { () throws(RenderError) in
                    context.setSource(masked)
                    context.mask(down)
                }
            }
            if let correction {
                // (fx · fy) · (1 − D): the sharp shadow as a group, masked by the correction group
                // (a mask group that holds no soft mask of its own, which Ghostscript would drop).
                let rounded = try correctionGroup(correction, box: box, radius: shadow.radius, from: area.origin,
                                                  area: area, tolerance: tol, opacity: shadow.color.alpha, in: context)
                context.setSource(try blurred())
                context.mask(rounded)
            } else {
                context.setSource(try blurred())
                context.paint()
            }
        }
    }

    /// Half the width of the band where the two halves of a factor overlap, in points: both are
    /// opaque there, so that OVER leaves it opaque and no seam shows where their edges are
    /// antialiased.
    static let overlap = 0.5

    /// The mask carrying fx (or fy), white with that alpha: for a box wider than 8σ two halves,
    /// each a padded gradient over one edge's ramp, overlapping at the middle where both are 1;
    /// else the whole profile's first half, reflected.
    private static func factorMask(box: Rect, sigma: Double, horizontal: Bool, area: Rect, tolerance: Double,
                                   in context: CairoContext) throws(RenderError) -> CairoPattern {
        let lo = horizontal ? box.minX : box.minY, hi = horizontal ? box.maxX : box.maxY
        guard (hi - lo) / 2 >= reach * sigma + overlap else {
            return try profileGradient(box: box, sigma: sigma, horizontal: horizontal,
                                       from: horizontal ? area.minX : area.minY, color: .white, complement: false,
                                       tolerance: tolerance)
        }
        let edge = Polyline.sampling(from: lo - reach * sigma, to: lo + reach * sigma, step: sigma / 24) {
            EdgeProfile.phi(($0 - lo) / sigma)
        }.fitted(tolerance: tolerance)
        return try halves(edge, lo: lo, hi: hi, horizontal: horizontal, area: area, in: context)
    }

    /// A group of two padded gradients, white with the alpha of `line` (positions in user space,
    /// rising from the edge at `lo`) over the low half, its mirror image about the middle of `lo`
    /// and `hi` over the high half; the halves overlap by `overlap` on each side of the middle,
    /// where `line` must be 1.
    private static func halves(_ line: Polyline, lo: Double, hi: Double, horizontal: Bool, area: Rect,
                               in context: CairoContext) throws(RenderError) -> CairoPattern {
        let middle = (lo + hi) / 2
        let mirrored = Polyline(positions: line.positions.reversed().map { 2 * middle - $0 }, values: line.values.reversed())
        let low = try gradient(line, horizontal: horizontal, color: .white, reflect: false)
        let high = try gradient(mirrored, horizontal: horizontal, color: .white, reflect: false)
        func part(_ from: Double, _ to: Double) -> Rect {
            horizontal ? Rect(x: from, y: area.minY, width: to - from, height: area.height)
                : Rect(x: area.minX, y: from, width: area.width, height: to - from)
        }
        let start = horizontal ? area.minX : area.minY, end = horizontal ? area.maxX : area.maxY
        return try context.group { () throws(RenderError) in
            for (pattern, rect) in [(low, part(start, middle + overlap)), (high, part(middle - overlap, end))] {
                context.newPath()
                context.addRoundedRect(rect, radius: 0)
                context.setSource(pattern)
                context.fill()
            }
        }
    }

    /// Draws an inset shadow inside `clip` (the padding box, rounded with `radius`), with OVER.
    ///
    /// Its alpha is `A · (1 − fx · fy · (1 − D))`; composited with OVER, layers with alphas
    /// `1 − fx`, `1 − fy` and `D` give exactly that (transmittances multiply), drawn in a group that
    /// is then painted with the colour's alpha.
    static func drawInset(_ shadow: ShadowGeometry, clip: Rect, radius: Double,
                          in context: CairoContext) throws(RenderError) {
        guard clip.width > 0, clip.height > 0, shadow.color.alpha > 0 else { return }
        let box = shadow.box, sigma = shadow.sigma
        var opaque = shadow.color
        opaque.alpha = 1
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(clip, radius: radius)
            context.clip()
            guard box.width > 0, box.height > 0 else {
                // The spread ate the box: the whole padding box is in shadow.
                context.setSource(shadow.color)
                context.paint()
                return
            }
            guard sigma > 1e-6 else {
                context.newPath()
                context.addRoundedRect(clip.union(box).outset(by: 1), radius: 0)
                context.addRoundedRect(box, radius: shadow.radius)
                context.setEvenOddFill(true)
                context.setSource(shadow.color)
                context.fill()
                return
            }
            let tol = tolerance(for: shadow.color)
            // Start the half profiles far enough out that their reflection covers the whole clip.
            let startX = min(box.minX - reach * sigma, clip.minX, 2 * box.midX - clip.maxX)
            let startY = min(box.minY - reach * sigma, clip.minY, 2 * box.midY - clip.maxY)
            let outsideX = try profileGradient(box: box, sigma: sigma, horizontal: true, from: startX,
                                               color: opaque, complement: true, tolerance: tol)
            let outsideY = try profileGradient(box: box, sigma: sigma, horizontal: false, from: startY,
                                               color: opaque, complement: true, tolerance: tol)
            let correction = CornerCorrection.fit(size: box.size, radius: shadow.radius, sigma: sigma, insideWeight: 1,
                                                  opacity: shadow.color.alpha)
            let layers = try context.group { () throws(RenderError) in
                context.setSource(outsideX)
                context.paint()
                context.setSource(outsideY)
                context.paint()
                if let correction {
                    try drawDeficit(correction, box: box, radius: shadow.radius, color: opaque,
                                    from: Point(x: startX, y: startY), tolerance: tol, opacity: shadow.color.alpha, in: context)
                }
            }
            context.setSource(layers)
            context.paint(alpha: shadow.color.alpha)
        }
    }

    // MARK: Pieces

    /// A gradient along x (or y) carrying `fx` (or its complement `1 − fx`) times the colour's
    /// alpha: the first half of the symmetric profile, from `start` to the box's middle, reflected.
    private static func profileGradient(box: Rect, sigma: Double, horizontal: Bool, from start: Double,
                                        color: RGBAColor, complement: Bool,
                                        tolerance: Double) throws(RenderError) -> CairoPattern {
        let lo = horizontal ? box.minX : box.minY, hi = horizontal ? box.maxX : box.maxY
        let profile = EdgeProfile(start: lo, end: hi, sigma: sigma)
        let middle = (lo + hi) / 2
        // Dense where the edge bends, then whatever straight run is left up to the middle.
        let bend = min(middle, lo + 5 * sigma)
        var line = Polyline.sampling(from: start, to: max(start, lo - 5 * sigma), step: sigma) { profile.value(at: $0) }
        line = line.appending(Polyline.sampling(from: max(start, lo - 5 * sigma), to: bend, step: sigma / 24) {
            profile.value(at: $0)
        })
        // The straight run is sampled too, so that no segment can cut across it unchecked (a long
        // chord over a faint tail would bias a large area).
        line = line.appending(Polyline.sampling(from: bend, to: middle, step: max(sigma, (middle - bend) / 200)) {
            profile.value(at: $0)
        })
        if complement { line.values = line.values.map { 1 - $0 } }
        return try gradient(line.fitted(tolerance: tolerance), horizontal: horizontal, color: color, reflect: true)
    }

    /// A linear gradient along x or y whose alpha follows `line` (times the colour's alpha).
    private static func gradient(_ line: Polyline, horizontal: Bool, color: RGBAColor,
                                 reflect: Bool) throws(RenderError) -> CairoPattern {
        let first = line.positions.first!, last = line.positions.last!
        let pattern = try CairoPattern.linear(from: horizontal ? Point(x: first, y: 0) : Point(x: 0, y: first),
                                              to: horizontal ? Point(x: last, y: 0) : Point(x: 0, y: last))
        try addStops(line, to: pattern, color: color)
        if reflect { pattern.reflectEnds() } else { pattern.padEnds() }
        return pattern
    }

    /// A radial gradient around `centre` whose alpha follows `line` along the distance (padded).
    /// Between two stops the shadow's alpha (the gradient's times `opacity`, the shadow's) moves
    /// by at most `ringStep`: LibreOffice draws each stretch between two stops of a radial SVG
    /// gradient in a few flat rings, which left a rounded corner's correction 8.8/255 light. The
    /// stops added lie on the straight pieces, so every other reader draws the same gradient.
    private static func radialGradient(_ line: Polyline, centre: Point, color: RGBAColor,
                                       opacity: Double) throws(RenderError) -> CairoPattern {
        let pattern = try CairoPattern.radial(centre: centre, radius: line.positions.last!)
        var ringed = Polyline(positions: [line.positions[0]], values: [line.values[0]])
        for i in 1..<line.positions.count {
            let (p0, p1, v0, v1) = (line.positions[i - 1], line.positions[i], line.values[i - 1], line.values[i])
            let pieces = max(1, Int((abs(v1 - v0) * color.alpha * opacity / ringStep).rounded(.up)))
            for k in 1...pieces {
                let t = Double(k) / Double(pieces)
                ringed.positions.append(k == pieces ? p1 : p0 + (p1 - p0) * t)
                ringed.values.append(k == pieces ? v1 : v0 + (v1 - v0) * t)
            }
        }
        try addStops(ringed, to: pattern, color: color)
        pattern.padEnds()
        return pattern
    }

    /// The most a shadow's alpha changes between two stops of a radial gradient (`radialGradient`).
    static let ringStep = 0.03

    private static func addStops(_ line: Polyline, to pattern: CairoPattern, color: RGBAColor) throws(RenderError) {
        let first = line.positions.first!, span = line.positions.last! - first
        for (t, v) in zip(line.positions, line.values) {
            var c = color
            c.alpha = color.alpha * min(1, max(0, v))
            try pattern.addStop(span > 0 ? (t - first) / span : 0, c)
        }
    }

    /// The arc centres of a box with corner radius `radius`.
    static func arcCentres(_ box: Rect, _ radius: Double) -> [Point] {
        let r = min(radius, box.width / 2, box.height / 2)
        return [Point(x: box.minX + r, y: box.minY + r), Point(x: box.maxX - r, y: box.minY + r),
                Point(x: box.minX + r, y: box.maxY - r), Point(x: box.maxX - r, y: box.maxY - r)]
    }

    /// The group whose alpha is `1 − D`: OVER of `1 − bx`, `1 − by` and `1 − a(ρᵢ)` for each arc
    /// centre. Away from the corners `1 − bx` is opaque, so the group leaves the shadow alone.
    private static func correctionGroup(_ c: CornerCorrection, box: Rect, radius: Double, from start: Point, area: Rect,
                                        tolerance: Double, opacity: Double,
                                        in context: CairoContext) throws(RenderError) -> CairoPattern {
        let across = try complementMask(c.across, weights: c.acrossWeight, lo: box.minX, hi: box.maxX, from: start.x,
                                        horizontal: true, area: area, tolerance: tolerance, in: context)
        let down = try complementMask(c.down, weights: c.downWeight, lo: box.minY, hi: box.maxY, from: start.y,
                                      horizontal: false, area: area, tolerance: tolerance, in: context)
        var radial = c.radial
        radial.values = radial.values.map { 1 - $0 }
        radial = radial.fitted(tolerances: weighted(tolerance, c.radialWeight))
        return try context.group { () throws(RenderError) in
            context.setSource(across)
            context.paint()
            context.setSource(down)
            context.paint()
            // One radial gradient per corner. (A group drawn four times with mirrors would be
            // stored once in PDF, but Cairo's SVG backend writes it again under the same id each
            // time, which is invalid XML.)
            for centre in arcCentres(box, radius) {
                context.setSource(try radialGradient(radial, centre: centre, color: .white, opacity: opacity))
                context.paint()
            }
        }
    }

    /// `1 − b` across the box, white with that alpha: two padded halves that meet where both are
    /// 1 when b reaches 0 well before the middle, else the first half reflected.
    private static func complementMask(_ b: Polyline, weights: [Double], lo: Double, hi: Double, from start: Double,
                                       horizontal: Bool, area: Rect, tolerance: Double,
                                       in context: CairoContext) throws(RenderError) -> CairoPattern {
        var line = half(b, weights: weights, origin: lo, from: start, complement: true, tolerance: tolerance)
        // Where 1 − b stays at 1 (within the tolerance) up to the middle, the half ends there.
        var last = line.positions.count - 1
        while last > 1, line.values[last - 1] >= 1 - tolerance { last -= 1 }
        let middle = (lo + hi) / 2
        guard line.values[last] >= 1 - tolerance, line.positions[last] <= middle - overlap else {
            return try gradient(line, horizontal: horizontal, color: .white, reflect: true)
        }
        line = Polyline(positions: Array(line.positions[...last]), values: Array(line.values[..<last]) + [1])
        return try halves(line, lo: lo, hi: hi, horizontal: horizontal, area: area, in: context)
    }

    /// Draws `D = bx · by · Π a(ρᵢ)` in `color`: bx masked by by, then by each radial factor in
    /// turn (products need masks, OVER cannot multiply). Every mask is a plain gradient and the
    /// groups are only sources: Ghostscript drops a soft mask nested inside another one's group.
    private static func drawDeficit(_ c: CornerCorrection, box: Rect, radius: Double, color: RGBAColor,
                                    from start: Point, tolerance: Double, opacity: Double,
                                    in context: CairoContext) throws(RenderError) {
        let across = try gradient(half(c.across, weights: c.acrossWeight, origin: box.minX, from: start.x, complement: false,
                                       tolerance: tolerance), horizontal: true, color: color, reflect: true)
        let down = try gradient(half(c.down, weights: c.downWeight, origin: box.minY, from: start.y, complement: false,
                                     tolerance: tolerance), horizontal: false, color: .white, reflect: true)
        let radial = c.radial.fitted(tolerances: weighted(tolerance, c.radialWeight))
        let factors = try arcCentres(box, radius).map { centre throws(RenderError) in
            try radialGradient(radial, centre: centre, color: .white, opacity: opacity)
        }
        var product = try context.group { () throws(RenderError) in
            context.setSource(across)
            context.mask(down)
        }
        for factor in factors.dropLast() {
            let previous = product
            product = try context.group { () throws(RenderError) in
                context.setSource(previous)
                context.mask(factor)
            }
        }
        context.setSource(product)
        context.mask(factors[factors.count - 1])
    }

    /// A correction profile (positions from the box's edge) placed in user space from `start` to
    /// the box's middle, optionally as `1 − b`, with its stops fitted to `tolerance` divided by
    /// each knot's weight.
    private static func half(_ line: Polyline, weights: [Double], origin: Double, from start: Double,
                             complement: Bool, tolerance: Double) -> Polyline {
        var placed = Polyline(positions: line.positions.map { $0 + origin }, values: line.values)
        var w = weights
        if placed.positions[0] > start {
            placed = Polyline(positions: [start], values: [placed.values[0]]).appending(placed)
            w.insert(w.first ?? 1, at: 0)
        }
        if complement { placed.values = placed.values.map { 1 - $0 } }
        return placed.fitted(tolerances: weighted(tolerance, w))
    }

    /// Per-knot tolerances: `tolerance` where an error moves the shadow fully, looser (up to 8
    /// times) where the shadow there is faint.
    static func weighted(_ tolerance: Double, _ weights: [Double]) -> [Double] {
        weights.map { tolerance / min(1, max(0.125, $0)) }
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
}
