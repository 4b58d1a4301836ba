import Foundation
import Framed
import FramedTestSupport
import Testing

/// Captions and the docs look from the library (issue 31, items 1 and 3): the plan gives the
/// caption's colour and contrast, the report the warning, and a set's dark member reads on the
/// dark page.
struct CaptionLookTests {
    @Test func thePlanAndTheReportSayHowTheCaptionReads() throws {
        let jpeg = try FramerTests.jpeg(160, 100)
        var framer = Framer(preset: .docs)
        try framer.set("caption", "Figure 1")
        // docs: under the frame on a transparent canvas, on the white page it is for.
        let light = try #require(try framer.plan(.bytes(jpeg)).layout.caption)
        #expect(light.color == RGBAColor(red8: 0x33, green8: 0x33, blue8: 0x33))
        #expect(abs(light.contrast - WCAG.ratio(1, WCAG.grey(0x33))) < 1e-6)
        // Its dark member, on GitHub's #0d1117.
        let members = try framer.frame(.bytes(jpeg), set: [SetMember(variant: .light, scale: 1), SetMember(variant: .dark, scale: 1)])
        let dark = try #require(members[1].plan.layout.caption)
        #expect(dark.color == RGBAColor(red8: 0xee, green8: 0xee, blue8: 0xee))
        #expect(abs(dark.contrast - WCAG.ratio(WCAG.grey(0xee), WCAG.luminance(0x0d, 0x11, 0x17))) < 1e-6)
        #expect(members.allSatisfy { $0.report.warnings.isEmpty })
        // The two are the same size, so that a page can swap them.
        #expect(members[0].plan.canvasPixels == members[1].plan.canvasPixels)
        // A colour given that hardly shows: the report says so, with its colour and ratio.
        try framer.set("caption-color", "#eeeeee")
        let report = try framer.frame(.bytes(jpeg) as PictureSource).report
        let expected = WCAG.ratio(1, WCAG.grey(0xee))
        #expect(report.warnings.contains { warning in
            guard case let .captionContrast(color, contrast, automatic) = warning else { return false }
            return color == RGBAColor(red8: 0xee, green8: 0xee, blue8: 0xee) && abs(contrast - expected) < 1e-6 && !automatic
        }, "\(report.warnings)")
    }
}
