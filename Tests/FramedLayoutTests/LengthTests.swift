import Foundation  // JSONEncoder/JSONDecoder for the Codable tests only
import Testing
import FramedLayout

private func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite struct LengthTests {
    @Test func pointsPerUnit() {
        #expect(Length.Unit.px.points == 0.75)
        #expect(Length.Unit.pt.points == 1)
        #expect(Length.Unit.in.points == 72)
        #expect(isClose(Length.Unit.mm.points, 72 / 25.4))
        #expect(isClose(Length.Unit.cm.points, 720 / 25.4))
        #expect(Length.Unit.allCases.map(\.rawValue) == ["px", "pt", "in", "mm", "cm"])
    }

    /// 1 in = 72 pt = 96 px = 25.4 mm = 2.54 cm, exactly for these round values.
    @Test func oneInchInEveryUnit() {
        let inch = Length.inches(1)
        #expect(inch.points == 72)
        #expect(Length.pt(72) == inch)
        #expect(Length.px(96) == inch)
        #expect(Length.mm(25.4) == inch)
        #expect(Length.cm(2.54) == inch)
        #expect(Length(96, .px) == inch)
        #expect(inch.pixels == 96)
        #expect(inch.value(in: .pt) == 72)
        #expect(inch.value(in: .in) == 1)
        #expect(inch.value(in: .mm) == 25.4)
        #expect(isClose(inch.value(in: .cm), 2.54))
        #expect(Length.px(12).points == 9)
    }

    @Test(arguments: [
        ("12", 9.0), ("12px", 9), ("12PX", 9), ("12Px", 9), ("9pt", 9), ("0.5in", 36), ("2IN", 144),
        ("3.5mm", 3.5 * 72 / 25.4), ("2cm", 2 * 720 / 25.4), ("-2pt", -2), ("+3", 2.25),
        ("1e1px", 7.5), ("1E1PT", 10), ("2.5e-1in", 18), ("1e+2pt", 100), (".5pt", 0.5),
        ("0", 0), ("-0", 0), ("  7pt\t", 7), ("\n-8px ", -6),
    ] as [(String, Double)])
    func parses(text: String, points: Double) throws {
        #expect(isClose(try Length(parsing: text).points, points))
    }

    /// A space between number and unit is rejected: in a shadow "12 px" would be two values.
    @Test(arguments: [
        "", "   ", "12qq", "nan", "inf", "-inf", "infinity", "1e999", "-1e999", "1e308in", "px", "12 px",
        "12px 3px", "abc", "1.2.3", "--1", "+-1", ".", "-", "e5", "0x10", "12pxx", "12p", "12em", "1,5mm",
    ])
    func rejects(text: String) {
        #expect(throws: StyleParseError.self) { try Length(parsing: text) }
    }

    @Test func errorMessagesNameTheTextAndSayWhatIsExpected() {
        #expect(throws: StyleParseError(kind: "length", input: "12qq", reason: "unknown unit \"qq\" (use px, pt, in, mm or cm)")) {
            try Length(parsing: " 12qq ")
        }
        let unit = #expect(throws: StyleParseError.self) { try Length(parsing: "12qq") }
        #expect(unit?.description == #"invalid length "12qq": unknown unit "qq" (use px, pt, in, mm or cm)"#)
        let space = #expect(throws: StyleParseError.self) { try Length(parsing: "12 px") }
        #expect(space?.reason == #"no space allowed between number and unit (write "12px")"#)
        let two = #expect(throws: StyleParseError.self) { try Length(parsing: "12px 3px") }
        #expect(two?.reason == #"unexpected "3px" after "12px" (expected one length, like 12px)"#)
        let huge = #expect(throws: StyleParseError.self) { try Length(parsing: "1e999") }
        #expect(huge?.reason == "1e999 is too large")
        let nan = #expect(throws: StyleParseError.self) { try Length(parsing: "nan") }
        #expect(nan?.reason.hasPrefix("expected a number") == true)
    }

    @Test func arithmeticAndOrder() {
        #expect(Length.px(4) + .pt(3) == .pt(6))
        #expect(Length.pt(10) - .pt(4) == .pt(6))
        #expect(-Length.pt(2) == .pt(-2))
        #expect(Length.pt(3) * 2 == .pt(6))
        #expect(2 * Length.pt(3) == .pt(6))
        #expect(Length.pt(6) / 4 == .pt(1.5))
        var total = Length.zero
        total += .pt(5)
        total -= .pt(2)
        #expect(total == .pt(3))
        #expect(Length.px(1) < .pt(1))
        #expect([Length.inches(1), .pt(1), .mm(1)].sorted() == [.pt(1), .mm(1), .inches(1)])
        #expect(Set([Length.px(96), .inches(1)]).count == 1)
    }

    @Test(arguments: [
        (Length.px(12), "12px"), (.pt(9), "12px"), (.pt(3.5), "3.5pt"), (.zero, "0px"), (.px(0.5), "0.5px"),
        (.px(10.25), "10.25px"), (.px(-7), "-7px"), (.inches(1), "96px"), (.pt(1), "1pt"),
        (.mm(150), "150mm"), (.mm(3), "3mm"), (.mm(0.25), "0.25mm"), (.cm(21), "210mm"), (.inches(8.55), "217.17mm"),
        (.mm(0.125), "0.35433070866141736pt"),
    ])
    func description(length: Length, text: String) {
        #expect(length.description == text)
    }

    @Test(arguments: [
        Length.px(12), .pt(3.5), .mm(3.5), .cm(21), .px(0.5), .px(-7), .inches(0.3), .mm(1) / 3,
        Length(points: 1e-7), Length(points: 1e20), Length(points: -123.456789),
    ])
    func descriptionRoundTrips(length: Length) throws {
        #expect(try Length(parsing: length.description) == length)
    }

    @Test func codableAsText() throws {
        let data = try JSONEncoder().encode([Length.px(12), .pt(3.5)])
        #expect(String(decoding: data, as: UTF8.self) == #"["12px","3.5pt"]"#)
        let decoded = try JSONDecoder().decode([Length].self, from: Data(#"["3.5mm", 12, "1in"]"#.utf8))
        #expect(decoded == [.mm(3.5), .px(12), .inches(1)])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Length].self, from: Data(#"["12qq"]"#.utf8)) }
    }
}

@Suite struct LengthSizeTests {
    @Test(arguments: [
        ("600x400", Length.px(600), Length.px(400)),
        ("150mmx100mm", .mm(150), .mm(100)),
        ("6inx4in", .inches(6), .inches(4)),
        ("600 x 400", .px(600), .px(400)),
        ("600X400", .px(600), .px(400)),
        ("600×400", .px(600), .px(400)),
        ("600pxx400px", .px(600), .px(400)),
        ("600PXX400PX", .px(600), .px(400)),
        (" 21cm x 29.7cm ", .cm(21), .cm(29.7)),
        ("4in x 300", .inches(4), .px(300)),
        // A unit after the height alone is the width's too, as print sizes are written.
        ("6x4in", .inches(6), .inches(4)),
        ("10 x 15cm", .cm(10), .cm(15)),
        ("2.5X3MM", .mm(2.5), .mm(3)),
        ("600x400px", .px(600), .px(400)),
    ])
    func parses(text: String, width: Length, height: Length) throws {
        let size = try LengthSize(parsing: text)
        #expect(size == LengthSize(width: width, height: height))
    }

    @Test(arguments: [
        "", "600", "x", "600x", "x400", "0x400", "600x0", "-600x400", "600x-1", "axb", "600x400x300",
        "600 400", "600qqx400", "600x400qq", "600*400",
    ])
    func rejects(text: String) {
        #expect(throws: StyleParseError.self) { try LengthSize(parsing: text) }
    }

    @Test func errorMessages() {
        #expect(throws: StyleParseError(kind: "size", input: "0x400", reason: "width must be greater than zero")) {
            try LengthSize(parsing: "0x400")
        }
        let error = #expect(throws: StyleParseError.self) { try LengthSize(parsing: "600x40qq") }
        #expect(error?.description == #"invalid size "600x40qq": height "40qq": unknown unit "qq" (use px, pt, in, mm or cm)"#)
    }

    @Test(arguments: ["600x400", "150mmx100mm", "6inx4in", "0.3inx1pt"])
    func descriptionRoundTrips(text: String) throws {
        let size = try LengthSize(parsing: text)
        #expect(try LengthSize(parsing: size.description) == size)
    }

    @Test func descriptionText() {
        #expect(LengthSize(width: .px(600), height: .px(400)).description == "600px x 400px")
    }
}

@Suite struct EdgeInsetsTests {
    @Test(arguments: [
        ("10", EdgeInsets(all: .px(10))),
        ("1px 2px", EdgeInsets(top: .px(1), right: .px(2), bottom: .px(1), left: .px(2))),
        ("1px 2px 3px", EdgeInsets(top: .px(1), right: .px(2), bottom: .px(3), left: .px(2))),
        ("1px 2px 3px 4px", EdgeInsets(top: .px(1), right: .px(2), bottom: .px(3), left: .px(4))),
        ("  5mm   1cm ", EdgeInsets(top: .mm(5), right: .cm(1), bottom: .mm(5), left: .cm(1))),
        ("0", EdgeInsets.zero),
    ])
    func parses(text: String, insets: EdgeInsets) throws {
        #expect(try EdgeInsets(parsing: text) == insets)
    }

    @Test(arguments: ["", "1 2 3 4 5", "-1px", "1px -2px", "1px qq", "1px,2px"])
    func rejects(text: String) {
        #expect(throws: StyleParseError.self) { try EdgeInsets(parsing: text) }
    }

    @Test func sums() {
        let insets = EdgeInsets(top: .pt(1), right: .pt(2), bottom: .pt(3), left: .pt(4))
        #expect(insets.horizontal == .pt(6))
        #expect(insets.vertical == .pt(4))
    }

    @Test(arguments: [
        ("10px", "10px"), ("1px 2px", "1px 2px"), ("1px 1px", "1px"), ("1px 2px 1px", "1px 2px"),
        ("1px 2px 3px", "1px 2px 3px"), ("1px 2px 3px 2px", "1px 2px 3px"), ("1px 2px 3px 4px", "1px 2px 3px 4px"),
        ("1pt 1px", "1pt 1px"),
    ])
    func shortestDescriptionRoundTrips(text: String, expected: String) throws {
        let insets = try EdgeInsets(parsing: text)
        #expect(insets.description == expected)
        #expect(try EdgeInsets(parsing: insets.description) == insets)
    }
}
