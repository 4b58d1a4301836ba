internal import Glibc

extension String {
    /// Numbers as C's `printf` writes them (`"%.6f"`, `"%.3g"`, `"%02d"`), by the C library's own
    /// `vsnprintf`: the same digits and rounding as Foundation's `String(format:)`, which hands
    /// numbers to the same function, without linking Foundation. The C locale applies (a Swift
    /// program never calls `setlocale`), so the decimal point is always a full stop.
    ///
    /// For numbers only: a Swift `String` passed for `%s` would be read as a pointer.
    package init(printf format: String, _ arguments: any CVarArg...) {
        var capacity = 64
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            // A va_list is spent by one call, so a longer text is formatted again from the start.
            let length = Int(withVaList(arguments) { list in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) }
            })
            guard length >= 0 else { self = ""; return }  // an invalid format
            if length < capacity {
                self = String(decoding: buffer[..<length].lazy.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            capacity = length + 1
        }
    }
}
