/// The box model: from a picture's pixel size and a style to every rectangle that gets drawn.
///
/// Outside in: canvas ⊃ margin ⊃ shadow extent ⊃ frame (border-box) ⊃ border ⊃ padding box
/// (the mat; a window title bar across its top) ⊃ content box ⊃ picture (clipped to the content
/// box). All values in points.

/// What the layout needs to know about a picture.
public struct PictureMetrics: Sendable, Equatable, Hashable, Codable {
    /// The picture's width in pixels, upright (after its EXIF orientation).
    public var pixelWidth: Int
    /// The picture's height in pixels, upright (after its EXIF orientation).
    public var pixelHeight: Int
    /// Pixels per inch that the file claims, if any; used only with `PictureResolution.auto`.
    public var fileResolution: Double?
    /// A vector picture's own size in points (an SVG's `width` and `height`), which is its
    /// natural size whatever the style's `pictureResolution` says; nil for pixels.
    public var naturalSize: Size?

    /// A picture of `pixelWidth` by `pixelHeight` pixels, with the resolution its file claims
    /// (nil when it claims none). A size without pixels is refused by `FrameLayout`.
    public init(pixelWidth: Int, pixelHeight: Int, fileResolution: Double? = nil) {
        self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        self.fileResolution = fileResolution
    }

    /// A vector picture of `naturalSize` points; its pixels are that size in whole CSS px.
    public init(naturalSize: Size) {
        self.init(pixelWidth: Self.wholePixels(naturalSize.width), pixelHeight: Self.wholePixels(naturalSize.height))
        self.naturalSize = naturalSize
    }

    /// `points` in CSS px, rounded up; 0 for what is not a positive number.
    static func wholePixels(_ points: Double) -> Int {
        let px = (points / 0.75 - 1e-9).rounded(.up)
        return px > 0 && px < 1e15 ? Int(px) : 0
    }
}

/// One drop shadow, placed: the box that casts it and how it blurs.
public struct ShadowGeometry: Sendable, Equatable, Codable {
    /// The shadow's shape before blurring: the frame moved by the offset, grown by the spread.
    public var box: Rect
    /// The box's corner radius in points: the frame's radius (an inset shadow's: the padding
    /// box's) changed by the spread as the box is, as `cornerRadius(_:spread:)` computes it.
    public var radius: Double
    /// Standard deviation of the Gaussian blur, in points (CSS blur / 2).
    public var sigma: Double
    /// The shadow's colour; its alpha is the opacity where the shadow is densest.
    public var color: RGBAColor
    /// Whether the shadow falls inside the frame, over the picture and the mat (CSS `inset`),
    /// rather than outside the frame.
    public var inset: Bool
    /// The area the shadow visibly covers: the box grown by 3 sigma.
    public var extent: Rect { box.outset(by: 3 * sigma) }

    /// A shadow's corner radius from the box's `radius` and the `spread` that grows (or, negative,
    /// shrinks) it, as CSS Backgrounds 3 says: the spread is added, except that a radius smaller
    /// than a positive spread gets `spread · (1 + (radius/spread − 1)³)`, so sharp corners stay
    /// sharp and small radii grow smoothly; never below zero.
    public static func cornerRadius(_ radius: Double, spread: Double) -> Double {
        guard radius > 0 else { return 0 }
        guard spread > 0, radius < spread else { return max(0, radius + spread) }
        let ratio = radius / spread - 1
        return radius + spread * (1 + ratio * ratio * ratio)
    }
}

/// One length of a `FrameStyle`, named in errors by its place in the style (`border`,
/// `padding.top`, `shadows[1].blur`), so that the caller can say which setting to change.
public enum StyleField: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `size.width` or `size.height`.
    case size(Axis)
    /// `width`, the outer width alone.
    case width
    /// `height`, the outer height alone.
    case height
    /// `border`.
    case border
    /// One side of `padding`.
    case padding(Edge)
    /// `radius`.
    case radius
    /// `margin`.
    case margin
    /// `innerBorder.width`.
    case innerBorderWidth
    /// One length of the shadow at this index of `shadows` (CSS order).
    case shadow(Int, ShadowPart)
    /// `canvasSize.width` or `canvasSize.height`.
    case canvasSize(Axis)
    /// `canvasBlur`.
    case canvasBlur

    /// The two axes of a size.
    public enum Axis: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The horizontal extent.
        case width
        /// The vertical extent.
        case height
    }

    /// The four sides of a box, in CSS order.
    public enum Edge: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The top side.
        case top
        /// The right side.
        case right
        /// The bottom side.
        case bottom
        /// The left side.
        case left
    }

    /// The lengths of a `BoxShadow`.
    public enum ShadowPart: String, Sendable, Equatable, Hashable, CaseIterable {
        /// The horizontal offset (`BoxShadow.offsetX`).
        case offsetX
        /// The vertical offset (`BoxShadow.offsetY`).
        case offsetY
        /// The blur length (`BoxShadow.blur`), twice the Gaussian's sigma.
        case blur
        /// How much the shadow grows (or, negative, shrinks) before blurring (`BoxShadow.spread`).
        case spread
    }

    /// The field's path in `FrameStyle`, e.g. `padding.top`.
    public var description: String {
        switch self {
        case let .size(axis): "size.\(axis.rawValue)"
        case .width: "width"
        case .height: "height"
        case .border: "border"
        case let .padding(edge): "padding.\(edge.rawValue)"
        case .radius: "radius"
        case .margin: "margin"
        case .innerBorderWidth: "innerBorder.width"
        case let .shadow(index, part): "shadows[\(index)].\(part.rawValue)"
        case let .canvasSize(axis): "canvasSize.\(axis.rawValue)"
        case .canvasBlur: "canvasBlur"
        }
    }
}

/// Why a style cannot frame a picture.
public enum LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The picture has no pixels.
    case emptyPicture(width: Int, height: Int)
    /// A length of the style is not a finite number, or out of its range (`reason` says which).
    case invalidLength(field: StyleField, value: Double, reason: String)
    /// The frame's given width or height (`name`) is all border and padding (and, of the height,
    /// `titleBar`: the window title bar's height, 0 without one).
    case frameTooSmall(name: String, frame: Double, needed: Double, titleBar: Double = 0)
    /// A picture resolution that is not a positive finite number.
    case invalidResolution(Double)
    /// More shadows than `FrameStyle.maximumShadows`.
    case tooManyShadows(Int)
    /// The caption cannot be measured: text the text library refuses (`reason` says why).
    case caption(reason: String)
    /// The caption cannot be measured because the text library cannot be loaded (`reason` says
    /// which and why): a problem of the machine, not of the settings.
    case textUnavailable(reason: String)
    /// The frame's given height (`name`) is all border, padding and caption.
    case captionTooTall(name: String, frame: Double, needed: Double)
    /// The frame was given a size, and with its shadows and margin (`needed`) it is larger than
    /// the style's `canvasSize` (`canvas`).
    case doesNotFitCanvas(needed: Size, canvas: Size)
    /// The border, padding, title bar, shadows and margin (`needed`) leave no room for the
    /// picture in the style's `canvasSize` (`canvas`).
    case noRoomInCanvas(needed: Size, canvas: Size)

    public var description: String { message(naming: \.description) }

    /// `1200x630px`: a size in CSS pixels, as `--canvas-size` and `--size` write one.
    static func cssPixels(_ size: Size) -> String {
        "\(formatStyleNumber((size.width / 0.75 * 100).rounded() / 100))x\(formatStyleNumber((size.height / 0.75 * 100).rounded() / 100))px"
    }

    /// The description with each field named by `name` (a caller that speaks in settings of its
    /// own, such as a command line, names them its way).
    public func message(naming name: (StyleField) -> String) -> String {
        /// The setting a field belongs to: `size` of `size.width`, `--size` of `--size width`.
        func setting(_ field: StyleField) -> String {
            String(name(field).split(whereSeparator: { $0 == " " || $0 == "." }).first ?? "")
        }
        switch self {
        case let .emptyPicture(w, h):
            return "the picture has no pixels (\(w)x\(h))"
        case let .invalidLength(field, value, reason):
            return "\(name(field)) \(Length(points: value)) is invalid: \(reason)"
        case let .frameTooSmall(name, frame, needed, titleBar):
            return "the frame's \(name) (\(Length(points: frame))) leaves no room for the picture: "
                + (titleBar > 0 ? "border, padding and the title bar take " : "border and padding take ")
                + "\(Length(points: needed))"
        case let .invalidResolution(dpi):
            return "picture resolution \(dpi) dpi is invalid: it must be a positive number"
        case let .tooManyShadows(count):
            return "\(count) shadows are too many: at most \(FrameStyle.maximumShadows)"
        case let .caption(reason):
            return "the caption: \(reason)"
        case let .textUnavailable(reason):
            return "the text (caption, title or callouts) cannot be set: \(reason)"
        case let .captionTooTall(name, frame, needed):
            return "the frame's \(name) (\(Length(points: frame))) leaves no room for the picture: "
                + "border, padding and caption take \(Length(points: needed))"
        case let .doesNotFitCanvas(needed, canvas):
            return "the framed picture (\(Self.cssPixels(needed)) with its shadows and margin) does not fit the "
                + "\(setting(.canvasSize(.width))) \(Self.cssPixels(canvas)); give a smaller \(setting(.size(.width))), "
                + "or none to fit it"
        case let .noRoomInCanvas(needed, canvas):
            return "the border, padding, shadows and margin (\(Self.cssPixels(needed))) leave no room for the picture "
                + "in the \(setting(.canvasSize(.width))) \(Self.cssPixels(canvas))"
        }
    }
}

/// Every rectangle of one framed picture, in points, with the canvas's top-left at (0, 0).
public struct FrameLayout: Sendable, Equatable, Codable {
    /// The whole drawing: the frame, every outer shadow's extent and the margin, each side
    /// rounded up to whole CSS pixels. An SVG's or a PDF page's size, without a page.
    public var canvas: Size
    /// The frame's outer edge (border-box).
    public var frame: Rect
    /// The frame's outer corner radius: the style's `radius`, at most half the frame's shorter
    /// side.
    public var outerRadius: Double
    /// The border's width, drawn inside `frame`.
    public var borderWidth: Double
    /// Inside the border: the mat, filled with the background.
    public var paddingBox: Rect
    /// The border's inner corner radius: `outerRadius - borderWidth`, never below zero.
    public var innerRadius: Double
    /// Inside the padding: the box the picture is fitted to, and clipped to.
    public var contentBox: Rect
    /// Where the whole picture goes; may stick out of the content box (`cover`, `none`).
    public var picture: Rect
    /// The visible part of the picture: `picture` clipped to the content box.
    public var pictureClip: Rect
    /// In CSS order (the first is on top).
    public var shadows: [ShadowGeometry]
    /// The picture's own pixel size.
    public var picturePixels: PixelSize
    /// Width of the hairline drawn just outside `pictureClip` (0: none).
    public var innerBorderWidth: Double
    /// The window title bar (`FrameStyle.chrome`): a band across the top of the padding box, as
    /// wide as it, above the padding and the picture; nil without one.
    public var titleBar: Rect?
    /// The caption's box, when the style has a caption: in the mat under the content box (the
    /// mat's bottom grown by its gap and height), or under the frame (the canvas grown).
    public var caption: CaptionGeometry?

    /// Lays out `picture` with `style` on the canvas that the frame, its outer shadows and the
    /// margin make (`style.aspect` and `style.canvasSize` are left to `CanvasSizing`). A style
    /// with a caption needs `text` to measure it.
    init(tight picture: PictureMetrics, style: FrameStyle, text: (any TextMeasure)?) throws(LayoutError) {
        guard picture.pixelWidth > 0, picture.pixelHeight > 0 else {
            throw .emptyPicture(width: picture.pixelWidth, height: picture.pixelHeight)
        }
        try Self.validate(style)
        picturePixels = PixelSize(width: picture.pixelWidth, height: picture.pixelHeight)
        innerBorderWidth = style.innerBorder?.width.points ?? 0

        let dpi: Double
        switch style.pictureResolution {
        case .css: dpi = 96
        case .auto: dpi = picture.fileResolution.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 96
        case let .dpi(value):
            guard value > 0, value.isFinite else { throw .invalidResolution(value) }
            dpi = value
        }
        let natural = picture.naturalSize ?? Size(width: Double(picture.pixelWidth) * 72 / dpi,
                                                  height: Double(picture.pixelHeight) * 72 / dpi)

        // The caption's block, measured at the width it wraps to.
        let caption = style.caption.text.isEmpty ? nil : style.caption
        func measured(_ width: Double) throws(LayoutError) -> TextBlock {
            guard let caption else { return TextBlock(height: 0, lines: 0) }
            guard let text else { throw .caption(reason: "no text measure was given to lay it out") }
            let block = try text.measure(caption, width: max(width, 1))
            guard block.height.isFinite, block.height >= 0 else { throw .caption(reason: "its height is not a number") }
            return block
        }
        let inside = caption?.position == .inside
        let gap = caption?.gap ?? 0
        var block = TextBlock(height: 0, lines: 0)
        // Inside, the mat's bottom grows by the gap, the text's height and, where the padding
        // under it is less than the gap, the rest of the gap: the text never meets the border.
        let under = max(0, gap - style.padding.bottom.points)
        func room(_ block: TextBlock) -> Double { inside ? gap + block.height + under : 0 }
        var extra = 0.0

        // Frame (border-box) and content box.
        let b = style.border.points
        let bar = style.chrome.barHeight.points
        // What the frame holds besides the picture across and down: border, padding, title bar.
        let edgesW = 2 * b + style.padding.horizontal.points
        let edgesH = 2 * b + style.padding.vertical.points + bar
        var frameSize: Size
        if let size = style.size {
            frameSize = Size(width: size.width.points, height: size.height.points)
            if inside && frameSize.width > edgesW { block = try measured(frameSize.width - edgesW) }
        } else if let width = style.width {
            let contentW = width.points - edgesW
            guard contentW > 0 else { throw .frameTooSmall(name: "width", frame: width.points, needed: edgesW) }
            if inside { block = try measured(contentW) }
            frameSize = Size(width: width.points, height: contentW / natural.aspectRatio + edgesH + room(block))
        } else if let height = style.height {
            var contentH = height.points - edgesH
            guard contentH > 0 else {
                throw .frameTooSmall(name: "height", frame: height.points, needed: edgesH, titleBar: bar)
            }
            if inside {
                // The width follows the picture's height, which the text's height takes from:
                // measured at the widest it can be, then again at the width that leaves.
                let first = try measured(contentH * natural.aspectRatio)
                block = try measured(max(0, contentH - room(first)) * natural.aspectRatio)
                contentH -= room(block)
                guard contentH > 0 else {
                    throw .captionTooTall(name: "height", frame: height.points, needed: edgesH + room(block))
                }
            }
            frameSize = Size(width: contentH * natural.aspectRatio + edgesW, height: height.points)
        } else {
            if inside { block = try measured(natural.width) }
            frameSize = Size(width: natural.width + edgesW, height: natural.height + edgesH + room(block))
        }
        extra = room(block)
        guard frameSize.width - edgesW > 0 else {
            throw .frameTooSmall(name: "width", frame: frameSize.width, needed: edgesW)
        }
        guard frameSize.height - edgesH > 0 else {
            throw .frameTooSmall(name: "height", frame: frameSize.height, needed: edgesH, titleBar: bar)
        }
        guard frameSize.height - edgesH - extra > 0 else {
            throw .captionTooTall(name: "height", frame: frameSize.height, needed: edgesH + extra)
        }
        let frame0 = Rect(origin: .zero, size: frameSize)
        let outer = min(style.radius.points, frameSize.width / 2, frameSize.height / 2)
        outerRadius = outer
        borderWidth = b
        innerRadius = max(0, outer - b)

        // Shadows, relative to the frame at the origin.
        // Inset shadows start from the padding box and its radius, and their spread shrinks them.
        var placedShadows = style.shadows.map { shadow in
            let grow = shadow.inset ? -shadow.spread.points : shadow.spread.points
            let box = (shadow.inset ? frame0.outset(by: -b) : frame0)
                .offsetBy(dx: shadow.offsetX.points, dy: shadow.offsetY.points).outset(by: grow)
            let radius = ShadowGeometry.cornerRadius(shadow.inset ? max(0, outer - b) : outer, spread: grow)
            return ShadowGeometry(box: box, radius: radius, sigma: shadow.blur.points / 2,
                                  color: shadow.color, inset: shadow.inset)
        }

        // Under the frame, the text wraps to the frame's width and starts half an em under it, or
        // lower where a shadow shows: where the lowest outer shadow's blur ends (its box's edge
        // plus the blur radius, 2 sigma, past which CSS's Gaussian has faded to 2 %).
        var captionBox: Rect?
        if let caption, caption.position == .below {
            block = try measured(frameSize.width)
            let shadowed = placedShadows.filter { !$0.inset }.map { $0.box.maxY + 2 * $0.sigma }.max() ?? 0
            let top = max(frameSize.height + gap, shadowed)
            captionBox = Rect(x: 0, y: top, width: frameSize.width, height: block.height)
        }

        // Canvas: the frame (and a window's outer rim, a line just outside it in macOS's dark
        // appearance), every outer shadow's extent, the caption with its gap under it, each side
        // rounded up to whole CSS pixels so that the frame stays on the pixel grid, plus the margin.
        let window = style.chrome.figures?.outerRim == nil ? frame0 : frame0.outset(by: 0.75)
        let held = captionBox.map { window.union(Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height + gap)) } ?? window
        let bounds = placedShadows.filter { !$0.inset }.reduce(held) { $0.union($1.extent) }
        func wholePixels(_ points: Double) -> Double { (points / 0.75 - 1e-9).rounded(.up) * 0.75 }
        let m = style.margin.points
        let left = wholePixels(-bounds.minX) + m, top = wholePixels(-bounds.minY) + m
        let right = wholePixels(bounds.maxX - frameSize.width) + m
        let bottom = wholePixels(bounds.maxY - frameSize.height) + m
        canvas = Size(width: left + frameSize.width + right, height: top + frameSize.height + bottom)
        frame = frame0.offsetBy(dx: left, dy: top)
        for i in placedShadows.indices { placedShadows[i].box = placedShadows[i].box.offsetBy(dx: left, dy: top) }
        shadows = placedShadows

        paddingBox = frame.outset(by: -b)
        let p = style.padding
        contentBox = paddingBox.outset(top: -p.top.points - bar, right: -p.right.points,
                                       bottom: -p.bottom.points - extra, left: -p.left.points)
        titleBar = style.chrome.kind == nil ? nil
            : Rect(x: paddingBox.x, y: paddingBox.y, width: paddingBox.width, height: bar)
        if let caption {
            let box = inside ? Rect(x: contentBox.minX, y: contentBox.maxY + gap, width: contentBox.width, height: block.height)
                : (captionBox ?? Rect(x: 0, y: 0, width: 0, height: 0)).offsetBy(dx: left, dy: top)
            // The lines' span across the box, as their alignment places them.
            let width = min(block.width ?? box.width, box.width), free = box.width - width
            let share: Double
            switch caption.alignment {
            case .left: share = 0
            case .center: share = 0.5
            case .right: share = 1
            case .start: share = block.rightToLeft ? 1 : 0
            case .end: share = block.rightToLeft ? 0 : 1
            }
            let textBox = Rect(x: box.minX + free * share, y: box.minY, width: width, height: box.height)
            // Its colour is decided on the final canvas (`paintCaption`), which `set` makes.
            self.caption = CaptionGeometry(box: box, lines: block.lines, position: caption.position, textBox: textBox,
                                           color: caption.color ?? .black, contrast: 1)
        }

        // The picture inside the content box.
        let box = contentBox
        let placed: Size
        switch style.fit {
        case .fill: placed = box.size
        case .none: placed = natural
        case .contain, .cover, .scaleDown:
            let sx = box.width / natural.width, sy = box.height / natural.height
            var s = style.fit == .cover ? max(sx, sy) : min(sx, sy)
            if style.fit == .scaleDown { s = min(s, 1) }
            placed = Size(width: natural.width * s, height: natural.height * s)
        }
        self.picture = Rect(x: box.x + (box.width - placed.width) * style.position.x,
                            y: box.y + (box.height - placed.height) * style.position.y,
                            width: placed.width, height: placed.height)
        pictureClip = box.intersection(self.picture)
    }

    /// The pixel size the placed picture needs at `dpi` device pixels per inch: its placed size
    /// in pixels, rounded, at least 1, and never more than the picture has.
    public func rasterSize(atDPI dpi: Double) -> PixelSize {
        func need(_ points: Double, _ available: Int) -> Int {
            // Clamped as a Double first: a huge placed size (or dpi) must not trap in Int().
            Int(min(Double(available), max(1, (points * dpi / 72).rounded())))
        }
        return PixelSize(width: need(picture.width, picturePixels.width),
                         height: need(picture.height, picturePixels.height))
    }

    /// The layout with the frame's edges, the border and inner-border widths and the picture
    /// moved to whole device pixels, for raster output at `k` device pixels per point: straight
    /// edges then come out crisp instead of as half-tone lines. Borders keep at least one pixel.
    /// Shadows, radii and the canvas are left alone (shadows are soft; the canvas is whole already).
    public func snapped(devicePixelsPerPoint k: Double) -> FrameLayout {
        guard k > 0, k.isFinite else { return self }
        func snap(_ v: Double) -> Double { (v * k).rounded() / k }
        func snap(_ r: Rect) -> Rect {
            let x0 = snap(r.minX), y0 = snap(r.minY)
            return Rect(x: x0, y: y0, width: max(0, snap(r.maxX) - x0), height: max(0, snap(r.maxY) - y0))
        }
        func snapWidth(_ w: Double) -> Double { w > 0 ? max(1, (w * k).rounded()) / k : 0 }
        var result = self
        result.frame = snap(frame)
        result.borderWidth = snapWidth(borderWidth)
        result.paddingBox = result.frame.outset(by: -result.borderWidth)
        let insets = (top: contentBox.minY - paddingBox.minY, right: paddingBox.maxX - contentBox.maxX,
                      bottom: paddingBox.maxY - contentBox.maxY, left: contentBox.minX - paddingBox.minX)
        result.contentBox = snap(result.paddingBox.outset(top: -insets.top, right: -insets.right,
                                                          bottom: -insets.bottom, left: -insets.left))
        let dx = result.contentBox.minX - contentBox.minX, dy = result.contentBox.minY - contentBox.minY
        result.picture = snap(picture.offsetBy(dx: dx, dy: dy))
        result.pictureClip = result.contentBox.intersection(result.picture)
        result.innerRadius = max(0, outerRadius - result.borderWidth)
        result.innerBorderWidth = snapWidth(innerBorderWidth)
        if let bar = titleBar {
            let top = result.paddingBox.minY
            result.titleBar = Rect(x: result.paddingBox.minX, y: top, width: result.paddingBox.width,
                                   height: max(0, snap(top + bar.height) - top))
        }
        // The caption moves with what it hangs from: the content box, or the frame.
        if let caption {
            let moved = caption.position == .inside ? (dx, dy)
                : (result.frame.minX - frame.minX, result.frame.minY - frame.minY)
            result.caption?.box = caption.box.offsetBy(dx: moved.0, dy: moved.1)
            result.caption?.textBox = caption.textBox.offsetBy(dx: moved.0, dy: moved.1)
        }
        return result
    }

    /// Picture pixels per inch when `pixels` fill the placed picture (the lower of the two axes).
    public func effectivePPI(of pixels: PixelSize) -> Double {
        min(Double(pixels.width) / (picture.width / 72), Double(pixels.height) / (picture.height / 72))
    }

    /// Checks every length of `style` before any arithmetic uses it.
    static func validate(_ style: FrameStyle) throws(LayoutError) {
        func check(_ field: StyleField, _ length: Length?, positive: Bool = false, signed: Bool = false) throws(LayoutError) {
            guard let v = length?.points else { return }
            guard v.isFinite else { throw .invalidLength(field: field, value: v, reason: "it must be a finite number") }
            if positive && v <= 0 { throw .invalidLength(field: field, value: v, reason: "it must be greater than zero") }
            if !signed && v < 0 { throw .invalidLength(field: field, value: v, reason: "it must not be negative") }
        }
        try check(.size(.width), style.size?.width, positive: true)
        try check(.size(.height), style.size?.height, positive: true)
        try check(.width, style.width, positive: true)
        try check(.height, style.height, positive: true)
        try check(.border, style.border)
        try check(.padding(.top), style.padding.top)
        try check(.padding(.right), style.padding.right)
        try check(.padding(.bottom), style.padding.bottom)
        try check(.padding(.left), style.padding.left)
        try check(.radius, style.radius)
        try check(.margin, style.margin)
        try check(.innerBorderWidth, style.innerBorder?.width)
        try check(.canvasSize(.width), style.canvasSize?.width, positive: true)
        try check(.canvasSize(.height), style.canvasSize?.height, positive: true)
        try check(.canvasBlur, style.canvasBlur)
        guard style.shadows.count <= FrameStyle.maximumShadows else { throw .tooManyShadows(style.shadows.count) }
        for (index, shadow) in style.shadows.enumerated() {
            try check(.shadow(index, .blur), shadow.blur)
            try check(.shadow(index, .offsetX), shadow.offsetX, signed: true)
            try check(.shadow(index, .offsetY), shadow.offsetY, signed: true)
            try check(.shadow(index, .spread), shadow.spread, signed: true)
        }
    }
}
