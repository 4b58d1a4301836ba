import Foundation
import Framed
import FramedTestSupport
import Testing

/// Framing a file (read a chunk at a time while decoding, issue 6) gives the very bytes that
/// framing the file's contents gives, a passed-through JPEG included (the file is read whole
/// for it), and a pipe (which can be read only once) frames too.
struct FramerSourceTests {
    static let jobs: [(name: String, picture: [UInt8], framer: Framer)] = [
        ("JPEG shrunk on load to PNG", try! FramerTests.jpeg(1600, 1000), Framer(.classic, format: .png)),
        ("PNG to PNG", try! FramerTests.png(640, 400, alpha: 128), Framer(.classic, format: .png, scale: 2)),
        ("JPEG passed through into SVG", try! FramerTests.jpeg(320, 200), Framer(.classic, format: .svg, dpi: 96)),
        ("JPEG re-encoded into SVG", try! FramerTests.jpeg(1600, 1000), Framer(.classic, format: .svg)),
    ]

    @Test(arguments: jobs.indices)
    func aFileFramesAsItsBytesDo(job: Int) throws {
        let (name, picture, framer) = Self.jobs[job]
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("picture")
        try Support.write(picture, to: url)
        let fromFile = try framer.frame(PictureSource.file(url.path))
        let fromBytes = try framer.frame(picture)
        #expect(difference(fromFile.bytes, fromBytes.bytes) == nil, "\(name)")
        #expect(fromFile.report == fromBytes.report, "\(name)")
        if fromFile.report.embedding == .passthroughJPEG {
            #expect(String(decoding: fromFile.bytes, as: UTF8.self).contains(Data(picture).base64EncodedString()))
        }
        let plan = try framer.plan(PictureSource.file(url.path))
        #expect(plan.info == (try framer.plan(picture)).info)
    }

    /// `framed <(cat photo.jpg)`: the header, the pixels and (here) the bytes for pass-through
    /// all come from one reading of the pipe.
    @Test func aPipeIsReadOnce() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let (_, picture, framer) = Self.jobs[2]
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(picture))
            try? handle.close()
        }
        writer.start()
        let framed = try framer.frame(PictureSource.file(fifo))
        #expect(framed.report.embedding == .passthroughJPEG)
        #expect(try difference(framed.bytes, framer.frame(picture).bytes) == nil)
    }

    @Test func anUnreadableFileIsAPictureError() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.jpg").path
        #expect(throws: FramingError(picture: missing, problem: .picture(.unreadable("No such file or directory")))) {
            try Framer(.classic, format: .png).frame(PictureSource.file(missing))
        }
        #expect(throws: FramingError(picture: folder.path, problem: .picture(.unreadable("Is a directory")))) {
            try Framer(.classic, format: .png).plan(PictureSource.file(folder.path))
        }
    }
}
