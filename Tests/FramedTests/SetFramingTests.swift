import Foundation
import Framed
import FramedTestSupport
import Testing

/// Sets in the library's words: `Framer.frame(_:scales:)` and `frame(_:set:)` give one framed
/// picture per member, in order, each the size its scale makes and the largest the same bytes as
/// framing at its scale alone; `variant(_:)` gives the preset's twin and keeps what was set.
struct SetFramingTests {
    @Test func oneFramedPicturePerScaleInOrder() throws {
        let jpeg = try FramerTests.jpeg(640, 400)
        var framer = Framer(preset: .docs)
        framer.style.width = .px(200)
        let set = try framer.frame(.bytes(jpeg), scales: [2, 1, 3])
        #expect(set.count == 3)
        let pixels = set.map(\.plan.canvasPixels)
        let one = try #require(pixels[1])
        #expect(pixels[0] == PixelSize(width: 2 * one.width, height: 2 * one.height))
        #expect(pixels[2] == PixelSize(width: 3 * one.width, height: 3 * one.height))
        // The largest is what framing at 3 alone makes, byte for byte.
        var alone = framer
        alone.output.scale = 3
        #expect(try alone.frame(.bytes(jpeg) as PictureSource).bytes == set[2].bytes)
        // Every member is decoded from the same decode: one shrink-on-load scale for all.
        #expect(Set(set.map { "\($0.report.scaleNumerator)/\($0.report.scaleDenominator)" }).count == 1)
    }

    @Test func vectorOutputsTakeOneScale() throws {
        var framer = Framer(preset: .docs)
        framer.output.format = .svg
        let jpeg = try FramerTests.jpeg(64, 40)
        do {
            _ = try framer.frame(.bytes(jpeg), scales: [1, 2])
            Issue.record("several scales in SVG")
        } catch {
            #expect(error.problem == .scalesNeedRaster(.svg))
        }
        // Two variants at one scale are two SVGs.
        let pair = try framer.frame(.bytes(jpeg),
                                    set: [SetMember(variant: .light, scale: 1), SetMember(variant: .dark, scale: 1)])
        #expect(pair.count == 2 && pair[0].bytes != pair[1].bytes)
    }

    @Test func theDarkTwinKeepsWhatWasSet() throws {
        var framer = Framer(preset: .docs)
        try framer.set("radius", "12px")
        let dark = try #require(framer.variant(.dark))
        #expect(dark.preset == .docsDark)
        #expect(dark.style.radius == .px(12), "set on top of the preset: kept")
        #expect(dark.style.borderColor == RGBAColor(red8: 0x30, green8: 0x36, blue8: 0x3d))
        #expect(dark.style.background == RGBAColor(red8: 0x16, green8: 0x1b, blue8: 0x22))
        #expect(dark.variant(.light)?.style == framer.style, "and back")
        #expect(Framer(preset: .classic).variant(.dark) == nil)
        #expect(Framer(preset: .classic).variant(.light) == Framer(preset: .classic))
        let jpeg = try FramerTests.jpeg(64, 40)
        do {
            _ = try Framer(preset: .print).frame(.bytes(jpeg), set: [SetMember(variant: .dark, scale: 1)])
            Issue.record("print has no dark twin")
        } catch {
            #expect(error.problem == .noVariant(.print, .dark))
        }
    }

    @Test func setMembersAreEachVariantAtEachScale() throws {
        var framer = Framer(preset: .docs)
        try framer.set("scale", "1, 2")
        try framer.set("variant", "light,dark")
        #expect(framer.output.setMembers == [SetMember(variant: .light, scale: 1), SetMember(variant: .light, scale: 2),
                                              SetMember(variant: .dark, scale: 1), SetMember(variant: .dark, scale: 2)])
        try framer.set("scale", "2")
        #expect(framer.output.scale == 2 && framer.output.scales.isEmpty)
    }

    /// One member of a set is the settings in its variant at its scale, and no set of its own.
    @Test func aMemberIsItsVariantAtItsScale() throws {
        var framer = Framer(preset: .docs)
        try framer.set("scale", "1, 3")
        try framer.set("variant", "light,dark")
        try framer.set("radius", "12px")
        let member = try #require(framer.member(SetMember(variant: .dark, scale: 3)))
        #expect(member.preset == .docsDark && member.style.radius == .px(12))
        #expect(member.style.background == RGBAColor(red8: 0x16, green8: 0x1b, blue8: 0x22))
        #expect(member.output.scale == 3 && member.output.scales.isEmpty && member.output.variants.isEmpty)
        #expect(member.output.setMembers == [SetMember(scale: 3)])
        let plain = try #require(framer.member(SetMember(scale: 1)))
        #expect(plain.preset == .docs && plain.style == framer.style && plain.output.setMembers == [SetMember(scale: 1)])
        #expect(Framer(preset: .print).member(SetMember(variant: .dark, scale: 1)) == nil, "print has no dark twin")
    }
}
