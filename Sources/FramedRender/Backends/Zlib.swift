internal import CCodecs

/// zlib streams (RFC 1950) for PDF's FlateDecode, made and read by zlib itself
/// (`ccodecs_deflate`, `ccodecs_inflate`; libpng links zlib anyway). A picture's rows go through
/// `FlateRows` instead.
enum Zlib {
    /// `data` compressed at zlib `level` (default 9: the PDF object stream is small and written
    /// once), or nil when zlib cannot (out of memory).
    static func compress(_ data: [UInt8], level: Int32 = 9) -> [UInt8]? {
        bytes { out, message in
            data.withUnsafeBufferPointer { ccodecs_deflate($0.baseAddress, $0.count, level, &out, message) }
        }
    }

    /// A zlib stream inflated, or nil when it is corrupt, inflates to more than `limit` bytes,
    /// or zlib is out of memory.
    static func decompress(_ data: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        bytes { out, message in
            data.withUnsafeBufferPointer { ccodecs_inflate($0.baseAddress, $0.count, limit, &out, message) }
        }
    }

    /// The bytes a `ccodecs` call leaves in its buffer, copied out (the buffer freed), or nil
    /// when it failed.
    private static func bytes(_ call: (inout ccodecs_buffer, UnsafeMutablePointer<CChar>) -> Int32) -> [UInt8]? {
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CCODECS_MESSAGE_SIZE)) { message in
            call(&out, message.baseAddress!)
        }
        guard status == CCODECS_OK else { return nil }
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }
}
