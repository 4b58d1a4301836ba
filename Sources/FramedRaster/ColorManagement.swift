internal import CCodecs

/// How colours outside sRGB are brought in (`--intent`). Matrix-shaper profiles (Adobe RGB,
/// Display P3) give the same result either way; table-based ones (most CMYK) differ.
public enum RenderingIntent: String, CaseIterable, Sendable {
    /// The profile's perceptual rendering: a gamut wider than sRGB's is compressed into it, so
    /// that the relations between colours survive rather than clipping. The default, and the
    /// usual choice for photographs.
    case perceptual
    /// Relative colorimetric: colours that sRGB can show stay exact (relative to the white
    /// point); colours outside it clip to the nearest it can show.
    case relative

    var cValue: Int32 { self == .perceptual ? CCODECS_INTENT_PERCEPTUAL : CCODECS_INTENT_RELATIVE }
}

/// Colour management: everything decoded comes out as sRGB.
package enum ColorManagement {
    /// Ghostscript's default CMYK profile (package libgs-common), used for CMYK pictures
    /// that carry no profile of their own.
    package static let defaultCMYKProfilePath = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// Whether `convertToSRGB` will touch the pixels: CMYK, or an embedded (or made up) profile.
    static func needsConversion(_ out: ccodecs_decoded) -> Bool {
        out.pixel_format == CCODECS_PIXELS_CMYK || out.pixel_format == CCODECS_PIXELS_CMYK_INVERTED
            || (out.icc != nil && out.icc_size > 0)
    }

    /// Converts decoded pixels (`width` x `height`, 4 bytes each, read as
    /// `decoded.pixel_format` says) in place to RGBA sRGB with `ccodecs_color_to_srgb`
    /// (lcms2), when the picture has a profile (`decoded.icc`) or CMYK pixels.
    /// - Returns: whether the pixels changed, and the warning (a profile ignored, CMYK
    ///   converted without a profile), if any.
    static func convertToSRGB(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
                              decoded out: ccodecs_decoded, format: PictureFormat,
                              options: DecodeOptions) throws(RasterError) -> (converted: Bool, warning: String?) {
        guard needsConversion(out) else { return (false, nil) }
        var converted: Int32 = 0
        var warning = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        try callShim(format) { message in
            warning.withUnsafeMutableBufferPointer { warning in
                ccodecs_color_to_srgb(pixels, UInt32(width), UInt32(height), out.pixel_format, out.icc, out.icc_size,
                                      options.intent.cValue, options.cmykProfilePath, &converted,
                                      warning.baseAddress, message)
            }
        }
        let text = warning.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (converted != 0, text.isEmpty ? nil : text)
    }
}

extension RasterImage {
    /// The picture composited on an opaque colour (`--flatten COLOR`): straight alpha over
    /// the colour, rounded; the result is opaque (`hasAlpha` false).
    package func flattened(onto color: (r: UInt8, g: UInt8, b: UInt8)) -> RasterImage {
        let background = [UInt32(color.r), UInt32(color.g), UInt32(color.b)]
        var out = pixels
        out.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                for c in 0..<3 {
                    p[i + c] = UInt8((UInt32(p[i + c]) * a + background[c] * (255 - a) + 127) / 255)
                }
                p[i + 3] = 255
            }
        }
        return RasterImage(width: width, height: height, pixels: out, hasAlpha: false, resolution: resolution)
    }
}
