import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Sets: `--scale 1,2,3` and `--variant light,dark` write several files from one picture in one
/// run. Checked with the built binary: the names, the pixel sizes (2x is exactly twice 1x), each
/// file against the same picture framed alone, docs-dark's colours in the pixels (GitHub's dark
/// palette values, written here, not taken from framed), one decode (the picture's file read as
/// often as for one output), and the refusals, which write nothing.
struct SetTests {
    static func run(_ arguments: [String], in folder: URL) throws -> CLITests.Result {
        try CLITests.framed(arguments, in: folder)
    }

    static func png(_ name: String, in folder: URL) throws -> RasterImage {
        try Pictures.decode(contentsOf: folder.appendingPathComponent(name).path).image
    }

    @Test func scalesAreNamedTheWebWayAndSizedExactly() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try Self.run(["shot.png", "-o", "out.png", "--preset", "docs", "--scale", "1,2,3"], in: folder)
        // shot.png is 300 px at its natural size: 2x and 3x are enlarged, and say so (SetSizeTests).
        let warned = r.stderr.split(separator: "\n")
        #expect(r.status == 0 && warned.count == 2 && warned[0].contains("--scale 2") && warned[1].contains("--scale 3"), "\(r.stderr)")
        #expect(try CLITests.files(in: folder) == ["out.png", "out@2x.png", "out@3x.png", "photo.jpg", "shot.png"])
        let one = try Self.png("out.png", in: folder), two = try Self.png("out@2x.png", in: folder)
        let three = try Self.png("out@3x.png", in: folder)
        #expect(two.width == 2 * one.width && two.height == 2 * one.height)
        #expect(three.width == 3 * one.width && three.height == 3 * one.height)

        // Each file of the set is the picture framed at that scale alone.
        for (scale, name) in [("1", "out.png"), ("2", "out@2x.png"), ("3", "out@3x.png")] {
            r = try Self.run(["shot.png", "-o", "alone-\(scale).png", "--preset", "docs", "--scale", scale], in: folder)
            #expect(r.status == 0, "\(r.stderr)")
            let alone = try Self.png("alone-\(scale).png", in: folder), inSet = try Self.png(name, in: folder)
            #expect(alone.width == inSet.width && alone.height == inSet.height && alone.pixels == inSet.pixels,
                    "\(name) is the \(scale)x framing")
        }
    }

    /// A JPEG that shrinks on load: the 2x file of `1,2` (the largest) is the 2x framing alone,
    /// byte for byte.
    @Test func theLargestOfASetIsItsOwnFramingByteForByte() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var r = try Self.run(["photo.jpg", "-o", "p.png", "--size", "120x80", "--scale", "1,2"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.run(["photo.jpg", "-o", "alone.png", "--size", "120x80", "--scale", "2"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("p@2x.png"))
                == Data(contentsOf: folder.appendingPathComponent("alone.png")))
    }

    /// With `--trim` too: the edges are found on the largest file's own decode, so that file
    /// is its framing alone, byte for byte. The 1x file decodes the JPEG at 1/8, where the
    /// 37 px and 53 px margins round out to other boxes than the 1/2 decode of the 4x file.
    @Test func theLargestOfATrimmedSetIsItsOwnFramingByteForByte() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (width, height) = (1600, 1000)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= 37 && x < width - 53 && y >= 37 && y < height - 53
                pixels += inside ? [UInt8(40 + x * 150 / width), UInt8(30 + y * 150 / height), 90, 255] : [255, 255, 255, 255]
            }
        }
        try Data(PictureEncoder.jpeg(RasterImage(width: width, height: height, pixels: pixels), quality: 95))
            .write(to: folder.appendingPathComponent("margins.jpg"))
        let options = ["--size", "200x125", "--trim", "10%"]
        var r = try Self.run(["margins.jpg", "-o", "t.png", "--scale", "1,4"] + options, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        r = try Self.run(["margins.jpg", "-o", "alone.png", "--scale", "4"] + options, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("t@4x.png"))
                == Data(contentsOf: folder.appendingPathComponent("alone.png")), "t@4x.png is the 4x framing alone")
        // And the trimming did happen: the picture's top-left corner is the photo, not the margin
        // (untrimmed, 37 px of 1600 would be 18 device pixels of white there at 4x).
        let plan = try SVGInputTests.layout("margins.jpg", ["--scale", "4"] + options, in: folder)
        let picture = try SVGInputTests.rect(plan, "picture"), k = 4 / 0.75
        let corner = try Self.png("alone.png", in: folder).rgba(Int(picture.x * k) + 3, Int(picture.y * k) + 3)
        #expect(corner.r < 120 && corner.g < 120, "\(corner)")
    }

    @Test func templatesTakeScaleAndVariant() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["shot.png", "photo.jpg", "-o", "out/{stem}{variant}{scale}.png", "--preset", "docs",
                              "--variant", "light,dark", "--scale", "1,2"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLITests.files(in: folder.appendingPathComponent("out")) == [
            "photo-dark.png", "photo-dark@2x.png", "photo.png", "photo@2x.png",
            "shot-dark.png", "shot-dark@2x.png", "shot.png", "shot@2x.png",
        ])
    }

    /// docs-dark's hairline is GitHub's dark border colour #30363d and its mat GitHub's dark
    /// raised surface #161b22; the light file keeps docs' #d0d0d0 and white. The frame's left
    /// edge is found in each file as the first opaque pixel of the middle row.
    @Test func theDarkFileHasDocsDarksColours() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["photo.jpg", "-o", "fig.png", "--preset", "docs", "--padding", "10px",
                              "--variant", "light,dark"], in: folder)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(try CLITests.files(in: folder) == ["fig-dark.png", "fig.png", "photo.jpg", "shot.png"])
        let expected: [(String, (UInt8, UInt8, UInt8), (UInt8, UInt8, UInt8))] = [
            ("fig.png", (0xd0, 0xd0, 0xd0), (0xff, 0xff, 0xff)),
            ("fig-dark.png", (0x30, 0x36, 0x3d), (0x16, 0x1b, 0x22)),
        ]
        for (name, border, mat) in expected {
            let png = try Self.png(name, in: folder)
            let y = png.height / 2
            let edge = try #require((0..<png.width).first { png.pixel(x: $0, y: y).a == 255 }, "\(name): a frame")
            let b = png.pixel(x: edge, y: y), m = png.pixel(x: edge + 5, y: y)
            #expect((b.r, b.g, b.b, b.a) == (border.0, border.1, border.2, 255), "\(name): border \(b)")
            #expect((m.r, m.g, m.b, m.a) == (mat.0, mat.1, mat.2, 255), "\(name): mat \(m)")
        }
        // A title bar takes the variant's theme: macOS's light bar #ececec, its dark bar #323232
        // (read at the middle of the bar's top row of pixels under the hairline).
        let chrome = try Self.run(["photo.jpg", "-o", "bar.png", "--preset", "docs", "--chrome", "macos",
                                   "--variant", "light,dark"], in: folder)
        #expect(chrome.status == 0 && chrome.stderr.isEmpty, "\(chrome.stderr)")
        for (name, bar) in [("bar.png", UInt8(0xec)), ("bar-dark.png", UInt8(0x32))] {
            let png = try Self.png(name, in: folder)
            let x = png.width / 2
            let top = try #require((0..<png.height).first { png.pixel(x: x, y: $0).a == 255 }, "\(name): a frame")
            let p = png.pixel(x: x, y: top + 1 + 5)
            #expect((p.r, p.g, p.b, p.a) == (bar, bar, bar, 255), "\(name): bar \(p)")
        }
        // --variant dark alone is --preset docs-dark, under the name -o gives.
        let dark = try Self.run(["photo.jpg", "-o", "d.png", "--preset", "docs", "--padding", "10px", "--variant", "dark"],
                                in: folder)
        #expect(dark.status == 0, "\(dark.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("d.png"))
                == Data(contentsOf: folder.appendingPathComponent("fig-dark.png")))
    }

    /// The picture is decoded once for the whole set: its file is read no more often for three
    /// scales than for the largest alone (strace names each read's file).
    @Test func aSetReadsThePictureOnce() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        func reads(_ scale: String) throws -> Int {
            let r = try RobustnessTests.sh("strace -f -y -e trace=pread64,read -o trace.txt \"$FRAMED\" shot.png -o o.png -f "
                                           + "--preset docs --variant light,dark --scale \(scale) >/dev/null 2>&1; "
                                           + "grep -c '/shot.png>' trace.txt", in: folder)
            return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let set = try reads("1,2,3"), alone = try reads("3")
        #expect(alone > 0 && set == alone, "\(set) reads for the set of six, \(alone) for one scale's pair")
        let single = try RobustnessTests.sh("strace -f -y -e trace=pread64,read -o trace.txt \"$FRAMED\" shot.png -o o.png -f "
                                            + "--scale 3 >/dev/null 2>&1; grep -c '/shot.png>' trace.txt", in: folder)
        #expect(Int(single.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == set, "one output reads as much")
    }

    @Test func layoutReportsEachFileOfTheSet() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try Self.run(["layout", "shot.png", "-o", "s.png", "--preset", "docs", "--scale", "1,2"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["output"] as? String } == ["s.png", "s@2x.png"])
        let pixels = entries.compactMap { $0["canvasPixels"] as? [String: Int] }
        #expect(pixels.count == 2 && pixels[1]["width"] == 2 * pixels[0]["width"]!)
        #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png"], "layout writes nothing")
    }

    @Test func refusalsAreOneLineAndWriteNothing() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("shot.png"),
                                         to: folder.appendingPathComponent("shot@2x.png"))
        let cases: [([String], [String])] = [
            (["shot.png", "-o", "s.svg", "--scale", "1,2"], ["--scale", "SVG", "vector"]),
            (["shot.png", "-o", "s.pdf", "--scale", "1,2"], ["--scale", "PDF"]),
            (["shot.png", "-o", "s.png", "--variant", "dark"], ["--variant dark", "classic"]),
            (["shot.png", "-o", "out/{stem}.png", "--scale", "1,2"], ["{scale}"]),
            (["shot.png", "-o", "out/{stem}{scale}.png", "--preset", "docs", "--variant", "light,dark"], ["{variant}"]),
            (["shot.png", "-o", "-", "--format", "png", "--scale", "1,2"], ["standard output"]),
            (["shot.png", "-o", "s.png", "--scale", "1,2,1"], ["--scale", "twice"]),
            (["shot.png", "-o", "s.png", "--scale", "1,2", "--preset", "print"], ["--dpi 300"]),
            // shot.png's 2x file and shot@2x.png's 1x file have one name.
            (["shot.png", "shot@2x.png", "-o", "out/", "--format", "png", "--scale", "1,2"], ["out/shot@2x.png"]),
        ]
        for (arguments, words) in cases {
            let r = try Self.run(arguments, in: folder)
            CLITests.expectOneLineError(r, status: 2, mentioning: words)
            #expect(r.stdout.isEmpty)
            #expect(try CLITests.files(in: folder) == ["photo.jpg", "shot.png", "shot@2x.png"], "\(arguments): nothing written")
        }
    }
}
