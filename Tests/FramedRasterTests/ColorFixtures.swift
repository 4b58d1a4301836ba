import Foundation
import FramedTestSupport
import FramedRaster
import CCodecs

/// Fixtures for colour and orientation: EXIF built byte by byte, JPEG segments spliced in,
/// ICC profiles made with lcms2 (through the shim), and lcms2's own `transicc` as the judge.
extension Fixture {
    // MARK: EXIF

    /// TIFF bytes (from the header on) holding IFD0 with the given tags.
    static func exif(orientation: UInt16?, xResolution: (UInt32, UInt32)? = nil, unit: UInt16? = nil,
                     bigEndian: Bool = true) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? be32(v) : be32(v).reversed() }
        var entries: [[UInt8]] = [], data: [UInt8] = []
        let count = [orientation != nil, xResolution != nil, unit != nil].filter { $0 }.count
        let dataOffset = UInt32(8 + 2 + 12 * count + 4)
        if let orientation { entries.append(u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]) }
        if let (numerator, denominator) = xResolution {
            entries.append(u16(0x011A) + u16(5) + u32(1) + u32(dataOffset))
            data += u32(numerator) + u32(denominator)
        }
        if let unit { entries.append(u16(0x0128) + u16(3) + u32(1) + u16(unit) + [0, 0]) }
        let header: [UInt8] = bigEndian ? Array("MM".utf8) + [0, 42] : Array("II".utf8) + [42, 0]
        return header + u32(8) + u16(UInt16(count)) + entries.flatMap { $0 } + u32(0) + data
    }

    // MARK: JPEG segments

    /// `jpeg` with a marker segment inserted after SOI (and after JFIF's APP0, if any).
    static func inserting(_ segments: [(marker: UInt8, payload: [UInt8])], into jpeg: [UInt8]) -> [UInt8] {
        var at = 2
        if jpeg[2] == 0xFF && jpeg[3] == 0xE0 { at = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5]) }
        let bytes = segments.flatMap { segment -> [UInt8] in
            let length = segment.payload.count + 2
            return [0xFF, segment.marker, UInt8(length >> 8), UInt8(length & 0xFF)] + segment.payload
        }
        return Array(jpeg[..<at]) + bytes + Array(jpeg[at...])
    }

    /// `jpeg` with an APP1 EXIF segment.
    static func withEXIF(_ jpeg: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
        inserting([(0xE1, Array("Exif\0\0".utf8) + tiff)], into: jpeg)
    }

    /// `jpeg` with an ICC profile in as many APP2 segments as it takes (65519 bytes each).
    static func withICC(_ jpeg: [UInt8], _ icc: [UInt8]) -> [UInt8] {
        let chunks = stride(from: 0, to: icc.count, by: 65519).map { Array(icc[$0..<min($0 + 65519, icc.count)]) }
        return inserting(chunks.enumerated().map { i, chunk in
            (0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(i + 1), UInt8(chunks.count)] + chunk)
        }, into: jpeg)
    }

    /// A JPEG from `ccodecs_jpeg_encode_rgb` with the given CCODECS_JPEG_* flags.
    static func jpeg(_ image: RasterImage, quality: Int32 = 95, flags: Int32) -> [UInt8] {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        let status = ccodecs_jpeg_encode_rgb(image.pixels, UInt32(image.width), UInt32(image.height), quality, 0, flags, &out, &message)
        precondition(status == CCODECS_OK, message.text)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    /// A CMYK JPEG from `ccodecs_jpeg_encode_cmyk`; `cmyk` holds 4 samples a pixel, written as given.
    static func cmykJPEG(_ cmyk: [UInt8], width: Int, height: Int, quality: Int32 = 100, flags: Int32) -> [UInt8] {
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        let status = ccodecs_jpeg_encode_cmyk(cmyk, UInt32(width), UInt32(height), quality, flags, &out, &message)
        precondition(status == CCODECS_OK, message.text)
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    /// The 4-byte samples that `ccodecs_jpeg_decode` gives (CMYK stays CMYK), with the pixel format.
    static func rawJPEG(_ jpeg: [UInt8]) -> (pixels: [UInt8], format: Int32, width: Int) {
        var out = ccodecs_decoded()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_decoded_release(&out) }
        let status = ccodecs_jpeg_decode(jpeg, jpeg.count, 1, 1 << 30, &out, &message)
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
        chunk("iCCP", Array("test profile".utf8) + [0, 0] + zlibStored(profile))
    }

    // MARK: The judge

    static let transiccPath = "/usr/bin/transicc"
    static var hasTransicc: Bool { FileManager.default.isExecutableFile(atPath: transiccPath) }

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
