internal import Glibc

/// Redactions applied to a picture's rows between the decoder that stores them and the resize
/// that reads them as they come (`Resampler.resize(following:)`), so that a redacted picture is
/// resized while it decodes, as any other is, and the resize still reads no pixel the
/// redactions hide.
///
/// Before a row is handed out, every redaction up to the last one in the list whose region
/// starts at or above it is applied, in the list's order (regions may overlap), once the
/// decoder has stored all of their rows; the count handed out stops at the top of the first
/// region not yet applied. The decoder writes each row once, below the rows it has stored,
/// so it never meets a redaction's writes. Both resizing threads go through the one mutex (a
/// pthread mutex, whose waits ThreadSanitizer sees).
final class RedactionGate: @unchecked Sendable {
    private let redactions: [Redaction]
    private let pixels: UnsafeMutablePointer<UInt8>
    private let width: Int, height: Int, hasAlpha: Bool
    /// `redactions[..<applied]` are applied; guarded by `mutex`.
    private var applied = 0
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// `redactions` in the pixels of `pixels`, `width` x `height` RGBA being decoded.
    init(_ redactions: [Redaction], pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, hasAlpha: Bool) {
        self.redactions = redactions
        self.pixels = pixels
        (self.width, self.height, self.hasAlpha) = (width, height, hasAlpha)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// The rows of `redaction`'s region inside the picture; empty when it has none.
    private func rows(of redaction: Redaction) -> Range<Int> {
        let x0 = max(0, redaction.box.x), x1 = min(width, redaction.box.x + redaction.box.width)
        let y0 = max(0, redaction.box.y), y1 = min(height, redaction.box.y + redaction.box.height)
        return x1 > x0 && y1 > y0 ? y0..<y1 : height..<height
    }

    /// How many rows from the top may be read, at least `y + 1` (waiting on `decoded` for them,
    /// and for the rows of the redactions applied first); nil when decoding failed.
    func rows(beyond y: Int, decoded: RowsReady) -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let last = redactions.indices.last(where: { $0 >= applied && rows(of: redactions[$0]).lowerBound <= y }) {
            let bottom = redactions[applied...last].map { rows(of: $0).upperBound }.max() ?? 0
            if bottom > 0 {
                guard decoded.decoded(beyond: bottom - 1) != nil else { return nil }
            }
            for redaction in redactions[applied...last] {
                RasterImage.redact(pixels, width: width, height: height, hasAlpha: hasAlpha, redaction)
            }
            applied = last + 1
        }
        guard let stored = decoded.decoded(beyond: y) else { return nil }
        let nextTop = redactions[applied...].map { rows(of: $0).lowerBound }.min() ?? Int.max
        return min(stored, nextTop)
    }
}
