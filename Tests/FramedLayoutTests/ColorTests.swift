import Testing
@testable import FramedLayout  // for the named-colour table

private func components(_ c: RGBAColor) -> [Double] { [c.red, c.green, c.blue, c.alpha] }

/// 0xRRGGBB as components, for comparing with the CSS tables.
private func hex(_ value: UInt32, alpha: Double = 1) -> [Double] {
    [Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255, alpha]
}

@Suite struct ColorTests {
    @Test func constants() {
        #expect(components(.black) == [0, 0, 0, 1])
        #expect(components(.white) == [1, 1, 1, 1])
        #expect(components(.transparent) == [0, 0, 0, 0])
        #expect(RGBAColor.black.isOpaque)
        #expect(!RGBAColor.transparent.isOpaque)
        #expect(!RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6).isOpaque)
        #expect(components(RGBAColor(red8: 255, green8: 51, blue8: 0, alpha: 0.5)) == [1, 0.2, 0, 0.5])
    }

    @Test(arguments: [
        ("#f00", [1.0, 0, 0, 1]),
        ("#F00", [1, 0, 0, 1]),
        ("#0f08", [0, 1, 0, 0x88 / 255.0]),
        ("#6495ed", hex(0x6495ED)),
        ("#6495ED80", hex(0x6495ED, alpha: 128 / 255.0)),
        ("  #000000ff ", [0, 0, 0, 1]),
        ("#00000000", [0, 0, 0, 0]),
        ("#abc", hex(0xAABBCC)),
    ] as [(String, [Double])])
    func hexForms(text: String, expected: [Double]) throws {
        #expect(components(try RGBAColor(parsing: text)) == expected)
    }

    @Test(arguments: [
        ("rgb(255, 0, 0)", [1.0, 0, 0, 1]),
        ("rgb(255,51,0)", [1, 0.2, 0, 1]),
        ("rgba(0,0,0,0.6)", [0, 0, 0, 0.6]),
        ("rgba(0, 0, 0, .25)", [0, 0, 0, 0.25]),
        ("RGBA(0, 0, 0, 50%)", [0, 0, 0, 0.5]),
        ("rgb(100%, 50%, 0%)", [1, 0.5, 0, 1]),
        ("rgba(255, 255, 255)", [1, 1, 1, 1]),
        ("rgb(0, 0, 0, 0.5)", [0, 0, 0, 0.5]),
        ("rgb(0 51 255)", [0, 0.2, 1, 1]),
        ("rgb(0 51 255 / 0.5)", [0, 0.2, 1, 0.5]),
        ("rgb(0 51 255/50%)", [0, 0.2, 1, 0.5]),
        ("rgba( 10% 20% 30% / 1 )", [0.1, 0.2, 0.3, 1]),
        // Out of range is clamped, as CSS does.
        ("rgb(300, -5, 0)", [1, 0, 0, 1]),
        ("rgba(0, 0, 0, 2)", [0, 0, 0, 1]),
        ("rgba(0, 0, 0, -1)", [0, 0, 0, 0]),
        ("rgb(200% 0% 0% / 150%)", [1, 0, 0, 1]),
    ] as [(String, [Double])])
    func functionForms(text: String, expected: [Double]) throws {
        let parsed = components(try RGBAColor(parsing: text))
        #expect(zip(parsed, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(parsed) != \(expected)")
    }

    /// Samples checked against the CSS Color 4 table.
    @Test(arguments: [
        ("rebeccapurple", 0x663399 as UInt32), ("cornflowerblue", 0x6495ED), ("CornflowerBlue", 0x6495ED),
        ("gray", 0x808080), ("grey", 0x808080), ("darkslategray", 0x2F4F4F), ("darkslategrey", 0x2F4F4F),
        ("lightgoldenrodyellow", 0xFAFAD2), ("aqua", 0x00FFFF), ("fuchsia", 0xFF00FF), ("navy", 0x000080),
        ("papayawhip", 0xFFEFD5), ("WHITE", 0xFFFFFF), ("black", 0x000000), ("green", 0x008000), ("lime", 0x00FF00),
    ])
    func namedColours(name: String, value: UInt32) throws {
        #expect(components(try RGBAColor(parsing: name)) == hex(value))
    }

    @Test func namedTable() throws {
        #expect(RGBAColor.namedColors.count == 148)
        #expect(RGBAColor.namedColors["transparent"] == nil)
        #expect(components(try RGBAColor(parsing: "Transparent")) == [0, 0, 0, 0])
        for (name, value) in RGBAColor.namedColors {
            #expect(name == name.lowercased())
            #expect(try RGBAColor(parsing: name) == RGBAColor(rgb24: value))
        }
    }

    @Test(arguments: [
        "", "#", "#12", "#12345", "#1234567", "#ggg", "#fffffg", "# fff", "#fff f", "notacolor", "blu",
        "rgb(1,2)", "rgb(1,2,3", "rgb(1,2,3,4,5)", "rgb 1,2,3", "rgb(1 2 3 4)", "rgb(1, 2 3)", "rgb(a,b,c)",
        "rgb(1 2 3 / )", "rgb(1,2,3 / 1)", "rgb(1 2 / 3)", "rgb(1 2 3 / 4 / 5)", "rgb(1px,2,3)", "rgb(,,)",
        "hsl(0, 0%, 0%)", "rgb(nan, 0, 0)", "0 0 0",
    ])
    func rejects(text: String) {
        #expect(throws: StyleParseError.self) { try RGBAColor(parsing: text) }
    }

    @Test func errorMessages() {
        let name = #expect(throws: StyleParseError.self) { try RGBAColor(parsing: "notacolor") }
        #expect(name?.description.hasPrefix(#"invalid colour "notacolor": not a colour name"#) == true)
        let hex = #expect(throws: StyleParseError.self) { try RGBAColor(parsing: "#ggg") }
        #expect(hex?.description.hasPrefix(##"invalid colour "#ggg": expected # and 3, 4, 6 or 8 hex digits"##) == true)
        let function = #expect(throws: StyleParseError.self) { try RGBAColor(parsing: "hsl(0, 0%, 0%)") }
        #expect(function?.reason == #"unknown colour function "hsl()" (use rgb() or rgba())"#)
    }

    @Test(arguments: [
        (RGBAColor.black, "#000000"), (.white, "#ffffff"), (.transparent, "#00000000"),
        (RGBAColor(red8: 0x64, green8: 0x95, blue8: 0xED), "#6495ed"),
        (RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6), "#00000099"),
        (RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5), "rgb(0 0 0 / 0.5)"),
    ])
    func description(color: RGBAColor, text: String) {
        #expect(color.description == text)
    }

    @Test(arguments: [
        "#6495ed", "#6495ed80", "#0f08", "rebeccapurple", "transparent", "rgba(0,0,0,0.6)", "rgba(0,0,0,0.5)",
        "rgb(10% 20% 30% / 0.125)", "rgb(127.5, 0, 255)",
    ])
    func descriptionRoundTrips(text: String) throws {
        let color = try RGBAColor(parsing: text)
        #expect(try RGBAColor(parsing: color.description) == color)
    }

    /// `--inner-border`: width and colour in either order, any spacing, as CSS's border shorthand.
    @Test func innerBorderTakesEitherOrder() throws {
        let expected = InnerBorder(width: .px(1), color: RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))
        for text in ["1px white", "white 1px", "  1px\twhite ", "1px   white"] {
            #expect(try InnerBorder.parse(text) == expected, "\(text)")
        }
        let translucent = try #require(try InnerBorder.parse("rgba(0, 0, 0, 0.5) 0.5mm"))
        #expect(translucent.color.alpha == 0.5 && abs(translucent.width.points - 0.5 / 25.4 * 72) < 1e-9)
        #expect(try InnerBorder.parse("1px rgba(0, 0, 0, 0.5)")?.color == translucent.color)
        #expect(try InnerBorder.parse("none") == nil)
        for bad in ["2px", "0 red", "2qq red", "red blue", "-1px red"] {
            #expect(throws: StyleParseError.self, "\(bad)") { try InnerBorder.parse(bad) }
        }
    }
}
