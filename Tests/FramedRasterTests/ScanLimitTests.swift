import CCodecs
import FramedRaster
import FramedTestSupport
import Testing

/// Progressive JPEGs whose scans ask for more work than any encoder's: refused from their
/// markers before a scan is decoded (issue 23). The expected counts come from libjpeg's default
/// progressive script (jcparam.c, jpeg_simple_progression), worked out here.
struct ScanLimitTests {
    /// A 64x48 progressive JPEG, 4:2:0: 48 luma blocks and 12 of each chroma.
    static let progressive = try! PictureEncoder.jpeg(Support.busyPicture(width: 64, height: 48, alpha: false),
                                                      progressive: true)

    /// Where each scan (SOS) starts, and where its data ends (the next marker).
    static func scans(_ jpeg: [UInt8]) -> [Range<Int>] {
        var starts: [Int] = []
        for i in 0..<jpeg.count - 1 where jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA { starts.append(i) }
        return starts.map { start in
            var end = start + 2
            while end < jpeg.count - 1, !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1])
                                          && end > start + 2) { end += 1 }
            return start..<end
        }
    }

    /// `jpeg` with `copies` more copies of its scan at `index`, before EOI.
    static func withCopies(_ jpeg: [UInt8], of index: Int, _ copies: Int) -> [UInt8] {
        let scan = jpeg[scans(jpeg)[index]]
        return Array(jpeg.dropLast(2)) + Array(repeating: Array(scan), count: copies).flatMap { $0 } + [0xFF, 0xD9]
    }

    @Test func aDefaultScriptIsTenScansAndFiveAndAThirdPasses() throws {
        let structure = try JPEGExtent.structure(of: PictureInput(bytes: Self.progressive))
        // DC first and DC refinement over every block (2 passes); four luma AC scans over 48 of
        // the 72 blocks and two AC scans of each chroma over 12.
        #expect(structure.scans == 10 && Self.scans(Self.progressive).count == 10)
        #expect(abs(structure.passes - (2 + Double(4 * 48 + 4 * 12) / 72)) < 1e-9, "\(structure.passes)")
        #expect(structure.end == Self.progressive.count)
        #expect(try JPEGDecoder().decode(Self.progressive, options: DecodeOptions()).image.width == 64)
    }

    @Test func moreThanFiveHundredScansAreRefused() throws {
        let many = Self.withCopies(Self.progressive, of: 9, 491)
        #expect(try JPEGExtent.structure(of: PictureInput(bytes: many)).scans == 501)
        #expect(throws: RasterError.corrupt(.jpeg, "501 scans, more than 500 (a pathological JPEG)")) {
            try JPEGDecoder().decode(many, options: DecodeOptions())
        }
        let allowed = Self.withCopies(Self.progressive, of: 9, 40)
        #expect(try JPEGExtent.structure(of: PictureInput(bytes: allowed)).scans == 50)
    }

    /// libjpeg's own count stops the same file behind the markers' check, as the last line
    /// (a file the walk would miss): the C decoder alone, called without `JPEGExtent`, fails
    /// on 501 scans and decodes 50.
    @Test func libjpegStopsAtFiveHundredScansByItself() throws {
        let many = Self.withCopies(Self.progressive, of: 9, 491)
        let refused = try ReducedScaleTests.decode(many, scale: 8, threads: 1, engine: false)
        #expect(refused.status != CCODECS_OK, "501 scans decoded by libjpeg alone")
        let allowed = try ReducedScaleTests.decode(Self.withCopies(Self.progressive, of: 9, 40), scale: 8, threads: 1, engine: false)
        #expect(allowed.status == CCODECS_OK && allowed.width == 64 && allowed.height == 48, "\(allowed.status): \(allowed.width)x\(allowed.height)")
    }

    @Test func scansThatGoOverThePictureTooOftenAreRefused() throws {
        // Each copy of the first scan (DC, every component) goes over every block once more.
        let passes = Self.withCopies(Self.progressive, of: 0, 65)
        let structure = try JPEGExtent.structure(of: PictureInput(bytes: passes))
        #expect(abs(structure.passes - (65 + 2 + Double(240) / 72)) < 1e-9 && structure.scans == 75)
        #expect(throws: RasterError.corrupt(.jpeg, "its scans go over the picture 70.3 times, more than 70 "
                                                        + "(a pathological JPEG)")) {
            try JPEGDecoder().decode(passes, options: DecodeOptions())
        }
    }

    /// Issue 32: a scan's work grows with the picture, so the passes are counted against the
    /// pixel limit too: passes times pixels at most 16 times `maxPixels`. The 64x48 file (3072
    /// pixels) with 10 more DC scans (15.3 passes) decodes at a limit of 3072 pixels; 11 more
    /// (16.3) are refused there, and decode at the default limit. The same scans in a header
    /// that claims 16000x16000 (where 69 scans cost 7.5 s and 529 MB at 600x400) are refused
    /// at the default limit of 256 megapixels from 16.3 passes, before a scan is decoded.
    @Test func scansAreCountedAgainstThePixelLimitTimesTheirArea() throws {
        let within = Self.withCopies(Self.progressive, of: 0, 10), over = Self.withCopies(Self.progressive, of: 0, 11)
        #expect(abs(try JPEGExtent.structure(of: PictureInput(bytes: over)).passes - (13 + Double(240) / 72)) < 1e-9)
        #expect(try JPEGExtent.structure(of: PictureInput(bytes: over)).pixels == 3072)
        #expect(try JPEGDecoder().decode(within, options: DecodeOptions(maxPixels: 3072)).image.width == 64)
        #expect(throws: RasterError.corrupt(.jpeg, "its scans go over its 3072 pixels 16.3 times, more than 16 times the "
                                                   + "pixel limit in all (a pathological JPEG)")) {
            try JPEGDecoder().decode(over, options: DecodeOptions(maxPixels: 3072))
        }
        #expect(try JPEGDecoder().decode(over, options: DecodeOptions()).image.width == 64)
        // The frame header's height and width (SOF2: FF C2, length, precision, then the sizes).
        func claiming16000(_ jpeg: [UInt8]) throws -> [UInt8] {
            var bytes = jpeg
            let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
            bytes.replaceSubrange(sof + 5..<sof + 9, with: [0x3E, 0x80, 0x3E, 0x80])
            return bytes
        }
        let huge = try claiming16000(over)
        #expect(try JPEGExtent.structure(of: PictureInput(bytes: huge)).pixels == 256_000_000)
        #expect(throws: RasterError.corrupt(.jpeg, "its scans go over its 256000000 pixels 16.3 times, more than 16 times "
                                                   + "the pixel limit in all (a pathological JPEG)")) {
            try JPEGDecoder().decode(huge, options: DecodeOptions())
        }
        try JPEGExtent.checkScans(of: PictureInput(bytes: try claiming16000(within)), maxPixels: 256_000_000)
    }

    /// The end is just past EOI, whatever follows it; a baseline file is one scan, one pass.
    @Test func theEndIsTheEndMarker() throws {
        let baseline = try PictureEncoder.jpeg(Support.busyPicture(width: 40, height: 30, alpha: false))
        let trailed = baseline + [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 7, count: 5000)
        let structure = try JPEGExtent.structure(of: PictureInput(bytes: trailed))
        #expect(structure.end == baseline.count && structure.scans == 1 && structure.passes == 1)
    }

    /// Arithmetic coding can code a scan in a few bytes whatever the picture's size, so an
    /// arithmetic-coded file's scans are counted too, sequential or not: one interleaved scan is
    /// one pass, and 80 of them are refused.
    @Test func arithmeticCodedScansAreCountedToo() throws {
        let arithmetic = Fixture.jpeg(Support.busyPicture(width: 64, height: 48, alpha: false), flags: CCODECS_JPEG_ARITHMETIC)
        let structure = try JPEGExtent.structure(of: PictureInput(bytes: arithmetic))
        #expect(structure.scans == 1 && structure.passes == 1)
        #expect(try JPEGDecoder().decode(arithmetic, options: DecodeOptions()).image.width == 64)
        let repeated = Self.withCopies(arithmetic, of: 0, 79)
        #expect(throws: RasterError.corrupt(.jpeg, "its scans go over the picture 80.0 times, more than 70 "
                                              + "(a pathological JPEG)")) {
            try JPEGDecoder().decode(repeated, options: DecodeOptions())
        }
    }
}
