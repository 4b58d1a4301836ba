internal import CCairo

/// Collects the bytes that Cairo's stream callbacks write.
///
/// Cairo takes a C function pointer plus a `void *closure`; the sink travels as the closure
/// through `Unmanaged` and must stay alive until the surface is finished.
final class ByteSink {
    private(set) var bytes: [UInt8] = []

    /// The `cairo_write_func_t` that appends to the sink passed as closure.
    static let writeFunction: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    /// The closure pointer to hand to Cairo; valid while `self` is alive.
    var closure: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}
