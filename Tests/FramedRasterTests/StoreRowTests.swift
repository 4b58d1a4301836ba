import CCodecs
import Testing

/// The resampler's last step, `ccodecs_store_rgba` (SSE2): exactly the rounding framed has
/// always used, written out here one sample at a time, on values around every edge (alpha
/// near 0.5, overshoot below 0 and above 255, halves) and random ones.
@Suite struct StoreRowTests {
    /// Clamped to 0...255 and rounded half up, as the Swift code before the shim did it.
    static func byte(_ v: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(min(max(v, 0), 255) + 0.5)) }

    static func reference(_ sum: [Float], premultiplied: Bool) -> [UInt8] {
        stride(from: 0, to: sum.count, by: 4).flatMap { i -> [UInt8] in
            guard premultiplied else { return [byte(sum[i]), byte(sum[i + 1]), byte(sum[i + 2]), 255] }
            let a = min(max(sum[i + 3], 0), 255)
            if a < 0.5 { return [0, 0, 0, 0] }
            let f = 255 / a
            return [byte(sum[i] * f), byte(sum[i + 1] * f), byte(sum[i + 2] * f), byte(a)]
        }
    }

    @Test(arguments: [false, true])
    func storedRowsRoundAsBefore(premultiplied: Bool) {
        let edges: [Float] = [-300, -1, -0.5, -0.0, 0, 0.25, 0.49999997, 0.5, 0.50000006, 1, 1.5, 2.5, 127.5,
                              254.49998, 254.5, 254.50002, 255, 255.49998, 255.5, 256, 300, 1e9]
        var state: UInt32 = 99
        func random() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) * 280 - 12
        }
        var sum: [Float] = []
        for a in edges { for c in edges { sum += [c, c * 0.5, min(c, a), a] } }
        for _ in 0..<20_000 { sum += [random(), random(), random(), random()] }
        var out = [UInt8](repeating: 7, count: sum.count)
        ccodecs_store_rgba(sum, &out, sum.count / 4, premultiplied ? 1 : 0)
        let want = Self.reference(sum, premultiplied: premultiplied)
        let first = (0..<out.count).first { out[$0] != want[$0] }
        #expect(first == nil, "sample \(first ?? 0): \(first.map { out[$0] } ?? 0) for \(first.map { want[$0] } ?? 0), from \(first.map { sum[$0] } ?? 0)")
    }
}

