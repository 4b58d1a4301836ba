internal import CCodecs

/// An ICC profile that goes into an output file: the sRGB profile that photo-lab JPEGs and TIFFs
/// carry and that a PDF/X-4's output intent names by default, or a profile a user gives for the
/// output intent (RGB or CMYK, read and checked by lcms2).
public struct ICCProfile: Sendable, Equatable {
    /// The profile's bytes, as they go into the file.
    public let bytes: [UInt8]
    /// 3 for an RGB profile, 4 for a CMYK one.
    public let components: Int
    /// The profile's description ("sRGB IEC61966-2.1"), empty when it has none.
    public let description: String

    /// The colour space a profile must have to be an output intent.
    public enum Space: Sendable, Equatable {
        /// Red, green, blue.
        case rgb
        /// Cyan, magenta, yellow, black.
        case cmyk
    }

    /// `rgb` or `cmyk`, from the number of components.
    public var space: Space { components == 4 ? .cmyk : .rgb }

    /// Why a profile cannot be used.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// lcms2 cannot read it, or cannot convert colours into it; lcms2's reason.
        case invalid(String)
        /// A profile of another colour space than RGB or CMYK (its four-letter signature).
        case unsupportedSpace(String)
        /// A profile of a device class that cannot describe an output (its signature).
        case unsupportedClass(String)
        /// The size in the profile's header is not the number of bytes there are: a profile cut
        /// short, or bytes that are no profile.
        case wrongSize(header: Int, bytes: Int)
        /// More bytes than `byteLimit`: no ICC profile is that large.
        case tooLarge(limit: Int)

        /// One line.
        public var description: String {
            switch self {
            case let .invalid(reason): return reason
            case let .unsupportedSpace(space):
                return "its colour space is \(space.trimmingTrailingSpaces), not RGB or CMYK"
            case let .unsupportedClass(kind):
                return "it is a \(kind.trimmingTrailingSpaces) profile, not an output (prtr) or display (mntr) one"
            case let .wrongSize(header, bytes):
                return "its header says it holds \(header) bytes, but it has \(bytes)"
            case let .tooLarge(limit):
                return "it is larger than \(limit >> 20) MB, more than an ICC profile holds"
            }
        }
    }

    /// The most bytes a profile may have: ICC profiles hold kilobytes to a few megabytes.
    public static let byteLimit = 64 << 20

    /// Reads `bytes` as an output intent's profile: an RGB or CMYK profile of the output
    /// (`prtr`) or display (`mntr`) class that lcms2 can convert sRGB colours into, of at most
    /// `byteLimit` bytes, exactly as many as its header says (lcms2 reads a profile cut short,
    /// or one that goes on, as far as it can).
    public init(checking bytes: [UInt8]) throws(Problem) {
        guard bytes.count <= Self.byteLimit else { throw .tooLarge(limit: Self.byteLimit) }
        if let header = Self.headerSize(bytes), header != bytes.count { throw .wrongSize(header: header, bytes: bytes.count) }
        var facts = ccodecs_icc_facts()
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { icc in
            message.withUnsafeMutableBufferPointer { ccodecs_icc_read_facts(icc.baseAddress, icc.count, &facts, $0.baseAddress!) }
        }
        guard status == CCODECS_OK else {
            throw .invalid(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        let space = Self.signature(facts.color_space), kind = Self.signature(facts.device_class)
        guard space == "RGB " || space == "CMYK" else { throw .unsupportedSpace(space) }
        guard kind == "prtr" || kind == "mntr" else { throw .unsupportedClass(kind) }
        self.bytes = bytes
        components = Int(facts.components)
        description = withUnsafeBytes(of: facts.description) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The size a profile's header declares (its first four bytes, big-endian); nil for fewer
    /// bytes.
    package static func headerSize(_ bytes: [UInt8]) -> Int? {
        bytes.count < 4 ? nil : bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
    }

    private init(bytes: [UInt8], components: Int, description: String) {
        self.bytes = bytes; self.components = components; self.description = description
    }

    /// sRGB IEC61966-2.1, made by lcms2 (`ccodecs_srgb_profile`): an ICC version 2 display
    /// profile of about 2.6 KB, the same bytes on every run.
    public static func sRGB() throws(RasterError) -> ICCProfile {
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        try callShim(.jpeg, encoding: true) { message in ccodecs_srgb_profile(&out, message) }
        return ICCProfile(bytes: Array(UnsafeBufferPointer(start: out.data, count: out.size)), components: 3,
                          description: "sRGB IEC61966-2.1")
    }

    /// A four-byte ICC signature as text ("RGB ", "prtr").
    static func signature(_ value: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }, as: UTF8.self)
    }
}

extension String {
    /// The text without the spaces at its end (ICC signatures pad with them).
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
