import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// The built `framed` binary, run end to end as a user would.
struct CLITests {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `framed` executable that SwiftPM built beside this test bundle.
    static let binary: URL = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
                          Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for folder in candidates {
            let url = folder.appendingPathComponent("framed")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return url
            }
        }
        return URL(fileURLWithPath: ".build/debug/framed")
    }()

    @discardableResult
    static func framed(_ arguments: [String], in folder: URL? = nil) throws -> Result {
        let r = try Tool.run(binary, arguments, in: folder)
        return Result(status: r.status, stdout: r.output, stderr: r.stderr)
    }

    /// A folder with `photo.jpg` (320x200) and `shot.png` (300x300, with alpha).
    static func workspace() throws -> URL {
        let folder = try TemporaryFolder.make("framed-cli")
        var photo = [UInt8]()
        for y in 0..<200 { for x in 0..<320 { photo += [UInt8(x * 255 / 319), UInt8(y * 255 / 199), 128, 255] } }
        try Data(PictureEncoder.jpeg(RasterImage(width: 320, height: 200, pixels: photo)))
            .write(to: folder.appendingPathComponent("photo.jpg"))
        var shot = [UInt8]()
        for y in 0..<300 { for x in 0..<300 { shot += [200, 40, 40, (x + y) % 2 == 0 ? 255 : 128] } }
        try Data(PictureEncoder.png(RasterImage(width: 300, height: 300, pixels: shot)))
            .write(to: folder.appendingPathComponent("shot.png"))
        return folder
    }

    /// Names of the files in `folder`, sorted (temporary files would show up here).
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// A one-line message on stderr that starts with `framed:`.
    static func expectOneLineError(_ result: Result, status: Int32, mentioning words: [String],
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "exit status; stderr: \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("framed: "), sourceLocation: sourceLocation)
        for word in words {
            #expect(result.stderr.contains(word), "\(result.stderr) mentions \(word)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Success

    @Test func theIssueExamplesWork() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try Self.framed(["photo.jpg", "-o", "photo.pdf"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        r = try Self.framed(["photo.jpg", "-o", "photo.svg", "--size", "600x400", "--border", "6", "--border-color", "white",
                             "--background", "#808080", "--shadow", "0 0 10px rgba(0,0,0,0.6)"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        r = try Self.framed(["shot.png", "-o", "shot-framed.png", "--size", "150mmx100mm", "--radius", "4mm",
                             "--fit", "contain", "--scale", "2"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try Self.files(in: folder) == ["photo.jpg", "photo.pdf", "photo.svg", "shot-framed.png", "shot.png"])

        // 600x400 frame plus 15px of shadow on each side = 630x430 px = 472.5x322.5 pt.
        let svg = try String(contentsOf: folder.appendingPathComponent("photo.svg"), encoding: .utf8)
        #expect(svg.contains("width=\"472.5pt\"") && svg.contains("height=\"322.5pt\""))
        #expect(svg.components(separatedBy: "<image").count == 2, "exactly one <image>")
        // 150 mm = 566.93 px; classic shadow adds 15px a side; at scale 2 the canvas is 1194x818.
        let png = try Pictures.decode(contentsOf: folder.appendingPathComponent("shot-framed.png").path).image
        #expect(png.width == Int(((150 / 25.4 * 96 + 30) * 2).rounded(.up)))
        #expect(png.height == Int(((100 / 25.4 * 96 + 30) * 2).rounded(.up)))
        // PDF at natural size: 320x200 picture + 3px border a side + 15px shadow a side = 356x236 px.
        let info = try Support.output("pdfinfo", [folder.appendingPathComponent("photo.pdf").path])
        #expect(info.contains("267 x 177 pts"), "\(info)")
    }

    @Test func formatComesFromFlagWhenExtensionSaysNothing() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.framed(["photo.jpg", "-o", "framed.out", "--format", "svg"], in: folder)
        #expect(r.status == 0)
        let head = try Data(contentsOf: folder.appendingPathComponent("framed.out")).prefix(5)
        #expect(String(decoding: head, as: UTF8.self) == "<?xml")
    }

    @Test func helpListsEveryOptionWithDefaults() throws {
        let r = try Self.framed(["--help"])
        #expect(r.status == 0)
        for option in ["--output", "--format", "--preset", "--size", "--width", "--height", "--border", "--border-color",
                       "--padding", "--background", "--radius", "--fit", "--position", "--shadow", "--margin",
                       "--scale", "--dpi", "--help", "--version"] {
            #expect(r.stdout.contains(option), "help mentions \(option)")
        }
        #expect(r.stdout.contains("(default: scale-down)") && r.stdout.contains("(default: 3px)"))
        let v = try Self.framed(["--version"])
        #expect(v.status == 0 && v.stdout.hasPrefix("framed "))
    }

    /// The CSS names people type first (and `--intent`) frame as the options they stand for do,
    /// byte for byte, and a near miss suggests the alias.
    @Test func aliasesFrameAsTheirOptionsDo() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let byName = ["--size", "200x150", "--padding", "6", "--border", "4", "--background", "#abc", "--radius", "8", "--fit", "cover",
                      "--position", "top", "--shadow", "0 4px 16px rgba(200,0,0,.5)", "--aspect", "4:3", "--rendering-intent", "relative"]
        let byAlias = ["--size", "200x150", "--padding", "6", "--border-width", "4", "--background-color", "#abc", "--border-radius", "8",
                       "--object-fit", "cover", "--object-position", "top", "--box-shadow", "0 4px 16px rgba(200,0,0,.5)",
                       "--aspect-ratio=4 / 3", "--intent", "relative"]
        for (name, arguments) in [("name.png", byName), ("alias.png", byAlias), ("plain.png", ["--size", "200x150"])] {
            let r = try Self.framed(["photo.jpg", "-o", name] + arguments, in: folder)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        }
        let bytes = try ["name.png", "alias.png", "plain.png"].map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        #expect(bytes[0] == bytes[1], "the aliases make the same file")
        #expect(bytes[0] != bytes[2], "and the options change it")
        let near = try Self.framed(["photo.jpg", "-o", "x.png", "--border-raduis", "8"], in: folder)
        Self.expectOneLineError(near, status: 2, mentioning: ["--border-raduis", "did you mean --border-radius?"])
    }

    /// A gradient framed does not draw is named as one, with the ones it draws, rather than read
    /// as an unknown colour: for the mat and the canvas, on the command line and in a config file.
    @Test func anUnknownGradientListsTheOnesDrawn() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (option, value) in [("--background", "conic-gradient(red, blue)"),
                                ("--canvas-color", "repeating-linear-gradient(45deg, red, blue 20px)"),
                                ("--backdrop", "-webkit-linear-gradient(red, blue)")] {
            let r = try Self.framed(["photo.jpg", "-o", "x.png", option, value], in: folder)
            let function = String(value[..<value.firstIndex(of: "(")!]) + "()"
            Self.expectOneLineError(r, status: 2, mentioning: [function, "is not drawn", "linear-gradient()", "radial-gradient()"])
            #expect(!r.stderr.contains("rgb()"), "not called a colour: \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
        }
        try Data(#"{"background": "conic-gradient(red, blue)"}"#.utf8).write(to: folder.appendingPathComponent("c.json"))
        let r = try Self.framed(["photo.jpg", "-o", "x.png", "--config", "c.json"], in: folder)
        Self.expectOneLineError(r, status: 2, mentioning: ["conic-gradient()", "linear-gradient()", "radial-gradient()"])
    }

    @Test func truncatedJPEGStillFramesWithAWarning() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try Data(contentsOf: folder.appendingPathComponent("photo.jpg"))
        try jpeg.prefix(jpeg.count * 2 / 3).write(to: folder.appendingPathComponent("cut.jpg"))
        let r = try Self.framed(["cut.jpg", "-o", "cut.png"], in: folder)
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("framed: warning: cut.jpg: "), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cut.png").path))
    }

    // MARK: Usage errors: exit 2

    @Test(arguments: [
        (["photo.jpg", "-o", "x.png", "--bogus"], ["--bogus"]),
        (["photo.jpg", "-o", "x.png", "--border", "3qq"], ["--border", "3qq"]),
        (["photo.jpg", "-o", "x.png", "--border-color", "nocolour"], ["--border-color", "nocolour"]),
        (["photo.jpg", "-o", "x.png", "--shadow", "10px"], ["--shadow"]),
        (["photo.jpg", "-o", "x.png", "--fit", "stretch"], ["--fit", "stretch"]),
        (["photo.jpg", "-o", "x.png", "--scale", "0"], ["--scale"]),
        (["photo.jpg", "-o", "x.png", "--scale", "1e9"], ["--scale"]),
        (["photo.jpg", "-o", "x.png", "--size", "20x20", "--border", "10"], ["photo.jpg", "width"]),
        (["photo.jpg", "-o", "x.png", "--border", "-1"], ["photo.jpg", "--border"]),
        (["photo.jpg", "-o", "x.bmp"], ["x.bmp"]),
        (["photo.jpg"], ["output"]),
        (["-o", "x.png"], ["input"]),
        (["photo.jpg", "shot.png", "-o", "x.png"], ["2 inputs", "x.png is one file"]),
        (["photo.jpg", "-o"], ["--output"]),
    ])
    func usageErrorsExitWithTwo(_ arguments: [String], _ words: [String]) throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.framed(arguments, in: folder)
        Self.expectOneLineError(r, status: 2, mentioning: words)
        #expect(try Self.files(in: folder) == ["photo.jpg", "shot.png"], "nothing written")
    }

    @Test func outputThatIsTheInputIsRefused() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Data(contentsOf: folder.appendingPathComponent("shot.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path,
                                                   withDestinationPath: "shot.png")
        for output in ["shot.png", "sub/../shot.png", "./shot.png", "link.png"] {
            let r = try Self.framed(["shot.png", "-o", output], in: folder)
            Self.expectOneLineError(r, status: 2, mentioning: ["is the input"])
        }
        #expect(try difference(Data(contentsOf: folder.appendingPathComponent("shot.png")), before) == nil, "input untouched")
    }

    // MARK: File errors: exit 1, nothing written

    @Test func missingInput() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.framed(["nothere.jpg", "-o", "out.png"], in: folder)
        Self.expectOneLineError(r, status: 1, mentioning: ["nothere.jpg", "No such file"])
        #expect(try Self.files(in: folder) == ["photo.jpg", "shot.png"])
    }

    @Test func corruptJPEGLeavesNothingAndKeepsAnExistingOutput() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A JPEG whose header is cut short: not decodable at all.
        let jpeg = try Data(contentsOf: folder.appendingPathComponent("photo.jpg"))
        try jpeg.prefix(40).write(to: folder.appendingPathComponent("bad.jpg"))
        let r = try Self.framed(["bad.jpg", "-o", "out.png"], in: folder)
        Self.expectOneLineError(r, status: 1, mentioning: ["bad.jpg", "JPEG"])
        #expect(try Self.files(in: folder) == ["bad.jpg", "photo.jpg", "shot.png"])

        try Data("keep me".utf8).write(to: folder.appendingPathComponent("out.png"))
        let again = try Self.framed(["bad.jpg", "-o", "out.png", "--overwrite"], in: folder)
        #expect(again.status == 1)
        #expect(try difference(Data(contentsOf: folder.appendingPathComponent("out.png")), Data("keep me".utf8)) == nil)
        #expect(try Self.files(in: folder) == ["bad.jpg", "out.png", "photo.jpg", "shot.png"])
    }

    @Test func truncatedPNG() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Data(contentsOf: folder.appendingPathComponent("shot.png"))
        try png.prefix(png.count / 2).write(to: folder.appendingPathComponent("cut.png"))
        let r = try Self.framed(["cut.png", "-o", "out.svg"], in: folder)
        Self.expectOneLineError(r, status: 1, mentioning: ["cut.png", "PNG"])
        #expect(try Self.files(in: folder) == ["cut.png", "photo.jpg", "shot.png"])
    }

    @Test func notAPicture() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("hello, world\n".utf8).write(to: folder.appendingPathComponent("notes.jpg"))
        let r = try Self.framed(["notes.jpg", "-o", "out.pdf"], in: folder)
        Self.expectOneLineError(r, status: 1, mentioning: ["notes.jpg", "unsupported format"])
    }

    @Test func unwritableOutputs() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A missing folder is made (as mkdir -p); one that cannot be, under a file, is an error.
        var r = try Self.framed(["photo.jpg", "-o", "photo.jpg/dir/out.png"], in: folder)
        Self.expectOneLineError(r, status: 1, mentioning: ["photo.jpg/dir", "cannot create the folder"])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("taken.png"), withIntermediateDirectories: true)
        // An output that names a folder that exists is that folder: the picture goes in it, by
        // its own name and format.
        r = try Self.framed(["photo.jpg", "-o", "taken.png"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try Self.files(in: folder) == ["photo.jpg", "shot.png", "taken.png"])
        #expect(try Self.files(in: folder.appendingPathComponent("taken.png")) == ["photo.jpg"])
    }

    @Test func repeatedRunsGiveIdenticalFiles() throws {
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A PDF states when it was framed: a fixed SOURCE_DATE_EPOCH makes two runs' alike.
        for ext in ["svg", "pdf", "png"] {
            for name in ["a", "b"] {
                try Tool.run(Self.binary, ["photo.jpg", "-o", "\(name).\(ext)", "--radius", "6"], in: folder,
                             environment: BatchTests.reproducible)
            }
            #expect(try difference(Data(contentsOf: folder.appendingPathComponent("a.\(ext)")),
                                   Data(contentsOf: folder.appendingPathComponent("b.\(ext)"))) == nil, "\(ext) reproducible")
        }
    }
}

/// The picture options of issue 3, end to end.
struct PictureOptionTests {
    /// Minimal little-endian EXIF (TIFF header + one IFD entry) with an orientation tag.
    static func exif(orientation: UInt16) -> [UInt8] { PictureBytes.exif(orientation: orientation, bigEndian: false) }

    @Test func exifOrientationTurnsThePictureUnlessToldNotTo() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 40x20 picture stored sideways (orientation 6: rotate 90° clockwise to view).
        let pixels = [UInt8]((0..<800).flatMap { i in i % 40 < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] })
        let webp = try PictureEncoder.webp(RasterImage(width: 40, height: 20, pixels: pixels), quality: nil,
                                           exif: Self.exif(orientation: 6))
        try Data(webp).write(to: folder.appendingPathComponent("phone.webp"))
        var r = try CLITests.framed(["phone.webp", "-o", "up.png", "--preset", "none"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let up = try Pictures.decode(contentsOf: folder.appendingPathComponent("up.png").path).image
        #expect(up.width == 20 && up.height == 40)
        #expect(up.pixel(x: 10, y: 5).r == 255 && up.pixel(x: 10, y: 35).b == 255, "left half ends up on top")
        r = try CLITests.framed(["phone.webp", "-o", "stored.png", "--preset", "none", "--no-auto-orient"], in: folder)
        let stored = try Pictures.decode(contentsOf: folder.appendingPathComponent("stored.png").path).image
        #expect(r.status == 0 && stored.width == 40 && stored.height == 20)
    }

    @Test func minimumResolutionWarnsOrFails() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 320x200 at natural size is 96 pixels per inch.
        var r = try CLITests.framed(["photo.jpg", "-o", "p.pdf", "--min-ppi", "300"], in: folder)
        #expect(r.status == 0)
        #expect(r.stderr == "framed: warning: photo.jpg: the picture is placed at 96 pixels per inch, below --min-ppi 300\n")
        r = try CLITests.framed(["photo.jpg", "-o", "q.pdf", "--min-ppi", "300", "--strict"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["photo.jpg", "96 pixels per inch", "--strict"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("q.pdf").path))
        r = try CLITests.framed(["photo.jpg", "-o", "ok.pdf", "--min-ppi", "90", "--strict"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty)
    }

    @Test func maxPixelsRefusesBigPictures() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLITests.framed(["photo.jpg", "-o", "x.png", "--max-pixels", "10000"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["photo.jpg", "320x200", "limit"])
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"])
    }

    @Test func embeddingChoices() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try CLITests.framed(["shot.png", "-o", "x.pdf", "--embed", "jpeg"], in: folder)
        CLITests.expectOneLineError(r, status: 2, mentioning: ["shot.png", "--flatten"])
        r = try CLITests.framed(["shot.png", "-o", "flat.pdf", "--embed", "jpeg", "--flatten", "white", "--quality", "70"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Support.output("pdfimages", ["-list", folder.appendingPathComponent("flat.pdf").path]).contains(" jpeg "))
        r = try CLITests.framed(["photo.jpg", "-o", "lossless.pdf", "--size", "200x150", "--lossless"], in: folder)
        #expect(r.status == 0)
        let list = try Support.output("pdfimages", ["-list", folder.appendingPathComponent("lossless.pdf").path])
        #expect(!list.contains(" jpeg ") && list.contains(" image "))
        for bad in [["--quality", "0"], ["--quality", "101"], ["--embed", "gif"], ["--rendering-intent", "saturation"],
                    ["--resample", "nearest"], ["--min-ppi", "-3"], ["--max-pixels", "0"]] {
            let e = try CLITests.framed(["photo.jpg", "-o", "bad.pdf"] + bad, in: folder)
            CLITests.expectOneLineError(e, status: 2, mentioning: [bad[0]])
        }
        for good in [["--resample", "box"], ["--resample", "good"], ["--intent", "relative"], ["--rendering-intent", "relative"], ["--embed", "png"]] {
            let g = try CLITests.framed(["photo.jpg", "-o", "good.svg", "--size", "100x80", "--overwrite"] + good, in: folder)
            #expect(g.status == 0, "\(good): \(g.stderr)")
        }
    }
}
