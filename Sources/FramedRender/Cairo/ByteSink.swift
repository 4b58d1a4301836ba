internal import CCairo
import FramedSystem

/// Collects the bytes that Cairo's stream callbacks write.
///
/// Cairo takes a C function pointer plus a `void *closure`; the sink travels as the closure
/// through `Unmanaged` and must stay alive until the surface is finished.
final class ByteSink {
    private(set) var bytes: [UInt8] = []

    /// The `cairo_write_func_t` that appends to the sink passed as closure. The buffer grows by
    /// doubling, and asks for the memory first (`Memory.available`): out of memory, Cairo gets
    /// `CAIRO_STATUS_NO_MEMORY` and the render fails with an error, where a growing array would
    /// end the process.
    static let writeFunction: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        let needed = sink.bytes.count + Int(length)
        if needed > sink.bytes.capacity {
            let capacity = max(needed, 2 * sink.bytes.capacity)
            guard Memory.available(capacity) else { return CAIRO_STATUS_NO_MEMORY }
            sink.bytes.reserveCapacity(capacity)
        }
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    /// The closure pointer to hand to Cairo; valid while `self` is alive.
    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}
