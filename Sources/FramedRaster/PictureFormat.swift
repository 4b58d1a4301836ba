/// Picture file formats, recognised by their first bytes.
public enum PictureFormat: String, Sendable, CaseIterable {
    /// PNG (`89 50 4E 47 0D 0A 1A 0A`): decoded, alpha and interlacing included; 16-bit
    /// samples are brought to 8 bits.
    case png
    /// JPEG (`FF D8 FF`): decoded, including CMYK and progressive pictures; an untouched one
    /// may be passed through byte for byte into SVG and PDF.
    case jpeg
    /// WebP (`RIFF....WEBP`): decoded, lossy or lossless, with alpha; an animation gives its
    /// first frame.
    case webp
    /// GIF (`GIF87a`, `GIF89a`): decoded, its first frame with its transparency.
    case gif
    /// TIFF, either byte order, classic or BigTIFF: decoded, its first page.
    case tiff
    /// Windows bitmap (`BM` with a known header size): recognised, not decoded.
    case bmp
    /// HEIF/HEIC (an ISO base media `ftyp` box with a HEIF brand): decoded, its primary image.
    case heif
    /// AVIF (an `ftyp` box with the `avif` or `avis` brand): decoded, its primary image.
    case avif
    /// JPEG XL, bare codestream or container: recognised, not decoded.
    case jxl
    /// SVG (XML text whose root element is `svg`): drawn by librsvg, as vectors in SVG and PDF
    /// output (FramedRender's `SVGDocument`), never decoded to pixels here.
    case svg

    /// Whether pictures of this format are usually stored without loss (PNG, TIFF, GIF: screenshots,
    /// scans, diagrams, whose text JPEG would blur): SVG and PDF keep them lossless.
    package var isLossless: Bool { self == .png || self == .tiff || self == .gif }

    /// The name users know, for messages.
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .gif: "GIF"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .jxl: "JPEG XL"
        case .svg: "SVG"
        }
    }

    /// How many of a file's first bytes `sniff` wants: the magic numbers take 32; an SVG's root
    /// element may come after an XML declaration, comments and a DOCTYPE.
    package static let sniffLength = 4096

    /// The format these bytes start with (magic numbers, never the file name), or nil. Give it
    /// the first `sniffLength` bytes (fewer at the end of the file).
    package static func sniff(_ bytes: some Collection<UInt8>) -> PictureFormat? {
        let b = Array(bytes.prefix(32))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return .webp }
        if ascii("GIF87a") || ascii("GIF89a") { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
            || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jxl
        }
        if ascii("ftyp", at: 4) && b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return .avif }
            if ["heic", "heix", "hevc", "hevx", "heim", "heis"].contains(brand) { return .heif }
            if ["mif1", "msf1"].contains(brand) {
                // A general major brand: the compatible brands (after the minor version) that fit
                // in the bytes looked at say which codec; HEIF when none does.
                let size = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
                let compatible = stride(from: 16, to: min(size, b.count) - 3, by: 4).map {
                    String(decoding: b[$0..<$0 + 4], as: UTF8.self)
                }
                return compatible.contains { ["avif", "avis"].contains($0) } ? .avif : .heif
            }
        }
        // "BM" alone is too common; also require a known DIB header size.
        if ascii("BM") && b.count >= 18 && [12, 40, 52, 56, 64, 108, 124].contains(Int(b[14]) | Int(b[15]) << 8)
            && b[16] == 0 && b[17] == 0 { return .bmp }
        if isSVG(Array(bytes.prefix(sniffLength))) { return .svg }
        return nil
    }

    /// Whether the text starts as an SVG document: a UTF-8 byte order mark and white space at
    /// most, then an XML declaration, comments, processing instructions and a DOCTYPE in any
    /// number, then the root element `<svg` (with or without a namespace prefix). A DOCTYPE that
    /// names `svg` is enough when the root comes after the bytes looked at. Gzip (SVGZ) is not
    /// SVG here: framed does not inflate pictures.
    static func isSVG(_ b: [UInt8]) -> Bool {
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpace() { while i < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[i]) { i += 1 } }
        func at(_ text: String) -> Bool { b[i...].starts(with: Array(text.utf8)) }
        /// Moves past the next `end`; false when the bytes end first.
        func skip(past end: String) -> Bool {
            let e = Array(end.utf8)
            while i + e.count <= b.count {
                if b[i..<i + e.count].elementsEqual(e) { i += e.count; return true }
                i += 1
            }
            return false
        }
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == 0x5F || c == 0x2D || c == 0x2E || c >= 0x80
        }
        while true {
            skipSpace()
            if at("<?") {
                guard skip(past: "?>") else { return false }
            } else if at("<!--") {
                guard skip(past: "-->") else { return false }
            } else if at("<!DOCTYPE") {
                i += 9
                skipSpace()
                if at("svg") && i + 3 < b.count && !isNameByte(b[i + 3]) { return true }
                // The DOCTYPE of another root: its internal subset, if any, ends with "]".
                var depth = 0
                while i < b.count, !(b[i] == UInt8(ascii: ">") && depth == 0) {
                    if b[i] == UInt8(ascii: "[") { depth += 1 } else if b[i] == UInt8(ascii: "]") { depth -= 1 }
                    i += 1
                }
                guard i < b.count else { return false }
                i += 1
            } else if at("<") {
                i += 1
                var name = i
                while i < b.count, isNameByte(b[i]) || b[i] == UInt8(ascii: ":") {
                    if b[i] == UInt8(ascii: ":") { name = i + 1 }
                    i += 1
                }
                guard b[name..<i].elementsEqual("svg".utf8), i < b.count else { return false }
                return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(b[i])
            } else {
                return false
            }
        }
    }
}
