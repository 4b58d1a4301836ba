/// Where a JPEG's data ends: just after its EOI marker. A file may go on past it (a phone's
/// "motion photo" appends its video; some tools append thumbnails or padding): the bytes after
/// EOI are no part of the picture, and a JPEG embedded byte for byte stops there.
enum JPEGExtent {
    /// The offset just past the EOI marker that ends the JPEG at the start of `input`, found by
    /// walking its markers: each segment skipped by its length, each scan's entropy-coded data
    /// up to the next marker that is not a restart or a stuffed 0xFF. The whole input when no
    /// EOI is found (a file cut short is passed on as it is). Reads the file a window at a time.
    static func end(of input: borrowing PictureInput) throws(RasterError) -> Int {
        var reader = Reader(count: input.count)
        var offset = 2  // past SOI
        while true {
            // The next marker: 0xFF, any number of fill bytes 0xFF, then its code.
            guard let first = try reader.byte(at: offset, in: input) else { return input.count }
            guard first == 0xFF else { offset += 1; continue }
            var at = offset + 1
            var code = try reader.byte(at: at, in: input)
            while code == 0xFF {
                at += 1
                code = try reader.byte(at: at, in: input)
            }
            guard let marker = code else { return input.count }
            switch marker {
            case 0xD9:
                return at + 1
            case 0x00, 0x01, 0xD0...0xD7:
                offset = at + 1
            default:
                guard let high = try reader.byte(at: at + 1, in: input), let low = try reader.byte(at: at + 2, in: input) else {
                    return input.count
                }
                offset = at + 1 + (Int(high) << 8 | Int(low))
                if marker == 0xDA { offset = try endOfScan(from: offset, reader: &reader, input: input) ?? input.count }
            }
        }
    }

    /// The offset of the marker that ends a scan's entropy-coded data starting at `offset`: the
    /// first 0xFF followed by a byte that is neither 0x00 (a stuffed 0xFF) nor a restart marker
    /// (RST0-RST7). Nil when the input ends first.
    private static func endOfScan(from offset: Int, reader: inout Reader, input: borrowing PictureInput) throws(RasterError) -> Int? {
        var at = offset
        while let found = try reader.next(0xFF, from: at, in: input) {
            if let next = try reader.byte(at: found + 1, in: input), next != 0x00, !(0xD0...0xD7).contains(next), next != 0xFF {
                return found
            }
            at = found + 1
        }
        return nil
    }

    /// Bytes of the input read 64 KB at a time, the window kept between calls.
    private struct Reader {
        var count: Int
        var start = 0
        var window: [UInt8] = []

        /// The byte at `offset`, nil past the end.
        mutating func byte(at offset: Int, in input: borrowing PictureInput) throws(RasterError) -> UInt8? {
            guard offset < count, offset >= 0 else { return nil }
            if offset < start || offset >= start + window.count {
                start = offset
                window = try input.bytes(from: offset, count: min(1 << 16, count - offset))
                guard !window.isEmpty else { return nil }
            }
            return window[offset - start]
        }

        /// The offset of the first `value` at or after `offset`, nil when there is none.
        mutating func next(_ value: UInt8, from offset: Int, in input: borrowing PictureInput) throws(RasterError) -> Int? {
            var at = offset
            while try byte(at: at, in: input) != nil {
                if let found = window[(at - start)...].firstIndex(of: value) { return start + found }
                at = start + window.count
            }
            return nil
        }
    }
}
