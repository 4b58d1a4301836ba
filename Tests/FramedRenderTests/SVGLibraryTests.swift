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
}
