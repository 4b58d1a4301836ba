import CCodecs
import CFramedEngines
import Testing

/// The resampler's inner loops (`ccodecs_sample_loops`: `load_row`, `filter_horizontally`,
/// `filter_vertically`): each gives, bit for bit, what its documented sum gives when written out
/// plainly here in the same order, in the portable build (CCodecs) and in the AVX2 build (the
/// avx2Rows engine), both called by name whatever FRAMED_ENGINES says. Odd pixel and tap counts
/// reach the loops' leftovers.
@Suite struct ResamplerPassTests {
    /// The builds to check: the portable one, and the AVX2 one where the processor has AVX2
    /// (`processorHasAVX2` says whether it was checked).
    static let builds: [(name: String, loops: ccodecs_sample_loops)] =
        [("portable", ccodecs_sample_loops_portable().pointee)] + (framed_engine_avx2rows().map { [("AVX2", $0.pointee)] } ?? [])

    /// The AVX2 engine is checked only on a processor that has AVX2.
    static let processorHasAVX2 = framed_engine_avx2rows() != nil

    /// Says, as a test of its own, when this processor cannot run the AVX2 build (so that its
    /// checks are seen to be skipped rather than passing silently).
    @Test(.enabled(if: !processorHasAVX2, "the processor has AVX2: the AVX2 build is checked below"))
    func theAVX2BuildIsNotCheckedOnThisProcessor() {
        withKnownIssue("no AVX2 here: the avx2Rows engine's loops are not checked") { Issue.record("no AVX2") }
    }

    /// A repeatable stream of Floats in -64...320 (beyond 0...255, as Lanczos sums are).
    struct Numbers {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24) * 384 - 64
        }
    }

    /// The first index where two rows of Floats differ in their bits, if any.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        a.count != b.count ? -1 : a.indices.first { a[$0].bitPattern != b[$0].bitPattern }
    }

    @Test(arguments: [1, 2, 7, 33])
    func horizontalPass(width: Int) {
        var numbers = Numbers(state: UInt64(width))
        let sourceWidth = 3 * width + 12, stride = 12 * 4  // up to 12 taps
        let line = (0..<sourceWidth * 4).map { _ in numbers.next() }
        let counts = (0..<width).map { 1 + $0 % 12 }
        let starts = (0..<width).map { min(3 * $0, sourceWidth - counts[$0]) }
        var weights = [Float](repeating: 0, count: width * stride)
        for x in 0..<width {
            for k in 0..<counts[x] {
                let weight = numbers.next() / 256
                for c in 0..<4 { weights[x * stride + 4 * k + c] = weight }
            }
        }
        // The sum as documented: even taps and odd taps apart, then added.
        var expected = [Float](repeating: 0, count: width * 4)
        for x in 0..<width {
            for c in 0..<4 {
                var even: Float = 0, odd: Float = 0
                for k in 0..<counts[x] {
                    let product = line[4 * (starts[x] + k) + c] * weights[x * stride + 4 * k + c]
                    if k % 2 == 0 { even += product } else { odd += product }
                }
                expected[4 * x + c] = even + odd
            }
        }
        for (name, loops) in Self.builds {
            var out = [Float](repeating: .nan, count: width * 4)
            loops.filter_horizontally(line, &out, width, starts, counts, weights, stride)
            #expect(Self.firstDifference(out, expected) == nil, "\(name)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 9])
    func verticalPass(count: Int) {
        var numbers = Numbers(state: UInt64(100 + count))
        let n = 4 * 13  // 52 Floats: six vectors of eight and a leftover of four
        let rows = (0..<count).map { _ in (0..<n).map { _ in numbers.next() } }
        let weights = (0..<count).map { _ in numbers.next() / 256 }
        // Four rows at a time as (r0 w0 + r1 w1) + (r2 w2 + r3 w3), then two, then one.
        var expected = [Float](repeating: 0, count: n)
        for i in 0..<n {
            var k = 0
            while k + 4 <= count {
                let a = rows[k][i] * weights[k] + rows[k + 1][i] * weights[k + 1]
                let b = rows[k + 2][i] * weights[k + 2] + rows[k + 3][i] * weights[k + 3]
                expected[i] += a + b
                k += 4
            }
            if count - k >= 2 {
                expected[i] += rows[k][i] * weights[k] + rows[k + 1][i] * weights[k + 1]
                k += 2
            }
            if k < count { expected[i] += rows[k][i] * weights[k] }
        }
        for (name, loops) in Self.builds {
            var sum = [Float](repeating: .nan, count: n)
            rows.flatMap { $0 }.withUnsafeBufferPointer { flat in
                let pointers: [UnsafePointer<Float>?] = (0..<count).map { flat.baseAddress! + $0 * n }
                loops.filter_vertically(pointers, weights, Int32(count), &sum, n)
            }
            #expect(Self.firstDifference(sum, expected) == nil, "\(name)")
        }
    }

    @Test(arguments: [false, true])
    func loadingARow(premultiplied: Bool) {
        let pixels = 11
        let rgba = (0..<pixels * 4).map { UInt8(truncatingIfNeeded: $0 * 53 + 7) }
        let unit = (0...255).map { Float($0) / 255 }
        var expected = [Float](repeating: 0, count: pixels * 4)
        for i in 0..<pixels {
            let f = premultiplied ? unit[Int(rgba[4 * i + 3])] : 1
            for c in 0..<3 { expected[4 * i + c] = premultiplied ? Float(rgba[4 * i + c]) * f : Float(rgba[4 * i + c]) }
            expected[4 * i + 3] = premultiplied ? Float(rgba[4 * i + 3]) : 255
        }
        for (name, loops) in Self.builds {
            var line = [Float](repeating: .nan, count: pixels * 4)
            if premultiplied {
                loops.load_row(rgba, &line, pixels, unit)
            } else {
                loops.load_row(rgba, &line, pixels, nil)
            }
            #expect(Self.firstDifference(line, expected) == nil, "\(name)")
        }
    }
}
