internal import CCodecs

/// WebP through libwebp, from the chunks it reads gathered into memory (`ccodecs_webp_gather`:
/// libwebp decodes from memory only, and a file is never read whole for it):
/// `ccodecs_webp_info` reads the header (`WebPGetFeatures`),
/// `ccodecs_webp_decode` decodes lossy, lossless and alpha pictures to RGBA8 (`WebPDecode`),
/// shrinking by the options' scale (1/8, 1/4, 3/8 or 1/2) with libwebp's scaler, and copies
/// the ICCP and EXIF chunks (`WebPDemuxGetChunk`). An animation gives its first frame on its
/// transparent canvas, both at the options' scale, with a warning.
package struct WebPDecoder: PictureDecoder {
    package static let format = PictureFormat.webp
    package init() {}

    /// libwebp reads from memory only: the chunks it reads are gathered first (`gathered`).
    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        let (bytes, _) = try Self.gathered(input)
        return try shimInfo(.webp, PictureInput(bytes: bytes)) { ccodecs_webp_info($0.pointee.data, $0.pointee.size, $1, $2) }
    }

    /// The chunks decoding reads, gathered into one RIFF (`ccodecs_webp_gather`: the header, the
    /// image or an animation's first frame, ICCP, EXIF, ANIM; each chunk read as far as its own
    /// size says, and one that claims more than its picture can take refused unread), and how
    /// many frames an animation has. A file whose RIFF header claims more than the input's byte
    /// limit (what a picture within the pixel limit can take), and that holds more, is refused
    /// (`.tooManyBytes`) before a chunk is read.
    static func gathered(_ input: borrowing PictureInput) throws(RasterError) -> (bytes: [UInt8], frames: UInt32) {
        guard input.count > 0 else { throw .empty }
        let head = try input.prefix(8)
        if head.count == 8 {
            let size = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            let limit = input.byteLimit
            guard min(8 + size + (size & 1), input.count) <= limit else { throw RasterError.tooManyBytes(limit: limit) }
        }
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        var frames: UInt32 = 0
        try input.withCInput { (source) throws(RasterError) in
            try callShim(.webp) { message in ccodecs_webp_gather(source, &out, &frames, message) }
        }
        return (Array(UnsafeBufferPointer(start: out.data, count: out.size)), frames)
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels), scale = Int32(options.supportedEighths)
        let (bytes, frames) = try Self.gathered(input)
        return try shimDecode(.webp, PictureInput(bytes: bytes), limit: limit, options: options) {
            ccodecs_webp_open($0.pointee.data, $0.pointee.size, scale, limit, frames, $1, $2, $3)
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
