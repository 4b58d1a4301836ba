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

/// The library's side of issue 31: a set's looks share one canvas, the plans of a set say which
/// member lacks pixels, and the new settings take their values by name.
struct FigureSettingsTests {
    @Test func theLooksOfASetShareOneCanvasAndPlansNameTheScaleThatLacksPixels() throws {
        let jpeg = try FramerTests.jpeg(640, 400)
        var framer = Framer(preset: .docs)
        framer.style.width = .px(300)
        let members = [SetMember(variant: .light, scale: 1), SetMember(variant: .dark, scale: 1),
                       SetMember(variant: .light, scale: 3), SetMember(variant: .dark, scale: 3)]
        let set = try framer.frame(.bytes(jpeg), set: members)
        #expect(Set(set.map(\.plan.layout.canvas)).count == 1, "one CSS size")
        #expect(set[0].plan.canvasPixels == set[1].plan.canvasPixels && set[2].plan.canvasPixels == set[3].plan.canvasPixels)
        #expect(set[0].plan.layout.frame == set[1].plan.layout.frame, "the frame at one place")
        // 300 px wide at 3x needs 900 px (less the border): the picture has 640.
        let plans = try framer.plan(.bytes(jpeg), set: members)
        #expect(plans.map { $0.warnings.count } == [0, 0, 1, 1])
        guard case let .fewerPixels(scale, needed, available)? = plans[2].warnings.first else {
            Issue.record("\(plans[2].warnings)"); return
        }
        #expect(scale == 3 && needed.width > 640 && available == PixelSize(width: 640, height: 400))
        #expect(set[2].report.warnings == plans[2].warnings, "the report carries it")
        // A member framed alone keeps the pair's canvas.
        let dark = try #require(framer.member(SetMember(variant: .dark, scale: 1)))
        #expect(try dark.plan(.bytes(jpeg) as PictureSource).layout.canvas == set[1].plan.layout.canvas)
    }

    @Test func theNewSettingsTakeTheirWordsAndRoundTrip() throws {
        var framer = Framer(preset: .docs)
        try framer.set("canvas-size", "1200x630")
        try framer.set("canvas-color", "auto")
        try framer.set("margin", "48px")
        #expect(framer.style.canvasSize == LengthSize(width: .px(1200), height: .px(630)) && framer.style.canvasAuto)
        try framer.set("aspect", "16:9")
        #expect(framer.style.canvasSize == nil, "aspect replaces canvas-size")
        try framer.set("canvas-size", "1600x900")
        #expect(framer.style.aspect == nil, "and the other way round")
        let printed = framer.configuration
        #expect(printed.contains("\"canvas-color\": \"auto\"") && printed.contains("\"canvas-size\": \"1600pxx900px\""))
        #expect(try Framer(configuration: Array(printed.utf8)) == framer)
        try framer.set("backdrop", "#123")
        #expect(!framer.style.canvasAuto && framer.style.canvasColor == RGBAColor(red8: 0x11, green8: 0x22, blue8: 0x33))
        try framer.set("canvas-image", "wall.jpg")
        try framer.set("canvas-blur", "2mm")
        #expect(framer.style.canvasImage == "wall.jpg" && framer.style.canvasBlur == .mm(2))
        for (name, value) in [("canvas-blur", "-1px"), ("canvas-size", "0x100"), ("canvas-image", "")] {
            #expect(throws: SettingError.self, "\(name) \(value)") { try framer.set(name, value) }
        }
        // A card from the library: exactly its size, with a gradient from the picture's edges.
        var card = Framer(preset: .docs)
        card.style.canvasSize = LengthSize(width: .px(400), height: .px(300))
        card.style.canvasAuto = true
        let framed = try card.frame(try FramerTests.jpeg(640, 400))
        #expect(framed.plan.canvasPixels == PixelSize(width: 400, height: 300))
        #expect(framed.plan.style.canvasGradient?.description.hasPrefix("linear-gradient(135deg, #") == true)
    }
}
