/// TIFF files built byte by byte, uncompressed, for tests and fuzz seeds: every field that the
/// decoder reads is set here on purpose (`tiffcp` from libtiff-tools recompresses them).
package struct TIFFPage: Sendable {
    package var width: Int
    package var height: Int
    package var bitsPerSample = 8
    package var samplesPerPixel: Int
    /// 0 min-is-white, 1 min-is-black, 2 RGB, 3 palette, 5 separated (CMYK).
    package var photometric: Int
    /// The samples, `samplesPerPixel` a pixel, row by row, each below 2^bitsPerSample.
    package var samples: [UInt16]
    /// ExtraSamples: 0 unspecified, 1 associated alpha, 2 unassociated alpha.
    package var extraSamples: [Int] = []
    /// 1 contiguous, 2 planar (a plane per sample).
    package var planar = 1
    /// Rows a strip (nil: 2 rows), or tiles of this size (multiples of 16).
    package var rowsPerStrip: Int? = nil
    package var tile: (width: Int, height: Int)? = nil
    /// The Orientation tag (nil: none).
    package var orientation: Int? = nil
    /// XResolution and YResolution, and ResolutionUnit (2 inch, 3 centimetre).
    package var resolution: (value: Int, unit: Int)? = nil
    /// The ICC profile tag.
    package var icc: [UInt8]? = nil
    /// The palette: 3 * 2^bitsPerSample 16-bit entries, reds then greens then blues.
    package var colorMap: [UInt16]? = nil
    /// NewSubfileType (1: a reduced-resolution version of the page before).
    package var subfileType: Int? = nil
    /// SampleFormat (nil: none, unsigned integers); 3 is floating point.
    package var sampleFormat: Int? = nil

    package init(width: Int, height: Int, bitsPerSample: Int = 8, samplesPerPixel: Int, photometric: Int,
                 samples: [UInt16]) {
        precondition(samples.count == width * height * samplesPerPixel)
        self.width = width; self.height = height; self.bitsPerSample = bitsPerSample
        self.samplesPerPixel = samplesPerPixel; self.photometric = photometric; self.samples = samples
    }

    /// An RGBA8 picture's pixels as an RGB (or, with `alpha`, RGBA with unassociated alpha) page.
    package init(rgba pixels: [UInt8], width: Int, height: Int, alpha: Bool) {
        let channels = alpha ? 4 : 3
        var samples = [UInt16]()
        samples.reserveCapacity(width * height * channels)
        for i in stride(from: 0, to: pixels.count, by: 4) { samples += pixels[i..<i + channels].map(UInt16.init) }
        self.init(width: width, height: height, samplesPerPixel: channels, photometric: 2, samples: samples)
        if alpha { extraSamples = [2] }
    }
}

extension PictureBytes {
    /// A little- or big-endian TIFF of these pages (the first is the first directory).
    package static func tiff(_ pages: [TIFFPage], bigEndian: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8 & 255), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8 & 255)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? be32(UInt32(v)) : be32(UInt32(v)).reversed() }
        var file: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(0)
        var previousNext = 4  // where the offset of the next directory goes
        for page in pages {
            // The image data: strips or tiles, plane after plane when planar.
            let planes = page.planar == 2 ? page.samplesPerPixel : 1
            let perPixel = page.planar == 2 ? 1 : page.samplesPerPixel
            let chunkWidth = page.tile?.width ?? page.width
            let chunkHeight = page.tile?.height ?? (page.rowsPerStrip ?? 2)
            let across = (page.width + chunkWidth - 1) / chunkWidth, down = (page.height + chunkHeight - 1) / chunkHeight
            var offsets: [Int] = [], counts: [Int] = []
            for plane in 0..<planes {
                for cy in 0..<down {
                    for cx in 0..<across {
                        let rows = page.tile == nil ? min(chunkHeight, page.height - cy * chunkHeight) : chunkHeight
                        var chunk: [UInt8] = []
                        for r in 0..<rows {
                            var bits: [Int] = []  // values of this row, packed below
                            for c in 0..<chunkWidth {
                                let x = cx * chunkWidth + c, y = cy * chunkHeight + r
                                for s in 0..<perPixel {
                                    let sample = page.planar == 2 ? plane : s
                                    let inside = x < page.width && y < page.height
                                    bits.append(inside ? Int(page.samples[(y * page.width + x) * page.samplesPerPixel + sample]) : 0)
                                }
                            }
                            chunk += pack(bits, depth: page.bitsPerSample, bigEndian: bigEndian)
                        }
                        offsets.append(file.count)
                        counts.append(chunk.count)
                        file += chunk
                        if file.count % 2 == 1 { file.append(0) }
                    }
                }
            }
            // The directory.
            var entries: [(tag: Int, type: Int, count: Int, value: [UInt8])] = []
            func short(_ tag: Int, _ values: [Int]) { entries.append((tag, 3, values.count, values.flatMap(u16))) }
            func long(_ tag: Int, _ values: [Int]) { entries.append((tag, 4, values.count, values.flatMap(u32))) }
            if let subfile = page.subfileType { long(254, [subfile]) }
            long(256, [page.width])
            long(257, [page.height])
            short(258, Array(repeating: page.bitsPerSample, count: page.samplesPerPixel))
            short(259, [1])
            short(262, [page.photometric])
            if page.tile == nil { long(273, offsets) }
            if let orientation = page.orientation { short(274, [orientation]) }
            short(277, [page.samplesPerPixel])
            if page.tile == nil {
                long(278, [chunkHeight])
                long(279, counts)
            }
            if let resolution = page.resolution {
                entries.append((282, 5, 1, u32(resolution.value) + u32(1)))
                entries.append((283, 5, 1, u32(resolution.value) + u32(1)))
            }
            short(284, [page.planar])
            if let resolution = page.resolution { short(296, [resolution.unit]) }
            if let colorMap = page.colorMap { short(320, colorMap.map(Int.init)) }
            if let tile = page.tile {
                long(322, [tile.width])
                long(323, [tile.height])
                long(324, offsets)
                long(325, counts)
            }
            if page.photometric == 5 { short(332, [1]) }
            if !page.extraSamples.isEmpty { short(338, page.extraSamples) }
            if let format = page.sampleFormat { short(339, Array(repeating: format, count: page.samplesPerPixel)) }
            if let icc = page.icc { entries.append((34675, 7, icc.count, icc)) }
            entries.sort { $0.tag < $1.tag }
            let directory = file.count
            let valuesStart = directory + 2 + entries.count * 12 + 4
            var values: [UInt8] = []
            var ifd = u16(entries.count)
            for entry in entries {
                ifd += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if entry.value.count <= 4 {
                    ifd += entry.value + Array(repeating: 0, count: 4 - entry.value.count)
                } else {
                    ifd += u32(valuesStart + values.count)
                    values += entry.value
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            file.replaceSubrange(previousNext..<previousNext + 4, with: u32(directory))
            previousNext = directory + 2 + entries.count * 12
            file += ifd + u32(0) + values
        }
        return file
    }

    /// Samples of `depth` bits packed into bytes, most significant bit first (16-bit ones in
    /// the file's byte order), the last byte padded.
    private static func pack(_ values: [Int], depth: Int, bigEndian: Bool) -> [UInt8] {
        switch depth {
        case 8: return values.map { UInt8($0) }
        case 16: return values.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 255)] : [UInt8($0 & 255), UInt8($0 >> 8)] }
        case 32: return values.flatMap { v -> [UInt8] in
            let b = be32(UInt32(truncatingIfNeeded: v))
            return bigEndian ? b : b.reversed()
        }
        default:
            var bytes = [UInt8](repeating: 0, count: (values.count * depth + 7) / 8)
            for (i, v) in values.enumerated() {
                let bit = i * depth
                bytes[bit / 8] |= UInt8(truncatingIfNeeded: v << (8 - depth - bit % 8))
            }
            return bytes
        }
    }
}

extension PictureBytes {
    /// A GIF89a of `frames` (each `width` x `height` colour indices into `palette`, RGB triples,
    /// at most 256 colours), a graphic control extension before each with its transparent index
    /// when given; LZW-coded without compression (9-bit codes, a clear code every 254), which
    /// every decoder reads. For tests and fuzz seeds.
    package static func gif(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], frames: [[UInt8]],
                            transparent: Int? = nil, interlaced: Bool = false) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        let size = 1 << bits
        var out = Array("GIF89a".utf8) + u16(width) + u16(height) + [0x80 | UInt8(bits - 1), 0, 0]
        for i in 0..<size { out += i < palette.count ? [palette[i].0, palette[i].1, palette[i].2] : [0, 0, 0] }
        for frame in frames {
            let flags: UInt8 = transparent == nil ? 0 : 1
            out += [0x21, 0xF9, 4, flags, 10, 0, UInt8(transparent ?? 0), 0]
            out += [0x2C] + u16(0) + u16(0) + u16(width) + u16(height) + [interlaced ? 0x40 : 0]
            // Rows in the order an interlaced GIF stores them.
            var rows = Array(0..<height)
            if interlaced {
                rows = stride(from: 0, to: height, by: 8).map { $0 } + stride(from: 4, to: height, by: 8).map { $0 }
                    + stride(from: 2, to: height, by: 4).map { $0 } + stride(from: 1, to: height, by: 2).map { $0 }
            }
            let indices = rows.flatMap { frame[$0 * width..<($0 + 1) * width] }
            // LZW with minimum code size 8: clear (256), literals as 9-bit codes, end (257).
            var codes: [Int] = [256]
            for (n, index) in indices.enumerated() {
                if n > 0 && n % 254 == 0 { codes.append(256) }
                codes.append(Int(index))
            }
            codes.append(257)
            var data: [UInt8] = []
            var accumulator = 0, count = 0
            for code in codes {
                accumulator |= code << count
                count += 9
                while count >= 8 {
                    data.append(UInt8(accumulator & 255))
                    accumulator >>= 8
                    count -= 8
                }
            }
            if count > 0 { data.append(UInt8(accumulator & 255)) }
            out.append(8)
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                out += [UInt8(block.count)] + block
            }
            out.append(0)
        }
        return out + [0x3B]
    }
}
