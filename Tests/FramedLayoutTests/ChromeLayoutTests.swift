import Testing
import FramedLayout

/// The window title bar's place in the box model, in CSS px (1 px = 0.75 pt): a band across the
/// top of the padding box, the picture keeping its size and the frame growing by the bar.
struct ChromeLayoutTests {
    func layout(_ w: Int, _ h: Int, _ edit: (inout FrameStyle) -> Void) throws -> FrameLayout {
        var style = FrameStyle()
        edit(&style)
        return try FrameLayout(picture: PictureMetrics(pixelWidth: w, pixelHeight: h), style: style)
    }

    func px(_ rect: Rect?) -> [Double] {
        guard let rect else { return [] }
        return [rect.x, rect.y, rect.width, rect.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 }
    }

    func px(_ size: Size) -> [Double] { [size.width, size.height].map { ($0 / 0.75 * 1e6).rounded() / 1e6 } }

    @Test func theBarSitsInsideTheBorderAboveTheMatAndThePicture() throws {
        // 200 x 100 picture, 3 px border, 10 px mat, macOS bar of 28 px.
        let l = try layout(200, 100) {
            $0.border = .px(3); $0.padding = EdgeInsets(all: .px(10)); $0.chrome = WindowChrome(kind: .macos)
        }
        let frameW = 3 + 10 + 200 + 10 + 3.0, frameH = 3 + 28 + 10 + 100 + 10 + 3.0
        #expect(px(l.frame) == [0, 0, frameW, frameH])
        #expect(px(l.paddingBox) == [3, 3, frameW - 6, frameH - 6])
        #expect(px(l.titleBar) == [3, 3, frameW - 6, 28])
        #expect(px(l.contentBox) == [13, 3 + 28 + 10, 200, 100])
        #expect(px(l.picture) == [13, 41, 200, 100])
    }

    @Test func eachPlatformHasItsBarHeight() throws {
        for (kind, height) in [(ChromeKind.macos, 28.0), (.windows, 32), (.plain, 28)] {
            let l = try layout(120, 80) { $0.chrome = WindowChrome(kind: kind, theme: .dark) }
            // A dark macOS window has a 1 px rim outside it: the canvas grows by it all round.
            let o = kind == .macos ? 1.0 : 0
            #expect(px(l.titleBar) == [o, o, 120, height], "\(kind)")
            #expect(px(l.picture) == [o, o + height, 120, 80], "\(kind)")
            #expect(px(l.canvas) == [120 + 2 * o, 80 + height + 2 * o], "\(kind)")
            let light = try layout(120, 80) { $0.chrome = WindowChrome(kind: kind, theme: .light) }
            #expect(px(light.canvas) == [120, 80 + height], "\(kind), light")
        }
        let none = try layout(120, 80) { $0.chrome = WindowChrome(kind: nil, theme: .dark) }
        #expect(none.titleBar == nil && px(none.canvas) == [120, 80])
    }

    /// With a given size the bar comes out of the frame's height; with a width only, the height
    /// follows the picture's aspect and adds the bar.
    @Test func aGivenSizeKeepsTheBarAndShrinksTheContent() throws {
        let sized = try layout(400, 200) {
            $0.size = LengthSize(width: .px(232), height: .px(132)); $0.chrome = WindowChrome(kind: .windows)
        }
        // Content box 232 x (132 - 32) = 232 x 100; the picture 200 x 100, centred.
        #expect(px(sized.contentBox) == [0, 32, 232, 100])
        #expect(px(sized.picture) == [16, 32, 200, 100])
        let wide = try layout(400, 200) { $0.width = .px(210); $0.border = .px(5); $0.chrome = WindowChrome(kind: .macos) }
        #expect(px(wide.frame) == [0, 0, 210, 5 + 28 + 100 + 5])
        #expect(px(wide.titleBar) == [5, 5, 200, 28])
    }

    /// A height that the bar fills says so.
    @Test func aHeightTheBarFillsNamesTheBar() {
        #expect(throws: LayoutError.frameTooSmall(name: "height", frame: 22.5, needed: 24, titleBar: 24)) {
            try layout(100, 30) { $0.size = LengthSize(width: .px(100), height: .px(30)); $0.chrome = WindowChrome(kind: .windows) }
        }
        let message = LayoutError.frameTooSmall(name: "height", frame: 22.5, needed: 24, titleBar: 24).description
        #expect(message == "the frame's height (30px) leaves no room for the picture: border, padding and the title bar take 32px")
    }

    /// Snapped for raster output at 1.5 device pixels per CSS px the bar stays on the padding
    /// box's top and ends on a whole device pixel, where the content box begins.
    @Test func snappingKeepsTheBarOnThePixelGrid() throws {
        let l = try layout(101, 51) { $0.border = .px(1); $0.chrome = WindowChrome(kind: .plain) }
        let k = 1.5 / 0.75
        let s = l.snapped(devicePixelsPerPoint: k)
        let bar = try #require(s.titleBar)
        for v in [bar.minX, bar.minY, bar.maxX, bar.maxY] { #expect(abs(v * k - (v * k).rounded()) < 1e-9) }
        #expect(bar.minY == s.paddingBox.minY && bar.maxY == s.contentBox.minY)
        #expect(abs(bar.height * k - 42) < 1e-9)
    }
}
