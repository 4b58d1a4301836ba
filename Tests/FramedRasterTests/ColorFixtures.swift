import Foundation
import FramedTestSupport
import FramedRaster
import CCodecs
import CFramedEngines

/// Fixtures for colour and orientation (EXIF and JPEG segments come from `PictureBytes`):
/// ICC profiles made with lcms2 (through the shim), and lcms2's own `transicc` as the judge.
extension Fixture {
    /// A JPEG from libjpeg (`ccodecs_jpeg_encode_rgb`) with the given CCODECS_JPEG_* flags.
    static func jpeg(_ image: RasterImage, quality: Int32 = 95, flags: Int32) -> [UInt8] {
        encoded { ccodecs_jpeg_encode_rgb(image.pixels, UInt32(image.width), UInt32(image.height), quality, 0, flags, 0, $0, $1) }
    }

    /// A JPEG from framed's encoder in parts (`framed_engine_jpeg_encode_in_parts`) with the
    /// given CCODECS_JPEG_* and FRAMED_ENGINE_JPEG_* flags, on `threads` threads.
    static func jpegInParts(_ image: RasterImage, quality: Int32 = 95, flags: Int32, threads: Int32) -> [UInt8] {
        encoded {
            framed_engine_jpeg_encode_in_parts(image.pixels, UInt32(image.width), UInt32(image.height), quality, 0, flags,
                                               threads, $0, $1)
        }
    }

    /// The bytes an encoding call (output buffer, message) made; stops the tests if it failed.
    private static func encoded(_ call: (UnsafeMutablePointer<ccodecs_buffer>, UnsafeMutablePointer<CChar>) -> Int32) -> [UInt8] {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        let status = call(&out, &message)
        precondition(status == CCODECS_OK, message.text)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    /// A CMYK JPEG from `ccodecs_jpeg_encode_cmyk`; `cmyk` holds 4 samples a pixel, written as given.
    static func cmykJPEG(_ cmyk: [UInt8], width: Int, height: Int, quality: Int32 = 100, flags: Int32) -> [UInt8] {
        encoded { ccodecs_jpeg_encode_cmyk(cmyk, UInt32(width), UInt32(height), quality, flags, $0, $1) }
    }

    /// The 4-byte samples that `ccodecs_jpeg_decode` gives (CMYK stays CMYK), with the pixel format.
    static func rawJPEG(_ jpeg: [UInt8]) -> (pixels: [UInt8], format: Int32, width: Int) {
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_decoded_release(&out) }
        let status = ccodecs_jpeg_decode(jpeg, jpeg.count, 8, nil, 1 << 30, &out, &message)
        precondition(status == CCODECS_OK, message.text)
        return (Array(UnsafeBufferPointer(start: out.pixels, count: Int(out.width * out.height * 4))), out.pixel_format, Int(out.width))
    }

    // MARK: ICC profiles

    /// Adobe RGB (1998): D65, primaries 0.64/0.33, 0.21/0.71, 0.15/0.06, gamma 563/256.
    static let adobeRGB: [Double] = [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06]

    /// A matrix-shaper profile from `ccodecs_icc_profile` (lcms2); nil chromaticities: sRGB's.
    static func iccProfile(_ chromaticities: [Double]?, gamma: Double, gray: Bool = false) -> [UInt8] {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        let status = chromaticities.map { ccodecs_icc_profile($0, gamma, gray ? 1 : 0, &out, &message) }
            ?? ccodecs_icc_profile(nil, gamma, gray ? 1 : 0, &out, &message)
        precondition(status == CCODECS_OK, message.text)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    static let defaultCMYKProfile = FileManager.default.contents(atPath: ColorManagement.defaultCMYKProfilePath).map { Array($0) }

    /// A PNG iCCP chunk holding `profile`.
    static func iCCP(_ profile: [UInt8]) -> [UInt8] {
        PictureBytes.chunk("iCCP", Array("test profile".utf8) + [0, 0] + PictureBytes.zlibStored(profile))
    }

    // MARK: The judge

    /// liblcms2-utils, which `make test` installs: a test that needs it fails without it.
    static let transiccPath = "/usr/bin/transicc"

    /// lcms2's `transicc` (bounded mode, to sRGB) over `inputs`: device values as transicc
    /// reads them (RGB and gray 0-255, CMYK 0-100 %); one RGB triple (0-255, unrounded) each.
    static func transicc(profile: [UInt8], intent: RenderingIntent, _ inputs: [[Double]]) throws -> [[Double]] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("framed-\(UUID().uuidString).icc")
        try Data(profile).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let text = inputs.map { $0.map { String($0) }.joined(separator: " ") }.joined(separator: "\n") + "\n"
        let result = try Tool.run(transiccPath, ["-n", "-s", "-t\(intent == .perceptual ? 0 : 1)", "-i\(path.path)"],
                                  stdin: Data(text.utf8))
        return result.output.split(separator: "\n").map { line in
            line.split(separator: " ").compactMap { Double($0) }
        }.filter { $0.count == 3 }
    }

    /// Largest difference, in levels, between 8-bit RGB and transicc's unrounded values.
    static func deviation(_ rgb: [(UInt8, UInt8, UInt8)], _ expected: [[Double]]) -> Double {
        precondition(rgb.count == expected.count, "\(rgb.count) colours, \(expected.count) expected")
        return zip(rgb, expected).map { got, want in
            max(abs(Double(got.0) - want[0]), abs(Double(got.1) - want[1]), abs(Double(got.2) - want[2]))
        }.max() ?? 0
    }
}

extension Array where Element == CChar {
    /// A C shim's message buffer as text (up to its terminating zero).
    var text: String {
        String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
