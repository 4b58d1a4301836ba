/// A rectangle of whole pixels in a picture, top-left origin.
package struct PixelBox: Sendable, Equatable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

extension RasterImage {
    /// The box left when the uniform edges are removed, as ImageMagick's `-trim -fuzz`: rows and
    /// columns are taken off each side while every pixel in them is within `tolerance` of the
    /// top-left corner's colour. `tolerance` is a fraction of the largest colour distance, as
    /// `-fuzz 10%` is 0.1: two pixels match when
    /// `Δalpha² + alpha₁·alpha₂·(Δred² + Δgreen² + Δblue²) <= tolerance²`, all in 0...1, so that
    /// two transparent pixels match whatever their colours. Nil when every pixel matches (nothing
    /// would be left) or nothing is removed. Reads only the edges it removes and one row or
    /// column more on each side.
    package func trimBox(tolerance: Double) -> PixelBox? {
        guard width > 0, height > 0 else { return nil }
        let p = pixels
        let r0 = Int(p[0]), g0 = Int(p[1]), b0 = Int(p[2]), a0 = Int(p[3])
        // In 8-bit units scaled by 255² so that everything stays integer.
        let fuzz = tolerance <= 0 ? 0 : Int((tolerance * tolerance * 255 * 255 * 255 * 255).rounded(.down))
        func matches(_ i: Int) -> Bool {
            let a = Int(p[i + 3])
            let da = a - a0, dr = Int(p[i]) - r0, dg = Int(p[i + 1]) - g0, db = Int(p[i + 2]) - b0
            return da * da * 255 * 255 + a * a0 * (dr * dr + dg * dg + db * db) <= fuzz
        }
        func rowMatches(_ y: Int, _ x0: Int, _ x1: Int) -> Bool {
            var i = (y * width + x0) * 4
            for _ in x0..<x1 { if !matches(i) { return false }; i += 4 }
            return true
        }
        func columnMatches(_ x: Int, _ y0: Int, _ y1: Int) -> Bool {
            var i = (y0 * width + x) * 4
            for _ in y0..<y1 { if !matches(i) { return false }; i += width * 4 }
            return true
        }
        var top = 0
        while top < height && rowMatches(top, 0, width) { top += 1 }
        if top == height { return nil }
        var bottom = height
        while bottom > top && rowMatches(bottom - 1, 0, width) { bottom -= 1 }
        var left = 0
        while left < width && columnMatches(left, top, bottom) { left += 1 }
        var right = width
        while right > left && columnMatches(right - 1, top, bottom) { right -= 1 }
        let box = PixelBox(x: left, y: top, width: right - left, height: bottom - top)
        return box == PixelBox(x: 0, y: 0, width: width, height: height) ? nil : box
    }

    /// The pixels inside `box`, which must lie inside the picture.
    package func cropped(to box: PixelBox) -> RasterImage {
        precondition(box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0
                     && box.x + box.width <= width && box.y + box.height <= height, "crop box outside the picture")
        var out = [UInt8](repeating: 0, count: box.width * box.height * 4)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for row in 0..<box.height {
                    let from = ((box.y + row) * width + box.x) * 4
                    let to = row * box.width * 4
                    for k in 0..<(box.width * 4) { target[to + k] = source[from + k] }
                }
            }
        }
        return RasterImage(width: box.width, height: box.height, pixels: out, hasAlpha: hasAlpha, resolution: resolution)
    }
}
