import Foundation
import Framed
import FramedTestSupport
import Testing

/// Framing into files: the format from the name, atomic writes, existing files, the picture
/// never overwritten, documents, and what goes into a library PDF.
struct FileOutputTests {
    /// A folder holding `photo.jpg` (320x200).
    static func folder() throws -> URL {
        let folder = try TemporaryFolder.make("framed-library")
        try Data(FramerTests.jpeg(320, 200)).write(to: folder.appendingPathComponent("photo.jpg"))
        return folder
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    @Test func theFormatComesFromTheName() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        let framer = Framer()
        for (name, magic) in [("a.pdf", Array("%PDF-".utf8)), ("b.PNG", [0x89, 0x50, 0x4E, 0x47]), ("c.svg", Array("<?xml".utf8))] {
            let report = try framer.frame(photo, to: folder.appendingPathComponent(name).path)
            #expect(try Self.bytes(folder.appendingPathComponent(name)).starts(with: magic), "\(name)")
            #expect(report.sourcePixels == PixelSize(width: 320, height: 200))
        }
        #expect(throws: FramingError(picture: photo, problem: .unknownFormat(output: folder.appendingPathComponent("d.gif").path))) {
            try framer.frame(photo, to: folder.appendingPathComponent("d.gif").path)
        }
        var svg = framer
        svg.output.format = .svg
        try svg.frame(photo, to: folder.appendingPathComponent("e.pdf").path)
        #expect(try Self.bytes(folder.appendingPathComponent("e.pdf")).starts(with: Array("<?xml".utf8)), "the format set wins")
    }

    /// An output's missing folders are made (as `mkdir -p`), for a picture and a document alike;
    /// a folder that cannot be made is an error naming it, and nothing is written.
    @Test func missingFoldersAreMade() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        try Framer().frame(photo, to: folder.appendingPathComponent("a/b/framed.png").path)
        #expect(try Self.bytes(folder.appendingPathComponent("a/b/framed.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        try Framer().document([photo, photo], to: folder.appendingPathComponent("c/d/book.pdf").path)
        #expect(try Self.bytes(folder.appendingPathComponent("c/d/book.pdf")).starts(with: Array("%PDF-".utf8)))
        try Data().write(to: folder.appendingPathComponent("blocker"))
        let blocked = folder.appendingPathComponent("blocker/e/x.png").path
        let error = #expect(throws: FramingError.self) { try Framer().frame(photo, to: blocked) }
        guard case let .cannotWrite(output, reason)? = error?.problem else {
            Issue.record("not a write error: \(String(describing: error))")
            return
        }
        #expect(output == blocked && reason.hasPrefix("cannot create the folder ") && reason.hasSuffix("/blocker/e (Not a directory)"),
                "\(reason)")
    }

    @Test func anExistingOutputIsKeptUnlessReplaced() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path, out = folder.appendingPathComponent("out.png")
        try Data("keep me".utf8).write(to: out)
        #expect(throws: FramingError(picture: photo, problem: .outputExists(out.path))) {
            try Framer().frame(photo, to: out.path, overwrite: false)
        }
        #expect(try Self.bytes(out) == Array("keep me".utf8))
        try Framer().frame(photo, to: out.path)
        #expect(try Self.bytes(out).starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// The picture itself, by its name or by another (a link), is never the output.
    @Test func thePictureIsNeverOverwritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        let before = try Self.bytes(URL(fileURLWithPath: photo))
        let link = folder.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        var framer = Framer()
        framer.output.format = .png
        for output in [photo, link, folder.path + "/./photo.jpg"] {
            #expect(throws: FramingError(picture: photo, problem: .outputIsPicture(output))) {
                try framer.frame(photo, to: output)
            }
        }
        #expect(try Self.bytes(URL(fileURLWithPath: photo)) == before)
    }

    /// A write that fails names the output and leaves nothing behind.
    @Test func aFailedWriteLeavesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        // A folder that cannot be made: a file is in the way.
        try Data().write(to: folder.appendingPathComponent("file"))
        let out = folder.appendingPathComponent("file/out.png").path
        #expect(throws: FramingError(picture: photo, problem: .cannotWrite(
            output: out, reason: "cannot create the folder \(folder.path)/file (Not a directory)"))) {
            try Framer().frame(photo, to: out)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["file", "photo.jpg"])
    }

    /// Below the minimum resolution: a warning in the report, or with `failBelowMinimumPPI`
    /// an error and no file.
    @Test func theMinimumResolutionWarnsOrRefuses() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        var framer = Framer()
        framer.picture.minimumPPI = 300
        // 320 pixels over 320 CSS px (3.33 in): 96 pixels per inch.
        let report = try framer.frame(photo, to: folder.appendingPathComponent("low.pdf").path)
        #expect(report.warnings == [.belowMinimumPPI(ppi: 96, minimum: 300)])
        #expect(report.warnings[0].description == "the picture is placed at 96 pixels per inch, below the minimum of 300")
        framer.picture.failBelowMinimumPPI = true
        #expect(throws: FramingError(picture: photo, problem: .belowMinimumPPI(ppi: 96, minimum: 300))) {
            try framer.frame(photo, to: folder.appendingPathComponent("refused.pdf").path)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("refused.pdf").path))
    }

    @Test func severalPicturesMakeOnePDF() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path, book = folder.appendingPathComponent("book.pdf").path
        let reports = try Framer(preset: .print).document([photo, photo, photo], to: book)
        #expect(reports.count == 3)
        let info = try Support.output("pdfinfo", [book]).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(info.contains("Pages: 3"), "\(info)")
        #expect(info.contains("Creator: framed \(Framer.version)"), "a library PDF names its creator")
        let (pdf, _) = try Framer().document([.bytes(FramerTests.jpeg(40, 30))])
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
    }

    /// In memory, the format is PNG unless set; the plan is the geometry the file has.
    @Test func inMemoryAndPlans() throws {
        let jpeg = try FramerTests.jpeg(320, 200)
        let framed = try Framer().frame(jpeg)
        #expect(framed.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && framed.plan.outputFormat == .png)
        let plan = try Framer().plan(jpeg)
        #expect(plan.layout == framed.plan.layout)
        // Classic: 320x200 px inside a 3px border, a 15px shadow reach on every side.
        #expect(plan.layout.frame == Rect(x: 15 * 0.75, y: 15 * 0.75, width: 326 * 0.75, height: 206 * 0.75))
        #expect(plan.canvasPixels == PixelSize(width: 356, height: 236))
        let json = plan.json(input: "photo.jpg")
        #expect(json.contains("\"input\": \"photo.jpg\"") && json.contains("\"frame\": {\"x\": 11.25, \"y\": 11.25"))
    }
}
