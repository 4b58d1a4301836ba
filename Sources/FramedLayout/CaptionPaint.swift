/// A caption's colour, decided on the paint under its lines once the canvas is final: the page
/// the figure is shown on, the canvas colour, a canvas image, the canvas gradient and, inside
/// the mat, the mat's colour and gradient, each laid over what is under it.
extension FrameLayout {
    /// Sets the caption's `color` (the style's, or `Caption.automaticColor(on:)` of what lies
    /// under its `textBox`) and its `contrast` with that. `pageColor` shows where the canvas is
    /// transparent; `canvasImage` gives a canvas image's colour at a point of the canvas, when
    /// the style has one and its pixels are known. Nothing without a caption.
    public mutating func paintCaption(style: FrameStyle, pageColor: RGBAColor,
                                      canvasImage: ((Point) -> RGBAColor)? = nil) {
        guard let geometry = caption else { return }
        let paints = Self.colors(under: geometry.textBox, inside: geometry.position == .inside, style: style,
                                 canvas: canvas, frame: frame, pageColor: pageColor, canvasImage: canvasImage)
        if let color = style.caption.color {
            caption?.color = color
            caption?.contrast = paints.map { color.over($0).contrastRatio(with: $0) }.min() ?? 21
        } else {
            (caption!.color, caption!.contrast) = Caption.automaticColor(on: paints)
        }
    }

    /// The opaque colours painted under `box`, sampled on a grid across it, in the order they
    /// are drawn. Shadows are left out: outer ones show outside the frame only, and a caption
    /// under the frame starts where they have faded.
    static func colors(under box: Rect, inside: Bool, style: FrameStyle, canvas: Size, frame: Rect,
                       pageColor: RGBAColor, canvasImage: ((Point) -> RGBAColor)?) -> [RGBAColor] {
        let page = RGBAColor(red: pageColor.red, green: pageColor.green, blue: pageColor.blue)
        let canvasGradient = style.canvasGradient?.resolved(in: Rect(origin: .zero, size: canvas))
        let matGradient = inside ? style.backgroundGradient?.resolved(in: frame) : nil
        // 1 + 64 columns and 1 + 8 rows: a gradient's colour changes little between two of them.
        let columns = 64, rows = 8
        var colors: [RGBAColor] = []
        colors.reserveCapacity((columns + 1) * (rows + 1))
        for row in 0...rows {
            for column in 0...columns {
                let point = Point(x: box.minX + box.width * Double(column) / Double(columns),
                                  y: box.minY + box.height * Double(row) / Double(rows))
                var color = style.canvasColor.over(page)
                if let canvasImage { color = canvasImage(point).over(color) }
                if let canvasGradient { color = canvasGradient.color(at: point).over(color) }
                if inside {
                    color = style.background.over(color)
                    if let matGradient { color = matGradient.color(at: point).over(color) }
                }
                colors.append(color)
            }
        }
        return colors
    }
}
