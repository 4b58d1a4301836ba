import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import FramedTestSupport
import Testing

/// librsvg as framed opens it (dlopen, Sources/CRsvg): its declarations held to the installed
/// headers, the sniffer, framed's own check of the text, and the natural size.
@Suite struct SVGLibraryTests {
    /// The package's root, from this file's place.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Tests/Fixtures/rsvg-abi-check.c compiles only if rsvg_abi.h and crsvg.h declare what the
    /// real GLib and librsvg headers do (librsvg2-dev, in the Makefile's build packages).
    @Test func theDeclarationsMatchTheInstalledHeaders() throws {
        let flags = try Tool.run("pkg-config", ["--cflags", "librsvg-2.0"])
        #expect(flags.status == 0, "pkg-config librsvg-2.0 (librsvg2-dev): \(flags.stderr)")
        let folder = try TemporaryFolder.make("rsvg-abi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = flags.output.split(separator: " ").map(String.init).filter { !$0.isEmpty && $0 != "\n" }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            + ["-I", Self.root.appendingPathComponent("Sources/CRsvg").path,
               "-I", Self.root.appendingPathComponent("Sources/CRsvg/include").path,
               "-fsyntax-only", Self.root.appendingPathComponent("Tests/Fixtures/rsvg-abi-check.c").path]
        let r = try Tool.run("cc", arguments, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func sniffing() {
        func sniff(_ text: String) -> PictureFormat? { PictureFormat.sniff(Array(text.utf8).prefix(PictureFormat.sniffLength)) }
        #expect(sniff(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#) == .svg)
        #expect(sniff("\u{FEFF}  <?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC \"x\" \"y\">\n<svg>") == .svg)
        #expect(sniff(#"<svg:svg xmlns:svg="http://www.w3.org/2000/svg">"#) == .svg)
        #expect(sniff(String(repeating: "<!-- long -->", count: 200) + "<svg>") == .svg)
        #expect(sniff("<html><svg></svg></html>") == nil)
        #expect(sniff("<svgx>") == nil)
        #expect(sniff("hello <svg>") == nil)
        #expect(sniff("<?xml version=\"1.0\"?><!-- never ends") == nil)
    }

    static func load(_ text: String) throws(RasterError) -> SVGDocument {
        try SVGDocument.load(Array(text.utf8), limits: SVGLimits())
    }

    @Test func naturalSizes() throws {
        let cases: [(String, Double, Double)] = [
            (#"width="1in" height="2in""#, 96, 192), (#"width="25.4mm" height="2.54cm""#, 96, 96),
            (#"width="30pt" height="3pc""#, 40, 48), (#"width="10" height="20""#, 10, 20),
            (#"viewBox="0 0 30 10""#, 30, 10), (#"width="60" viewBox="0 0 30 10""#, 60, 20),
        ]
        for (size, width, height) in cases {
            let document = try Self.load(#"<svg xmlns="http://www.w3.org/2000/svg" \#(size)/>"#)
            #expect(abs(document.width - width) < 1e-5 && abs(document.height - height) < 1e-5, "\(size)")
            #expect(abs(document.naturalSize.width - width * 0.75) < 1e-5)
        }
    }

    /// A load that takes longer than `SVGLimits.seconds` is refused in one line (librsvg cannot
    /// be stopped: its thread ends alone).
    @Test func aSlowLoadIsRefused() throws {
        var limits = SVGLimits()
        limits.seconds = 0.001
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
            + String(repeating: #"<rect width="1" height="1" fill="red"/>"#, count: 50_000) + "</svg>"
        do {
            _ = try SVGDocument.load(Array(text.utf8), limits: limits)
            Issue.record("loaded within a millisecond")
        } catch {
            #expect(error.description.contains("took more than") && !error.description.contains("\n"), "\(error)")
        }
    }

    /// Drawing is held to the limit too, on its own clock: a document that loads at once but
    /// whose filter takes seconds to draw (ten octaves of turbulence over a million pixels,
    /// about a second of one core) is refused in one line when the limit is reached, not when
    /// the drawing ends; and while that drawing runs on alone, the document refuses another.
    @Test func aSlowDrawingIsRefused() throws {
        _ = try Self.load(#"<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>"#)  // librsvg loaded
        var limits = SVGLimits()
        limits.seconds = 0.25
        let side = 1000
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(side)" height="\#(side)">"#
            + #"<filter id="f" x="0" y="0" width="1" height="1"><feTurbulence baseFrequency="0.05" numOctaves="10"/>"#
            + #"</filter><rect width="\#(side)" height="\#(side)" filter="url(#f)"/></svg>"#
        let document = try SVGDocument.load(Array(text.utf8), limits: limits)
        let surface = try CairoImageSurface(width: side, height: side, hasAlpha: true)
        let context = try CairoContext(surface.surface)
        let rect = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
        let clock = ContinuousClock(), start = clock.now
        do {
            try document.draw(in: context, rect: rect)
            Issue.record("drew within \(limits.seconds) s")
        } catch {
            #expect(error.description.contains("took more than") && !error.description.contains("\n"), "\(error)")
        }
        let waited = clock.now - start
        #expect(waited < .milliseconds(900), "refused after \(waited), the limit being 0.25 s")
        do {
            try document.draw(in: try CairoContext(try CairoImageSurface(width: 1, height: 1, hasAlpha: true).surface),
                              rect: Rect(x: 0, y: 0, width: 1, height: 1))
            Issue.record("a second drawing started while the first ran on")
        } catch {
            #expect(error.description.contains("has not ended"), "\(error)")
        }
    }

    @Test func theCheckCountsAndRefuses() throws {
        let check = try SVGCheck.run(Array(#"""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1" height="1">
              <g id="a"><rect/><rect/></g><use xlink:href="#a"/><use href="#a"/>
              <image href="file:///etc/passwd"/><image href="http://example.com/x.png"/>
            </svg>
            """#.utf8), limits: SVGLimits())
        #expect(check.elements == 8)
        #expect(check.externalCount == 2 && check.external.contains("file:///etc/passwd"))
        var limits = SVGLimits()
        limits.elements = 3
        #expect(throws: RasterError.self) {
            try SVGCheck.run(Array(#"<svg xmlns="http://www.w3.org/2000/svg"><g/><g/><g/></svg>"#.utf8), limits: limits)
        }
    }

    // MARK: Issue 32: work bounded before librsvg sees it

    static func svg(_ body: String) -> [UInt8] {
        Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">\#(body)</svg>"#.utf8)
    }

    static func refusal(_ body: String, limits: SVGLimits = SVGLimits()) -> String? {
        do { _ = try SVGCheck.run(svg(body), limits: limits); return nil } catch { return error.description }
    }

    /// Font sizes in every unit, as attributes, in style attributes and sheets and in the
    /// `font` shorthand, em and % of the parent's: refused over 100,000 px; a negative size
    /// noted.
    @Test func fontSizesAreBounded() throws {
        for body in [#"<text font-size="1e7">x</text>"#, #"<text font-size="1100in">x</text>"#,
                     #"<text style="font-size:200000px">x</text>"#, #"<style>text { font-size: 1e6pt }</style><text>x</text>"#,
                     #"<text style="font: italic bold 1e6px/2 serif">x</text>"#,
                     #"<g font-size="50000"><text font-size="3em">x</text></g>"#,
                     #"<g font-size="50000"><g font-size="300%"><text>x</text></g></g>"#] {
            #expect(Self.refusal(body)?.contains("font-size of") == true, "\(body)")
        }
        for body in [#"<text font-size="100000">x</text>"#, #"<text font-size="1000in">x</text>"#,
                     #"<g font-size="50000"><text font-size="2em">x</text></g>"#, #"<text font-size="large">x</text>"#,
                     #"<g font-size="50000"></g><text font-size="3em">x</text>"#] {
            #expect(Self.refusal(body) == nil, "\(body)")
        }
        let check = try SVGCheck.run(Self.svg(#"<text font-size="-2">x</text><text style="font-size:-1em">y</text>"#), limits: SVGLimits())
        #expect(check.notes == ["a negative font-size (-2) is ignored", "a negative font-size (-1em) is ignored"])
    }

    /// Characters of text, counted through tspans, references and CDATA, per `<text>` and in
    /// all.
    @Test func textIsCounted() throws {
        let check = try SVGCheck.run(Self.svg(#"<text>ab<tspan>&#xFDFD;&amp;</tspan><![CDATA[<é>]]></text><title>not text</title>"#),
                                     limits: SVGLimits())
        #expect(check.textCharacters == 7)
        var limits = SVGLimits()
        limits.textCharacters = 6
        #expect(Self.refusal(#"<text>ab<tspan>&#xFDFD;&amp;</tspan><![CDATA[<é>]]></text>"#, limits: limits)?
                    .contains("more than 6 characters") == true)
        limits = SVGLimits()
        limits.documentCharacters = 5
        #expect(Self.refusal("<text>abc</text><text>def</text>", limits: limits)?.contains("more than 5 characters of text") == true)
    }

    /// Noncharacters in text (raw or referenced) become U+FFFD in what librsvg reads; the rest
    /// of the bytes stay.
    @Test func noncharactersAreReplaced() throws {
        // Swift's literals refuse noncharacters: they are made at run time.
        let fdd0 = String(Unicode.Scalar(0xFDD0)!), last = String(Unicode.Scalar(0x1FFFF)!)
        let bytes = Self.svg("<text x=\"1\">a\(fdd0)b&#xFDEF;c&#65534;\(last)</text>")
        let check = try SVGCheck.run(bytes, limits: SVGLimits())
        let sanitized = String(decoding: check.sanitized(bytes), as: UTF8.self)
        #expect(sanitized == String(decoding: Self.svg("<text x=\"1\">a\u{FFFD}b&#xFFFD;c&#xFFFD;\u{FFFD}</text>"), as: UTF8.self))
    }

    /// The tessellator's work: crossings count, lines that merely share the sweep count a
    /// sixteenth, strokes twice; every path command read.
    @Test func pathWorkIsEstimated() {
        // Two crossing lines (an X), and a square: one crossing, no crossing.
        #expect(SVGPathWork(pathData: Array("M0 0 L10 10 M0 10 L10 0".utf8)[...]).crossings() == 1)
        #expect(SVGPathWork(pathData: Array("M0 0 h10 v10 h-10 z".utf8)[...]).crossings() == 0)
        // Every command and number form: H V C S Q T A, relative, exponents, packed numbers.
        let all = SVGPathWork(pathData: Array("M1e1,1E1l.5.5-1-1H3V4C5 5 6 6 7 7S8 8 9 9Q1 1 2 2T3 3a5 5 0 1 0 10 0z".utf8)[...])
        #expect(all.segments.count == 15, "\(all.segments.count)")
        #expect(all.segments.first.map { $0.x0 == 10 && $0.y0 == 10 && $0.x1 == 10.5 && $0.y1 == 10.5 } == true)
        // A polygon of 100,000 points around a circle: each horizontal line meets 2 edges.
        let circle = (0..<100_000).map { i -> String in
            let a = Double(i) * 2 * Double.pi / 100_000
            return "\(500 + 400 * cos(a)),\(500 + 400 * sin(a))"
        }.joined(separator: " ")
        let shape = SVGPathWork(points: Array(circle.utf8)[...], closed: true)
        #expect(shape.work(stroked: false) < 200_000, "\(shape.work(stroked: false))")
        // 5,000 random lines across a box cross some 3 million times (the check's sample, within 5 %).
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 33 % 1000) / 10
        }
        let scribble = SVGPathWork(pathData: Array(("M0 0 " + (0..<5000).map { _ in "L\(next()) \(next())" }.joined(separator: " ")).utf8)[...])
        let exact = Self.exactCrossings(scribble.segments)
        #expect(abs(scribble.crossings() - Double(exact)) < 0.05 * Double(exact), "\(scribble.crossings()) vs \(exact)")
        #expect(scribble.work(stroked: true) > 2 * scribble.crossings())
    }

    /// Crossings counted pair by pair (the test's own count).
    static func exactCrossings(_ segments: [(x0: Double, y0: Double, x1: Double, y1: Double)]) -> Int {
        func orient(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
            (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        }
        var count = 0
        for i in segments.indices {
            let a = segments[i]
            for j in (i + 1)..<segments.count {
                let b = segments[j]
                let d1 = orient(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0), d2 = orient(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1)
                let d3 = orient(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0), d4 = orient(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1)
                if d1 * d2 < 0 && d3 * d4 < 0 { count += 1 }
            }
        }
        return count
    }

    /// Filters: each use weighs its primitives (a blur 2, a convolution its cells, turbulence
    /// its octaves, a morphology its radius besides); a kernel must be as large as its order.
    @Test func filtersAreWeighed() throws {
        let check = try SVGCheck.run(Self.svg("""
            <filter id="a"><feGaussianBlur stdDeviation="3"/><feOffset dx="1"/><feMerge><feMergeNode/></feMerge></filter>
            <filter id="b"><feConvolveMatrix order="3 2" kernelMatrix="1 1 1 1 1 1"/><feMorphology radius="4 6"/></filter>
            <rect filter="url(#a)"/><rect style="filter: url(#a)"/><rect filter="url('#b')"/><rect/>
            """), limits: SVGLimits())
        // a: 2 + 1 + 1 (feMerge; its node is no primitive of the filter), twice; b: 6 + 1.
        #expect(check.filterWeight == 15, "\(check.filterWeight)")
        #expect(check.filterRadius == 10)
        let document = try SVGDocument.load(Self.svg(#"<filter id="f"><feFlood/></filter><rect filter="url(#f)"/>"#),
                                            limits: SVGLimits(maxPixels: 400))
        #expect(throws: Never.self) { try document.checkFilters(area: 100, scale: 1) }
        #expect(throws: RasterError.self) { try document.checkFilters(area: 101, scale: 1) }
        #expect(Self.refusal(#"<filter><feConvolveMatrix order="3" kernelMatrix="1 2 3"/></filter>"#)?.contains("kernel") == true)
        #expect(Self.refusal(#"<filter><feConvolveMatrix order="17 16" kernelMatrix="1"/></filter>"#)?.contains("over 256 cells") == true)
    }

    /// Dashes: an outline's length over its pattern's period, for paths and shapes, from an
    /// attribute or a style; gradient stops, counted per gradient.
    @Test func dashesAndStopsAreCounted() {
        var limits = SVGLimits()
        limits.dashes = 1000
        // A 100-unit line in dashes of 0.1 and gaps of 0.1: 1,000 dashes and gaps; a square of
        // side 100 in "1 1 2": a period of 8 (odd lists repeat) 50 times around its 400, 6
        // parts each, 300.
        #expect(Self.refusal(#"<line x2="100" stroke-dasharray="0.1"/>"#, limits: limits) == nil)
        #expect(Self.refusal(#"<line x2="100.2" stroke-dasharray="0.1"/>"#, limits: limits)?.contains("dashes") == true)
        limits.dashes = 300
        #expect(Self.refusal(#"<rect width="100" height="100" style="stroke-dasharray: 1 1 2"/>"#, limits: limits) == nil)
        #expect(Self.refusal(#"<rect width="100" height="101" style="stroke-dasharray: 1 1 2"/>"#, limits: limits)?
                    .contains("dashes") == true)
        #expect(Self.refusal(#"<circle r="1e9" stroke-dasharray="0"/><path d="M0 0 H1e9" stroke-dasharray="none"/>"#,
                             limits: limits) == nil)
        // A polyline's length is its points', a polygon's closed back to its first: 100 and 200
        // here, in dashes of 0.1. Without points (or a path without data) there is nothing to dash.
        limits.dashes = 1000
        #expect(Self.refusal(#"<polyline points="0,0 100,0" stroke-dasharray="0.1"/>"#, limits: limits) == nil)
        #expect(Self.refusal(#"<polygon points="0,0 100,0" stroke-dasharray="0.1"/>"#, limits: limits)?
                    .contains("dashes") == true)
        #expect(Self.refusal(#"<polyline stroke-dasharray="2 3"/><polygon stroke-dasharray="2 3"/><path stroke-dasharray="1"/>"#,
                             limits: limits) == nil)
        limits = SVGLimits()
        limits.gradientStops = 2
        #expect(Self.refusal(#"<linearGradient><stop/><stop/></linearGradient><radialGradient><stop/><stop/></radialGradient>"#,
                             limits: limits) == nil)
        #expect(Self.refusal(#"<radialGradient><stop/><stop/><stop/></radialGradient>"#, limits: limits)?
                    .contains("more than 2 stops") == true)
    }

    /// A picture in a `data:` URL is held to what framed's decoder refuses before decoding: a
    /// progressive JPEG's scans.
    @Test func dataPicturesMeetTheDecodersChecks() throws {
        let jpeg = try PictureEncoder.jpeg(Support.busyPicture(width: 64, height: 48, alpha: false), progressive: true)
        var starts: [Int] = []
        for i in 0..<(jpeg.count - 1) where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { starts.append(i) }
        let scan = Array(jpeg[starts[0]..<starts[1]])
        func body(_ bytes: [UInt8]) -> String {
            #"<image width="10" height="10" href="data:image/jpeg;base64,\#(Data(bytes).base64EncodedString())"/>"#
        }
        #expect(Self.refusal(body(jpeg)) == nil)
        // The first scan (DC of every component) 70 more times: 72 passes and more.
        let passes = Array(jpeg.dropLast(2)) + Array(repeating: scan, count: 70).flatMap { $0 } + [0xFF, 0xD9]
        #expect(Self.refusal(body(passes))?.contains("scans go over the picture") == true)
    }
}
