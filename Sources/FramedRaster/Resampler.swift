internal import CCodecs
internal import Glibc
import Dispatch
internal import FramedSystem
import Synchronization

/// Resizing pictures to an exact pixel size with a separable kernel.
///
/// How it works: one `WeightTable` per axis is computed up front (normalised Float weights,
/// clamp-to-edge folded in, kernel widened by the reduction factor so that shrinking by any
/// factor stays alias-free). The output rows are split into one band per core; each band walks
/// its output rows in order, converting the source rows it needs to premultiplied Float RGBA
/// (0...255) and filtering them horizontally into a small ring of rows, then filtering that
/// ring vertically into one output row. Memory beyond the output is a few rows per core.
public enum Resampler {
    /// Resizes `image` to exactly `width` x `height` (shrinking or enlarging, each axis on its
    /// own), in premultiplied alpha, separable (horizontal then vertical pass), the kernel
    /// widened by the scale factor when shrinking (support = radius * factor) so that any
    /// reduction, 40x included, is alias-free. Edges are clamped (the picture continues with
    /// its edge pixels). Uses every core for large images (`DispatchQueue.concurrentPerform`
    /// over bands of rows), or at most `threads`; the result does not depend on the number of
    /// cores.
    ///
    /// - Returns: `image` itself when the size is unchanged. Otherwise a picture with the same
    ///   `hasAlpha`; its `resolution` is scaled so that the physical size stays the same when
    ///   both axes are scaled alike (within one pixel of rounding), and is nil when they are
    ///   not (a stretched picture has no single resolution) or when the source has none.
    ///   Fully transparent output pixels are (0, 0, 0, 0).
    /// - Precondition: `width` and `height` are not negative; the source is not empty unless
    ///   the requested size is.
    public static func resize(_ image: RasterImage, width: Int, height: Int,
                              filter: ResamplingFilter = .best, threads: Int? = nil) -> RasterImage {
        resize(image, width: width, height: height, filter: filter, bands: nil, threads: threads)
    }

    /// `resize` split into `bands` bands of rows run concurrently (1: all on the calling
    /// thread); nil: one band per core (at most `threads`) when the work is worth it, else one.
    static func resize(_ image: RasterImage, width: Int, height: Int, filter: ResamplingFilter,
                       bands: Int?, threads: Int? = nil) -> RasterImage {
        precondition(width >= 0 && height >= 0, "Resampler: cannot resize to \(width)x\(height)")
        if width == image.width && height == image.height { return image }
        let resolution = scaledResolution(image, width: width, height: height)
        if width == 0 || height == 0 {
            return RasterImage(width: width, height: height, pixels: [], hasAlpha: image.hasAlpha,
                               resolution: resolution)
        }
        precondition(image.width > 0 && image.height > 0,
                     "Resampler: cannot resize an empty \(image.width)x\(image.height) picture to \(width)x\(height)")

        let horizontal = WeightTable(source: image.width, destination: width, filter: filter)
        let vertical = WeightTable(source: image.height, destination: height, filter: filter)
        // Multiply-adds of the two passes (about 0.3 ns each on one core), to decide whether
        // threads are worth starting.
        let work = image.height * horizontal.counts.reduce(0, +) + width * vertical.counts.reduce(0, +)
        let cores = min(max(1, threads ?? processorCount), processorCount)
        let bands = max(1, min(bands ?? (work < 400_000 ? 1 : cores), height, 64))

        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            adviseHugePages(UnsafeMutableRawBufferPointer(output))
            image.pixels.withUnsafeBufferPointer { source in
                horizontal.withTaps(fourfold: true) { h in
                    vertical.withTaps { v in
                        let job = Band(source: source.baseAddress!, sourceWidth: image.width,
                                       horizontal: h, vertical: v, window: vertical.window,
                                       width: width, premultiplied: image.hasAlpha,
                                       output: output.baseAddress!)
                        if bands == 1 {
                            job.run(rows: 0..<height)
                        } else {
                            DispatchQueue.concurrentPerform(iterations: bands) { band in
                                job.run(rows: height * band / bands ..< height * (band + 1) / bands)
                            }
                        }
                    }
                }
            }
            count = width * height * 4
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha,
                           resolution: resolution)
    }

    /// The source's resolution scaled with the picture when both axes scale alike, else nil.
    static func scaledResolution(_ image: RasterImage, width: Int, height: Int) -> Double? {
        scaledResolution(image.resolution, from: (image.width, image.height), to: (width, height))
    }

    static func scaledResolution(_ resolution: Double?, from source: (Int, Int), to size: (Int, Int)) -> Double? {
        guard let dpi = resolution, source.0 > 0, source.1 > 0 else { return nil }
        let fx = Double(size.0) / Double(source.0), fy = Double(size.1) / Double(source.1)
        let uniform = abs(Double(size.1) - Double(source.1) * fx) <= 1
            || abs(Double(size.0) - Double(source.0) * fy) <= 1
        return uniform ? dpi * fx : nil
    }

    /// Resizes a picture while `decode` (run on the calling thread) writes it into `source`,
    /// row by row from the top, telling `ready` how many rows are done: a second thread
    /// resamples output rows from the top as their source rows come in, so that the resize
    /// (shrinking a photo to a 300 dpi PDF: a fifth of the decode's time) is partly done when
    /// decoding ends; then the calling thread takes output rows from the bottom up until the
    /// two meet. Every output row is computed as `resize` computes it, so the pixels are the
    /// same.
    ///
    /// The second thread runs at the lowest priority: a JPEG decode on two cores has a thread
    /// on each, and the one that shared its core with the resize finished last while the other
    /// waited for it (6-7 % of the wall time of a PDF or SVG that decodes at 1/2). It now takes
    /// what the decode leaves, such as those waits.
    ///
    /// - Parameter decode: decodes, and returns whether it succeeded.
    /// - Returns: the resized pixels (straight RGBA, `width` x `height`), or nil when `decode`
    ///   failed (the resampling thread is stopped and waited for first).
    static func resize(following ready: RowsReady, source: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int,
                       hasAlpha: Bool, width: Int, height: Int, filter: ResamplingFilter,
                       decode: () -> Bool) -> [UInt8]? {
        precondition(width > 0 && height > 0 && sourceWidth > 0 && sourceHeight > 0)
        let horizontal = WeightTable(source: sourceWidth, destination: width, filter: filter)
        let vertical = WeightTable(source: sourceHeight, destination: height, filter: filter)
        var decoded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            count = 0
            adviseHugePages(UnsafeMutableRawBufferPointer(output))
            horizontal.withTaps(fourfold: true) { h in
                vertical.withTaps { v in
                    var job = Band(source: source, sourceWidth: sourceWidth, horizontal: h, vertical: v,
                                   window: vertical.window, width: width, premultiplied: hasAlpha,
                                   output: output.baseAddress!)
                    job.ready = ready
                    let claims = RowClaims(height: height)
                    // Without a thread, the rows are all resampled from the bottom once decoded.
                    let follower = try? WorkerThread { [job] in
                        WorkerThread.lowerCallingThreadPriority()
                        job.run { claims.fromTop() }
                    }
                    decoded = decode()
                    ready.finish(rows: decoded ? sourceHeight : nil)
                    if decoded {
                        // Bands of 32 rows: each starts its ring afresh, a few source rows again.
                        while let rows = claims.fromBottom(32) { job.run(rows: rows) }
                    }
                    follower?.join()
                }
            }
            if decoded { count = width * height * 4 }
        }
        return decoded ? pixels : nil
    }

    /// Online processors (at least 1): the resampler's bands, and the command line's default
    /// number of batch workers.
    public static let processorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

/// A weight table seen through pointers (valid inside `WeightTable.withTaps`).
struct Taps {
    let starts: UnsafePointer<Int>
    let counts: UnsafePointer<Int>
    let weights: UnsafePointer<Float>
    let stride: Int
}

extension WeightTable {
    /// The table through pointers; with `fourfold`, each weight is repeated four times (stride
    /// times four), one per channel, so that the horizontal pass multiplies a pixel by its
    /// weight with one vector load and no broadcast.
    func withTaps<R>(fourfold: Bool = false, _ body: (Taps) -> R) -> R {
        let w = fourfold ? [Float](unsafeUninitializedCapacity: weights.count * 4) { out, count in
            for (i, weight) in weights.enumerated() { (out.baseAddress! + 4 * i).initialize(repeating: weight, count: 4) }
            count = weights.count * 4
        } : weights
        return starts.withUnsafeBufferPointer { s in
            counts.withUnsafeBufferPointer { c in
                w.withUnsafeBufferPointer { w in
                    body(Taps(starts: s.baseAddress!, counts: c.baseAddress!, weights: w.baseAddress!,
                              stride: fourfold ? stride * 4 : stride))
                }
            }
        }
    }
}

/// One resize, shared by the bands: they read the source and the weights (alive for the whole
/// `concurrentPerform`) and each writes only its own output rows, hence `@unchecked Sendable`.
///
/// Pixels in flight are four Floats (R, G, B, A in 0...255, premultiplied when the picture
/// has alpha). Plain Floats rather than SIMD4<Float>: as fast once optimised (LLVM vectorises
/// these loops), and many times faster in debug builds, where SIMD operators are generic calls.
private struct Band: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let sourceWidth: Int
    let horizontal: Taps
    let vertical: Taps
    /// Rows in the ring of horizontally filtered rows.
    let window: Int
    let width: Int
    let premultiplied: Bool
    let output: UnsafeMutablePointer<UInt8>
    /// Set while a decoder is still writing the source: a source row is read once it is ready.
    var ready: RowsReady? = nil

    func run(rows: Range<Int>) {
        var rows = rows.makeIterator()
        run { rows.next() }
    }

    /// Output rows as `nextRow` hands them out, in increasing order, until it gives nil (or the
    /// decoding that `ready` follows is abandoned).
    func run(_ nextRow: () -> Int?) {
        guard var y = nextRow() else { return }
        let rowFloats = width * 4
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: window * rowFloats)
        let line = UnsafeMutablePointer<Float>.allocate(capacity: sourceWidth * 4)
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        defer { ring.deallocate(); line.deallocate(); sum.deallocate() }

        var next = vertical.starts[y]  // the next source row to filter horizontally
        var readyRows = ready == nil ? Int.max : 0
        while true {
            let first = vertical.starts[y], count = vertical.counts[y]
            next = max(next, first)
            while next < first + count {
                if next >= readyRows {
                    guard let rows = ready?.wait(beyond: next) else { return }
                    readyRows = rows
                }
                load(row: next, into: line)
                filterHorizontally(line, into: ring + (next % window) * rowFloats)
                next += 1
            }
            filterVertically(ring, row: y, first: first, count: count, into: sum)
            store(sum, into: output + y * rowFloats)
            guard let following = nextRow() else { return }
            y = following
        }
    }

    /// Source row `y` as Floats, premultiplied when the picture has alpha. (Wrapping `&+` on
    /// indices: the bounds are the row's, and overflow checks would stop the vectoriser.)
    private func load(row y: Int, into line: UnsafeMutablePointer<Float>) {
        var p = source + y * sourceWidth * 4, l = line
        let end = p + sourceWidth * 4
        if premultiplied {
            Band.unit.withUnsafeBufferPointer { unit in
                let unit = unit.baseAddress!
                while p < end {
                    let f = unit[Int(p[3])]
                    l[0] = Float(p[0]) * f
                    l[1] = Float(p[1]) * f
                    l[2] = Float(p[2]) * f
                    l[3] = Float(p[3])
                    p += 4
                    l += 4
                }
            }
        } else {
            while p < end {
                l[0] = Float(p[0])
                l[1] = Float(p[1])
                l[2] = Float(p[2])
                l[3] = 255
                p += 4
                l += 4
            }
        }
    }

    /// a / 255 for every byte a (exactly 1 at 255).
    private static let unit: [Float] = (0...255).map { Float($0) / 255 }

    /// One source row (Floats) into one row of the ring. The weights are fourfold (`Taps`), so
    /// lane c of tap k is `q[4k + c]`; even taps sum into one set of accumulators and odd taps
    /// into another (halving the chains of dependent adds), added at the end.
    private func filterHorizontally(_ line: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let h = horizontal
        var o = out, w = h.weights
        for x in 0..<width {
            var p = line + 4 &* h.starts[x], q = w
            let n = h.counts[x]
            var r0: Float = 0, g0: Float = 0, b0: Float = 0, a0: Float = 0
            var r1: Float = 0, g1: Float = 0, b1: Float = 0, a1: Float = 0
            var k = 0
            while k &+ 2 <= n {
                r0 += p[0] * q[0]; g0 += p[1] * q[1]; b0 += p[2] * q[2]; a0 += p[3] * q[3]
                r1 += p[4] * q[4]; g1 += p[5] * q[5]; b1 += p[6] * q[6]; a1 += p[7] * q[7]
                p += 8
                q += 8
                k &+= 2
            }
            if k < n {
                r0 += p[0] * q[0]; g0 += p[1] * q[1]; b0 += p[2] * q[2]; a0 += p[3] * q[3]
            }
            o[0] = r0 + r1; o[1] = g0 + g1; o[2] = b0 + b1; o[3] = a0 + a1
            o += 4
            w += h.stride
        }
    }

    private func filterVertically(_ ring: UnsafePointer<Float>, row y: Int, first: Int, count: Int,
                                  into sum: UnsafeMutablePointer<Float>) {
        let w = vertical.weights + y * vertical.stride
        let n = width * 4, window = window
        func row(_ k: Int) -> UnsafePointer<Float> { ring + ((first + k) % window) * n }
        sum.update(repeating: 0, count: n)
        var k = 0
        while k + 4 <= count {
            let r0 = row(k), r1 = row(k + 1), r2 = row(k + 2), r3 = row(k + 3)
            let w0 = w[k], w1 = w[k + 1], w2 = w[k + 2], w3 = w[k + 3]
            for i in 0..<n { sum[i] += (r0[i] * w0 + r1[i] * w1) + (r2[i] * w2 + r3[i] * w3) }
            k += 4
        }
        if count - k >= 2 {
            let r0 = row(k), r1 = row(k + 1), w0 = w[k], w1 = w[k + 1]
            for i in 0..<n { sum[i] += r0[i] * w0 + r1[i] * w1 }
            k += 2
        }
        if k < count {
            let r0 = row(k), w0 = w[k]
            for i in 0..<n { sum[i] += r0[i] * w0 }
        }
    }

    /// Rounds and clamps a row of sums to straight RGBA8 (un-premultiplying when needed), in the
    /// shim (`ccodecs_store_rgba`, four lanes at a time).
    private func store(_ sum: UnsafePointer<Float>, into out: UnsafeMutablePointer<UInt8>) {
        ccodecs_store_rgba(sum, out, width, premultiplied ? 1 : 0)
    }
}

/// How many rows at the top of a picture being decoded hold their final pixels: the decoder
/// stores the count (`ccodecs_reader_publish_rows`), a resampling thread waits on it.
final class RowsReady: @unchecked Sendable {
    /// Written and read only through the shim's atomic operations.
    let counter: UnsafeMutablePointer<UInt32>
    private static let abandoned = UInt32.max

    init() {
        counter = .allocate(capacity: 1)
        counter.initialize(to: 0)
    }

    deinit { counter.deallocate() }

    /// Decoding is over: all `rows` are ready, or (nil) it failed and nothing more will be.
    func finish(rows: Int?) {
        ccodecs_rows_set(counter, rows.map { UInt32(clamping: $0) } ?? Self.abandoned)
    }

    /// Waits until row `y` is ready and returns how many rows are; nil when decoding failed.
    /// Rows come every few microseconds, so this yields the core, then sleeps 50 µs at a time.
    func wait(beyond y: Int) -> Int? {
        var tries = 0
        while true {
            let rows = ccodecs_rows_ready(counter)
            if rows == Self.abandoned { return nil }
            if Int(rows) > y { return Int(rows) }
            tries += 1
            if tries < 16 { sched_yield() } else { usleep(50) }
        }
    }
}

/// The output rows of a resize shared by two threads: one takes them one at a time from the
/// top, the other bands of them from the bottom, until none is left.
///
/// The rows not yet taken, `top..<bottom`, are one atomic word (top in the high half): each claim
/// is a compare-and-swap. A `Mutex` did the same, but ThreadSanitizer (`Tests/tsan.sh`) does not
/// see a contended Mutex's futex wait and reports races that are not there; the claims hand no
/// data over (each thread writes its own rows, and the decode's caller waits for the follower).
private final class RowClaims: Sendable {
    private let rows: Atomic<UInt64>

    init(height: Int) { rows = Atomic(UInt64(UInt32(clamping: height))) }

    /// Takes rows from `current` with `take(top, bottom)` (nil: none left): the rows taken and
    /// the word that remains.
    private func claim(_ take: (Int, Int) -> (rows: Range<Int>, remaining: UInt64)?) -> Range<Int>? {
        var current = rows.load(ordering: .acquiring)
        while true {
            guard let (taken, remaining) = take(Int(current >> 32), Int(current & 0xFFFF_FFFF)) else { return nil }
            let (exchanged, original) = rows.compareExchange(expected: current, desired: remaining,
                                                             ordering: .acquiringAndReleasing)
            if exchanged { return taken }
            current = original
        }
    }

    func fromTop() -> Int? {
        claim { top, bottom in
            top < bottom ? (top..<top + 1, UInt64(top + 1) << 32 | UInt64(bottom)) : nil
        }?.lowerBound
    }

    func fromBottom(_ count: Int) -> Range<Int>? {
        claim { top, bottom in
            guard top < bottom else { return nil }
            let start = max(top, bottom - count)
            return (start..<bottom, UInt64(top) << 32 | UInt64(start))
        }
    }
}
