internal import CCodecs

/// The TIFF that a photo lab takes: 8-bit RGB, compressed losslessly, with the sRGB profile
/// (tag 34675) and the resolution, written by libtiff (`ccodecs_tiff_encode_rgb`).
package enum TIFFOutput {
    /// The lossless compressions a TIFF is written with.
    package enum Compression: Sendable {
        /// LZW with the horizontal predictor: what every TIFF reader takes. The default.
        case lzw
        /// Deflate (zlib) with the horizontal predictor: smaller, read by most.
        case deflate

        var cValue: Int32 { self == .lzw ? CCODECS_TIFF_LZW : CCODECS_TIFF_DEFLATE }
    }

    /// `image` (opaque RGBA; alpha is dropped) as a TIFF with its `resolution` in pixels per
    /// inch and `profile` embedded.
    package static func encode(_ image: RasterImage, profile: ICCProfile,
                               compression: Compression = .lzw) throws(RasterError) -> [UInt8] {
        let dpi = image.resolution ?? 0
        return try PictureEncoder.encode(.tiff, image) { pixels, width, height, out, message in
            encodeRGB(pixels, width, height, dpi: dpi, profile: profile, compression: compression, out, message)
        }
    }

    /// The same for pixels read where they lie, with the resolution in pixels per inch.
    package static func encode(_ image: RGBARows, resolution: Double?, profile: ICCProfile,
                               compression: Compression = .lzw) throws(RasterError) -> [UInt8] {
        let dpi = resolution ?? 0
        return try PictureEncoder.encode(.tiff, image.base, width: image.width, height: image.height) {
            pixels, width, height, out, message in
            encodeRGB(pixels, width, height, dpi: dpi, profile: profile, compression: compression, out, message)
        }
    }

    /// `ccodecs_tiff_encode_rgb`.
    private static func encodeRGB(_ pixels: UnsafePointer<UInt8>?, _ width: UInt32, _ height: UInt32, dpi: Double,
                                  profile: ICCProfile, compression: Compression,
                                  _ out: UnsafeMutablePointer<ccodecs_buffer>, _ message: UnsafeMutablePointer<CChar>) -> Int32 {
        profile.bytes.withUnsafeBufferPointer { icc in
            ccodecs_tiff_encode_rgb(pixels, width, height, dpi, icc.baseAddress, icc.count, compression.cValue, out, message)
        }
    }
}
