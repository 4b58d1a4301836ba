internal import FramedSystem

/// framed's mark on the pictures it writes, by which a later run tells its own earlier outputs
/// from a user's pictures of the same name (a folder walked with a template that writes into
/// it): `Software` `framed` in a PNG (a `tEXt` chunk before the pixels) and in a TIFF (tag
/// 305), a `COM` segment `framed` before a JPEG's profile, and `<!-- framed -->` after an SVG's
/// XML declaration. A copy keeps the mark; a program that writes the picture anew drops it.
package enum OutputMark {
    /// The text of the mark: no version, so that outputs stay the same bytes from one version
    /// to the next where nothing else changed.
    package static let software = "framed"

    /// The line that follows an SVG's XML declaration.
    package static let svgComment = "<!-- framed -->"

    /// How far into a file the mark is looked for (a TIFF's first directory aside): it is within
    /// the first hundred bytes of a PNG, a JPEG or an SVG framed writes.
    static let headLength = 4096

    /// Whether the regular file at `path` carries the mark. Nothing else is read than its head
    /// (and a TIFF's first directory); a file that cannot be read is not marked.
    package static func isMarked(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.openRegularFile(path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upTo: headLength) else { return false }
        switch PictureFormat.sniff(head) {
        case .png?: return pngIsMarked(head)
        case .jpeg?: return jpegIsMarked(head)
        case .svg?: return svgIsMarked(head)
        case .tiff?: return tiffIsMarked(head) { offset, count in try? file.read(at: offset, count: count) }
        default: return false
        }
    }

    /// A `tEXt` chunk `Software\0framed` among the chunks before the first IDAT.
    static func pngIsMarked(_ head: [UInt8]) -> Bool {
        let wanted = Array("tEXtSoftware".utf8) + [0] + Array(software.utf8)
        var at = 8
        while at + 8 <= head.count {
            let length = head[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = head[at + 4..<at + 8]
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return false }
            if length == wanted.count - 4, at + 4 + wanted.count <= head.count, head[at + 4..<at + 4 + wanted.count].elementsEqual(wanted) {
                return true
            }
            at += 12 + length
        }
        return false
    }

    /// A `COM` segment `framed` among the segments before the first scan.
    static func jpegIsMarked(_ head: [UInt8]) -> Bool {
        let wanted = Array(software.utf8)
        var at = 2
        while at + 4 <= head.count, head[at] == 0xFF {
            let marker = head[at + 1]
            if marker == 0xDA || marker == 0xD9 { return false }
            let length = Int(head[at + 2]) << 8 | Int(head[at + 3])
            if marker == 0xFE, length == 2 + wanted.count, at + 4 + wanted.count <= head.count,
               head[at + 4..<at + 4 + wanted.count].elementsEqual(wanted) {
                return true
            }
            at += 2 + length
        }
        return false
    }

    /// `<!-- framed -->` on the line after the XML declaration.
    static func svgIsMarked(_ head: [UInt8]) -> Bool {
        guard let declarationEnd = head.firstIndex(of: UInt8(ascii: "\n")) else { return false }
        return head[(declarationEnd + 1)...].starts(with: svgComment.utf8)
    }

    /// Tag 305 (Software) of the first directory, `framed` (with its terminating zero); `read`
    /// gives bytes at an offset of the file (the directory is often at its end).
    static func tiffIsMarked(_ head: [UInt8], read: (_ offset: Int, _ count: Int) -> [UInt8]?) -> Bool {
        guard head.count >= 8 else { return false }
        let little = head[0] == 0x49
        func number(_ bytes: ArraySlice<UInt8>) -> Int {
            (little ? bytes.reversed() : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        let directory = number(head[4..<8])
        guard let countBytes = read(directory, 2), countBytes.count == 2 else { return false }
        let count = number(countBytes[...])
        guard count > 0, count < 4096, let entries = read(directory + 2, 12 * count), entries.count == 12 * count else {
            return false
        }
        let wanted = Array(software.utf8) + [0]
        for index in 0..<count {
            let entry = entries[(12 * index)..<(12 * index + 12)]
            let base = entry.startIndex
            guard number(entry[base..<base + 2]) == 305 else { continue }
            // ASCII (type 2), its length with the zero; up to 4 bytes are held in the entry itself.
            guard number(entry[base + 2..<base + 4]) == 2, number(entry[base + 4..<base + 8]) == wanted.count else { return false }
            let value = wanted.count <= 4 ? Array(entry[base + 8..<base + 8 + wanted.count])
                : read(number(entry[base + 8..<base + 12]), wanted.count)
            return value == wanted
        }
        return false
    }
}
