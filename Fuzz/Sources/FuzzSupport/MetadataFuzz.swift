import CCodecs
import FramedRaster

/// EXIF through libexif (`ccodecs_exif_orientation`, `ccodecs_exif_dpi`) on arbitrary bytes.
package enum ExifFuzz {
    package static func run(_ data: [UInt8]) {
        data.withUnsafeBufferPointer { bytes in
            let value = ccodecs_exif_orientation(bytes.baseAddress, bytes.count)
            require((1...8).contains(value), "orientation \(value) out of 1...8")
            let dpi = ccodecs_exif_dpi(bytes.baseAddress, bytes.count)
            require(!dpi.isNaN && dpi >= 0, "resolution \(dpi)")
        }
        _ = Orientation(exif: data)
    }
}

/// Colour management (`ccodecs_color_to_srgb`, lcms2) with a fuzzed ICC profile. The first byte
/// picks the pixels' format (bits 0-1: RGBA, CMYK, inverted CMYK, gray) and the intent (bit 2);
/// the rest is the profile. (The default CMYK profile, a file, is the decoder targets' business.)
package enum ICCFuzz {
    static let width: UInt32 = 16, height: UInt32 = 8

    /// Every kind of sample: ramps in each channel, some transparency.
    static let pixels: [UInt8] = (0..<Int(width * height)).flatMap { i -> [UInt8] in
        let v = UInt8(truncatingIfNeeded: i * 2)
        return [v, 255 &- v, UInt8(truncatingIfNeeded: i * 37), i % 5 == 0 ? 128 : 255]
    }

    package static func run(_ data: [UInt8]) {
        guard let selector = data.first else { return }
        let profile = Array(data.dropFirst())
        let format = Int32(selector & 3)  // CCODECS_PIXELS_RGBA ... CCODECS_PIXELS_GRAY
        let intent = selector & 4 == 0 ? CCODECS_INTENT_PERCEPTUAL : CCODECS_INTENT_RELATIVE
        var work = pixels
        if format == CCODECS_PIXELS_GRAY {
            for i in stride(from: 0, to: work.count, by: 4) { work[i + 1] = work[i]; work[i + 2] = work[i] }
        }
        var converted: Int32 = 0
        var warning = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        let cmykPath: String? = nil
        let status = profile.withUnsafeBufferPointer { icc in
            withOptionalCString(cmykPath) { path in
                ccodecs_color_to_srgb(&work, width, height, format, icc.baseAddress, icc.count, intent,
                                      path, &converted, &warning, &message)
            }
        }
        require(status == CCODECS_OK, "colour conversion failed: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        require(work.count == pixels.count, "pixel count changed")
        require(warning.contains(0) && message.contains(0), "message not terminated")
        if format == CCODECS_PIXELS_CMYK || format == CCODECS_PIXELS_CMYK_INVERTED {
            require(converted == 1, "CMYK pixels left unconverted")
            for i in stride(from: 3, to: work.count, by: 4) { require(work[i] == 255, "CMYK gave transparency") }
        } else if format == CCODECS_PIXELS_RGBA {
            for i in stride(from: 3, to: work.count, by: 4) { require(work[i] == pixels[i], "alpha changed") }
        }
    }

    static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }
}
