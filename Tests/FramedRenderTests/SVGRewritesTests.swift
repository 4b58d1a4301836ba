@testable import FramedRender
import FramedRaster
import Testing

/// The rewrites every SVG passes through after Cairo (`StableSVGIdentifiers`, `SVGHexColors`),
/// on hand-made documents whose expected bytes are written out here. A run of base64 long enough
/// to need many copies stands where a picture would.
struct SVGRewritesTests {
    static let data = String(repeating: "QUJDRA+/", count: 40_000)  // base64: no quote, #, < or (

    @Test func idsAreNumberedInTheOrderTheyFirstAppear() throws {
        let svg = "<?xml version=\"1.0\"?>\n<svg><use xlink:href=\"#surface7\"/><g id=\"surface7\"/>"
            + "<image id=\"image12\" href=\"data:\(Self.data)\"/><g id=\"surface3\"/><use href=\"#image12\"/>"
            + "<g id=\"surfaceX\"/><text>surface9 \"surface</text><use href=\"#surface3\"/></svg>"
        let out = try #require(StableSVGIdentifiers.rewrite(Array(svg.utf8), marking: true))
        let expected = "<?xml version=\"1.0\"?>\n<!-- framed -->\n<svg><use xlink:href=\"#surface1\"/><g id=\"surface1\"/>"
            + "<image id=\"image1\" href=\"data:\(Self.data)\"/><g id=\"surface2\"/><use href=\"#image1\"/>"
            + "<g id=\"surfaceX\"/><text>surface9 \"surface</text><use href=\"#surface2\"/></svg>"
        #expect(String(decoding: out, as: UTF8.self) == expected)
        #expect(OutputMark.svgComment == "<!-- framed -->", "the mark this test writes out")
    }

    @Test func withoutMarkingOnlyIdsChange() throws {
        let svg = "<svg>\n<g id=\"surface40\"/>\n<use href=\"#surface40\"/>\n</svg>\n"
        let out = try #require(StableSVGIdentifiers.rewrite(Array(svg.utf8)))
        #expect(String(decoding: out, as: UTF8.self) == "<svg>\n<g id=\"surface1\"/>\n<use href=\"#surface1\"/>\n</svg>\n")
        let noLine = try #require(StableSVGIdentifiers.rewrite(Array("<svg id=\"surface5\"/>".utf8), marking: true))
        #expect(String(decoding: noLine, as: UTF8.self) == "<svg id=\"surface1\"/>", "no first line, no mark")
    }

    /// 41.568627 % of 255 is 106.0 (6a), 6.666667 % is 17.0 (11), 79.607843 % is 203.0 (cb);
    /// 100 % is ff and 0 % is 00.
    @Test func percentColoursBecomeHex() throws {
        let svg = "<svg><path style=\"fill:rgb(41.568627%,6.666667%,79.607843%);\"/>"
            + "<image href=\"data:\(Self.data)\"/>(rgb(100%,0%,0%)"
            + "<path fill=\"rgb(1%,2%)\" stroke=\"rgb(1%,2%,3%\"/>rgb(</svg>"
        let out = try #require(SVGHexColors.rewrite(Array(svg.utf8)))
        let expected = "<svg><path style=\"fill:#6a11cb;\"/>"
            + "<image href=\"data:\(Self.data)\"/>(#ff0000"
            + "<path fill=\"rgb(1%,2%)\" stroke=\"rgb(1%,2%,3%\"/>rgb(</svg>"
        #expect(String(decoding: out, as: UTF8.self) == expected)
    }
}
