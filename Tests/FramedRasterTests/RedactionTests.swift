import FramedTestSupport
import Testing
@testable import FramedRaster

/// Redaction on a picture's pixels: the region, and nothing else, replaced.
struct RedactionTests {
    /// 97x61 pixels of noise: every pixel differs from its neighbours.
    static let noise = Support.busyPicture(width: 97, height: 61, alpha: false)

    static func pixel(_ image: RasterImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    @Test func blocksStartAtTheRegionAndTheLastJoinsTheOneBefore() {
        #expect(RasterImage.blockEdges(from: 10, to: 50, size: 16) == [10, 26, 50], "40 pixels: 16, then 24")
        #expect(RasterImage.blockEdges(from: 0, to: 48, size: 16) == [0, 16, 32, 48])
        #expect(RasterImage.blockEdges(from: 5, to: 12, size: 16) == [5, 12], "smaller than a block: one block")
        // A fractional block (a picture decoded at 1/8: 12 pixels are 1.5) rounds its edges.
        #expect(RasterImage.blockEdges(from: 0, to: 6, size: 1.5) == [0, 2, 3, 5, 6])
    }

    @Test func pixelateMakesUniformBlocksOfTheirMeanAndLeavesTheRestAlone() {
        let box = PixelBox(x: 10, y: 5, width: 40, height: 30)
        let out = Self.noise.redacted([Redaction(box: box, method: .pixelate(width: 16, height: 16))])
        // Blocks: x 10-26, 26-50 (the last 8 join the block before); y 5-35 (30 rows are one
        // block and 14 rows, which join).
        for (x0, x1) in [(10, 26), (26, 50)] {
            for (y0, y1) in [(5, 35)] {
                var sum = [0, 0, 0], n = 0
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        #expect(Self.pixel(out, x, y) == Self.pixel(out, x0, y0), "block \(x0),\(y0) is one colour")
                        let p = Self.pixel(Self.noise, x, y)
                        for c in 0..<3 { sum[c] += Int(p[c]) }
                        n += 1
                    }
                }
                let mean = sum.map { UInt8(($0 + n / 2) / n) }
                #expect(Array(Self.pixel(out, x0, y0).prefix(3)) == mean, "the block's mean")
            }
        }
        for y in 0..<Self.noise.height {
            for x in 0..<Self.noise.width where !(10..<50).contains(x) || !(5..<35).contains(y) {
                #expect(Self.pixel(out, x, y) == Self.pixel(Self.noise, x, y))
            }
        }
    }

    @Test func solidAndBlurStayInTheirRegion() {
        let solid = Self.noise.redacted([Redaction(box: PixelBox(x: 90, y: 50, width: 20, height: 20), method: .solid(r: 1, g: 2, b: 3))])
        #expect(Self.pixel(solid, 96, 60) == [1, 2, 3, 255] && Self.pixel(solid, 90, 50) == [1, 2, 3, 255])
        #expect(Self.pixel(solid, 89, 60) == Self.pixel(Self.noise, 89, 60), "clipped to the picture, the rest left")
        let box = PixelBox(x: 20, y: 20, width: 30, height: 20)
        let blurred = Self.noise.redacted([Redaction(box: box, method: .blur(sigma: 4))])
        // The region alone, blurred as if it were the whole picture (its edges continued).
        let alone = Self.noise.cropped(to: box).blurred(sigma: 4)
        for y in 0..<Self.noise.height {
            for x in 0..<Self.noise.width {
                let inside = (20..<50).contains(x) && (20..<40).contains(y)
                #expect(Self.pixel(blurred, x, y) == (inside ? Self.pixel(alone, x - 20, y - 20) : Self.pixel(Self.noise, x, y)))
            }
        }
    }
}
