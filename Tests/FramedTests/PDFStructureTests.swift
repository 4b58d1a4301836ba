import Foundation
import Framed
import FramedTestSupport
import Testing

/// `PDFStructure`, the check that the fuzz targets run on every PDF they make, must pass what
/// framed writes and fail what is broken: a checker that passes everything would let the fuzzing
/// report nothing.
struct PDFStructureTests {
    /// What framed writes: its own compacted layout (object and xref streams) with a shadow,
    /// callouts and a caption; PDF/X-4 with a page, bleed and marks; a sheet. qpdf agrees.
    @Test func framedsPDFsAreSound() throws {
        let framers: [(String, Framer)] = [
            ("plain", try Framer(.classic, format: .pdf, [
                "shadow": "0 6px 12px 4px rgba(0,0,0,.6), inset 0 0 4px red",
                "caption": "A caption (with parentheses) \\ and 100% ünïcode",
                "annotate": "rect 2,2 20x10; badge 1 30,20; label 'Here' 40,30 -> 10,10",
                "title": "A title (with) \\ parentheses",
            ])),
            ("PDF/X-4", try Framer(.print, format: .pdf, ["page": "4x6in", "bleed": "3mm", "marks": "crop", "pdf-variant": "pdf/x-4"])),
            ("sheet", try Framer(.print, format: .pdf, ["size": "40mmx30mm", "sheet": "A6"])),
        ]
        let folder = try FileOutputTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, framer) in framers {
            let bytes = try framer.frame(FramerTests.jpeg(96, 64)).bytes
            #expect(PDFStructure.problem(in: bytes) == nil, "\(name): \(PDFStructure.problem(in: bytes) ?? "")")
            let file = folder.appendingPathComponent("\(name.filter(\.isLetter)).pdf")
            try Data(bytes).write(to: file)
            let qpdf = try Tool.run("qpdf", ["--check", file.path])
            #expect(qpdf.status == 0, "\(name): qpdf says \(qpdf.stdout) \(qpdf.stderr)")
        }
    }

    /// Each kind of breakage is found: a file cut short, an offset off by one, a stream's data
    /// changed, a /Length too long, and a number that is not finite in a content stream.
    @Test func brokenPDFsAreFound() throws {
        var framer = Framer()
        framer.output.format = .pdf
        try framer.set("shadow", "0 4px 8px black")
        let good = try framer.frame(FramerTests.jpeg(64, 48)).bytes
        #expect(PDFStructure.problem(in: good) == nil)

        #expect(PDFStructure.problem(in: Array(good[..<(good.count / 2)])) != nil, "cut in half")
        #expect(PDFStructure.problem(in: Array(good.dropLast(7))) != nil, "%%EOF cut off")

        // The first object's offset, one byte later: the xref no longer points at "1 0 obj".
        let shifted = Array(good[..<9]) + [10] + Array(good[9...])
        #expect(PDFStructure.problem(in: shifted) != nil, "an offset one byte off")

        // A byte in the middle of the last FlateDecode stream's data flipped.
        let marker = Array(">>\nstream\n".utf8)
        let starts = (0..<(good.count - marker.count)).filter { good[$0..<($0 + marker.count)].elementsEqual(marker) }
        let dataStart = try #require(starts.dropLast().last) + marker.count
        var flipped = good
        flipped[dataStart + 3] ^= 0xff
        #expect(PDFStructure.problem(in: flipped) != nil, "a flate stream's byte changed")

        // A small PDF of the classic layout, with a content stream of its own.
        func classic(_ content: String, lengthSlack: Int = 0) -> [UInt8] {
            var out = "%PDF-1.4\n"
            var offsets: [Int] = []
            let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                           "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 4 0 R >>",
                           "<< /Length \(content.utf8.count + lengthSlack) >>\nstream\n\(content)\nendstream"]
            for (i, o) in objects.enumerated() {
                offsets.append(out.utf8.count)
                out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
            }
            let xref = out.utf8.count
            out += "xref\n0 5\n0000000000 65535 f \n"
            for o in offsets { out += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
            out += "trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
            return Array(out.utf8)
        }
        #expect(PDFStructure.problem(in: classic("1 0 0 1 0 0 cm 0 0 5 5 re f")) == nil, "a sound classic file")
        #expect(PDFStructure.problem(in: classic("1 0 0 1 nan 0 cm 0 0 5 5 re f")) != nil, "nan in a content stream")
        #expect(PDFStructure.problem(in: classic("1 0 0 1 0 0 cm 0 0 -inf 5 re f")) != nil, "-inf in a content stream")
        #expect(PDFStructure.problem(in: classic("(nan inf) Tj 0 0 5 5 re f")) == nil, "text in a string is not a number")
        #expect(PDFStructure.problem(in: classic("0 0 5 5 re f", lengthSlack: 40)) != nil, "a /Length past endstream")
    }
}
