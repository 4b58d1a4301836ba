import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// `FRAMED_ENGINES` reaches the `framed` binary, read once at its start, whatever the environment
/// of the tests says: with every engine off a flat PNG is deflated by zlib rather than by framed's
/// own writer (other bytes, the same pixels), and a name it does not know is reported once.
@Suite struct EngineSwitchTests {
    @Test func theSwitchTurnsTheEnginesOff() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A flat picture (two colours) on a flat mat: rows that are mostly zeros once filtered.
        let pixels: [UInt8] = (0..<400 * 300).flatMap { $0 % 400 < 150 ? [30, 90, 200, 255] : [250, 250, 250, 255] }
        let flat = RasterImage(width: 400, height: 300, pixels: pixels)
        try Data(PictureEncoder.png(flat)).write(to: folder.appendingPathComponent("flat.png"))
        var outputs: [String: [UInt8]] = [:]
        for setting in ["on", "off", "-fastdeflate"] {
            let name = "flat-\(setting).png"
            let r = try BatchTests.framed(["flat.png", "-o", name, "--padding", "40", "--background", "white"], in: folder,
                                          environment: ["FRAMED_ENGINES": setting])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(setting): \(r.stderr)")
            outputs[setting] = try Array(BatchTests.bytes(folder, name))
        }
        let on = try #require(outputs["on"]), off = try #require(outputs["off"])
        // (Booleans: a failed == of two arrays this long would have the test library print them.)
        let differ = on != off, sameWithoutTheWriter = outputs["-fastdeflate"] == off
        #expect(differ, "the flat rows are deflated by zlib with the engines off")
        #expect(sameWithoutTheWriter, "the deflate writer is the only engine a PNG's bytes show")
        let decoded = try [on, off].map { try Pictures.decode(data: $0, options: DecodeOptions()).image }
        let samePixels = decoded[0] == decoded[1]
        #expect(samePixels)
    }

    @Test func anUnknownNameIsReported() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try BatchTests.framed(["photo.jpg", "-o", "photo.png"], in: folder,
                                      environment: ["FRAMED_ENGINES": "-pngdata,turbo"])
        #expect(r.status == 0)
        #expect(r.stderr == "framed: FRAMED_ENGINES: turbo unknown (engines: jpegreduced, jpegsplit, jpegscans, "
                + "jpegparts, pngdata, fastdeflate, avx2rows; or on, off), left out\n")
    }
}
