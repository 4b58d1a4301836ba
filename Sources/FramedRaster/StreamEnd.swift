/// Where a picture that comes as a stream (a pipe, standard input, a device) ends, told by its
/// own structure as its bytes arrive, so that nothing after it is read: a PNG ends with its IEND
/// chunk, a JPEG with its EOI marker, a WebP where its RIFF header says, a GIF at its trailer,
/// a HEIF or AVIF after its last box (at the first bytes that are no box). A TIFF or an SVG has
/// no end of its own: it is read to the end of the stream. Bytes that break the structure end
/// the picture where they start (the decoder then finds it cut short), so that a stream of
/// zeros after a picture's start is not read either.
struct StreamEnd {
    private let format: PictureFormat
    /// The offset of the next thing to look at: a chunk, a marker, a box, a block.
    private var next: Int
    /// JPEG: inside a scan's entropy-coded data. GIF: inside a run of sub-blocks. HEIF: inside a
    /// box that runs to the end of the stream.
    private var inData = false
    /// The end, once found.
    private var found: Int?
    /// JPEG: the picture's 8x8 blocks (from its frame header, 0 before it), and where the scan
    /// being read started.
    private var blocks = 0
    private var scanStart = 0

    /// The most bytes of entropy-coded data a scan may hold for each block of the picture: a
    /// block's Huffman codes and values take at most about 240 bytes, twice that when every byte
    /// is a 0xFF that needs a 0x00 after it, and restart markers a few bytes more. Data that
    /// goes on longer without a marker is no part of the picture (a JPEG without its end marker,
    /// then zeros): the picture ends there.
    static let scanBytesPerBlock = 512

    /// For a stream that starts as `format` (sniffed from its first bytes).
    init(_ format: PictureFormat) {
        self.format = format
        switch format {
        case .png: next = 8
        case .jpeg: next = 2
        default: next = 0
        }
    }

    /// Where the picture ends at the earliest, as far as its structure has been followed: where
    /// the next chunk, box, segment or block starts (a PNG chunk that claims 2 GB puts it 2 GB
    /// on). 0 for a format without an end of its own.
    var atLeast: Int { inData && (format == .heif || format == .avif) ? 0 : next }

    /// The offset just past the picture, once the bytes read so far (`bytes`, the stream from its
    /// start) show it; it may lie beyond them (a chunk's length is known before its data). nil
    /// while more bytes are needed, and always for a format without an end of its own.
    mutating func end(in bytes: [UInt8]) -> Int? {
        if let found { return found }
        switch format {
        case .png: found = png(bytes)
        case .jpeg: found = jpeg(bytes)
        case .webp: found = webp(bytes)
        case .gif: found = gif(bytes)
        case .heif, .avif: found = boxes(bytes)
        default: break
        }
        return found
    }

    private static func be32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    private static func isLetters(_ b: [UInt8], _ at: Int, printable: Bool = false) -> Bool {
        b[at..<at + 4].allSatisfy { printable ? (0x20...0x7E).contains($0) : (0x41...0x5A).contains($0 & 0xDF) }
    }

    /// Chunks: a length, a type of four letters, the data, a CRC; IEND is the last.
    private mutating func png(_ b: [UInt8]) -> Int? {
        while next + 8 <= b.count {
            let length = Self.be32(b, next)
            guard length <= 0x7FFF_FFFF, Self.isLetters(b, next + 4) else { return next }
            if b[next + 4..<next + 8].elementsEqual("IEND".utf8) { return next + 12 + length }
            next += 12 + length
        }
        return nil
    }

    /// Markers and their segments; each scan's entropy-coded data runs to the first 0xFF that is
    /// not a stuffed byte (0xFF 0x00), a restart marker or fill; EOI is the end.
    private mutating func jpeg(_ b: [UInt8]) -> Int? {
        while next < b.count {
            if inData {
                let cap = scanStart + blocks * Self.scanBytesPerBlock + (1 << 16)
                guard let ff = b[next..<min(b.count, cap)].firstIndex(of: 0xFF) else {
                    next = min(b.count, cap)
                    return next == cap ? cap : nil
                }
                guard ff + 1 < b.count else {
                    next = ff
                    return nil
                }
                let code = b[ff + 1]
                if code == 0x00 || code == 0xFF || (0xD0...0xD7).contains(code) {
                    next = ff + 1
                } else {
                    inData = false
                    next = ff
                }
                continue
            }
            // Bytes between segments that are no marker are passed over, as libjpeg does.
            guard b[next] == 0xFF else { next += 1; continue }
            var at = next + 1
            while at < b.count, b[at] == 0xFF { at += 1 }
            guard at < b.count else { return nil }
            let code = b[at]
            switch code {
            case 0xD9: return at + 1
            case 0x00, 0x01, 0xD0...0xD8: next = at + 1
            default:
                guard at + 2 < b.count else { return nil }
                let length = Int(b[at + 1]) << 8 | Int(b[at + 2])
                if (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC {
                    guard at + 1 + length <= b.count else { return nil }
                    blocks = Self.frameBlocks(b[at + 1..<at + 1 + length])
                }
                next = at + 1 + length
                inData = code == 0xDA
                scanStart = next
            }
        }
        return nil
    }

    /// The 8x8 blocks of every component of a JPEG frame header (its length field first): each
    /// component's samples, the picture's size times its sampling factors over the largest,
    /// in blocks rounded up.
    static func frameBlocks(_ segment: ArraySlice<UInt8>) -> Int {
        let s = Array(segment)
        guard s.count >= 8 else { return 0 }
        let height = Int(s[3]) << 8 | Int(s[4]), width = Int(s[5]) << 8 | Int(s[6]), count = Int(s[7])
        guard s.count >= 8 + 3 * count else { return 0 }
        let sampling = (0..<count).map { (h: max(1, Int(s[9 + 3 * $0] >> 4)), v: max(1, Int(s[9 + 3 * $0] & 15))) }
        let hMax = sampling.map(\.h).max() ?? 1, vMax = sampling.map(\.v).max() ?? 1
        return sampling.reduce(0) { total, c in
            total + ((width * c.h + hMax - 1) / hMax + 7) / 8 * (((height * c.v + vMax - 1) / vMax + 7) / 8)
        }
    }

    /// "RIFF", the size of what follows, "WEBP": the size says where it ends.
    private mutating func webp(_ b: [UInt8]) -> Int? {
        guard b.count >= 8 else { return nil }
        let size = Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24
        return 8 + size + (size & 1)
    }

    /// The header and its colour table, then blocks: an extension (0x21, a label and
    /// sub-blocks), an image (0x2C, its descriptor, its colour table, the LZW code size and
    /// sub-blocks), the trailer (0x3B) that ends it.
    private mutating func gif(_ b: [UInt8]) -> Int? {
        if next == 0 {
            guard b.count >= 13 else { return nil }
            next = 13 + (b[10] & 0x80 != 0 ? 3 << (Int(b[10] & 7) + 1) : 0)
        }
        while next < b.count {
            if inData {
                if b[next] == 0 { inData = false }
                next += 1 + Int(b[next])
                continue
            }
            switch b[next] {
            case 0x3B: return next + 1
            case 0x21:
                next += 2
                inData = true
            case 0x2C:
                guard next + 10 <= b.count else { return nil }
                let flags = b[next + 9]
                next += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                inData = true
            default: return next
            }
        }
        return nil
    }

    /// Boxes: a 32-bit size (1: a 64-bit one follows the type; 0: the box runs to the end of the
    /// stream) and a type of four printable characters.
    private mutating func boxes(_ b: [UInt8]) -> Int? {
        while !inData, next + 8 <= b.count {
            guard Self.isLetters(b, next + 4, printable: true) else { return next }
            var size = Self.be32(b, next)
            if size == 1 {
                guard next + 16 <= b.count else { return nil }
                let high = Self.be32(b, next + 8), low = Self.be32(b, next + 12)
                guard high < 1 << 30 else { return next }
                size = high << 32 | low
                guard size >= 16 else { return next }
            } else if size == 0 {
                inData = true
                return nil
            } else if size < 8 {
                return next
            }
            next += size
        }
        return nil
    }
}
