import Testing
import FramedLayout

@Suite struct BoxShadowTests {
    @Test func classicShadow() throws {
        let shadow = try BoxShadow(parsing: "0 0 10px rgba(0,0,0,0.6)")
        #expect(shadow.offsetX == .zero)
        #expect(shadow.offsetY == .zero)
        #expect(shadow.blur == .px(10))
        #expect(shadow.sigma == .px(5))
        #expect(shadow.spread == .zero)
        #expect(shadow.color == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6))
        #expect(!shadow.inset)
    }

    @Test(arguments: [
        ("2px 3px", BoxShadow(offsetX: .px(2), offsetY: .px(3))),
        ("2px 3px 4px", BoxShadow(offsetX: .px(2), offsetY: .px(3), blur: .px(4))),
        ("red 2px 3px 4px", BoxShadow(offsetX: .px(2), offsetY: .px(3), blur: .px(4), color: RGBAColor(red: 1, green: 0, blue: 0))),
        ("2px 3px 4px red", BoxShadow(offsetX: .px(2), offsetY: .px(3), blur: .px(4), color: RGBAColor(red: 1, green: 0, blue: 0))),
        ("inset 1px 2px #fff", BoxShadow(offsetX: .px(1), offsetY: .px(2), color: .white, inset: true)),
        ("1px 2px INSET", BoxShadow(offsetX: .px(1), offsetY: .px(2), inset: true)),
        ("inset white 1px 2px", BoxShadow(offsetX: .px(1), offsetY: .px(2), color: .white, inset: true)),
        ("1px 2px white inset", BoxShadow(offsetX: .px(1), offsetY: .px(2), color: .white, inset: true)),
        ("0 4px 6px -2px rgba(0, 0, 0, 0.6)",
         BoxShadow(offsetX: .zero, offsetY: .px(4), blur: .px(6), spread: .px(-2), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6))),
        ("-1mm -2pt 0 3pt", BoxShadow(offsetX: .mm(-1), offsetY: .pt(-2), spread: .pt(3))),
        ("  1px  1px  rgb(0 0 0 / 60%)  ", BoxShadow(offsetX: .px(1), offsetY: .px(1), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6))),
    ])
    func parses(text: String, expected: BoxShadow) throws {
        #expect(try BoxShadow(parsing: text) == expected)
    }

    @Test(arguments: [
        "", "10px", "red", "inset", "junk", "1px 2px junk", "1px 2px -3px", "1px 2px 3px 4px 5px", "1px red 2px",
        "red blue 1px 2px", "1px 2px 10qq", "inset inset 1px 2px", "1px 2px rgba(0,0,0", "1px 2px rgba(0,0,0))",
        "1px 2px notacolor", "1px 2px #12", "none", "1px, 2px", "1px 2px inset 3px",
    ])
    func rejects(text: String) {
        #expect(throws: StyleParseError.self) { try BoxShadow(parsing: text) }
    }

    @Test func errorMessages() {
        let form = "X Y [BLUR [SPREAD]] [COLOUR], like 0 4px 10px rgba(0,0,0,.5)"
        #expect(throws: StyleParseError(kind: "box-shadow", input: "10px",
                                        reason: "needs at least two lengths, the X and Y offsets: expected \(form)")) {
            try BoxShadow(parsing: "10px")
        }
        #expect(throws: StyleParseError(kind: "box-shadow", input: "1px 2px -3px", reason: "blur -3px must not be negative")) {
            try BoxShadow(parsing: "1px 2px -3px")
        }
        let length = #expect(throws: StyleParseError.self) { try BoxShadow(parsing: "1px 2px 10qq") }
        #expect(length?.description == #"invalid box-shadow "1px 2px 10qq": length "10qq": unknown unit "qq" (use px, pt, in, mm or cm)"#)
        let word = #expect(throws: StyleParseError.self) { try BoxShadow(parsing: "1px 2px junk") }
        #expect(word?.reason == "unexpected \"junk\": expected \(form)")
        let list = #expect(throws: StyleParseError.self) { try BoxShadow.parseList("1px 2px, 3px") }
        #expect(list?.input == "3px")
    }

    @Test func lists() throws {
        let shadows = try BoxShadow.parseList("0 1px 2px rgba(0, 0, 0, 0.2), inset 0 4px 8px rgb(0 0 0 / 50%) ,2px 2px")
        #expect(shadows.count == 3)
        #expect(shadows[0] == BoxShadow(offsetX: .zero, offsetY: .px(1), blur: .px(2), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.2)))
        #expect(shadows[1] == BoxShadow(offsetX: .zero, offsetY: .px(4), blur: .px(8), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5), inset: true))
        #expect(shadows[2] == BoxShadow(offsetX: .px(2), offsetY: .px(2)))
        #expect(try BoxShadow.parseList("2px 2px") == [BoxShadow(offsetX: .px(2), offsetY: .px(2))])
    }

    @Test(arguments: ["none", " NONE ", "", "   "])
    func noShadow(text: String) throws {
        #expect(try BoxShadow.parseList(text) == [])
    }

    @Test(arguments: ["1px 2px,", ",1px 2px", "1px 2px,,3px 3px", "none, 1px 2px", "1px 2px, 10px", "1px 2px rgba(0,0,0, 1px 1px"])
    func listRejects(text: String) {
        #expect(throws: StyleParseError.self) { try BoxShadow.parseList(text) }
    }

    @Test(arguments: [
        (BoxShadow(offsetX: .px(2), offsetY: .px(3)), "2px 3px #000000"),
        (BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(10), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.6)), "0px 0px 10px #00000099"),
        (BoxShadow(offsetX: .px(1), offsetY: .px(2), spread: .px(-1), color: .white, inset: true), "inset 1px 2px 0px -1px #ffffff"),
    ])
    func description(shadow: BoxShadow, text: String) {
        #expect(shadow.description == text)
    }

    @Test(arguments: [
        "0 0 10px rgba(0,0,0,0.6)", "2px 3px", "inset -1mm 2pt 3.5pt -4px rgba(10, 20, 30, 0.5)",
        "red 0.3in 1cm", "1px 1px 0 1px transparent",
    ])
    func descriptionRoundTrips(text: String) throws {
        let shadow = try BoxShadow(parsing: text)
        #expect(try BoxShadow(parsing: shadow.description) == shadow)
    }
}
