import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Framed
import FramedTestSupport
import Testing

/// Numbers in the files framed writes (issue 32): gradients with numbers out of any range give
/// files that open in qpdf and an XML parser, with no `nan`, `inf` or integer too long for a PDF
/// reader; a number that slips past the layout (a library caller's NaN) or that librsvg draws
/// (an SVG picture) is an error, never a broken file.
@Suite struct FileNumbersTests {
    /// A small grey picture: its bytes (0x80) can never read as `nan`, `inf` or digits in a scan.
    static func picture() throws -> [UInt8] {
        try PictureEncoder.png(RasterImage(width: 8, height: 6, pixels: [UInt8](repeating: 0x80, count: 8 * 6 * 4),
                                           hasAlpha: false))
    }

    /// Extreme numbers, and the places in a gradient's text where they go.
    static let numbers = ["1e308", "-1e308", "1.7976931348623157e308", "1e300", "3e38", "1e30", "2147483648", "1e12",
                          "-1e12", "1e-300", "5e-324", "-0", "0", "1e-7"]
    /// N is a number, M its magnitude.
    static let shapes = [
        "linear-gradient(Ndeg, red, blue)", "linear-gradient(Nturn, red, blue)", "linear-gradient(Nrad, red 20%, blue)",
        "linear-gradient(red N%, blue -M%)", "linear-gradient(to right, red, lime N%, blue)",
        "linear-gradient(to top left, red Npx, blue)", "linear-gradient(red -Mpt, blue Npt)",
        "radial-gradient(circle Mpx, red, blue)", "radial-gradient(ellipse M% 1e-300%, red, blue)",
        "radial-gradient(ellipse 1e-300px M%, red, blue)", "radial-gradient(at N% 50%, red, blue)",
        "radial-gradient(circle 10px at -Mpx Npx, red, blue)", "radial-gradient(red N%, blue)",
        "radial-gradient(closest-side at Npx 0, red -M%, lime, blue N%)",
    ]

    /// Every shape with every number, less the ones the parser refuses by name (a length whose
    /// points overflow a double).
    static func texts() -> [String] {
        var texts: [String] = []
        for shape in shapes {
            for number in numbers {
                let magnitude = number.hasPrefix("-") ? String(number.dropFirst()) : number
                let text = shape.replacingOccurrences(of: "N", with: number).replacingOccurrences(of: "M", with: magnitude)
                    .replacingOccurrences(of: "--", with: "")
                if (try? CSSGradient(parsing: text)) != nil, !texts.contains(text) { texts.append(text) }
            }
        }
        return texts
    }

    /// `nan` or `inf` where a number goes (not inside a name such as `/Info`), or with
    /// `integers` (a PDF's limit; SVG takes any) an integer of ten digits or more; nil when
    /// there is none.
    static func brokenNumber(in text: String, integers: Bool = true) -> String? {
        let patterns = [#"(?<=[\s\[\]()<>{}"=:,;])[-+]?(nan|inf)(?![A-Za-z])"#, #"(?<=[\s\[\]"=:,;])[-+]?\d{10,}(?![\d.])"#]
        let string = text as NSString
        for pattern in patterns.prefix(integers ? 2 : 1) {
            let regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            guard let match = regex.firstMatch(in: text, range: NSRange(location: 0, length: string.length)) else { continue }
            let start = max(0, match.range.location - 40)
            let end = min(string.length, match.range.location + match.range.length + 40)
            return string.substring(with: NSRange(location: start, length: end - start))
        }
        return nil
    }

    /// The SVG parses as XML, and holds no broken number outside its embedded picture's data.
    static func checkSVG(_ bytes: [UInt8], _ label: String) {
        let parser = XMLParser(data: Data(bytes))
        #expect(parser.parse(), "\(label): not XML: \(String(describing: parser.parserError))")
        // XMLParser recovers from some breakage (a tag left open); XMLStructure does not.
        #expect(XMLStructure.problem(in: bytes, references: true) == nil, "\(label): \(XMLStructure.problem(in: bytes, references: true) ?? "")")
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: #"data:[^"]*"#, with: "data:", options: .regularExpression)
        if let broken = brokenNumber(in: text, integers: false) { Issue.record("\(label): SVG \(broken)") }
    }

    /// qpdf opens the PDF without a warning, and its uncompressed form (`--qdf`) holds no broken number.
    static func checkPDF(_ bytes: [UInt8], _ label: String, in folder: URL) throws {
        let pdf = folder.appendingPathComponent("g.pdf"), qdf = folder.appendingPathComponent("g.qdf")
        try Support.write(bytes, to: pdf)
        let check = try Tool.run("qpdf", ["--check", pdf.path])
        #expect(check.status == 0, "\(label): qpdf --check \(check.status): \(check.output) \(check.stderr)")
        let expand = try Tool.run("qpdf", ["--qdf", "--object-streams=disable", pdf.path, qdf.path])
        #expect(expand.status == 0, "\(label): qpdf --qdf \(expand.status): \(expand.stderr)")
        var text = String(decoding: try Data(contentsOf: qdf), as: UTF8.self)
        // The cross-reference table's ten-digit offsets and strings (dates) are not numbers of the drawing.
        if let xref = text.range(of: "\nxref\n", options: .backwards) { text = String(text[..<xref.lowerBound]) }
        text = text.replacingOccurrences(of: #"\([^()]*\)"#, with: "()", options: .regularExpression)
        if let broken = brokenNumber(in: text) { Issue.record("\(label): PDF \(broken)") }
    }

    @Test func extremeGradientsWriteWholeFiles() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = try Self.picture()
        let texts = Self.texts()
        #expect(texts.count > 150, "\(texts.count) gradients")
        for (index, text) in texts.enumerated() {
            let gradient = try CSSGradient(parsing: text)
            // On the mat and on the canvas around it (a margin), as a mat in a page's frame.
            var style = FrameStyle(padding: EdgeInsets(all: .px(20)), margin: .px(10))
            style.backgroundGradient = gradient
            style.canvasGradient = gradient
            do {
                Self.checkSVG(try Framer(style, format: .svg).frame(picture).bytes, text)
                try Self.checkPDF(try Framer(style, format: .pdf).frame(picture).bytes, text, in: folder)
                // Every seventh as PNG too: it decodes, at its size.
                if index % 7 == 0 {
                    let png = try Framer(style, format: .png).frame(picture).bytes
                    #expect(try Pictures.decode(data: png).image.width == 8 + 40 + 20, "\(text)")
                }
            } catch {
                Issue.record("\(text): \(error)")
            }
        }
    }

    /// What no parsing gives but a library caller can set: a non-finite angle or colour stops at
    /// Cairo, as an error naming the number.
    @Test(arguments: ["angle", "colour", "radius"])
    func aNonFiniteNumberIsAnErrorNotAFile(_ what: String) throws {
        var gradient = try CSSGradient(parsing: "linear-gradient(red, blue)")
        switch what {
        case "angle": gradient.kind = .linear(.angle(.infinity))
        case "colour": gradient.stops[0].color.green = .nan
        default: gradient.kind = .radial(shape: .circle, size: .radii(x: .percent(.nan), y: .percent(.nan)),
                                         centerX: .percent(50), centerY: .percent(50))
        }
        var style = FrameStyle(padding: EdgeInsets(all: .px(20)))
        style.backgroundGradient = gradient
        for format in [OutputFormat.svg, .pdf, .png] {
            do {
                let framed = try Framer(style, format: format).frame(try Self.picture())
                Issue.record("\(what), \(format): \(framed.bytes.count) bytes written")
            } catch {
                #expect("\(error)".contains("is not a number a file can hold"), "\(what), \(format): \(error)")
            }
        }
    }

    /// An SVG picture that librsvg draws with a line 10^30 wide: the SVG output holds the number
    /// as SVG may, the PDF would hold a 30-digit integer that qpdf refuses, and is an error.
    @Test func anSVGPictureDrawnPastWhatAPDFHoldsIsAnError() throws {
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><path d="M0 0 L100 50" stroke="black" stroke-width="1e30"/></svg>"#.utf8)
        Self.checkSVG(try Framer(FrameStyle(padding: EdgeInsets(all: .px(4))), format: .svg).frame(svg).bytes, "stroke-width 1e30")
        do {
            let framed = try Framer(FrameStyle(padding: EdgeInsets(all: .px(4))), format: .pdf).frame(svg)
            Issue.record("\(framed.bytes.count) bytes of PDF written")
        } catch {
            #expect("\(error)".contains("a number no PDF reader takes"), "\(error)")
        }
    }
}
