internal import CCodecs

/// The colour transforms of a soft proof through an output intent's profile (`ccodecs_proof_*`,
/// lcms2's proofing transform and gamut check): what a press prints of sRGB pixels, shown in
/// sRGB again with the paper's white, and which of them it cannot print. Owns lcms2's objects
/// and frees them when it goes; used on one thread at a time (a gamut check may make a
/// transform of its own, kept for the next).
package final class SoftProofTransform {
    private let handle: OpaquePointer

    /// The transforms for `profile` (RGB or CMYK); with `warning`, `proof` paints the pixels
    /// the press cannot reach in that colour.
    package init(profile: ICCProfile, warning: (r: UInt8, g: UInt8, b: UInt8)?) throws(RasterError) {
        var made: OpaquePointer?
        let codes = warning.map { [$0.r, $0.g, $0.b] }
        try callShim(.png, encoding: true) { message in
            profile.bytes.withUnsafeBufferPointer { icc in
                if let codes {
                    return codes.withUnsafeBufferPointer { ccodecs_proof_open(icc.baseAddress, icc.count, $0.baseAddress, &made, message) }
                }
                return ccodecs_proof_open(icc.baseAddress, icc.count, nil, &made, message)
            }
        }
        handle = made!
    }

    deinit { ccodecs_proof_close(handle) }

    /// Proofs `height` rows of `width` opaque pixels in place: Cairo's ARGB32 words, `stride`
    /// bytes from row to row, on a little-endian machine (the bytes B, G, R, A).
    package func proof(_ pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        guard width > 0, height > 0 else { return }
        ccodecs_proof_rows(handle, pixels.assumingMemoryBound(to: UInt8.self), stride, UInt32(width), UInt32(height))
    }

    /// One flag a pixel, row by row (`width` a row): 1 where the press cannot print the pixel's
    /// colour. The pixels (as `proof` takes them) are only read.
    package func outOfGamut(_ pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int) throws(RasterError) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        var flags = [UInt8](repeating: 0, count: width * height)
        try callShim(.png, encoding: true) { message in
            flags.withUnsafeMutableBufferPointer {
                ccodecs_proof_gamut(handle, pixels.assumingMemoryBound(to: UInt8.self), stride, UInt32(width), UInt32(height),
                                    $0.baseAddress, message)
            }
        }
        return flags
    }
}
