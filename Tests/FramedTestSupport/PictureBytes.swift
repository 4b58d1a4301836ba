/// Picture files built byte by byte, for fixtures the project's encoders cannot make (EXIF tags,
/// extra JPEG segments, PNG chunks in any order): shared by the tests and the fuzzers' seeds.
package enum PictureBytes {
    // MARK: Numbers and checksums

    /// `value` as four big-endian bytes.
    package static func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// The CRC-32 of PNG chunks (and zlib's gzip's, ISO 3309).
    package static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: EXIF

    /// TIFF bytes (from the header on) holding IFD0 with the given tags: Orientation,
    /// XResolution (a rational) and ResolutionUnit.
    package static func exif(orientation: UInt16?, xResolution: (UInt32, UInt32)? = nil, unit: UInt16? = nil,
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

    /// `jpeg` with marker segments inserted after SOI (and after JFIF's APP0, if any).
    package static func inserting(_ segments: [(marker: UInt8, payload: [UInt8])], into jpeg: [UInt8]) -> [UInt8] {
        var at = 2
        if jpeg[2] == 0xFF && jpeg[3] == 0xE0 { at = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5]) }
        let bytes = segments.flatMap { segment -> [UInt8] in
            let length = segment.payload.count + 2
            return [0xFF, segment.marker, UInt8(length >> 8), UInt8(length & 0xFF)] + segment.payload
        }
        return Array(jpeg[..<at]) + bytes + Array(jpeg[at...])
    }

    /// `jpeg` with an APP1 EXIF segment holding `tiff`.
    package static func withEXIF(_ jpeg: [UInt8], _ tiff: [UInt8]) -> [UInt8] {
        inserting([(0xE1, Array("Exif\0\0".utf8) + tiff)], into: jpeg)
    }

    /// `jpeg` with an ICC profile in as many APP2 segments as it takes (65519 bytes each).
    package static func withICC(_ jpeg: [UInt8], _ icc: [UInt8]) -> [UInt8] {
        let chunks = stride(from: 0, to: icc.count, by: 65519).map { Array(icc[$0..<min($0 + 65519, icc.count)]) }
        return inserting(chunks.enumerated().map { i, chunk in
            (0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(i + 1), UInt8(chunks.count)] + chunk)
        }, into: jpeg)
    }

    // MARK: PNG

    /// The eight bytes every PNG starts with.
    package static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG chunk: length, type, data, CRC.
    package static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    package static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var blocks = stride(from: 0, to: data.count, by: 65535).map { data[$0..<min($0 + 65535, data.count)] }
        if blocks.isEmpty { blocks = [[]] }
        for (i, block) in blocks.enumerated() {
            let n = UInt16(block.count)
            out += [i == blocks.count - 1 ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
            out += block
        }
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(b << 16 | a)
    }
}

import CCodecs

extension PictureBytes {
    /// A CMYK JPEG from libjpeg (`ccodecs_jpeg_encode_cmyk`, quality 100) of `width` x `height`
    /// pixels, `cmyk` holding four ink amounts a pixel (255 = full ink). With `adobe`, an Adobe
    /// APP14 marker and the samples stored inverted, as Photoshop writes them.
    package static func cmykJPEG(_ cmyk: [UInt8], width: Int, height: Int, adobe: Bool = true) -> [UInt8] {
        precondition(cmyk.count == width * height * 4)
        let stored = adobe ? cmyk.map { 255 - $0 } : cmyk
        var out = ccodecs_buffer()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        defer { ccodecs_free(out.data) }
        let status = ccodecs_jpeg_encode_cmyk(stored, UInt32(width), UInt32(height), 100, adobe ? CCODECS_JPEG_ADOBE : 0,
                                              &out, &message)
        precondition(status == CCODECS_OK, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }
}
