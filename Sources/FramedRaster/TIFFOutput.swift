internal import CCodecs

/// The TIFF that a photo lab takes: 8-bit RGB, compressed losslessly, with the sRGB profile
/// (tag 34675), the resolution and framed's mark (`OutputMark`, tag 305), written by libtiff
/// (`ccodecs_tiff_encode_rgb`).
package enum TIFFOutput {
    /// The lossless compressions a TIFF is written with.
    package enum Compression: Sendable {
        /// LZW with the horizontal predictor: what every TIFF reader takes. The default.
        case lzw
        /// Deflate (zlib) with the horizontal predictor: smaller, read by most.
        case deflate

        var cValue: Int32 { self == .lzw ? CCODECS_TIFF_LZW : CCODECS_TIFF_DEFLATE }
    }

    /// `image` (opaque RGBA, read where it lies; alpha is dropped) as a TIFF with `resolution`
    /// in pixels per inch and `profile` embedded.
    package static func encode(_ image: RGBARows, resolution: Double?, profile: ICCProfile,
                               compression: Compression = .lzw) throws(RasterError) -> [UInt8] {
        let dpi = resolution ?? 0
        return try PictureEncoder.encode(.tiff, image.base, width: image.width, height: image.height) {
            pixels, width, height, out, message in
            profile.bytes.withUnsafeBufferPointer { icc in
                ccodecs_tiff_encode_rgb(pixels, width, height, dpi, icc.baseAddress, icc.count, compression.cValue,
                                        OutputMark.software, out, message)
            }
        }
    }
}
