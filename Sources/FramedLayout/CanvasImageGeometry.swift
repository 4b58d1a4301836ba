/// Where a canvas image's pixels go (`FrameStyle.canvasImage`): scaled to cover the canvas as
/// CSS `background-size: cover` with `background-position: center` does (the smallest scale
/// at which it covers the area, its shape kept, centred, what sticks out cut off), at the
/// resolution its blur leaves worth keeping.
public enum CanvasImageGeometry {
    /// A blurred image is held at most this many pixels to its blur's standard deviation:
    /// finer pixels would only hold what the blur smooths away (a Gaussian of 8 pixels is
    /// smooth to a fraction of a level when drawn larger), and an SVG or PDF would carry them.
    public static let pixelsPerSigma = 8.0

    /// The canvas image's pixels per point for an output of `output` device pixels per point
    /// and a blur of standard deviation `blur` points: the output's, or fewer for a blur wider
    /// than `pixelsPerSigma` of its pixels.
    public static func pixelsPerPoint(output: Double, blur: Double) -> Double {
        blur > 0 && blur.isFinite ? min(output, pixelsPerSigma / blur) : output
    }

    /// The pixels of an area of `size` points at `pixelsPerPoint`: each side rounded up, at
    /// least one.
    public static func pixels(of size: Size, pixelsPerPoint k: Double) -> PixelSize {
        func side(_ points: Double) -> Int { Int(min(1e6, max(1, (points * k - 1e-6).rounded(.up)))) }
        return PixelSize(width: side(size.width), height: side(size.height))
    }

    /// An image of `image` pixels made to cover an area of `area` pixels: the size to scale it
    /// to (each side at least the area's, the image's shape kept to the nearest pixel), and the
    /// offset of the centred area within it.
    public static func cover(image: PixelSize, area: PixelSize) -> (scaled: PixelSize, x: Int, y: Int) {
        let s = max(Double(area.width) / Double(image.width), Double(area.height) / Double(image.height))
        let w = max(area.width, Int((Double(image.width) * s).rounded()))
        let h = max(area.height, Int((Double(image.height) * s).rounded()))
        return (PixelSize(width: w, height: h), (w - area.width) / 2, (h - area.height) / 2)
    }
}
