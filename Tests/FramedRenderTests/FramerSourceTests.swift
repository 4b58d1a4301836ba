import Foundation
import FramedLayout
import FramedRaster
import FramedRender
import FramedTestSupport
import Testing

/// Framing a file (read a chunk at a time while decoding, issue 6) gives the very bytes that
/// framing the file's contents gives, a passed-through JPEG included (the file is read whole
/// for it), and a pipe (which can be read only once) frames too.
struct FramerSourceTests {
    static let jobs: [(name: String, picture: [UInt8], options: RenderOptions)] = [
        ("JPEG shrunk on load to PNG", try! FramerTests.jpeg(1600, 1000), RenderOptions(format: .png)),
        ("PNG to PNG", try! FramerTests.png(640, 400, alpha: 128), RenderOptions(format: .png, scale: 2)),
        ("JPEG passed through into SVG", try! FramerTests.jpeg(320, 200), RenderOptions(format: .svg, dpi: 96)),
        ("JPEG re-encoded into SVG", try! FramerTests.jpeg(1600, 1000), RenderOptions(format: .svg)),
    ]

    @Test(arguments: jobs.indices)
    func aFileFramesAsItsBytesDo(job: Int) throws {
        let (name, picture, options) = Self.jobs[job]
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("picture")
        try Support.write(picture, to: url)
        let fromFile = try Framer.frame(.file(url.path), style: .classic, options: options)
        let fromBytes = try Framer.frame(picture, style: .classic, options: options)
        #expect(difference(fromFile.bytes, fromBytes.bytes) == nil, "\(name)")
        #expect(fromFile.report == fromBytes.report, "\(name)")
        if fromFile.report.embedding == .passthroughJPEG {
            #expect(String(decoding: fromFile.bytes, as: UTF8.self).contains(Data(picture).base64EncodedString()))
        }
        let plan = try Framer.plan(.file(url.path), style: .classic, options: options)
        #expect(plan.info == (try Framer.plan(picture, style: .classic, options: options)).info)
    }

    /// `framed <(cat photo.jpg)`: the header, the pixels and (here) the bytes for pass-through
    /// all come from one reading of the pipe.
    @Test func aPipeIsReadOnce() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let (_, picture, options) = Self.jobs[2]
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(picture))
            try? handle.close()
        }
        writer.start()
        let framed = try Framer.frame(.file(fifo), style: .classic, options: options)
        #expect(framed.report.embedding == .passthroughJPEG)
        #expect(try difference(framed.bytes, Framer.frame(picture, style: .classic, options: options).bytes) == nil)
    }

    @Test func anUnreadableFileIsAPictureError() throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.jpg").path
        #expect(throws: FramingError.picture(.unreadable("No such file or directory"))) {
            try Framer.frame(.file(missing), style: .classic, options: RenderOptions(format: .png))
        }
        #expect(throws: FramingError.picture(.unreadable("Is a directory"))) {
            try Framer.plan(.file(folder.path), style: .classic, options: RenderOptions(format: .png))
        }
    }
}
