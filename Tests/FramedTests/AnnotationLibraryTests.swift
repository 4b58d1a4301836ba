import Foundation
import Framed
import FramedTestSupport
import Testing

/// Callouts and redaction from Swift: `Annotation` values in `PictureOptions.annotations`, read
/// from the JSON a file of annotations holds and written back to it, set by name as a config
/// file sets them, and framed into bytes.
struct AnnotationLibraryTests {
    static let json = """
        [{"kind": "badge", "number": 2, "at": {"x": 50, "y": "50%"}, "color": "#0000ff"},
         {"kind": "redact", "rect": {"x": 120, "y": 10, "width": 40, "height": 30}, "color": "#00ff00"}]
        """

    @Test func jsonTextReadsToValuesAndBack() throws {
        let list = try Annotation.list(jsonText: Self.json)
        let expected = [
            Annotation(.badge(2, at: PicturePoint(x: .pixels(50), y: .percent(50))), style: AnnotationStyle(color: RGBAColor(red8: 0, green8: 0, blue8: 255))),
            Annotation(.redact(PictureRect(120, 10, 40, 30)), style: AnnotationStyle(color: RGBAColor(red8: 0, green8: 255, blue8: 0))),
        ]
        #expect(list == expected)
        #expect(try Annotation.list(jsonText: Annotation.jsonText(list)) == list)
        // An error names the annotation by its place in the list.
        #expect(throws: AnnotationError(index: 2, kind: .arrow, reason: "has no \"to\"")) {
            try Annotation.list(jsonText: #"[{"kind": "line", "from": {"x": 1, "y": 1}, "to": {"x": 2, "y": 2}}, {"kind": "arrow", "from": {"x": 1, "y": 1}}]"#)
        }
    }

    @Test func typedValuesAndSettingsByNameFrameAlike() throws {
        // 200x100 of one colour, framed alone at one device pixel a picture pixel.
        let picture = try FramerTests.png(200, 100, alpha: 255)
        var typed = Framer(preset: .none)
        typed.output.format = .png
        typed.picture.annotations = .list(try Annotation.list(jsonText: Self.json))
        var named = Framer(preset: .none)
        named.output.format = .png
        try named.set("annotate", Self.json)
        #expect(named == typed)
        let framed = try Pictures.decode(data: typed.frame(picture).bytes).image
        #expect(framed.width == 200 && framed.height == 100)
        // The badge's disc around (50, 50), its blue beside the number; the redaction green to its edges.
        let disc = framed.rgba(50 - 9, 50)
        #expect(disc.b > 200 && disc.r < 60 && disc.g < 60, "the badge's disc: \(disc)")
        for (x, y) in [(120, 10), (159, 39), (140, 25)] {
            let p = framed.rgba(x, y)
            #expect(p.r == 0 && p.g == 255 && p.b == 0, "redacted at (\(x), \(y)): \(p)")
        }
        for (x, y) in [(119, 25), (160, 25), (140, 40), (190, 90)] {
            let p = framed.rgba(x, y)
            #expect(p.r == 200 && p.g == 60 && p.b == 30, "the picture at (\(x), \(y)): \(p)")
        }
        // A configuration holds the list itself, and loads back to the same settings.
        #expect(typed.configuration.contains(#""annotate": ["#), "\(typed.configuration)")
        let reloaded = try Framer(configuration: Array(typed.configuration.utf8))
        #expect(reloaded.picture.annotations == typed.picture.annotations)
        let written = try Framer(configuration: Array(#"{"preset": "none", "annotate": \#(Self.json)}"#.utf8))
        #expect(written.picture.annotations == typed.picture.annotations)
    }
}
