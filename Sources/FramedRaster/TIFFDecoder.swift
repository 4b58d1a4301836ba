internal import CCodecs

/// TIFF through libtiff, from memory or from a file where libtiff seeks (never read whole):
/// `ccodecs_tiff_info` reads the first directory, `ccodecs_tiff_open` and `ccodecs_reader_read`
/// decode the first page strip by strip or tile by tile straight into the picture (1, 2, 4, 8 and
/// 16-bit gray, palette, RGB, RGBA with associated or unassociated alpha, CMYK for colour
/// management, planar or not, every compression Debian's libtiff reads; other kinds through
/// libtiff's RGBA interface). The Orientation tag turns it upright as EXIF does for the other
/// formats; the resolution tags give its resolution; the ICC profile tag converts it to sRGB.
/// A file of several pages gives its first and a warning naming how many were left out. When
/// `DecodeOptions.neededWidth`/`neededHeight` say how many pixels are needed, a
/// reduced-resolution version of the page (a pyramid level) that has them all is read instead.
package struct TIFFDecoder: PictureDecoder {
    package static let format = PictureFormat.tiff
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.tiff, input) { ccodecs_tiff_info($0, $1, $2) }
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels)
        let needWidth = UInt32(clamping: max(0, options.neededWidth))
        let needHeight = UInt32(clamping: max(0, options.neededHeight))
        return try shimDecode(.tiff, input, limit: limit, options: options) {
            ccodecs_tiff_open($0, needWidth, needHeight, limit, $1, $2, $3)
        }
    }
}
