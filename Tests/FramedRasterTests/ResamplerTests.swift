import Testing
import Foundation
import FramedTestSupport
@testable import FramedRaster

/// Test pictures for resampling, and exact references computed in Double.
enum ResampleFixture {
    /// Made once for all the tests that use them.
    static let largePhoto = photo(1200, 800)
    static let largeZonePlate = zonePlate(1024)

    /// A photo-like opaque picture: smooth gradients, a sine wash, hard-edged blocks and a
    /// disc (edges at all angles), fine stripes, and seeded noise.
    static func photo(_ width: Int, _ height: Int) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt32 = 2024
        let cx = Double(width) * 0.62, cy = Double(height) * 0.45, radius = Double(min(width, height)) * 0.22
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Double(Int(state >> 24)) / 255 - 0.5
                let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                var r = 40 + 170 * fx, g = 30 + 190 * fy, b = 128 + 90 * sin(9 * fx + 5 * fy)
                if (x / 83 + y / 59) % 3 == 0 { (r, g, b) = (245 - 0.6 * r, 0.5 * g, 255 - b) }
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                if dx * dx + dy * dy < radius * radius { (r, g, b) = (230, 200 - 80 * fy, 60) }
                if y > height * 3 / 4, x < width / 3, (x / 3) % 2 == 0 { (r, g, b) = (20, 20, 20) }
                r += 24 * noise; g += 24 * noise; b += 24 * noise
                let i = (y * width + x) * 4
                pixels[i] = clampByte(r); pixels[i + 1] = clampByte(g); pixels[i + 2] = clampByte(b)
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    /// A zone plate cos(pi r^2 / size), gray: its local frequency grows linearly from the
    /// centre and reaches the Nyquist limit (1/2 cycle a pixel) at the middle of each edge.
    static func zonePlate(_ size: Int) -> RasterImage {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        let c = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - c, dy = Double(y) + 0.5 - c
                let v = clampByte(127.5 + 127.5 * cos(Double.pi * (dx * dx + dy * dy) / Double(size)))
                let i = (y * size + x) * 4
                pixels[i] = v; pixels[i + 1] = v; pixels[i + 2] = v
            }
        }
        return RasterImage(width: size, height: size, pixels: pixels, hasAlpha: false)
    }

    static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> RasterImage {
        RasterImage(width: width, height: height,
                    pixels: Array((0..<width * height).map { _ in rgba }.joined()))
    }

    static func clampByte(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 255).rounded()) }

    /// The exact area average (box filter with fractional overlaps) of the RGB channels of an
    /// opaque picture, in Double: what a sensor with fewer, larger pixels would record from the
    /// same scene. Independent of the resampler's own code.
    static func areaAverage(_ image: RasterImage, _ width: Int, _ height: Int) -> [Double] {
        func weights(_ n: Int, _ m: Int) -> [[(Int, Double)]] {
            let s = Double(n) / Double(m)
            return (0..<m).map { i in
                let a = Double(i) * s, b = Double(i + 1) * s
                return (Int(a)..<min(n, Int(b.rounded(.up)))).map { j in
                    (j, (min(b, Double(j + 1)) - max(a, Double(j))) / s)
                }
            }
        }
        let wx = weights(image.width, width), wy = weights(image.height, height)
        var rows = [Double](repeating: 0, count: image.height * width * 3)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<image.height {
                for x in 0..<width {
                    for (j, w) in wx[x] {
                        for c in 0..<3 { rows[(y * width + x) * 3 + c] += w * Double(p[(y * image.width + j) * 4 + c]) }
                    }
                }
            }
        }
        var out = [Double](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for (j, w) in wy[y] {
                for i in 0..<width * 3 { out[y * width * 3 + i] += w * rows[j * width * 3 + i] }
            }
        }
        return out
    }

    /// Point sampling (nearest source pixel to each output pixel's centre, no filtering):
    /// what a resampler that ignores the reduction factor sees.
    static func pointSampled(_ image: RasterImage, _ width: Int, _ height: Int) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            let sy = Int((Double(y) + 0.5) * Double(image.height) / Double(height))
            for x in 0..<width {
                let sx = Int((Double(x) + 0.5) * Double(image.width) / Double(width))
                let i = (sy * image.width + sx) * 4
                pixels += image.pixels[i..<i + 4]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// RGB of an image as Doubles (alpha dropped).
    static func rgb(_ image: RasterImage) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(image.width * image.height * 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            out += [Double(image.pixels[i]), Double(image.pixels[i + 1]), Double(image.pixels[i + 2])]
        }
        return out
    }

    static func rmse(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count)
        var sum = 0.0
        for i in a.indices { sum += (a[i] - b[i]) * (a[i] - b[i]) }
        return (sum / Double(a.count)).squareRoot()
    }

    /// PSNR in dB for 8-bit samples.
    static func psnr(_ a: [Double], _ b: [Double]) -> Double {
        let e = rmse(a, b)
        return e == 0 ? .infinity : 20 * log10(255 / e)
    }
}

/// ImageMagick 6 as the judge. Always by full path: /usr/local/bin/convert is not ImageMagick.
enum ResampleMagick {
    static let convert = "/usr/bin/convert"

    /// `convert in.png -filter Lanczos -resize WxH! PNG32:out.png`, decoded.
    static func lanczos(_ image: RasterImage, _ width: Int, _ height: Int) throws -> RasterImage {
        let dir = try TemporaryFolder.make("resampler")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png"), output = dir.appendingPathComponent("out.png")
        try Data(PictureEncoder.png(image)).write(to: input)
        let result = try Tool.run(convert, [input.path, "-filter", "Lanczos", "-resize", "\(width)x\(height)!", "PNG32:" + output.path])
        #expect(result.status == 0, "\(result.stderr)")
        return try Pictures.decode(data: Array(Data(contentsOf: output))).image
    }
}

@Suite struct ResamplerTests {
    // MARK: (a) quality against ImageMagick

    /// The reference is the exact area average of the source (computed in Double): the picture
    /// a sensor with the output's pixel size would have recorded. Neither Lanczos result equals
    /// it (Lanczos is sharper than a box), but both are measured against the same truth, so
    /// "ours within 1 dB of ImageMagick's PSNR" compares the quality of the two resamplers.
    /// On the zone plate the area average is a weak truth (a box lets part of the frequencies
    /// above the new Nyquist limit through, which Lanczos removes), so both figures are low
    /// there; the comparison stays like for like. On top of that, ours and ImageMagick's must
    /// agree with each other to >= 40 dB, which shows they are the same filter (edge handling,
    /// ImageMagick's 16-bit intermediate and rounding aside): that is the strong check.
    @Test(arguments: [("photo", 2.0), ("photo", 3.3), ("photo", 7.0), ("zone plate", 2.0), ("zone plate", 5.0)])
    func lanczosMatchesImageMagick(picture: String, factor: Double) throws {
        let source = picture == "photo" ? ResampleFixture.largePhoto : ResampleFixture.largeZonePlate
        let width = Int((Double(source.width) / factor).rounded()), height = Int((Double(source.height) / factor).rounded())
        let reference = ResampleFixture.areaAverage(source, width, height)
        let ours = Resampler.resize(source, width: width, height: height, filter: .best)
        let magick = try ResampleMagick.lanczos(source, width, height)
        #expect(ours.width == width && ours.height == height && magick.width == width && magick.height == height)

        let oursDB = ResampleFixture.psnr(ResampleFixture.rgb(ours), reference)
        let magickDB = ResampleFixture.psnr(ResampleFixture.rgb(magick), reference)
        let agreementDB = ResampleFixture.psnr(ResampleFixture.rgb(ours), ResampleFixture.rgb(magick))
        print(String(format: "%@ %dx%d / %.1f -> %dx%d: PSNR vs area average: ours %.2f dB, ImageMagick %.2f dB; ours vs ImageMagick %.2f dB",
                     picture, source.width, source.height, factor, width, height, oursDB, magickDB, agreementDB))
        #expect(oursDB >= magickDB - 1)
        #expect(agreementDB >= 40)
    }

    // MARK: (b) no aliasing past 16x

    @Test func shrinkingFortyTimesDoesNotAlias() {
        let source = ResampleFixture.largeZonePlate
        let size = 26  // 1024 / 40, rounded
        let reference = ResampleFixture.areaAverage(source, size, size)
        let naive = ResampleFixture.rmse(ResampleFixture.rgb(ResampleFixture.pointSampled(source, size, size)), reference)
        for filter in ResamplingFilter.allCases {
            let ours = Resampler.resize(source, width: size, height: size, filter: filter)
            let error = ResampleFixture.rmse(ResampleFixture.rgb(ours), reference)
            print(String(format: "zone plate 1024 -> 26 (40x) %@: RMS error vs area average %.2f levels (point sampling: %.2f)",
                         filter.rawValue, error, naive))
            #expect(error < 4, "\(filter) aliases at 40x")
            #expect(naive > 10 * error, "point sampling should be far worse than \(filter)")
        }
        // Lanczos whose kernel stops widening at 16x (as Cairo's filters do) lets the
        // frequencies between the output's Nyquist limit and 16x's through: they alias.
        let ours = Resampler.resize(source, width: size, height: size, filter: .best)
        let cappedResult = lanczosCapped(source, size, size, atWidening: 16)
        let capped = ResampleFixture.rmse(ResampleFixture.rgb(cappedResult), reference)
        #expect(capped > 3 * ResampleFixture.rmse(ResampleFixture.rgb(ours), reference))

        // The part of the zone plate above the output's Nyquist limit must come out flat gray:
        // outside the central disc, no output pixel strays far from the mean.
        func residual(_ image: RasterImage) -> Int {
            var worst = 0
            for y in 0..<size {
                for x in 0..<size {
                    let dx = Double(x) + 0.5 - 13, dy = Double(y) + 0.5 - 13
                    if dx * dx + dy * dy > 4 { worst = max(worst, abs(Int(image.pixel(x: x, y: y).r) - 128)) }
                }
            }
            return worst
        }
        print(String(format: "zone plate 1024 -> 26 (40x) Lanczos widened at most 16x: RMS error vs area average %.2f levels; residual pattern %d levels (ours %d)",
                     capped, residual(cappedResult), residual(ours)))
        #expect(residual(ours) <= 3)
    }

    // MARK: (c) premultiplied alpha

    /// Transparent black next to opaque white: every partly transparent pixel of the result
    /// is white (a straight-alpha resampler would make them gray).
    @Test(arguments: ResamplingFilter.allCases)
    func transparentEdgesHaveNoDarkFringe(filter: ResamplingFilter) {
        let size = 90
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size where (x - 45) * (x - 45) + (y - 45) * (y - 45) < 30 * 30 || x > 70 {
                pixels.replaceSubrange((y * size + x) * 4..<(y * size + x) * 4 + 4, with: [255, 255, 255, 255])
            }
        }
        let source = RasterImage(width: size, height: size, pixels: pixels)
        #expect(source.hasAlpha)
        for (w, h) in [(30, 30), (13, 17), (7, 7), (200, 200)] {
            let result = Resampler.resize(source, width: w, height: h, filter: filter)
            #expect(result.hasAlpha)
            var edges = 0
            for y in 0..<h {
                for x in 0..<w {
                    let p = result.pixel(x: x, y: y)
                    guard p.a > 0 else { #expect(p.r == 0 && p.g == 0 && p.b == 0); continue }
                    if p.a < 255 { edges += 1 }
                    #expect(p.r >= 254 && p.g >= 254 && p.b >= 254, "pixel (\(x), \(y)) of \(w)x\(h) is \(p)")
                }
            }
            #expect(edges > 0)
        }
    }

    /// The colour of fully transparent pixels must not bleed into the visible ones.
    @Test func hiddenColourDoesNotBleed() {
        let w = 40, h = 10
        var pixels: [UInt8] = []
        for _ in 0..<h { for x in 0..<w { pixels += x < 20 ? [255, 0, 0, 0] : [0, 0, 255, 255] } }
        let result = Resampler.resize(RasterImage(width: w, height: h, pixels: pixels), width: 13, height: 3)
        for y in 0..<3 {
            for x in 0..<13 {
                let p = result.pixel(x: x, y: y)
                if p.a > 0 { #expect(p.r <= 1 && p.g <= 1 && p.b >= 254, "pixel (\(x), \(y)) is \(p)") }
            }
        }
    }

    // MARK: (d) sizes

    @Test(arguments: ResamplingFilter.allCases)
    func exactSizesUpAndDown(filter: ResamplingFilter) {
        let source = Fixture.noise(37, 23)
        let sizes = [(1, 1), (1, 23), (37, 1), (18, 11), (74, 46), (100, 7), (5, 90), (3, 2), (37, 50), (80, 23)]
        for (w, h) in sizes {
            let result = Resampler.resize(source, width: w, height: h, filter: filter)
            #expect(result.width == w && result.height == h && result.pixels.count == w * h * 4)
            #expect(result.hasAlpha)
        }
        for (sw, sh) in [(1, 1), (1, 9), (9, 1)] {
            let tiny = Fixture.noise(sw, sh)
            for (w, h) in [(1, 1), (16, 16), (3, 40)] {
                let result = Resampler.resize(tiny, width: w, height: h, filter: filter)
                #expect(result.width == w && result.height == h && result.pixels.count == w * h * 4)
            }
        }
        // One output pixel of an opaque picture is close to its mean (for the box, exactly).
        let photo = ResampleFixture.photo(120, 80)
        let mean = ResampleFixture.areaAverage(photo, 1, 1)
        let one = Resampler.resize(photo, width: 1, height: 1, filter: filter).pixel(x: 0, y: 0)
        for (c, v) in [one.r, one.g, one.b].enumerated() {
            #expect(abs(Double(v) - mean[c]) <= (filter == .box ? 0.5 : 3))
        }
    }

    @Test func sameSizeIsTheSamePicture() {
        let source = Fixture.noise(17, 9)
        for filter in ResamplingFilter.allCases {
            #expect(Resampler.resize(source, width: 17, height: 9, filter: filter) == source)
        }
    }

    @Test func resolutionFollowsUniformScalingOnly() {
        var source = ResampleFixture.solid(300, 200, [10, 20, 30, 255])
        source.resolution = 300
        #expect(Resampler.resize(source, width: 150, height: 100).resolution == 150)
        #expect(Resampler.resize(source, width: 600, height: 400).resolution == 600)
        #expect(Resampler.resize(source, width: 100, height: 67).resolution == 100)  // rounding
        #expect(Resampler.resize(source, width: 300, height: 100).resolution == nil)  // stretched
        let fill = Resampler.resize(source, width: 50, height: 120)
        #expect(fill.resolution == nil && fill.width == 50 && fill.height == 120)
        #expect(!fill.hasAlpha)
        #expect(Resampler.resize(ResampleFixture.solid(4, 4, [1, 2, 3, 255]), width: 2, height: 2).resolution == nil)
    }

    /// Non-uniform (fill) scaling: each axis is resampled on its own, so a picture that varies
    /// only along x keeps, in every output row, what a 1-pixel-high strip gives.
    @Test func axesAreIndependent() {
        var strip: [UInt8] = []
        for x in 0..<64 { let v = UInt8(x * 4); strip += [v, 255 - v, UInt8(x % 7 * 30), 255] }
        let row = RasterImage(width: 64, height: 1, pixels: strip)
        let tall = RasterImage(width: 64, height: 30, pixels: Array(repeating: strip, count: 30).joined().map { $0 })
        for filter in ResamplingFilter.allCases {
            let expected = Resampler.resize(row, width: 23, height: 1, filter: filter).pixels
            let result = Resampler.resize(tall, width: 23, height: 71, filter: filter)
            // Equal up to the rounding of Float sums at exact half levels (box averages).
            for y in 0..<71 {
                let line = result.pixels[y * 23 * 4..<(y + 1) * 23 * 4]
                #expect(zip(line, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(filter) row \(y)")
            }
        }
    }

    // MARK: (e) box

    @Test func boxHalvingIsTheTwoByTwoAverage() {
        let source = opaqueNoise(64, 48)
        let result = Resampler.resize(source, width: 32, height: 24, filter: .box)
        for y in 0..<24 {
            for x in 0..<32 {
                for c in 0..<4 {
                    let sum = [(0, 0), (1, 0), (0, 1), (1, 1)].reduce(0) { s, d in
                        s + Int(source.pixels[((2 * y + d.1) * 64 + 2 * x + d.0) * 4 + c])
                    }
                    #expect(Int(result.pixels[(y * 32 + x) * 4 + c]) == (sum + 2) / 4)  // half rounds up
                }
            }
        }
    }

    @Test func boxThirdIsTheThreeByThreeAverage() {
        let source = opaqueNoise(30, 21)
        let result = Resampler.resize(source, width: 10, height: 7, filter: .box)
        for y in 0..<7 {
            for x in 0..<10 {
                for c in 0..<3 {
                    var sum = 0
                    for dy in 0..<3 { for dx in 0..<3 { sum += Int(source.pixels[((3 * y + dy) * 30 + 3 * x + dx) * 4 + c]) } }
                    #expect(Int(result.pixels[(y * 10 + x) * 4 + c]) == Int((Double(sum) / 9).rounded()))
                }
            }
        }
    }

    // MARK: (f) solid colours

    @Test(arguments: ResamplingFilter.allCases)
    func solidColourStaysExact(filter: ResamplingFilter) {
        let colours: [[UInt8]] = [[0, 0, 0, 255], [255, 255, 255, 255], [200, 100, 50, 255], [1, 254, 127, 255],
                                  [200, 100, 50, 128], [255, 255, 255, 1], [17, 99, 230, 254]]
        for colour in colours {
            for (sw, sh, w, h) in [(45, 31, 1, 1), (45, 31, 15, 10), (45, 31, 7, 29), (45, 31, 90, 62), (45, 31, 133, 17),
                                   (45, 31, 44, 31), (1, 1, 9, 4), (1, 7, 3, 3)] {
                let source = ResampleFixture.solid(sw, sh, colour)
                let result = Resampler.resize(source, width: w, height: h, filter: filter)
                #expect(result.hasAlpha == (colour[3] != 255))
                let wrong = stride(from: 0, to: result.pixels.count, by: 4).first { Array(result.pixels[$0..<$0 + 4]) != colour }
                #expect(wrong == nil, "\(filter) \(colour) at \(w)x\(h): \(wrong.map { Array(result.pixels[$0..<$0 + 4]) } ?? [])")
            }
        }
    }

    // MARK: rounding, clamping, threads

    /// A hard black/white edge enlarged with Lanczos rings past 0 and 255: the overshoot is
    /// clamped, never wrapped around.
    @Test func ringingIsClamped() {
        var pixels: [UInt8] = []
        for _ in 0..<4 { for x in 0..<16 { pixels += x < 8 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let result = Resampler.resize(RasterImage(width: 16, height: 4, pixels: pixels), width: 64, height: 4, filter: .best)
        let row = (0..<64).map { Int(result.pixel(x: $0, y: 1).r) }
        #expect(row[0..<26].allSatisfy { $0 <= 8 }, "\(row)")
        #expect(row[38..<64].allSatisfy { $0 >= 247 }, "\(row)")
        // Monotonic through the edge itself.
        #expect(zip(row[28..<36], row[29..<37]).allSatisfy { $0 <= $1 }, "\(row)")
        #expect(!result.hasAlpha && stride(from: 3, to: result.pixels.count, by: 4).allSatisfy { result.pixels[$0] == 255 })
    }

    /// Bands of rows share nothing but their edges: any split gives the same bytes.
    @Test func threadsDoNotChangeTheResult() {
        let photo = ResampleFixture.photo(300, 200)
        var alpha = photo.pixels
        for i in stride(from: 3, to: alpha.count, by: 4) { alpha[i] = UInt8((i / 4) % 300 * 255 / 299) }
        let translucent = RasterImage(width: 300, height: 200, pixels: alpha)
        for source in [photo, translucent] {
            for filter in ResamplingFilter.allCases {
                for (w, h) in [(110, 70), (420, 290), (31, 7)] {
                    let one = Resampler.resize(source, width: w, height: h, filter: filter, bands: 1)
                    for bands in [2, 3, 7] {
                        let split = Resampler.resize(source, width: w, height: h, filter: filter, bands: bands)
                        #expect(one == split, "\(filter) \(w)x\(h) in \(bands) bands")
                    }
                    #expect(Resampler.resize(source, width: w, height: h, filter: filter) == one)
                }
            }
        }
    }

    @Test func weightTablesAreNormalisedAndMonotonic() {
        for filter in ResamplingFilter.allCases {
            for (n, m) in [(100, 3), (3, 100), (1024, 26), (26, 1024), (7, 7), (1, 5), (5, 1), (1000, 999)] {
                let table = WeightTable(source: n, destination: m, filter: filter)
                for i in 0..<m {
                    let taps = table.weights[i * table.stride..<i * table.stride + table.counts[i]]
                    #expect(abs(taps.reduce(0, +) - 1) < 1e-5)
                    #expect(table.starts[i] >= 0 && table.starts[i] + table.counts[i] <= n)
                    if i > 0 { #expect(table.starts[i] >= table.starts[i - 1]) }
                }
            }
        }
        // Same size: one tap of weight 1 for every filter (an exact copy).
        for filter in ResamplingFilter.allCases {
            let table = WeightTable(source: 9, destination: 9, filter: filter)
            #expect(table.counts.allSatisfy { $0 == 1 } && table.starts == Array(0..<9))
        }
    }

    /// Separable Lanczos of an opaque picture with the kernel widened at most `cap` times,
    /// straight from the weight tables (independent of the resampler's passes).
    private func lanczosCapped(_ image: RasterImage, _ width: Int, _ height: Int, atWidening cap: Double) -> RasterImage {
        let h = WeightTable(source: image.width, destination: width, filter: .best, maximumWidening: cap)
        let v = WeightTable(source: image.height, destination: height, filter: .best, maximumWidening: cap)
        var rows = [Double](repeating: 0, count: image.height * width * 3)
        for y in 0..<image.height {
            for x in 0..<width {
                for k in 0..<h.counts[x] {
                    let w = Double(h.weights[x * h.stride + k]), j = h.starts[x] + k
                    for c in 0..<3 { rows[(y * width + x) * 3 + c] += w * Double(image.pixels[(y * image.width + j) * 4 + c]) }
                }
            }
        }
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                var rgb = [0.0, 0.0, 0.0]
                for k in 0..<v.counts[y] {
                    let w = Double(v.weights[y * v.stride + k]), j = v.starts[y] + k
                    for c in 0..<3 { rgb[c] += w * rows[(j * width + x) * 3 + c] }
                }
                pixels += rgb.map(ResampleFixture.clampByte) + [255]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    private func opaqueNoise(_ w: Int, _ h: Int) -> RasterImage {
        var pixels = Fixture.noise(w, h).pixels
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        return RasterImage(width: w, height: h, pixels: pixels)
    }
}
