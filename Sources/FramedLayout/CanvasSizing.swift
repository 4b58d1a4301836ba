/// The canvas around a framed picture, and around the frames of a set.
///
/// A frame's own canvas holds the frame, its outer shadows and the margin, each side in whole
/// CSS pixels (`FrameLayout.init(tight:style:text:)`). A set of looks (`--variant light,dark`)
/// shares one canvas: the union of its members' canvases with their frames centred on one
/// point, so that the files have one size and the frame sits at the same place in each, and a
/// page that swaps them never jumps. Then the canvas is sized: grown to `FrameStyle.aspect`, or
/// made exactly `FrameStyle.canvasSize` with the frames fitted inside (a frame without a given
/// size made smaller, as on a page) and centred. The frames always move by whole CSS pixels, so
/// that they stay on the pixel grid.

/// One member's layout in a set, with the style it was laid out with.
public struct FittedLayout: Sendable, Equatable {
    /// The style as used: fitting a `canvasSize` may have set its `width` or `height`.
    public var style: FrameStyle
    /// The rectangles, on the canvas the whole set shares.
    public var layout: FrameLayout
}

extension FrameLayout {
    /// Lays out `picture` with `style`. A style with a caption needs `text` to measure it, and
    /// its automatic colour reads on `pageColor` where nothing opaque lies under it: the page the
    /// figure is shown on (white unless a dark look says otherwise).
    public init(picture: PictureMetrics, style: FrameStyle, text: (any TextMeasure)? = nil,
                pageColor: RGBAColor = .white) throws(LayoutError) {
        self = try Self.set(picture: picture, styles: [style], text: text, pageColor: pageColor)[0].layout
    }

    /// Lays out `picture` once for each of `styles` (a set's looks), in their order, on one
    /// canvas: the union of the frames' own canvases, each frame centred on the same point
    /// (moved by whole CSS pixels), then sized as the first style's `aspect` or `canvasSize`
    /// says. With a `canvasSize`, a frame without a given size that does not fit is made
    /// smaller (its border, padding, shadows and margin keep their lengths); one with a given
    /// size is an error (`doesNotFitCanvas`). Last, each caption's colour is decided on the
    /// canvas as made, on `pageColor` where it is transparent (`paintCaption`).
    public static func set(picture: PictureMetrics, styles: [FrameStyle], text: (any TextMeasure)? = nil,
                           pageColor: RGBAColor = .white) throws(LayoutError) -> [FittedLayout] {
        guard let sizing = styles.first else { return [] }
        var styles = styles
        var layouts: [FrameLayout] = []
        for style in styles { layouts.append(try FrameLayout(tight: picture, style: style, text: text)) }
        var shared = Self.sharedCanvas(layouts)
        if let size = sizing.canvasSize {
            let target = Size(width: size.width.points, height: size.height.points)
            if !Self.fits(shared, in: target) {
                let canvas = shared[0].canvas
                guard styles.allSatisfy({ $0.size == nil && $0.width == nil && $0.height == nil }) else {
                    throw .doesNotFitCanvas(needed: canvas, canvas: target)
                }
                // What surrounds each frame on the shared canvas keeps its size whatever the
                // frame's: the frame gets the rest, across first, then down if still too tall.
                for axis in StyleField.Axis.allCases {
                    let canvas = shared[0].canvas
                    guard axis == .width ? canvas.width > target.width + 1e-6 : canvas.height > target.height + 1e-6 else {
                        continue
                    }
                    for i in styles.indices {
                        let l = shared[i]
                        let around = axis == .width ? l.canvas.width - l.frame.width : l.canvas.height - l.frame.height
                        let edges = axis == .width ? l.frame.width - l.contentBox.width : l.frame.height - l.contentBox.height
                        let room = (axis == .width ? target.width : target.height) - around
                        guard room > edges else {
                            throw .noRoomInCanvas(needed: Size(width: l.canvas.width - l.contentBox.width,
                                                               height: l.canvas.height - l.contentBox.height),
                                                  canvas: target)
                        }
                        if axis == .width { styles[i].width = Length(points: room) } else {
                            styles[i].width = nil
                            styles[i].height = Length(points: room)
                        }
                    }
                    layouts = []
                    for style in styles { layouts.append(try FrameLayout(tight: picture, style: style, text: text)) }
                    shared = Self.sharedCanvas(layouts)
                }
                // A caption under the frame wraps again at the new width; whatever still sticks out
                // is no room at all.
                guard Self.fits(shared, in: target) else {
                    throw .noRoomInCanvas(needed: shared[0].canvas, canvas: target)
                }
            }
            shared = shared.map { $0.centred(in: target) }
        } else if let aspect = sizing.aspect {
            shared = shared.map { $0.grown(to: aspect.value) }
        }
        for i in shared.indices { shared[i].paintCaption(style: styles[i], pageColor: pageColor) }
        return zip(styles, shared).map { FittedLayout(style: $0, layout: $1) }
    }

    /// Whether the (shared) canvas is no larger than `target`.
    static func fits(_ layouts: [FrameLayout], in target: Size) -> Bool {
        let canvas = layouts[0].canvas
        return canvas.width <= target.width + 1e-6 && canvas.height <= target.height + 1e-6
    }

    /// The layouts on one canvas: each moved so that its frame's centre is where the farthest
    /// one's is (by whole CSS pixels, rounded down), the canvas as wide and tall as the largest
    /// moved one. Frames of one size (the usual set) then line up exactly.
    static func sharedCanvas(_ layouts: [FrameLayout]) -> [FrameLayout] {
        guard layouts.count > 1 else { return layouts }
        let cx = layouts.map(\.frame.midX).max()!, cy = layouts.map(\.frame.midY).max()!
        var moved = layouts.map { l in l.moved(dx: wholePixelsDown(cx - l.frame.midX), dy: wholePixelsDown(cy - l.frame.midY)) }
        let size = Size(width: moved.map(\.canvas.width).max()!, height: moved.map(\.canvas.height).max()!)
        for i in moved.indices { moved[i].canvas = size }
        return moved
    }

    /// The canvas made exactly `target` (which holds it), the frame with its shadows and margin
    /// centred in it, moved by whole CSS pixels.
    func centred(in target: Size) -> FrameLayout {
        var result = moved(dx: Self.wholePixelsDown((target.width - canvas.width) / 2),
                           dy: Self.wholePixelsDown((target.height - canvas.height) / 2))
        result.canvas = target
        return result
    }

    /// The canvas grown the short way to `ratio` (width over height), to whole CSS pixels, the
    /// frame with its shadows and margin as near the middle as whole pixels allow.
    func grown(to ratio: Double) -> FrameLayout {
        guard ratio > 0, ratio.isFinite else { return self }
        var size = canvas
        if canvas.width / canvas.height < ratio {
            size.width = max(canvas.width, Self.wholePixelsNearest(canvas.height * ratio))
        } else if canvas.width / canvas.height > ratio {
            size.height = max(canvas.height, Self.wholePixelsNearest(canvas.width / ratio))
        }
        return centred(in: size)
    }

    /// Every rectangle moved by `dx`, `dy` points; the canvas grown by as much, so that what was
    /// on it stays on it.
    func moved(dx: Double, dy: Double) -> FrameLayout {
        guard dx != 0 || dy != 0 else { return self }
        var result = self
        result.canvas = Size(width: canvas.width + dx, height: canvas.height + dy)
        result.frame = frame.offsetBy(dx: dx, dy: dy)
        result.paddingBox = paddingBox.offsetBy(dx: dx, dy: dy)
        result.contentBox = contentBox.offsetBy(dx: dx, dy: dy)
        result.picture = picture.offsetBy(dx: dx, dy: dy)
        result.pictureClip = pictureClip.offsetBy(dx: dx, dy: dy)
        result.titleBar = titleBar?.offsetBy(dx: dx, dy: dy)
        if let caption {
            result.caption?.box = caption.box.offsetBy(dx: dx, dy: dy)
            result.caption?.textBox = caption.textBox.offsetBy(dx: dx, dy: dy)
        }
        for i in shadows.indices { result.shadows[i].box = shadows[i].box.offsetBy(dx: dx, dy: dy) }
        return result
    }

    /// `points` rounded down to whole CSS pixels (0.75 pt each), never below zero.
    static func wholePixelsDown(_ points: Double) -> Double { max(0, (points / 0.75 + 1e-9).rounded(.down) * 0.75) }

    /// `points` rounded to the nearest whole CSS pixels.
    static func wholePixelsNearest(_ points: Double) -> Double { (points / 0.75).rounded() * 0.75 }

    /// Whether the picture covers the whole mat: the padding box below any title bar lies
    /// inside the picture's visible part, so that the background shows nowhere (but through
    /// the picture's transparent pixels, if it has any).
    public var matCovered: Bool {
        let top = titleBar?.maxY ?? paddingBox.minY
        let mat = Rect(x: paddingBox.minX, y: top, width: paddingBox.width, height: max(0, paddingBox.maxY - top))
        return mat.width > 0 && mat.height > 0 && pictureClip.contains(mat, tolerance: 0.01)
    }
}
