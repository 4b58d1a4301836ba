import CCodecs
import CFramedEngines
import FramedTestSupport
import FramedRaster
import Testing

/// framed reads most PNGs' image data itself (the pngdata engine, pngdata.c): not interlaced, 8 or
/// 16 bits, gray, gray and alpha, RGB or RGBA, without tRNS. Its pixels must be libpng's, for
/// every filter, colour type and depth, on one thread or two, and it must refuse what libpng
/// refuses. Each decode names its reader (the engine, or none), whatever FRAMED_ENGINES says.
@Suite struct PNGDataTests {
    /// Samples a pixel by PNG colour type.
    static func channels(_ colorType: UInt8) -> Int { [1, 0, 3, 0, 2, 0, 4][Int(colorType)] }

    /// Deterministic samples with smooth parts and noise, so that every filter has work to do.
    static func samples(width: Int, height: Int, colorType: UInt8, depth: UInt8, seed: UInt32 = 1) -> [UInt8] {
        let rowBytes = width * channels(colorType) * Int(depth) / 8
        var state = seed
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for i in 0..<rowBytes {
                state = state &* 1_664_525 &+ 1_013_904_223
                let smooth = UInt8(truncatingIfNeeded: (i / 3 + y * 2) & 0xFF)
                bytes[y * rowBytes + i] = (y / 7) % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 24) : smooth &+ UInt8(state >> 29)
            }
        }
        return bytes
    }

    /// PNG filtering of one row (the encoder's side): `row` minus the filter's prediction.
    static func filtered(_ row: ArraySlice<UInt8>, above: ArraySlice<UInt8>?, filter: UInt8, bpp: Int) -> [UInt8] {
        let row = Array(row), above = above.map(Array.init) ?? [UInt8](repeating: 0, count: row.count)
        var out = [filter]
        for i in 0..<row.count {
            let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(above[i]), c = i >= bpp ? Int(above[i - bpp]) : 0
            let prediction: Int
            switch filter {
            case 1: prediction = a
            case 2: prediction = b
            case 3: prediction = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                prediction = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: prediction = 0
            }
            out.append(row[i] &- UInt8(truncatingIfNeeded: prediction))
        }
        return out
    }

    /// A zlib stream of `bytes` at zlib's default level (real matches, not stored blocks).
    static func deflated(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        try #require(ccodecs_deflate(bytes, bytes.count, 6, &out, &message) == CCODECS_OK)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    /// The filtered rows of `samples`, row y with filter `filter(y)`.
    static func scanlines(_ samples: [UInt8], width: Int, height: Int, colorType: UInt8, depth: UInt8,
                          filter: (Int) -> UInt8) -> [UInt8] {
        let bpp = channels(colorType) * Int(depth) / 8, rowBytes = width * bpp
        var out: [UInt8] = []
        out.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            let row = samples[y * rowBytes..<(y + 1) * rowBytes]
            let above = y > 0 ? samples[(y - 1) * rowBytes..<y * rowBytes] : nil
            out += filtered(row, above: above, filter: filter(y), bpp: bpp)
        }
        return out
    }

    /// A PNG of the zlib stream `stream`, cut into IDAT chunks of `chunk` bytes (an empty IDAT
    /// after the first when `emptyChunk`).
    static func png(width: Int, height: Int, colorType: UInt8, depth: UInt8, stream: [UInt8], chunk: Int = 1 << 20,
                    emptyChunk: Bool = false) -> [UInt8] {
        var idats: [UInt8] = []
        for (i, start) in stride(from: 0, to: stream.count, by: chunk).enumerated() {
            idats += PictureBytes.chunk("IDAT", Array(stream[start..<min(start + chunk, stream.count)]))
            if i == 0 && emptyChunk { idats += PictureBytes.chunk("IDAT", []) }
        }
        return PictureBytes.pngSignature + Fixture.ihdr(UInt32(width), UInt32(height), depth: depth, colorType: colorType)
            + idats + PictureBytes.chunk("IEND", [])
    }

    struct Decoded: Equatable, CustomStringConvertible {
        var status: Int32
        var pixels: [UInt8]
        var message: String
        var warning: String
        /// Short, for failures: status, message, pixel count and a checksum of the pixels.
        var description: String {
            "status \(status) \"\(message)\", warning \"\(warning)\", \(pixels.count / 4) pixels, sum \(pixels.reduce(0) { $0 &+ Int($1) })"
        }
    }

    /// Whether two decodes agree, without printing megabytes of pixels when they do not.
    static func same(_ a: Decoded, _ b: Decoded) -> Bool { a == b }

    /// Decodes through ccodecs_png_open and ccodecs_reader_read, offering the picture to
    /// framed's reader (on `threads`), or by libpng's rows alone. `ownReader`: whether framed's
    /// reader read it.
    static func decode(_ png: [UInt8], threads: Int32 = 1, libpng: Bool = false,
                       layout: ((Int, Int) -> ccodecs_layout)? = nil) -> (Decoded, ownReader: Bool) {
        var out = ccodecs_decoded()
        defer { ccodecs_decoded_release(&out) }
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        var own = false
        let (status, pixels) = png.withUnsafeBufferPointer { bytes -> (Int32, [UInt8]) in
            var input = ccodecs_input(data: bytes.baseAddress, fd: -1, size: bytes.count)
            var reader: OpaquePointer?
            defer { ccodecs_reader_close(reader) }
            let opened = ccodecs_png_open(&input, 1 << 30, libpng ? nil : framed_engine_pngdata(), &out, &reader, &message)
            guard opened == CCODECS_OK else { return (opened, []) }
            ccodecs_reader_set_threads(reader, threads)
            let (width, height) = (Int(out.width), Int(out.height))
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let place = layout?(width, height) ?? ccodecs_layout(origin: 0, step_x: 1, step_y: width)
            let status = ccodecs_reader_read(reader, &pixels, place, &out, &message)
            own = out.engine_rows != 0
            return (status, status == CCODECS_OK ? pixels : [])
        }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let warning = withUnsafeBytes(of: out.warning) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (Decoded(status: status, pixels: pixels, message: status == CCODECS_OK ? "" : text, warning: warning), own)
    }

    /// Every colour type and depth framed reads itself, large enough (over 1 MB of rows) to be
    /// read on two threads through a ring that wraps, every filter in turn.
    static let kinds: [(colorType: UInt8, depth: UInt8)] = [(0, 8), (0, 16), (2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16)]

    @Test(arguments: kinds.indices)
    func pixelsAreLibpngsForEveryFilterOnOneThreadOrTwo(kind: Int) throws {
        let (colorType, depth) = Self.kinds[kind]
        let bpp = Self.channels(colorType) * Int(depth) / 8
        let width = 397, height = max(40, (1 << 20) / (width * bpp) + 7)  // rows over 1 MB; odd sizes
        let samples = Self.samples(width: width, height: height, colorType: colorType, depth: depth)
        let stream = try Self.deflated(Self.scanlines(samples, width: width, height: height, colorType: colorType,
                                                      depth: depth) { y in UInt8((y / 3) % 5) })
        let png = Self.png(width: width, height: height, colorType: colorType, depth: depth, stream: stream,
                           chunk: 8191, emptyChunk: true)
        let (reference, libpngsOwn) = Self.decode(png, libpng: true)
        #expect(reference.status == CCODECS_OK && !libpngsOwn)
        for threads: Int32 in [1, 2] {
            let (framed, own) = Self.decode(png, threads: threads)
            #expect(own, "framed reads colour type \(colorType), \(depth) bits itself")
            #expect(Self.same(framed, reference), "colour type \(colorType), \(depth) bits, \(threads) thread(s)")
        }
        // Turned as it is placed (180 degrees): the same pixels, elsewhere.
        let turned: (Int, Int) -> ccodecs_layout = { w, h in ccodecs_layout(origin: w * h - 1, step_x: -1, step_y: -w) }
        #expect(Self.same(Self.decode(png, threads: 2, layout: turned).0, Self.decode(png, libpng: true, layout: turned).0))
    }

    /// Every 16-bit value scales to 8 bits as libpng's png_set_scale_16 does: round(v * 255 / 65535).
    @Test func sixteenBitSamplesScaleAsLibpngDoes() throws {
        let width = 256, height = 256
        var samples: [UInt8] = []
        for v in 0..<65536 { samples += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let stream = try Self.deflated(Self.scanlines(samples, width: width, height: height, colorType: 0, depth: 16) { _ in 0 })
        let png = Self.png(width: width, height: height, colorType: 0, depth: 16, stream: stream)
        let (framed, _) = Self.decode(png)
        #expect(Self.same(framed, Self.decode(png, libpng: true).0))
        let expected = (0..<65536).flatMap { v -> [UInt8] in
            let g = UInt8((Double(v) * 255 / 65535).rounded())
            return [g, g, g, 255]
        }
        let rounded = framed.pixels == expected
        #expect(rounded)
    }

    @Test func tinyPicturesAndTinyChunks() throws {
        for (width, height) in [(1, 1), (1, 9), (9, 1), (3, 2)] {
            for (colorType, depth) in Self.kinds {
                let samples = Self.samples(width: width, height: height, colorType: colorType, depth: depth, seed: 7)
                let stream = try Self.deflated(Self.scanlines(samples, width: width, height: height, colorType: colorType,
                                                              depth: depth) { y in UInt8((y + 4) % 5) })
                let png = Self.png(width: width, height: height, colorType: colorType, depth: depth, stream: stream, chunk: 1)
                let (framed, own) = Self.decode(png)
                #expect(own)
                #expect(framed.status == CCODECS_OK)
                #expect(Self.same(framed, Self.decode(png, libpng: true).0), "\(width)x\(height), type \(colorType), \(depth) bits")
            }
        }
    }

    /// Rows so wide that the ring holds only two of them (the row and the one above), on two
    /// threads.
    @Test func rowsWiderThanHalfTheRing() throws {
        let (width, height) = (70_001, 5)  // 560 KB a row of 16-bit RGBA
        let samples = Self.samples(width: width, height: height, colorType: 6, depth: 16, seed: 11)
        let stream = try Self.deflated(Self.scanlines(samples, width: width, height: height, colorType: 6, depth: 16) { y in UInt8(4 - y % 5) })
        let png = Self.png(width: width, height: height, colorType: 6, depth: 16, stream: stream, chunk: 100_000)
        let reference = Self.decode(png, libpng: true).0
        #expect(reference.status == CCODECS_OK)
        for threads: Int32 in [1, 2] {
            #expect(Self.same(Self.decode(png, threads: threads).0, reference), "\(threads) thread(s)")
        }
    }

    /// The chunks after the image data are read by libpng as after its own rows, for the same
    /// warnings (what libpng says about them, as a warning since the pixels are all there).
    @Test(arguments: ["IEND", "no IEND", "cut in a tEXt", "tEXt with a bad CRC", "IEND with a bad CRC",
                      "IEND with data", "PLTE after the data", "unknown critical chunk",
                      "unknown ancillary chunk", "another IDAT", "eXIf after the data"])
    func chunksAfterTheDataWarnAsWithLibpng(trailer: String) throws {
        let (width, height) = (500, 800)  // 1.2 MB of rows: two threads
        let samples = Self.samples(width: width, height: height, colorType: 2, depth: 8, seed: 9)
        let lines = Self.scanlines(samples, width: width, height: height, colorType: 2, depth: 8) { y in UInt8(y % 5) }
        let whole = Self.png(width: width, height: height, colorType: 2, depth: 8, stream: try Self.deflated(lines))
        let data = Array(whole.dropLast(12))  // without IEND
        func badCRC(_ chunk: [UInt8]) -> [UInt8] { Array(chunk.dropLast()) + [chunk[chunk.count - 1] ^ 1] }
        let iend = PictureBytes.chunk("IEND", []), text = PictureBytes.chunk("tEXt", Array("a\0bcdef".utf8))
        let after: [String: [UInt8]] = [
            "IEND": iend,
            "no IEND": [],
            "cut in a tEXt": Array(text.prefix(10)),
            "tEXt with a bad CRC": badCRC(text) + iend,
            "IEND with a bad CRC": badCRC(iend),
            "IEND with data": PictureBytes.chunk("IEND", [1]),
            "PLTE after the data": PictureBytes.chunk("PLTE", [0, 0, 0]) + iend,
            "unknown critical chunk": PictureBytes.chunk("ABCD", [1, 2]) + iend,
            "unknown ancillary chunk": PictureBytes.chunk("abCD", [1, 2]) + iend,
            "another IDAT": PictureBytes.chunk("IDAT", [1, 2, 3]) + iend,
            "eXIf after the data": PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: 6)) + iend,
        ]
        let png = data + (try #require(after[trailer]))
        let reference = Self.decode(png, libpng: true).0
        #expect(reference.status == CCODECS_OK)
        for threads: Int32 in [1, 2] {
            #expect(Self.same(Self.decode(png, threads: threads).0, reference), "\(trailer), \(threads) thread(s)")
        }
    }

    /// From a file, framed's reader reads ahead 256 KB at a time: chunks of an odd size, whose
    /// headers and CRCs fall across those reads, decode as the same bytes in memory do, and a
    /// file cut short fails the same way.
    @Test func aFileReadsAsItsBytes() throws {
        let (width, height) = (700, 600)  // 1.26 MB of rows, about 1 MB deflated: several reads
        let samples = Self.samples(width: width, height: height, colorType: 2, depth: 8, seed: 13)
        let stream = try Self.deflated(Self.scanlines(samples, width: width, height: height, colorType: 2, depth: 8) { y in UInt8(y % 5) })
        let png = Self.png(width: width, height: height, colorType: 2, depth: 8, stream: stream, chunk: 8191, emptyChunk: true)
        let folder = try FileInputTests.Folder()
        for bytes in [png, Array(png.prefix(png.count * 3 / 4))] {
            let path = try folder.write(bytes)
            for threads in [1, 2] {
                var options = DecodeOptions()
                options.threads = threads
                let fromFile = FileInputTests.outcome { () throws(RasterError) in try Pictures.decode(.file(path), options: options) }
                let fromBytes = FileInputTests.outcome { () throws(RasterError) in try Pictures.decode(.bytes(bytes), options: options) }
                let same = fromFile == fromBytes
                #expect(same, "\(bytes.count) bytes, \(threads) thread(s)")
            }
        }
        let decoded = try Pictures.decode(.file(folder.write(png)))
        #expect(decoded.image.width == width && decoded.warningCount == 0)
    }

    /// Pictures framed leaves to libpng: palette, tRNS, fewer than 8 bits, interlaced.
    @Test func othersAreLeftToLibpng() throws {
        let palette = Fixture.png(width: 1, height: 1, depth: 8, colorType: 3,
                                  chunks: [PictureBytes.chunk("PLTE", [1, 2, 3])], scanlines: [0, 0])
        let trns = Fixture.png(width: 1, height: 1, depth: 8, colorType: 2,
                               chunks: [PictureBytes.chunk("tRNS", [0, 1, 0, 2, 0, 3])], scanlines: [0, 1, 2, 3])
        let fourBits = Fixture.png(width: 2, height: 1, depth: 4, colorType: 0, scanlines: [0, 0x3C])
        let interlaced = Fixture.png(width: 1, height: 1, depth: 8, colorType: 2, interlace: 1, scanlines: [0, 1, 2, 3])
        for png in [palette, trns, fourBits, interlaced] {
            let (decoded, own) = Self.decode(png)
            #expect(decoded.status == CCODECS_OK)
            #expect(!own)
        }
        #expect(Self.decode(trns).0.pixels == [1, 2, 3, 0])
    }

    /// What libpng refuses, framed's reader refuses too, on one thread or two, with libpng's words.
    @Test func brokenImageDataIsRefusedAsLibpngRefusesIt() throws {
        let (width, height) = (500, 800)  // 1.2 MB of rows: two threads
        let samples = Self.samples(width: width, height: height, colorType: 2, depth: 8, seed: 3)
        var lines = Self.scanlines(samples, width: width, height: height, colorType: 2, depth: 8) { y in UInt8(y % 5) }
        let stream = try Self.deflated(lines)
        func png(_ stream: [UInt8], chunk: Int = 65536) -> [UInt8] {
            Self.png(width: width, height: height, colorType: 2, depth: 8, stream: stream, chunk: chunk)
        }
        let good = png(stream)
        let firstIDAT = try #require(good.firstRange(of: Array("IDAT".utf8))).lowerBound - 4
        var badCRC = good
        badCRC[firstIDAT + (12 + 65536) + 8 + 65536] ^= 0x40  // the second IDAT's CRC
        let rowBytes = width * 3 + 1
        let short = try Self.deflated(Array(lines.prefix(rowBytes * (height - 3))))
        lines[rowBytes * (height / 2)] = 5  // a filter type that does not exist
        let badFilter = try Self.deflated(lines)
        var corrupt = stream
        corrupt[stream.count / 2] ^= 0xFF
        corrupt[stream.count / 2 + 1] ^= 0x55
        let firstPart = png(Array(stream.prefix(40000)))
        let textAmongIDATs = Array(firstPart.dropLast(12)) + PictureBytes.chunk("tEXt", Array("a\0b".utf8))
            + PictureBytes.chunk("IDAT", Array(stream.dropFirst(40000))) + PictureBytes.chunk("IEND", [])
        // The last four bytes (the Adler-32) in an IDAT of their own, with a bad CRC: libpng
        // reads on to the end of the stream after the last row, and so does framed.
        var lastCRC = png(stream, chunk: stream.count - 4)
        lastCRC[lastCRC.count - 12 - 1] ^= 0x01
        let cases: [(String, [UInt8], String)] = [
            ("a bad CRC in the second IDAT", badCRC, "IDAT: CRC error"),
            ("a bad CRC in the IDAT after the rows", lastCRC, "IDAT: CRC error"),
            ("a stream without its end", png(Array(stream.dropLast(4))), "Not enough image data"),
            ("a bad filter type", png(badFilter), "bad adaptive filter value"),
            ("a stream that ends three rows early", png(short), "Not enough image data"),
            ("corrupt deflate data", png(corrupt), ""),
            ("a tEXt chunk among the IDATs", textAmongIDATs, "Not enough image data"),
            ("a file cut short in the image data", Array(good.prefix(good.count / 2)), "premature end of data"),
        ]
        for (name, bytes, words) in cases {
            let reference = Self.decode(bytes, libpng: true).0
            #expect(reference.status == CCODECS_ERROR, "libpng refuses \(name)")
            for threads: Int32 in [1, 2] {
                let framed = Self.decode(bytes, threads: threads).0
                #expect(framed.status == CCODECS_ERROR, "\(name), \(threads) thread(s)")
                #expect(words.isEmpty ? !framed.message.isEmpty : framed.message == words, "\(name): \(framed.message)")
            }
        }
        #expect(Self.same(Self.decode(good, threads: 2).0, Self.decode(good, libpng: true).0))
    }

    /// A row too many, or bytes after the end of the zlib stream, are only a warning, for libpng
    /// and framed alike.
    @Test func extraImageDataIsAWarning() throws {
        let (width, height) = (500, 800)
        let samples = Self.samples(width: width, height: height + 1, colorType: 2, depth: 8, seed: 5)
        let lines = Self.scanlines(samples, width: width, height: height + 1, colorType: 2, depth: 8) { y in UInt8(y % 5) }
        let rowTooMany = Self.png(width: width, height: height, colorType: 2, depth: 8, stream: try Self.deflated(lines))
        let exact = try Self.deflated(Array(lines.dropLast(width * 3 + 1)))
        let bytesAfter = Self.png(width: width, height: height, colorType: 2, depth: 8, stream: exact + [1, 2, 3])
        for (png, warning) in [(rowTooMany, "IDAT: Too much image data"), (bytesAfter, "IDAT: Extra compressed data")] {
            let reference = Self.decode(png, libpng: true).0
            #expect(reference.status == CCODECS_OK && reference.warning == warning)
            for threads: Int32 in [1, 2] {
                #expect(Self.same(Self.decode(png, threads: threads).0, reference), "\(warning), \(threads) thread(s)")
            }
        }
    }
}
