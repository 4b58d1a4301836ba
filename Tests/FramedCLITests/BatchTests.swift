import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Batches, parallel workers, overwriting, streams and reproducibility (issue 5), end to end.
struct BatchTests {
    /// Runs `framed` with optional standard input and extra environment.
    @discardableResult
    static func framed(_ arguments: [String], in folder: URL, stdin: Data? = nil,
                       environment: [String: String] = [:]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let r = try Tool.run(CLITests.binary, arguments, in: folder, stdin: stdin, environment: environment)
        return (r.status, r.stdout, r.stderr)
    }

    /// A fixed `SOURCE_DATE_EPOCH`, for runs whose PDFs are compared byte for byte (a PDF is
    /// otherwise dated when it is framed).
    static let reproducible = ["SOURCE_DATE_EPOCH": "1700000000"]

    static func bytes(_ folder: URL, _ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func exists(_ folder: URL, _ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }

    /// The workspace plus `wide.png` (a third picture with another size) and a folder tree.
    static func bigWorkspace() throws -> URL {
        let folder = try CLITests.workspace()
        var wide = [UInt8]()
        for y in 0..<90 { for x in 0..<400 { wide += [UInt8(x % 256), 200, UInt8(y * 2), 255] } }
        try Data(PictureEncoder.png(RasterImage(width: 400, height: 90, pixels: wide))).write(to: folder.appendingPathComponent("wide.png"))
        return folder
    }

    static func expectError(_ r: (Int32, String), status: Int32, mentioning words: [String],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        CLITests.expectOneLineError(CLITests.Result(status: r.0, stdout: "", stderr: r.1), status: status,
                                    mentioning: words, sourceLocation: sourceLocation)
    }

    /// Lines of stderr without the summary (which carries a time).
    static func messages(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { !$0.hasPrefix("framed: framed ") }
    }

    // MARK: Batch outputs

    @Test func batchIntoAFolderGivesWhatSingleRunsGive() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.framed(["photo.jpg", "shot.png", "wide.png", "-o", "out/", "--format", "svg"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("out")) == ["photo.svg", "shot.svg", "wide.svg"])
        #expect(r.stderr.hasPrefix("framed: framed 3 pictures in ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        // SVG ids and everything else do not depend on what else the process drew.
        for name in ["photo", "shot", "wide"] {
            let ext = name == "photo" ? "jpg" : "png"
            let one = try Self.framed(["\(name).\(ext)", "-o", "\(name).svg"], in: folder)
            #expect(one.status == 0 && one.stderr.isEmpty, "\(one.stderr)")
            #expect(try difference(Self.bytes(folder, "out/\(name).svg"), Self.bytes(folder, "\(name).svg")) == nil,
                    "\(name): batch = single")
        }
        // An existing folder (no trailing slash) is a folder too; --format is needed.
        var again = try Self.framed(["photo.jpg", "shot.png", "-o", "out", "--format", "png", "-q"], in: folder)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(Self.exists(folder, "out/photo.png") && Self.exists(folder, "out/shot.png"))
        // Without --format each picture keeps its own (DestinationTests.aFolderTakesEachPicturesOwnFormat).
        again = try Self.framed(["photo.jpg", "shot.png", "-o", "new/", "-q"], in: folder)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("new")) == ["photo.jpg", "shot.png"])
    }

    @Test func templatesNameOutputs() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try Self.framed(["photo.jpg", "shot.png", "wide.png", "-o", "t/{index}-{stem}.{ext}.pdf"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("t")) == ["1-photo.jpg.pdf", "2-shot.png.pdf", "3-wide.png.pdf"])
        r = try Self.framed(["photo.jpg", "shot.png", "-o", "n/{name}.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("n")) == ["photo.jpg.png", "shot.png.png"])
        // {index} is zero-padded to the width of the count.
        let many = (0..<10).map { _ in "photo.jpg" }
        r = try Self.framed(many + ["-o", "i/{index}.svg", "--size", "60x40"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("i")).prefix(2) == ["01.svg", "02.svg"])
        #expect(try CLITests.files(in: folder.appendingPathComponent("i")).last == "10.svg")

        for (template, word) in [("x/{nope}.png", "{nope}"), ("x/{stem.png", "{"), ("x/{stem}.bmp", "format")] {
            let e = try Self.framed(["photo.jpg", "shot.png", "-o", template], in: folder)
            Self.expectError((e.status, e.stderr), status: 2, mentioning: [word])
        }
        #expect(!Self.exists(folder, "x"))
    }

    @Test func collidingOutputsAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("photo.jpg"), to: folder.appendingPathComponent("sub/photo.png"))
        var r = try Self.framed(["photo.jpg", "wide.png", "sub/photo.png", "-o", "out/", "--format", "png"], in: folder)
        Self.expectError((r.status, r.stderr), status: 2,
                                    mentioning: ["photo.jpg", "sub/photo.png", "out/photo.png"])
        #expect(!Self.exists(folder, "out"), "nothing written, not even the folder")
        r = try Self.framed(["photo.jpg", "shot.png", "-o", "{stem}.png"], in: folder)
        Self.expectError((r.status, r.stderr), status: 2, mentioning: ["shot.png", "is the input"])
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png", "sub", "wide.png"])
    }

    @Test func foldersAreWalkedWithRecursiveAndOnlyPicturesAreTaken() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        let album = folder.appendingPathComponent("album")
        try fm.createDirectory(at: album.appendingPathComponent("2024/june"), withIntermediateDirectories: true)
        try fm.copyItem(at: folder.appendingPathComponent("photo.jpg"), to: album.appendingPathComponent("a.jpg"))
        try fm.copyItem(at: folder.appendingPathComponent("shot.png"), to: album.appendingPathComponent("2024/june/b.png"))
        // A picture with a misleading name is taken; text named like a picture and hidden files are not.
        try fm.copyItem(at: folder.appendingPathComponent("wide.png"), to: album.appendingPathComponent("2024/c.txt"))
        try Data("not a picture".utf8).write(to: album.appendingPathComponent("notes.jpg"))
        try fm.copyItem(at: folder.appendingPathComponent("photo.jpg"), to: album.appendingPathComponent(".hidden.jpg"))

        var r = try Self.framed(["album", "-o", "out/", "--format", "svg"], in: folder)
        Self.expectError((r.status, r.stderr), status: 2, mentioning: ["album", "--recursive"])
        r = try Self.framed(["album", "-r", "-o", "out/", "--format", "svg", "-q"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let found = fm.enumerator(atPath: folder.appendingPathComponent("out").path)!.compactMap { $0 as? String }.sorted()
        #expect(found == ["2024", "2024/c.svg", "2024/june", "2024/june/b.svg", "a.svg"])
        // The output folder inside the input folder is not walked again.
        r = try Self.framed(["album", "-r", "-o", "album/framed/", "--format", "png", "-q"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.framed(["album", "-r", "-o", "album/framed/", "--format", "png", "--dry-run"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let planned = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(planned.compactMap { $0["input"] as? String } == ["album/2024/c.txt", "album/2024/june/b.png", "album/a.jpg"],
                "in name order; outputs from an earlier run are not inputs")
        #expect(planned.compactMap { $0["output"] as? String }
                == ["album/framed/2024/c.png", "album/framed/2024/june/b.png", "album/framed/a.png"])
    }

    // MARK: Workers and messages

    @Test func oneOrTwoWorkersGiveIdenticalFilesAndMessages() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("junk".utf8).write(to: folder.appendingPathComponent("junk.png"))
        let inputs = ["photo.jpg", "shot.png", "junk.png", "wide.png", "photo.jpg", "shot.png"]
        var stderr: [Int: [Substring]] = [:]
        for jobs in [1, 2] {
            let r = try Self.framed(inputs + ["-o", "j\(jobs)/{index}-{stem}.pdf", "-j", "\(jobs)", "--radius", "5",
                                              "--min-ppi", "200"], in: folder, environment: Self.reproducible)
            #expect(r.status == 1, "the junk picture fails: \(r.stderr)")
            stderr[jobs] = Self.messages(r.stderr)
            for format in ["svg", "png"] {
                let f = try Self.framed(inputs + ["-o", "j\(jobs)/{index}-{stem}.\(format)", "-j", "\(jobs)", "--radius", "5"], in: folder)
                #expect(f.status == 1)
            }
        }
        let one = try CLITests.files(in: folder.appendingPathComponent("j1"))
        let two = try CLITests.files(in: folder.appendingPathComponent("j2"))
        #expect(one.count == 15 && one == two)
        for name in one {
            #expect(try difference(Self.bytes(folder, "j1/\(name)"), Self.bytes(folder, "j2/\(name)")) == nil,
                    "\(name) the same with -j 1 and -j 2")
        }
        // Per-picture messages in input order, whatever finished first.
        #expect(stderr[1] == stderr[2])
        #expect(stderr[1]!.count == 6, "\(stderr[1]!)")
        #expect(stderr[1]![2].hasPrefix("framed: junk.png: "), "\(stderr[1]!)")
        #expect(stderr[1]![0].hasPrefix("framed: warning: photo.jpg: the picture is placed at 96 pixels per inch"))
    }

    @Test func aBadPictureDoesNotStopTheBatchUnlessFailFast() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("junk".utf8).write(to: folder.appendingPathComponent("junk.jpg"))
        var r = try Self.framed(["photo.jpg", "junk.jpg", "missing.png", "shot.png", "-o", "out/", "--format", "png"], in: folder)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(r.stderr)")
        #expect(lines[0].hasPrefix("framed: junk.jpg: ") && lines[0].contains("unsupported format"))
        #expect(lines[1].hasPrefix("framed: missing.png: ") && lines[1].contains("No such file"))
        #expect(lines[2].hasPrefix("framed: framed 2 of 4 pictures in ") && lines[2].hasSuffix(", 2 failed"), "\(lines[2])")
        #expect(try CLITests.files(in: folder.appendingPathComponent("out")) == ["photo.png", "shot.png"])

        r = try Self.framed(["junk.jpg", "photo.jpg", "shot.png", "-o", "ff/", "--format", "png", "--fail-fast", "-j", "1"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr.contains("framed: junk.jpg: ") && r.stderr.contains("2 skipped (--fail-fast)"), "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("ff")) == [])
        // --quiet drops the summary, not the errors.
        r = try Self.framed(["junk.jpg", "photo.jpg", "-o", "q/", "--format", "png", "-q"], in: folder)
        #expect(r.status == 1 && r.stderr.split(separator: "\n").count == 1 && r.stderr.hasPrefix("framed: junk.jpg: "))
    }

    @Test func existingOutputsAreKeptUnlessOverwrite() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("keep".utf8).write(to: folder.appendingPathComponent("out.png"))
        var r = try Self.framed(["photo.jpg", "-o", "out.png"], in: folder)
        Self.expectError((r.status, r.stderr), status: 1,
                                    mentioning: ["out.png", "exists", "--overwrite"])
        #expect(try difference(Self.bytes(folder, "out.png"), Data("keep".utf8)) == nil)
        r = try Self.framed(["photo.jpg", "-o", "out.png", "-f"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty)
        #expect(try Self.bytes(folder, "out.png") != Data("keep".utf8))

        // In a batch the others are written and the exit code is 1.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("b/shot.svg"))
        r = try Self.framed(["photo.jpg", "shot.png", "wide.png", "-o", "b/", "--format", "svg"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr.contains("framed: b/shot.svg: exists; add --overwrite (-f) to replace it"), "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("b")) == ["photo.svg", "shot.svg", "wide.svg"])
        #expect(try difference(Self.bytes(folder, "b/shot.svg"), Data("keep".utf8)) == nil)
        r = try Self.framed(["photo.jpg", "shot.png", "wide.png", "-o", "b/", "--format", "svg", "--overwrite"], in: folder)
        #expect(r.status == 0)
        #expect(try Self.bytes(folder, "b/shot.svg") != Data("keep".utf8))
        // One multi-page PDF is one output.
        try Data("keep".utf8).write(to: folder.appendingPathComponent("book.pdf"))
        r = try Self.framed(["photo.jpg", "shot.png", "--pages", "-o", "book.pdf"], in: folder)
        #expect(r.status == 1 && r.stderr.contains("book.pdf: exists"))
        #expect(try difference(Self.bytes(folder, "book.pdf"), Data("keep".utf8)) == nil)
    }

    // MARK: Streams and reproducibility

    @Test func standardInputAndOutput() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.bytes(folder, "photo.jpg")
        for format in ["png", "svg", "pdf"] {
            let r = try Self.framed(["-", "-o", "-", "--format", format], in: folder, stdin: photo,
                                    environment: Self.reproducible)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            try Self.framed(["photo.jpg", "-o", "file.\(format)"], in: folder, environment: Self.reproducible)
            #expect(try difference(r.stdout, Self.bytes(folder, "file.\(format)")) == nil, "\(format): the stream gives the file's bytes")
        }
        var r = try Self.framed(["-", "-o", "from-stdin.svg"], in: folder, stdin: photo)
        #expect(r.status == 0)
        #expect(try difference(Self.bytes(folder, "from-stdin.svg"), Self.bytes(folder, "file.svg")) == nil)
        r = try Self.framed(["photo.jpg", "-o", "-"], in: folder)
        Self.expectError((r.status, r.stderr), status: 2, mentioning: ["--format"])
        #expect(r.stdout.isEmpty)
        r = try Self.framed(["photo.jpg", "shot.png", "-o", "-", "--format", "png"], in: folder)
        Self.expectError((r.status, r.stderr), status: 2, mentioning: ["standard output"])
        r = try Self.framed(["-", "-", "-o", "out/", "--format", "png"], in: folder, stdin: photo)
        Self.expectError((r.status, r.stderr), status: 2, mentioning: ["standard input"])
        r = try Self.framed(["-", "-o", "-", "--format", "png"], in: folder, stdin: Data("nope".utf8))
        Self.expectError((r.status, r.stderr), status: 1,
                                    mentioning: ["standard input", "unsupported format"])
        // Several pages to standard output: one PDF.
        r = try Self.framed(["photo.jpg", "shot.png", "--pages", "-o", "-", "-q"], in: folder)
        #expect(r.status == 0 && r.stdout.starts(with: Data("%PDF".utf8)))
    }

    @Test func pdfDatesComeFromSourceDateEpoch() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.framed(["photo.jpg", "-o", "a.pdf"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        try Self.framed(["photo.jpg", "-o", "b.pdf"], in: folder, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        try Self.framed(["photo.jpg", "-o", "c.pdf"], in: folder, environment: ["SOURCE_DATE_EPOCH": ""])
        #expect(try difference(Self.bytes(folder, "a.pdf"), Self.bytes(folder, "b.pdf")) == nil)
        #expect(try Self.bytes(folder, "a.pdf") != Self.bytes(folder, "c.pdf"))
        let text = String(decoding: try Self.bytes(folder, "a.pdf"), as: UTF8.self)
        #expect(text.contains("/CreationDate (D:20231114221320+00'00')"), "2023-11-14 22:13:20 UTC")
        #expect(!String(decoding: try Self.bytes(folder, "c.pdf"), as: UTF8.self).contains("/CreationDate (D:2023"),
                "an empty SOURCE_DATE_EPOCH is not used")
    }

    @Test func batchedAndRepeatedOutputsAreByteIdentical() throws {
        let folder = try Self.bigWorkspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["svg", "pdf", "png"] {
            let options = ["--shadow", "2px 3px 6px red, 0 0 10px blue", "--radius", "6", "--format", format, "-q"]
            try Self.framed(["wide.png", "photo.jpg", "shot.png", "-o", "run1/"] + options, in: folder,
                            environment: Self.reproducible)
            try Self.framed(["shot.png", "photo.jpg", "wide.png", "-o", "run2/", "-j", "1"] + options, in: folder,
                            environment: Self.reproducible)
            try Self.framed(["photo.jpg", "-o", "alone.\(format)"] + options, in: folder, environment: Self.reproducible)
            for name in ["wide", "photo", "shot"] {
                #expect(try difference(Self.bytes(folder, "run1/\(name).\(format)"), Self.bytes(folder, "run2/\(name).\(format)")) == nil)
            }
            #expect(try difference(Self.bytes(folder, "run1/photo.\(format)"), Self.bytes(folder, "alone.\(format)")) == nil)
        }
    }
}
