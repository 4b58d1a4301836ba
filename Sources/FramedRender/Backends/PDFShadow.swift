internal import Glibc
import FramedLayout

/// A shadow that framed writes into a PDF itself, so that every program that shows or imports
/// PDFs draws it alike: the viewers (Chrome's and Edge's PDFium, MuPDF, Ghostscript, poppler) and
/// the importers that turn a PDF back into shapes (Inkscape's two, pdfLaTeX's `\includegraphics`).
///
/// The shadow is its colour filled through one luminosity soft mask whose gray is the shadow's
/// alpha, `A · fx · fy · (1 − D)` (`VectorShadow`, `CornerCorrection`). Products are what soft
/// masks make: the mask group starts at gray A and each factor is a black fill drawn over the
/// whole area through a soft mask of its complement, which multiplies the gray by the factor
/// (transmittances multiply, as in `VectorShadow`'s groups):
///
///     mask group F:  A gray  ·  black through (1 − fx)  ·  black through (1 − fy)  ·  black through D
///     D:             white   ·  black through (1 − bx)  ·  black through (1 − by)  ·  black through the corners' (1 − a(ρᵢ))
///
/// Each complement is a group of axial shadings (types 2) or of radial shadings (type 3) whose
/// functions are straight pieces (type 3 stitching type 2), with short axes: one per edge, from
/// 4σ outside it to 4σ inside, mirrored for the opposite edge, the two halves overlapping at the
/// middle only where they are both 0 or both 1; the four corners' radial shadings are one
/// shading moved by a `cm` to each arc centre, in one group when each stays within its quarter
/// of the box. The objects' dictionaries leave out every optional `/Type`: a shadow stays as
/// small as the sampled shadings that came before (3.5 KB for the issue's frames). Why so:
///
/// - Inkscape's importer turns function-based shadings (type 1) into flat blocks, and its poppler
///   importer spins on them; axial and radial shadings become gradients in both.
/// - Inkscape turns a luminosity mask's gray shadings into white with that opacity, so layers that
///   overlap with a gray between 0 and 1 would add up there; only the fills are ever layered, and
///   a fill through a soft mask is a layer of its own in every program alike.
/// - PDFium and MuPDF tabulate an axial shading in 256 steps over its whole axis: an axis across
///   the frame (600 pt) would be steps of 2 pt; one edge's (8σ) is steps of σ/32.
/// - Ghostscript drops a soft mask applied to a group inside another soft mask's group, and loses
///   the soft mask of the graphics state after the first `Q` inside one: only fills and shadings
///   are masked, each inside `q … Q` with its own `gs`. It converts DeviceGray to a luminosity
///   through a gamma (0.5 gray gave 0.22) in nested groups: the groups and shadings are DeviceRGB.
/// - MuPDF multiplies a `/ca` into the soft mask's group as well: A is the mask group's gray.
/// - poppler's Cairo output (Inkscape's `--pdf-poppler`) renders each soft mask into a bitmap of a
///   pixel per point from the clip's extents: the clip and every group's box lie on whole points.
///
/// An inset shadow's gray is `A · (1 − fx · fy · (1 − D))`: A, then black through the group of
/// the three factors.
///
/// Cairo is handed a placeholder in the shadow's place, a one-pixel JPEG image painted over the
/// shadow's area under the same clip (as `PDFPicture` does for pictures), and `PDFCompaction` puts
/// a form XObject drawing the masked fill in the image object's place. A shadow for which this does
/// not suit (no blur, an empty box) is drawn by `VectorShadow` as before.
struct PDFShadow {
    /// The JPEG bytes of the placeholder image, unique within one PDF.
    let placeholder: [UInt8]
    /// Where the placeholder is painted, in the page's user space (y down), on whole points.
    let area: Rect
    let shadow: ShadowGeometry
    let correction: CornerCorrection?

    /// The smoothness asked of Ghostscript, in the mask groups and where the mask is used.
    static let smoothness = "0.001"
    /// How far the mask groups reach past `area`, in points, so that no group ends inside it.
    static let margin = 2.0

    /// The shadow as a PDF mask, or nil when `VectorShadow` should draw it. `clip` is the padding
    /// box that an inset shadow is drawn in; `index` tells the shadows of one PDF apart.
    init?(_ shadow: ShadowGeometry, clip: Rect?, index: Int) {
        let box = shadow.box, sigma = shadow.sigma
        guard box.width > 0, box.height > 0, sigma > 1e-3, shadow.color.alpha > 0 else { return nil }
        let painted: Rect
        if shadow.inset {
            guard let clip, clip.width > 0, clip.height > 0 else { return nil }
            painted = clip
        } else {
            painted = VectorShadow.area(of: shadow)
        }
        area = Self.wholePoints(painted)
        self.shadow = shadow
        correction = CornerCorrection.fit(size: box.size, radius: shadow.radius, sigma: sigma,
                                          insideWeight: shadow.inset ? 1 : 0.3, opacity: shadow.color.alpha)
        placeholder = PDFPicture.placeholder(width: 1, height: 1, name: "framed shadow \(index)")
    }

    /// `rect` grown to whole points.
    static func wholePoints(_ rect: Rect) -> Rect {
        let x0 = rect.minX.rounded(.down), y0 = rect.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: rect.maxX.rounded(.up) - x0, height: rect.maxY.rounded(.up) - y0)
    }

    /// The one-pixel surface carrying the placeholder.
    func placeholderSurface() throws(RenderError) -> CairoImageSurface {
        let surface = try CairoImageSurface(width: 1, height: 1, hasAlpha: false)
        try surface.attachJPEG(placeholder)
        return surface
    }

    /// Paints the placeholder over `area` (under whatever clip is set).
    func drawPlaceholder(in context: CairoContext) throws(RenderError) {
        let pattern = try CairoPattern.surface(placeholderSurface())
        try pattern.setMatrix(scaleX: 1 / area.width, scaleY: 1 / area.height,
                          translateX: -area.x / area.width, translateY: -area.y / area.height)
        try context.paint(pattern, over: area)
    }

    /// The complement of one edge profile, `1 − Φ(u)` for u from −4 to 4 (in σ from the edge,
    /// inwards), its knots fitted to `tolerance`.
    static func edgeComplement(tolerance: Double) -> Polyline {
        var line = Polyline.sampling(from: -VectorShadow.reach, to: VectorShadow.reach, step: 1.0 / 24) { 1 - EdgeProfile.phi($0) }
        line = line.fitted(tolerance: tolerance)
        return line
    }

    /// An axis of the shadow: where a shading runs (from, to, in user space along x or y) and
    /// the function's knots along it (positions from 0 to 1).
    struct Axis {
        var from: Double, to: Double
        var knots: Polyline

        /// The same values along the axis run the other way.
        var reversed: Axis {
            Axis(from: to, to: from, knots: Polyline(positions: knots.positions.reversed().map { 1 - $0 },
                                                     values: knots.values.reversed()))
        }
    }

    /// The complement of the blur across one axis of the box (`lo` to `hi`): two mirrored
    /// one-edge shadings when the box is wider than 8σ plus the overlap (they meet where both are
    /// 0), else one shading over the whole profile.
    static func blurComplement(lo: Double, hi: Double, sigma: Double, tolerance: Double) -> [Axis] {
        let reach = VectorShadow.reach * sigma
        if (hi - lo) / 2 >= reach + overlap {
            var edge = edgeComplement(tolerance: tolerance)
            edge.positions = edge.positions.map { ($0 + VectorShadow.reach) / (2 * VectorShadow.reach) }
            return [Axis(from: lo - reach, to: lo + reach, knots: edge), Axis(from: hi + reach, to: hi - reach, knots: edge)]
        }
        let profile = EdgeProfile(start: lo, end: hi, sigma: sigma)
        let start = lo - reach, end = hi + reach
        var line = Polyline.sampling(from: start, to: end, step: sigma / 24) { 1 - profile.value(at: $0) }.fitted(tolerance: tolerance)
        line.positions = line.positions.map { ($0 - start) / (end - start) }
        return [Axis(from: start, to: end, knots: line)]
    }

    /// The complement of a correction factor across one axis (`b`: its knots from the box's edge
    /// at `lo`, 1 outside and near the edge, 0 towards the middle): two mirrored shadings up to
    /// where b reaches 0, meeting where both are 1; one shading, mirrored in itself, when b is not
    /// 0 by the middle (a small box).
    static func correctionComplement(_ b: Polyline, weights: [Double], lo: Double, hi: Double, start: Double,
                                     tolerance: Double) -> [Axis] {
        let middle = (hi - lo) / 2
        // Knots from `start` (outside) to the middle, as 1 − b.
        var line = Polyline(positions: b.positions, values: b.values)
        var w = weights
        let first = start - lo
        if line.positions[0] > first {
            line = Polyline(positions: [first], values: [line.values[0]]).appending(line)
            w.insert(w.first ?? 1, at: 0)
        }
        line.values = line.values.map { 1 - $0 }
        line = line.fitted(tolerances: VectorShadow.weighted(tolerance, w))
        // Where b is 0 for good (1 − b within the tolerance of 1): the shading ends there with
        // 1, extended beyond.
        var last = line.positions.count - 1
        while last > 1, line.values[last - 1] >= 1 - tolerance { last -= 1 }
        if line.values[last] >= 1 - tolerance { line.values[last] = 1 }
        if line.positions[last] < middle - overlap {
            let span = line.positions[last] - line.positions[0]
            let knots = Polyline(positions: line.positions[...last].map { ($0 - line.positions[0]) / span },
                                 values: Array(line.values[...last]))
            return [Axis(from: lo + line.positions[0], to: lo + line.positions[last], knots: knots),
                    Axis(from: hi - line.positions[0], to: hi - line.positions[last], knots: knots)]
        }
        // The whole width: the half, then its mirror image.
        var positions = line.positions.filter { $0 < middle }, values = Array(line.values[..<positions.count])
        positions.append(middle); values.append(line.value(at: middle))
        let mirrored = zip(positions.dropLast().reversed(), values.dropLast().reversed()).map { (2 * middle - $0, $1) }
        positions += mirrored.map(\.0); values += mirrored.map(\.1)
        let from = lo + positions[0], to = lo + positions[positions.count - 1]
        return [Axis(from: from, to: to, knots: Polyline(positions: positions.map { ($0 - positions[0]) / (to - from) },
                                                          values: values))]
    }

    /// Half the width of the band where two mirrored halves overlap, in points.
    static let overlap = 0.5

    /// The objects that draw the shadow: the form XObject numbered `number` (in the placeholder
    /// image's place), then its mask groups, shadings and functions, numbered from `next` on.
    /// Dictionaries without a stream come back in `plain`, for the object stream. `functions`
    /// holds the functions already written to the file, by their dictionary: a function that is
    /// there already (the same blur in another shadow) is used again rather than written twice.
    /// `defaultRGB`, when given, is the `DefaultRGB` colour space the form's resources name, so
    /// that its colour stays sRGB under a CMYK output intent; the mask groups then blend in that
    /// profile too (PDF/X-4 leaves no DeviceRGB), and every resource dictionary names it.
    func objects(number: Int, next: inout Int, functions: inout [[UInt8]: Int], defaultRGB: Int? = nil)
        -> (streams: [(number: Int, bytes: [UInt8])], plain: [(number: Int, body: [UInt8])])? {
        var streams: [(number: Int, bytes: [UInt8])] = [], plain: [(number: Int, body: [UInt8])] = []
        func reserve() -> Int { defer { next += 1 }; return next }
        func stream(_ number: Int, _ dictionary: String, _ data: [UInt8]) -> Bool {
            guard let packed = Zlib.compress(data) else { return false }
            streams.append((number, Array("\(number) 0 obj\n<<\(dictionary)/Filter/FlateDecode/Length \(packed.count)>>\nstream\n".utf8)
                + packed + Array("\nendstream\nendobj\n".utf8)))
            return true
        }
        func n(_ v: Double) -> String { Self.number(v) }
        /// Straight pieces through `knots` (positions 0...1), gray as RGB: a stitching function.
        func function(_ knots: Polyline) -> Int {
            var pieces = "", bounds = "", encode = ""
            for i in 0..<(knots.positions.count - 1) {
                let a = n(min(1, max(0, knots.values[i]))), b = n(min(1, max(0, knots.values[i + 1])))
                pieces += "<</FunctionType 2/Domain[0 1]/C0[\(a) \(a) \(a)]/C1[\(b) \(b) \(b)]/N 1>>"
                if i > 0 { bounds += (bounds.isEmpty ? "" : " ") + n(knots.positions[i]) }
                encode += i == 0 ? "0 1" : " 0 1"
            }
            let body = Array("<</FunctionType 3/Domain[0 1]/Functions[\(pieces)]/Bounds[\(bounds)]/Encode[\(encode)]>>".utf8)
            if let written = functions[body] { return written }
            let number = reserve()
            plain.append((number, body))
            functions[body] = number
            return number
        }
        func shading(_ type: Int, _ coords: [Double], _ function: Int) -> Int {
            let number = reserve()
            plain.append((number, Array(("<</ShadingType \(type)/ColorSpace/DeviceRGB/Coords[\(coords.map(n).joined(separator: " "))]"
                + "/Function \(function) 0 R/Extend[true true]>>").utf8)))
            return number
        }
        let big = area.outset(by: Self.margin)
        // Under a CMYK output intent (PDF/X-4) the groups blend in the sRGB profile that
        // DefaultRGB names, and every resource dictionary names it: no DeviceRGB is left.
        let colorSpaces = defaultRGB.map { "/ColorSpace<</DefaultRGB \($0) 0 R>>" } ?? ""
        let blending = defaultRGB.map { "\($0) 0 R" } ?? "/DeviceRGB"
        let group = "/Subtype/Form/BBox[\(Self.corners(big))]/Group<</S/Transparency/CS \(blending)>>"
        /// A group of shadings (no mask): the complement of one factor.
        func shadings(_ axes: [Axis], horizontal: Bool) -> Int? {
            let middle = horizontal ? shadow.box.midX : shadow.box.midY
            // Run from the inside out: PDFium looks a shading up in a table of 256 steps, each
            // the value at the step's start, and blends in 8 bits rounding down, which makes
            // the shadow light; a table run this way errs the other way, towards dark.
            func axial(_ given: Axis) -> Int {
                let axis = horizontal ? given.reversed : given
                return shading(2, horizontal ? [axis.from, 0, axis.to, 0] : [0, axis.from, 0, axis.to], function(axis.knots))
            }
            let first = axial(axes[0])
            var content = "/s gs\n", names = "/h0 \(first) 0 R"
            if axes.count == 2 {
                // Two halves, the second the first's mirror image about the middle: the first up
                // to just past the middle, the second from just before it. Across y the same
                // shading under a mirroring `cm`; across x a shading of its own, as MuPDF starts
                // each span at a whole pixel and would round a mirrored one the other way (6.1/255
                // at 216 dpi where it is 5.3).
                if horizontal {
                    let low = Rect(x: big.minX, y: big.minY, width: middle + Self.overlap - big.minX, height: big.height)
                    let high = Rect(x: middle - Self.overlap, y: big.minY, width: big.maxX - middle + Self.overlap, height: big.height)
                    names += "/h1 \(axial(axes[1])) 0 R"
                    content += "q \(Self.rect(low)) re W n /h0 sh Q\nq \(Self.rect(high)) re W n /h1 sh Q\n"
                } else {
                    let low = Rect(x: big.minX, y: big.minY, width: big.width, height: middle + Self.overlap - big.minY)
                    let high = Rect(x: big.minX, y: middle - Self.overlap, width: big.width, height: big.maxY - middle + Self.overlap)
                    content += "q \(Self.rect(low)) re W n /h0 sh Q\nq \(Self.rect(high)) re W n 1 0 0 -1 0 \(n(2 * middle)) cm /h0 sh Q\n"
                }
            } else {
                content += "q \(Self.rect(big)) re W n /h0 sh Q\n"
            }
            let number = reserve()
            guard stream(number, group + "/Resources<</ExtGState<</s<</SM \(Self.smoothness)>>>>/Shading<<\(names)>>\(colorSpaces)>>",
                         Array(content.utf8)) else { return nil }
            return number
        }
        /// Radial shadings, the complements of the corners' factors: one shading around the
        /// origin, moved to each arc centre by a `cm`. When each reaches 0 within its quarter of
        /// the box, the four are one group, each clipped to its quarter (they meet where all
        /// are 0); else a group each (nil when one could not be written).
        func radials(_ knots: Polyline, centres: [Point], radius: Double) -> [Int]? {
            // The start circle (radius 0) a hundredth of a point off the centre: MuPDF draws a
            // radial shading whose centre lies on a pixel row's edge with a seam along that row
            // (27/255 at 100 dpi); off centre by so little, the shading is the same elsewhere.
            let sh = shading(3, [0.01, 0.01, 0, 0, 0, radius], function(knots))
            let resources = group + "/Resources<</ExtGState<</s<</SM \(Self.smoothness)>>>>/Shading<</h0 \(sh) 0 R>>\(colorSpaces)>>"
            let box = shadow.box
            let apart = centres.allSatisfy { abs($0.x - box.midX) >= radius && abs($0.y - box.midY) >= radius }
            func draw(_ centre: Point, clip: Rect) -> String {
                "q \(Self.rect(clip)) re W n 1 0 0 1 \(n(centre.x)) \(n(centre.y)) cm /h0 sh Q\n"
            }
            if apart {
                var content = "/s gs\n"
                for centre in centres {
                    let x0 = centre.x < box.midX ? big.minX : box.midX, x1 = centre.x < box.midX ? box.midX : big.maxX
                    let y0 = centre.y < box.midY ? big.minY : box.midY, y1 = centre.y < box.midY ? box.midY : big.maxY
                    content += draw(centre, clip: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
                }
                let number = reserve()
                guard stream(number, resources, Array(content.utf8)) else { return nil }
                return [number]
            }
            var groups: [Int] = []
            for centre in centres {
                let number = reserve()
                guard stream(number, resources, Array(("/s gs\n" + draw(centre, clip: big)).utf8)) else { return nil }
                groups.append(number)
            }
            return groups
        }
        /// A group whose gray is `start` times the complement of each mask's gray: black fills
        /// through each mask, over the whole group.
        func product(start: Double, masks: [Int]) -> Int? {
            var content = "\(n(start)) \(n(start)) \(n(start)) rg \(Self.rect(big)) re f\n", states = ""
            for (i, mask) in masks.enumerated() {
                content += "q /m\(i) gs 0 0 0 rg \(Self.rect(big)) re f Q\n"
                states += "/m\(i)<</SMask<</S/Luminosity/G \(mask) 0 R>>/SM \(Self.smoothness)>>"
            }
            let number = reserve()
            guard stream(number, group + "/Resources<</ExtGState<<\(states)>>\(colorSpaces)>>", Array(content.utf8)) else { return nil }
            return number
        }

        let box = shadow.box, sigma = shadow.sigma
        // Half of VectorShadow's: a viewer's own tables and 8-bit steps add to each factor's error.
        let tolerance = VectorShadow.tolerance(for: shadow.color) / 2
        guard let fx = shadings(Self.blurComplement(lo: box.minX, hi: box.maxX, sigma: sigma, tolerance: tolerance), horizontal: true),
              let fy = shadings(Self.blurComplement(lo: box.minY, hi: box.maxY, sigma: sigma, tolerance: tolerance), horizontal: false)
        else { return nil }
        var factors = [fx, fy]
        if let c = correction {
            let start = Point(x: min(box.minX - VectorShadow.reach * sigma, area.minX), y: min(box.minY - VectorShadow.reach * sigma, area.minY))
            guard let bx = shadings(Self.correctionComplement(c.across, weights: c.acrossWeight, lo: box.minX, hi: box.maxX,
                                                              start: start.x, tolerance: tolerance), horizontal: true),
                  let by = shadings(Self.correctionComplement(c.down, weights: c.downWeight, lo: box.minY, hi: box.maxY,
                                                              start: start.y, tolerance: tolerance), horizontal: false)
            else { return nil }
            var corner = c.radial
            corner.values = corner.values.map { 1 - $0 }
            corner = corner.fitted(tolerances: VectorShadow.weighted(tolerance, c.radialWeight))
            // The shading ends where a reaches 1 (its complement 0) for good, extended beyond.
            var last = corner.positions.count - 1
            while last > 1, corner.values[last - 1] <= tolerance { last -= 1 }
            if corner.values[last] <= tolerance { corner.values[last] = 0 }
            let radius = corner.positions[last]
            let knots = Polyline(positions: corner.positions[...last].map { $0 / radius }, values: Array(corner.values[...last]))
            guard let corners = radials(knots, centres: VectorShadow.arcCentres(box, shadow.radius), radius: radius) else { return nil }
            let masks = [bx, by] + corners
            guard let deficit = product(start: 1, masks: masks) else { return nil }
            factors.append(deficit)
        }
        let a = shadow.color.alpha
        let mask: Int?
        if shadow.inset {
            guard let lit = product(start: 1, masks: factors) else { return nil }
            mask = product(start: a, masks: [lit])
        } else {
            mask = product(start: a, masks: factors)
        }
        guard let mask else { return nil }

        // The form in the placeholder's place. Whatever Cairo wrote to draw the image maps the
        // image's unit square onto `area` (its first row at the top), so the form's matrix maps
        // user space back onto that square: (x, y) -> ((x - ax) / aw, 1 - (y - ay) / ah).
        let c = shadow.color
        let matrix = [1 / area.width, 0, 0, -1 / area.height, -area.minX / area.width, 1 + area.minY / area.height]
        let fill = "q \(n(c.red)) \(n(c.green)) \(n(c.blue)) rg /m gs \(Self.rect(big)) re f Q\n"
        guard stream(number, "/Type/XObject/Subtype/Form/BBox[\(Self.corners(big))]"
            + "/Matrix[\(matrix.map { Self.number($0, digits: 9) }.joined(separator: " "))]"
            + "/Resources<</ExtGState<</m<</SMask<</S/Luminosity/G \(mask) 0 R>>/SM \(Self.smoothness)>>>>\(colorSpaces)>>",
                     Array(fill.utf8))
        else { return nil }
        return (streams, plain)
    }

    /// A PDF number: at most `digits` decimals, no trailing zeros, no exponent.
    static func number(_ v: Double, digits: Int = 5) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e15 else { return String(Int(v.rounded())) }
        let units = Int(scaled), whole = units / Int(scale), fraction = units % Int(scale)
        var text = units == 0 || v >= 0 ? "" : "-"
        text += String(whole)
        if fraction > 0 {
            var digitsText = String(fraction)
            digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return text
    }

    static func rect(_ r: Rect) -> String { "\(number(r.minX)) \(number(r.minY)) \(number(r.width)) \(number(r.height))" }
    static func corners(_ r: Rect) -> String { "\(number(r.minX)) \(number(r.minY)) \(number(r.maxX)) \(number(r.maxY))" }
}

/// The shadows of one PDF that go in as `PDFShadow`, in the order they are drawn.
final class PDFShadows {
    private(set) var all: [PDFShadow] = []

    /// Draws `shadow` as a placeholder and keeps it; false when `VectorShadow` should draw it.
    func draw(_ shadow: ShadowGeometry, clip: Rect?, in context: CairoContext) throws(RenderError) -> Bool {
        guard let pdf = PDFShadow(shadow, clip: clip, index: all.count) else { return false }
        try pdf.drawPlaceholder(in: context)
        all.append(pdf)
        return true
    }
}
