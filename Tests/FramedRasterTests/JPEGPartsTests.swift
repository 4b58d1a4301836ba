import CCodecs
import CFramedEngines
import FramedRaster
import Testing

/// A JPEG written in parts by framed's encoder (the jpegParts engine, jpegparts.c: what SVG and PDF
/// embed): bands of whole rows of MCUs, encoded apart on two threads and joined with restart
/// markers. The joined bytes are what libjpeg writes for the whole picture with that restart
/// interval, so they do not depend on the thread count, and they decode to the pixels of the file
/// written whole. The engine is called by name, whatever FRAMED_ENGINES says.
@Suite struct JPEGPartsTests {
    static func split(_ width: UInt32, _ height: UInt32, _ flags: Int32) -> (parts: Int, rows: UInt32, interval: UInt32) {
        var split = framed_jpeg_parts()
        framed_engine_jpeg_parts(width, height, flags, &split)
        return (Int(split.parts), split.part_rows, split.interval)
    }

    @Test func theSplitInNumbers() {
        // 1819x1213 at 4:2:0: 114 MCUs a row, 76 rows of MCUs, two halves of 38.
        #expect(Self.split(1819, 1213, 0) == (2, 608, 38 * 114))
        // 32 rows of MCUs are the least that is split; 31 are not.
        #expect(Self.split(1819, 512, 0) == (2, 256, 16 * 114))
        #expect(Self.split(1819, 496, 0) == (1, 496, 0))
        // Gray: MCUs of 8x8.
        #expect(Self.split(1819, 1213, CCODECS_JPEG_GRAYSCALE) == (2, 608, 76 * 228))
        // A half over 65535 MCUs: parts of 52 rows of MCUs (65,000 MCUs), five of them.
        #expect(Self.split(20000, 4000, 0) == (5, 52 * 16, 52 * 1250))
        // Progressive, or with the tests' own restart markers: one part.
        #expect(Self.split(1819, 1213, CCODECS_JPEG_PROGRESSIVE).parts == 1)
        #expect(Self.split(1819, 1213, CCODECS_JPEG_RESTARTS).parts == 1)
        // The tests' parts of one row of MCUs: 3 rows, 3 parts of 7 MCUs.
        #expect(Self.split(100, 40, FRAMED_ENGINE_JPEG_PART_ROWS_1) == (3, 16, 7))
    }

    /// `(flags, name)`: colour 4:2:0, gray, 4:4:4, and parts of one row of MCUs (44 parts: the
    /// restart markers wrap from RST7 to RST0 five times).
    static let cases: [(Int32, String)] = [
        (0, "4:2:0"),
        (CCODECS_JPEG_GRAYSCALE, "gray"),
        (CCODECS_JPEG_CHROMA_444, "4:4:4"),
        (FRAMED_ENGINE_JPEG_PART_ROWS_1, "rows of one MCU"),
    ]

    @Test(arguments: 0..<4)
    func partsOnTwoThreadsAreLibjpegsRestartFile(index: Int) {
        let (flags, name) = Self.cases[index]
        // 803x699: over half a megapixel (two threads), neither side a whole number of MCUs.
        let image = Fixture.noise(803, 699)
        let one = Fixture.jpegInParts(image, quality: 90, flags: flags, threads: 1)
        let two = Fixture.jpegInParts(image, quality: 90, flags: flags, threads: 2)
        // (Booleans: a failed == of two arrays this long would have the test library diff them.)
        let same = one == two
        #expect(same, "\(name): the bytes depend on the thread count")
        let restarts = zip(two, two.dropFirst()).filter { $0 == 0xFF && (0xD0...0xD7).contains($1) }.count
        #expect(restarts == Self.split(803, 699, flags).parts - 1, "\(name)")
        // The same coefficients as the file written whole by libjpeg: the same pixels.
        let whole = Fixture.jpeg(image, quality: 90, flags: flags & ~FRAMED_ENGINE_JPEG_PART_ROWS_1)
        let samePixels = Fixture.rawJPEG(two).pixels == Fixture.rawJPEG(whole).pixels
        #expect(samePixels, "\(name)")
    }

    /// PictureEncoder writes parts when it is given threads and the engine is on, and libjpeg's
    /// whole file (no DRI, no restart markers) otherwise: both named here explicitly.
    @Test func pictureEncoderWritesPartsOnlyWithThreadsAndTheEngine() throws {
        let image = Fixture.gradient(640, 600)
        let plain = try PictureEncoder.jpeg(image, engines: .all)
        let parts = try PictureEncoder.jpeg(image, threads: 2, engines: .jpegParts)
        let withoutEngine = try PictureEncoder.jpeg(image, threads: 2, engines: Engines.all.subtracting(.jpegParts))
        func hasDRI(_ bytes: [UInt8]) -> Bool { zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xDD } }
        #expect(!hasDRI(plain))
        #expect(hasDRI(parts))
        let sameAsPlain = withoutEngine == plain
        #expect(sameAsPlain)
        let oneThread = try PictureEncoder.jpeg(image, threads: 1, engines: .jpegParts) == parts
        #expect(oneThread)
    }
}
