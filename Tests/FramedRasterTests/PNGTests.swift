import FramedTestSupport
import Testing
import FramedRaster

@Suite struct PNGTests {
    /// The inflated bytes' Adler-32 is not checked (each IDAT's CRC-32 covers the same bytes),
    /// but a CRC that does not match still refuses the file.
    @Test func adlerIsNotCheckedButCRCIs() throws {
        let scanlines: [UInt8] = [0, 10, 20, 30, 40, 50, 60, 0, 70, 80, 90, 100, 110, 120]  // 2x2 RGB, filter 0
        var stream = PictureBytes.zlibStored(scanlines)
        stream[stream.count - 1] ^= 0xFF
        let good = PictureBytes.pngSignature + Fixture.ihdr(2, 2, depth: 8, colorType: 2)
            + PictureBytes.chunk("IDAT", stream) + PictureBytes.chunk("IEND", [])
        let image = try Pictures.decode(data: good).image
        #expect(image.pixels == [10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255, 100, 110, 120, 255])
        var badCRC = good
        let idat = try #require(good.firstRange(of: Array("IDAT".utf8)))
        badCRC[idat.upperBound + stream.count] ^= 0x01  // the first byte of IDAT's CRC
        #expect(throws: RasterError.self) { try Pictures.decode(data: badCRC) }
    }

    @Test func rgbaRoundTripIsExact() throws {
        let image = Fixture.noise(37, 23)
        let decoded = try Pictures.decode(data: PictureEncoder.png(image))
        #expect(decoded.format == .png)
        #expect(decoded.image == image)
        #expect(decoded.image.hasAlpha)
        #expect(decoded.warningCount == 0 && decoded.firstWarning == nil)
    }

    @Test func alphaChannelMeansHasAlpha() throws {
        let image = Fixture.gradient(8, 8) { x, _ in x == 0 ? 0 : 255 }
        let bytes = try PictureEncoder.png(image)
        #expect(try Pictures.decode(data: bytes).image.pixel(x: 0, y: 3).a == 0)
        #expect(try Pictures.decode(data: bytes).image.hasAlpha)
        #expect(try Pictures.info(data: bytes) == PictureInfo(format: .png, width: 8, height: 8, hasAlpha: true, resolution: nil))
    }

    @Test func rgbWithoutAlphaIsOpaque() throws {
        let bytes = Fixture.png(width: 2, height: 1, depth: 8, colorType: 2, scanlines: [0, 10, 20, 30, 40, 50, 60])
        let image = try Pictures.decode(data: bytes).image
        #expect(image.pixels == [10, 20, 30, 255, 40, 50, 60, 255])
        #expect(!image.hasAlpha)
        #expect(try Pictures.info(data: bytes).hasAlpha == false)
    }

    @Test func oneBitGrayExpandsToRGBA() throws {
        let bytes = Fixture.png(width: 3, height: 1, depth: 1, colorType: 0, scanlines: [0, 0b1010_0000])
        let image = try Pictures.decode(data: bytes).image
        #expect(image.pixels == [255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255])
    }

    @Test func paletteWithTRNSGivesAlpha() throws {
        let bytes = Fixture.png(width: 2, height: 1, depth: 8, colorType: 3,
                                chunks: [PictureBytes.chunk("PLTE", [255, 0, 0, 0, 0, 255]), PictureBytes.chunk("tRNS", [0])],
                                scanlines: [0, 0, 1])
        let image = try Pictures.decode(data: bytes).image
        #expect(image.pixels == [255, 0, 0, 0, 0, 0, 255, 255])
        #expect(image.hasAlpha)
    }

    @Test func sixteenBitScalesToEight() throws {
        let bytes = Fixture.png(width: 1, height: 1, depth: 16, colorType: 2,
                                scanlines: [0, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00])
        #expect(try Pictures.decode(data: bytes).image.pixels == [255, 128, 0, 255])
    }

    @Test func adam7InterlacedDecodes() throws {
        // 2x2 gray: pass 1 holds (0,0), pass 6 holds (1,0), pass 7 holds row 1.
        let bytes = Fixture.png(width: 2, height: 2, depth: 8, colorType: 0, interlace: 1,
                                scanlines: [0, 10, 0, 20, 0, 30, 40])
        let image = try Pictures.decode(data: bytes).image
        #expect(image.pixels == [10, 10, 10, 255, 20, 20, 20, 255, 30, 30, 30, 255, 40, 40, 40, 255])
    }

    @Test(arguments: [(72.0, 72.0), (144.0, 144.0), (300.0, 300.0), (96.5, 96.5)])
    func pHYsIsReadAsDPI(written: Double, read: Double) throws {
        var image = Fixture.gradient(4, 4)
        image.resolution = written
        let bytes = try PictureEncoder.png(image)
        #expect(abs(try #require(Pictures.decode(data: bytes).image.resolution) - read) < 0.02)
        #expect(abs(try #require(Pictures.info(data: bytes).resolution) - read) < 0.02)
    }

    @Test func noPHYsMeansNoResolution() throws {
        #expect(try Pictures.decode(data: PictureEncoder.png(Fixture.gradient(4, 4))).image.resolution == nil)
    }

    @Test func truncatedPNGIsAnErrorWithAMessage() throws {
        let bytes = try PictureEncoder.png(Fixture.noise(64, 64))
        for cut in [bytes.count / 2, 40, 9] {
            let error = #expect(throws: RasterError.self) { try Pictures.decode(data: Array(bytes[..<cut])) }
            guard case .corrupt(.png, let reason)? = error else { Issue.record("\(String(describing: error))"); continue }
            #expect(!reason.isEmpty)
            #expect(error?.description.hasPrefix("corrupt PNG: ") == true)
        }
    }

    @Test func badCRCIsReported() throws {
        var bytes = try PictureEncoder.png(Fixture.noise(16, 16))
        bytes[bytes.count - 13] ^= 0xFF // IDAT's CRC (IEND is the last 12 bytes)
        let error = #expect(throws: RasterError.self) { try Pictures.decode(data: bytes) }
        #expect(error == .corrupt(.png, "IDAT: CRC error"))
    }

    @Test func hugeHeaderIsRefusedBeforeAllocating() throws {
        let bytes = Fixture.png(width: 100_000, height: 100_000, depth: 8, colorType: 6, scanlines: [0])
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000, limit: 256_000_000)) {
            try Pictures.decode(data: bytes)
        }
        #expect(RasterError.tooLarge(width: 100_000, height: 100_000, limit: 256_000_000).description
            == "picture is 100000x100000 pixels, over the limit of 256 megapixels")
        // Even when the file ends right after IHDR.
        let headerOnly = PictureBytes.pngSignature + Fixture.ihdr(100_000, 100_000, depth: 8, colorType: 6)
        #expect(throws: RasterError.tooLarge(width: 100_000, height: 100_000, limit: 256_000_000)) {
            try Pictures.decode(data: headerOnly)
        }
        // The header alone can still be read.
        #expect(try Pictures.info(data: bytes).width == 100_000)
    }

    @Test func maxPixelsOptionIsHonoured() throws {
        let bytes = try PictureEncoder.png(Fixture.gradient(10, 10))
        #expect(throws: RasterError.tooLarge(width: 10, height: 10, limit: 99)) {
            try Pictures.decode(data: bytes, options: DecodeOptions(maxPixels: 99))
        }
        #expect(try Pictures.decode(data: bytes, options: DecodeOptions(maxPixels: 100)).image.width == 10)
    }
}
