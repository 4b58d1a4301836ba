import Testing
import Foundation
import FramedTestSupport
import FramedRaster

/// GIF through giflib. Fixtures: ImageMagick writes pictures of at most 256 colours as GIF
/// without losing any, `gifsicle` interlaces, places frames on a larger screen and makes
/// animations.
@Suite final class GIFTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.make("framed-gif") }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func run(_ tool: String, _ arguments: [String]) throws {
        #expect(Tool.exists(tool), "\(tool) is needed (imagemagick, gifsicle in TEST_PACKAGES)")
        let r = try Tool.run(tool, arguments, in: folder)
        #expect(r.status == 0, "\(tool) \(arguments.joined(separator: " ")): \(r.stderr)")
    }

    /// A picture of 192 colours in blocks, with (when `transparent`) a transparent corner.
    static func picture(_ width: Int, _ height: Int, transparent: Bool = false) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let i = (x / 3 + y / 2 * 7) % 192
                if transparent && x < width / 3 && y < height / 3 {
                    pixels += [0, 0, 0, 0]
                } else {
                    pixels += [UInt8(i * 29 % 256), UInt8(i * 53 % 256), UInt8(255 - i), 255]
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// The picture written as a PNG, then as a GIF by ImageMagick.
    func gif(_ image: RasterImage, _ name: String) throws {
        try Data(PictureEncoder.png(image)).write(to: folder.appendingPathComponent("\(name).png"))
        try run("convert", ["\(name).png", "\(name).gif"])
    }

    @Test func aGIFIsItsColoursAndItsTransparency() throws {
        let image = Self.picture(61, 37), clear = Self.picture(61, 37, transparent: true)
        try gif(image, "opaque")
        try gif(clear, "clear")
        let opaque = try Pictures.decode(contentsOf: path("opaque.gif"))
        #expect(opaque.format == .gif && opaque.image.pixels == image.pixels && opaque.warningSummary == nil)
        let info = try Pictures.info(.file(path("clear.gif")))
        #expect(info.format == .gif && info.width == 61 && info.height == 37 && info.hasAlpha == true)
        let transparent = try Pictures.decode(contentsOf: path("clear.gif"))
        #expect(transparent.image.hasAlpha && transparent.image.pixels == clear.pixels)
        // Interlaced: the rows come in four passes.
        try run("gifsicle", ["-i", "opaque.gif", "-o", "interlaced.gif"])
        #expect(try Pictures.info(.file(path("interlaced.gif"))).width == 61)
        #expect(try Pictures.decode(contentsOf: path("interlaced.gif")).image.pixels == image.pixels)
    }

    @Test func everyIndexOfAHandWrittenGIFIsItsPaletteColour() throws {
        let palette: [(UInt8, UInt8, UInt8)] = (0..<200).map { (i: Int) in
            (UInt8(i), UInt8(i * 3 % 256), UInt8(255 - i))
        }
        let indices: [UInt8] = (0..<33 * 21).map { (n: Int) in UInt8(n * 7 % 200) }
        for (transparent, interlaced) in [(nil, false), (5, false), (nil, true), (9, true)] as [(Int?, Bool)] {
            let bytes = PictureBytes.gif(width: 33, height: 21, palette: palette, frames: [indices],
                                         transparent: transparent, interlaced: interlaced)
            let decoded = try Pictures.decode(data: bytes)
            var expected: [UInt8] = []
            for i in indices.map({ Int($0) }) {
                if i == transparent { expected += [0, 0, 0, 0] } else { expected += [palette[i].0, palette[i].1, palette[i].2, 255] }
            }
            #expect(decoded.image.pixels == expected, "transparent \(String(describing: transparent)), interlaced \(interlaced)")
            #expect(decoded.image.hasAlpha == (transparent != nil))
        }
    }

    @Test func aFrameSmallerThanTheScreenLeavesTheRestTransparent() throws {
        try gif(Self.picture(20, 10), "small")
        try run("gifsicle", ["--logical-screen", "30x16", "--position", "7,4", "small.gif", "-o", "placed.gif"])
        let info = try Pictures.info(.file(path("placed.gif")))
        #expect(info.width == 30 && info.height == 16 && info.hasAlpha == true)
        let decoded = try Pictures.decode(contentsOf: path("placed.gif")).image
        let small = Self.picture(20, 10)
        for y in 0..<16 {
            for x in 0..<30 {
                let inside = (7..<27).contains(x) && (4..<14).contains(y)
                let want = inside ? Array(small.pixels[((y - 4) * 20 + x - 7) * 4..<((y - 4) * 20 + x - 7) * 4 + 4])
                    : [0, 0, 0, 0]
                let got = Array(decoded.pixels[(y * 30 + x) * 4..<(y * 30 + x) * 4 + 4])
                if got != want {
                    Issue.record("pixel \(x),\(y): \(got), expected \(want)")
                    return
                }
            }
        }
    }

    @Test func anAnimationGivesItsFirstFrameAndAWarning() throws {
        let first = Self.picture(24, 16), second = RasterImage(width: 24, height: 16,
                                                              pixels: [UInt8](repeating: 255, count: 24 * 16 * 4))
        try gif(first, "a")
        try gif(second, "b")
        try run("gifsicle", ["--loopcount=0", "--delay", "10", "a.gif", "b.gif", "-o", "animated.gif"])
        let decoded = try Pictures.decode(contentsOf: path("animated.gif"))
        #expect(decoded.image.pixels == first.pixels)
        #expect(decoded.warningSummary == "animated GIF: only the first frame is used")
    }

    /// Issue 32: a logical screen over 4 megapixels may be at most 64 times the first image,
    /// the picture framed: 4096x4096 around a 1x1 image is refused by the header and by the
    /// decoder alike; around a 512x512 one (at the bound) it decodes.
    @Test func aScreenFarLargerThanTheFirstImageIsRefused() throws {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }
        let tiny = Array("GIF89a".utf8) + le16(4096) + le16(4096) + [0x80, 0, 0, 255, 0, 0, 0, 0, 255]
            + [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0, 2, 2, 0x44, 0x01, 0, 0x3B]
        let message = "its 4096x4096 canvas is more than 64 times the 1 pixel of its first frame"
        #expect(throws: RasterError.unsupportedContent(.gif, message)) { try Pictures.info(data: tiny) }
        #expect(throws: RasterError.unsupportedContent(.gif, message)) { try Pictures.decode(data: tiny) }
        var fits = PictureBytes.gif(width: 512, height: 512, palette: [(255, 0, 0), (0, 0, 255)],
                                    frames: [[UInt8](repeating: 1, count: 512 * 512)])
        fits.replaceSubrange(6..<10, with: le16(4096) + le16(4096))
        #expect(try Pictures.decode(data: fits).image.width == 4096)
    }

    @Test func badGIFsAreRefusedInOneLineAndHugeScreensBeforeAllocating() throws {
        try gif(Self.picture(64, 64), "good")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path("good.gif"))))
        for cut in [bytes.count / 2, 20, 11] {
            do {
                _ = try Pictures.decode(data: Array(bytes.prefix(cut)))
                Issue.record("a GIF cut at \(cut) of \(bytes.count) bytes decoded")
            } catch {
                #expect(!error.description.contains("\n") && error.description.contains("GIF"), "\(error)")
            }
        }
        // The logical screen claims 65535 x 65535: refused from the header.
        var huge = bytes
        huge.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        var options = DecodeOptions()
        options.maxPixels = 1_000_000
        #expect(throws: RasterError.tooLarge(width: 65535, height: 65535, limit: 1_000_000)) {
            try Pictures.decode(data: huge, options: options)
        }
    }
}
