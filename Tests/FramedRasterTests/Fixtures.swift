import FramedRaster

/// Test pictures made in memory: pixel patterns, and PNG files built chunk by chunk.
enum Fixture {
    /// A smooth colour gradient (JPEG-friendly), alpha from `alpha(x, y)`.
    static func gradient(_ width: Int, _ height: Int, gray: Bool = false,
                         alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RasterImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(40 + 160 * x / max(width - 1, 1)), g = UInt8(30 + 180 * y / max(height - 1, 1))
                let b = UInt8(200 - 100 * (x + y) / max(width + height - 2, 1))
                pixels += gray ? [r, r, r, alpha(x, y)] : [r, g, b, alpha(x, y)]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// Every byte value in every channel, alpha included (not JPEG-friendly).
    static func noise(_ width: Int, _ height: Int) -> RasterImage {
        var state: UInt32 = 12345
        let pixels = (0..<width * height * 4).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    // MARK: PNG by hand

    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
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

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func ihdr(_ width: UInt32, _ height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [depth, colorType, 0, 0, interlace])
    }

    /// A PNG from filtered scanlines (each starting with its filter byte) and extra chunks
    /// placed before IDAT.
    static func png(width: UInt32, height: UInt32, depth: UInt8, colorType: UInt8, interlace: UInt8 = 0,
                    chunks: [[UInt8]] = [], scanlines: [UInt8]) -> [UInt8] {
        signature + ihdr(width, height, depth: depth, colorType: colorType, interlace: interlace)
            + chunks.flatMap { $0 } + chunk("IDAT", zlibStored(scanlines)) + chunk("IEND", [])
    }
}
