import Foundation
import FramedRaster
import Testing

/// The canvas image's blur against a Gaussian worked out here (the normal CDF of a step, by
/// `erf`), the box sizes against SVG 1.1's formula, and the edge samples of `--canvas-color auto`.
struct BlurTests {
    /// `width` x `height`, each pixel `pixel(x, y)`.
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    @Test func boxesAreSVGsThreeBoxApproximation() {
        // d = floor(sigma * 3 * sqrt(2 pi) / 4 + 0.5): 10 gives 19 (odd: three centred boxes), 2
        // gives 4 (even: two of 4 either side of the pixel, one of 5 centred).
        #expect(RasterImage.boxes(sigma: 10).map { [$0.size, $0.offset] } == [[19, -9], [19, -9], [19, -9]])
        #expect(RasterImage.boxes(sigma: 2).map { [$0.size, $0.offset] } == [[4, -2], [4, -1], [5, -2]])
        #expect(RasterImage.boxes(sigma: 0.4).isEmpty && RasterImage.boxes(sigma: 0).isEmpty)
    }

    @Test func aStepBlursToTheGaussiansCDFAndEdgesKeepTheirColour() {
        let step = Self.image(200, 8) { x, _ in x < 100 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        for sigma in [10.0, 3.0] {
            let blurred = step.blurred(sigma: sigma)
            var worst = 0.0, total = 0.0
            for x in 0..<200 {
                let expected = 255 * 0.5 * (1 + erf((Double(x) + 0.5 - 100) / (sigma * 2.0.squareRoot())))
                let p = blurred.pixel(x: x, y: 4)
                #expect(p.r == p.g && p.g == p.b && p.a == 255)
                worst = max(worst, abs(Double(p.r) - expected))
                total += abs(Double(p.r) - expected)
            }
            // Three boxes are within a few levels of the Gaussian (measured: 2.5 at most and 0.4
            // on average at sigma 10; 5.4 and 0.2 at sigma 3, where the boxes are short).
            #expect(worst <= 6 && total / 200 <= 1.5, "sigma \(sigma): worst \(worst), mean \(total / 200)")
            // Far from the step, the edges keep their own colour: nothing fades in from outside.
            #expect(blurred.pixel(x: 0, y: 0).r == 0 && blurred.pixel(x: 199, y: 7).r == 255)
        }
    }

    @Test func transparencyBlursWithoutDarkeningTheColour() {
        let half = Self.image(60, 4) { x, _ in x < 30 ? [0, 0, 0, 0] : [230, 40, 10, 255] }
        let blurred = half.blurred(sigma: 4)
        for x in 20..<40 {
            let p = blurred.pixel(x: x, y: 2)
            #expect(p.a > 0 && p.a < 255)
            #expect(abs(Int(p.r) - 230) <= 1 && abs(Int(p.g) - 40) <= 1 && abs(Int(p.b) - 10) <= 1, "x \(x): \(p)")
        }
    }

    @Test func edgeSamplesAreTheBandRoundThePicture() {
        // 100 x 100: a band of 3 px (3 % of the side) in red, blue inside.
        let banded = Self.image(100, 100) { x, y in min(x, y, 99 - x, 99 - y) < 3 ? [200, 0, 0, 255] : [0, 0, 200, 255] }
        let samples = banded.edgeSamples()
        #expect(samples.count == 3 * (100 * 100 - 94 * 94))
        #expect(stride(from: 0, to: samples.count, by: 3).allSatisfy { samples[$0] == 200 && samples[$0 + 2] == 0 })
        // A transparent band (a window shot's shadow): the opaque inside stands in.
        let clear = Self.image(100, 100) { x, y in min(x, y, 99 - x, 99 - y) < 3 ? [0, 0, 0, 0] : [0, 180, 0, 255] }
        let inside = clear.edgeSamples()
        #expect(!inside.isEmpty && stride(from: 0, to: inside.count, by: 3).allSatisfy { inside[$0 + 1] == 180 })
        // A large picture is sampled, not read whole.
        let big = Self.image(1000, 1000) { _, _ in [1, 2, 3, 255] }
        #expect(big.edgeSamples(limit: 5000).count / 3 <= 5000)
    }
}
