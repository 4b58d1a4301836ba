import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Borders as users see them in PNG output: crisp snapped edges, double borders, inner hairlines.
struct BorderTests {
    /// Frames a 200x120 white picture and returns the PNG.
    static func render(_ extra: [String]) throws -> RasterImage {
        let folder = try TemporaryFolder.make("framed-border")
        defer { try? FileManager.default.removeItem(at: folder) }
        let white = [UInt8](repeating: 255, count: 200 * 120 * 4)
        try Data(PictureEncoder.png(RasterImage(width: 200, height: 120, pixels: white)))
            .write(to: folder.appendingPathComponent("white.png"))
        let r = try CLITests.framed(["white.png", "-o", "out.png", "--shadow", "none"] + extra, in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        return try Pictures.decode(contentsOf: folder.appendingPathComponent("out.png").path).image
    }

    /// Values of the middle row that are neither fully one colour nor the other: half-tones.
    static func halfTones(in image: RasterImage) -> [Int] {
        let y = image.height / 2
        return (0..<image.width).compactMap { x in
            let p = image.pixel(x: x, y: y)
            let v = Int(p.r) * Int(p.a) / 255  // over black
            return v != 0 && v != 255 && p.a != 0 && p.a != 255 || (p.a == 255 && p.r != 0 && p.r != 255) ? x : nil
        }
    }

    @Test(arguments: [1.0, 2.0])
    func oneCSSPixelBorderIsCrispOnAnOffGridFrame(scale: Double) throws {
        // 150 mm is 566.93 px: the right edge falls inside a pixel unless the frame is snapped.
        let args = ["--size", "150mmx100mm", "--border", "1", "--border-color", "black",
                    "--background", "white", "--scale", "\(scale)"]
        let snapped = try Self.render(args)
        #expect(Self.halfTones(in: snapped).isEmpty, "snapped: \(Self.halfTones(in: snapped))")
        let y = snapped.height / 2
        let black = (0..<snapped.width).filter { snapped.pixel(x: $0, y: y) == (0, 0, 0, 255) }
        #expect(black.count == Int(2 * scale), "two borders of \(scale) device pixels: \(black)")
        let unsnapped = try Self.render(args + ["--no-snap"])
        #expect(!Self.halfTones(in: unsnapped).isEmpty, "without snapping the off-grid edge is a half-tone")
    }

    @Test func doubleBorderDrawsTwoBandsWithTheMatBetween() throws {
        let image = try Self.render(["--border", "9", "--border-style", "double", "--border-color", "black",
                                     "--background", "red", "--padding", "10"])
        let y = image.height / 2
        let row = (0..<12).map { image.pixel(x: $0, y: y) }
        for x in 0..<3 { #expect(row[x] == (0, 0, 0, 255), "outer band at \(x)") }
        for x in 3..<6 { #expect(row[x] == (255, 0, 0, 255), "gap shows the mat at \(x)") }
        for x in 6..<9 { #expect(row[x] == (0, 0, 0, 255), "inner band at \(x)") }
        #expect(row[9] == (255, 0, 0, 255), "mat after the border")
    }

    @Test func innerBorderOutlinesThePictureInsideTheMat() throws {
        let image = try Self.render(["--border", "2", "--border-color", "black", "--background", "#c0c0c0",
                                     "--padding", "20", "--inner-border", "2px #0000ff"])
        // Frame: 2 border + 20 padding; picture from x = 22 to 222.
        let y = image.height / 2
        #expect(image.pixel(x: 10, y: y) == (192, 192, 192, 255), "mat")
        #expect(image.pixel(x: 20, y: y) == (0, 0, 255, 255) && image.pixel(x: 21, y: y) == (0, 0, 255, 255))
        #expect(image.pixel(x: 22, y: y) == (255, 255, 255, 255), "picture starts right after the line")
        #expect(image.pixel(x: 223, y: y) == (0, 0, 255, 255), "right side too")
        let top = image.pixel(x: image.width / 2, y: 21)
        #expect(top == (0, 0, 255, 255), "top side")
    }

    @Test func badBorderOptionsAreUsageErrors() throws {
        for bad in [["--border-style", "dotted"], ["--inner-border", "2px"], ["--inner-border", "0 red"],
                    ["--inner-border", "2qq red"]] {
            let r = try CLITests.framed(["x.png", "-o", "y.png"] + bad)
            CLITests.expectOneLineError(r, status: 2, mentioning: [bad[0]])
        }
    }
}
