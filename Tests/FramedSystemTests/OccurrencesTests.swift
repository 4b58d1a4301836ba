import FramedSystem
import Testing

/// `firstOccurrence(of:)` and its kin, which stand in for the standard library's string searches;
/// each expected range is counted here by hand.
@Suite struct OccurrencesTests {
    @Test func theFirstPlaceWhereTheWholeNeedleStands() {
        let bytes = Array("xx/DCTDecode/Interpolate true".utf8)
        #expect(bytes.firstOccurrence(of: Array("/DCTDecode".utf8)) == 2..<12)
        #expect(bytes.firstOccurrence(of: Array("true".utf8)) == 25..<29, "at the very end")
        #expect(bytes.firstOccurrence(of: Array("/Decode".utf8)) == nil)
        #expect(bytes.firstOccurrence(of: [UInt8]()) == nil, "an empty needle is found nowhere")
        #expect([UInt8]().firstOccurrence(of: Array("a".utf8)) == nil)
        #expect(Array("tru".utf8).firstOccurrence(of: Array("true".utf8)) == nil, "cut short at the end")
    }

    /// A start that fails part-way may hide the true one inside the part it matched.
    @Test func aPartialMatchDoesNotHideAnOverlappingOne() {
        #expect(Array("aaab".utf8).firstOccurrence(of: Array("aab".utf8)) == 1..<4)
        #expect(Array("ababac".utf8).firstOccurrence(of: Array("abac".utf8)) == 2..<6)
        let text = "<</ID [<a>] /ID"
        let range = text.firstOccurrence(of: "/ID")
        #expect(range.map { text.distance(from: text.startIndex, to: $0.lowerBound) } == 2)
        #expect(text.containsOccurrence(of: "[<a>]") && !text.containsOccurrence(of: "/Encrypt"))
        let slice = Array("abcabc".utf8)[2...]
        #expect(slice.firstOccurrence(of: Array("ab".utf8)) == 3..<5, "indices are the slice's own")
    }

    @Test func everyOccurrenceIsReplacedFromTheLeft() {
        #expect("{name}-{name}.png".replacingOccurrences(of: "{name}", with: "shot") == "shot-shot.png")
        #expect("aaa".replacingOccurrences(of: "aa", with: "b") == "ba", "from the left, not overlapping")
        #expect("a-b".replacingOccurrences(of: "-", with: "\\-") == "a\\-b")
        #expect("none here".replacingOccurrences(of: "{ext}", with: "png") == "none here")
        #expect("abc".replacingOccurrences(of: "", with: "x") == "abc", "an empty target: unchanged")
        #expect("".replacingOccurrences(of: "a", with: "b") == "")
    }
}
