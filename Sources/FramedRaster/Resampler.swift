internal import CCodecs
internal import Glibc
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
package enum Resampler {
    /// Resizes `image` to exactly `width` x `height` (shrinking or enlarging, each axis on its
    /// own), in premultiplied alpha, separable (horizontal then vertical pass), the kernel
    /// widened by the scale factor when shrinking (support = radius * factor) so that any
    /// reduction, 40x included, is alias-free. Edges are clamped (the picture continues with
    /// its edge pixels). Uses every core for large images (`WorkerThread.concurrentPerform`
    /// over bands of rows), or at most `threads`; the result does not depend on the number of
    /// cores.
    ///
    /// - Returns: `image` itself when the size is unchanged. Otherwise a picture with the same
    ///   `hasAlpha`; its `resolution` is scaled so that the physical size stays the same when
    ///   both axes are scaled alike (within one pixel of rounding), and is nil when they are
    ///   not (a stretched picture has no single resolution) or when the source has none.
    ///   Fully transparent output pixels are (0, 0, 0, 0).
    /// - Parameter engines: with `avx2Rows`, the loops built for AVX2 where the processor has
    ///   it; the pixels are the same either way.
    /// - Precondition: `width` and `height` are not negative; the source is not empty unless
    ///   the requested size is.
    package static func resize(_ image: RasterImage, width: Int, height: Int, filter: ResamplingFilter = .best,
                               threads: Int? = nil, engines: Engines = .configured) -> RasterImage {
        resize(image, width: width, height: height, filter: filter, bands: nil, threads: threads, engines: engines)
    }

    /// `resize` split into `bands` bands of rows run concurrently (1: all on the calling
    /// thread); nil: one band per core (at most `threads`) when the work is worth it, else one.
    static func resize(_ image: RasterImage, width: Int, height: Int, filter: ResamplingFilter,
                       bands: Int?, threads: Int? = nil, engines: Engines = .configured) -> RasterImage {
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

        let pixels = image.pixels.withUnsafeBufferPointer { source in
            resampled(horizontal, vertical, source: source.baseAddress!, sourceWidth: image.width,
                      sourceStride: image.width * 4, hasAlpha: image.hasAlpha, width: width, height: height,
                      engines: engines) { job in
                let job = job
                WorkerThread.concurrentPerform(iterations: bands, threads: cores) { band in
                    job.run(rows: height * band / bands ..< height * (band + 1) / bands)
                }
                return true
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels!, hasAlpha: image.hasAlpha,
                           resolution: resolution)
    }

    /// What every resize shares: the output allocated (on huge pages where the system has
    /// them), the weight tables seen through pointers, and `body` given the band that resamples
    /// `source` (rows `sourceStride` bytes apart) into the output. The pixels, or nil when
    /// `body` returns false (its rows did not all come).
    private static func resampled(_ horizontal: WeightTable, _ vertical: WeightTable, source: UnsafePointer<UInt8>,
                                  sourceWidth: Int, sourceStride: Int, hasAlpha: Bool, width: Int, height: Int,
                                  engines: Engines, _ body: (inout Band) -> Bool) -> [UInt8]? {
        var done = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, count in
            count = 0
            adviseHugePages(UnsafeMutableRawBufferPointer(output))
            horizontal.withTaps(fourfold: true) { h in
                vertical.withTaps { v in
                    var job = Band(source: source, sourceWidth: sourceWidth, sourceStride: sourceStride,
                                   horizontal: h, vertical: v, window: vertical.window, width: width,
                                   premultiplied: hasAlpha, output: output.baseAddress!, loops: engines.sampleLoops)
                    done = body(&job)
                }
            }
            if done { count = width * height * 4 }
        }
        return done ? pixels : nil
    }

    /// The weight tables of a resize from `sourceWidth` x `sourceHeight` to `width` x `height`.
    private static func tables(_ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int,
                               _ filter: ResamplingFilter) -> (WeightTable, WeightTable) {
        (WeightTable(source: sourceWidth, destination: width, filter: filter),
         WeightTable(source: sourceHeight, destination: height, filter: filter))
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
                       hasAlpha: Bool, width: Int, height: Int, filter: ResamplingFilter, engines: Engines,
                       decode: () -> Bool) -> [UInt8]? {
        precondition(width > 0 && height > 0 && sourceWidth > 0 && sourceHeight > 0)
        let (horizontal, vertical) = tables(sourceWidth, sourceHeight, width, height, filter)
        return resampled(horizontal, vertical, source: source, sourceWidth: sourceWidth, sourceStride: sourceWidth * 4,
                         hasAlpha: hasAlpha, width: width, height: height, engines: engines) { job in
            job.ready = ready
            let job = job, claims = RowClaims(height: height)
            // Without a thread, the rows are all resampled from the bottom once decoded.
            let follower = try? WorkerThread { [job] in
                WorkerThread.lowerCallingThreadPriority()
                job.run { claims.fromTop() }
            }
            let decoded = decode()
            ready.finish(rows: decoded ? sourceHeight : nil)
            if decoded {
                // Bands of 32 rows: each starts its ring afresh, a few source rows again.
                while let rows = claims.fromBottom(32) { job.run(rows: rows) }
            }
            follower?.join()
            return decoded
        }
    }

    /// `resize` of straight RGBA8 pixels that are not a RasterImage (a library's own buffer,
    /// rows `stride` bytes apart), as `resize` computes it: the same pixels, on every core.
    static func resize(source: UnsafePointer<UInt8>, stride: Int, sourceWidth: Int, sourceHeight: Int, hasAlpha: Bool,
                       width: Int, height: Int, filter: ResamplingFilter, threads: Int?, engines: Engines) -> [UInt8] {
        precondition(width > 0 && height > 0 && sourceWidth > 0 && sourceHeight > 0 && stride >= sourceWidth * 4)
        let (horizontal, vertical) = tables(sourceWidth, sourceHeight, width, height, filter)
        let cores = min(max(1, threads ?? processorCount), processorCount)
        let bands = max(1, min(cores, height, 64))
        return resampled(horizontal, vertical, source: source, sourceWidth: sourceWidth, sourceStride: stride,
                         hasAlpha: hasAlpha, width: width, height: height, engines: engines) { job in
            let job = job
            WorkerThread.concurrentPerform(iterations: bands, threads: cores) { band in
                job.run(rows: height * band / bands ..< height * (band + 1) / bands)
            }
            return true
        }!
    }

    /// `resize` of a picture whose rows come one at a time from a decoder that holds only a few
    /// of them (`row(y)`: each asked for once, from the top; nil when decoding fails): the
    /// decoded picture is never held whole, only a ring of filtered rows. Each output row is
    /// computed as `resize` computes it, on the calling thread.
    /// - Returns: the resized pixels, or nil when `row` failed.
    static func resize(rows row: @escaping (Int) -> UnsafePointer<UInt8>?, sourceWidth: Int, sourceHeight: Int,
                       hasAlpha: Bool, width: Int, height: Int, filter: ResamplingFilter,
                       engines: Engines) -> [UInt8]? {
        precondition(width > 0 && height > 0 && sourceWidth > 0 && sourceHeight > 0)
        let (horizontal, vertical) = tables(sourceWidth, sourceHeight, width, height, filter)
        // No source pointer: every row is fetched.
        return resampled(horizontal, vertical, source: UnsafePointer(bitPattern: 1)!, sourceWidth: sourceWidth,
                         sourceStride: 0, hasAlpha: hasAlpha, width: width, height: height, engines: engines) { job in
            var failed = false
            job.fetch = { y in
                let fetched = row(y)
                if fetched == nil { failed = true }
                return fetched
            }
            job.run(rows: 0..<height)
            return !failed
        }
    }

    /// Online processors (at least 1): the resampler's bands, and the command line's default
    /// number of batch workers.
    package static let processorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
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
/// `WorkerThread.concurrentPerform`) and each writes only its own output rows, hence `@unchecked Sendable`.
///
/// Pixels in flight are four Floats (R, G, B, A in 0...255, premultiplied when the picture
/// has alpha). The loops over them are in C (`ccodecs_sample_loops`), built for any x86-64 and,
/// as one of framed's engines (`Engines.avx2Rows`), for AVX2, with the same bits: Swift code is
/// built for the first only, and the AVX2 build of the loops takes 45 % less time (3000x2000 to
/// 1819x1213: 17.5 -> 9.3 ms).
private struct Band: @unchecked Sendable {
    let source: UnsafePointer<UInt8>
    let sourceWidth: Int
    /// Bytes from one source row to the next (`sourceWidth * 4` unless the rows are padded).
    var sourceStride: Int
    /// Source rows that come one at a time, each asked for once, in order (a decoder that holds
    /// only a strip of them): `source` is then unused. nil when the call fails.
    var fetch: ((Int) -> UnsafePointer<UInt8>?)? = nil
    let horizontal: Taps
    let vertical: Taps
    /// Rows in the ring of horizontally filtered rows.
    let window: Int
    let width: Int
    let premultiplied: Bool
    let output: UnsafeMutablePointer<UInt8>
    /// The loops: portable, or built for AVX2 (immutable C tables that live as long as the program).
    let loops: UnsafePointer<ccodecs_sample_loops>
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
        let rows = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: window)
        defer { ring.deallocate(); line.deallocate(); sum.deallocate(); rows.deallocate() }

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
                guard load(row: next, into: line) else { return }
                filterHorizontally(line, into: ring + (next % window) * rowFloats)
                next += 1
            }
            filterVertically(ring, row: y, first: first, count: count, rows: rows, into: sum)
            store(sum, into: output + y * rowFloats)
            guard let following = nextRow() else { return }
            y = following
        }
    }

    /// Source row `y` as Floats, premultiplied when the picture has alpha (`load_row`); false
    /// when `fetch` cannot give it.
    private func load(row y: Int, into line: UnsafeMutablePointer<Float>) -> Bool {
        let row: UnsafePointer<UInt8>
        if let fetch {
            guard let fetched = fetch(y) else { return false }
            row = fetched
        } else {
            row = source + y * sourceStride
        }
        if premultiplied {
            Band.unit.withUnsafeBufferPointer { loops.pointee.load_row(row, line, sourceWidth, $0.baseAddress) }
        } else {
            loops.pointee.load_row(row, line, sourceWidth, nil)
        }
        return true
    }

    /// a / 255 for every byte a (exactly 1 at 255).
    private static let unit: [Float] = (0...255).map { Float($0) / 255 }

    /// One source row (Floats) into one row of the ring (`filter_horizontally`: the even and the
    /// odd taps of a pixel summed apart, eight lanes at a time in the AVX2 build).
    private func filterHorizontally(_ line: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        loops.pointee.filter_horizontally(line, out, width, horizontal.starts, horizontal.counts, horizontal.weights,
                                          horizontal.stride)
    }

    /// Output row `y` from the ring's rows `first..<first + count` (`filter_vertically`);
    /// `rows` has room for a pointer per row of the ring.
    private func filterVertically(_ ring: UnsafePointer<Float>, row y: Int, first: Int, count: Int,
                                  rows: UnsafeMutablePointer<UnsafePointer<Float>?>,
                                  into sum: UnsafeMutablePointer<Float>) {
        let n = width * 4
        for k in 0..<count { rows[k] = ring + ((first + k) % window) * n }
        loops.pointee.filter_vertically(rows, vertical.weights + y * vertical.stride, Int32(count), sum, n)
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

    /// Redactions to apply to the rows before they are read, set before reading starts.
    var gate: RedactionGate?

    /// Waits until row `y` is ready to be read and returns how many rows are; nil when decoding
    /// failed. With a `gate`, a row is ready once the redactions that reach it are applied.
    func wait(beyond y: Int) -> Int? {
        guard let gate else { return decoded(beyond: y) }
        return gate.rows(beyond: y, decoded: self)
    }

    /// How many rows the decoder has stored now, without waiting; nil when decoding failed.
    func stored() -> Int? {
        let rows = ccodecs_rows_ready(counter)
        return rows == Self.abandoned ? nil : Int(rows)
    }

    /// Waits until the decoder has stored row `y` and returns how many rows it has; nil when
    /// decoding failed. Rows come every few microseconds, so this yields the core, then sleeps
    /// 50 µs at a time.
    func decoded(beyond y: Int) -> Int? {
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
