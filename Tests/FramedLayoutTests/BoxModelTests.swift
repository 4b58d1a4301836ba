import Testing
@testable import FramedLayout

/// The box model, checked with numbers. All expectations are in CSS px (1 px = 0.75 pt).
struct BoxModelTests {
    /// A layout with only what the test sets (no border, no shadow, no padding).
    func layout(_ w: Int, _ h: Int, dpi: Double? = nil, _ edit: (inout FrameStyle) -> Void = { _ in }) throws -> FrameLayout {
        var style = FrameStyle()
        edit(&style)
        return try FrameLayout(picture: PictureMetrics(pixelWidth: w, pixelHeight: h, fileResolution: dpi), style: style)
    }

    func px(_ rect: Rect) -> [Double] { [rect.x, rect.y, rect.width, rect.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 } }
    func px(_ size: Size) -> [Double] { [size.width, size.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 } }

    // MARK: Natural size

    @Test func naturalSizeIsOnePicturePixelPerCSSPixel() throws {
        let l = try layout(640, 480) { $0.border = .px(3); $0.padding = EdgeInsets(all: .px(10)) }
        #expect(px(l.frame) == [0, 0, 666, 506])
        #expect(px(l.paddingBox) == [3, 3, 660, 500])
        #expect(px(l.contentBox) == [13, 13, 640, 480])
        #expect(px(l.picture) == [13, 13, 640, 480])
        #expect(px(l.canvas) == [666, 506])
    }

    @Test func fileResolutionIsUsedOnlyWhenAsked() throws {
        let css = try layout(288, 144, dpi: 144)
        #expect(px(css.picture.size) == [288, 144])
        let auto = try layout(288, 144, dpi: 144) { $0.pictureResolution = .auto }
        #expect(px(auto.picture.size) == [192, 96])
        let noneInFile = try layout(288, 144) { $0.pictureResolution = .auto }
        #expect(px(noneInFile.picture.size) == [288, 144])
        let given = try layout(300, 150) { $0.pictureResolution = .dpi(300) }
        #expect(given.picture.size == Size(width: 72, height: 36)) // one inch wide
    }

    @Test func widthOnlyFollowsAspectRatio() throws {
        let l = try layout(800, 400) { $0.width = .px(410); $0.border = .px(5) }
        #expect(px(l.frame.size) == [410, 210])
        #expect(px(l.picture.size) == [400, 200])
        let h = try layout(800, 400) { $0.height = .px(110); $0.padding = EdgeInsets(all: .px(5)) }
        #expect(px(h.frame.size) == [210, 110])
    }

    // MARK: Fit modes

    /// (picture w, h, fit) → expected picture rect in px inside a 400x200 frame with no chrome.
    static let fitCases: [(Int, Int, ContentFit, [Double])] = [
        // Landscape larger than the box.
        (800, 200, .contain, [0, 50, 400, 100]),
        (800, 200, .scaleDown, [0, 50, 400, 100]),
        (800, 200, .cover, [-200, 0, 800, 200]),
        (800, 200, .fill, [0, 0, 400, 200]),
        (800, 200, .none, [-200, 0, 800, 200]),
        // Portrait larger than the box.
        (300, 600, .contain, [150, 0, 100, 200]),
        (300, 600, .scaleDown, [150, 0, 100, 200]),
        (300, 600, .cover, [0, -300, 400, 800]),
        (300, 600, .fill, [0, 0, 400, 200]),
        (300, 600, .none, [50, -200, 300, 600]),
        // Smaller than the box: scale-down never enlarges, contain does.
        (100, 50, .contain, [0, 0, 400, 200]),
        (100, 50, .scaleDown, [150, 75, 100, 50]),
        (100, 50, .cover, [0, 0, 400, 200]),
        (100, 50, .fill, [0, 0, 400, 200]),
        (100, 50, .none, [150, 75, 100, 50]),
        (50, 100, .contain, [150, 0, 100, 200]),
        (50, 100, .scaleDown, [175, 50, 50, 100]),
    ]

    @Test(arguments: fitCases)
    func fitMode(_ w: Int, _ h: Int, _ fit: ContentFit, _ expected: [Double]) throws {
        let l = try layout(w, h) { $0.size = LengthSize(width: .px(400), height: .px(200)); $0.fit = fit }
        #expect(px(l.picture) == expected)
        #expect(l.contentBox.contains(l.pictureClip))
        #expect(l.picture.contains(l.pictureClip))
        if fit != .fill {
            #expect(abs(l.picture.size.aspectRatio - Double(w) / Double(h)) < 1e-9, "aspect ratio kept")
        }
    }

    @Test func neverUpscalesByDefault() throws {
        for (w, h) in [(10, 10), (399, 199), (400, 200), (1, 300)] {
            let l = try layout(w, h) { $0.size = LengthSize(width: .px(400), height: .px(200)) }
            #expect(l.picture.width <= Double(w) * 0.75 + 1e-9)
            #expect(l.picture.height <= Double(h) * 0.75 + 1e-9)
        }
    }

    @Test(arguments: [("top-left", [0.0, 0.0]), ("bottom-right", [300, 150]), ("top", [150, 0]),
                      ("left", [0, 75]), ("center", [150, 75]), ("right bottom", [300, 150])])
    func positions(_ text: String, _ origin: [Double]) throws {
        let position = try ContentPosition(parsing: text)
        let l = try layout(100, 50) { $0.size = LengthSize(width: .px(400), height: .px(200)); $0.position = position }
        #expect(Array(px(l.picture).prefix(2)) == origin)
    }

    @Test func badPositionsAreRejected() {
        for text in ["", "middle", "left right", "top bottom", "top left center"] {
            #expect(throws: StyleParseError.self) { try ContentPosition(parsing: text) }
        }
    }

    @Test func paddingAndBorderShapeTheContentBox() throws {
        let l = try layout(1000, 1000) {
            $0.size = LengthSize(width: .mm(150), height: .mm(100))
            $0.border = .mm(2); $0.padding = EdgeInsets(top: .mm(5), right: .mm(10), bottom: .mm(15), left: .mm(20))
        }
        let mm = 72 / 25.4
        #expect(abs(l.frame.width - 150 * mm) < 1e-9 && abs(l.frame.height - 100 * mm) < 1e-9)
        #expect(abs(l.contentBox.width - (150 - 4 - 30) * mm) < 1e-9)
        #expect(abs(l.contentBox.height - (100 - 4 - 20) * mm) < 1e-9)
        #expect(abs(l.contentBox.minX - l.frame.minX - 22 * mm) < 1e-9)
        #expect(abs(l.contentBox.minY - l.frame.minY - 7 * mm) < 1e-9)
        // Square picture in a 116x76 mm box: contain-limited by the height.
        #expect(abs(l.picture.height - 76 * mm) < 1e-9)
    }

    @Test func radiiInnerIsOuterMinusBorder() throws {
        let a = try layout(100, 100) { $0.radius = .px(10); $0.border = .px(4) }
        #expect(a.outerRadius == 7.5 && a.innerRadius == 4.5)
        let b = try layout(100, 100) { $0.radius = .px(2); $0.border = .px(4) }
        #expect(b.innerRadius == 0)
        let c = try layout(100, 40) { $0.radius = .px(500) }
        #expect(c.outerRadius == 15, "clamped to half the shorter side")
    }

    // MARK: Shadows and canvas

    @Test func canvasHoldsShadowExtentOnEverySide() throws {
        // classic shadow: blur 10px → sigma 5px → 15px on each side.
        let l = try layout(200, 100) { $0.shadows = FrameStyle.classic.shadows }
        #expect(px(l.canvas) == [230, 130])
        #expect(px(l.frame) == [15, 15, 200, 100])
        #expect(l.shadows.count == 1)
        #expect(abs(l.shadows[0].sigma - 3.75) < 1e-12)
        #expect(l.shadows[0].box == l.frame)
    }

    @Test func offsetSpreadAndMarginGrowTheCanvas() throws {
        let shadow = BoxShadow(offsetX: .px(10), offsetY: .px(-4), blur: .px(4), spread: .px(3), color: .black)
        let l = try layout(100, 100) { $0.shadows = [shadow]; $0.margin = .px(5) }
        // Shadow box: frame + (10, -4), grown by 3 → x -3...113+... ; 3 sigma = 6.
        // left: frame.minX - (10 - 3 - 6) = -1 → 0 (the frame already reaches further left)
        // right: 10 + 3 + 6 = 19; top: -4 - 3 - 6 = -13 → 13; bottom: -4 + 3 + 6 = 5.
        #expect(px(l.frame) == [5, 18, 100, 100])
        #expect(px(l.canvas) == [129.0, 128.0]) // 100 + 19 + 2·5 by 100 + 13 + 5 + 2·5
        #expect(px(l.shadows[0].box) == [12, 11, 106, 106])
        let canvasRect = Rect(origin: .zero, size: l.canvas)
        #expect(canvasRect.contains(l.shadows[0].extent))
    }

    @Test func fractionalShadowExtentRoundsUpToWholePixels() throws {
        let l = try layout(100, 100) { $0.shadows = [BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(7))] }
        // sigma 3.5px → 10.5px → 11px per side, so the frame sits on whole pixels.
        #expect(px(l.frame) == [11, 11, 100, 100])
        #expect(px(l.canvas) == [122, 122])
    }

    @Test func severalShadowsTakeTheUnion() throws {
        let l = try layout(100, 100) {
            $0.shadows = [BoxShadow(offsetX: .px(-20), offsetY: .zero),
                          BoxShadow(offsetX: .zero, offsetY: .px(30), blur: .px(2))]
        }
        #expect(px(l.frame) == [20, 0, 100, 100])
        #expect(px(l.canvas) == [123, 133])
    }

    // MARK: Raster size

    @Test func rasterSizeFollowsResolutionButNeverExceedsThePicture() throws {
        let l = try layout(4000, 2000) { $0.size = LengthSize(width: .px(400), height: .px(200)) }
        #expect(l.rasterSize(atDPI: 96) == PixelSize(width: 400, height: 200))
        #expect(l.rasterSize(atDPI: 192) == PixelSize(width: 800, height: 400))
        #expect(l.rasterSize(atDPI: 300) == PixelSize(width: 1250, height: 625))
        #expect(l.rasterSize(atDPI: 96_000) == PixelSize(width: 4000, height: 2000))
        let small = try layout(100, 50) { $0.size = LengthSize(width: .px(400), height: .px(200)) }
        #expect(small.rasterSize(atDPI: 300) == PixelSize(width: 100, height: 50))
    }

    // MARK: Impossible styles

    @Test func impossibleStylesAreErrors() throws {
        #expect(throws: LayoutError.emptyPicture(width: 0, height: 10)) { try layout(0, 10) }
        #expect(throws: LayoutError.self) {
            try layout(10, 10) { $0.size = LengthSize(width: .px(20), height: .px(100)); $0.border = .px(10) }
        }
        #expect(throws: LayoutError.self) {
            try layout(10, 10) { $0.size = LengthSize(width: .px(100), height: .px(30)); $0.padding = EdgeInsets(all: .px(15)) }
        }
        #expect(throws: LayoutError.self) { try layout(10, 10) { $0.width = .px(6); $0.border = .px(3) } }
        #expect(throws: LayoutError.self) { try layout(10, 10) { $0.border = .px(-1) } }
        #expect(throws: LayoutError.self) { try layout(10, 10) { $0.radius = Length(points: .nan) } }
        #expect(throws: LayoutError.self) { try layout(10, 10) { $0.margin = Length(points: .infinity) } }
        #expect(throws: LayoutError.self) { try layout(10, 10) { $0.width = .zero } }
        #expect(throws: LayoutError.self) {
            try layout(10, 10) { $0.shadows = [BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(-2))] }
        }
        #expect(throws: LayoutError.invalidResolution(0)) { try layout(10, 10) { $0.pictureResolution = .dpi(0) } }
    }

    @Test func errorMessagesAreOneReadableLine() throws {
        do {
            _ = try layout(10, 10) { $0.size = LengthSize(width: .px(20), height: .px(100)); $0.border = .px(10) }
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("width"))
            #expect(!"\(error)".contains("\n"))
        }
    }

    // MARK: Snapping

    @Test func snappingPutsFrameEdgesAndBordersOnWholeDevicePixels() throws {
        let l = try layout(1000, 1000) {
            $0.size = LengthSize(width: .mm(150), height: .mm(100)); $0.border = .px(1.4)
            $0.padding = EdgeInsets(all: .px(5.3)); $0.shadows = FrameStyle.classic.shadows
            $0.innerBorder = InnerBorder(width: .px(0.3), color: .black)
        }
        for k in [96.0 / 72, 2 * 96.0 / 72, 100.0 / 72] {
            let s = l.snapped(devicePixelsPerPoint: k)
            func whole(_ v: Double) -> Bool { abs(v * k - (v * k).rounded()) < 1e-9 }
            for r in [s.frame, s.paddingBox, s.contentBox, s.picture] {
                #expect(whole(r.minX) && whole(r.minY) && whole(r.maxX) && whole(r.maxY), "\(r) at \(k)")
            }
            #expect(whole(s.borderWidth) && s.borderWidth * k >= 1 - 1e-9)
            #expect(abs(s.innerBorderWidth * k - 1) < 1e-9, "a hairline keeps one device pixel")
            #expect(abs(s.frame.width - l.frame.width) <= 1 / k + 1e-9 && abs(s.frame.minX - l.frame.minX) <= 0.5 / k + 1e-9)
            #expect(s.canvas == l.canvas && s.shadows == l.shadows)
            #expect(s.contentBox.contains(s.pictureClip))
        }
    }
}
