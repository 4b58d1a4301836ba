/// HEIF files (HEIC and AVIF) built box by box around images that heif-enc or avifenc coded,
/// for tests and fuzz seeds: a coded image alone with any `ispe`, or a grid of them (Debian's
/// heif-enc cannot write one; cameras do: an iPhone's photo is 512x512 tiles), with any canvas,
/// its tiles sharing one image's data when asked. What libheif reads: ftyp, meta (hdlr, pitm,
/// iinf, iloc, iref, iprp with ipco and ipma, idat) and mdat.
package enum HEIFBytes {
    /// A coded image: its item type (`hvc1` or `av01`), its configuration box (`hvcC` or `av1C`,
    /// header included) and its data (what `iloc` points at).
    package struct Coded: Sendable {
        package var type: String
        package var config: [UInt8]
        package var data: [UInt8]
        package init(type: String, config: [UInt8], data: [UInt8]) {
            self.type = type; self.config = config; self.data = data
        }
    }

    /// The image of a file that heif-enc or avifenc wrote of one picture (no thumbnail, no
    /// alpha): its configuration box, found by its type, and its data, the whole of `mdat`.
    package static func coded(from file: [UInt8]) -> Coded? {
        func box(_ type: String) -> Range<Int>? {
            let name = Array(type.utf8)
            guard let at = (4..<max(4, file.count - 4)).first(where: { file[$0..<$0 + 4].elementsEqual(name) }) else { return nil }
            let size = Int(be32(file, at - 4))
            return at - 4..<min(file.count, at - 4 + (size == 0 ? file.count : size))
        }
        guard let mdat = box("mdat") else { return nil }
        if let hvcc = box("hvcC") { return Coded(type: "hvc1", config: Array(file[hvcc]), data: Array(file[mdat.lowerBound + 8..<mdat.upperBound])) }
        if let av1c = box("av1C") { return Coded(type: "av01", config: Array(file[av1c]), data: Array(file[mdat.lowerBound + 8..<mdat.upperBound])) }
        return nil
    }

    /// A file whose primary image is `coded`, with an `ispe` of `ispe`; with `alpha`, an alpha
    /// plane (an auxiliary image, `auxl`, whose `auxC` says alpha in its codec's words) of that
    /// coded image, with the same `ispe`.
    package static func single(_ coded: Coded, ispe: (width: Int, height: Int), alpha: Coded? = nil) -> [UInt8] {
        var items = [Item(id: 1, type: coded.type, hidden: false, data: .mdat(0, coded.data.count),
                          properties: [coded.config, ispeBox(ispe)])]
        var references: [(String, UInt16, [UInt16])] = []
        if let alpha {
            let urn = alpha.type == "av01" ? "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha" : "urn:mpeg:hevc:2015:auxid:1"
            items.append(Item(id: 2, type: alpha.type, hidden: true, data: .mdat(coded.data.count, alpha.data.count),
                              properties: [alpha.config, ispeBox(ispe), fullBox("auxC", Array(urn.utf8) + [0])]))
            references.append(("auxl", 2, [1]))
        }
        return file(brand: coded.type == "av01" ? "avif" : "heic", primary: 1, items: items, references: references,
                    idat: [], mdat: coded.data + (alpha?.data ?? []))
    }

    /// A grid (ISO/IEC 23008-12 6.6.2.3) of `columns` x `rows` hidden tiles, row by row: one of
    /// `tiles` each, or when there is one, that one everywhere (every tile's `iloc` pointing at
    /// the same data); on a canvas of `canvas` pixels (16-bit sizes in its description, 32-bit
    /// when a side is over 65535), its `ispe` `ispe` (the canvas when nil), its tiles' `ispe`
    /// `tileISPE`.
    package static func grid(_ tiles: [Coded], columns: Int, rows: Int, canvas: (width: Int, height: Int),
                             ispe: (width: Int, height: Int)? = nil, tileISPE: (width: Int, height: Int)) -> [UInt8] {
        let large = canvas.width > 65535 || canvas.height > 65535
        let size: (Int) -> [UInt8] = { large ? be32(UInt32($0)) : be16($0) }
        let gridData: [UInt8] = [0, large ? 1 : 0, UInt8(rows - 1), UInt8(columns - 1)] + size(canvas.width) + size(canvas.height)
        var items = [Item(id: 1, type: "grid", hidden: false, data: .idat(0, gridData.count), properties: [ispeBox(ispe ?? canvas)])]
        var mdat: [UInt8] = []
        for index in 0..<columns * rows {
            let tile = tiles[tiles.count == 1 ? 0 : index]
            if tiles.count > 1 || index == 0 { mdat += tile.data }
            let offset = tiles.count == 1 ? 0 : mdat.count - tile.data.count
            items.append(Item(id: UInt16(2 + index), type: tile.type, hidden: true, data: .mdat(offset, tile.data.count),
                              properties: [tile.config, ispeBox(tileISPE)]))
        }
        return file(brand: tiles[0].type == "av01" ? "avif" : "heic", primary: 1, items: items,
                    references: [("dimg", 1, (0..<columns * rows).map { UInt16(2 + $0) })], idat: gridData, mdat: mdat)
    }

    private enum Location {
        case mdat(Int, Int)       // offset in mdat's payload, length
        case idat(Int, Int)
    }

    private struct Item {
        var id: UInt16
        var type: String
        var hidden: Bool
        var data: Location
        var properties: [[UInt8]]   // whole boxes, each its own entry in ipco
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 255), UInt8(value & 255)] }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    private static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).dropFirst()) + payload)
    }

    private static func ispeBox(_ size: (width: Int, height: Int)) -> [UInt8] {
        fullBox("ispe", be32(UInt32(truncatingIfNeeded: size.width)) + be32(UInt32(truncatingIfNeeded: size.height)))
    }

    private static func file(brand: String, primary: UInt16, items: [Item], references: [(String, UInt16, [UInt16])],
                             idat: [UInt8], mdat: [UInt8]) -> [UInt8] {
        let ftyp = box("ftyp", Array(brand.utf8) + be32(0) + Array("mif1".utf8) + Array(brand.utf8) + Array("miaf".utf8))
        // Every property once, in order; each item's are its indexes.
        var properties: [[UInt8]] = []
        var associations: [[Int]] = []
        for item in items {
            associations.append(item.properties.map { property in
                if let index = properties.firstIndex(of: property) { return index + 1 }
                properties.append(property)
                return properties.count
            })
        }
        func meta(mdatPayload: Int) -> [UInt8] {
            let hdlr = fullBox("hdlr", be32(0) + Array("pict".utf8) + be32(0) + be32(0) + be32(0) + [0])
            let pitm = fullBox("pitm", be16(Int(primary)))
            let iinf = fullBox("iinf", be16(items.count) + items.flatMap { item in
                fullBox("infe", version: 2, flags: item.hidden ? 1 : 0, be16(Int(item.id)) + be16(0) + Array(item.type.utf8) + [0])
            })
            // Version 1: 4-byte offsets and lengths, no base offset, a construction method.
            let iloc = fullBox("iloc", version: 1, [0x44, 0x00] + be16(items.count) + items.flatMap { item -> [UInt8] in
                switch item.data {
                case let .mdat(offset, length): return be16(Int(item.id)) + be16(0) + be16(0) + be16(1) + be32(UInt32(mdatPayload + offset)) + be32(UInt32(length))
                case let .idat(offset, length): return be16(Int(item.id)) + be16(1) + be16(0) + be16(1) + be32(UInt32(offset)) + be32(UInt32(length))
                }
            })
            let iref = references.isEmpty ? [] : fullBox("iref", references.flatMap { type, from, to in
                box(type, be16(Int(from)) + be16(to.count) + to.flatMap { be16(Int($0)) })
            })
            let ipco = box("ipco", properties.flatMap { $0 })
            let ipma = fullBox("ipma", be32(UInt32(items.count)) + zip(items, associations).flatMap { item, indexes in
                be16(Int(item.id)) + [UInt8(indexes.count)] + indexes.map { UInt8(0x80 | $0) }
            })
            let iprp = box("iprp", ipco + ipma)
            return fullBox("meta", hdlr + pitm + iinf + iloc + iref + iprp + (idat.isEmpty ? [] : box("idat", idat)))
        }
        // The sizes do not depend on the offsets: lay out once to learn where mdat's payload is.
        let payload = ftyp.count + meta(mdatPayload: 0).count + 8
        return ftyp + meta(mdatPayload: payload) + box("mdat", mdat)
    }
}
