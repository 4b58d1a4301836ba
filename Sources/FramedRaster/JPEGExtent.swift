internal import FramedSystem

/// A JPEG's structure from its markers, read without decoding: where its data ends, and how much
/// work its scans ask for.
///
/// A file may go on past its EOI marker (a phone's "motion photo" appends its video; some tools
/// append thumbnails or padding): those bytes are no part of the picture, and a JPEG embedded
/// byte for byte stops there. A progressive file's scans each pass over the blocks of their
/// components, so their number is the decode's work, whatever the file's size: a small file
/// can claim a huge picture and hundreds of scans (each coded with end-of-band runs of
/// thousands of blocks in a few bits), and is refused before it is decoded.
package enum JPEGExtent {
    /// What the markers say.
    package struct Structure: Equatable {
        /// The offset just past the EOI marker; the input's size when there is none (a file cut
        /// short).
        package var end: Int
        /// How many scans (SOS markers) there are.
        package var scans = 0
        /// How many times the scans go over the picture's blocks, all told: a scan over every
        /// component counts 1, one over a component that holds a third of the blocks counts 1/3.
        /// A baseline file has 1; libjpeg's default progressive script about 5.3.
        package var passes = 0.0
        /// The picture's pixels, as its frame header (SOF) says; 0 without one.
        package var pixels = 0
    }

    /// The most scans a progressive JPEG may have (each is a pass over the blocks of its
    /// components); encoders write about 10.
    static let maximumScans = 500

    /// The most passes over the picture's blocks (`Structure.passes`) a JPEG may ask for: more
    /// than ten times a default progressive script, and more than a script that codes each of
    /// the 63 AC bands of each component in a scan of its own (64 passes).
    static let maximumPasses = 70.0

    /// The most passes over the picture's pixels a JPEG may ask for in all, in multiples of the
    /// pixel limit (`Structure.passes` times `Structure.pixels`, at most this times `maxPixels`):
    /// the work of a scan grows with the picture, so the passes allowed shrink as it grows. A
    /// picture at the limit may take 16 passes, three times libjpeg's default script (5.3); at
    /// the default limit of 256 megapixels a 24-megapixel photo may take 170 (`maximumPasses`
    /// stops it at 70), a 16000x16000 picture 16: in 69 scans over every block it is refused.
    static let maximumPixelPasses = 16.0

    /// The offset just past the EOI marker that ends the JPEG at the start of `input` (the whole
    /// input when there is none).
    static func end(of input: borrowing PictureInput) throws(RasterError) -> Int {
        try structure(of: input).end
    }

    /// Refuses (`.corrupt`) a progressive or arithmetic-coded JPEG whose scans are more than
    /// `maximumScans`, go over its blocks more than `maximumPasses` times, or go over more than
    /// `maximumPixelPasses` times `maxPixels` pixels in all, before any of them is decoded. A
    /// sequential Huffman-coded file is not walked: each of its scans costs at least a bit a
    /// block of the file's bytes (`ccodecs_jpeg_could_hold_blocks`), so its work is bounded by
    /// its size; arithmetic coding spends less, and a progressive scan codes runs of thousands
    /// of empty blocks in a few bits.
    package static func checkScans(of input: borrowing PictureInput, maxPixels: Int) throws(RasterError) {
        guard try needsCounting(input) else { return }
        let structure = try structure(of: input)
        if structure.scans > maximumScans {
            throw .corrupt(.jpeg, "\(structure.scans) scans, more than \(maximumScans) (a pathological JPEG)")
        }
        let passes = String(printf: "%.1f", structure.passes)
        if structure.passes > maximumPasses {
            throw .corrupt(.jpeg, "its scans go over the picture \(passes) times, more than \(Int(maximumPasses)) (a pathological JPEG)")
        }
        if structure.passes * Double(structure.pixels) > maximumPixelPasses * Double(max(0, maxPixels)) {
            throw .corrupt(.jpeg, "its scans go over its \(structure.pixels) pixels \(passes) times, more than \(Int(maximumPixelPasses)) "
                                  + "times the pixel limit in all (a pathological JPEG)")
        }
    }

    /// Whether the frame header (the first SOF marker) is a progressive one (SOF2, SOF6, SOF10,
    /// SOF14) or an arithmetic-coded one (SOF9 to SOF15); the segments before it are all that
    /// is read.
    static func needsCounting(_ input: borrowing PictureInput) throws(RasterError) -> Bool {
        var reader = Reader(count: input.count)
        var offset = 2
        while let first = try reader.byte(at: offset, in: input), first == 0xFF {
            var at = offset + 1
            var code = try reader.byte(at: at, in: input)
            while code == 0xFF {
                at += 1
                code = try reader.byte(at: at, in: input)
            }
            guard let marker = code, marker != 0xD9, marker != 0xDA else { return false }
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                return [0xC2, 0xC6].contains(marker) || marker >= 0xC9
            }
            guard let length = try reader.word(at: at + 1, in: input) else { return false }
            offset = at + 1 + length
        }
        return false
    }

    /// Walks the markers from SOI: each segment skipped by its length, each scan's entropy-coded
    /// data up to the next marker that is not a restart or a stuffed 0xFF; the frame header (SOF)
    /// gives the components' blocks, each scan header (SOS) the components it covers. Reads the
    /// file a window at a time.
    package static func structure(of input: borrowing PictureInput) throws(RasterError) -> Structure {
        var reader = Reader(count: input.count)
        var structure = Structure(end: input.count)
        var blocks: [Int: Int] = [:]  // component id → blocks
        var offset = 2  // past SOI
        while true {
            // The next marker: 0xFF, any number of fill bytes 0xFF, then its code.
            guard let first = try reader.byte(at: offset, in: input) else { return structure }
            guard first == 0xFF else { offset += 1; continue }
            var at = offset + 1
            var code = try reader.byte(at: at, in: input)
            while code == 0xFF {
                at += 1
                code = try reader.byte(at: at, in: input)
            }
            guard let marker = code else { return structure }
            switch marker {
            case 0xD9:
                structure.end = at + 1
                return structure
            case 0x00, 0x01, 0xD0...0xD7:
                offset = at + 1
            default:
                guard let length = try reader.word(at: at + 1, in: input) else { return structure }
                let segment = at + 1
                offset = segment + length
                switch marker {
                case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                    (blocks, structure.pixels) = try frameBlocks(at: segment, reader: &reader, input: input)
                case 0xDA:
                    structure.scans += 1
                    structure.passes += try scanPasses(at: segment, blocks: blocks, reader: &reader, input: input)
                    offset = try endOfScan(from: offset, reader: &reader, input: input) ?? input.count
                default:
                    break
                }
            }
        }
    }

    /// Each component's blocks, from the frame header whose length field is at `segment`: its
    /// samples are the picture's size times its sampling factors over the largest, in 8x8
    /// blocks rounded up; and the picture's pixels.
    private static func frameBlocks(at segment: Int, reader: inout Reader,
                                    input: borrowing PictureInput) throws(RasterError) -> (blocks: [Int: Int], pixels: Int) {
        guard let height = try reader.word(at: segment + 3, in: input), let width = try reader.word(at: segment + 5, in: input),
              let count = try reader.byte(at: segment + 7, in: input) else { return ([:], 0) }
        var components: [(id: Int, h: Int, v: Int)] = []
        for index in 0..<Int(count) {
            guard let id = try reader.byte(at: segment + 8 + 3 * index, in: input),
                  let sampling = try reader.byte(at: segment + 9 + 3 * index, in: input) else { return ([:], width * height) }
            components.append((Int(id), max(1, Int(sampling >> 4)), max(1, Int(sampling & 15))))
        }
        let hMax = components.map(\.h).max() ?? 1, vMax = components.map(\.v).max() ?? 1
        var blocks: [Int: Int] = [:]
        for component in components {
            let samplesWide = (width * component.h + hMax - 1) / hMax, samplesHigh = (height * component.v + vMax - 1) / vMax
            blocks[component.id] = ((samplesWide + 7) / 8) * ((samplesHigh + 7) / 8)
        }
        return (blocks, width * height)
    }

    /// The share of the picture's blocks that the scan whose header's length field is at
    /// `segment` goes over.
    private static func scanPasses(at segment: Int, blocks: [Int: Int], reader: inout Reader,
                                   input: borrowing PictureInput) throws(RasterError) -> Double {
        let total = blocks.values.reduce(0, +)
        guard total > 0, let count = try reader.byte(at: segment + 2, in: input) else { return 1 }
        var covered = 0
        for index in 0..<Int(count) {
            guard let id = try reader.byte(at: segment + 3 + 2 * index, in: input) else { break }
            covered += blocks[Int(id)] ?? 0
        }
        return Double(covered) / Double(total)
    }

    /// The offset of the marker that ends a scan's entropy-coded data starting at `offset`: the
    /// first 0xFF followed by a byte that is neither 0x00 (a stuffed 0xFF) nor a restart marker
    /// (RST0-RST7). Nil when the input ends first.
    private static func endOfScan(from offset: Int, reader: inout Reader, input: borrowing PictureInput) throws(RasterError) -> Int? {
        var at = offset
        while let found = try reader.next(0xFF, from: at, in: input) {
            if let next = try reader.byte(at: found + 1, in: input), next != 0x00, !(0xD0...0xD7).contains(next), next != 0xFF {
                return found
            }
            at = found + 1
        }
        return nil
    }

    /// Bytes of the input read 64 KB at a time, the window kept between calls.
    private struct Reader {
        var count: Int
        var start = 0
        var window: [UInt8] = []

        /// The byte at `offset`, nil past the end.
        mutating func byte(at offset: Int, in input: borrowing PictureInput) throws(RasterError) -> UInt8? {
            guard offset < count, offset >= 0 else { return nil }
            if offset < start || offset >= start + window.count {
                start = offset
                window = try input.bytes(from: offset, count: min(1 << 16, count - offset))
                guard !window.isEmpty else { return nil }
            }
            return window[offset - start]
        }

        /// The big-endian 16-bit word at `offset`, nil past the end.
        mutating func word(at offset: Int, in input: borrowing PictureInput) throws(RasterError) -> Int? {
            guard let high = try byte(at: offset, in: input), let low = try byte(at: offset + 1, in: input) else { return nil }
            return Int(high) << 8 | Int(low)
        }

        /// The offset of the first `value` at or after `offset`, nil when there is none.
        mutating func next(_ value: UInt8, from offset: Int, in input: borrowing PictureInput) throws(RasterError) -> Int? {
            var at = offset
            while try byte(at: at, in: input) != nil {
                if let found = window[(at - start)...].firstIndex(of: value) { return start + found }
                at = start + window.count
            }
            return nil
        }
    }
}
