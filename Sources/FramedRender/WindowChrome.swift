import FramedLayout

/// The window title bar (`FrameStyle.chrome`), drawn as vector paths in the layout's `titleBar`
/// and clipped to the frame's inner rounded shape, so the frame's top corners round it.
///
/// Sizes are CSS px at 1x, as the platforms draw them: macOS's three 12 px buttons with 8 px
/// between them, the first 8 px from the left, centred on the bar; Windows 11's caption buttons,
/// 46 px wide and right-aligned, with 10 px glyphs drawn 1 px thick. The title is set by Pango
/// in DejaVu Sans at 13 px (macOS's title size; the platforms' own UI fonts are not on Linux),
/// centred on the bar and kept clear of the buttons on both sides so that it stays centred.
struct WindowChromeDrawing {
    var bar: Rect
    var kind: ChromeKind
    var theme: ChromeTheme
    var title: String?

    /// One CSS px in points.
    static let px = 0.75

    /// The bar's fill. macOS: `NSColor.windowBackgroundColor`, #ececec in the light (Aqua) and
    /// #323232 in the dark appearance, which is what a titled window without a toolbar shows.
    /// Windows 11: WinUI's `SolidBackgroundFillColorBase`, #f3f3f3 light and #202020 dark, the
    /// caption of a window without Mica. The plain bar takes macOS's colours.
    var barColor: RGBAColor {
        switch (kind, theme) {
        case (.windows, .light): RGBAColor(red8: 0xf3, green8: 0xf3, blue8: 0xf3)
        case (.windows, .dark): RGBAColor(red8: 0x20, green8: 0x20, blue8: 0x20)
        case (_, .light): RGBAColor(red8: 0xec, green8: 0xec, blue8: 0xec)
        case (_, .dark): RGBAColor(red8: 0x32, green8: 0x32, blue8: 0x32)
        }
    }

    /// Windows 11's caption glyphs: WinUI's `TextFillColorPrimary`, black at 228/255 in the
    /// light theme, white in the dark one.
    var glyphColor: RGBAColor {
        theme == .light ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 228.0 / 255) : .white
    }

    /// The title's colour. macOS: `NSColor.labelColor`, black at 85 % (light) or white at 85 %
    /// (dark); Windows 11: the glyphs' colour. The plain bar takes macOS's.
    var titleColor: RGBAColor {
        switch (kind, theme) {
        case (.windows, _): glyphColor
        case (_, .light): RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.85)
        case (_, .dark): RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.85)
        }
    }

    /// `color` composited over the opaque `under`: the same pixels as drawing it translucent
    /// there, glyph edges included, without transparency, which LibreOffice draws the title's
    /// thin strokes too light with.
    static func over(_ color: RGBAColor, _ under: RGBAColor) -> RGBAColor {
        let a = color.alpha
        return RGBAColor(red: color.red * a + under.red * (1 - a), green: color.green * a + under.green * (1 - a),
                         blue: color.blue * a + under.blue * (1 - a))
    }

    /// The room kept free of the title on each side of the bar, in CSS px: the buttons and 8 px
    /// (macOS: 8 + 3 x 12 + 2 x 8; Windows: 3 x 46).
    var titleInset: Double {
        switch kind {
        case .macos: 68
        case .windows: 146
        case .plain: 8
        }
    }

    /// The title's font and size in CSS px.
    static let titleFont = "DejaVu Sans"
    static let titleSize = 13.0

    /// macOS's close, minimise and zoom buttons, left to right.
    static let macButtons: [RGBAColor] = [
        RGBAColor(red8: 0xff, green8: 0x5f, blue8: 0x57),
        RGBAColor(red8: 0xfe, green8: 0xbc, blue8: 0x2e),
        RGBAColor(red8: 0x28, green8: 0xc8, blue8: 0x40),
    ]

    /// Fills the bar, then draws its buttons and its title, all inside `paddingBox` rounded by
    /// `radius` (the frame's inner shape).
    func draw(clip paddingBox: Rect, radius: Double, in context: CairoContext) throws(RenderError) {
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(paddingBox, radius: radius)
            context.clip()
            context.newPath()
            context.addRoundedRect(bar, radius: 0)
            context.setSource(barColor)
            context.fill()
            switch kind {
            case .macos: drawMacButtons(in: context)
            case .windows: try drawWindowsGlyphs(in: context)
            case .plain: break
            }
            if let title, !title.isEmpty { try drawTitle(title, in: context) }
        }
    }

    /// The title through Pango (`TextLayout`, CText): one line in the bar between the insets,
    /// centred on it, ellipsised at its end when it would reach them.
    private func drawTitle(_ title: String, in context: CairoContext) throws(RenderError) {
        let inset = titleInset * Self.px
        let box = Rect(x: bar.minX + inset, y: bar.minY, width: bar.width - 2 * inset, height: bar.height)
        guard box.width > 0 else { return }
        context.setSource(Self.over(titleColor, barColor))
        do throws(TextError) {
            let font = CSSFont(families: [Self.titleFont], size: .px(Self.titleSize))
            let line = try TextLayout(title, font: font, width: box.width, alignment: .center, oneLine: true,
                                      on: context)
            try line.draw(on: context, at: Point(x: box.x, y: box.y + (box.height - line.extents.height) / 2))
        } catch {
            throw .cairo(operation: "drawing the window title", message: error.description)
        }
        context.newPath()
        try context.checkStatus("drawing the window title")
    }

    /// Three filled circles, 12 px across, their centres 20 px apart from 14 px in.
    private func drawMacButtons(in context: CairoContext) {
        let px = Self.px, diameter = 12 * px
        for (index, color) in Self.macButtons.enumerated() {
            let left = bar.minX + (8 + 20 * Double(index)) * px
            context.newPath()
            context.addRoundedRect(Rect(x: left, y: bar.midY - diameter / 2, width: diameter, height: diameter),
                                   radius: diameter / 2)
            context.setSource(color)
            context.fill()
        }
    }

    /// Minimise, maximise and close, right to left in 46 px wide buttons. Each glyph fills a
    /// 10 px square around the button's centre, rounded to whole px so that its 1 px lines cover
    /// whole pixels at 1x: minimise a line across the middle row, maximise the square's outline,
    /// close the square's two diagonals.
    private func drawWindowsGlyphs(in context: CairoContext) throws(RenderError) {
        let px = Self.px
        let centreY = bar.minY + (bar.height / px / 2).rounded(.down) * px
        context.setSource(Self.over(glyphColor, barColor))
        for index in 0..<3 {
            // Index 0 is the close button, at the right.
            let centreX = bar.maxX - (46 * Double(index) + 23) * px
            let square = Rect(x: centreX - 5 * px, y: centreY - 5 * px, width: 10 * px, height: 10 * px)
            context.newPath()
            switch index {
            case 2:
                context.addRoundedRect(Rect(x: square.minX, y: centreY, width: square.width, height: px), radius: 0)
                context.fill()
            case 1:
                context.addRoundedRect(square, radius: 0)
                context.addRoundedRect(square.outset(by: -px), radius: 0)
                context.setEvenOddFill(true)
                context.fill()
                context.setEvenOddFill(false)
            default:
                context.addLine(from: square.origin, to: Point(x: square.maxX, y: square.maxY))
                context.addLine(from: Point(x: square.maxX, y: square.minY), to: Point(x: square.minX, y: square.maxY))
                context.stroke(width: px)
            }
        }
    }
}
