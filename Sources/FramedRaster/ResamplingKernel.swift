internal import Glibc

/// The kernel that `Resampler` uses (`--resample box|good|best`).
public enum ResamplingFilter: String, Sendable, CaseIterable, Codable {
    /// Area average: each output pixel is the mean of the source area it covers (exact
    /// fractional overlaps). Fastest, soft; enlarging gives sharp pixel blocks with one
    /// blended pixel at each boundary.
    case box
    /// Catmull-Rom: the bicubic with B = 0, C = 0.5 (radius 2).
    case good
    /// Lanczos-3: sinc windowed by sinc (radius 3), ImageMagick's `-filter Lanczos`.
    case best

    /// Half-width of the kernel in source pixels at scale 1 (before widening for shrinking).
    var radius: Double {
        switch self {
        case .box: 0.5
        case .good: 2
        case .best: 3
        }
    }

    /// The kernel at offset `x`, in units of the larger of a source and an output pixel (not
    /// normalised). The box is built apart, as exact area overlaps.
    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box:
            return x < 0.5 ? 1 : 0
        case .good:
            // Mitchell-Netravali with B = 0, C = 0.5.
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        case .best:
            // sinc(x) sinc(x / 3) with one sine: t = pi x / 3, sin(pi x) = sin(3 t) = s (3 - 4 s^2).
            if x >= 3 { return 0 }
            if x < 1e-9 { return 1 }
            let t = Double.pi * x / 3, s = sin(t)
            return s * s * (3 - 4 * s * s) / (3 * t * t)
        }
    }
}

/// Per-output-pixel weights along one axis: output pixel `i` is the sum over `k < counts[i]`
/// of `weights[i * stride + k] * source[starts[i] + k]`. Weights are normalised (they sum to
/// one), taps outside the picture are folded onto the edge pixel (clamp-to-edge), and the
/// starts never decrease (the vertical pass relies on that for its ring of rows).
struct WeightTable {
    let starts: [Int]
    let counts: [Int]
    /// Room for each output pixel's taps in `weights` (the largest count).
    let stride: Int
    let weights: [Float]

    /// Weights to resample `source` pixels to `destination` pixels.
    /// - Parameter maximumWidening: a cap on the kernel's widening, for tests only (Cairo
    ///   stops at 16, and aliases past it); the resampler never caps it.
    /// - Precondition: both are positive.
    init(source: Int, destination: Int, filter: ResamplingFilter, maximumWidening: Double = .infinity) {
        precondition(source > 0 && destination > 0)
        // Source pixels per output pixel; the kernel is stretched by it when shrinking so that
        // its cut-off follows the output's Nyquist frequency at any factor.
        let scale = Double(source) / Double(destination)
        let filterScale = min(max(scale, 1), maximumWidening)
        var starts = [Int](repeating: 0, count: destination)
        var taps = [[Double]](repeating: [], count: destination)

        for i in 0..<destination {
            var first: Int, raw: [Double]
            if filter == .box {
                // Exact overlap of the output pixel's footprint [a, b) with each source pixel.
                let a = Double(i) * scale, b = Double(i + 1) * scale
                first = Int(a.rounded(.down))
                let last = max(first, Int(b.rounded(.up)) - 1)
                raw = (first...last).map { j in max(0, min(b, Double(j + 1)) - max(a, Double(j))) }
            } else {
                let center = (Double(i) + 0.5) * scale
                let support = filter.radius * filterScale
                // Source pixel j has its centre at j + 0.5.
                first = Int((center - support - 0.5).rounded(.down))
                let last = Int((center + support - 0.5).rounded(.up))
                raw = (first...last).map { j in filter.weight((Double(j) + 0.5 - center) / filterScale) }
            }
            // Drop vanishing taps at both ends (exact zeros of the kernel).
            let total = raw.reduce(0, +)
            let tiny = 1e-12 * max(abs(total), 1e-300)
            while raw.count > 1, abs(raw[raw.count - 1]) <= tiny { raw.removeLast() }
            while raw.count > 1, abs(raw[0]) <= tiny { raw.removeFirst(); first += 1 }
            // Clamp to the edge: a tap outside the picture counts for the nearest edge pixel.
            let lo = min(max(first, 0), source - 1)
            let hi = min(max(first + raw.count - 1, 0), source - 1)
            var folded = [Double](repeating: 0, count: hi - lo + 1)
            for (k, w) in raw.enumerated() {
                folded[min(max(first + k, 0), source - 1) - lo] += w
            }
            let sum = folded.reduce(0, +)
            if abs(sum) < 1e-12 {
                // Cannot happen with these kernels; fall back to the nearest pixel.
                starts[i] = min(max(Int((Double(i) + 0.5) * scale), 0), source - 1)
                taps[i] = [1]
            } else {
                starts[i] = lo
                taps[i] = folded.map { $0 / sum }
            }
        }
        // Starts must not decrease: where one does, prepend zero taps to the earlier pixels.
        if destination > 1 {
            for i in Swift.stride(from: destination - 2, through: 0, by: -1) where starts[i] > starts[i + 1] {
                taps[i] = [Double](repeating: 0, count: starts[i] - starts[i + 1]) + taps[i]
                starts[i] = starts[i + 1]
            }
        }
        let stride = taps.map(\.count).max() ?? 1
        var weights = [Float](repeating: 0, count: destination * stride)
        for i in 0..<destination {
            for (k, w) in taps[i].enumerated() { weights[i * stride + k] = Float(w) }
        }
        self.starts = starts
        self.counts = taps.map(\.count)
        self.stride = stride
        self.weights = weights
    }

    /// How many consecutive source lines a consumer walking the outputs in order must keep:
    /// the most lines between a pixel's first tap and the furthest tap seen so far.
    var window: Int {
        var furthest = 0, most = 1
        for i in starts.indices {
            furthest = max(furthest, starts[i] + counts[i])
            most = max(most, furthest - starts[i])
        }
        return most
    }
}
