/// Paths as the system has them: bytes, not text.
///
/// On Linux a file name is any bytes but `/` and NUL; it need not be UTF-8. framed keeps paths
/// in `String`s without losing a byte: a valid UTF-8 sequence stands as its character, and each
/// byte that is not part of one as the code point U+10FF00 plus the byte (in the last
/// private-use plane, which no name in real use holds; a name that does hold one of those 256
/// code points has its bytes kept that way too, so the mapping goes both ways for every name).
/// Every name framed gets from the system (arguments, folder entries, the working folder) comes
/// through `string(_:)`, every path it hands to the system goes through `withCString(_:_:)`, and
/// messages show an escaped byte as `\xNN` (`Console`).
package enum SystemPath {
    /// The first of the 256 code points that stand for bytes.
    static let base: UInt32 = 0x10FF00

    /// The path that the bytes of a name make.
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: i), scalar.value < base {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The path that a C string (a NUL-terminated name) makes.
    package static func string(cString: UnsafePointer<CChar>) -> String {
        let length = strlen(cString)
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) { string(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The bytes of the name that `path` stands for.
    package static func bytes(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) { bytes.append(byte) } else { bytes += Array(String(scalar).utf8) }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `path`, for a system call.
    package static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        if !path.unicodeScalars.contains(where: { $0.value >= base }) { return try path.withCString(body) }
        let bytes = Self.bytes(path) + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `path` for showing as text (a caption): each byte that is not UTF-8 as U+FFFD, the
    /// replacement character, as file managers show such a name.
    package static func displayName(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: { $0.value >= base }) else { return path }
        var scalars = String.UnicodeScalarView()
        for scalar in path.unicodeScalars { scalars.append(scalar.value >= base ? "\u{FFFD}" : scalar) }
        return String(scalars)
    }

    /// The byte that `scalar` stands for, when it is one of the 256 that stand for bytes.
    package static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= base ? UInt8(scalar.value - base) : nil
    }

    /// The scalar that the valid UTF-8 sequence at `bytes[i]` encodes, and its length in bytes;
    /// nil where no valid sequence starts (a stray continuation byte, a sequence cut short, an
    /// overlong form, a surrogate, or a value past U+10FFFF).
    private static func scalar(in bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let (length, minimum, initial): (Int, UInt32, UInt32)
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, minimum, initial) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, initial) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, initial) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        var value = initial
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}

private func strlen(_ string: UnsafePointer<CChar>) -> Int {
    var length = 0
    while string[length] != 0 { length += 1 }
    return length
}
