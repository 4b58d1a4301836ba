import Testing
import Foundation
import FramedTestSupport
import FramedRaster
import CCodecs

/// WebP fixtures are encoded by our own shim (`PictureEncoder.webp`); `dwebp` and `webpmux`
/// (package `webp`) cross-check and build animations.
@Suite struct WebPTests {
    // MARK: Helpers

    /// Runs a tool from PATH in `directory`; true when it exits with 0.
    static func run(_ tool: String, _ arguments: [String]) throws -> Bool {
        try Tool.run(tool, arguments).status == 0
    }

    static func temporaryDirectory() throws -> URL { try TemporaryFolder.make("framed-webp") }

    /// Mean absolute difference of one channel (0-3).
    static func channelDifference(_ a: RasterImage, _ b: RasterImage, channel: Int) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        let sum = stride(from: channel, to: a.pixels.count, by: 4).reduce(0) { $0 + abs(Int(a.pixels[$1]) - Int(b.pixels[$1])) }
        return Double(sum) / Double(a.width * a.height)
    }

    /// Averages d x d boxes (width and height multiples of d).
    static func boxDownscale(_ image: RasterImage, by d: Int) -> RasterImage {
        let width = image.width / d, height = image.height / d
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<d { for dx in 0..<d { sum += Int(image.pixels[((y * d + dy) * image.width + x * d + dx) * 4 + c]) } }
                    pixels[(y * width + x) * 4 + c] = UInt8((sum + d * d / 2) / (d * d))
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// `ccodecs_webp_decode` called directly, for what DecodedPicture does not carry (ICC,
    /// EXIF, the scale used).
    static func shimDecode(_ bytes: [UInt8], scale: Int32 = 8)
        -> (status: Int32, icc: [UInt8]?, exif: [UInt8]?, scale: Int32, dpi: Double) {
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_decoded_release(&out) }
        let status = ccodecs_webp_decode(bytes, bytes.count, scale, 1 << 30, 0, &out, &message)
        let icc = out.icc.map { Array(UnsafeBufferPointer(start: $0, count: out.icc_size)) }
        let exif = out.exif.map { Array(UnsafeBufferPointer(start: $0, count: out.exif_size)) }
        return (status, icc, exif, out.scale_eighths == 0 ? 8 : out.scale_eighths, out.dpi_x)
    }

    /// `ccodecs_webp_info` called directly (orientation and has_icc are not in PictureInfo).
    static func shimInfo(_ bytes: [UInt8]) -> ccodecs_image_info? {
        var info = ccodecs_image_info()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        return ccodecs_webp_info(bytes, bytes.count, &info, &message) == CCODECS_OK ? info : nil
    }

    /// Big-endian EXIF (TIFF header on) with Orientation 6 and 300 dots per inch.
    static let exif: [UInt8] = Array("MM\0*".utf8) + [0, 0, 0, 8, 0, 3]
        + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]     // Orientation SHORT 6
        + [0x01, 0x1A, 0, 5, 0, 0, 0, 1, 0, 0, 0, 50]    // XResolution RATIONAL at 50
        + [0x01, 0x28, 0, 3, 0, 0, 0, 1, 0, 2, 0, 0]     // ResolutionUnit SHORT 2 (inch)
        + [0, 0, 0, 0] + [0, 0, 1, 0x2C, 0, 0, 0, 1]     // no next IFD; 300 / 1

    /// An error other than a RasterError.corrupt(.webp, _) (or an unexpected success) as text.
    static func corruptError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try Pictures.decode(data: bytes)
            return "decoded"
        } catch .corrupt(.webp, let reason) {
            return reason.isEmpty ? "empty reason" : nil
        } catch {
            return "\(error)"
        }
    }

    /// A PAM file's RGBA samples (as `dwebp -pam` writes them).
    static func readPAM(_ bytes: [UInt8]) -> RasterImage? {
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: Array("ENDHDR\n".utf8)) }) else { return nil }
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, let value = Int(words[1]) { fields[String(words[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], fields["DEPTH"] == 4 else { return nil }
        let pixels = Array(bytes[(end + 7)...])
        return pixels.count == width * height * 4 ? RasterImage(width: width, height: height, pixels: pixels) : nil
    }

    // MARK: Decoding

    @Test func losslessRoundTripIsExact() throws {
        let image = Fixture.noise(37, 23)
        let bytes = try PictureEncoder.webp(image, quality: nil)
        #expect(PictureFormat.sniff(bytes) == .webp)
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.format == .webp && decoded.warningCount == 0)
        #expect(decoded.image == image)
        #expect(decoded.image.hasAlpha)
        #expect(try Pictures.info(data: bytes) == PictureInfo(format: .webp, width: 37, height: 23, hasAlpha: true, resolution: nil))
    }

    @Test func lossyIsClose() throws {
        let image = Fixture.gradient(64, 48)
        let bytes = try PictureEncoder.webp(image, quality: 90)
        let decoded = try Pictures.decode(data: bytes).image
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(!decoded.hasAlpha)
        #expect(meanDifference(decoded, image) < 2, "\(meanDifference(decoded, image))")
        #expect(try Pictures.info(data: bytes).hasAlpha == false)
    }

    @Test(arguments: [Double?.none, 80])
    func alphaIsKept(quality: Double?) throws {
        let image = Fixture.gradient(40, 30) { x, y in UInt8((x * 255 / 39 + y * 3) % 256) }
        let decoded = try Pictures.decode(data: PictureEncoder.webp(image, quality: quality)).image
        #expect(decoded.hasAlpha)
        #expect(Self.channelDifference(decoded, image, channel: 3) < (quality == nil ? 0.001 : 1))
        // RGB under nearly transparent pixels is free for a lossy encoder: judge the opaque half.
        let opaque = (0..<image.pixels.count / 4).filter { image.pixels[$0 * 4 + 3] > 128 }
        let error = opaque.reduce(0) { sum, i in sum + (0..<3).reduce(0) { $0 + abs(Int(decoded.pixels[i * 4 + $1]) - Int(image.pixels[i * 4 + $1])) } }
        #expect(Double(error) / Double(opaque.count * 3) < 3)
    }

    /// A denominator asked, and the scale used in eighths (1/3 is decoded at 3/8).
    @Test(arguments: [(1, 8), (2, 4), (3, 3), (4, 2), (8, 1), (16, 1)])
    func scaledDecodingGivesCeilingSizes(asked: Int, used: Int) throws {
        for quality in [nil, 90] as [Double?] {
            let bytes = try PictureEncoder.webp(Fixture.gradient(101, 77), quality: quality)
            let decoded = try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: asked))
            #expect(decoded.image.width == (101 * used + 7) / 8 && decoded.image.height == (77 * used + 7) / 8)
            #expect(Self.shimDecode(bytes, scale: Int32(used)).scale == used)
            #expect(decoded.scaleNumerator * 8 == used * decoded.scaleDenominator)
        }
    }

    @Test(arguments: [2, 4, 8])
    func scaledDecodingIsABoxDownscale(d: Int) throws {
        let image = Fixture.gradient(96, 64) { x, y in UInt8(truncatingIfNeeded: 255 - (x + y)) }
        let bytes = try PictureEncoder.webp(image, quality: nil)
        let full = try Pictures.decode(data: bytes).image
        let scaled = try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: d)).image
        let reference = Self.boxDownscale(full, by: d)
        #expect(scaled.width == 96 / d && scaled.height == 64 / d)
        for channel in 0..<4 {
            let difference = Self.channelDifference(scaled, reference, channel: channel)
            #expect(difference < 1.5, "channel \(channel): \(difference)")
        }
    }

    @Test func iccAndExifChunksAreRead() throws {
        let icc = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let image = Fixture.gradient(16, 12)
        for quality in [nil, 85] as [Double?] {
            let bytes = try PictureEncoder.webp(image, quality: quality, icc: icc, exif: Self.exif)
            let both = Self.shimDecode(bytes)
            #expect(both.status == CCODECS_OK && both.icc == icc && both.exif == Self.exif && both.dpi == 300)
            let info = try #require(Self.shimInfo(bytes))
            #expect(info.has_icc == 1 && info.orientation == 6 && info.dpi_x == 300)
            #expect(try Pictures.info(data: bytes).resolution == 300)

            let plain = try PictureEncoder.webp(image, quality: quality)
            let none = Self.shimDecode(plain)
            #expect(none.status == CCODECS_OK && none.icc == nil && none.exif == nil && none.dpi == 0)
            let plainInfo = try #require(Self.shimInfo(plain))
            #expect(plainInfo.has_icc == 0 && plainInfo.orientation == 1 && plainInfo.dpi_x == 0)
        }
        // Through the generic path: orientation applied, profile reported.
        let bytes = try PictureEncoder.webp(image, quality: nil, icc: icc, exif: Self.exif)
        let info = try Pictures.info(data: bytes)
        #expect(info.orientation == .right && info.hasICCProfile && info.orientedSize == (12, 16))
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.orientation == .right && decoded.image.width == 12 && decoded.image.height == 16)
        #expect(decoded.image.resolution == 300)
        // JPEG's "Exif\0\0" prefix, which some writers copy into WebP, is dropped.
        let prefixed = try PictureEncoder.webp(image, quality: nil, exif: Array("Exif\0\0".utf8) + Self.exif)
        #expect(Self.shimDecode(prefixed).exif == Self.exif && Self.shimDecode(prefixed).icc == nil)
        #expect(Self.shimInfo(prefixed)?.orientation == 6)
        // An ICC profile alone; the metadata does not disturb the pixels.
        let iccOnly = try PictureEncoder.webp(image, quality: nil, icc: icc)
        #expect(Self.shimDecode(iccOnly).icc == icc && Self.shimDecode(iccOnly).exif == nil)
        #expect(try difference(Pictures.decode(data: iccOnly).image.pixels, image.pixels) == nil)
    }

    @Test func dwebpAgrees() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = Fixture.gradient(50, 34) { x, _ in UInt8(x * 5) }
        for (name, quality) in [("lossy", 75.0), ("lossless", nil)] as [(String, Double?)] {
            let input = directory.appendingPathComponent("\(name).webp"), output = directory.appendingPathComponent("\(name).pam")
            let bytes = try PictureEncoder.webp(image, quality: quality)
            try Data(bytes).write(to: input)
            #expect(try Self.run("dwebp", [input.path, "-pam", "-o", output.path]))
            let reference = try #require(Self.readPAM(Array(Data(contentsOf: output))))
            #expect(try difference(Pictures.decode(data: bytes).image.pixels, reference.pixels) == nil, "\(name)")
        }
    }

    /// Issue 32: an animation's canvas over 4 megapixels may be at most 64 times its first
    /// frame, whether the header is read first or the picture decoded straight away (a library
    /// user's call): 4096x4096 around an 8x8 frame is refused by both, 4096x4096 around a
    /// 512x512 one (at the bound) decodes.
    @Test func aCanvasFarLargerThanTheFirstFrameIsRefusedByHeaderAndDecoder() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (side, refused) in [(8, true), (512, false)] {
            let frame = directory.appendingPathComponent("frame\(side).webp")
            let animation = directory.appendingPathComponent("animation\(side).webp")
            try Data(PictureEncoder.webp(RasterImage(width: side, height: side, pixels: [UInt8](repeating: 200, count: side * side * 4)),
                                         quality: nil)).write(to: frame)
            #expect(try Self.run("webpmux", ["-frame", frame.path, "+100", "-frame", frame.path, "+100", "-o", animation.path]))
            var bytes = Array(try Data(contentsOf: animation))
            try #require(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X")
            for offset in [24, 27] { bytes.replaceSubrange(offset..<offset + 3, with: [0xFF, 0x0F, 0x00]) }  // 4095: 4096 wide
            let message = "its 4096x4096 canvas is more than 64 times the \(side * side) pixels of its first frame"
            if refused {
                #expect(throws: RasterError.unsupportedContent(.webp, message)) { try Pictures.info(data: bytes) }
                #expect(throws: RasterError.unsupportedContent(.webp, message)) { try Pictures.decode(data: bytes) }
            } else {
                #expect(try Pictures.info(data: bytes).width == 4096)
                #expect(try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: 8)).image.width == 512)
            }
        }
    }

    @Test func animationGivesItsFirstFrameWithAWarning() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func solid(_ size: Int, _ rgba: [UInt8]) -> RasterImage {
            RasterImage(width: size, height: size, pixels: Array((0..<size * size).map { _ in rgba }.joined()))
        }
        let first = directory.appendingPathComponent("first.webp"), second = directory.appendingPathComponent("second.webp")
        let animation = directory.appendingPathComponent("animation.webp")
        try Data(PictureEncoder.webp(solid(8, [255, 0, 0, 255]), quality: nil)).write(to: first)
        try Data(PictureEncoder.webp(solid(16, [0, 0, 255, 255]), quality: nil)).write(to: second)
        #expect(try Self.run("webpmux", ["-frame", first.path, "+100+4+2", "-frame", second.path, "+100",
                                         "-loop", "0", "-o", animation.path]))
        let bytes = Array(try Data(contentsOf: animation))
        #expect(try Pictures.info(data: bytes) == PictureInfo(format: .webp, width: 16, height: 16, hasAlpha: true, resolution: nil))
        let decoded = try Pictures.decode(data: bytes)
        #expect(decoded.image.width == 16 && decoded.image.height == 16)
        #expect(decoded.warningSummary == "animated WebP: only the first frame is used")
        // The first frame (red, 8x8 at (4, 2)) on a transparent canvas.
        #expect(decoded.image.pixel(x: 4, y: 2) == (255, 0, 0, 255) && decoded.image.pixel(x: 11, y: 9) == (255, 0, 0, 255))
        #expect(decoded.image.pixel(x: 3, y: 2).a == 0 && decoded.image.pixel(x: 12, y: 10).a == 0)
        // At half size, the canvas and the frame alike: 8x8 with the frame (4x4) at (2, 1).
        let half = try Pictures.decode(data: bytes, options: DecodeOptions(scaleDenominator: 2))
        #expect(half.image.width == 8 && half.image.height == 8 && half.scaleDenominator == 2)
        #expect(half.image.pixel(x: 2, y: 1) == (255, 0, 0, 255) && half.image.pixel(x: 5, y: 4) == (255, 0, 0, 255))
        #expect(half.image.pixel(x: 1, y: 1).a == 0 && half.image.pixel(x: 6, y: 5).a == 0)
        for cut in [40, bytes.count / 2, bytes.count - 1] {
            #expect(Self.corruptError(Array(bytes[..<cut])) == nil, "cut at \(cut)")
        }
    }

    // MARK: Bad input

    @Test func truncatedFilesAreCleanErrors() throws {
        for quality in [nil, 90] as [Double?] {
            let bytes = try PictureEncoder.webp(Fixture.noise(60, 40), quality: quality, icc: [1, 2, 3], exif: Array("II*\0".utf8))
            for cut in [12, 16, 20, 24, 30, 40, bytes.count / 3, bytes.count / 2, bytes.count - 10, bytes.count - 1] {
                #expect(Self.corruptError(Array(bytes[..<cut])) == nil, "quality \(String(describing: quality)), cut at \(cut) of \(bytes.count)")
            }
        }
        #expect(throws: RasterError.corrupt(.webp, "truncated WebP data")) {
            try Pictures.decode(data: Array(try PictureEncoder.webp(Fixture.noise(60, 40), quality: 90).prefix(20)))
        }
    }

    @Test func corruptFilesAreCleanErrorsAndNeverCrash() throws {
        for quality in [nil, 90] as [Double?] {
            let bytes = try PictureEncoder.webp(Fixture.noise(60, 40), quality: quality)
            // The bitstream's signature (VP8 start code 9d 01 2a, VP8L 0x2f) broken.
            let chunk = try #require(bytes.indices.first { bytes[$0...].starts(with: Array((quality == nil ? "VP8L" : "VP8 ").utf8)) })
            var broken = bytes
            broken[chunk + (quality == nil ? 8 : 11)] ^= 0xFF
            #expect(Self.corruptError(broken) == nil)
            // Any flipped byte: a clean error, or a picture of the right size (lossy VP8 has no
            // checksum), never a crash.
            for position in stride(from: 12, to: bytes.count, by: 7) {
                var flipped = bytes
                flipped[position] ^= 0x5A
                do {
                    let image = try Pictures.decode(data: flipped).image
                    #expect(image.pixels.count == image.width * image.height * 4)
                } catch {
                    #expect(Self.corruptError(flipped) == nil || { if case .tooLarge = error { true } else { false } }(),
                            "position \(position): \(error)")
                }
            }
        }
    }

    @Test func headerOnlyRIFFIsAnError() {
        let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)
        for bytes in [riff + [0, 0, 0, 0] + webp + Array("VP8 ".utf8), riff + [4, 0, 0, 0] + webp,
                      riff + [255, 255, 255, 255] + webp + Array("VP8L".utf8) + [5, 0, 0, 0]] {
            #expect(Self.corruptError(bytes) == nil, "\(bytes)")
            #expect(throws: RasterError.self) { try Pictures.info(data: bytes) }
        }
    }

    @Test func picturesOverTheLimitAreRefusedFromTheHeader() throws {
        let bytes = try PictureEncoder.webp(Fixture.gradient(40, 30), quality: nil)
        #expect(throws: RasterError.tooLarge(width: 40, height: 30, limit: 1000)) {
            try Pictures.decode(data: bytes, options: DecodeOptions(maxPixels: 1000))
        }
        #expect(throws: RasterError.tooLarge(width: 40, height: 30, limit: 1000)) {
            try Pictures.decode(data: bytes, options: DecodeOptions(maxPixels: 1000, scaleDenominator: 8))
        }
        // A VP8X header claiming a 20000 x 20000 canvas, and nothing after it.
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16)] }
        let huge = Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0]
            + [0, 0, 0, 0] + le24(19999) + le24(19999)
        #expect(try Pictures.info(data: huge).width == 20000)
        #expect(throws: RasterError.tooLarge(width: 20000, height: 20000, limit: 256_000_000)) {
            try Pictures.decode(data: huge)
        }
    }

    @Test func encodingErrorsAreReported() {
        #expect(throws: RasterError.encodingFailed(.webp, "cannot encode a 0x0 picture as WebP")) {
            try PictureEncoder.webp(RasterImage(width: 0, height: 0, pixels: []), quality: 90)
        }
        let tall = RasterImage(width: 1, height: 16384, pixels: [UInt8](repeating: 255, count: 16384 * 4))
        #expect(throws: RasterError.self) { try PictureEncoder.webp(tall, quality: nil) }
    }
}
