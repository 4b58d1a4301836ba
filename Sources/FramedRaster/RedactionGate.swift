internal import Glibc

/// Redactions applied to a picture's rows between the decoder that stores them and the resize
/// that reads them as they come (`Resampler.resize(following:)`), so that a redacted picture is
/// resized while it decodes, as any other is, and the resize still reads no pixel the
/// redactions hide.
///
/// Before a row is handed out, every region that starts at or above it is applied, and with it
/// every region listed before it that it overlaps (and theirs in turn): overlapping regions are
/// applied in the list's order, as `RasterImage.redact` applies them, while one far down the
/// picture does not hold back one near the top. A region is applied once the decoder has stored
/// its rows; the count handed out stops at the top of the first region not yet applied. The
/// decoder writes each row once, below the rows it has stored, so it never meets a redaction's
/// writes.
///
/// Either resizing thread may apply a region: the one that asks first. The mutex (a pthread
/// mutex, whose waits ThreadSanitizer sees) is held to choose and to apply one region at a time,
/// never while waiting for the decoder, so the calling thread is not kept waiting behind the
/// follower's lower priority for longer than one region.
final class RedactionGate: @unchecked Sendable {
    private let redactions: [Redaction]
    /// Each region's columns and rows, clipped to the picture (`redactions` without empty
    /// regions).
    private let columns: [Range<Int>], rows: [Range<Int>]
    private let pixels: UnsafeMutablePointer<UInt8>
    private let width: Int, height: Int, hasAlpha: Bool
    /// Which regions are applied; guarded by `mutex`.
    private var done: [Bool]
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// `redactions` in the pixels of `pixels`, `width` x `height` RGBA being decoded.
    init(_ redactions: [Redaction], pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, hasAlpha: Bool) {
        let kept = redactions.map { ($0, $0.clipped(width: width, height: height)) }
            .filter { !$0.1.x.isEmpty && !$0.1.y.isEmpty }
        self.redactions = kept.map(\.0)
        columns = kept.map(\.1.x)
        rows = kept.map(\.1.y)
        self.pixels = pixels
        (self.width, self.height, self.hasAlpha) = (width, height, hasAlpha)
        done = Array(repeating: false, count: kept.count)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Whether regions `i` and `j` share a pixel.
    private func overlap(_ i: Int, _ j: Int) -> Bool { columns[i].overlaps(columns[j]) && rows[i].overlaps(rows[j]) }

    /// The first region not applied that must be before row `y` is read: among the regions
    /// starting at or above `y` and those listed before one of them that they overlap (and so
    /// on), the first in the list; nil when none is left. Called with `mutex` held.
    private func next(before y: Int) -> Int? {
        func waiting(_ k: Int) -> Bool { !done[k] && rows[k].lowerBound <= y }
        // Most rows are asked for with every region above them applied, or none begun.
        guard rows.indices.contains(where: waiting) else { return nil }
        var needed = Set(rows.indices.filter(waiting))
        var added = needed
        while !added.isEmpty {
            var more = Set<Int>()
            for k in added {
                for j in 0..<k where !done[j] && !needed.contains(j) && overlap(j, k) { more.insert(j) }
            }
            needed.formUnion(more)
            added = more
        }
        return needed.min()
    }

    /// How many rows from the top may be read, at least `y + 1` (waiting on `decoded` for them,
    /// and for the rows of the regions applied first); nil when decoding failed.
    func rows(beyond y: Int, decoded: RowsReady) -> Int? {
        while true {
            pthread_mutex_lock(mutex)
            guard let k = next(before: y) else {
                let nextTop = rows.indices.filter { !done[$0] }.map { rows[$0].lowerBound }.min() ?? Int.max
                pthread_mutex_unlock(mutex)
                // Regions applied meanwhile only let more rows through: the cap stays safe.
                guard let stored = decoded.decoded(beyond: y) else { return nil }
                return min(stored, nextTop)
            }
            guard let stored = decoded.stored() else {
                pthread_mutex_unlock(mutex)
                return nil
            }
            if stored >= rows[k].upperBound {
                RasterImage.redact(pixels, width: width, height: height, hasAlpha: hasAlpha, redactions[k])
                done[k] = true
                pthread_mutex_unlock(mutex)
            } else {
                pthread_mutex_unlock(mutex)
                guard decoded.decoded(beyond: rows[k].upperBound - 1) != nil else { return nil }
            }
        }
    }
}
