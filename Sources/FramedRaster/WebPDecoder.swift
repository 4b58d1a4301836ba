internal import CCodecs

/// WebP through libwebp: `ccodecs_webp_info` reads the header (`WebPGetFeatures`),
/// `ccodecs_webp_decode` decodes lossy, lossless and alpha pictures to RGBA8 (`WebPDecode`),
/// shrinking by the options' scale (1/8, 1/4, 3/8 or 1/2) with libwebp's scaler, and copies
/// the ICCP and EXIF chunks (`WebPDemuxGetChunk`). An animation gives its first frame on its
/// transparent canvas, both at the options' scale, with a warning.
package struct WebPDecoder: PictureDecoder {
    package static let format = PictureFormat.webp
    package init() {}

    /// libwebp reads from memory only: the file is read whole first, as far as its RIFF header
    /// says it goes (a file may go on past it: those bytes are no part of the picture, and a
    /// huge file is not read for them).
    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        let bytes = try Self.contents(input)
        return try shimInfo(.webp, PictureInput(bytes: bytes)) { ccodecs_webp_info($0.pointee.data, $0.pointee.size, $1, $2) }
    }

    /// The bytes the RIFF header counts (its size field, plus the 8 bytes of the header), or as
    /// many as there are; more than the input's byte limit (what a picture within the pixel
    /// limit can take) are refused (`.tooManyBytes`) rather than read.
    static func contents(_ input: borrowing PictureInput) throws(RasterError) -> [UInt8] {
        let head = try input.prefix(8)
        guard head.count == 8 else { return try input.contents() }
        let size = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
        let total = min(8 + size + (size & 1), input.count), limit = input.byteLimit
        guard total <= limit else { throw RasterError.tooManyBytes(limit: limit) }
        return total == input.count ? try input.contents() : try input.bytes(from: 0, count: total)
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels), scale = Int32(options.supportedEighths)
        let bytes = try Self.contents(input)
        return try shimDecode(.webp, PictureInput(bytes: bytes), limit: limit, options: options) {
            ccodecs_webp_open($0.pointee.data, $0.pointee.size, scale, limit, $1, $2, $3)
        }
    }
}

extension PictureEncoder {
    /// WebP via `ccodecs_webp_encode_rgba` (libwebp's `WebPEncode`; `WebPMuxSetChunk` for the
    /// metadata): lossy at `quality` (0-100), or lossless, exact to the byte, when `quality`
    /// is nil. Alpha is kept when any pixel is not opaque. `icc` and `exif` (EXIF from the
    /// TIFF header on) go into ICCP and EXIF chunks.
    package static func webp(_ image: RasterImage, quality: Double?, icc: [UInt8]? = nil,
                            exif: [UInt8]? = nil) throws(RasterError) -> [UInt8] {
        let quality = quality.map { Float(min(max($0, 0), 100)) } ?? -1
        let icc = icc ?? [], exif = exif ?? []
        return try encode(.webp, image) { pixels, width, height, out, message in
            icc.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exif in
                    ccodecs_webp_encode_rgba(pixels, width, height, quality, icc.baseAddress, icc.count,
                                             exif.baseAddress, exif.count, out, message)
                }
            }
        }
    }
}
