import Testing
@testable import FramedLayout

/// Pages: sizes, orientation, bleed, centring and fitting, checked with numbers.
struct PageTests {
    func mm(_ points: Double) -> Double { (points / 72 * 25.4 * 1000).rounded() / 1000 }
    func mm(_ rect: Rect) -> [Double] { [rect.x, rect.y, rect.width, rect.height].map(mm) }

    @Test func standardSizesAndWxH() throws {
        #expect(try PageSize(parsing: "A4") == .a4)
        #expect(try PageSize(parsing: " letter ") == .letter)
        #expect(mm(PageSize.a3.width.points) == 297 && mm(PageSize.a3.height.points) == 420)
        #expect(mm(PageSize.a5.width.points) == 148 && mm(PageSize.a5.height.points) == 210)
        #expect(PageSize.legal.height == .inches(14))
        let custom = try PageSize(parsing: "100mmx150mm")
        #expect(custom.name == nil && custom.width == .mm(100) && custom.height == .mm(150))
        #expect(try PageSize(parsing: custom.description) == custom, "description parses back")
        #expect(PageSize.a4.description == "A4")
        #expect(throws: StyleParseError.self) { try PageSize(parsing: "B5") }
        #expect(throws: StyleParseError.self) { try PageSize(parsing: "0x100") }
    }

    @Test func orientationFollowsThePictureUnlessGiven() {
        let wide = Size(width: 300, height: 200), tall = Size(width: 200, height: 300)
        let auto = PageSpec(size: .a4)
        #expect(auto.pageSize(for: wide).orientation == .landscape)
        #expect(mm(auto.pageSize(for: wide).size.width) == 297)
        #expect(auto.pageSize(for: tall).orientation == .portrait)
        #expect(mm(auto.pageSize(for: tall).size.width) == 210)
        let portrait = PageSpec(size: .a4, orientation: .portrait)
        #expect(mm(portrait.pageSize(for: wide).size.height) == 297)
        // A WxH page is turned like a standard one.
        let card = PageSpec(size: PageSize(width: .mm(150), height: .mm(100)), orientation: .portrait)
        #expect(mm(card.pageSize(for: wide).size.width) == 100)
    }

    @Test func aPictureThatFitsIsCentredAndBleedGrowsTheMedia() throws {
        // 320x200 px picture, 3px border: frame 326x206 px, no shadow.
        var style = FrameStyle()
        style.border = .px(3)
        let placed = try PageLayout.place(picture: PictureMetrics(pixelWidth: 320, pixelHeight: 200), style: style,
                                          page: PageSpec(size: .a5, orientation: .auto, bleed: .mm(3)))
        #expect(placed.placement.orientation == .landscape)
        #expect(mm(placed.placement.media.width) == 216 && mm(placed.placement.media.height) == 154)
        #expect(mm(placed.placement.trim) == [3, 3, 210, 148])
        #expect(placed.layout.canvas == Size(width: 326 * 0.75, height: 206 * 0.75), "unchanged: it fits")
        let frame = placed.placement.onPage(placed.layout.frame)
        #expect(abs(frame.midX - placed.placement.media.width / 2) < 1e-9)
        #expect(abs(frame.midY - placed.placement.media.height / 2) < 1e-9)
    }

    @Test func aLargePictureShrinksToTheRoomLeftByBorderShadowAndMargin() throws {
        // 4000x3000 px at 96 per inch is far larger than A4.
        var style = FrameStyle.classic
        style.padding = EdgeInsets(all: .mm(10))
        style.margin = .mm(5)
        let placed = try PageLayout.place(picture: PictureMetrics(pixelWidth: 4000, pixelHeight: 3000), style: style,
                                          page: PageSpec(size: .a4))
        let canvas = placed.layout.canvas, page = placed.placement.trim
        #expect(placed.placement.orientation == .landscape)
        #expect(canvas.width <= page.width + 1e-6 && canvas.height <= page.height + 1e-6)
        #expect(abs(canvas.width - page.width) < 1e-6 || abs(canvas.height - page.height) < 1e-6, "as large as fits")
        #expect(placed.layout.borderWidth == Length.px(3).points, "the border keeps its width")
        #expect(abs(placed.layout.contentBox.minX - placed.layout.frame.minX - Length.px(3).points - Length.mm(10).points) < 1e-9)
        // The picture keeps its aspect ratio.
        #expect(abs(placed.layout.picture.width / placed.layout.picture.height - 4.0 / 3.0) < 1e-9)
        #expect(placed.style.width != nil || placed.style.height != nil)
    }

    @Test func aGivenSizeThatDoesNotFitIsAnError() {
        var style = FrameStyle()
        style.size = LengthSize(width: .mm(300), height: .mm(200))
        #expect {
            try PageLayout.place(picture: PictureMetrics(pixelWidth: 30, pixelHeight: 20), style: style, page: PageSpec(size: .a5))
        } throws: { error in
            let text = "\(error)"
            return text.contains("300 x 200 mm") && text.contains("A5 landscape") && text.contains("210 x 148 mm")
        }
    }

    /// A frame given the trim's size puts its frame on the trim; its shadows and margin lie past
    /// it, under the bleed, and are cut off. A frame a little smaller whose shadows would be cut
    /// at the trim does not fit.
    @Test func aFrameOfThePagesSizeLiesOnTheTrim() throws {
        var style = FrameStyle.classic
        style.border = .zero
        style.padding = EdgeInsets(all: .mm(8))
        style.margin = .px(10)
        style.shadows = [BoxShadow(offsetX: .px(4), offsetY: .px(6), blur: .px(20))]
        let picture = PictureMetrics(pixelWidth: 1500, pixelHeight: 1000)
        let page = PageSpec(size: PageSize(width: .mm(150), height: .mm(100)), bleed: .mm(3), marks: .crop)
        let points = 72 / 25.4
        // The page's own size, and a size a tenth of a millimetre larger (as 4in is to 101.6 mm
        // beside a 101.5 mm page): both lie on the trim, the second over it by 0.05 mm a side.
        for extra in [0.0, 0.1] {
            style.size = LengthSize(width: .mm(150 + extra), height: .mm(100 + extra))
            let placed = try PageLayout.place(picture: picture, style: style, page: page)
            let frame = placed.placement.onPage(placed.layout.frame), trim = placed.placement.trim
            #expect(abs(trim.width - 150 * points) < 1e-9 && abs(trim.height - 100 * points) < 1e-9)
            let over = extra / 2 * points
            for (a, b) in [(trim.minX, frame.minX), (frame.maxX, trim.maxX), (trim.minY, frame.minY), (frame.maxY, trim.maxY)] {
                #expect(abs(a - b - over) < 1e-6, "frame \(frame) on trim \(trim)")
            }
            #expect(abs(frame.midX - trim.midX) < 1e-9 && abs(frame.midY - trim.midY) < 1e-9, "the frame is centred, not the canvas")
            // The mat (square-cornered) continues into the bleed beyond all four sides and corners.
            #expect(placed.layout.outerRadius == 0)
            let strips = Bleed.strips(layout: placed.layout, style: placed.style, trim: placed.placement.trimOnCanvas,
                                      bleed: 3 * points)
            #expect(Set(strips.filter { $0.paint == .mat }.map(\.side)) == Set(BleedSide.allCases), "+\(extra) mm: \(strips)")
        }

        style.size = LengthSize(width: .mm(140), height: .mm(90))
        #expect(throws: PageError.self, "a smaller frame whose shadow the trim would cut") {
            try PageLayout.place(picture: picture, style: style, page: page)
        }
    }

    @Test func noRoomAtAllIsAnError() {
        var style = FrameStyle()
        style.padding = EdgeInsets(all: .mm(80))
        #expect(throws: PageError.self) {
            try PageLayout.place(picture: PictureMetrics(pixelWidth: 3000, pixelHeight: 2000), style: style,
                                 page: PageSpec(size: .a5))
        }
        #expect(throws: PageError.self) {
            try PageLayout.place(picture: PictureMetrics(pixelWidth: 30, pixelHeight: 20), style: FrameStyle(),
                                 page: PageSpec(size: .a5, bleed: .mm(-1)))
        }
    }
}

/// Photo lab sizes, bare numbers refused, and the safe margin that a frame without a given size
/// is fitted inside (issue 30).
struct PageSafeMarginTests {
    static let mm = 72 / 25.4

    @Test func labSizesByTheirNumbersEitherWayRound() throws {
        // Inches in the US, centimetres in Europe.
        let inches: [(String, Double, Double)] = [("4x6", 4, 6), ("5x7", 5, 7), ("8x10", 8, 10), ("11x14", 11, 14)]
        for (name, w, h) in inches {
            let size = try PageSize(parsing: name)
            #expect(size.width.points == w * 72 && size.height.points == h * 72, "\(name)")
            let again = try PageSize(parsing: size.description)
            #expect(size.description == name && again == size)
            let turned = try PageSize(parsing: "\(Int(h))x\(Int(w))")
            #expect(turned.width.points == w * 72 && turned.height.points == h * 72, "\(Int(h))x\(Int(w)) is the same paper")
        }
        for (name, w, h) in [("10x15", 100.0, 150.0), ("13x18", 130, 180), ("20x30", 200, 300)] {
            let size = try PageSize(parsing: name)
            #expect(abs(size.width.points - w * Self.mm) < 1e-9 && abs(size.height.points - h * Self.mm) < 1e-9, "\(name)")
        }
        #expect(try PageSize(parsing: " 6 X 4 ").width == .inches(4), "any case and spaces")
        #expect(try PageSize(parsing: "15×10").height == .cm(15))
        #expect(try PageSize(parsing: "a6") == .a6)
        #expect(abs(PageSize.a6.width.points - 105 * Self.mm) < 1e-9 && abs(PageSize.a6.height.points - 148 * Self.mm) < 1e-9)
        // With units, as before: a unit after the height is the width's too; px said is px.
        #expect(try PageSize(parsing: "10x15cm").width == .cm(10))
        #expect(try PageSize(parsing: "4inx6in").height == .inches(6))
        #expect(try PageSize(parsing: "600x400px").width == .px(600))
    }

    @Test(arguments: ["4x5", "600x400", "4inx6", "6.5x4.5", "100 x 150"])
    func bareNumbersAreRefusedWithUnitsSuggested(text: String) {
        #expect {
            try PageSize(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return message.contains(text) && message.contains("4inx6in") && message.contains("10x15cm")
        }
    }

    /// A4 landscape (297 x 210 mm), a 4:3 picture far larger, a 3px border, no shadow: the
    /// frame is the page less 3 mm on each side the long way it fills (the height).
    @Test func aFrameWithoutASizeFitsInsideTheSafeMargin() throws {
        let style = FrameStyle(border: .px(3))
        let picture = PictureMetrics(pixelWidth: 4000, pixelHeight: 3000)
        let placed = try PageLayout.place(picture: picture, style: style, page: PageSpec(size: .a4))
        let frame = placed.placement.onPage(placed.layout.frame), trim = placed.placement.trim
        #expect(abs(frame.height - 204 * Self.mm) < 1e-6, "210 mm less 2 x 3 mm: \(frame.height / Self.mm) mm")
        #expect(abs(frame.minY - trim.minY - 3 * Self.mm) < 1e-6 && abs(trim.maxY - frame.maxY - 3 * Self.mm) < 1e-6)
        #expect(frame.minX - trim.minX > 3 * Self.mm, "the other way it has room to spare")
        #expect(placed.placement.safeMargin == 3 * Self.mm)
        #expect(placed.placement.safeBox == trim.outset(by: -3 * Self.mm))
        // A margin of 0 fills the page, as framed did before; 5 mm leaves 5 mm.
        let full = try PageLayout.place(picture: picture, style: style, page: PageSpec(size: .a4, safeMargin: .zero))
        #expect(abs(full.layout.frame.height - 210 * Self.mm) < 1e-6)
        let five = try PageLayout.place(picture: picture, style: style, page: PageSpec(size: .a4, safeMargin: .mm(5)))
        #expect(abs(five.layout.frame.height - 200 * Self.mm) < 1e-6)
        // A frame that fits already keeps its size.
        let small = try PageLayout.place(picture: PictureMetrics(pixelWidth: 400, pixelHeight: 300), style: style,
                                         page: PageSpec(size: .a4))
        #expect(small.layout.frame.width == 406 * 0.75 && small.style.width == nil && small.style.height == nil)
    }

    /// A shadow 20px down and unblurred grows the canvas below the frame only; the canvas is
    /// centred, so the frame sits above the middle. Its room shrinks by the difference: its top
    /// is exactly 3 mm in, its bottom 3 mm plus the 15 pt of shadow.
    @Test func anOffsetShadowTakesItsRoomOnOneSide() throws {
        let shadow = BoxShadow(offsetX: .zero, offsetY: .px(20), blur: .zero, color: .black)
        let style = FrameStyle(border: .px(3), shadows: [shadow])
        let placed = try PageLayout.place(picture: PictureMetrics(pixelWidth: 4000, pixelHeight: 3000), style: style,
                                          page: PageSpec(size: .a4))
        let frame = placed.placement.onPage(placed.layout.frame), trim = placed.placement.trim
        #expect(abs(frame.minY - trim.minY - 3 * Self.mm) < 1e-6, "top \((frame.minY - trim.minY) / Self.mm) mm")
        #expect(abs(trim.maxY - frame.maxY - (3 * Self.mm + 15)) < 1e-6)
        #expect(abs(frame.height - (210 * Self.mm - 6 * Self.mm - 15)) < 1e-6)
    }

    /// A caption under the frame is part of what keeps out of the margin: its box's bottom is 3 mm
    /// above the trim at least, and at most the half em (6 pt) the canvas keeps under the text
    /// and the half CSS px it rounds up to more.
    @Test func aCaptionBelowKeepsOutOfTheMarginToo() throws {
        var style = FrameStyle(border: .px(3))
        style.caption = Caption(text: "a caption", font: CSSFont(families: ["DejaVu Sans"], size: .pt(12)))
        style.caption.position = .below
        let placed = try PageLayout.place(picture: PictureMetrics(pixelWidth: 4000, pixelHeight: 3000), style: style,
                                          page: PageSpec(size: .a4), text: CaptionLayoutTests.Measure())
        let caption = placed.placement.onPage(try #require(placed.layout.caption).box)
        let frame = placed.placement.onPage(placed.layout.frame), trim = placed.placement.trim
        let below = trim.maxY - caption.maxY
        #expect(below >= 3 * Self.mm - 1e-6 && below <= 3 * Self.mm + 6 + 0.75, "\(below / Self.mm) mm")
        #expect(abs(frame.minY - trim.minY - 3 * Self.mm) < 1e-6)
    }

    /// A given size is never changed: one as large as the page is placed on the trim (the safe
    /// zone warns about its border); a negative margin is refused.
    @Test func aGivenSizeIsKeptAndANegativeMarginRefused() throws {
        let style = FrameStyle(size: LengthSize(width: .mm(150), height: .mm(100)), border: .mm(1))
        let placed = try PageLayout.place(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: style,
                                          page: PageSpec(size: PageSize(width: .mm(100), height: .mm(150))))
        #expect(placed.placement.onPage(placed.layout.frame) == placed.placement.trim)
        #expect {
            try PageLayout.place(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: FrameStyle(),
                                 page: PageSpec(size: .a5, safeMargin: .mm(-1)))
        } throws: { error in "\(error)".contains("safe-margin") && "\(error)".contains("zero or more") }
        // A margin that leaves no room is an error that says so.
        #expect {
            try PageLayout.place(picture: PictureMetrics(pixelWidth: 3000, pixelHeight: 2000), style: FrameStyle(),
                                 page: PageSpec(size: .a6, safeMargin: .mm(60)))
        } throws: { error in "\(error)".contains("safe-margin") && "\(error)".contains("no room") }
    }
}
