import Foundation
import FramedLayout
@testable import FramedRender
import FramedTestSupport
import Testing

/// Pango as framed opens it (dlopen, Sources/CText): its declarations held to the installed
/// headers, and what it measures.
@Suite struct TextLibraryTests {
    /// Tests/Fixtures/pango-abi-check.c compiles only if pango_abi.h's types and constants are
    /// the real Pango, GLib and Cairo ones, and the functions text.c takes have the signatures it
    /// gives them (libpango1.0-dev, in the Makefile's build packages).
    @Test func theDeclarationsMatchTheInstalledHeaders() throws {
        let flags = try Tool.run("pkg-config", ["--cflags", "pangocairo"])
        #expect(flags.status == 0, "pkg-config pangocairo (libpango1.0-dev): \(flags.stderr)")
        let folder = try TemporaryFolder.make("pango-abi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = SVGLibraryTests.root
        let arguments = flags.output.split(whereSeparator: \.isWhitespace).map(String.init)
            + ["-I", root.appendingPathComponent("Sources/CText").path,
               "-I", root.appendingPathComponent("Sources/CText/include").path,
               "-Werror=incompatible-pointer-types", "-Werror=int-conversion",
               "-fsyntax-only", root.appendingPathComponent("Tests/Fixtures/pango-abi-check.c").path]
        let r = try Tool.run("cc", arguments, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
    }

    static func caption(_ text: String, font: String = "16px \"DejaVu Sans\"") throws -> Caption {
        Caption(text: text, font: try CSSFont(parsing: font))
    }

    @Test func longerTextWrapsIntoMoreLinesOfTheSameHeight() throws {
        let measure = PangoTextMeasure()
        let one = try measure.measure(try Self.caption("Lake"), width: 150)
        let three = try measure.measure(try Self.caption("Lake Annecy at dawn, from the road above Talloires"), width: 150)
        #expect(one.lines == 1 && three.lines == 3, "\(one) \(three)")
        #expect(abs(three.height - 3 * one.height) < 1e-9)
        // DejaVu Sans's line is 1.164 em (ascent 0.928 + descent 0.236): 16px is 12pt.
        #expect(abs(one.height - 12 * 1.164) < 0.05, "\(one)")
        // An explicit line break starts a line; a word wider than the box breaks inside.
        #expect(try measure.measure(try Self.caption("a\nb"), width: 150).lines == 2)
        #expect(try measure.measure(try Self.caption(String(repeating: "W", count: 40)), width: 150).lines > 1)
    }

    @Test func emptyTextAndNULs() throws {
        #expect(try TextLayout(try Self.caption(""), width: 100).extents.width == 0)
        let caption = try Self.caption("a\u{0}b")
        do throws(TextError) {
            _ = try TextLayout(caption, width: 100)
            Issue.record("a NUL was laid out")
        } catch {
            #expect(error.description.contains("NUL"), "\(error)")
        }
    }

    @Test func measuringIsTheSameAtEveryScale() throws {
        // Without hinting the text's advance scales exactly: a layout for a surface scaled 3x
        // breaks lines where the measure does.
        let caption = try Self.caption("Lake Annecy at dawn, from the road above Talloires")
        let surface = try CairoImageSurface(width: 600, height: 300, hasAlpha: true)
        let context = try CairoContext(surface.surface)
        context.scale(3, 3)
        let drawn = try TextLayout(caption, width: 150, on: context).extents
        let measured = try TextLayout(caption, width: 150).extents
        #expect(drawn.lines == measured.lines && abs(drawn.height - measured.height) < 1e-9
                && abs(drawn.width - measured.width) < 1e-9, "\(drawn) \(measured)")
    }

    @Test func directionGlyphsAndFamilies() throws {
        #expect(try TextLayout(try Self.caption("\u{5E9}\u{5DC}\u{5D5}\u{5DD}"), width: 100).extents.right_to_left == 1)
        #expect(try TextLayout(try Self.caption("abc"), width: 100).extents.right_to_left == 0)
        #expect(try TextLayout.family(of: try CSSFont(parsing: "12px \"DejaVu Serif\"")) == "DejaVu Serif")
        #expect(CaptionCheck.warnings(try Self.caption("abc")).isEmpty)
        let missing = CaptionCheck.warnings(try Self.caption("abc", font: "12px \"Nowhere Sans\""))
        #expect(missing.count == 1 && missing[0].contains("\"Nowhere Sans\"") && missing[0].contains("DejaVu"), "\(missing)")
        // A private-use character no font has.
        let unknown = CaptionCheck.warnings(try Self.caption("a\u{F8FF}"))
        #expect(unknown.contains { $0.contains("no glyph") }, "\(unknown)")
    }
}
