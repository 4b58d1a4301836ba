import FramedTestSupport
import Testing

/// `difference`, which the tests use instead of `==` on long collections.
@Suite struct DifferenceTests {
    @Test func saysWhereTwoCollectionsFirstDiffer() {
        #expect(difference([UInt8](), [UInt8]()) == nil)
        #expect(difference([1, 2, 3], [1, 2, 3]) == nil)
        #expect(difference([1, 2, 3], [1, 5, 3]) == "3 and 3 elements, first different at 1: 2 and 5")
        #expect(difference([1, 2], [1, 2, 3]) == "2 and 3 elements, the same up to 2")
        // Different collection types with the same elements: an array slice against an array.
        #expect(difference([9, 1, 2][1...], [1, 2]) == nil)
    }
}
