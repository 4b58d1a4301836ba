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
