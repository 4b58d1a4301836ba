import FramedSystem
import Testing

/// The `memchr`-based searches and the run copy that the SVG rewrites use; each expected index is
/// counted here by hand.
@Suite struct ByteSearchTests {
    let bytes = Array("ab\"cd#ef\"gh".utf8)  // a b " c d # e f " g h: quotes at 2 and 8, # at 5

    @Test func aByteIsFoundOnlyInsideTheRange() {
        #expect(bytes.firstIndex(of: UInt8(ascii: "\""), in: 0..<11) == 2)
        #expect(bytes.firstIndex(of: UInt8(ascii: "\""), in: 3..<11) == 8, "after the range's start")
        #expect(bytes.firstIndex(of: UInt8(ascii: "\""), in: 3..<8) == nil, "not at the range's end")
        #expect(bytes.firstIndex(of: UInt8(ascii: "\""), in: 2..<3) == 2, "at the range's start")
        #expect(bytes.firstIndex(of: UInt8(ascii: "h"), in: 0..<11) == 10, "the last byte")
        #expect(bytes.firstIndex(of: UInt8(ascii: "a"), in: 5..<5) == nil, "an empty range")
        #expect(bytes.firstIndex(of: 0, in: 0..<11) == nil)
    }

    @Test func aPatternIsFoundWholeInsideTheRange() {
        let text = Array("rgb rgb(1%) xrgb(".utf8)  // "rgb(" at 4 and 13
        #expect(text.firstRange(of: Array("rgb(".utf8), in: 0..<17) == 4..<8)
        #expect(text.firstRange(of: Array("rgb(".utf8), in: 5..<17) == 13..<17, "ending at the last byte")
        #expect(text.firstRange(of: Array("rgb(".utf8), in: 5..<16) == nil, "cut short by the range's end")
        #expect(text.firstRange(of: Array("rgb(".utf8), in: 4..<7) == nil, "a range shorter than the pattern")
        #expect(Array("aaab".utf8).firstRange(of: Array("aab".utf8), in: 0..<4) == 1..<4, "after a partial match")
        #expect(text.firstRange(of: [], in: 0..<17) == nil, "an empty pattern is found nowhere")
        #expect([UInt8]().firstRange(of: Array("a".utf8), in: 0..<0) == nil)
    }

    @Test func bytesAtAPlaceAreComparedWithinTheArray() {
        #expect(bytes.hasBytes(Array("cd#".utf8), at: 3))
        #expect(!bytes.hasBytes(Array("cd#".utf8), at: 4))
        #expect(bytes.hasBytes(Array("gh".utf8), at: 9), "ending at the last byte")
        #expect(!bytes.hasBytes(Array("gh!".utf8), at: 9), "running past the end")
        #expect(!bytes.hasBytes(Array("a".utf8), at: -1), "before the start")
        #expect(bytes.hasBytes([], at: 11), "nothing, at the end")
    }

    @Test func aRunIsAppendedWhole() {
        var out = Array("<".utf8)
        out.append(bytesOf: bytes, in: 3..<8)
        #expect(out == Array("<cd#ef".utf8))
        out.append(bytesOf: bytes, in: 8..<8)
        #expect(out == Array("<cd#ef".utf8), "an empty run adds nothing")
        var big = [UInt8]()
        let large = [UInt8](repeating: 7, count: 100_000) + [9]
        for start in stride(from: 0, to: large.count, by: 10_001) { big.append(bytesOf: large, in: start..<min(start + 10_001, large.count)) }
        #expect(big == large, "runs appended in turn make the whole")
    }
}
