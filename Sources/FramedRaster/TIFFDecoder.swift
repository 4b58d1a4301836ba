internal import CCodecs
internal import FramedSystem

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
        return try shimDecode(.tiff, input, limit: limit, options: options, resized: { reader, out, resize throws(RasterError) in
            try Self.resizeByRows(reader, out, resize, options: options)
        }) {
            ccodecs_tiff_open($0, needWidth, needHeight, limit, $1, $2, $3)
        }
    }

    /// The picture resized while its rows are decoded, a strip (or a row of tiles) at a time
    /// (`ccodecs_tiff_row`): it is never held whole, only the strip and a ring of filtered rows,
    /// so that a 20-megapixel TIFF framed small takes a few megabytes beyond the small picture.
    /// nil (read as usual) when the rows are to be turned by the Orientation tag or
    /// colour-converted (a profile, CMYK), which work on the whole picture.
    static func resizeByRows(_ reader: OpaquePointer?, _ out: UnsafeMutablePointer<ccodecs_decoded>,
                             _ resize: ResizeRequest, options: DecodeOptions) throws(RasterError)
        -> (RasterImage, (converted: Bool, warning: String?))? {
        let header = out.pointee, (width, height) = (Int(header.width), Int(header.height))
        guard !ColorManagement.needsConversion(header), !options.autoOrient || storedOrientation(header) == .up else {
            return nil
        }
        guard Memory.available(resize.width * resize.height * 4) else { throw .outOfMemory }
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        var failure: String?
        let hasAlpha = header.has_alpha != 0
        let resized = Resampler.resize(rows: { y in
            let row = message.withUnsafeMutableBufferPointer { ccodecs_tiff_row(reader, UInt32(y), $0.baseAddress) }
            if row == nil { failure = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } }
            return row
        }, sourceWidth: width, sourceHeight: height, hasAlpha: hasAlpha, width: resize.width, height: resize.height,
           filter: resize.filter, engines: options.engines)
        guard let resized else { throw .corrupt(.tiff, failure ?? "cannot decode the TIFF's data") }
        let dpi = header.dpi_x > 0 ? header.dpi_x : nil
        let resolution = Resampler.scaledResolution(dpi, from: (width, height), to: (resize.width, resize.height))
        return (RasterImage(width: resize.width, height: resize.height, pixels: resized, hasAlpha: hasAlpha,
                            resolution: resolution), (false, nil))
    }
}
