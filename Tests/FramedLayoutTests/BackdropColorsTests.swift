import Foundation
import Testing
@testable import FramedLayout

/// `--canvas-color auto`'s colour science, against the test's own OKLab: Björn Ottosson's
/// published matrices (linear sRGB to LMS, cube root, LMS to Lab) and the sRGB curve
/// (IEC 61966-2-1) written out here, and the published OKLab values of sRGB's primaries.
struct BackdropColorsTests {
    /// OKLab (L, a, b) of an sRGB colour given as 0...255 components.
    static func oklab(_ r: Double, _ g: Double, _ b: Double) -> (l: Double, a: Double, b: Double) {
        func linear(_ c: Double) -> Double {
            let v = c / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let l = cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb)
        let m = cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb)
        let s = cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    static func lch(_ c: RGBAColor) -> (l: Double, c: Double, h: Double) {
        let lab = oklab(c.red * 255, c.green * 255, c.blue * 255)
        var h = atan2(lab.b, lab.a) * 180 / .pi
        if h < 0 { h += 360 }
        return (lab.l, (lab.a * lab.a + lab.b * lab.b).squareRoot(), h)
    }

    static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    /// A shadow's lightness contrast over a colour, composited in sRGB's encoding.
    static func contrast(black alpha: Double, over c: RGBAColor) -> Double {
        let mixed = (c.red * (1 - alpha), c.green * (1 - alpha), c.blue * (1 - alpha))
        return abs(lch(c).l - oklab(mixed.0 * 255, mixed.1 * 255, mixed.2 * 255).l)
    }

    static func samples(_ colours: [(UInt8, UInt8, UInt8, Int)]) -> [UInt8] {
        colours.flatMap { c in (0..<c.3).flatMap { _ in [c.0, c.1, c.2] } }
    }

    @Test func okLabIsOttossonsForTheTestsOwnArithmeticAndThePublishedPrimaries() {
        // Published: sRGB red, green and blue in OKLab (to 6 decimals), and white at L = 1.
        let published: [((Double, Double, Double), (Double, Double, Double))] = [
            ((255, 0, 0), (0.627955, 0.224863, 0.125846)),
            ((0, 255, 0), (0.866440, -0.233888, 0.179498)),
            ((0, 0, 255), (0.452014, -0.032457, -0.311528)),
            ((255, 255, 255), (1, 0, 0)),
        ]
        for (rgb, lab) in published {
            let mine = OKLab(RGBAColor(red: rgb.0 / 255, green: rgb.1 / 255, blue: rgb.2 / 255))
            #expect(abs(mine.l - lab.0) < 1e-5 && abs(mine.a - lab.1) < 1e-5 && abs(mine.b - lab.2) < 1e-5, "\(rgb): \(mine)")
        }
        // A grid of colours: the product's conversion and inverse against the test's.
        for r in stride(from: 0.0, through: 255, by: 51) {
            for g in stride(from: 0.0, through: 255, by: 51) {
                for b in stride(from: 0.0, through: 255, by: 51) {
                    let color = RGBAColor(red: r / 255, green: g / 255, blue: b / 255)
                    let mine = OKLab(color), theirs = Self.oklab(r, g, b)
                    #expect(abs(mine.l - theirs.l) < 1e-12 && abs(mine.a - theirs.a) < 1e-12 && abs(mine.b - theirs.b) < 1e-12)
                    let back = mine.rgba
                    #expect(abs(back.red - color.red) < 1e-6 && abs(back.green - color.green) < 1e-6
                            && abs(back.blue - color.blue) < 1e-6, "round trip of \(r), \(g), \(b)")
                }
            }
        }
        let polar = OKLab(lightness: 0.7, chroma: 0.1, hue: 210)
        #expect(abs(polar.hue - 210) < 1e-9 && abs(polar.chroma - 0.1) < 1e-12)
    }

    @Test func oneEdgeColourGivesABackdropOfItsHueChromaAndLightness() {
        // A calm blue: L 0.57, C 0.13 or so, inside every range.
        let (r, g, b): (UInt8, UInt8, UInt8) = (0x3a, 0x7b, 0xc8)
        let edge = Self.lch(RGBAColor(red8: r, green8: g, blue8: b))
        let backdrop = BackdropColors.backdrop(samples: Self.samples([(r, g, b, 500)]), shadows: [])
        let start = Self.lch(backdrop.start), end = Self.lch(backdrop.end)
        #expect(Self.hueDistance(start.h, edge.h) < 2, "start hue \(start.h), edge \(edge.h)")
        #expect(abs(start.c - min(edge.c, 0.14)) < 0.01 && abs(start.l - edge.l) < 0.01, "\(start) for \(edge)")
        // One hue: the end turns 20 degrees, a tenth darker, the same chroma.
        #expect(abs(Self.hueDistance(end.h, edge.h) - 20) < 2 && abs(end.l - (start.l - 0.1)) < 0.01)
        #expect(backdrop.gradient.description == "linear-gradient(135deg, \(backdrop.start), \(backdrop.end))")
    }

    @Test func twoHuesMakeTheGradientsEndsAndGreyMakesGrey() {
        // Teal on three fifths of the edge, orange on two fifths, grey on a few.
        let teal: (UInt8, UInt8, UInt8) = (0x1f, 0x9e, 0x96), orange: (UInt8, UInt8, UInt8) = (0xe8, 0x7d, 0x2a)
        let backdrop = BackdropColors.backdrop(samples: Self.samples([(teal.0, teal.1, teal.2, 300), (orange.0, orange.1, orange.2, 200),
                                                                      (128, 128, 128, 40)]), shadows: [])
        #expect(Self.hueDistance(Self.lch(backdrop.start).h, Self.lch(RGBAColor(red8: teal.0, green8: teal.1, blue8: teal.2)).h) < 2)
        #expect(Self.hueDistance(Self.lch(backdrop.end).h, Self.lch(RGBAColor(red8: orange.0, green8: orange.1, blue8: orange.2)).h) < 2)
        // Grey edges: a grey backdrop (every component alike), at their lightness kept in range.
        let grey = BackdropColors.backdrop(samples: Self.samples([(250, 250, 250, 100)]), shadows: [])
        #expect(grey.start.red == grey.start.green && grey.start.green == grey.start.blue)
        #expect(abs(Self.lch(grey.start).l - 0.92) < 0.005, "paper white is kept off: \(grey.start)")
        // A vivid colour that sRGB cannot show at the backdrop's chroma keeps its hue.
        let vivid = BackdropColors.backdrop(samples: Self.samples([(255, 240, 0, 10)]), shadows: [])
        #expect(Self.hueDistance(Self.lch(vivid.start).h, Self.lch(RGBAColor(red8: 255, green8: 240, blue8: 0)).h) < 3)
    }

    @Test func theLightnessLetsTheShadowRead() {
        // Near-black edges and a light shadow (black at 0.25): the backdrop is made just light
        // enough that the shadow differs from both ends by 0.08 in lightness.
        let dark = BackdropColors.backdrop(samples: Self.samples([(20, 24, 30, 100)]),
                                           shadows: [BoxShadow(offsetX: .zero, offsetY: .px(4), blur: .px(16),
                                                               color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.25))])
        let a = Self.contrast(black: 0.25, over: dark.start), b = Self.contrast(black: 0.25, over: dark.end)
        #expect(a >= 0.08 - 0.003 && b >= 0.08 - 0.003, "\(a), \(b)")
        // And no lighter than needed: 0.02 darker and the shadow would not read at the end.
        let endL = Self.lch(dark.end).l
        let darker = OKLab(lightness: endL - 0.02, chroma: Self.lch(dark.end).c, hue: Self.lch(dark.end).h).rgba
        #expect(Self.contrast(black: 0.25, over: darker) < 0.08, "\(endL)")
        // A dense shadow reads on the edges' darkness: the range's floor, the end a tenth
        // lighter (darker would leave the range).
        let dense = BackdropColors.backdrop(samples: Self.samples([(20, 24, 30, 100)]),
                                            shadows: [BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(20),
                                                                color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.9))])
        #expect(abs(Self.lch(dense.start).l - 0.3) < 0.01 && abs(Self.lch(dense.end).l - 0.4) < 0.01,
                "\(Self.lch(dense.start)) \(Self.lch(dense.end))")
    }
}
