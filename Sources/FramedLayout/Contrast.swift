internal import Glibc

/// Colour arithmetic for legibility: WCAG 2's relative luminance and contrast ratio, and one
/// colour painted over another, as the caption's automatic colour and its contrast warning use
/// them.
extension RGBAColor {
    /// WCAG 2's relative luminance, 0 (black) to 1 (white), of the colour's red, green and blue
    /// (its alpha is not looked at): each sRGB channel brought to linear light, then weighted
    /// 0.2126, 0.7152 and 0.0722.
    public var relativeLuminance: Double {
        func linear(_ c: Double) -> Double {
            let v = min(max(c, 0), 1)
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio between this colour and `other`, both taken as opaque: the lighter
    /// luminance plus 0.05 over the darker plus 0.05, from 1 (the same) to 21 (black on white).
    /// Text wants 4.5 (AA), large text 3.
    public func contrastRatio(with other: RGBAColor) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// This colour painted over `below` with the usual source-over rule (straight alpha in and
    /// out): what a viewer shows where the two overlap.
    public func over(_ below: RGBAColor) -> RGBAColor {
        let alpha = self.alpha + below.alpha * (1 - self.alpha)
        guard alpha > 0 else { return .transparent }
        func channel(_ top: Double, _ bottom: Double) -> Double {
            (top * self.alpha + bottom * below.alpha * (1 - self.alpha)) / alpha
        }
        return RGBAColor(red: channel(red, below.red), green: channel(green, below.green),
                         blue: channel(blue, below.blue), alpha: alpha)
    }

    /// The opaque grey whose three 8-bit channels are `level`.
    public static func grey(_ level: UInt8) -> RGBAColor { RGBAColor(red8: level, green8: level, blue8: level) }
}
