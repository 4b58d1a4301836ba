import FramedRaster
import Testing

/// `RasterImage.trimBox` at the edges of its tolerance, worked out from ImageMagick's fuzz
/// distance: `Δalpha² + alpha₁·alpha₂·(Δred² + Δgreen² + Δblue²)`, channels in 0...1.
@Suite struct TrimmingTests {
    /// 7 x 5 of `margin`, with `inner` at (2, 1) to (5, 4) exclusive, and `edge` at (0, 2) when given.
    static func image(margin: [UInt8], inner: [UInt8], edge: [UInt8]? = nil) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<5 {
            for x in 0..<7 {
                if x == 0 && y == 2, let edge { pixels += edge } else {
                    pixels += (2..<5).contains(x) && (1..<4).contains(y) ? inner : margin
                }
            }
        }
        return RasterImage(width: 7, height: 5, pixels: pixels)
    }

    @Test func theToleranceIsTheFuzzDistance() {
        let inner = PixelBox(x: 2, y: 1, width: 3, height: 3)
        let withEdge = PixelBox(x: 0, y: 1, width: 5, height: 3)
        // 25 levels on one channel is 9.8%, inside 10%; 26 is 10.2%, outside.
        let near = Self.image(margin: [200, 200, 200, 255], inner: [0, 0, 0, 255], edge: [225, 200, 200, 255])
        #expect(near.trimBox(tolerance: 0.10) == inner)
        #expect(near.trimBox(tolerance: 0.09) == withEdge)
        #expect(near.trimBox(tolerance: 0) == withEdge)
        let far = Self.image(margin: [200, 200, 200, 255], inner: [0, 0, 0, 255], edge: [226, 200, 200, 255])
        #expect(far.trimBox(tolerance: 0.10) == withEdge)
        // 15 levels on all three channels: 15·√3 / 255 = 10.2%, outside 10% though each is 5.9%.
        let grey = Self.image(margin: [200, 200, 200, 255], inner: [0, 0, 0, 255], edge: [215, 215, 215, 255])
        #expect(grey.trimBox(tolerance: 0.10) == withEdge && grey.trimBox(tolerance: 0.11) == inner)
    }

    @Test func transparentPixelsMatchWhateverTheirColour() {
        let inner = PixelBox(x: 2, y: 1, width: 3, height: 3)
        let clear = Self.image(margin: [10, 20, 30, 0], inner: [0, 0, 255, 255], edge: [250, 0, 0, 0])
        #expect(clear.trimBox(tolerance: 0) == inner)
        // Half-transparent against transparent: Δalpha = 128/255 = 50.2%.
        let half = Self.image(margin: [0, 0, 0, 0], inner: [0, 0, 255, 255], edge: [0, 0, 0, 128])
        #expect(half.trimBox(tolerance: 0.50) == PixelBox(x: 0, y: 1, width: 5, height: 3))
        #expect(half.trimBox(tolerance: 0.51) == inner)
    }

    @Test func nothingToTrimOrNothingLeft() {
        let uniform = Self.image(margin: [9, 9, 9, 255], inner: [9, 9, 9, 255])
        #expect(uniform.trimBox(tolerance: 0) == nil, "all margin: nothing is trimmed")
        let full = Self.image(margin: [9, 9, 9, 255], inner: [0, 0, 0, 255], edge: [0, 0, 0, 255])
        #expect(full.trimBox(tolerance: 0) == PixelBox(x: 0, y: 1, width: 5, height: 3))
        let cropped = full.cropped(to: PixelBox(x: 2, y: 1, width: 3, height: 3))
        #expect(cropped.width == 3 && cropped.height == 3 && cropped.pixel(x: 0, y: 0) == (0, 0, 0, 255))
        #expect(cropped.trimBox(tolerance: 0) == nil, "a uniform crop")
    }
}
