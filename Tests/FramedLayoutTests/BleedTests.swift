import Testing
@testable import FramedLayout

/// Where the frame's paint continues into the bleed, checked with numbers: a 150 x 100 mm trim
/// at the origin, 3 mm of bleed (issue 30).
struct BleedTests {
    static let mm = 72 / 25.4
    let trim = Rect(x: 0, y: 0, width: 150 * 72 / 25.4, height: 100 * 72 / 25.4)
    let bleed = 3 * 72 / 25.4

    /// A frame of `size` (points) with `style`, at `origin`.
    func layout(_ style: FrameStyle, size: Size? = nil, origin: Point = .zero,
                picture: PictureMetrics = PictureMetrics(pixelWidth: 300, pixelHeight: 200)) throws -> FrameLayout {
        var style = style
        let size = size ?? trim.size
        style.size = LengthSize(width: .pt(size.width), height: .pt(size.height))
        var layout = try FrameLayout(picture: picture, style: style)
        for keyPath in [\FrameLayout.frame, \.paddingBox, \.contentBox, \.picture, \.pictureClip] {
            layout[keyPath: keyPath] = layout[keyPath: keyPath].offsetBy(dx: origin.x, dy: origin.y)
        }
        return layout
    }

    /// The same strips, their areas within a millionth of a point (the layout's arithmetic
    /// and the test's round differently).
    static func alike(_ a: [BleedStrip], _ b: [BleedStrip]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { s, t in
            s.side == t.side && s.paint == t.paint
                && [s.area.x - t.area.x, s.area.y - t.area.y, s.area.width - t.area.width, s.area.height - t.area.height]
                    .allSatisfy { abs($0) < 1e-6 }
        }
    }

    func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Rect {
        Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The mat filling the trim, no border: the mat continues beyond every side and
    /// corner, each strip from the bleed box's edge to the trim; no picture reaches the trim.
    @Test func aMatOnTheTrimContinuesOnEverySideAndCorner() throws {
        let style = FrameStyle(padding: EdgeInsets(all: .mm(8)), background: .white)
        let strips = Bleed.strips(layout: try layout(style), style: style, trim: trim, bleed: bleed)
        let w = trim.width, h = trim.height, b = bleed
        let expected: [BleedStrip] = [
            BleedStrip(side: .top, area: rect(0, -b, w, 0), paint: .mat),
            BleedStrip(side: .right, area: rect(w, 0, w + b, h), paint: .mat),
            BleedStrip(side: .bottom, area: rect(0, h, w, h + b), paint: .mat),
            BleedStrip(side: .left, area: rect(-b, 0, 0, h), paint: .mat),
            BleedStrip(side: .topLeft, area: rect(-b, -b, 0, 0), paint: .mat),
            BleedStrip(side: .topRight, area: rect(w, -b, w + b, 0), paint: .mat),
            BleedStrip(side: .bottomRight, area: rect(w, h, w + b, h + b), paint: .mat),
            BleedStrip(side: .bottomLeft, area: rect(-b, h, 0, h + b), paint: .mat),
        ]
        #expect(Self.alike(strips, expected), "\(strips)")
        // The strips tile the bleed box less the trim exactly.
        let area = strips.reduce(0) { $0 + $1.area.width * $1.area.height }
        #expect(abs(area - ((w + 2 * b) * (h + 2 * b) - w * h)) < 1e-6)
    }

    /// A border over a mat: both continue, the mat first, as the frame draws them; and the
    /// side's direction says which way the strip lies.
    @Test func aBorderContinuesOverTheMat() throws {
        let style = FrameStyle(border: .mm(1), borderColor: .black, padding: EdgeInsets(all: .mm(5)), background: .white)
        let strips = Bleed.strips(layout: try layout(style), style: style, trim: trim, bleed: bleed)
        #expect(strips.map(\.paint) == Array(repeating: .mat, count: 8) + Array(repeating: .border, count: 8))
        #expect(strips.allSatisfy { $0.area.intersection(trim).width * $0.area.intersection(trim).height == 0 },
                "nothing inside the trim")
        #expect(BleedSide.topLeft.dx == -1 && BleedSide.topLeft.dy == -1 && BleedSide.right.dx == 1 && BleedSide.right.dy == 0)
        // A transparent border and mat continue nothing.
        let clear = FrameStyle(border: .mm(1), borderColor: .transparent, padding: EdgeInsets(all: .mm(5)))
        #expect(Bleed.strips(layout: try layout(clear), style: clear, trim: trim, bleed: bleed).isEmpty)
    }

    /// A radius: the strips run beside the straight part of each side only, and no corner
    /// strip is drawn: the trim there is unpainted, as the rounded corner leaves it.
    @Test func roundedCornersContinueOnlyTheStraightPart() throws {
        let r = 5 * Self.mm
        let style = FrameStyle(border: .mm(1), borderColor: .black, radius: .pt(r))
        let strips = Bleed.strips(layout: try layout(style), style: style, trim: trim, bleed: bleed)
        let w = trim.width, h = trim.height, b = bleed
        #expect(Self.alike(strips, [
            BleedStrip(side: .top, area: rect(r, -b, w - r, 0), paint: .border),
            BleedStrip(side: .right, area: rect(w, r, w + b, h - r), paint: .border),
            BleedStrip(side: .bottom, area: rect(r, h, w - r, h + b), paint: .border),
            BleedStrip(side: .left, area: rect(-b, r, 0, h - r), paint: .border),
        ]), "\(strips)")
    }

    /// A frame as wide as the trim but not as tall, centred: it shares the left and right edges
    /// over its own height only; the rest of the bleed keeps the canvas (or paper).
    @Test func aFrameOnTwoEdgesContinuesBesideItself() throws {
        let style = FrameStyle(background: .white)
        let frameHeight = 60 * Self.mm, top = (trim.height - frameHeight) / 2
        let strips = Bleed.strips(layout: try layout(style, size: Size(width: trim.width, height: frameHeight),
                                                     origin: Point(x: 0, y: top)),
                                  style: style, trim: trim, bleed: bleed)
        #expect(Self.alike(strips, [
            BleedStrip(side: .right, area: rect(trim.width, top, trim.width + bleed, top + frameHeight), paint: .mat),
            BleedStrip(side: .left, area: rect(-bleed, top, 0, top + frameHeight), paint: .mat),
        ]), "\(strips)")
        // Off the trim by more than the tolerance: nothing. Within it: the strip reaches the frame.
        let off = try layout(style, size: Size(width: trim.width - 1, height: frameHeight), origin: Point(x: 0.5, y: top))
        #expect(Bleed.strips(layout: off, style: style, trim: trim, bleed: bleed).isEmpty)
        let snapped = try layout(style, size: Size(width: trim.width - 0.4, height: frameHeight), origin: Point(x: 0.2, y: top))
        let within = Bleed.strips(layout: snapped, style: style, trim: trim, bleed: bleed, tolerance: 0.25)
        #expect(Self.alike(Array(within.prefix(1)), [BleedStrip(side: .right, area: rect(trim.width - 0.2, top, trim.width + bleed,
                                                                                          top + frameHeight), paint: .mat)]),
                "\(within)")
        // No bleed, no strips.
        #expect(Bleed.strips(layout: try layout(style), style: style, trim: trim, bleed: 0).isEmpty)
    }

    /// No border and no padding: the picture reaches the trim and continues too, over the mat,
    /// along the sides its visible part touches. A 3:2 picture `contain`ed in a 150 x 120 mm
    /// frame on a 150 x 120 trim fills the width only: left and right over its own height, the
    /// mat everywhere.
    @Test func aPictureOnTheTrimContinues() throws {
        let trim = Rect(x: 0, y: 0, width: 150 * Self.mm, height: 120 * Self.mm)
        let style = FrameStyle(background: .white, fit: .contain)
        var style2 = style
        style2.size = LengthSize(width: .pt(trim.width), height: .pt(trim.height))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: style2)
        let strips = Bleed.strips(layout: layout, style: style, trim: trim, bleed: bleed)
        let picture = strips.filter { $0.paint == .picture }
        let top = (120 - 100) / 2 * Self.mm
        #expect(Self.alike(picture, [
            BleedStrip(side: .right, area: rect(trim.width, top, trim.width + bleed, top + 100 * Self.mm), paint: .picture),
            BleedStrip(side: .left, area: rect(-bleed, top, 0, top + 100 * Self.mm), paint: .picture),
        ]), "\(picture)")
        #expect(strips.filter { $0.paint == .mat }.count == 8)
        // `cover` fills the trim: every side and corner, the picture over the mat.
        var cover = style2
        cover.fit = .cover
        let covered = try FrameLayout(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: cover)
        let all = Bleed.strips(layout: covered, style: cover, trim: trim, bleed: bleed)
        #expect(all.map(\.paint) == Array(repeating: .mat, count: 8) + Array(repeating: .picture, count: 8))
        // Padding keeps the picture off the trim: the mat alone continues.
        var padded = style2
        padded.padding = EdgeInsets(all: .mm(1))
        let matted = try FrameLayout(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: padded)
        #expect(Bleed.strips(layout: matted, style: padded, trim: trim, bleed: bleed).allSatisfy { $0.paint == .mat })
    }
}
