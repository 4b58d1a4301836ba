internal import Glibc

/// `--canvas-color auto`: a backdrop gradient made from the picture's own colours, so that it
/// never clashes with the picture.
///
/// From the colours of the picture's edge pixels (what meets the frame), in OKLCH:
/// - the hues: a histogram of the hues of the samples that have colour (chroma at least
///   `greyChroma`), in 36 bins of 10°, smoothed; the highest peak's hue (the samples within 20°
///   of it, averaged round the circle) starts the gradient, and a
///   second peak at least 40° away with at least a quarter of its weight ends it; without one
///   the end is the start's hue turned by 20° (an analogous pair);
/// - the chroma: the median chroma of those samples, kept within `chromaRange` (a backdrop is
///   neither grey nor garish); almost grey edges (less than a tenth of the samples with colour)
///   give 0.02, and wholly grey ones a grey backdrop;
/// - the lightness: the samples' median, kept within `lightnessRange`, the end `lightnessStep`
///   darker than the start (lighter when that would leave the range); then moved, as little as
///   can be, until every outer shadow at its densest differs from both ends by at least
///   `shadowContrast` in OKLab lightness, so that the shadow still reads on the backdrop.
/// Colours that sRGB cannot show lose chroma (hue and lightness kept) until it can, as CSS
/// Color 4 maps colours into a gamut. A pure function of the samples and the shadows.
public enum BackdropColors {
    /// The lightness a backdrop keeps to: never near black nor paper white.
    public static let lightnessRange = 0.3...0.92
    /// How much darker the gradient's end is than its start.
    public static let lightnessStep = 0.1
    /// The chroma of a backdrop with colour.
    public static let chromaRange = 0.04...0.14
    /// A sample with less chroma than this counts as grey.
    public static let greyChroma = 0.03
    /// The least OKLab lightness difference between the backdrop and a shadow at its densest.
    public static let shadowContrast = 0.08

    /// The gradient: from `start` at the top-left to `end` at the bottom-right (CSS 135deg).
    public struct Backdrop: Sendable, Equatable {
        /// The first stop.
        public var start: RGBAColor
        /// The last stop.
        public var end: RGBAColor
        /// `linear-gradient(135deg, start, end)`.
        public var gradient: CSSGradient
    }

    /// The backdrop for edge samples `rgb` (three bytes a sample: red, green, blue, in sRGB)
    /// behind a frame with `shadows` (inset ones are ignored: they fall inside the frame).
    public static func backdrop(samples rgb: [UInt8], shadows: [BoxShadow]) -> Backdrop {
        var linear = [Double](repeating: 0, count: 256)
        for i in 0..<256 { linear[i] = OKLab.linear(Double(i) / 255) }
        var lightness: [Double] = []
        var colourful: [(chroma: Double, hue: Double)] = []
        lightness.reserveCapacity(rgb.count / 3)
        var i = 0
        while i + 2 < rgb.count {
            let lab = OKLab(linearRed: linear[Int(rgb[i])], green: linear[Int(rgb[i + 1])], blue: linear[Int(rgb[i + 2])])
            lightness.append(lab.l)
            let chroma = lab.chroma
            if chroma >= greyChroma { colourful.append((chroma, lab.hue)) }
            i += 3
        }
        let (startHue, endHue) = hues(colourful)
        var chroma = 0.0
        if !colourful.isEmpty {
            chroma = Double(colourful.count) < 0.1 * Double(lightness.count) ? 0.02
                : min(max(median(colourful.map(\.chroma)), chromaRange.lowerBound), chromaRange.upperBound)
        }
        let target = lightness.isEmpty ? lightnessRange.upperBound
            : min(max(median(lightness), lightnessRange.lowerBound), lightnessRange.upperBound)

        func stops(_ l: Double) -> (RGBAColor, RGBAColor) {
            let l2 = l - lightnessStep >= lightnessRange.lowerBound ? l - lightnessStep : l + lightnessStep
            return (inGamut(l, chroma, startHue), inGamut(l2, chroma, endHue))
        }
        let outer = shadows.filter { !$0.inset && $0.color.alpha > 0 }
        func reads(_ l: Double) -> Bool {
            let (a, b) = stops(l)
            return outer.allSatisfy { contrast(of: $0.color, over: a) >= shadowContrast && contrast(of: $0.color, over: b) >= shadowContrast }
        }
        // The nearest lightness, in steps of 0.005 either way, on which every shadow reads.
        var chosen = target
        if !reads(target) {
            for step in 1...200 {
                let up = target + Double(step) * 0.005, down = target - Double(step) * 0.005
                if up <= 0.98, reads(up) { chosen = up; break }
                if down >= 0.1, reads(down) { chosen = down; break }
            }
        }
        let (start, end) = stops(chosen)
        let text = "linear-gradient(135deg, \(start), \(end))"
        return Backdrop(start: start, end: end, gradient: CSSGradient(kind: .linear(.angle(135)),
                                                                        stops: [.init(color: start), .init(color: end)],
                                                                        text: text))
    }

    /// The OKLab lightness difference between `color` and `shadow` composited over it at the
    /// shadow's alpha (in sRGB's encoding, as Cairo and browsers blend).
    public static func contrast(of shadow: RGBAColor, over color: RGBAColor) -> Double {
        let a = shadow.alpha
        let mixed = RGBAColor(red: color.red * (1 - a) + shadow.red * a, green: color.green * (1 - a) + shadow.green * a,
                              blue: color.blue * (1 - a) + shadow.blue * a)
        return abs(OKLab(color).l - OKLab(mixed).l)
    }

    /// The colour of lightness `l`, chroma `c` and hue `h` that sRGB shows: its chroma lowered
    /// (by halving the interval) until it fits, to 8 bits a component.
    static func inGamut(_ l: Double, _ c: Double, _ h: Double) -> RGBAColor {
        var colour = OKLab(lightness: l, chroma: c, hue: h)
        if !colour.isInSRGB {
            var low = 0.0, high = c
            for _ in 0..<24 {
                let mid = (low + high) / 2
                if OKLab(lightness: l, chroma: mid, hue: h).isInSRGB { low = mid } else { high = mid }
            }
            colour = OKLab(lightness: l, chroma: low, hue: h)
        }
        let rgb = colour.rgba
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 1) * 255 + 0.5) }
        return RGBAColor(red8: byte(rgb.red), green8: byte(rgb.green), blue8: byte(rgb.blue))
    }

    /// The two hues of the gradient from the colourful samples (see the type's summary); 0 and
    /// 20 when there are none (their chroma is then 0: a grey).
    static func hues(_ samples: [(chroma: Double, hue: Double)]) -> (Double, Double) {
        guard !samples.isEmpty else { return (0, 20) }
        var bins = [Double](repeating: 0, count: 36)
        for s in samples { bins[min(35, Int(s.hue / 10))] += 1 }
        var smooth = [Double](repeating: 0, count: 36)
        for i in 0..<36 {
            let before: Double = bins[(i + 35) % 36], after: Double = bins[(i + 1) % 36]
            smooth[i] = before + 2 * bins[i] + after
        }
        func distance(_ a: Double, _ b: Double) -> Double {
            let d = abs(a - b).truncatingRemainder(dividingBy: 360)
            return min(d, 360 - d)
        }
        /// The mean hue (round the circle) of the samples within 20° of `centre`.
        func mean(near centre: Double) -> Double {
            var x = 0.0, y = 0.0
            for s in samples where distance(s.hue, centre) <= 20 {
                x += cos(s.hue * .pi / 180); y += sin(s.hue * .pi / 180)
            }
            guard x != 0 || y != 0 else { return centre }
            let degrees = atan2(y, x) * 180 / .pi
            return degrees < 0 ? degrees + 360 : degrees
        }
        let first = smooth.indices.max { smooth[$0] < smooth[$1] }!
        func centre(_ bin: Int) -> Double { Double(bin) * 10 + 5 }
        let hue1 = mean(near: centre(first))
        var second: Int?
        for bin in 0..<36 where distance(centre(bin), hue1) >= 40 && smooth[bin] >= 0.25 * smooth[first] {
            if second == nil || smooth[bin] > smooth[second!] { second = bin }
        }
        let hue2 = second.map { mean(near: centre($0)) } ?? (hue1 + 20).truncatingRemainder(dividingBy: 360)
        return (hue1, hue2)
    }

    /// The median (the mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
