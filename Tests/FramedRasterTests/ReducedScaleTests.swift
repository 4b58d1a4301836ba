import CCodecs
import CFramedEngines
import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// A baseline JPEG at 1/8 or 3/8 is entropy-decoded by framed (the jpegReduced engine,
/// jpegreduced.c), on two threads when its data is large, and at 1/4 and 1/2 too when there are
/// two threads: the pixels and warnings are libjpeg's own (decoded with no engine), from bytes and
/// from a file, on one thread and on two; and any file it does not handle exactly is decoded by
/// libjpeg. Every decode names its engines, whatever FRAMED_ENGINES says.
@Suite struct ReducedScaleTests {
    /// What one decode through the C reader gave.
    struct Decoded: Equatable, CustomStringConvertible {
        var status: Int32
        var width = 0, height = 0
        var pixels: [UInt8] = []
        var warnings: Int32 = 0
        var entropyThreads: Int32 = 0

        var description: String {
            let sum = pixels.reduce(into: UInt64(0)) { $0 = $0 &* 31 &+ UInt64($1) }
            return "status \(status), \(width)x\(height), \(warnings) warnings, pixels #\(String(sum, radix: 16))"
        }
    }

    /// The scales framed decodes itself, in eighths: 1/8 and 3/8 on one thread or two, 1/4 and
    /// 1/2 on two.
    static let scales: [Int32] = [1, 2, 3, 4]

    /// The threads of framed's own entropy decoding on one thread at `scale` eighths: 1 where it
    /// beats libjpeg there (1/8; 3/8, where libjpeg's IDCTs are plain C), else 0.
    static func oneThread(_ scale: Int32) -> Int32 { scale == 1 || scale == 3 ? 1 : 0 }

    /// Decodes at `scale`/8 with `threads` threads, from memory or from a file, in the stored
    /// layout: with the reduced engine (always splitting the data on two threads with
    /// `alwaysSplit`), or by libjpeg alone.
    static func decode(_ bytes: [UInt8], scale: Int32 = 1, threads: Int32 = 2, fromFile: Bool = false,
                       engine: Bool = true, alwaysSplit: Bool = false) throws -> Decoded {
        let folder = try FileInputTests.Folder()
        let fd = fromFile ? open(try folder.write(bytes), O_RDONLY) : -1
        defer { if fd >= 0 { close(fd) } }
        return bytes.withUnsafeBufferPointer { buffer in
            var input = ccodecs_input(data: fromFile ? nil : buffer.baseAddress, fd: fd, size: buffer.count)
            var out = ccodecs_decoded()
            var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
            var reader: OpaquePointer?
            defer { ccodecs_decoded_release(&out) }
            var engines = ccodecs_jpeg_engines(scans: nil, split: nil, reduced: engine ? framed_engine_jpegreduced() : nil,
                                               reduced_always_split: alwaysSplit ? 1 : 0)
            let opened = ccodecs_jpeg_open(&input, scale, 0, &engines, 1 << 30, &out, &reader, &message)
            guard opened == CCODECS_OK else { return Decoded(status: opened) }
            defer { ccodecs_reader_close(reader) }
            ccodecs_reader_set_threads(reader, threads)
            var pixels = [UInt8](repeating: 0, count: Int(out.width) * Int(out.height) * 4)
            let layout = ccodecs_layout(origin: 0, step_x: 1, step_y: Int(out.width))
            let status = ccodecs_reader_read(reader, &pixels, layout, &out, &message)
            return Decoded(status: status, width: Int(out.width), height: Int(out.height), pixels: pixels,
                           warnings: out.warnings, entropyThreads: out.entropy_threads)
        }
    }

    /// libjpeg's decode, and framed's in every way it can be asked for: each with the pixels,
    /// warnings and status of libjpeg's; how many threads framed's entropy decoding used,
    /// the same from bytes and from a file (0 when libjpeg did it). On two threads the second
    /// one is used whatever the size, and its part always taken where it meets the first
    /// (`reduced_always_split`) unless `natural`.
    static func checkedThreads(_ bytes: [UInt8], _ name: String = "", scale: Int32 = 1,
                               natural: Bool = false) throws -> (one: Int32, two: Int32) {
        var reference = try decode(bytes, scale: scale, engine: false)
        #expect(reference.entropyThreads == 0)
        var seen: [Int32: Set<Int32>] = [1: [], 2: []]
        for threads: Int32 in [1, 2] {
            for fromFile in [false, true] {
                var decoded = try decode(bytes, scale: scale, threads: threads, fromFile: fromFile,
                                         alwaysSplit: threads == 2 && !natural)
                seen[threads]!.insert(decoded.entropyThreads)
                (decoded.entropyThreads, reference.entropyThreads) = (0, 0)
                #expect(decoded == reference, "\(name) at \(scale)/8: \(threads) threads, file \(fromFile)")
            }
        }
        #expect(seen[1]!.count == 1 && (natural || seen[2]!.count == 1), "\(name): entropy threads seen \(seen)")
        return (seen[1]!.first!, seen[2]!.max()!)
    }

    static let photo = ResampleFixture.photo(611, 403)
    static let noise = Fixture.noise(640, 480)

    /// 4:2:0 (at 1/8 luma one pixel a block and chroma 2x2, at 1/4 2x2 and 4x4, at 3/8 3x3 and
    /// 6x6, at 1/2 4x4 and 8x8), 4:4:4 and gray, at sizes that are and are not whole MCUs, at quality 90 and 100
    /// (larger coefficients, nearer the range limits). On one thread, 1/4 and 1/2 are left to
    /// libjpeg.
    @Test(arguments: [(Int32(0), "4:2:0"), (CCODECS_JPEG_CHROMA_444, "4:4:4"), (CCODECS_JPEG_GRAYSCALE, "gray")], scales)
    func baselinePicturesAreLibjpegs(kind: (flags: Int32, name: String), scale: Int32) throws {
        let pictures = [(Self.noise, Int32(90)), (Self.photo, Int32(98)), (ResampleFixture.photo(64, 48), Int32(90)),
                        (Fixture.noise(203, 157), Int32(100))]
        for (image, quality) in pictures {
            let bytes = Fixture.jpeg(image, quality: quality, flags: kind.flags)
            let name = "\(kind.name) \(image.width)x\(image.height) q\(quality)"
            let threads = try Self.checkedThreads(bytes, name, scale: scale)
            #expect(threads.one == Self.oneThread(scale), "\(name)")
            if image.width > 64 { #expect(threads.two == 2, "\(name)") }
        }
    }

    /// A picture with over 1 MB of data, decoded as framed decodes it for users: on two threads
    /// when the second one starts in time.
    @Test func aLargePictureIsLibjpegs() throws {
        let bytes = Fixture.jpeg(Fixture.noise(1200, 900), quality: 92, flags: 0)
        #expect(bytes.count > 1 << 20)
        for scale in Self.scales {
            let threads = try Self.checkedThreads(bytes, "large", scale: scale, natural: true)
            #expect(threads.one == Self.oneThread(scale) && [1, 2].contains(threads.two))
        }
    }

    /// The user's path (Pictures.decode, with the picture turned by its EXIF orientation while
    /// it is decoded): the same picture as libjpeg's.
    @Test func turnedPicturesAreLibjpegs() throws {
        let bytes = PictureBytes.withEXIF(Fixture.jpeg(Self.noise, quality: 90, flags: 0), PictureBytes.exif(orientation: 6))
        var options = DecodeOptions(scaleDenominator: 8)
        options.engines = .jpegReduced
        let framed = try Pictures.decode(.bytes(bytes), options: options)
        options.engines = []
        let libjpeg = try Pictures.decode(.bytes(bytes), options: options)
        #expect(framed.image == libjpeg.image && framed.image.width == 60 && framed.image.height == 80)
        #expect(try Self.checkedThreads(bytes) == (1, 2))
        #expect(try Self.checkedThreads(bytes, scale: 2) == (0, 2))
        #expect(try Self.checkedThreads(bytes, scale: 3) == (1, 2))
        #expect(try Self.checkedThreads(bytes, scale: 4) == (0, 2))
    }

    /// Files that jpegreduced.c leaves to libjpeg, found at open (4:2:2) or while decoding (data
    /// cut short, bytes before EOI, no EOI): libjpeg's pixels and warnings, and framed's entropy
    /// decoding reported as unused.
    @Test func otherFilesAreLeftToLibjpeg() throws {
        let plain = Fixture.jpeg(Self.noise, quality: 90, flags: 0)
        let eoi = plain.count - 2
        #expect(plain[eoi] == 0xFF && plain[eoi + 1] == 0xD9)
        let cases: [(String, [UInt8])] = [
            ("4:2:2", Fixture.jpeg(Self.noise, quality: 90, flags: CCODECS_JPEG_CHROMA_422)),
            ("cut at 60 %", Array(plain[..<(plain.count * 6 / 10)])),
            ("cut in the first half", Array(plain[..<(plain.count * 3 / 10)])),
            ("bytes before EOI", Array(plain[..<eoi]) + [0x12, 0x34] + [0xFF, 0xD9]),
            ("no EOI", Array(plain[..<eoi])),
            ("another marker after the data", Array(plain[..<eoi]) + [0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42, 0xFF, 0xD9]),
        ]
        for scale in Self.scales {
            for (name, bytes) in cases {
                #expect(try Self.checkedThreads(bytes, name, scale: scale) == (0, 0), "\(name) at \(scale)/8")
            }
            let warned = try Self.decode(Array(plain[..<(plain.count * 6 / 10)]), scale: scale)
            #expect(warned.status == CCODECS_OK && warned.warnings > 0)
            // Fill bytes before EOI are part of a valid file: no warning, framed decodes it.
            #expect(try Self.checkedThreads(Array(plain[..<eoi]) + [0xFF, 0xFF, 0xFF, 0xD9], scale: scale)
                        == (Self.oneThread(scale), 2))
        }
    }

    /// Restart markers (one after each row of MCUs, or after every 7 MCUs): the second thread
    /// starts past one near the middle that begins a row of MCUs, knowing its MCU and its DC
    /// predictions, and writes pixels directly. A marker with the wrong number, or none where
    /// one is due, leaves the file to libjpeg, which warns.
    @Test(arguments: scales)
    func restartMarkerFilesAreLibjpegs(scale: Int32) throws {
        for flags in [CCODECS_JPEG_RESTARTS, CCODECS_JPEG_RESTARTS | CCODECS_JPEG_GRAYSCALE,
                      CCODECS_JPEG_RESTARTS | CCODECS_JPEG_CHROMA_444, CCODECS_JPEG_RESTARTS_7] {
            // 640 wide in 4:2:0 is 40 MCUs a row: after every 7 MCUs, every 40th marker ends a
            // row, so the picture is made 75 rows of MCUs high for one near its middle.
            let bytes = Fixture.jpeg(flags == CCODECS_JPEG_RESTARTS_7 ? Fixture.noise(640, 1200) : Self.noise,
                                     quality: 90, flags: flags)
            #expect(try Self.checkedThreads(bytes, "restarts \(flags)", scale: scale) == (Self.oneThread(scale), 2))
        }
        let plain = Fixture.jpeg(Self.noise, quality: 90, flags: CCODECS_JPEG_RESTARTS)
        let markers = (0..<plain.count - 1).filter { plain[$0] == 0xFF && (0xD0...0xD7).contains(plain[$0 + 1]) }
        #expect(markers.count >= 20)
        for at in [markers[3], markers[markers.count / 2], markers[markers.count * 3 / 4]] {
            var renumbered = plain
            renumbered[at + 1] = 0xD0 + (plain[at + 1] - 0xD0 + 3) % 8
            let missing = Array(plain[..<at] + plain[(at + 2)...])
            for (name, bytes) in [("renumbered", renumbered), ("missing", missing)] {
                #expect(try Self.checkedThreads(bytes, "\(name) marker", scale: scale) == (0, 0))
                #expect(try Self.decode(bytes, scale: scale).warnings > 0)
            }
        }
    }

    /// Damage in either half of the data (bytes changed, so that codes may no longer be codes):
    /// whatever libjpeg makes of it, framed makes too.
    /// `plain` with 40 bytes of its entropy-coded data changed (every `step + 1`th from `place`,
    /// a fraction of the data), FF bytes and those that would become FF left as they are.
    static func damaged(_ plain: [UInt8], at place: Double, step: Int = 0) throws -> [UInt8] {
        let start = try #require(ProgressiveScanTests.scans(plain).first).start + 14
        var damaged = plain
        let at = start + Int(Double(plain.count - start) * place)
        for i in stride(from: at, to: at + 40 * (step + 1), by: step + 1) where damaged[i] != 0xFF && damaged[i] ^ 0xA7 != 0xFF {
            damaged[i] ^= 0xA7
        }
        return damaged
    }

    @Test func damagedDataGivesLibjpegsPixels() throws {
        let plain = Fixture.jpeg(Self.noise, quality: 90, flags: 0)
        for (place, step) in [(0.25, 0), (0.7, 0), (0.7, 1), (0.52, 0), (0.9, 2)] {
            let damaged = try Self.damaged(plain, at: place, step: step)
            for scale in Self.scales { _ = try Self.checkedThreads(damaged, "damage at \(place)", scale: scale) }
        }
    }

    /// Rows are published as they are written, so that a resize follows the decode (the user's
    /// path); when the decoder then meets damage and libjpeg decodes the file, the rows already
    /// published are left as they are, being libjpeg's: the resized picture is the one resized
    /// from libjpeg's decode. (That libjpeg leaves those rows alone is not seen here, nor by
    /// ThreadSanitizer, to which libjpeg's writes are invisible: read_run's comment argues it.)
    @Test(arguments: scales)
    func aResizeFollowsTheRowsAndAFallback(scale: Int32) throws {
        let plain = Fixture.jpeg(Self.noise, quality: 90, flags: 0)
        let damaged = try Self.damaged(plain, at: 0.25)
        let size = (640 * Int(scale) / 8 * 3 / 4, 480 * Int(scale) / 8 * 3 / 4)
        for bytes in [plain, damaged] {
            var options = DecodeOptions(scaleDenominator: 8)
            options.scaleNumerator = Int(scale)
            options.engines = []
            let libjpeg = try Pictures.decode(data: bytes, options: options)
            options.engines = Engines.all.union(.jpegReducedAlwaysSplit)
            options.threads = 2
            options.resize = ResizeRequest(width: size.0, height: size.1, minimumPixels: 0)
            let followed = try Pictures.decode(data: bytes, options: options)
            #expect(followed.resampled == ResizeWhileDecodingTests.follows)
            let expected = Resampler.resize(libjpeg.image, width: size.0, height: size.1)
            let got = followed.resampled ? followed.image : Resampler.resize(followed.image, width: size.0, height: size.1)
            #expect(got == expected && followed.warningCount == libjpeg.warningCount, "\(scale)/8, \(bytes == plain ? "plain" : "damaged")")
        }
        #expect(try Self.checkedThreads(damaged, scale: scale) == (0, 0))
    }

    /// DQT entries changed after encoding, so that the dequantised values reach where libjpeg's
    /// range limit wraps (luma at 1/8, C code: framed does the same) or where its SIMD IDCTs
    /// and the C ones part ways (chroma, and luma at 1/4: framed leaves the file to libjpeg; at
    /// 3/8 too, where libjpeg's code is plain C but framed's sums of DC and AC are 16-bit).
    @Test func outOfRangeValues() throws {
        let plain = Fixture.jpeg(Self.noise, quality: 90, flags: 0)
        // libjpeg writes each table in a DQT segment of its own, luma's first.
        let dqt = (2..<plain.count - 1).filter { plain[$0] == 0xFF && plain[$0 + 1] == 0xDB }
        #expect(dqt.count == 2 && plain[dqt[0] + 4] == 0 && plain[dqt[1] + 4] == 1)
        var luma = plain
        luma[dqt[0] + 5] = 0xFF // luma DC: 255 a step
        #expect(try Self.checkedThreads(luma, "luma DC x 255") == (1, 2))
        #expect(try Self.decode(luma).pixels != (try Self.decode(plain)).pixels)
        var chroma = plain
        for i in 5..<69 { chroma[dqt[1] + i] = 0xFF }
        #expect(try Self.checkedThreads(chroma, "chroma x 255") == (0, 0))
        for scale: Int32 in [2, 3, 4] {
            #expect(try Self.checkedThreads(luma, "luma DC x 255", scale: scale) == (0, 0))
            #expect(try Self.checkedThreads(chroma, "chroma x 255", scale: scale) == (0, 0))
        }
    }
}
