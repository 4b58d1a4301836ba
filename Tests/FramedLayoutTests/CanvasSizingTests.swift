import Testing
@testable import FramedLayout

/// The canvas a set shares, `canvasSize` and `aspect`, checked with numbers worked out here in
/// CSS px (1 px = 0.75 pt): a shadow of blur B, offset (X, Y) and spread S reaches 3 * B / 2 + S
/// past the frame, less the offset on one side and more on the other, each side rounded up to
/// whole pixels (and never inside the frame).
struct CanvasSizingTests {
    func px(_ rect: Rect) -> [Double] { [rect.x, rect.y, rect.width, rect.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 } }
    func px(_ size: Size) -> [Double] { [size.width, size.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 } }

    func shadow(_ x: Double, _ y: Double, _ blur: Double, alpha: Double = 0.5) -> BoxShadow {
        BoxShadow(offsetX: .px(x), offsetY: .px(y), blur: .px(blur), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: alpha))
    }

    /// How far a shadow reaches past the frame on the left, top, right and bottom, in whole px.
    func reach(_ x: Double, _ y: Double, _ blur: Double) -> [Double] {
        let r = 1.5 * blur
        return [r - x, r - y, r + x, r + y].map { max(0, ($0 - 1e-9).rounded(.up)) }
    }

    @Test func aSetSharesTheUnionOfItsCanvasesWithTheFramesAtOnePlace() throws {
        let picture = PictureMetrics(pixelWidth: 300, pixelHeight: 200)
        // docs' and docs-dark's shadows as they were: the dark one reaches further on every side.
        var light = FrameStyle(border: .px(1)), dark = light
        light.shadows = [shadow(0, 4, 16)]
        dark.shadows = [shadow(0, 4, 20)]
        let set = try FrameLayout.set(picture: picture, styles: [light, dark])
        let a = reach(0, 4, 16), b = reach(0, 4, 20)
        let sides = zip(a, b).map { max($0, $1) }
        for member in set {
            #expect(px(member.layout.canvas) == [302 + sides[0] + sides[2], 202 + sides[1] + sides[3]])
            #expect(px(member.layout.frame) == [sides[0], sides[1], 302, 202])
        }
        // Shadows that lean opposite ways: each side takes the farther one, so the shared
        // canvas is wider than either's own.
        light.shadows = [shadow(-10, 0, 4)]
        dark.shadows = [shadow(10, 0, 4)]
        let lean = try FrameLayout.set(picture: picture, styles: [light, dark])
        let left = max(reach(-10, 0, 4)[0], reach(10, 0, 4)[0]), right = max(reach(-10, 0, 4)[2], reach(10, 0, 4)[2])
        #expect(left == 16 && right == 16)
        for member in lean {
            #expect(px(member.layout.canvas) == [302 + left + right, 202 + 6 + 6])
            #expect(px(member.layout.frame)[0] == left)
            #expect(px(member.layout.shadows[0].box)[0] == left + (member.style == light ? -10 : 10))
        }
        #expect(px(try FrameLayout(picture: picture, style: light).canvas)[0] == 302 + 16)
    }

    @Test func framesOfDifferentSizesAreCentredOnOnePointByWholePixels() throws {
        let picture = PictureMetrics(pixelWidth: 300, pixelHeight: 200)
        let plain = FrameStyle(border: .px(1))
        var matted = plain
        matted.padding = EdgeInsets(all: .px(11))
        let set = try FrameLayout.set(picture: picture, styles: [plain, matted])
        // 302 x 202 and 324 x 224: the small frame's centre goes to the large one's, 11 px in.
        #expect(px(set[0].layout.canvas) == [324, 224] && px(set[1].layout.canvas) == [324, 224])
        #expect(px(set[0].layout.frame) == [11, 11, 302, 202] && px(set[1].layout.frame) == [0, 0, 324, 224])
        #expect(px(set[0].layout.picture) == [12, 12, 300, 200] && px(set[1].layout.picture) == [12, 12, 300, 200])
        // An odd difference: 12.5 px is rounded down, so the frame stays on whole pixels.
        matted.padding = EdgeInsets(top: .px(11), right: .px(13), bottom: .px(11), left: .px(12))
        let odd = try FrameLayout.set(picture: picture, styles: [plain, matted])
        #expect(px(odd[0].layout.frame)[0] == 12 && px(odd[0].layout.canvas) == [327, 224])
    }

    @Test func aCanvasSizeIsExactAndTheFrameIsFittedAndCentred() throws {
        // 800 x 500 picture, 1px border, shadow 0 4px 16px (24 px a side, 20 above, 28 below), a
        // 48 px margin, on 1200 x 630. Down: 502 + 48 + 96 = 646 > 630, so the frame is made 630
        // - 144 = 486 tall; the picture 484 tall and 484 * 1.6 = 774.4 wide; the frame 776.4.
        var style = FrameStyle(border: .px(1), shadows: [shadow(0, 4, 16)], margin: .px(48))
        style.canvasSize = LengthSize(width: .px(1200), height: .px(630))
        let fitted = try FrameLayout.set(picture: PictureMetrics(pixelWidth: 800, pixelHeight: 500), styles: [style])[0]
        let l = fitted.layout
        #expect(px(l.canvas) == [1200, 630])
        #expect(fitted.style.height.map { ($0.points / 0.75 * 1e6).rounded() / 1e6 } == 486)
        let used = 776.4 + 48 + 96
        let x = ((1200 - used) / 2).rounded(.down) + 24 + 48
        #expect(px(l.frame) == [x, 20 + 48, 776.4, 486])
        #expect(px(l.picture) == [x + 1, 69, 774.4, 484])

        // A small picture is not enlarged: it sits in the middle, on whole pixels.
        style.canvasSize = LengthSize(width: .px(1600), height: .px(900))
        let small = try FrameLayout(picture: PictureMetrics(pixelWidth: 401, pixelHeight: 300), style: style)
        #expect(px(small.canvas) == [1600, 900])
        let w = 403 + 48 + 96, h = 302 + 48 + 96
        #expect(px(small.frame) == [((1600 - Double(w)) / 2).rounded(.down) + 24 + 48,
                                    ((900 - Double(h)) / 2).rounded(.down) + 20 + 48, 403, 302])
        // In millimetres the canvas is exactly that many points.
        style.canvasSize = LengthSize(width: .mm(100), height: .mm(50))
        let metric = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: style)
        #expect(metric.canvas == Size(width: Length.mm(100).points, height: Length.mm(50).points))
    }

    @Test func aGivenSizeThatDoesNotFitIsAnErrorNamingBothSizes() throws {
        var style = FrameStyle(size: LengthSize(width: .px(1300), height: .px(600)), margin: .px(10))
        style.canvasSize = LengthSize(width: .px(1200), height: .px(630))
        #expect(throws: LayoutError.doesNotFitCanvas(needed: Size(width: 1320 * 0.75, height: 620 * 0.75),
                                                      canvas: Size(width: 900, height: 472.5))) {
            try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100), style: style)
        }
        let message = LayoutError.doesNotFitCanvas(needed: Size(width: 990, height: 465), canvas: Size(width: 900, height: 472.5))
            .description
        #expect(message.contains("1320x620px") && message.contains("canvasSize 1200x630px") && message.contains("size"))
        // Margins that leave nothing: no room at all.
        style = FrameStyle(margin: .px(700))
        style.canvasSize = LengthSize(width: .px(1200), height: .px(630))
        #expect(throws: LayoutError.self) { try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100), style: style) }
        do {
            _ = try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100), style: style)
        } catch {
            guard case .noRoomInCanvas = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func anAspectCanvasIsWholePixels() throws {
        // 101 x 100 px at 16:9: 100 * 16 / 9 = 177.8, made 178; the frame 38 px in.
        let l = try FrameLayout(picture: PictureMetrics(pixelWidth: 101, pixelHeight: 100),
                                style: FrameStyle(aspect: AspectRatio(width: 16, height: 9)))
        #expect(px(l.canvas) == [178, 100] && px(l.frame) == [38, 0, 101, 100])
        // A set grows the shared canvas, not each member's.
        var a = FrameStyle(shadows: [shadow(0, 0, 4)]), b = FrameStyle(shadows: [shadow(0, 0, 20)])
        a.aspect = AspectRatio(width: 1, height: 1); b.aspect = a.aspect
        let set = try FrameLayout.set(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 50), styles: [a, b])
        // b reaches 30 px a side: 160 x 110, made 160 x 160, the frame 30 px in and 55 down.
        #expect(set.allSatisfy { px($0.layout.canvas) == [160, 160] && px($0.layout.frame) == [30, 55, 100, 50] })
    }

    @Test func theMatIsCoveredOnlyWhenThePictureHidesAllOfIt() throws {
        func covered(_ edit: (inout FrameStyle) -> Void) throws -> Bool {
            var style = FrameStyle(border: .px(2), radius: .px(8))
            edit(&style)
            return try FrameLayout(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: style).matCovered
        }
        #expect(try covered { _ in })
        #expect(try covered { $0.chrome.kind = .macos })
        #expect(try covered { $0.size = LengthSize(width: .px(154), height: .px(104)); $0.fit = .contain })
        #expect(try covered { $0.size = LengthSize(width: .px(200), height: .px(200)); $0.fit = .cover })
        #expect(try !covered { $0.padding = EdgeInsets(all: .px(1)) })
        #expect(try !covered { $0.size = LengthSize(width: .px(304), height: .px(304)); $0.fit = .contain })
        #expect(try !covered { $0.size = LengthSize(width: .px(604), height: .px(404)) })
    }
}

/// The canvas image's pixels, with numbers: CSS `background-size: cover` (the smaller scale
/// that covers both ways, centred) and the resolution its blur leaves worth keeping.
struct CanvasImageGeometryTests {
    @Test func coverScalesToTheLargerRatioAndCentres() {
        // A 4K picture on a 630 x 430 canvas: 430 / 2160 > 630 / 3840, so 764.4 x 430, cut 67 a side.
        let wide = CanvasImageGeometry.cover(image: PixelSize(width: 3840, height: 2160), area: PixelSize(width: 630, height: 430))
        #expect(wide.scaled == PixelSize(width: 764, height: 430) && wide.x == 67 && wide.y == 0)
        // A tall one on a wide canvas: the width decides, the height is cut.
        let tall = CanvasImageGeometry.cover(image: PixelSize(width: 100, height: 300), area: PixelSize(width: 300, height: 300))
        #expect(tall.scaled == PixelSize(width: 300, height: 900) && tall.x == 0 && tall.y == 300)
        // Already the shape: no cut.
        let same = CanvasImageGeometry.cover(image: PixelSize(width: 200, height: 100), area: PixelSize(width: 50, height: 25))
        #expect(same.scaled == PixelSize(width: 50, height: 25) && same.x == 0 && same.y == 0)
    }

    @Test func aBlurredImageKeepsEightPixelsToItsSigma() {
        // 96 dpi (4/3 px a point), blur 20px = 15pt: 8 / 15 px a point; unblurred: the output's.
        #expect(abs(CanvasImageGeometry.pixelsPerPoint(output: 4.0 / 3, blur: 15) - 8.0 / 15) < 1e-12)
        #expect(CanvasImageGeometry.pixelsPerPoint(output: 4.0 / 3, blur: 0) == 4.0 / 3)
        #expect(CanvasImageGeometry.pixelsPerPoint(output: 4.0 / 3, blur: 1) == 4.0 / 3)
        #expect(CanvasImageGeometry.pixels(of: Size(width: 472.5, height: 322.5), pixelsPerPoint: 8.0 / 15)
                == PixelSize(width: 252, height: 172))
    }
}
