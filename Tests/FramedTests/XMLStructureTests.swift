import Foundation
import Framed
import FramedTestSupport
import Testing

/// `XMLStructure`, the check the fuzz targets run on every SVG they make and on a PDF/X's XMP
/// packet, must pass what framed writes and fail what is broken.
struct XMLStructureTests {
    /// An SVG picture with text, a gradient, a `<use>` and entities, to frame as vector.
    static let svgPicture = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="80" height="60">
        <defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>
        <rect id="r" width="30" height="20"/></defs>
        <rect width="80" height="60" fill="url(#g)"/><use xlink:href="#r" x="40" y="30"/>
        <text x="5" y="50" font-size="12">A &amp; B &lt;c&gt;</text></svg>
        """.utf8)

    /// Python's expat, the second judge (Foundation's `XMLParser` recovers from unclosed tags,
    /// a second root and unquoted values, and reads them as well formed): nil when it reads
    /// `bytes`, given on its standard input, as well formed, else its message.
    static func expat(_ bytes: [UInt8]) throws -> String? {
        let script = "import sys, xml.parsers.expat as e\np = e.ParserCreate()\ntry:\n    p.ParseFile(sys.stdin.buffer)\nexcept e.ExpatError as x:\n    print(x)"
        let run = try Tool.run("python3", ["-c", script], stdin: Data(bytes))
        #expect(run.status == 0, "python3 ran: \(run.stderr)")
        return run.output.isEmpty ? nil : run.output
    }

    @Test func framedsSVGsAreSound() throws {
        let cases: [(String, Framer, [UInt8])] = [
            ("shadows, caption, callouts", try Framer(.classic, format: .svg, [
                "shadow": "0 6px 12px 4px rgba(0,0,0,.6), inset 0 0 4px red", "radius": "12px",
                "caption": "A caption <with> & \"quotes\" and ünïcode",
                "annotate": "rect 2,2 20x10; badge 1 30,20; label 'A <b> & c' 40,30 -> 10,10; highlight 5,5 20x8; magnify 10,10 8x8 -> 70,40; spotlight 2,2 30x30; redact 50,40 10x10",
            ]), try FramerTests.jpeg(96, 64)),
            ("docs chrome on a gradient", try Framer(.docs, format: .svg, [
                "chrome": "macos", "chrome-title": "<title> & 'more'", "canvas-color": "linear-gradient(135deg, #6a11cb, #2575fc)",
            ]),
             try FramerTests.png(64, 48, alpha: 200)),
            ("an SVG picture", try Framer(.classic, format: .svg, ["shadow": "0 0 8px blue"]), Self.svgPicture),
        ]
        for (name, framer, picture) in cases {
            let bytes = try framer.frame(picture).bytes
            #expect(XMLStructure.problem(in: bytes, references: true) == nil,
                    "\(name): \(XMLStructure.problem(in: bytes, references: true) ?? "")")
            #expect(try Self.expat(bytes) == nil, "\(name): expat disagrees")
        }
    }

    /// A PDF/X's XMP packet, with a title and an author that XML must escape.
    @Test func aPDFXsMetadataIsSound() throws {
        let framer = try Framer(.print, format: .pdf, ["page": "4x6in", "pdf-variant": "pdf/x-4",
                                                       "title": "Fish & <chips> \"daily\"", "author": "O'Brien ünïcode"])
        let pdf = try framer.frame(FramerTests.jpeg(64, 48)).bytes
        let packet = try #require(XMLStructure.xmpPacket(in: pdf))
        #expect(XMLStructure.problem(in: packet) == nil, "\(XMLStructure.problem(in: packet) ?? "")")
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.hasPrefix("<?xpacket begin") && text.hasSuffix("?>"))
        #expect(text.contains("Fish &amp; &lt;chips&gt;"), "the title escaped")
        #expect(try Self.expat(packet) == nil)
    }

    /// Each kind of breakage is found, and expat agrees that each is broken (except the
    /// references, which are SVG's and not XML's).
    @Test func brokenXMLIsFound() throws {
        let good = ##"<?xml version="1.0"?><!-- c --><svg a='1' b="&amp;&#60;&#x3e;"><g id="x"/><![CDATA[<&]]>"##
            + ##"<use href="#x" fill="url(#x)"/>text &quot;</svg><?pi done?>"##
        #expect(XMLStructure.problem(in: Array(good.utf8), references: true) == nil,
                "\(XMLStructure.problem(in: Array(good.utf8), references: true) ?? "")")
        let broken: [(String, [UInt8])] = [
            ("not closed", Array("<svg><g></svg>".utf8)),
            ("crossed", Array("<svg><g><a></g></a></svg>".utf8)),
            ("cut short", Array("<svg><g/>".utf8)),
            ("an attribute twice", Array(##"<svg a="1" a="2"/>"##.utf8)),
            ("no quotes", Array("<svg a=1/>".utf8)),
            ("< in a value", Array(##"<svg a="<"/>"##.utf8)),
            ("an unknown entity", Array("<svg>&nbsp;</svg>".utf8)),
            ("a bare &", Array("<svg>fish & chips</svg>".utf8)),
            ("a reference to NUL", Array("<svg>&#0;</svg>".utf8)),
            ("a control character", Array("<svg>\u{1}</svg>".utf8)),
            ("overlong UTF-8", Array("<svg>".utf8) + [0xC0, 0x80] + Array("</svg>".utf8)),
            ("a lone continuation byte", Array("<svg>".utf8) + [0x80] + Array("</svg>".utf8)),
            ("a surrogate", Array("<svg>".utf8) + [0xED, 0xA0, 0x80] + Array("</svg>".utf8)),
            ("-- in a comment", Array("<svg><!-- a -- b --></svg>".utf8)),
            ("text outside", Array("<svg/>x".utf8)),
            ("two roots", Array("<svg/><svg/>".utf8)),
            ("a DOCTYPE", Array("<!DOCTYPE svg><svg/>".utf8)),
            ("attributes run together", Array(##"<svg a="1"b="2"/>"##.utf8)),
        ]
        for (name, bytes) in broken {
            #expect(XMLStructure.problem(in: bytes) != nil, "\(name)")
            if name != "a DOCTYPE" { #expect(try Self.expat(bytes) != nil, "\(name): expat reads it") }
        }
        for (name, svg) in [("a dangling href", ##"<svg><use href="#y"/></svg>"##),
                            ("a dangling url()", ##"<svg><g id="x" style="fill:url(#x);mask:url(#y)"/></svg>"##),
                            ("an id twice", ##"<svg><g id="x"/><g id="x"/></svg>"##)] {
            #expect(XMLStructure.problem(in: Array(svg.utf8)) == nil, "\(name): well formed")
            #expect(XMLStructure.problem(in: Array(svg.utf8), references: true) != nil, "\(name)")
        }
    }
}
