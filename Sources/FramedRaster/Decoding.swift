internal import CCodecs

/// How to decode.
public struct DecodeOptions: Sendable, Equatable {
    /// Pictures with more pixels than this are refused before anything is allocated.
    public var maxPixels: Int
    /// A hint: decoders that can shrink while decoding (JPEG: 1/2, 1/4, 1/8) may return a
    /// picture of ceil(width / d) x ceil(height / d). Rounded down to 1, 2, 4 or 8.
    public var scaleDenominator: Int

    public init(maxPixels: Int = 256_000_000, scaleDenominator: Int = 1) {
        self.maxPixels = maxPixels
        self.scaleDenominator = scaleDenominator
    }

    /// scaleDenominator as 1, 2, 4 or 8.
    var supportedScale: Int { [8, 4, 2].first { scaleDenominator >= $0 } ?? 1 }
}

/// What a picture's header says, without decoding it.
public struct PictureInfo: Sendable, Equatable {
    public var format: PictureFormat
    public var width: Int
    public var height: Int
    /// Whether the picture may hold non-opaque pixels; nil if the header does not say.
    public var hasAlpha: Bool?
    /// Dots per inch that the file claims, nil if it claims none.
    public var resolution: Double?

    public init(format: PictureFormat, width: Int, height: Int, hasAlpha: Bool?, resolution: Double?) {
        self.format = format
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.resolution = resolution
    }
}

/// A decoded picture and what the decoder complained about on the way.
public struct DecodedPicture: Sendable, Equatable {
    public var image: RasterImage
    public var format: PictureFormat
    /// How many warnings the codec gave (a truncated JPEG decodes, with warnings).
    public var warningCount: Int
    /// The first warning's text, nil if none.
    public var firstWarning: String?

    public init(image: RasterImage, format: PictureFormat, warningCount: Int = 0, firstWarning: String? = nil) {
        self.image = image
        self.format = format
        self.warningCount = warningCount
        self.firstWarning = firstWarning
    }

    /// One line for users, e.g. "Premature end of JPEG file (and 2 more warnings)"; nil if none.
    public var warningSummary: String? {
        guard let first = firstWarning, warningCount > 0 else { return nil }
        let more = warningCount - 1
        return more == 0 ? first : "\(first) (and \(more) more warning\(more == 1 ? "" : "s"))"
    }
}

/// Decodes one format. A new format (WebP, ...) is one more conforming type listed in
/// `Pictures.decoders`.
public protocol PictureDecoder: Sendable {
    static var format: PictureFormat { get }
    func info(_ data: [UInt8]) throws(RasterError) -> PictureInfo
    func decode(_ data: [UInt8], options: DecodeOptions) throws(RasterError) -> DecodedPicture
}

/// Decoding whatever picture the bytes hold.
public enum Pictures {
    /// The formats we can decode.
    public static let decoders: [any PictureDecoder] = [PNGDecoder(), JPEGDecoder()]

    public static func decoder(for format: PictureFormat) -> (any PictureDecoder)? {
        decoders.first { type(of: $0).format == format }
    }

    /// The decoder for these bytes: `.empty`, or `.unsupportedFormat` if there is none.
    public static func decoder(for data: [UInt8]) throws(RasterError) -> any PictureDecoder {
        guard !data.isEmpty else { throw .empty }
        guard let format = PictureFormat.sniff(data) else { throw .unsupportedFormat(nil) }
        guard let decoder = decoder(for: format) else { throw .unsupportedFormat(format) }
        return decoder
    }

    public static func info(data: [UInt8]) throws(RasterError) -> PictureInfo {
        try decoder(for: data).info(data)
    }

    public static func decode(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decoder(for: data).decode(data, options: options)
    }

    public static func decode(contentsOf path: String, options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decode(data: bytes(contentsOf: path), options: options)
    }

    public static func info(contentsOf path: String) throws(RasterError) -> PictureInfo {
        try info(data: bytes(contentsOf: path))
    }
}

// MARK: - Glue shared by the shim-backed decoders

extension PictureInfo {
    init(_ info: ccodecs_image_info, format: PictureFormat) {
        self.init(format: format, width: Int(info.width), height: Int(info.height),
                  hasAlpha: info.has_alpha != 0, resolution: info.dpi_x > 0 ? info.dpi_x : nil)
    }
}

typealias ShimInfo = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<ccodecs_image_info>, UnsafeMutablePointer<CChar>) -> Int32
typealias ShimDecode = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<ccodecs_decoded>, UnsafeMutablePointer<CChar>) -> Int32

/// Runs a `ccodecs_*_info` function over `data`.
func shimInfo(_ format: PictureFormat, _ data: [UInt8], _ call: ShimInfo) throws(RasterError) -> PictureInfo {
    guard !data.isEmpty else { throw .empty }
    var info = ccodecs_image_info()
    try callShim(format) { message in
        data.withUnsafeBufferPointer { call($0.baseAddress, $0.count, &info, message) }
    }
    return PictureInfo(info, format: format)
}

/// Runs a `ccodecs_*_decode` function over `data` and takes over the pixels it malloc'd
/// (copied into the RasterImage, then released with `ccodecs_free`).
func shimDecode(_ format: PictureFormat, _ data: [UInt8], limit: Int, _ call: ShimDecode) throws(RasterError) -> DecodedPicture {
    guard !data.isEmpty else { throw .empty }
    var out = ccodecs_decoded()
    defer { ccodecs_decoded_release(&out) }
    try callShim(format, limit: limit, size: { (out.width, out.height) }) { message in
        data.withUnsafeBufferPointer { call($0.baseAddress, $0.count, &out, message) }
    }
    let count = Int(out.width) * Int(out.height) * 4
    let image = RasterImage(width: Int(out.width), height: Int(out.height),
                            pixels: Array(UnsafeBufferPointer(start: out.pixels, count: count)),
                            hasAlpha: out.has_alpha != 0, resolution: out.dpi_x > 0 ? out.dpi_x : nil)
    let warning = withUnsafeBytes(of: out.warning) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return DecodedPicture(image: image, format: format, warningCount: Int(out.warnings),
                          firstWarning: warning.isEmpty ? nil : warning)
}
