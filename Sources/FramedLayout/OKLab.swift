internal import Glibc

/// A colour in OKLab, Björn Ottosson's perceptual colour space (2020; CSS Color 4's `oklab()`
/// and `oklch()`): `l` the lightness from 0 (black) to 1 (white), `a` from green to red, `b`
/// from blue to yellow. Equal steps look about equally different, and a hue keeps its look as
/// its lightness changes, which is what picking a backdrop from a picture's colours needs.
public struct OKLab: Sendable, Equatable {
    /// Perceived lightness: 0 black, 1 white.
    public var l: Double
    /// Green (negative) to red (positive).
    public var a: Double
    /// Blue (negative) to yellow (positive).
    public var b: Double

    /// A colour of these coordinates, taken as given.
    public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    /// A colour from OKLCH's polar coordinates: lightness, chroma (the distance from grey) and
    /// hue in degrees (0 pinkish red, 90 yellow, 180 cyan-green, 270 blue).
    public init(lightness: Double, chroma: Double, hue: Double) {
        let radians = hue * .pi / 180
        self.init(l: lightness, a: chroma * cos(radians), b: chroma * sin(radians))
    }

    /// An sRGB colour's coordinates (its alpha is left aside).
    public init(_ color: RGBAColor) {
        self.init(linearRed: Self.linear(color.red), green: Self.linear(color.green), blue: Self.linear(color.blue))
    }

    /// The coordinates of a colour given in linear-light sRGB: Ottosson's two matrices, with a
    /// cube root between them.
    public init(linearRed r: Double, green g: Double, blue b: Double) {
        let lms = (cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b),
                   cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b),
                   cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b))
        self.init(l: 0.2104542553 * lms.0 + 0.7936177850 * lms.1 - 0.0040720468 * lms.2,
                  a: 1.9779984951 * lms.0 - 2.4285922050 * lms.1 + 0.4505937099 * lms.2,
                  b: 0.0259040371 * lms.0 + 0.7827717662 * lms.1 - 0.8086757660 * lms.2)
    }

    /// The distance from the grey of the same lightness (OKLCH's C).
    public var chroma: Double { (a * a + b * b).squareRoot() }

    /// The hue angle in degrees, 0 up to 360 (OKLCH's h); 0 for a grey.
    public var hue: Double {
        let degrees = atan2(b, a) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The colour in linear-light sRGB; outside 0...1 where sRGB cannot show it.
    public var linearRGB: (red: Double, green: Double, blue: Double) {
        let l_ = l + 0.3963377774 * a + 0.2158037573 * b
        let m_ = l - 0.1055613458 * a - 0.0638541728 * b
        let s_ = l - 0.0894841775 * a - 1.2914855480 * b
        let (l3, m3, s3) = (l_ * l_ * l_, m_ * m_ * m_, s_ * s_ * s_)
        return (4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
                -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
                -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3)
    }

    /// Whether sRGB can show the colour (within a hair of rounding).
    public var isInSRGB: Bool {
        let c = linearRGB
        return [c.red, c.green, c.blue].allSatisfy { $0 >= -1e-7 && $0 <= 1 + 1e-7 }
    }

    /// The colour in sRGB, opaque, each component clamped to 0...1.
    public var rgba: RGBAColor {
        let c = linearRGB
        return RGBAColor(red: Self.encoded(c.red), green: Self.encoded(c.green), blue: Self.encoded(c.blue))
    }

    /// An sRGB component (gamma-encoded, 0...1) in linear light: IEC 61966-2-1's curve.
    public static func linear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// A linear-light component gamma-encoded for sRGB, clamped to 0...1.
    public static func encoded(_ c: Double) -> Double {
        let c = min(max(c, 0), 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
}
