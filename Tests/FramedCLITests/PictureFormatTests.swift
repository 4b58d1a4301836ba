import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// HEIC, AVIF, TIFF and GIF end to end (issue 21): rendered by the built `framed` with
/// `--preset none` (the output is the picture itself) and compared with pixels computed here, or
/// with libheif's own `heif-convert` for a HEIC; orientation, warnings, errors and embedding.
@Suite final class PictureFormatTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.make("framed-formats") }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], _ name: String) throws { try Data(bytes).write(to: folder.appendingPathComponent(name)) }

    /// Runs a tool that makes fixtures; a missing one fails the test.
    func make(_ tool: String, _ arguments: [String]) throws {
        #expect(Tool.exists(tool), "\(tool) is needed (see the Makefile's TEST_PACKAGES)")
        let r = try Tool.run(tool, arguments, in: folder)
        #expect(r.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(r.stderr)")
    }

    /// `framed INPUT -o OUTPUT --preset none ...`: the picture alone; its pixels read back as stored.
    func render(_ input: String, _ extra: [String] = []) throws -> (image: RasterImage?, result: CLITests.Result) {
        let output = "\(input).out.png"
        let r = try CLITests.framed([input, "-o", output, "--preset", "none", "-f"] + extra, in: folder)
        var stored = DecodeOptions()
        stored.autoOrient = false
        let image = r.status == 0 ? try Pictures.decode(contentsOf: path(output), options: stored).image : nil
        return (image, r)
    }

    /// An 8-bit picture with detail everywhere (no more than 256 colours: GIF keeps them all).
    static func picture(_ width: Int, _ height: Int) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let i = (x / 2 + y * 5) % 200
                pixels += [UInt8(i), UInt8(i * 37 % 256), UInt8(255 - i), 255]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    @Test func everyFormatRendersItsPixelsAndLayoutNamesIt() throws {
        let image = Self.picture(40, 24)
        try write(PictureEncoder.png(image, dropAlpha: true), "source.png")
        try write(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 40, height: 24, alpha: false)]), "picture.tif")
        try make("convert", ["source.png", "picture.gif"])
        try make("avifenc", ["-l", "source.png", "picture.avif"])
        try make("heif-enc", ["-q", "80", "-o", "picture.heic", "source.png"])
        try make("heif-convert", ["picture.heic", "heic-libheif.png"])
        var stored = DecodeOptions()
        stored.autoOrient = false
        let libheif = try Pictures.decode(contentsOf: path("heic-libheif.png"), options: stored).image
        for (name, format, expected) in [("picture.tif", "tiff", image), ("picture.gif", "gif", image),
                                         ("picture.avif", "avif", image), ("picture.heic", "heif", libheif)] {
            let (out, r) = try render(name)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
            #expect(out?.pixels == expected.pixels, "\(name) renders its pixels")
            let layout = try CLITests.framed(["layout", name], in: folder)
            #expect(layout.status == 0 && layout.stdout.contains("\"pictureFormat\": \"\(format)\""), "\(name): \(layout.stdout)")
        }
    }

    @Test func orientationFromTheFileAndNoAutoOrient() throws {
        let image = Self.picture(40, 24)
        try write(PictureEncoder.png(image, dropAlpha: true), "t.png")
        // AVIF: irot 1 (a quarter turn anticlockwise), and an EXIF orientation of 6 that avifenc
        // turns into irot 3 and keeps: each turned once.
        try make("avifenc", ["-l", "--irot", "1", "t.png", "irot.avif"])
        try write(PictureBytes.exif(orientation: 6, bigEndian: false), "exif.bin")
        try make("avifenc", ["-l", "--exif", "exif.bin", "t.png", "phone.avif"])
        // TIFF: the Orientation tag 6.
        var page = TIFFPage(rgba: image.pixels, width: 40, height: 24, alpha: false)
        page.orientation = 6
        try write(PictureBytes.tiff([page]), "turned.tif")
        func pixel(_ i: RasterImage, _ x: Int, _ y: Int) -> [UInt8] { Array(i.pixels[(y * i.width + x) * 4..<(y * i.width + x) * 4 + 4]) }
        func stored(_ x: Int, _ y: Int) -> [UInt8] { pixel(image, x, y) }
        let irot = try render("irot.avif").image!
        #expect(irot.width == 24 && irot.height == 40 && pixel(irot, 0, 0) == stored(39, 0), "anticlockwise")
        let phone = try render("phone.avif").image!
        #expect(phone.width == 24 && phone.height == 40 && pixel(phone, 0, 0) == stored(0, 23), "clockwise, once")
        let tiff = try render("turned.tif").image!
        #expect(tiff.width == 24 && tiff.height == 40 && pixel(tiff, 0, 0) == stored(0, 23), "clockwise")
        for name in ["irot.avif", "phone.avif", "turned.tif"] {
            let kept = try render(name, ["--no-auto-orient"]).image!
            #expect(kept.pixels == image.pixels, "\(name) --no-auto-orient keeps the stored pixels")
        }
    }

    @Test func warningsForPagesAndFramesLeftOut() throws {
        let pages = (0..<3).map { _ in TIFFPage(rgba: Self.picture(8, 8).pixels, width: 8, height: 8, alpha: false) }
        try write(PictureBytes.tiff(pages), "pages.tif")
        var r = try render("pages.tif").result
        #expect(r.status == 0)
        #expect(r.stderr == "framed: warning: pages.tif: TIFF of 3 pages: only the first is used, 2 left out\n")
        try write(PictureEncoder.png(Self.picture(8, 8)), "a.png")
        try make("convert", ["a.png", "a.gif"])
        try make("gifsicle", ["a.gif", "a.gif", "-o", "animated.gif"])
        r = try render("animated.gif").result
        #expect(r.status == 0)
        #expect(r.stderr == "framed: warning: animated.gif: animated GIF: only the first frame is used\n")
    }

    @Test func badFilesGiveOneLineAndNoOutput() throws {
        let image = Self.picture(64, 48)
        try write(PictureEncoder.png(image, dropAlpha: true), "s.png")
        try make("heif-enc", ["-q", "50", "-o", "s.heic", "s.png"])
        try make("avifenc", ["s.png", "s.avif"])
        try make("convert", ["s.png", "s.gif"])
        try write(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 64, height: 48, alpha: false)]), "s.tif")
        for name in ["s.heic", "s.avif", "s.gif"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path(name))))
            try write(Array(bytes.prefix(bytes.count / 2)), "cut-\(name)")
        }
        var tiff = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("s.tif"))))
        tiff.replaceSubrange(8..<4000, with: [])  // the strips' offsets now point past the end
        try write(tiff, "cut-s.tif")
        for name in ["cut-s.heic", "cut-s.avif", "cut-s.gif", "cut-s.tif"] {
            let r = try CLITests.framed([name, "-o", "out.png"], in: folder)
            CLITests.expectOneLineError(r, status: 1, mentioning: [name])
            #expect(!FileManager.default.fileExists(atPath: path("out.png")), "\(name): no output")
        }
        // A TIFF that claims ten gigapixels in a few bytes: refused from its header.
        var huge = PictureBytes.tiff([TIFFPage(width: 1, height: 1, samplesPerPixel: 1, photometric: 1, samples: [0])])
        for tag: UInt8 in [0x00, 0x01] {
            let at = (0..<huge.count - 12).first { huge[$0] == tag && huge[$0 + 1] == 0x01 && huge[$0 + 2] == 4 }!
            huge.replaceSubrange(at + 8..<at + 12, with: [0xA0, 0x86, 0x01, 0x00])
        }
        try write(huge, "huge.tif")
        let r = try CLITests.framed(["huge.tif", "-o", "out.png"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["huge.tif", "100000x100000"])
    }

    /// The libraries run by the dynamic loader for one run of `framed` (`LD_DEBUG=files`, written
    /// to a file so that framed's own messages stay apart): their file names, such as `libheif.so.1`.
    func librariesOpened(_ arguments: [String]) throws -> Set<String> {
        let log = folder.appendingPathComponent("loader-\(arguments[0])")
        let r = try Tool.run(CLITests.binary, arguments + ["-f"], in: folder,
                             environment: ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log.path])
        #expect(r.status == 0, "framed \(arguments.joined(separator: " ")): \(r.stderr)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(log.lastPathComponent + ".") }
        #expect(logs.count == 1, "one loader log: \(logs)")
        var names = Set<String>()
        for name in logs {
            // "     12345:\tfile=libheif.so.1 [0];  dynamically loaded by ..."
            for line in try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8).split(separator: "\n") {
                guard let at = line.range(of: "file=") else { continue }
                names.insert(String(line[at.upperBound...].prefix { $0 != " " && $0 != "[" }))
            }
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        return names
    }

    /// libheif (with its four video codecs) and libtiff are opened when a HEIF or TIFF comes, not
    /// at every start: a PNG run maps neither, a HEIC run libheif alone, a TIFF in or out libtiff.
    @Test func heifAndTIFFLibrariesAreOpenedOnlyForTheirFiles() throws {
        let image = Self.picture(64, 48)
        try write(PictureEncoder.png(image, dropAlpha: true), "s.png")
        try make("heif-enc", ["-q", "50", "-o", "s.heic", "s.png"])
        try write(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 64, height: 48, alpha: false)]), "s.tif")
        let png = try librariesOpened(["s.png", "-o", "out.png"])
        #expect(png.contains("libcairo.so.2"), "the loader's log lists libraries: \(png.sorted())")
        #expect(!png.contains("libheif.so.1") && !png.contains("libtiff.so.6") && !png.contains("libde265.so.0"),
                "a PNG run opens \(png.sorted())")
        let heic = try librariesOpened(["s.heic", "-o", "out.png"])
        #expect(heic.contains("libheif.so.1") && !heic.contains("libtiff.so.6"), "a HEIC run opens \(heic.sorted())")
        #expect(try librariesOpened(["s.tif", "-o", "out.png"]).contains("libtiff.so.6"))
        let tiffOut = try librariesOpened(["s.png", "-o", "out.tif"])
        #expect(tiffOut.contains("libtiff.so.6") && !tiffOut.contains("libheif.so.1"), "a TIFF output opens \(tiffOut.sorted())")
    }

    /// Without a usable libheif or libtiff (here a stand-in of the same name that has none of
    /// their functions, found first through LD_LIBRARY_PATH), a HEIC or TIFF gives one line naming
    /// the file and the library, and nothing is written; the other formats still work.
    @Test func aMissingLibraryIsOneLineNamingIt() throws {
        let image = Self.picture(64, 48)
        try write(PictureEncoder.png(image, dropAlpha: true), "s.png")
        try make("heif-enc", ["-q", "50", "-o", "s.heic", "s.png"])
        try write(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 64, height: 48, alpha: false)]), "s.tif")
        let stand = folder.appendingPathComponent("stand-ins")
        try FileManager.default.createDirectory(at: stand, withIntermediateDirectories: true)
        try Data("int framed_stand_in;\n".utf8).write(to: stand.appendingPathComponent("empty.c"))
        for library in ["libheif.so.1", "libtiff.so.6"] {
            let r = try Tool.run("cc", ["-shared", "-fPIC", "-o", library, "empty.c"], in: stand)
            #expect(r.status == 0, "cc: \(r.stderr)")
        }
        let environment = ["LD_LIBRARY_PATH": stand.path]
        for (input, output, named, library) in [("s.heic", "out.png", "s.heic", "libheif"), ("s.tif", "out.png", "s.tif", "libtiff"),
                                                ("s.png", "out.tif", "out.tif", "libtiff")] {
            let r = try Tool.run(CLITests.binary, [input, "-o", output], in: folder, environment: environment)
            CLITests.expectOneLineError(CLITests.Result(status: r.status, stdout: r.output, stderr: r.stderr), status: 1,
                                        mentioning: [named, library])
            #expect(!FileManager.default.fileExists(atPath: path(output)), "\(input) -> \(output): nothing written")
        }
        let r = try Tool.run(CLITests.binary, ["s.png", "-o", "out.png"], in: folder, environment: environment)
        #expect(r.status == 0 && FileManager.default.fileExists(atPath: path("out.png")), "PNG without libheif: \(r.stderr)")
    }

    @Test func lossyFormatsEmbedAsJPEGAndLosslessOnesStayLossless() throws {
        let image = Self.picture(40, 24)
        try write(PictureEncoder.png(image, dropAlpha: true), "e.png")
        try write(PictureBytes.tiff([TIFFPage(rgba: image.pixels, width: 40, height: 24, alpha: false)]), "e.tif")
        try make("convert", ["e.png", "e.gif"])
        try make("heif-enc", ["-q", "80", "-o", "e.heic", "e.png"])
        try make("avifenc", ["e.png", "e.avif"])
        for (name, embedded) in [("e.tif", "image/png"), ("e.gif", "image/png"), ("e.heic", "image/jpeg"),
                                 ("e.avif", "image/jpeg")] {
            let r = try CLITests.framed([name, "-o", "\(name).svg", "--size", "100x60", "-f"], in: folder)
            #expect(r.status == 0, "\(r.stderr)")
            let svg = try String(contentsOfFile: path("\(name).svg"), encoding: .utf8)
            #expect(svg.contains("data:\(embedded);base64"), "\(name) embedded as \(embedded)")
        }
    }
}
