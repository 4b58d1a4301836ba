import CCodecs
import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Hostile pictures (issue 7): inputs the fuzzers found, and decompression bombs and
/// pathological files that must be refused before anything large is allocated, or decoded in
/// bounded time. Fixtures are in Tests/Fixtures/hostile (see its README).
@Suite struct HostileInputTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/hostile/\(name)").standardized
        return Array(try Data(contentsOf: url))
    }

    /// The reason of a `.corrupt` error, nil for anything else.
    static func corruption(_ body: () throws(RasterError) -> Void) -> String? {
        do { try body() } catch {
            if case .corrupt(_, let reason) = error { return reason }
            Issue.record("expected a corrupt-file error, got \(error)")
            return nil
        }
        Issue.record("expected a corrupt-file error, got a picture")
        return nil
    }

    // MARK: Found by fuzz-heif

    /// avifenc's AVIF (the fuzzer's own seed) has an empty box, which libheif reads by asking
    /// for 0 bytes into no buffer; the reader passed that NULL to memcpy, which UBSan reports
    /// (the sanitizer pass of `make test` runs this). It decodes, whole.
    @Test func anEmptyHEIFBoxIsReadAsNothing() throws {
        let bytes = try Self.fixture("heif-empty-box.avif")
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.image.width == 24 && decoded.image.height == 16)
        #expect(try Pictures.info(data: bytes).width == 24)
    }

    // MARK: Found by fuzz-png

    /// An eXIf chunk after the image data, then a chunk libpng chokes on: the header (which walks
    /// the chunks) said "turn left", the decoder (libpng, which gave up at the bad chunk) found
    /// no EXIF, so a picture laid out sideways came back upright. Both now read the same chunk.
    @Test func pngOrientationIsTheSameInTheHeaderAndTheDecodedPicture() throws {
        let bytes = try Self.fixture("png-exif-after-bad-chunk.png")
        let info = try Pictures.info(data: bytes)
        let decoded = try Pictures.decode(data: bytes)
        #expect(info.orientation == .left && decoded.orientation == .left)
        #expect(info.orientedSize == (decoded.image.width, decoded.image.height), "\(info) vs \(decoded.image.width)x\(decoded.image.height)")
        #expect(decoded.image.width == 6 && decoded.image.height == 12)
    }

    /// 96 bytes whose eXIf chunk claims 318767130 bytes: libpng 1.6.39 allocated the claimed
    /// length before reading (whatever png_set_chunk_malloc_max says). The chunk now never
    /// reaches libpng: a premature end, as for any truncated file. (The fuzz target replays
    /// this file under libFuzzer's 200 MB malloc limit: `make fuzz`.)
    @Test func aChunkLongerThanTheFileIsNotAllocated() throws {
        let bytes = try Self.fixture("png-300mb-exif-chunk.png")
        #expect(bytes.count == 96)
        let info = Self.corruption { () throws(RasterError) in _ = try Pictures.info(data: bytes) }
        #expect(info?.contains("premature end") == true, "\(info ?? "")")
        let decode = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: bytes) }
        #expect(decode?.contains("premature end") == true, "\(decode ?? "")")
    }

    // MARK: Decompression bombs within --max-pixels

    /// A complete 16x16 PNG whose IHDR is patched to claim `width` x `height`.
    static func pngClaiming(_ width: UInt32, _ height: UInt32) throws -> [UInt8] {
        var bytes = try PictureEncoder.png(Fixture.gradient(16, 16))
        bytes.replaceSubrange(16..<24, with: PictureBytes.be32(width) + PictureBytes.be32(height))
        bytes.replaceSubrange(29..<33, with: PictureBytes.be32(PictureBytes.crc32(bytes[12..<29])))
        return bytes
    }

    /// A few hundred bytes claiming 16000 x 16000 pixels (1 GB as RGBA, within the default
    /// limit of 256 megapixels): deflate expands at most 1032:1, so the file cannot hold them;
    /// refused before the pixels are allocated, with a one-line reason.
    @Test func aTinyPNGClaimingAGigabyteIsRefusedBeforeAllocating() throws {
        let bytes = try Self.pngClaiming(16000, 16000)
        #expect(try Pictures.info(data: bytes).width == 16000, "the header still reads")
        let reason = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: bytes) }
        #expect(reason == "\(bytes.count) bytes cannot hold a 16000x16000 picture (the file is cut short)")
        // Over the limit, the --max-pixels message comes first.
        let over = try Self.pngClaiming(100_000, 100_000)
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000, limit: 256_000_000)) {
            try Pictures.decode(data: over)
        }
        // A picture that is really there still decodes, however well it compresses.
        let flat = try PictureEncoder.png(RasterImage(width: 1500, height: 1000, pixels: [UInt8](repeating: 7, count: 6_000_000)))
        #expect(flat.count < 40_000, "about 200:1")
        #expect(try Pictures.decode(data: flat).image.width == 1500)
    }

    /// The bytes of a JPEG after its header: from the end of its first scan header (SOS) on.
    static func dataBytes(_ jpeg: [UInt8]) throws -> Int {
        let sos = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        return jpeg.count - (sos + 2 + (Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3])))
    }

    /// `jpeg` with its frame header (the first SOF marker, `sof` its code) claiming 16000 x 16000.
    static func claiming16000(_ jpeg: [UInt8], sof code: UInt8 = 0xC0) throws -> [UInt8] {
        var bytes = jpeg
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == code })
        bytes[sof + 5...sof + 8] = [0x3E, 0x80, 0x3E, 0x80]
        return bytes
    }

    /// The same for JPEG: a Huffman-coded scan spends at least a bit on each 8x8 block, and only
    /// the bytes after the header count (comments padding the file claim no more); an
    /// arithmetic-coded one at least a bit for every 64 blocks.
    @Test func aTinyJPEGClaimingAGigabyteIsRefusedBeforeAllocating() throws {
        let bytes = try Self.claiming16000(PictureEncoder.jpeg(Fixture.gradient(16, 16)))
        let reason = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: bytes) }
        #expect(reason == "\(try Self.dataBytes(bytes)) bytes of data cannot hold a 16000x16000 picture (the file is cut short)")
        // 960 KB of comments after SOI: more bits than the picture's 6 million blocks, but no data.
        let comment: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x20, count: 0xFFFD)
        let padded = Array(bytes[..<2]) + Array(repeating: comment, count: 15).flatMap { $0 } + Array(bytes[2...])
        #expect(padded.count * 8 > 16000 * 16000 / 64 * 3 / 2)
        let paddedReason = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: padded) }
        #expect(paddedReason == "\(try Self.dataBytes(padded)) bytes of data cannot hold a 16000x16000 picture (the file is cut short)")
        // Arithmetic-coded: a few hundred bytes are far from a bit for every 64 of its blocks.
        let arithmetic = try Self.claiming16000(Fixture.jpeg(Fixture.gradient(16, 16), flags: CCODECS_JPEG_ARITHMETIC), sof: 0xC9)
        let arithmeticReason = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: arithmetic) }
        #expect(arithmeticReason == "\(try Self.dataBytes(arithmetic)) bytes of data cannot hold a 16000x16000 picture (the file is cut short)")
        // Cut short but mostly there: still a picture, with a warning (README: Limits).
        let photo = try PictureEncoder.jpeg(Fixture.gradient(320, 200))
        let cut = try Pictures.decode(data: Array(photo[..<(photo.count * 2 / 3)]))
        #expect(cut.image.width == 320 && cut.warningCount > 0)
        // A solid picture compresses to about 2 bits a block, and is whole.
        let solid = try PictureEncoder.jpeg(RasterImage(width: 2048, height: 2048, pixels: [UInt8](repeating: 200, count: 2048 * 2048 * 4)),
                                            quality: 50)
        #expect(try Pictures.decode(data: solid).image.width == 2048)
    }

    // MARK: Pathological progressive JPEGs

    /// A progressive JPEG whose first AC scan is repeated `repeats` times: each scan is a pass
    /// over every block, so thousands of them cost minutes on a large picture. libjpeg takes a
    /// repeated scan with a warning ("bogus progression").
    static func progressive(repeatingAScan repeats: Int) throws -> [UInt8] {
        let bytes = Fixture.jpeg(Fixture.gradient(64, 48), flags: CCODECS_JPEG_PROGRESSIVE)
        // Walk the segments by their lengths; after each SOS, the entropy-coded data runs to the
        // next marker that is neither stuffing (FF 00) nor a restart (FF D0-D7).
        var ends: [Int] = [], i = 2
        while i + 3 < bytes.count, bytes[i] == 0xFF, bytes[i + 1] != 0xD9 {
            let marker = bytes[i + 1]
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
            guard marker == 0xDA else { continue }
            while i + 1 < bytes.count, !(bytes[i] == 0xFF && bytes[i + 1] != 0 && !(0xD0...0xD7).contains(bytes[i + 1])) { i += 1 }
            ends.append(i)
        }
        try #require(ends.count >= 3, "a progressive JPEG has several scans")
        // Header and the DC scan, then the second scan (with the tables before it) again and again.
        let second = Array(bytes[ends[0]..<ends[1]])
        return Array(bytes[..<ends[0]]) + (0..<repeats).flatMap { _ in second } + [0xFF, 0xD9]
    }

    /// Counted from the markers before a scan is decoded (`JPEGExtent`): 100 repeats of a luma
    /// AC scan (48 of the picture's 72 blocks each) stay under both limits and decode, with
    /// libjpeg's warnings; 200 go over the picture's blocks 1 + 200 x 48/72 = 134 times, more
    /// than 70; 5000 are more than 500 scans.
    @Test func moreThan500ScansIsAnError() throws {
        let few = try Pictures.decode(data: Self.progressive(repeatingAScan: 100))
        #expect(few.image.width == 64 && few.warningCount > 0, "101 scans decode, with warnings")
        let passes = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: try! Self.progressive(repeatingAScan: 200)) }
        #expect(passes == "its scans go over the picture 134.3 times, more than 70 (a pathological JPEG)")
        let reason = Self.corruption { () throws(RasterError) in _ = try Pictures.decode(data: try! Self.progressive(repeatingAScan: 5000)) }
        #expect(reason == "5001 scans, more than 500 (a pathological JPEG)")
    }

    // MARK: libpng's limits, set explicitly

    /// 300 text chunks: libpng keeps at most 256 ancillary chunks and warns about the rest
    /// (CCODECS_PNG_CHUNK_CACHE_MAX); the picture still decodes.
    @Test func manyTextChunksAreCapped() throws {
        let texts = (0..<300).map { PictureBytes.chunk("tEXt", Array("Comment\0number \($0)".utf8)) }
        let bytes = Fixture.png(width: 2, height: 1, depth: 8, colorType: 0, chunks: texts, scanlines: [0, 1, 2])
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.image.width == 2)
        #expect(decoded.warningCount > 0, "libpng says it stopped keeping chunks")
    }

    /// An iCCP chunk that inflates to more than 16 MB (CCODECS_PNG_CHUNK_MALLOC_MAX) is dropped
    /// with a warning rather than inflated.
    @Test func anICCPBombIsNotInflated() throws {
        let compressed = Self.zlibZeros(count: 20 << 20)
        #expect(compressed.count < 200_000)
        let iccp = PictureBytes.chunk("iCCP", Array("bomb".utf8) + [0, 0] + compressed)
        let bytes = Fixture.png(width: 2, height: 1, depth: 8, colorType: 2, chunks: [iccp], scanlines: [0, 1, 2, 3, 4, 5, 6])
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.image.width == 2 && !decoded.colorConverted)
        #expect(decoded.warningCount > 0)
    }

    /// A zlib stream of `count` zero bytes (count = 1 + 258 k): one fixed-Huffman deflate block
    /// holding a literal 0 and then k copies of "258 bytes from 1 back", 13 bits each.
    static func zlibZeros(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01], bits: UInt64 = 0, used = 0
        func put(_ value: UInt64, _ n: Int) { bits |= value << UInt64(used); used += n; flush() }
        func flush() { while used >= 8 { out.append(UInt8(bits & 0xFF)); bits >>= 8; used -= 8 } }
        /// A Huffman code goes in from its most significant bit.
        func code(_ value: UInt64, _ n: Int) { put((0..<n).reduce(0) { $0 << 1 | (value >> UInt64($1) & 1) }, n) }
        put(1, 1); put(1, 2)                   // last block, fixed Huffman codes
        code(0x30, 8)                          // literal 0
        let repeats = (count - 1) / 258
        for _ in 0..<repeats { code(0xC5, 8); code(0, 5) }  // length 258 (code 285), distance 1
        code(0, 7)                             // end of block
        if used > 0 { put(0, 8 - used) }
        let n = UInt32((1 + 258 * repeats) % 65521)
        return out + PictureBytes.be32(n << 16 | 1)  // Adler-32 of zeros: a = 1, b = n
    }
}
