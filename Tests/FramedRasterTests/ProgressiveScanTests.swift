import CCodecs
import CFramedEngines
import FramedTestSupport
import FramedRaster
import Testing

/// At 1/8 scale a progressive JPEG's AC scans of the components that come out one pixel a block
/// are not read (the jpegScans engine, jpegscans.c), and at 1/2 and 1/4 a colour one's chroma is
/// decoded on a second thread beside its luma (the jpegSplit engine, jpegsplit.c): the pixels and
/// warnings are those of one decompressor reading every scan (no engine), at every scale, from
/// bytes and from a file; and a file whose scans the walk is not sure of is read whole. Every
/// decode names its engines, whatever FRAMED_ENGINES says.
@Suite struct ProgressiveScanTests {
    /// One scan: from its SOS marker to the marker after its entropy-coded data.
    struct Scan {
        var start: Int, end: Int
        var components: [UInt8]
        var ss: UInt8, se: UInt8
    }

    /// The scans of a JPEG, walked marker by marker (the fixtures have no fill bytes).
    static func scans(_ bytes: [UInt8]) -> [Scan] {
        var found: [Scan] = []
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xD9 {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard bytes[at + 1] == 0xDA else {
                at += 2 + length
                continue
            }
            let count = Int(bytes[at + 4])
            let components = (0..<count).map { bytes[at + 5 + 2 * $0] }
            let band = at + 5 + 2 * count
            var end = at + 2 + length
            while !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) { end += 1 }
            found.append(Scan(start: at, end: end, components: components, ss: bytes[band], se: bytes[band + 1]))
            at = end
        }
        return found
    }

    static let photo = ResampleFixture.photo(203, 141)
    static let color = Fixture.jpeg(photo, quality: 90, flags: CCODECS_JPEG_PROGRESSIVE)

    /// Options to decode at 1/`scale`, or `numerator`/`scale`: with every engine, or (`everyScan`)
    /// with none, one libjpeg decompressor reading every scan.
    static func options(scale: Int, numerator: Int = 1, everyScan: Bool = false) -> DecodeOptions {
        var options = DecodeOptions(scaleDenominator: scale)
        options.scaleNumerator = numerator
        options.engines = everyScan ? [] : .all
        return options
    }

    /// Decodes at 1/`scale`, or `numerator`/`scale` (see `options`).
    static func decode(_ bytes: [UInt8], scale: Int, numerator: Int = 1, everyScan: Bool = false) throws(RasterError) -> DecodedPicture {
        try Pictures.decode(.bytes(bytes), options: options(scale: scale, numerator: numerator, everyScan: everyScan))
    }

    static func same(_ a: DecodedPicture, _ b: DecodedPicture) -> Bool {
        a.image == b.image && a.warningCount == b.warningCount && a.scaleDenominator == b.scaleDenominator
            && a.scaleNumerator == b.scaleNumerator
    }

    @Test(arguments: [CCODECS_JPEG_PROGRESSIVE, CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_GRAYSCALE,
                      CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_ARITHMETIC])
    func everyScaleGivesThePixelsOfEveryScan(flags: Int32) throws {
        let bytes = Fixture.jpeg(Self.photo, quality: 90, flags: flags)
        let folder = try FileInputTests.Folder()
        let file = try PictureInput(.file(folder.write(bytes)))
        for (numerator, scale) in [(1, 1), (1, 2), (3, 8), (1, 4), (1, 8)] {
            let every = try Self.decode(bytes, scale: scale, numerator: numerator, everyScan: true)
            #expect(Self.same(try Self.decode(bytes, scale: scale, numerator: numerator), every), "\(numerator)/\(scale)")
            let framed = Self.options(scale: scale, numerator: numerator)
            #expect(Self.same(try Pictures.decode(file, options: framed), every), "\(numerator)/\(scale) from a file")
            let libjpeg = Self.options(scale: scale, numerator: numerator, everyScan: true)
            #expect(Self.same(try Pictures.decode(file, options: libjpeg), every), "\(numerator)/\(scale) from a file, every scan")
        }
    }

    /// Luma's AC scans are made unreadable (a Huffman table that is not defined): libjpeg
    /// refuses them, so a decode that succeeds did not read them. At 1/4 luma's AC coefficients
    /// are used, and read.
    @Test func lumaDetailIsNotReadAtAnEighth() throws {
        var broken = Self.color
        let luma = Self.scans(broken).filter { $0.ss > 0 && $0.components == [1] }
        #expect(luma.count == 4)
        for scan in luma { broken[scan.start + 6] = 0x03 } // table selectors: DC 0, AC 3
        #expect(throws: RasterError.self) { try Self.decode(broken, scale: 8, everyScan: true) }
        #expect(throws: RasterError.self) { try Self.decode(broken, scale: 4) }
        let eighth = try Self.decode(broken, scale: 8)
        #expect(Self.same(eighth, try Self.decode(Self.color, scale: 8)))
        #expect(eighth.image.width == 26 && eighth.warningCount == 0)
        let folder = try FileInputTests.Folder()
        let file = try PictureInput(.file(folder.write(broken)))
        #expect(Self.same(try Pictures.decode(file, options: Self.options(scale: 8)), eighth))
        // Chroma's AC scans are read at 1/8 (its 2x2 blocks use them).
        var chroma = Self.color
        for scan in Self.scans(chroma) where scan.ss > 0 && scan.components != [1] { chroma[scan.start + 6] = 0x03 }
        #expect(throws: RasterError.self) { try Self.decode(chroma, scale: 8) }
    }

    /// Long APP15 segments (which libjpeg skips without keeping, across more than one read
    /// of a file) before each scan that is not read: the skipping and the scans left unread
    /// meet, from bytes and from a file.
    @Test func skippedSegmentsBesideUnreadScans() throws {
        var padded = Self.color
        let luma = Self.scans(padded).filter { $0.ss > 0 && $0.components == [1] }
        for scan in luma.reversed() {
            let length = 65000
            let segment = [0xFF, 0xEF, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: 0x5A, count: length - 2)
            padded.insert(contentsOf: segment, at: scan.start)
        }
        let every = try Self.decode(padded, scale: 8, everyScan: true)
        #expect(every.image == (try Self.decode(Self.color, scale: 8)).image && every.warningCount == 0)
        #expect(Self.same(try Self.decode(padded, scale: 8), every))
        let folder = try FileInputTests.Folder()
        let file = try PictureInput(.file(folder.write(padded)))
        #expect(Self.same(try Pictures.decode(file, options: Self.options(scale: 8)), every))
    }

    /// How many decompressors `ccodecs_jpeg_decode` used at `eighths`/8, with every JPEG engine.
    static func decoders(_ bytes: [UInt8], eighths: Int32) -> Int32 {
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_decoded_release(&out) }
        var engines = ccodecs_jpeg_engines(scans: framed_engine_jpegscans(), split: framed_engine_jpegsplit(),
                                           reduced: framed_engine_jpegreduced(), reduced_always_split: 0)
        #expect(ccodecs_jpeg_decode(bytes, bytes.count, eighths, &engines, 1 << 30, &out, &message) == CCODECS_OK)
        return out.decoders
    }

    @Test func chromaIsDecodedBesideLumaAtAHalfAndAQuarter() throws {
        #expect([8, 4, 3, 2, 1].map { Self.decoders(Self.color, eighths: $0) } == [1, 2, 2, 2, 1])
        let gray = Fixture.jpeg(Self.photo, quality: 90, flags: CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_GRAYSCALE)
        let baseline = Fixture.jpeg(Self.photo, quality: 90, flags: 0)
        #expect(Self.decoders(gray, eighths: 2) == 1 && Self.decoders(baseline, eighths: 2) == 1)
        // On one thread (a batch worker), one decompressor: the same pixels.
        var one = Self.options(scale: 4)
        one.threads = 1
        #expect(Self.same(try Pictures.decode(.bytes(Self.color), options: one), try Self.decode(Self.color, scale: 4)))
    }

    /// Damage in chroma's scans is met by the second decompressor: its warnings are counted,
    /// its errors stop the decode with libjpeg's words.
    @Test func theChromaDecodersWarningsAndErrorsCount() throws {
        let chroma = Self.scans(Self.color).filter { $0.ss > 0 && $0.components != [1] }
        var damaged = Self.color
        let scan = try #require(chroma.first)
        for i in stride(from: scan.start + 20, to: scan.end - 4, by: 97) where ![0xFF, 0xA5].contains(damaged[i]) {
            damaged[i] ^= 0x5A
        }
        let every = try Self.decode(damaged, scale: 4, everyScan: true)
        #expect(every.warningCount > 0)
        #expect(Self.decoders(damaged, eighths: 2) == 2)
        #expect(Self.same(try Self.decode(damaged, scale: 4), every))
        var broken = Self.color
        for scan in chroma { broken[scan.start + 6] = 0x03 }
        #expect(throws: RasterError.self) { try Self.decode(broken, scale: 4, everyScan: true) }
        do {
            _ = try Self.decode(broken, scale: 4)
            Issue.record("decoded a file whose chroma scans use an undefined table")
        } catch {
            #expect("\(error)".contains("Huffman table 0x03 was not defined"), "\(error)")
        }
    }

    /// Cut inside the last scan: no EOI, so every scan is read, with libjpeg's warnings.
    @Test func aFileCutShortIsReadWhole() throws {
        let last = try #require(Self.scans(Self.color).last)
        let cut = Array(Self.color[..<((last.start + last.end) / 2)])
        let every = try Self.decode(cut, scale: 8, everyScan: true)
        #expect(every.warningCount > 0)
        #expect(Self.same(try Self.decode(cut, scale: 8), every))
    }

    /// Without chroma's last refinement scans, chroma's coefficients lack their low bit and
    /// libjpeg's block smoothing guesses at them (its 1/8 pixels depend on it): such a file is
    /// read whole, with smoothing, so that the pixels stay those of every scan.
    @Test func aCoarseProgressionIsReadWhole() throws {
        let scans = Self.scans(Self.color)
        let refinements = scans.filter { $0.ss > 0 && $0.components != [1] }.suffix(2)
        #expect(refinements.count == 2)
        var coarse = Self.color
        for scan in refinements.reversed() { coarse.removeSubrange(scan.start..<scan.end) }
        #expect(Self.scans(coarse).count == scans.count - 2)
        let every = try Self.decode(coarse, scale: 8, everyScan: true)
        #expect(every.warningCount == 0)
        #expect(every.image != (try Self.decode(Self.color, scale: 8)).image)
        #expect(Self.same(try Self.decode(coarse, scale: 8), every))
    }
}
