import FramedLayout

/// The window title bar (`FrameStyle.chrome`), drawn as vector paths in the layout's `titleBar`
/// and clipped to the frame's inner rounded shape, so the frame's top corners round it (the rims
/// at the window's edge are `FrameDrawing`'s). Every size and colour is the platform's, from `ChromeFigures` (FramedLayout's `Chrome.swift`, with their
/// sources); the title is set by Pango in DejaVu Sans, the platforms' own UI fonts not being on
/// Linux.
struct WindowChromeDrawing {
    var bar: Rect
    var kind: ChromeKind
    var theme: ChromeTheme
    var title: String?

    /// One CSS px in points.
    static let px = 0.75

    /// The title's font family.
    static let titleFont = "DejaVu Sans"

    /// The title's font on a bar drawn with `figures`: the family above at the platform's size.
    /// Preparing the text and checking its size use it too, so that they see what is drawn.
    static func titleFont(_ figures: ChromeFigures) -> CSSFont {
        CSSFont(families: [titleFont], size: .px(figures.titleSize))
    }

    var figures: ChromeFigures { ChromeFigures.of(kind, theme) }

    /// `color` composited over the opaque `under`: the same pixels as drawing it translucent
    /// there, glyph edges included, without transparency, which LibreOffice draws the title's
    /// thin strokes too light with.
    static func over(_ color: RGBAColor, _ under: RGBAColor) -> RGBAColor {
        let a = color.alpha
        return RGBAColor(red: color.red * a + under.red * (1 - a), green: color.green * a + under.green * (1 - a),
                         blue: color.blue * a + under.blue * (1 - a))
    }

    /// Fills the bar, then draws its buttons and its title, all inside `paddingBox` rounded by
    /// `radius` (the frame's inner shape).
    func draw(clip paddingBox: Rect, radius: Double, in context: CairoContext) throws(RenderError) {
        let figures = self.figures
        try context.withSavedState { () throws(RenderError) in
            context.newPath()
            context.addRoundedRect(paddingBox, radius: radius)
            context.clip()
            context.newPath()
            context.addRoundedRect(bar, radius: 0)
            context.setSource(figures.barColor)
            context.fill()
            drawMacButtons(figures.buttons, in: context)
            if let buttons = figures.captionButtons { try drawWindowsGlyphs(buttons, in: context) }
            if let title, !title.isEmpty { try drawTitle(title, figures: figures, in: context) }
        }
    }

    /// The title through Pango (`TextLayout`, CText): one line in the bar between the room kept at
    /// its left and right, centred on the bar or at the left as the platform puts it, ellipsised
    /// at its end when it would reach the room kept.
    private func drawTitle(_ title: String, figures: ChromeFigures, in context: CairoContext) throws(RenderError) {
        let px = Self.px
        let box = Rect(x: bar.minX + figures.titleStart * px, y: bar.minY,
                       width: bar.width - (figures.titleStart + figures.titleEnd) * px, height: bar.height)
        guard box.width > 0 else { return }
        context.setSource(Self.over(figures.titleColor, figures.barColor))
        do throws(TextError) {
            let font = Self.titleFont(figures)
            let alignment: CaptionAlignment = figures.titleAlignment == .center ? .center : .left
            let line = try TextLayout(title, font: font, width: box.width, alignment: alignment, oneLine: true,
                                      on: context)
            try line.draw(on: context, at: Point(x: box.x, y: box.y + (box.height - line.extents.height) / 2))
        } catch {
            throw .cairo(operation: "drawing the window title", message: error.description)
        }
        context.newPath()
        try context.checkStatus("drawing the window title")
    }

    /// macOS's buttons: each a filled circle inside a ring of its darker rim colour.
    private func drawMacButtons(_ buttons: [ChromeFigures.Button], in context: CairoContext) {
        let px = Self.px
        for button in buttons {
            let d = button.diameter * px, w = button.rimWidth * px
            let circle = Rect(x: bar.minX + button.centerX * px - d / 2, y: bar.midY - d / 2, width: d, height: d)
            context.newPath()
            context.addRoundedRect(circle, radius: d / 2)
            context.setSource(button.rim)
            context.fill()
            context.newPath()
            context.addRoundedRect(circle.outset(by: -w), radius: d / 2 - w)
            context.setSource(button.fill)
            context.fill()
        }
    }

    /// Minimise, maximise and close, right to left in their buttons. Each glyph fills a square
    /// around the button's centre, rounded to whole px so that its lines cover whole pixels at
    /// 1x: minimise a line across the middle row, maximise the square's outline with rounded
    /// corners, close the square's two diagonals.
    private func drawWindowsGlyphs(_ buttons: ChromeFigures.CaptionButtons, in context: CairoContext) throws(RenderError) {
        let px = Self.px, size = buttons.glyphSize * px, stroke = buttons.stroke * px
        let centreY = bar.minY + (bar.height / px / 2).rounded(.down) * px
        context.setSource(Self.over(buttons.color, figures.barColor))
        for index in 0..<3 {
            // Index 0 is the close button, at the right.
            let centreX = bar.maxX - (buttons.width * Double(index) + buttons.width / 2) * px
            let square = Rect(x: centreX - size / 2, y: centreY - size / 2, width: size, height: size)
            context.newPath()
            switch index {
            case 2:
                context.addRoundedRect(Rect(x: square.minX, y: centreY, width: square.width, height: stroke), radius: 0)
                context.fill()
            case 1:
                let r = buttons.maximiseRadius * px
                context.addRoundedRect(square, radius: r)
                context.addRoundedRect(square.outset(by: -stroke), radius: max(0, r - stroke))
                context.setEvenOddFill(true)
                context.fill()
                context.setEvenOddFill(false)
            default:
                context.addLine(from: square.origin, to: Point(x: square.maxX, y: square.maxY))
                context.addLine(from: Point(x: square.maxX, y: square.minY), to: Point(x: square.minX, y: square.maxY))
                context.stroke(width: stroke)
            }
        }
    }
}
