import FramedRaster
@testable import FramedRender
import Testing

/// The name `--pages` gives each embedded picture: equal names share one image object in the
/// PDF, so equal content must give equal names and any difference a different one.
@Suite struct PictureIdentityTests {
    static func picture(_ width: Int, _ height: Int, change: Int? = nil, jpeg: [UInt8]? = nil) -> EmbeddedPicture {
        var pixels = (0..<width * height * 4).map { $0 % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        if let change { pixels[change] &+= 1 }
        return EmbeddedPicture(image: RasterImage(width: width, height: height, pixels: pixels), jpeg: jpeg)
    }

    @Test func equalContentEqualNames() {
        #expect(PictureIdentity.key(Self.picture(13, 7)) == PictureIdentity.key(Self.picture(13, 7)))
        #expect(PictureIdentity.key(Self.picture(13, 7)).hasPrefix("framed-"))
    }

    /// 13x7 pixels are 364 bytes: 45 words and 4 bytes more, so the last change is in the tail
    /// (colour bytes only: the pictures are opaque).
    @Test(arguments: [0, 6, 8, 200, 358, 362])
    func anyPixelChangesTheName(at index: Int) {
        #expect(PictureIdentity.key(Self.picture(13, 7)) != PictureIdentity.key(Self.picture(13, 7, change: index)))
    }

    @Test func theSizeAndTheAlphaFlagCount() {
        // The same bytes as 13x7 and as 7x13.
        let wide = Self.picture(13, 7)
        let tall = EmbeddedPicture(image: RasterImage(width: 7, height: 13, pixels: wide.image.pixels))
        #expect(PictureIdentity.key(wide) != PictureIdentity.key(tall))
        let alpha = EmbeddedPicture(image: RasterImage(width: 13, height: 7, pixels: wide.image.pixels, hasAlpha: true))
        #expect(!wide.image.hasAlpha)
        #expect(PictureIdentity.key(wide) != PictureIdentity.key(alpha))
    }

    /// A picture embedded as a JPEG is named by its JPEG bytes, which are all the PDF holds.
    @Test func aJPEGPictureIsNamedByItsBytes() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xFF, 0xD9]
        var other = jpeg, last = jpeg
        other[5] = 0
        last[12] = 0xDA  // 13 bytes: a word and five more; the last of them
        #expect(PictureIdentity.key(Self.picture(13, 7, jpeg: jpeg)) != PictureIdentity.key(Self.picture(13, 7, jpeg: last)))
        #expect(PictureIdentity.key(Self.picture(13, 7, jpeg: jpeg)) == PictureIdentity.key(Self.picture(13, 7, change: 2, jpeg: jpeg)))
        #expect(PictureIdentity.key(Self.picture(13, 7, jpeg: jpeg)) != PictureIdentity.key(Self.picture(13, 7, jpeg: other)))
        #expect(PictureIdentity.key(Self.picture(13, 7, jpeg: jpeg)) != PictureIdentity.key(Self.picture(13, 7)))
    }
}
