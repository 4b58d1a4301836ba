import Testing
import FramedLayout

/// CSS gradients resolved in a box, with the numbers worked out by hand from CSS Images 3.
@Suite struct GradientTests {
    static func close(_ a: Point, _ b: Point) -> Bool { abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 }
    static let box = Rect(x: 0, y: 0, width: 200, height: 100)

    @Test func anAngledLineReachesTheCornersFromTheCentre() throws {
        // 135deg: direction (sin, -cos) = (.7071, .7071); length 200 * .7071 + 100 * .7071 = 212.13.
        let g = try CSSGradient(parsing: "linear-gradient(135deg, #6a11cb, #2575fc)").resolved(in: Self.box)
        guard case let .linear(start, end) = g.geometry else { Issue.record("not linear"); return }
        #expect(Self.close(start, Point(x: 25, y: -25)) && Self.close(end, Point(x: 175, y: 125)), "\(start) \(end)")
        #expect(g.stops.map(\.offset) == [0, 1])
        // The same angle in other units, and the default (to bottom).
        for text in ["linear-gradient(0.375turn, red, blue)", "linear-gradient(150grad, red, blue)"] {
            #expect(try CSSGradient(parsing: text).resolved(in: Self.box).geometry == g.geometry)
        }
        let down = try CSSGradient(parsing: "linear-gradient(red, blue)").resolved(in: Self.box)
        #expect(down.geometry == .linear(start: Point(x: 100, y: 0), end: Point(x: 100, y: 100)))
    }

    @Test func aCornerDirectionIsPerpendicularToTheOtherDiagonal() throws {
        // to top right in 200 x 100: direction (100, -200) / 223.6, length 178.89, so the
        // top-left and bottom-right corners sit halfway.
        let g = try CSSGradient(parsing: "linear-gradient(to top right, red, blue)").resolved(in: Self.box)
        guard case let .linear(start, end) = g.geometry else { Issue.record("not linear"); return }
        #expect(Self.close(start, Point(x: 60, y: 130)) && Self.close(end, Point(x: 140, y: -30)), "\(start) \(end)")
        let left = try CSSGradient(parsing: "linear-gradient(to left, red, blue)").resolved(in: Self.box)
        #expect(left.geometry == .linear(start: Point(x: 200, y: 50), end: Point(x: 0, y: 50)))
    }

    @Test func stopPositionsAreFixedUpAsCSSDoes() throws {
        let g = try CSSGradient(parsing: "linear-gradient(red, blue 30%, lime 20%, yellow, white)").resolved(in: Self.box)
        let offsets = g.stops.map(\.offset)
        for (a, b) in zip(offsets, [0, 0.3, 0.3, 0.65, 1]) { #expect(abs(a - b) < 1e-9, "\(offsets)") }
        // Two positions make two stops; lengths are along the line (100pt of a 200pt line).
        let two = try CSSGradient(parsing: "linear-gradient(to right, red 10% 20%, blue 100pt)").resolved(in: Self.box)
        #expect(two.stops.map(\.offset) == [0.1, 0.2, 0.5])
        // Beyond the ends: the line grows so that the offsets fit in 0...1.
        let wide = try CSSGradient(parsing: "linear-gradient(to right, red -50%, blue 150%)").resolved(in: Self.box)
        #expect(wide.geometry == .linear(start: Point(x: -100, y: 50), end: Point(x: 300, y: 50)))
        #expect(wide.stops.map(\.offset) == [0, 1])
    }

    @Test func radialSizesComeFromTheSidesAndCorners() throws {
        let box = Rect(x: 10, y: 20, width: 100, height: 60)
        func radii(_ text: String) throws -> (Point, Double, Double) {
            guard case let .radial(c, rx, ry) = try CSSGradient(parsing: text).resolved(in: box).geometry else {
                throw StyleParseError(input: text, reason: "not radial")
            }
            return (c, rx, ry)
        }
        // Centre (35, 50): 25 from the left, 75 from the right, 30 from top and bottom.
        var (c, rx, ry) = try radii("radial-gradient(circle closest-side at 25% 50%, red, blue)")
        #expect(c == Point(x: 35, y: 50) && rx == 25 && ry == 25)
        (c, rx, ry) = try radii("radial-gradient(circle farthest-side at 25% 50%, red, blue)")
        #expect(rx == 75 && ry == 75)
        (_, rx, ry) = try radii("radial-gradient(circle closest-corner at 25% 50%, red, blue)")
        #expect(abs(rx - (25.0 * 25 + 30 * 30).squareRoot()) < 1e-9 && rx == ry)
        (_, rx, ry) = try radii("radial-gradient(ellipse closest-side at 25% 50%, red, blue)")
        #expect(rx == 25 && ry == 30)
        // farthest-corner, the default: the farthest-side ellipse (75 x 30) grown by root 2.
        (_, rx, ry) = try radii("radial-gradient(at 25% 50%, red, blue)")
        #expect(abs(rx - 75 * 2.0.squareRoot()) < 1e-9 && abs(ry - 30 * 2.0.squareRoot()) < 1e-9)
        (c, rx, ry) = try radii("radial-gradient(40pt 20% at right 5pt, red, blue)")
        #expect(c == Point(x: 110, y: 25) && rx == 40 && abs(ry - 12) < 1e-9)
        (c, _, _) = try radii("radial-gradient(circle at bottom left, red, blue)")
        #expect(c == Point(x: 10, y: 80))
    }

    @Test func aRadialStopInsideTheCentreStartsAtItsColourThere() throws {
        // red at -10pt, blue at 10pt: at the centre, halfway.
        let g = try CSSGradient(parsing: "radial-gradient(circle 10pt, #ff0000 -10pt, #0000ff 10pt)").resolved(in: Self.box)
        #expect(g.stops.map(\.offset) == [0, 1])
        let first = g.stops[0].color
        #expect(abs(first.red - 0.5) < 1e-9 && abs(first.blue - 0.5) < 1e-9 && first.green == 0)
    }

    @Test(arguments: [
        ("linear-gradient(red)", "two colour stops"),
        ("linear-gradient(to middle, red, blue)", "left, right, top, bottom"),
        ("linear-gradient(45, red, blue)", "angle"),
        ("radial-gradient(circle 10% , red, blue)", "percentage"),
        ("radial-gradient(ellipse 10px, red, blue)", "two radii"),
        ("radial-gradient(circle at nowhere, red, blue)", "position"),
        ("linear-gradient(red, , blue)", "empty"),
        ("conic-gradient(red, blue)", "linear-gradient"),
        ("linear-gradient(red, blue", "closing"),
    ])
    func wrongGradientsSayWhy(_ text: String, _ words: String) {
        #expect(throws: StyleParseError.self) { try CSSGradient(parsing: text) }
        do { _ = try CSSGradient(parsing: text) } catch { #expect(error.description.contains(words), "\(error)") }
    }

    @Test func ratiosParse() throws {
        #expect(try AspectRatio(parsing: "16:9").value == 16.0 / 9)
        #expect(try AspectRatio(parsing: "1200x630") == AspectRatio(width: 1200, height: 630))
        #expect(try AspectRatio(parsing: "1200x630").description == "1200:630")
        for bad in ["16", "0:1", "1:-2", "a:b", "1:2:3"] {
            #expect(throws: StyleParseError.self) { try AspectRatio(parsing: bad) }
        }
    }

    @Test func anAspectGrowsTheCanvasAndCentresTheFrameOnWholePixels() throws {
        // 90 x 90 px = 67.5 pt; 16:9 makes the canvas 120 x 67.5 pt, the frame 35 px = 26.25 pt in.
        var style = FrameStyle(aspect: try AspectRatio(parsing: "16:9"))
        var layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 90, pixelHeight: 90), style: style)
        #expect(layout.canvas == Size(width: 120, height: 67.5) && layout.frame.origin == Point(x: 26.25, y: 0))
        // 1:1 on a 120 x 63 px picture: 57 px to share, 28 above.
        style.aspect = AspectRatio(width: 1, height: 1)
        layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 120, pixelHeight: 63), style: style)
        #expect(layout.canvas == Size(width: 90, height: 90) && layout.frame.origin == Point(x: 0, y: 21))
    }

    // MARK: Numbers out of any range (issue 32): finite, and as CSS draws them

    /// The colour a resolved gradient gives at `p`, worked out here: the offset along the line
    /// (or the distance on the ellipse's scale), the stops padded at the ends, straight
    /// interpolation between opaque stops.
    static func color(of g: ResolvedGradient, at p: Point) -> RGBAColor {
        let t: Double
        switch g.geometry {
        case let .linear(s, e):
            let dx = e.x - s.x, dy = e.y - s.y
            t = ((p.x - s.x) * dx + (p.y - s.y) * dy) / (dx * dx + dy * dy)
        case let .radial(c, rx, ry):
            t = (((p.x - c.x) / rx) * ((p.x - c.x) / rx) + ((p.y - c.y) / ry) * ((p.y - c.y) / ry)).squareRoot()
        }
        return blend(g.stops.map { ($0.offset, $0.color) }, at: t)
    }

    /// Opaque colour stops (ascending) at `t`, padded beyond the ends.
    static func blend(_ stops: [(Double, RGBAColor)], at t: Double) -> RGBAColor {
        guard let j = stops.firstIndex(where: { $0.0 > t }) else { return stops.last!.1 }
        guard j > 0 else { return stops[0].1 }
        let (a, ca) = stops[j - 1], (b, cb) = stops[j]
        let f = (t - a) / (b - a)
        return RGBAColor(red: ca.red + (cb.red - ca.red) * f, green: ca.green + (cb.green - ca.green) * f,
                         blue: ca.blue + (cb.blue - ca.blue) * f)
    }

    static func near(_ a: RGBAColor, _ b: RGBAColor, within tolerance: Double = 1e-9) -> Bool {
        abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance && abs(a.blue - b.blue) <= tolerance
    }

    static let red = RGBAColor(red: 1, green: 0, blue: 0), blue = RGBAColor(red: 0, green: 0, blue: 1)

    /// Every number of the geometry finite and of a size a file holds, the offsets ascending in 0...1.
    static func expectUsable(_ g: ResolvedGradient, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var numbers = g.stops.map(\.offset)
        switch g.geometry {
        case let .linear(s, e): numbers += [s.x, s.y, e.x, e.y]
        case let .radial(c, rx, ry): numbers += [c.x, c.y, rx, ry, max(rx, ry) / min(rx, ry)]
        }
        #expect(numbers.allSatisfy { abs($0) <= 1e9 }, "\(text): \(g)", sourceLocation: sourceLocation)
        let offsets = g.stops.map(\.offset)
        #expect(offsets.allSatisfy { (0...1).contains($0) } && zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 },
                "\(text): \(offsets)", sourceLocation: sourceLocation)
    }

    @Test func anAngleCountsModuloATurn() throws {
        // 10^20 = 280 (mod 360): 0 mod 40 and 1 mod 9; -10^20 = 80; 7.5 turns are half a turn;
        // 10^308 degrees overflowed to infinity as radians.
        for (big, plain) in [("1e20deg", "280deg"), ("-1e20deg", "80deg"), ("7.5turn", "180deg"), ("4000grad", "0deg")] {
            let a = try CSSGradient(parsing: "linear-gradient(\(big), red, blue)").resolved(in: Self.box)
            let b = try CSSGradient(parsing: "linear-gradient(\(plain), red, blue)").resolved(in: Self.box)
            guard case let .linear(s1, e1) = a.geometry, case let .linear(s2, e2) = b.geometry else { Issue.record(); continue }
            #expect(Self.close(s1, s2) && Self.close(e1, e2), "\(big): \(a.geometry), \(plain): \(b.geometry)")
        }
        let huge = try CSSGradient(parsing: "linear-gradient(1e308deg, red, blue)").resolved(in: Self.box)
        Self.expectUsable(huge, "1e308deg")
    }

    @Test func farStopsAreCutWhereTheyStopMattering() throws {
        // Red at -300%, blue at 400%: at x the colour is (x / 200 + 3) / 7 of the way to blue.
        let g = try CSSGradient(parsing: "linear-gradient(to right, #ff0000 -300%, #0000ff 400%)").resolved(in: Self.box)
        Self.expectUsable(g, "-300% 400%")
        for x in stride(from: 0.0, through: 200, by: 25) {
            let f = (x / 200 + 3) / 7
            let expected = RGBAColor(red: 1 - f, green: 0, blue: f)
            #expect(Self.near(Self.color(of: g, at: Point(x: x, y: 50)), expected), "x \(x)")
        }
        // Stops out of any range: what shows in the box is red (10^308 % is 10^306 lines away;
        // a later stop is never before an earlier one).
        for text in ["linear-gradient(to right, red, blue 1e308%)", "linear-gradient(red 1e308%, blue -1e308%)",
                     "linear-gradient(45deg, red 1e30px, blue)", "linear-gradient(to right, red 1e12%, blue 1e300%)",
                     "linear-gradient(to left, blue -1e308%, red -1e300%, red 1e-300%, blue 1e308%)"] {
            let g = try CSSGradient(parsing: text).resolved(in: Self.box)
            Self.expectUsable(g, text)
            for (x, y) in [(0.0, 0.0), (100, 50), (200, 100), (37, 81)] {
                #expect(Self.near(Self.color(of: g, at: Point(x: x, y: y)), Self.red, within: 1e-2 / 255), "\(text) at \(x), \(y)")
            }
        }
    }

    @Test func radialGradientsOutOfRangeKeepTheirLook() throws {
        // (text, a point, the colour there by CSS)
        let cases: [(String, Point, RGBAColor)] = [
            // The centre 10^306 boxes away: the whole box past the 10px circle, blue.
            ("radial-gradient(circle 10px at 1e308% 50%, red, blue)", Point(x: 100, y: 50), Self.blue),
            ("radial-gradient(circle 10px at -1e300px -1e300px, red, blue)", Point(x: 0, y: 0), Self.blue),
            // A circle of 10^300 px: the box right by its centre, red.
            ("radial-gradient(circle 1e300px, red, blue)", Point(x: 0, y: 0), Self.red),
            ("radial-gradient(1e308% 1e308%, red, blue)", Point(x: 200, y: 100), Self.red),
            // An ellipse 10^-300 px high: off its centre line, blue; on it, halfway at 50 pt.
            ("radial-gradient(ellipse 100pt 1e-300px, red, blue)", Point(x: 100, y: 60), Self.blue),
            ("radial-gradient(ellipse 100pt 1e-300px, red, blue)", Point(x: 150, y: 50),
             RGBAColor(red: 0.5, green: 0, blue: 0.5)),
            // Stops 10^308 radii out: red until far beyond the box.
            ("radial-gradient(circle 10px, red 1e308%, blue)", Point(x: 0, y: 0), Self.red),
            ("radial-gradient(red -1e308%, blue -1e300%)", Point(x: 100, y: 50), Self.blue),
        ]
        for (text, point, expected) in cases {
            let g = try CSSGradient(parsing: text).resolved(in: Self.box)
            Self.expectUsable(g, text)
            // Within a hundredth of a level of 255: the clamps change nothing a file shows.
            #expect(Self.near(Self.color(of: g, at: point), expected, within: 1e-2 / 255), "\(text) at \(point): \(g)")
        }
    }

    @Test(arguments: [
        ("linear-gradient(1e309deg, red, blue)", "1e309deg is too large"),
        ("linear-gradient(-1e400turn, red, blue)", "-1e400turn is too large"),
        ("linear-gradient(red 1e309%, blue)", "1e309% is too large"),
        ("linear-gradient(red, blue 1e308in)", "too large"),
        ("radial-gradient(circle 1e309px, red, blue)", "1e309 is too large"),
        ("radial-gradient(circle 1e308in, red, blue)", "1e308in is too large"),
        ("radial-gradient(at 1e309% 50%, red, blue)", "1e309% is too large"),
    ])
    func numbersPastInfinityAreRefusedByName(_ text: String, _ words: String) {
        do { _ = try CSSGradient(parsing: text); Issue.record("\(text) parsed") } catch {
            #expect(error.description.contains(words), "\(error)")
        }
    }

    /// Angles and stop positions are CSS numbers: `Double(_:)` would also read hexadecimal
    /// (`0x10` is 16), `inf` and `nan`, which CSS does not.
    @Test(arguments: ["linear-gradient(0x10deg, red, blue)", "linear-gradient(0x1p4turn, red, blue)",
                      "linear-gradient(red 0x10%, blue)", "linear-gradient(red nan%, blue)",
                      "linear-gradient(infdeg, red, blue)", "radial-gradient(at 0x10% 50%, red, blue)"])
    func onlyCSSNumbersAreNumbers(_ text: String) {
        #expect(throws: StyleParseError.self, "\(text)") { try CSSGradient(parsing: text) }
    }
}
