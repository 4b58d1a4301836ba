import FramedLayout
@testable import FramedRender
import Testing

/// The last check before Cairo (issue 32): a number that is not finite, or larger than a file
/// can hold (1e9, under the 2^31 of a PDF reader's integers), never reaches Cairo's pattern and
/// path calls: a pattern is refused at once, a drawing call is left out and `checkStatus` fails.
@Suite struct CairoNumbersTests {
    static let bad = [Double.nan, .infinity, -.infinity, 2e9, -1.5e9]

    @Test func patternsRefuseNumbersAFileCannotHold() throws {
        for value in Self.bad {
            #expect(throws: RenderError.self, "\(value)") { try CairoPattern.linear(from: .zero, to: Point(x: value, y: 0)) }
            #expect(throws: RenderError.self, "\(value)") { try CairoPattern.radial(centre: Point(x: 0, y: value), radius: 1) }
            let pattern = try CairoPattern.linear(from: .zero, to: Point(x: 1, y: 0))
            #expect(throws: RenderError.self, "\(value)") { try pattern.addStop(0.5, RGBAColor(red: value, green: 0, blue: 0)) }
            #expect(throws: RenderError.self, "\(value)") {
                try pattern.setMatrix(scaleX: 1, scaleY: 1, translateX: value, translateY: 0)
            }
        }
        // A matrix whose inverse (what SVG and PDF write) is too large: a scale of 1e-10.
        let pattern = try CairoPattern.linear(from: .zero, to: Point(x: 1, y: 0))
        #expect(throws: RenderError.self) { try pattern.setMatrix(scaleX: 1e-10, scaleY: 1, translateX: 0, translateY: 0) }
        // At the limit, and a millionth squeeze (the flattest ellipse), all is taken.
        _ = try CairoPattern.linear(from: Point(x: -1e9, y: 0), to: Point(x: 1e9, y: 1e9))
        try pattern.setMatrix(scaleX: 1e-6, scaleY: 1e6, translateX: 1e3, translateY: -1e9)
        try pattern.addStop(1, RGBAColor(red: 1, green: 1, blue: 1))
    }

    @Test(arguments: 0..<6)
    func aDrawingCallWithSuchANumberIsLeftOutAndFails(_ call: Int) throws {
        let image = try CairoImageSurface(width: 4, height: 4, hasAlpha: true)
        let context = try CairoContext(image.surface)
        let names = ["adding a rectangle", "adding a line", "scaling", "moving the origin", "setting a colour", "painting"]
        switch call {
        case 0: context.addRoundedRect(Rect(x: 0, y: 0, width: .infinity, height: 1), radius: 0)
        case 1: context.addLine(from: .zero, to: Point(x: .nan, y: 0))
        case 2: context.scale(0, 1)  // its inverse is infinite
        case 3: context.translate(3e9, 0)
        case 4: context.setSource(RGBAColor(red: 0, green: .nan, blue: 0))
        default: context.paint(alpha: -.infinity)
        }
        // Later calls go on (Cairo's own errors are sticky too); the first left out is the error.
        context.addRoundedRect(Rect(x: 0, y: 0, width: 2, height: 2), radius: 0)
        context.translate(1e10, 0)
        do {
            try context.checkStatus("drawing")
            Issue.record("call \(call): no error")
        } catch {
            #expect(error.description.contains(names[call]) && error.description.contains("a file can hold"), "\(error)")
        }
    }

    /// The scan of what Cairo wrote into a PDF (`PDFNumbers`), for what librsvg draws: a number
    /// token is refused at 2^31 or as `nan` and `inf`; strings, names, hex strings and comments
    /// are not numbers.
    @Test func aPDFScanFindsTheNumbersNoReaderTakes() {
        func scan(_ text: String) -> String? { PDFNumbers.firstUnusable(tokensOf: Array(text.utf8)[...]) }
        #expect(scan("0 0 m 2147483647 -2147483647.99 l 0.0000001 w S") == nil)
        #expect(scan("q 1 0 0 1 0 0 cm 2147483648 w") == "2147483648")
        #expect(scan("750000011285599664907516641280 w") == "750000011285599664907516641280")
        #expect(scan("-00003000000000.5 0 m") == "-00003000000000.5")
        #expect(scan("0000000000012 w") == nil)
        #expect(scan("/Coords [ nan 0 1 2 ]") == "nan")
        #expect(scan("[-nan] 0 d") == "-nan")
        #expect(scan("1 0 0 1 inf 0 cm") == "inf")
        #expect(scan("(nan 99999999999) Tj /Info <4e414e> %inf 99999999999\n/Infinity 1 Tf") == nil)
        #expect(scan("BI /W 1 /H 1 ID nan 99999999999 EI 0 0 m") == nil)
    }
}
