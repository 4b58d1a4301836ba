internal import CCodecs

/// PNG through libpng, from memory or from a file a chunk at a time: `ccodecs_png_info_input`
/// reads the chunks before the first IDAT, `ccodecs_png_open` and `ccodecs_reader_read` expand every colour type and depth to RGBA8 (libpng's errors
/// longjmp inside C and come back as a status and message) and hands on iCCP (or a profile
/// made from gAMA/cHRM) and eXIf.
public struct PNGDecoder: PictureDecoder {
    public static let format = PictureFormat.png
    public init() {}

    public func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.png, input) { ccodecs_png_info_input($0, $1, $2) }
    }

    public func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels)
        return try shimDecode(.png, input, limit: limit, options: options) { ccodecs_png_open($0, limit, $1, $2, $3) }
    }
}

/// JPEG through libjpeg-turbo, from memory or from a file a chunk at a time:
/// `ccodecs_jpeg_info_input` reads the header, `ccodecs_jpeg_open` and `ccodecs_reader_read`
/// decode to RGBA8 (CMYK and YCCK to CMYK, for colour management), shrinking by
/// `options.scaleDenominator` with libjpeg's DCT scaling (cheap, and better than resampling
/// afterwards), and hands on the EXIF (APP1) and ICC profile (APP2). Baseline, progressive
/// and arithmetic-coded files decode; a truncated scan decodes with warnings.
public struct JPEGDecoder: PictureDecoder {
    public static let format = PictureFormat.jpeg
    public init() {}

    public func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.jpeg, input) { ccodecs_jpeg_info_input($0, $1, $2) }
    }

    public func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels), scale = Int32(options.supportedScale)
        return try shimDecode(.jpeg, input, limit: limit, options: options) { ccodecs_jpeg_open($0, scale, limit, $1, $2, $3) }
    }
}

/// Encoding RasterImages, for embedding in output files (and for test fixtures).
public enum PictureEncoder {
    /// 8-bit RGBA PNG via `ccodecs_png_encode_rgba` (fast: zlib level 1, Paeth); the
    /// resolution, if any, goes into pHYs. `dropAlpha` writes RGB, for opaque pictures.
    public static func png(_ image: RasterImage, dropAlpha: Bool = false) throws(RasterError) -> [UInt8] {
        let flags = Int32(dropAlpha ? CCODECS_PNG_RGB : 0)
        return try encode(.png, image) { ccodecs_png_encode_rgba($0, $1, $2, image.resolution ?? 0, flags, $3, $4) }
    }

    /// JPEG via `ccodecs_jpeg_encode_rgb` (alpha ignored); the resolution, if any, goes into
    /// the JFIF density. `grayscale` writes one channel (luma).
    public static func jpeg(_ image: RasterImage, quality: Int = 90, grayscale: Bool = false,
                            progressive: Bool = false) throws(RasterError) -> [UInt8] {
        let flags = (grayscale ? CCODECS_JPEG_GRAYSCALE : 0) | (progressive ? CCODECS_JPEG_PROGRESSIVE : 0)
        let quality = Int32(min(max(quality, 1), 100))
        return try encode(.jpeg, image) {
            ccodecs_jpeg_encode_rgb($0, $1, $2, quality, image.resolution ?? 0, flags, $3, $4)
        }
    }

    /// Runs one `ccodecs_*_encode*` call over `image`'s pixels (pixels, width, height, output
    /// buffer, message) and returns the bytes it made.
    static func encode(
        _ format: PictureFormat, _ image: RasterImage,
        _ call: (UnsafePointer<UInt8>?, UInt32, UInt32, UnsafeMutablePointer<ccodecs_buffer>, UnsafeMutablePointer<CChar>) -> Int32
    ) throws(RasterError) -> [UInt8] {
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw .encodingFailed(format, "picture is \(image.width)x\(image.height) pixels, too large")
        }
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        try callShim(format, encoding: true) { message in
            image.pixels.withUnsafeBufferPointer { call($0.baseAddress, width, height, &out, message) }
        }
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }
}
