import Testing
@testable import FramedLayout

/// Annotations read from the inline form and placed on a layout, checked with numbers the test
/// works out itself: a picture pixel lands where the picture's place (fit, position) and the
/// CSS pixel (0.75pt) put it.
struct AnnotationLayoutTests {
    /// Text 7pt a character wide and 12pt high a line.
    struct Measure: TextMeasure {
        func measure(_ caption: Caption, width: Double) throws(LayoutError) -> TextBlock { TextBlock(height: 12, lines: 1) }
        func extent(of text: String, font: CSSFont) throws(LayoutError) -> Size {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return Size(width: 7 * Double(lines.map(\.count).max() ?? 0), height: 12 * Double(lines.count))
        }
    }

    /// An 800x500 picture in a 400x200px frame, `cover`, kept at the top: no border, no shadow.
    static func coverTop() throws -> FrameLayout {
        try FrameLayout(picture: PictureMetrics(pixelWidth: 800, pixelHeight: 500),
                        style: FrameStyle(size: LengthSize(width: .px(400), height: .px(200)), fit: .cover,
                                          position: ContentPosition(x: 0.5, y: 0)))
    }

    static func place(_ text: String, on layout: FrameLayout) throws -> AnnotationPlacement {
        try AnnotationLayout.place(try Annotation.parseList(text), layout: layout, text: Measure())
    }

    @Test func theInlineFormReadsEveryKindAndWritesItBack() throws {
        let text = #"rect 120,40 200x80 radius=6; ellipse 1,2 3x4; line 1,2 -> 3,4; arrow 400,300 -> 250,120 via=300,100 width=2px; "#
            + #"badge 12 300,200 color=#00f; highlight 10%,20% 30%x5%; label "Say \"hi\"; now" 50%,50% -> 10,10 font="bold 12px DejaVu Sans"; "#
            + "spotlight 5,5 10x10; magnify 1,1 20x10 -> 100,100 zoom=3; redact 0,0 5x5 color=white; pixelate 0,0 40x40 block=20; "
            + "blur 0,0 9x9 sigma=3 halo=none"
        let list = try Annotation.parseList(text)
        #expect(list.map(\.kind) == AnnotationKind.allCases)
        #expect(list[0].shape == .rect(PictureRect(120, 40, 200, 80), radius: .px(6)))
        #expect(list[3].shape == .arrow(from: PicturePoint(400, 300), to: PicturePoint(250, 120), via: PicturePoint(300, 100)))
        #expect(list[3].style.width == .px(2) && list[4].style.color == RGBAColor(red: 0, green: 0, blue: 1))
        #expect(list[5].shape == .highlight(PictureRect(x: .percent(10), y: .percent(20), width: .percent(30), height: .percent(5))))
        #expect(list[6].shape == .label("Say \"hi\"; now", at: PicturePoint(x: .percent(50), y: .percent(50)), pointer: PicturePoint(10, 10)))
        #expect(list[6].style.font == CSSFont(families: ["DejaVu Sans"], size: .px(12), weight: 700))
        #expect(list[8].shape == .magnify(PictureRect(1, 1, 20, 10), at: PicturePoint(100, 100), zoom: 3))
        #expect(list[10].shape == .pixelate(PictureRect(0, 0, 40, 40), block: 20))
        #expect(list[11].style.halo == .transparent)
        // Written back, it reads the same.
        #expect(try Annotation.parseList(Annotation.description(of: list)) == list)
    }

    /// Coordinates and settings are CSS numbers: an exponent reads (and a number too large or
    /// too small for plain digits is written with one), while hexadecimal, `inf` and `nan`,
    /// which Swift's `Double(_:)` would take, are refused. Found by fuzz-annotations: a point
    /// of 3.2e63 was written back as text that did not parse.
    @Test func numbersAreCSSNumbersAndWriteThemselvesBack() throws {
        let list = try Annotation.parseList(#"label "x" 48,3.2333333333333335e+63; badge 2 1E2,2.5e-7%; pixelate 0,0 4e1x4e1 block=1.2e1"#)
        #expect(list[0].shape == .label("x", at: PicturePoint(48, 3.2333333333333335e63), pointer: nil))
        #expect(list[1].shape == .badge(2, at: PicturePoint(x: .pixels(100), y: .percent(2.5e-7))))
        #expect(list[2].shape == .pixelate(PictureRect(0, 0, 40, 40), block: 12))
        let written = Annotation.description(of: list)
        #expect(written.contains("3.2333333333333335e+63") && written.contains("2.5e-07%"), "\(written)")
        #expect(try Annotation.parseList(written) == list)
        for text in ["badge 1 0x10,5", "badge 1 inf,5", "badge 1 5,nan", "badge 1 5,1e999", "badge 1 5,1e", "badge 1 5,e5",
                     "pixelate 0,0 40x40 block=0x10", "blur 0,0 9x9 sigma=infinity", "magnify 1,1 2x2 -> 5,5 zoom=nan"] {
            #expect(throws: AnnotationError.self, "\(text)") { try Annotation.parseList(text) }
        }
    }

    /// A quote followed by a combining mark is one Swift `Character`: the inline
    /// form is read a Unicode scalar at a time, so such a text is quoted, and read back, as it was.
    @Test func aQuoteBeforeACombiningMarkIsStillAQuote() throws {
        let list = try Annotation.parseList("label \"\u{357}x;\" 1,1 font=\"2px \\\"\u{357}y\\\"\"; badge 1 2,2")
        #expect(list.count == 2)
        #expect(list[0].shape == .label("\u{357}x;", at: PicturePoint(1, 1), pointer: nil))
        #expect(list[0].style.font?.families == ["\u{357}y"])
        #expect(try Annotation.parseList(Annotation.description(of: list)) == list)
        // A text that the inline form could not hold as a bare word (as JSON or the library give
        // it), written in the inline form and read back.
        let given = [Annotation(.label("\u{357}\"x", at: PicturePoint(3, 4), pointer: nil),
                                style: AnnotationStyle(font: CSSFont(families: ["\u{357}'y"], size: .px(9))))]
        #expect(try Annotation.parseList(Annotation.description(of: given)) == given)
    }

    @Test func mistakesNameTheAnnotationByItsPlace() throws {
        let cases: [(String, String)] = [
            ("rect 1,1 2x2; arow 1,1 -> 2,2", "annotation 2: \"arow\" is not a kind of annotation"),
            ("badge 1 300,200; arrow 1,1 2,2", "annotation 2 (arrow): expected \"->\", not \"2,2\""),
            ("pixelate 0,0 10x10 block=8", "annotation 1 (pixelate): block 8 must be at least 12 picture pixels"),
            ("rect 0,0 0x10", "annotation 1 (rect): its size 0x10 must be greater than zero"),
            ("badge 1 2,3 zoom=2", "annotation 1 (badge): zoom= is not a setting of this kind"),
            ("label \"open 1,1", "annotations: a quote is not closed"),
            ("line 1,1 -> 2,2 extra", "annotation 1 (line): \"extra\" is one word too many"),
        ]
        for (text, message) in cases {
            #expect(throws: AnnotationError.self) { try Annotation.parseList(text) }
            do { _ = try Annotation.parseList(text) } catch {
                #expect(error.description.hasPrefix(message), "\(text): \(error.description)")
            }
        }
    }

    @Test func picturePixelsFollowFitPositionAndTheCSSPixel() throws {
        let layout = try Self.coverTop()
        // cover: 800x500 scaled by max(400/800, 200/500) = 0.5 to 400x250px, centred across
        // (no room), at the top: picture px (x, y) at (0.5x, 0.5y) CSS px, 0.75pt each.
        let k = 0.5 * 0.75
        #expect(layout.picture == Rect(x: 0, y: 0, width: 800 * k, height: 500 * k))
        let placed = try Self.place("badge 1 300,200; highlight 100,50 200x40; arrow 100,100 -> 300,100", on: layout)
        guard case let .badge(center, radius, number) = placed.drawn[0].geometry else { Issue.record("a badge"); return }
        #expect(center == Point(x: 300 * k, y: 200 * k) && number == 1)
        // The default font is 14px: the disc's radius is 12px (6/7 of it), 9pt, whatever the picture's scale.
        #expect(abs(radius - 9) < 1e-9)
        guard case let .highlight(rect) = placed.drawn[1].geometry else { Issue.record("a highlight"); return }
        #expect(rect == Rect(x: 100 * k, y: 50 * k, width: 200 * k, height: 40 * k))
        guard case let .arrow(arrow) = placed.drawn[2].geometry else { Issue.record("an arrow"); return }
        #expect(arrow.tip == Point(x: 300 * k, y: 100 * k) && arrow.start == Point(x: 100 * k, y: 100 * k))
        #expect(placed.warnings.isEmpty && placed.redactions.isEmpty)
        // Percentages of the picture's own size.
        let half = try Self.place("badge 2 50%,50%", on: layout)
        guard case let .badge(middle, _, _) = half.drawn[0].geometry else { Issue.record("a badge"); return }
        #expect(middle == Point(x: 400 * k, y: 250 * k))
    }

    @Test func theArrowsHeadIsSizedToItsStrokeAndPointsAtItsEnd() throws {
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 400, pixelHeight: 300), style: FrameStyle())
        let w = 4 * 0.75
        let straight = try Self.place("arrow 20,30 -> 320,30 width=4px", on: layout).drawn[0]
        guard case let .arrow(a) = straight.geometry else { Issue.record("an arrow"); return }
        // Pointing right: the tip is the end, the base 5 widths back, 4.5 widths across.
        #expect(a.tip == Point(x: 320 * 0.75, y: 30 * 0.75))
        #expect(abs(a.shaftEnd.x - (a.tip.x - 5 * w)) < 1e-9 && abs(a.shaftEnd.y - a.tip.y) < 1e-9)
        #expect(abs(a.left.x - a.shaftEnd.x) < 1e-9 && abs(a.right.x - a.shaftEnd.x) < 1e-9)
        #expect(abs(a.left.y - (a.tip.y - 2.25 * w)) < 1e-9 && abs(a.right.y - (a.tip.y + 2.25 * w)) < 1e-9)
        #expect(a.control == nil)

        // Curved through (170, 230): the shaft is the quadratic cut where it is a head's length
        // from the tip, and the head points along the chord from there.
        let curved = try Self.place("arrow 20,30 -> 320,30 via=170,230 width=4px", on: layout).drawn[0]
        guard case let .arrow(c) = curved.geometry else { Issue.record("an arrow"); return }
        func q(_ t: Double) -> Point {
            let p0 = Point(x: 15, y: 22.5), p1 = Point(x: 127.5, y: 172.5), p2 = Point(x: 240, y: 22.5)
            let s = 1 - t
            return Point(x: s * s * p0.x + 2 * s * t * p1.x + t * t * p2.x, y: s * s * p0.y + 2 * s * t * p1.y + t * t * p2.y)
        }
        func distance(_ p: Point, _ r: Point) -> Double { ((p.x - r.x) * (p.x - r.x) + (p.y - r.y) * (p.y - r.y)).squareRoot() }
        #expect(abs(distance(c.shaftEnd, c.tip) - 5 * w) < 1e-6)
        // shaftEnd is on the curve: some t puts the curve there.
        let nearest = (0...100_000).map { Double($0) / 100_000 }.map { distance(q($0), c.shaftEnd) }.min()!
        #expect(nearest < 1e-3, "the shaft ends on the curve (\(nearest))")
        // The head's base is square to the chord from shaftEnd to the tip.
        let dx = c.tip.x - c.shaftEnd.x, dy = c.tip.y - c.shaftEnd.y
        #expect(abs((c.left.x - c.right.x) * dx + (c.left.y - c.right.y) * dy) < 1e-6)
        #expect(abs(distance(c.left, c.right) - 4.5 * w) < 1e-6)
        // The tail is the start; the head at the end, on the side of the curve's end.
        #expect(c.start == Point(x: 15, y: 22.5) && c.tip == Point(x: 240, y: 22.5))
    }

    @Test func outsideThePictureIsAnErrorAndACropAWarning() throws {
        let layout = try Self.coverTop()
        // The picture is 800x500: x 801 is outside it.
        #expect(throws: AnnotationError(index: 2, kind: .arrow, reason: "its head 801,10 lies outside the picture (800x500 pixels)")) {
            try Self.place("badge 1 10,10; arrow 10,10 -> 801,10", on: layout)
        }
        #expect(throws: AnnotationError(index: 1, kind: .redact, reason: "its rectangle 700,0 200x10 reaches outside the picture (800x500 pixels)")) {
            try Self.place("redact 700,0 200x10", on: layout)
        }
        // cover at the top shows picture rows 0 to 400 (200px / 0.5): a badge at row 395 is cut
        // off, one at 480 hidden; rows 100 to 300 are whole.
        let placed = try Self.place("badge 1 100,395; badge 2 100,480; rect 10,100 100x200; pixelate 0,450 50x50", on: layout)
        #expect(placed.warnings == [AnnotationWarning(index: 1, kind: .badge, wholly: false),
                                    AnnotationWarning(index: 2, kind: .badge, wholly: true)])
        #expect(placed.drawn.count == 3 && placed.redactions.count == 1, "a redaction where it does not show is no warning")
    }

    @Test func redactionsStayInThePicturesPixels() throws {
        let layout = try Self.coverTop()
        let placed = try Self.place("pixelate 10%,10 80x40; redact 0,0 5x5; blur 1,2 3x4 sigma=2", on: layout)
        #expect(placed.redactions.map(\.region) == [Rect(x: 80, y: 10, width: 80, height: 40), Rect(x: 0, y: 0, width: 5, height: 5),
                                                     Rect(x: 1, y: 2, width: 3, height: 4)])
        #expect(placed.redactions[0].block == Annotation.defaultBlock && placed.redactions[2].sigma == 2)
        #expect(placed.redactions[1].color == .black, "solid black unless told")
        // Its box in the output, as framed layout lists it.
        #expect(placed.redactions[0].box == Rect(x: 80 * 0.375, y: 10 * 0.375, width: 80 * 0.375, height: 40 * 0.375))
    }

    @Test func aLabelStaysInsideTheVisiblePictureWithItsPointer() throws {
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 400, pixelHeight: 300), style: FrameStyle())
        // "Save" is 4 x 7pt = 28pt wide, 12pt high; the default font is 14px = 10.5pt: padding
        // 5.25pt across and 2.625pt down. Centred on (4, 4)px = (3, 3)pt it would stick out: it
        // is moved to the picture's top-left corner.
        let placed = try Self.place("label Save 4,4 -> 200,200", on: layout).drawn[0]
        guard case let .label(label) = placed.geometry else { Issue.record("a label"); return }
        #expect(label.box == Rect(x: 0, y: 0, width: 28 + 10.5, height: 12 + 5.25))
        #expect(label.textBox == Rect(x: 5.25, y: 2.625, width: 28, height: 12))
        let pointer = try #require(label.pointer)
        #expect(pointer.last == Point(x: 150, y: 150), "the pointer ends at its point")
        #expect(pointer[0].y == label.box.maxY && pointer[1].y == label.box.maxY, "it leaves through the bottom edge, facing its point")
    }
}
