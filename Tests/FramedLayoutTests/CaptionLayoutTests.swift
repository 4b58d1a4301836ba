import Testing
@testable import FramedLayout

/// Captions in the box model, measured by a stand-in for Pango (lines of 10pt, as many as 6pt
/// characters need at the width), and the CSS font shorthand.
struct CaptionLayoutTests {
    /// Lines of 10pt; each character 6pt wide; records the widths it was asked for.
    final class Measure: TextMeasure, @unchecked Sendable {
        var widths: [Double] = []
        func measure(_ caption: Caption, width: Double) throws(LayoutError) -> TextBlock {
            widths.append(width)
            let perLine = max(1, Int(width / 6))
            let lines = (caption.text.count + perLine - 1) / perLine
            return TextBlock(height: Double(lines) * 10, lines: lines)
        }
    }

    func style(_ text: String, _ edit: (inout FrameStyle) -> Void = { _ in }) -> FrameStyle {
        var style = FrameStyle(padding: EdgeInsets(all: .pt(10)))
        style.caption = Caption(text: text, font: CSSFont(families: ["DejaVu Sans"], size: .pt(12)))
        edit(&style)
        return style
    }

    let picture = PictureMetrics(pixelWidth: 160, pixelHeight: 80)  // 120 x 60 pt

    @Test func insideTheMatGrowsTheBottomAndKeepsThePicture() throws {
        let plain = try FrameLayout(picture: picture, style: style(""))
        let measure = Measure()
        let layout = try FrameLayout(picture: picture, style: style(String(repeating: "x", count: 30)), text: measure)
        #expect(measure.widths == [120], "wrapped to the content box's width")
        #expect(layout.picture == plain.picture && layout.contentBox == plain.contentBox)
        let caption = try #require(layout.caption)
        // 30 characters of 6pt in 120pt: two lines, 20pt; the gap is half of 12pt.
        #expect(caption.box == Rect(x: 10, y: 10 + 60 + 6, width: 120, height: 20) && caption.lines == 2)
        #expect(layout.frame.height == plain.frame.height + 6 + 20 && layout.frame.width == plain.frame.width)
        #expect(layout.paddingBox.maxY - caption.box.maxY == 10, "the padding stays under the text")
        #expect(plain.caption == nil)
    }

    @Test func belowTheFrameGrowsTheCanvas() throws {
        let measure = Measure()
        let plain = try FrameLayout(picture: picture, style: style(""))
        let layout = try FrameLayout(picture: picture, style: style("abc") { $0.caption.position = .below }, text: measure)
        #expect(measure.widths == [140], "wrapped to the frame's width")
        #expect(layout.frame == plain.frame)
        let caption = try #require(layout.caption)
        #expect(caption.box == Rect(x: 0, y: 80 + 6, width: 140, height: 10))
        // The gap, the text and the gap again under it, in whole CSS px.
        #expect(layout.canvas.height == 80 + (22 / 0.75).rounded(.up) * 0.75, "whole CSS px under the frame")
    }

    @Test func aGivenSizeKeepsTheFrameAndShrinksThePictureBox() throws {
        let measure = Measure()
        let sized = try FrameLayout(picture: picture, style: style("abc") { $0.size = LengthSize(width: .pt(200), height: .pt(150)) },
                                    text: measure)
        #expect(sized.frame.size == Size(width: 200, height: 150))
        #expect(sized.contentBox.height == 150 - 20 - 6 - 10)
        // A given height: the width follows the picture's box, measured twice.
        let measure2 = Measure()
        let tall = try FrameLayout(picture: picture, style: style("abc") { $0.height = .pt(100) }, text: measure2)
        #expect(tall.frame.height == 100 && tall.contentBox.height == 100 - 20 - 16)
        #expect(abs(tall.contentBox.width - tall.contentBox.height * 2) < 1e-9)
        #expect(measure2.widths.count == 2)
        // No room for the picture: an error naming the height and the caption.
        // (No width is left for the text there: at 1pt its three characters take three lines.)
        #expect(throws: LayoutError.captionTooTall(name: "height", frame: 30, needed: 20 + 6 + 30)) {
            try FrameLayout(picture: picture, style: style("abc") { $0.height = .pt(30) }, text: Measure())
        }
        #expect(throws: LayoutError.captionTooTall(name: "height", frame: 30, needed: 20 + 6 + 10)) {
            try FrameLayout(picture: picture, style: style("abc") { $0.size = LengthSize(width: .pt(200), height: .pt(30)) },
                            text: Measure())
        }
        // A caption without a measure is an error, not a caption left out.
        #expect(throws: LayoutError.caption(reason: "no text measure was given to lay it out")) {
            try FrameLayout(picture: picture, style: style("abc"))
        }
    }

    @Test func snappingMovesTheCaptionWithItsBox() throws {
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 161, pixelHeight: 81),
                                     style: style("abc") { $0.padding = EdgeInsets(all: .pt(10.3)) }, text: Measure())
        let snapped = layout.snapped(devicePixelsPerPoint: 4 / 3)
        let dy = snapped.contentBox.minY - layout.contentBox.minY
        #expect(snapped.caption?.box.minY == layout.caption!.box.minY + dy)
        #expect(snapped.caption?.box.height == layout.caption!.box.height)
    }

    // MARK: The font shorthand

    @Test(arguments: [
        ("16px \"DejaVu Sans\"", "16px \"DejaVu Sans\""),
        ("italic 14px \"DejaVu Serif\"", "italic 14px \"DejaVu Serif\""),
        ("bold 12pt/1.5 Georgia, serif", "bold 16px/24px Georgia, serif"),
        ("normal small-caps 300 condensed 10px DejaVu   Sans", "small-caps 300 condensed 10px \"DejaVu Sans\""),
        ("oblique 700 3pt/normal 'A, B', monospace", "oblique bold 4px \"A, B\", monospace"),
        ("12 Arial", "12px Arial"),
        ("14px/20px x", "14px/20px x"),
        ("14px / 1.25 x", "14px/17.5px x"),
        ("14px/1.5e0 x", "14px/21px x"),
        // A family starting with a combining mark: quoted, and its quote still read as one
        // (a quote and the mark after it are one Swift Character; found by fuzz-parsers).
        ("2px \"\u{357}x\"", "2px \"\u{357}x\""),
        ("2px\r\u{357}x", "2px \"\u{357}x\""),
        // A family holding a double quote is written in single quotes, and the other way round.
        ("10px 'Say \"hi\"'", "10px 'Say \"hi\"'"),
        ("10px \"it's\"", "10px \"it's\""),
    ])
    func shorthandsParseAndReadBack(text: String, expected: String) throws {
        let font = try CSSFont(parsing: text)
        #expect(font.description == expected)
        #expect(try CSSFont(parsing: font.description) == font)
    }

    @Test func familiesStylesAndWeights() throws {
        let font = try CSSFont(parsing: "italic bold 12px \"DejaVu Serif\", 'Noto Sans', sans-serif")
        #expect(font.families == ["DejaVu Serif", "Noto Sans", "sans-serif"])
        #expect(font.style == .italic && font.weight == 700 && font.size == .px(12))
        #expect(try CSSFont(parsing: "900 1in x").weight == 900)
        #expect(try CSSFont(parsing: "expanded 1in x").stretch == 6)
    }

    @Test(arguments: ["", "italic", "14px", "bold", "14qq Serif", "bolder 14px x", "0px x", "-3px x", "14px \"open",
                      "14px a,,b", "14px \"a\" b", "14px/0 x", "14px/-1 x", "14px/qq x", "1000in x"])
    func badShorthandsAreOneClearError(text: String) {
        do {
            _ = try CSSFont(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.description.hasPrefix("invalid font") && !error.description.contains("\n"), "\(error)")
        }
    }
}
