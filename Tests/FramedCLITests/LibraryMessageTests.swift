import Foundation
import FramedTestSupport
import Testing

/// Issue 32, items 12 and 13: what the libraries would write on their own (Pango's and GLib's
/// log, fontconfig's and dav1d's lines on the C library's stderr) never reaches framed's
/// stderr, where each problem is one line in framed's words; and text that Cairo cannot write
/// into a PDF (a name that is not UTF-8, a noncharacter) is written with U+FFFD instead.
@Suite struct LibraryMessageTests {
    static func write(_ text: String, _ name: String, in folder: URL) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    /// Text past what Pango and FreeType draw (a 16 px caption at --scale 64 is 1,024 pixels
    /// tall; a 13 px window title 832) is a usage error in one line, before any picture is
    /// read; at --scale 50 the same caption (800 pixels) is drawn.
    @Test func textTooLargeToDrawIsOneLine() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try CLITests.framed(["shot.png", "--caption", "hello", "--scale", "64", "--size", "100x100", "-o", "c.png"],
                                    in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["caption", "1024 pixels", "800", "--scale"])
        r = try CLITests.framed(["shot.png", "--chrome", "macos", "--chrome-title", "hello", "--size", "200x200", "--scale", "64",
                                 "-o", "t.png"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["window title", "832 pixels"])
        r = try CLITests.framed(["shot.png", "--caption", "hello", "--scale", "50", "--size", "100x100", "-o", "c.png"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try CLITests.files(in: folder) == ["c.png", "photo.jpg", "shot.png"])
    }

    /// A negative font-size in an SVG (Pango's assertion, several lines of Pango-CRITICAL) is
    /// one warning; a corrupt AVIF (dav1d's "Error parsing sequence header" on stderr) is one
    /// error line.
    @Test func librariesWriteNothingOnTheirOwn() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">"#
                       + #"<text x="10" y="50" font-size="-5">hi</text><text x="10" y="80" style="font-size: -3px">ho</text></svg>"#,
                       "negative.svg", in: folder)
        for output in ["n.pdf", "n.png"] {
            let r = try CLITests.framed(["negative.svg", "-o", output], in: folder)
            #expect(r.status == 0)
            #expect(r.stderr == "framed: warning: negative.svg: SVG: a negative font-size (-5) is ignored\n"
                        + "framed: warning: negative.svg: SVG: a negative font-size (-3px) is ignored\n", "\(r.stderr)")
        }
        let made = try Tool.run("avifenc", ["-l", "shot.png", "good.avif"], in: folder)
        try #require(made.status == 0, "avifenc (Debian: libavif-bin): \(made.stderr)")
        var avif = [UInt8](try Data(contentsOf: folder.appendingPathComponent("good.avif")))
        let mdat = try #require(avif.indices.first { avif[$0..<min($0 + 4, avif.count)].elementsEqual("mdat".utf8) })
        // The sequence header's fields, after its OBU header and size.
        for k in (mdat + 8)..<(mdat + 12) { avif[k] ^= 0xFF }
        try Data(avif).write(to: folder.appendingPathComponent("bad.avif"))
        let heif = try Tool.run("heif-convert", ["bad.avif", "x.png"], in: folder)
        #expect((heif.output + heif.stderr).contains("Error parsing sequence header"), "dav1d has its say: \(heif.output) \(heif.stderr)")
        let r = try CLITests.framed(["bad.avif", "-o", "bad.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["bad.avif"])
    }

    /// `--caption '{name}'` for a name that is not UTF-8, a caption with a noncharacter and an
    /// SVG whose text holds one: each written, in PNG, SVG and PDF, with U+FFFD where Cairo's
    /// PDF text would refuse the character.
    @Test func textThatCairoRefusesIsWrittenWithTheReplacementCharacter() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60">"#
                       + #"<text x="5" y="40" font-size="20">a&#xFDD0;b&#xFDEF;</text></svg>"#, "text-nonchar.svg", in: folder)
        let copied = try RobustnessTests.sh("cp shot.png $'bad\\xe9\\xff.png'", in: folder)
        #expect(copied.status == 0)
        for format in ["png", "svg", "pdf"] {
            let r = try RobustnessTests.sh("\"$FRAMED\" $'bad\\xe9\\xff.png' --caption '{name}' -o name.\(format) -f", in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(format): \(r.stderr)")
            let caption = try CLITests.framed(["shot.png", "--caption", "x" + String(Unicode.Scalar(0xFDD0)!) + "y",
                                               "-o", "nonchar-caption.\(format)", "-f"],
                                              in: folder)
            #expect(caption.status == 0 && caption.stderr.isEmpty, "\(format): \(caption.stderr)")
            let svg = try CLITests.framed(["text-nonchar.svg", "-o", "nonchar.\(format)", "-f"], in: folder)
            #expect(svg.status == 0 && svg.stderr.isEmpty, "\(format): \(svg.stderr)")
        }
        for (pdf, expected) in [("name.pdf", "bad\u{FFFD}\u{FFFD}.png"), ("nonchar-caption.pdf", "x\u{FFFD}y"),
                                ("nonchar.pdf", "a\u{FFFD}b\u{FFFD}")] {
            let text = try Tool.run("pdftotext", [pdf, "-"], in: folder)
            #expect(text.output.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(pdf): \(text.output)")
        }
        // A PDF's title and author, plain and PDF/X-4 (whose XMP states them again, as XML).
        let title = "t" + String(Unicode.Scalar(0xFFFF)!) + "u", author = "a" + String(Unicode.Scalar(0x1FFFE)!) + "b"
        for variant in ["plain", "pdf/x-4"] {
            let extra = variant == "pdf/x-4" ? ["--pdf-variant", variant, "--page", "4x6in"] : []
            let r = try CLITests.framed(["shot.png", "--title", title, "--author", author, "-o", "meta.pdf", "-f"] + extra, in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(variant): \(r.stderr)")
            let info = try Tool.run("pdfinfo", ["meta.pdf"], in: folder).output
            #expect(info.contains("\nTitle:           t\u{FFFD}u\n") || info.hasPrefix("Title:           t\u{FFFD}u\n"), "\(variant): \(info)")
            #expect(info.contains("\nAuthor:          a\u{FFFD}b\n"), "\(variant): \(info)")
            guard variant == "pdf/x-4" else { continue }
            let pdf = try [UInt8](Data(contentsOf: folder.appendingPathComponent("meta.pdf")))
            let packet = try #require(XMLStructure.xmpPacket(in: pdf))
            #expect(XMLStructure.problem(in: packet) == nil, "\(XMLStructure.problem(in: packet) ?? "")")
            #expect(String(decoding: packet, as: UTF8.self).contains("t\u{FFFD}u"), "the XMP's title is the Info's")
        }
    }
}
