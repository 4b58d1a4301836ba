/// A small zlib (RFC 1950) / deflate (RFC 1951) encoder: LZ77 with hash chains and the fixed
/// Huffman codes, one block. Enough for the PDF object stream (`PDFCompaction`), whose repetitive
/// dictionaries shrink about eightfold; not meant for pictures.
struct Deflate {
    private var bytes: [UInt8] = []
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0

    /// `data` as a zlib stream (FlateDecode).
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var d = Deflate()
        d.bytes = [0x78, 0x01]
        d.writeBits(1, 1)  // BFINAL
        d.writeBits(1, 2)  // BTYPE 01: fixed Huffman codes
        d.compress(data)
        d.writeLiteralOrLength(256)
        d.flush()
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        d.bytes += [UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8),
                    UInt8(truncatingIfNeeded: adler)]
        return d.bytes
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                     115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                       1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                        12, 12, 13, 13]

    /// Greedy LZ77 over a 32 KiB window, following up to 64 earlier positions with the same
    /// three-byte hash.
    private mutating func compress(_ data: [UInt8]) {
        let window = 32768, hashSize = 1 << 15
        var head = [Int](repeating: -1, count: hashSize)
        var previous = [Int](repeating: -1, count: data.count)
        func hash(_ i: Int) -> Int {
            (Int(data[i]) << 10 ^ Int(data[i + 1]) << 5 ^ Int(data[i + 2])) & (hashSize - 1)
        }
        func insert(_ i: Int) {
            guard i + 2 < data.count else { return }
            let h = hash(i)
            previous[i] = head[h]
            head[h] = i
        }
        var i = 0
        while i < data.count {
            var bestLength = 0, bestDistance = 0
            if i + 2 < data.count {
                var candidate = head[hash(i)], tries = 64
                let limit = min(258, data.count - i)
                while candidate >= 0, i - candidate <= window, tries > 0 {
                    var length = 0
                    while length < limit, data[candidate + length] == data[i + length] { length += 1 }
                    if length > bestLength { bestLength = length; bestDistance = i - candidate }
                    if length == limit { break }
                    candidate = previous[candidate]
                    tries -= 1
                }
            }
            if bestLength >= 3 {
                writeMatch(length: bestLength, distance: bestDistance)
                for k in i..<(i + bestLength) { insert(k) }
                i += bestLength
            } else {
                writeLiteralOrLength(Int(data[i]))
                insert(i)
                i += 1
            }
        }
    }

    private mutating func writeMatch(length: Int, distance: Int) {
        var code = Self.lengthBase.count - 1
        while Self.lengthBase[code] > length { code -= 1 }
        writeLiteralOrLength(257 + code)
        writeBits(UInt32(length - Self.lengthBase[code]), Self.lengthExtra[code])
        var d = Self.distanceBase.count - 1
        while Self.distanceBase[d] > distance { d -= 1 }
        writeHuffman(UInt32(d), 5)
        writeBits(UInt32(distance - Self.distanceBase[d]), Self.distanceExtra[d])
    }

    /// The fixed literal/length code of `symbol` (RFC 1951, 3.2.6).
    private mutating func writeLiteralOrLength(_ symbol: Int) {
        switch symbol {
        case 0...143: writeHuffman(UInt32(0x30 + symbol), 8)
        case 144...255: writeHuffman(UInt32(0x190 + symbol - 144), 9)
        case 256...279: writeHuffman(UInt32(symbol - 256), 7)
        default: writeHuffman(UInt32(0xC0 + symbol - 280), 8)
        }
    }

    /// Huffman codes go most significant bit first.
    private mutating func writeHuffman(_ code: UInt32, _ length: Int) {
        var reversed: UInt32 = 0
        for k in 0..<length where code & (1 << UInt32(k)) != 0 { reversed |= 1 << UInt32(length - 1 - k) }
        writeBits(reversed, length)
    }

    /// Other fields go least significant bit first.
    private mutating func writeBits(_ value: UInt32, _ count: Int) {
        guard count > 0 else { return }
        bitBuffer |= value << UInt32(bitCount)
        bitCount += count
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }

    private mutating func flush() {
        if bitCount > 0 { bytes.append(UInt8(truncatingIfNeeded: bitBuffer)) }
        bitBuffer = 0; bitCount = 0
    }
}
