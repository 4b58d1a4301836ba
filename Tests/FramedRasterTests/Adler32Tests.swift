import CCodecs
import Testing

/// `ccodecs_adler32` (SSE2, for the zlib trailer of framed's deflated rows) against Adler-32
/// written out byte by byte: every length around the 16-byte steps and the 5552-byte reduction,
/// from any starting value, on bytes of 255 (the largest sums) and random ones.
@Suite struct Adler32Tests {
    static func reference(_ start: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var s1 = start & 0xFFFF, s2 = start >> 16
        for byte in bytes {
            s1 = (s1 + UInt32(byte)) % 65521
            s2 = (s2 + s1) % 65521
        }
        return s2 << 16 | s1
    }

    @Test func sumsAreAdler32() {
        var state: UInt32 = 5
        let random = (0..<40_000).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let full = [UInt8](repeating: 255, count: 40_000)
        for bytes in [random, full] {
            for length in Array(0..<70) + [5551, 5552, 5553, 11_104, 11_105, 16 * 347, 16 * 347 + 1, 39_999] {
                for start: UInt32 in [1, 0xFFF0_FFF0, 65520 << 16 | 65520] {
                    let got = bytes.withUnsafeBufferPointer { ccodecs_adler32(start, $0.baseAddress, length) }
                    #expect(got == Self.reference(start, bytes[..<length]), "length \(length), start \(start)")
                }
            }
        }
    }
}
