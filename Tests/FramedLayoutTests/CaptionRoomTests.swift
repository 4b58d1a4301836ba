import Testing
import FramedLayout

/// The caption's room (issue 31, item 2) and what its colour is judged against (item 1), in
/// points, with a stand-in for Pango: lines of 10pt, each character 6pt wide.
struct CaptionRoomTests {
    struct Measure: TextMeasure {
        var rightToLeft = false
        func measure(_ caption: Caption, width: Double) throws(LayoutError) -> TextBlock {
            let perLine = max(1, Int(width / 6))
            let lines = (caption.text.count + perLine - 1) / perLine
            return TextBlock(height: Double(lines) * 10, lines: lines,
                             width: Double(min(caption.text.count, perLine)) * 6, rightToLeft: rightToLeft)
        }
    }

    /// A 120 x 60 pt picture under a 12pt caption (gap 6pt), with `edit` applied.
    func layout(_ text: String = "abc", pageColor: RGBAColor = .white, measure: Measure = Measure(),
                _ edit: (inout FrameStyle) -> Void = { _ in }) throws -> FrameLayout {
        var style = FrameStyle()
        style.caption = Caption(text: text, font: CSSFont(families: ["DejaVu Sans"], size: .pt(12)))
        edit(&style)
        return try FrameLayout(picture: PictureMetrics(pixelWidth: 160, pixelHeight: 80), style: style, text: measure,
                               pageColor: pageColor)
    }

    @Test func insideTheTextKeepsHalfAnEmFromTheBorder() throws {
        // No padding: the mat grows by the gap above, the text, and the gap again under it.
        let bare = try layout { $0.border = .pt(3) }
        let caption = try #require(bare.caption)
        #expect(caption.box == Rect(x: 3, y: 3 + 60 + 6, width: 120, height: 10))
        #expect(bare.frame.height == 3 + 60 + 6 + 10 + 6 + 3)
        #expect(bare.paddingBox.maxY - caption.box.maxY == 6)
        // Padding under the text of 4pt: 2pt more make the gap; of 10pt: kept as it is.
        let some = try layout { $0.padding = EdgeInsets(top: .zero, right: .zero, bottom: .pt(4), left: .zero) }
        #expect(some.paddingBox.maxY - some.caption!.box.maxY == 6)
        let more = try layout { $0.padding = EdgeInsets(top: .zero, right: .zero, bottom: .pt(10), left: .zero) }
        #expect(more.paddingBox.maxY - more.caption!.box.maxY == 10)
        // A given height: the content box gives the room up.
        let sized = try layout { $0.size = LengthSize(width: .pt(200), height: .pt(150)) }
        #expect(sized.contentBox.height == 150 - 6 - 10 - 6)
    }

    @Test func belowTheTextStartsWhereTheShadowsHaveFaded() throws {
        // No shadow: half an em under the frame; the canvas holds the text and half an em more.
        let plain = try layout { $0.caption.position = .below }
        #expect(plain.caption?.box == Rect(x: 0, y: 60 + 6, width: 120, height: 10))
        #expect(plain.canvas.height == ((60 + 6 + 10 + 6) / 0.75).rounded(.up) * 0.75)
        // A shadow 9pt down, spread 3pt, blurred 12pt: it reaches 9 + 3 + 12 = 24pt under the frame.
        let shadow = BoxShadow(offsetX: .pt(5), offsetY: .pt(9), blur: .pt(12), spread: .pt(3))
        let shadowed = try layout { $0.caption.position = .below; $0.shadows = [shadow] }
        let box = try #require(shadowed.caption).box
        #expect(abs(box.minY - (shadowed.frame.maxY + 24)) < 1e-9, "\(box) under \(shadowed.frame)")
        // A shadow that ends sooner, or an inset one, leaves the gap as it is.
        for small in [BoxShadow(offsetX: .zero, offsetY: .pt(1), blur: .pt(2)),
                      BoxShadow(offsetX: .zero, offsetY: .pt(30), blur: .pt(30), inset: true)] {
            let near = try layout { $0.caption.position = .below; $0.shadows = [small] }
            #expect(abs(near.caption!.box.minY - (near.frame.maxY + 6)) < 1e-9, "\(small)")
        }
    }

    @Test func theTextBoxIsWhereTheLinesGo() throws {
        // "abc": 18pt of the content box's 120pt.
        for (alignment, x) in [(CaptionAlignment.left, 0.0), (.center, 51), (.right, 102), (.start, 0), (.end, 102)] {
            let l = try layout { $0.caption.alignment = alignment }
            #expect(l.caption?.textBox == Rect(x: x, y: 66, width: 18, height: 10), "\(alignment)")
        }
        let rtl = Measure(rightToLeft: true)
        #expect(try layout(measure: rtl) { $0.caption.alignment = .start }.caption?.textBox.minX == 102)
        #expect(try layout(measure: rtl) { $0.caption.alignment = .end }.caption?.textBox.minX == 0)
        // Snapping moves it with the box.
        let snapped = try layout { $0.padding = EdgeInsets(all: .pt(10.3)) }.snapped(devicePixelsPerPoint: 4 / 3)
        #expect(snapped.caption!.textBox.minY == snapped.caption!.box.minY)
    }

    @Test func automaticColoursReadOnWhatLiesUnderThem() throws {
        let dark = RGBAColor.grey(0x33), light = RGBAColor.grey(0xee)
        // Inside: the mat's colour, over the canvas and the page where it is not opaque.
        #expect(try layout { $0.background = .white }.caption?.color == dark)
        #expect(try layout { $0.background = .black }.caption?.color == light)
        #expect(try layout(pageColor: RGBAColor(red8: 0x0d, green8: 0x11, blue8: 0x17)).caption?.color == light,
                "a transparent mat over a transparent canvas: the page")
        #expect(try layout { $0.canvasColor = .black }.caption?.color == light, "a transparent mat over a black canvas")
        // Below: the canvas's colour and gradient, not the mat's.
        let night = try CSSGradient(parsing: "linear-gradient(#111827, #111827)")
        #expect(try layout { $0.caption.position = .below; $0.canvasGradient = night; $0.background = .white }
            .caption?.color == light)
        #expect(try layout { $0.caption.position = .below; $0.backgroundGradient = night }.caption?.color == dark)
        #expect(try layout { $0.backgroundGradient = night }.caption?.color == light, "inside, the mat's gradient")
        // Half the canvas white, half black, across: centred text sits on its middle, left-aligned
        // text on the white half.
        let split = try CSSGradient(parsing: "linear-gradient(to right, white 50%, black 50%)")
        let left = try layout { $0.caption.position = .below; $0.caption.alignment = .left; $0.canvasGradient = split }
        #expect(left.caption?.color == dark && left.caption!.contrast > 12)
        let centred = try layout { $0.caption.position = .below; $0.canvasGradient = split }
        #expect(centred.caption!.contrast < 2, "no grey reads on both halves: \(centred.caption!)")
        // A colour the style gives is kept, and its contrast reported.
        let red = try layout { $0.background = .white; $0.caption.color = RGBAColor(red: 1, green: 0, blue: 0) }
        #expect(red.caption?.color == RGBAColor(red: 1, green: 0, blue: 0))
        #expect(abs(red.caption!.contrast - 1.05 / (0.2126 + 0.05)) < 1e-6, "red on white: \(red.caption!.contrast)")
    }

    @Test func gradientsAreSampledWhereTheyAre() throws {
        // 0 to 100pt across: red, then blue from 50% on; ends padded.
        let gradient = try CSSGradient(parsing: "linear-gradient(to right, red, blue 50%)")
            .resolved(in: Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(gradient.color(at: Point(x: -5, y: 5)) == RGBAColor(red: 1, green: 0, blue: 0))
        let quarter = gradient.color(at: Point(x: 25, y: 3))
        #expect(abs(quarter.red - 0.5) < 1e-9 && abs(quarter.blue - 0.5) < 1e-9)
        #expect(gradient.color(at: Point(x: 80, y: 5)) == RGBAColor(red: 0, green: 0, blue: 1))
        // A circle of radius 10 at (50, 5): white at the centre, black from the radius out.
        let radial = try CSSGradient(parsing: "radial-gradient(circle 10pt at 50pt 5pt, white, black)")
            .resolved(in: Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(radial.color(at: Point(x: 50, y: 5)) == .white)
        #expect(abs(radial.color(at: Point(x: 55, y: 5)).green - 0.5) < 1e-9)
        #expect(radial.color(at: Point(x: 70, y: 5)) == .black)
    }
}
