import FramedRaster
import FramedTestSupport
import Testing

/// `DecodeOptions.resize`: a picture resized while it is decoded (a second thread following the
/// decoder's rows) is exactly the picture decoded, then resized; where the rows cannot be
/// followed (turned by EXIF, colour-converted, interlaced), the decoder returns the picture
/// unresized, or resized after the last row.
struct ResizeWhileDecodingTests {
    /// Decodes `bytes` with and without `resize`, and compares with `Resampler.resize`.
    static func expectSameAsAfterwards(_ bytes: [UInt8], to size: (Int, Int), resampled: Bool,
                                       filter: ResamplingFilter = .best, scale: Int = 1, minimumPixels: Int = 0,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        var plain = DecodeOptions(scaleDenominator: scale)
        let whole = try Pictures.decode(data: bytes, options: plain)
        plain.resize = ResizeRequest(width: size.0, height: size.1, filter: filter, minimumPixels: minimumPixels)
        let followed = try Pictures.decode(data: bytes, options: plain)
        #expect(followed.resampled == resampled, sourceLocation: sourceLocation)
        let afterwards = Resampler.resize(whole.image, width: size.0, height: size.1, filter: filter)
        let got = followed.resampled ? followed.image
            : Resampler.resize(followed.image, width: size.0, height: size.1, filter: filter)
        #expect(got == afterwards, "the same pixels, alpha flag and resolution", sourceLocation: sourceLocation)
        #expect(followed.warningCount == whole.warningCount && followed.scaleDenominator == whole.scaleDenominator,
                sourceLocation: sourceLocation)
    }

    /// Followed on a machine with a second core (`minimumPixels` is 0 here unless a test says).
    static let follows = Resampler.processorCount > 1
    static let photo = Fixture.gradient(640, 480)
    static let noisy = Fixture.noise(640, 480)  // alpha everywhere: the premultiplied path

    @Test(arguments: [(300, 200), (97, 61), (640, 480), (1, 1), (1000, 5)])
    func jpegAndPNGResizeAsTheyDecode(width: Int, height: Int) throws {
        let resized = Self.follows && (width, height) != (640, 480)
        try Self.expectSameAsAfterwards(try PictureEncoder.jpeg(Self.photo), to: (width, height), resampled: resized)
        // Progressive: all scans are read before the first row comes, so it is not followed.
        try Self.expectSameAsAfterwards(try PictureEncoder.jpeg(Self.photo, progressive: true), to: (width, height),
                                        resampled: false)
        try Self.expectSameAsAfterwards(try PictureEncoder.jpeg(Self.photo, grayscale: true), to: (width, height),
                                        resampled: resized)
        try Self.expectSameAsAfterwards(try PictureEncoder.png(Self.noisy), to: (width, height), resampled: resized)
        // Below `minimumPixels` (a megapixel by default): decoded, then resized by the caller.
        try Self.expectSameAsAfterwards(try PictureEncoder.jpeg(Fixture.gradient(64, 48)), to: (32, 24), resampled: false,
                                        minimumPixels: 64 * 48 + 1)
        try Self.expectSameAsAfterwards(try PictureEncoder.jpeg(Fixture.gradient(64, 48)), to: (32, 24), resampled: Self.follows)
    }

    @Test func shrinkOnLoadAndOtherKernelsToo() throws {
        let bytes = try PictureEncoder.jpeg(Fixture.gradient(2400, 1800))
        try Self.expectSameAsAfterwards(bytes, to: (150, 100), resampled: false, scale: 4, minimumPixels: 1 << 20)  // 600x450 decoded
        try Self.expectSameAsAfterwards(bytes, to: (150, 100), resampled: Self.follows, scale: 4)
        try Self.expectSameAsAfterwards(bytes, to: (700, 500), resampled: Self.follows, scale: 2)
        for filter in ResamplingFilter.allCases {
            try Self.expectSameAsAfterwards(bytes, to: (333, 222), resampled: Self.follows, filter: filter)
        }
    }

    /// With redactions, the rows are redacted before the resize reads them, in the list's order
    /// where regions overlap: the picture decoded, redacted, then resized, whichever way it went.
    /// The lists: overlapping regions listed against their order down the picture, with an
    /// empty one; one far down listed before one near the top that it does not overlap; and a
    /// region from the first row to near the last, which can only be applied once the decoder
    /// has stored it all.
    @Test func redactionsComeBeforeTheResizeReadsTheRows() throws {
        let lists: [[Redaction]] = [
            [Redaction(box: PixelBox(x: 10, y: 300, width: 0, height: 50), method: .solid(r: 0, g: 0, b: 0)),
             Redaction(box: PixelBox(x: 100, y: 120, width: 200, height: 96), method: .pixelate(width: 16, height: 16)),
             Redaction(box: PixelBox(x: 60, y: 100, width: 120, height: 60), method: .solid(r: 16, g: 32, b: 48)),
             Redaction(box: PixelBox(x: 0, y: 0, width: 640, height: 24), method: .blur(sigma: 6)),
             Redaction(box: PixelBox(x: 300, y: 400, width: 500, height: 200), method: .pixelate(width: 12, height: 12))],
            [Redaction(box: PixelBox(x: 0, y: 420, width: 300, height: 40), method: .pixelate(width: 12, height: 12)),
             Redaction(box: PixelBox(x: 320, y: 8, width: 200, height: 20), method: .solid(r: 200, g: 0, b: 0))],
            [Redaction(box: PixelBox(x: 40, y: 0, width: 400, height: 470), method: .blur(sigma: 3))],
        ]
        for bytes in [try PictureEncoder.png(Self.noisy), try PictureEncoder.jpeg(Self.photo)] {
            for redactions in lists {
                var options = DecodeOptions()
                let unredacted = try Pictures.decode(data: bytes, options: options)
                options.redactions = redactions
                (options.redactionsWidth, options.redactionsHeight) = (640, 480)
                let whole = try Pictures.decode(data: bytes, options: options)
                #expect(whole.redacted && !whole.resampled)
                #expect(whole.image == unredacted.image.redacted(redactions))
                options.resize = ResizeRequest(width: 300, height: 200, minimumPixels: 0)
                let followed = try Pictures.decode(data: bytes, options: options)
                #expect(followed.redacted && followed.resampled == Self.follows)
                let afterwards = Resampler.resize(whole.image, width: 300, height: 200, filter: .best)
                let got = followed.resampled ? followed.image : Resampler.resize(followed.image, width: 300, height: 200, filter: .best)
                let same = got == afterwards
                #expect(same, "not the picture redacted, then resized: \(redactions)")
                // Redactions for a picture of another size are left to the caller, unresized.
                options.redactionsWidth = 320
                let elsewhere = try Pictures.decode(data: bytes, options: options)
                #expect(!elsewhere.redacted && !elsewhere.resampled && elsewhere.image == unredacted.image)
            }
        }
    }

    /// Rows that are turned or converted after decoding, or rewritten by later passes, are not followed.
    @Test func picturesThatCannotBeFollowedComeUnresized() throws {
        let jpeg = try PictureEncoder.jpeg(Self.photo)
        try Self.expectSameAsAfterwards(PictureBytes.withEXIF(jpeg, PictureBytes.exif(orientation: 6)), to: (300, 200),
                                        resampled: false)
        try Self.expectSameAsAfterwards(PictureBytes.withICC(jpeg, Fixture.iccProfile(Fixture.adobeRGB, gamma: 1.8)),
                                        to: (300, 200), resampled: false)
        try Self.expectSameAsAfterwards(FileInputTests.interlacedPNG(orientation: 1), to: (7, 4), resampled: false)
    }

    /// A file that fails half-way fails the same way, and the resampling thread stops.
    @Test func aFailureHalfWayIsTheSameFailure() throws {
        let png = try PictureEncoder.png(Self.noisy)
        var broken = png
        let idat = try #require(broken.firstRange(of: Array("IDAT".utf8)))
        for i in (idat.upperBound + 2000)..<(idat.upperBound + 2100) { broken[i] ^= 0x5A }
        var options = DecodeOptions()
        let plain = #expect(throws: RasterError.self) { try Pictures.decode(data: broken, options: options) }
        options.resize = ResizeRequest(width: 100, height: 75)
        let followed = #expect(throws: RasterError.self) { try Pictures.decode(data: broken, options: options) }
        #expect(plain == followed)
        // Cut short: JPEG decodes with warnings (the rest gray), resized alike.
        let jpeg = try PictureEncoder.jpeg(Self.photo)
        try Self.expectSameAsAfterwards(Array(jpeg.prefix(jpeg.count / 2)), to: (100, 75), resampled: Self.follows)
    }
}
