internal import CCodecs
internal import FramedSystem

/// How to decode.
package struct DecodeOptions: Sendable, Equatable {
    /// Pictures with more pixels than this are refused before anything is allocated.
    package var maxPixels: Int
    /// A hint, with `scaleNumerator`: decoders that can shrink while decoding (JPEG by
    /// libjpeg's DCT scaling, WebP by its scaler) may return a picture of ceil(width * n / d) x
    /// ceil(height * n / d), at the smallest of 1/8, 1/4, 3/8, 1/2 and 1 that is not smaller
    /// than n/d.
    package var scaleDenominator: Int
    /// The numerator of the hint (1 unless 3/8 is wanted).
    package var scaleNumerator = 1
    /// Turn the picture upright by its EXIF orientation (`--no-auto-orient` keeps the stored
    /// pixels).
    package var autoOrient: Bool
    /// Intent of the conversion from an embedded ICC profile or CMYK to sRGB.
    package var intent: RenderingIntent
    /// The profile for CMYK pictures without one of their own; nil or a file that cannot be
    /// used means a plain formula (with a warning).
    package var cmykProfilePath: String?
    /// The size the picture is wanted at, if it is to be resized (`Resampler.resize`). A decoder
    /// may resize while it decodes, overlapping the two on a second core;
    /// `DecodedPicture.resampled` says whether it did. Not when the pixels are turned (EXIF
    /// orientation) or colour-converted after decoding, nor when the rows come only after the
    /// whole file was read (progressive JPEG, interlaced PNG, WebP): then the picture comes at
    /// its decoded size.
    package var resize: ResizeRequest?
    /// Regions to redact, in the pixels of an upright picture of `redactionsWidth` x
    /// `redactionsHeight`. A decoder whose picture has that size applies them to the decoded
    /// pixels before anything is made of them, and may then resize while it decodes, redacting
    /// each row before the resize reads it; `DecodedPicture.redacted` says whether it did. Else
    /// `resize` is ignored too: the picture comes unredacted at its decoded size, for the
    /// caller to redact.
    package var redactions: [Redaction] = []
    /// See `redactions`.
    package var redactionsWidth = 0
    /// See `redactions`.
    package var redactionsHeight = 0
    /// How many threads decoding may keep busy; nil: one per core. A PNG's image data is
    /// inflated on a second thread while the calling one unfilters it
    /// (`ccodecs_reader_set_threads`).
    package var threads: Int?
    /// `threads` resolved: at least 1, one per core when nil.
    var threadCount: Int { max(1, threads ?? Resampler.processorCount) }
    /// Which of framed's own engines may decode (and resize while decoding) in place of the
    /// libraries: by default what `FRAMED_ENGINES` says. The pixels are the same either way.
    package var engines = Engines.configured
    /// The pixels the upright picture is wanted with, at least (0: not said). A decoder that can
    /// take them from a smaller version that the file stores (a HEIF thumbnail, a TIFF pyramid
    /// level) does so when that version has them all, and its picture then comes at that
    /// version's size (`DecodedPicture.scaleNumerator`).
    package var neededWidth = 0
    /// See `neededWidth`.
    package var neededHeight = 0

    package init(maxPixels: Int = 256_000_000, scaleDenominator: Int = 1, autoOrient: Bool = true,
                intent: RenderingIntent = .perceptual,
                cmykProfilePath: String? = ColorManagement.defaultCMYKProfilePath) {
        self.maxPixels = maxPixels
        self.scaleDenominator = scaleDenominator
        self.autoOrient = autoOrient
        self.intent = intent
        self.cmykProfilePath = cmykProfilePath
    }

    /// The scales below full size that decoders shrink to, in eighths (libjpeg's DCT scaling;
    /// WebP's scaler takes the same), smallest first.
    static let shrinkEighths = [1, 2, 3, 4]

    /// Those scales in lowest terms: 1/8, 1/4, 3/8, 1/2.
    package static let shrinkScales = shrinkEighths.map(eighthsInLowestTerms)

    /// The smallest of `shrinkScales` (1/8, 1/4, 3/8, 1/2) that still leaves at least `need`
    /// pixels of a `source`-pixel picture, so a big photo is never held at full size when a small
    /// one is placed; 1/1 when none does. 3/8 decodes 56 % of the pixels of 1/2 where 1/4 is too
    /// few: a 24 MP photo in a PDF at 300 ppi and 6 x 4 inches (2250 x 1500 pixels for 1819 x 1213).
    package static func shrinkOnLoadScale(source: (width: Int, height: Int),
                                          need: (width: Int, height: Int)) -> (numerator: Int, denominator: Int) {
        for (numerator, denominator) in shrinkScales {
            let w = (source.width * numerator + denominator - 1) / denominator
            let h = (source.height * numerator + denominator - 1) / denominator
            if w >= need.width && h >= need.height { return (numerator, denominator) }
        }
        return (1, 1)
    }

    /// The hint as a scale decoders take, in eighths: one of `shrinkEighths`, or 8.
    var supportedEighths: Int {
        guard scaleNumerator > 0, scaleDenominator > scaleNumerator else { return 8 }
        return Self.shrinkEighths.first { $0 * scaleDenominator >= 8 * scaleNumerator } ?? 8
    }
}

/// A size to resize to, and the kernel (`DecodeOptions.resize`).
package struct ResizeRequest: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var filter: ResamplingFilter
    /// Pictures with fewer decoded pixels are not followed (a thread is not worth it for
    /// decoding that takes less than about ten milliseconds): they come at their decoded size.
    package var minimumPixels: Int
    package init(width: Int, height: Int, filter: ResamplingFilter = .best, minimumPixels: Int = 1 << 20) {
        self.width = width; self.height = height; self.filter = filter; self.minimumPixels = minimumPixels
    }
}

/// What a picture's header says, without decoding it.
package struct PictureInfo: Sendable, Equatable {
    package var format: PictureFormat
    package var width: Int
    package var height: Int
    /// Whether the picture may hold non-opaque pixels; nil if the header does not say.
    package var hasAlpha: Bool?
    /// Dots per inch that the file claims (JFIF, pHYs, else EXIF), nil if it claims none.
    package var resolution: Double?
    /// The EXIF orientation stored in the file (`.up` without one).
    package var orientation: Orientation
    /// Whether an ICC profile is embedded (PNG: or gAMA / cHRM call for one). Decoding may
    /// still leave the pixels alone: a profile that is sRGB's own, or an unusable one (with a
    /// warning); `DecodedPicture.colorConverted` tells.
    package var hasICCProfile: Bool
    /// CMYK or YCCK pixels (JPEG, TIFF): always converted to sRGB.
    package var isCMYK: Bool
    /// HEIF and AVIF: the coded size before the file's own transformations (`ispe`, before
    /// `irot`, `imir` and `clap`), which `--no-auto-orient` keeps; `width` and `height` are the
    /// size libheif shows, transformed. nil for the other formats, whose `width` and `height`
    /// are the stored size.
    package var storedWidth: Int?
    /// See `storedWidth`.
    package var storedHeight: Int?
    /// HEIF and AVIF: the largest picture the decoders will be asked to code (the HEVC or AV1
    /// headers' size, a grid's tiles), whatever the `ispe` says; a file may code far more than
    /// it shows. nil where unknown and for the other formats.
    package var codedWidth: Int?
    /// See `codedWidth`.
    package var codedHeight: Int?

    /// The size that `limit` (a pixel count, as `--max-pixels`) refuses the picture for, or nil
    /// when it is within: the size shown, or what is coded when that is over the limit.
    package func sizeOver(limit: Int) -> (width: Int, height: Int)? {
        func over(_ width: Int, _ height: Int) -> Bool {
            width.multipliedReportingOverflow(by: height).overflow
                || width.multipliedReportingOverflow(by: height).partialValue > limit || width > limit || height > limit
        }
        if over(width, height) { return (width, height) }
        if let codedWidth, let codedHeight, over(codedWidth, codedHeight) { return (codedWidth, codedHeight) }
        return nil
    }

    package init(format: PictureFormat, width: Int, height: Int, hasAlpha: Bool?, resolution: Double?,
                orientation: Orientation = .up, hasICCProfile: Bool = false, isCMYK: Bool = false) {
        self.format = format
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.resolution = resolution
        self.orientation = orientation
        self.hasICCProfile = hasICCProfile
        self.isCMYK = isCMYK
    }

    /// The size of the picture once turned upright by its orientation.
    package var orientedSize: (width: Int, height: Int) { orientation.orientedSize(width: width, height: height) }

    /// The size the picture is decoded at, turned upright (`autoOrient`: by its EXIF
    /// orientation, or a HEIF file by its own transformations) or not (the stored pixels).
    package func decodedSize(autoOrient: Bool) -> (width: Int, height: Int) {
        if let storedWidth, let storedHeight { return autoOrient ? (width, height) : (storedWidth, storedHeight) }
        return autoOrient ? orientedSize : (width, height)
    }
}

/// A decoded picture (sRGB, upright unless `autoOrient` was off) and what the decoder
/// complained about on the way.
package struct DecodedPicture: Sendable, Equatable {
    package var image: RasterImage
    package var format: PictureFormat
    /// How many warnings the codec gave (a truncated JPEG decodes, with warnings).
    package var warningCount: Int
    /// The first warning's text, nil if none.
    package var firstWarning: String?
    /// The EXIF orientation stored in the file, whether or not it was applied.
    package var orientation: Orientation
    /// Whether the pixels were converted to sRGB (from an ICC profile, or from CMYK).
    package var colorConverted: Bool
    /// Colour management's warnings: a profile ignored (corrupt, or not for these pixels),
    /// CMYK converted without a profile.
    package var colorWarnings: [String]
    /// The scale the decoder actually used (JPEG DCT scaling), scaleNumerator/scaleDenominator
    /// in lowest terms: 1/1, 1/2, 3/8, 1/4 or 1/8.
    package var scaleDenominator: Int
    package var scaleNumerator: Int
    /// Whether `image` was resized to `DecodeOptions.resize` while decoding.
    package var resampled: Bool = false
    /// Whether `DecodeOptions.redactions` were applied.
    package var redacted: Bool = false

    package init(image: RasterImage, format: PictureFormat, warningCount: Int = 0, firstWarning: String? = nil,
                orientation: Orientation = .up, colorConverted: Bool = false, colorWarnings: [String] = [],
                scaleNumerator: Int = 1, scaleDenominator: Int = 1, resampled: Bool = false, redacted: Bool = false) {
        self.image = image
        self.format = format
        self.warningCount = warningCount
        self.firstWarning = firstWarning
        self.orientation = orientation
        self.colorConverted = colorConverted
        self.colorWarnings = colorWarnings
        self.scaleNumerator = scaleNumerator
        self.scaleDenominator = scaleDenominator
        self.resampled = resampled
        self.redacted = redacted
    }

    /// One line for users, e.g. "Premature end of JPEG file (and 2 more warnings)"; nil if none.
    package var warningSummary: String? {
        guard let first = firstWarning, warningCount > 0 else { return nil }
        let more = warningCount - 1
        return more == 0 ? first : "\(first) (and \(more) more warning\(more == 1 ? "" : "s"))"
    }
}

/// Decodes one format. A new format (WebP, ...) is one more conforming type listed in
/// `Pictures.decoders`. Decoders read a `PictureInput`: one that can decode from a file a
/// chunk at a time does so, one that cannot reads `input.contents()`.
package protocol PictureDecoder: Sendable {
    static var format: PictureFormat { get }
    func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo
    func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture
}

extension PictureDecoder {
    /// The header of a picture in memory.
    package func info(_ data: [UInt8]) throws(RasterError) -> PictureInfo {
        try info(PictureInput(bytes: data))
    }

    /// Decodes a picture in memory.
    package func decode(_ data: [UInt8], options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        try decode(PictureInput(bytes: data), options: options)
    }
}

/// Decoding whatever picture a file or bytes hold.
package enum Pictures {
    /// The formats we can decode.
    package static let decoders: [any PictureDecoder] = [PNGDecoder(), JPEGDecoder(), WebPDecoder(), HEIFDecoder(),
                                                          AVIFDecoder(), TIFFDecoder(), GIFDecoder()]

    package static func decoder(for format: PictureFormat) -> (any PictureDecoder)? {
        decoders.first { type(of: $0).format == format }
    }

    /// Formats that framed draws instead of decoding: SVG, which FramedRender's `SVGDocument`
    /// hands to librsvg.
    package static let vectorFormats: Set<PictureFormat> = [.svg]

    /// Whether framed reads pictures of `format`, by decoding or by drawing.
    package static func canRead(_ format: PictureFormat) -> Bool {
        vectorFormats.contains(format) || decoder(for: format) != nil
    }

    /// The decoder for these bytes: `.empty`, or `.unsupportedFormat` if there is none.
    package static func decoder(for data: [UInt8]) throws(RasterError) -> any PictureDecoder {
        try decoder(for: PictureInput(bytes: data))
    }

    /// The decoder for what the input starts with: `.empty`, or `.unsupportedFormat` if there
    /// is none.
    package static func decoder(for input: borrowing PictureInput) throws(RasterError) -> any PictureDecoder {
        let format = try format(of: input)
        guard let decoder = decoder(for: format) else { throw .unsupportedFormat(format) }
        return decoder
    }

    /// The format the input starts with: `.empty`, or `.unsupportedFormat(nil)` if none.
    package static func format(of input: borrowing PictureInput) throws(RasterError) -> PictureFormat {
        guard input.count > 0 else { throw .empty }
        guard let format = try PictureFormat.sniff(input.prefix(PictureFormat.sniffLength)) else {
            throw .unsupportedFormat(nil)
        }
        return format
    }

    /// What the picture's header says; a file is read only as far as its header.
    package static func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try decoder(for: input).info(input)
    }

    /// Decodes, converts colour to sRGB (embedded profile or CMYK) and turns the picture upright
    /// by its EXIF orientation (unless `options.autoOrient` is off): each decoder does all
    /// three through `shimDecode`. A JPEG or PNG file is read a chunk at a time.
    package static func decode(_ input: borrowing PictureInput, options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decoder(for: input).decode(input, options: options)
    }

    package static func info(_ source: PictureSource) throws(RasterError) -> PictureInfo {
        try info(PictureInput(source))
    }

    package static func decode(_ source: PictureSource, options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decode(PictureInput(source), options: options)
    }

    package static func info(data: [UInt8]) throws(RasterError) -> PictureInfo {
        try info(.bytes(data))
    }

    /// What decoding refuses before it decodes a pixel, beyond the header's size: the work a
    /// progressive or arithmetic-coded JPEG's scans ask for (`JPEGExtent.checkScans`). For
    /// pictures that another library decodes: an SVG's `data:` pictures, which librsvg reads,
    /// held to `maxPixels` as a picture framed decodes is.
    package static func checkWork(data: [UInt8], maxPixels: Int) throws(RasterError) {
        let input = PictureInput(bytes: data)
        if try format(of: input) == .jpeg { try JPEGExtent.checkScans(of: input, maxPixels: maxPixels) }
    }

    package static func decode(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decode(.bytes(data), options: options)
    }

    package static func decode(contentsOf path: String, options: DecodeOptions = DecodeOptions()) throws(RasterError) -> DecodedPicture {
        try decode(.file(path), options: options)
    }

    package static func info(contentsOf path: String) throws(RasterError) -> PictureInfo {
        try info(.file(path))
    }
}

// MARK: - Glue shared by the shim-backed decoders

extension PictureInfo {
    init(_ info: ccodecs_image_info, format: PictureFormat) {
        self.init(format: format, width: Int(info.width), height: Int(info.height),
                  hasAlpha: info.has_alpha != 0, resolution: info.dpi_x > 0 ? info.dpi_x : nil,
                  orientation: Orientation(exif: info.orientation), hasICCProfile: info.has_icc != 0,
                  isCMYK: info.color_space == CCODECS_COLOR_CMYK || info.color_space == CCODECS_COLOR_YCCK)
        if info.stored_width > 0 && info.stored_height > 0 {
            storedWidth = Int(info.stored_width)
            storedHeight = Int(info.stored_height)
        }
        if info.coded_width > 0 && info.coded_height > 0 {
            codedWidth = Int(info.coded_width)
            codedHeight = Int(info.coded_height)
        }
    }
}

typealias ShimInfo = (UnsafePointer<ccodecs_input>, UnsafeMutablePointer<ccodecs_image_info>, UnsafeMutablePointer<CChar>) -> Int32
typealias ShimOpen = (UnsafePointer<ccodecs_input>, UnsafeMutablePointer<ccodecs_decoded>,
                      UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<CChar>) -> Int32

/// Runs a `ccodecs_*_info` function over the input.
func shimInfo(_ format: PictureFormat, _ input: borrowing PictureInput, _ call: ShimInfo) throws(RasterError) -> PictureInfo {
    guard input.count > 0 else { throw .empty }
    var info = ccodecs_image_info()
    try input.withCInput { (input) throws(RasterError) in
        try callShim(format) { message in call(input, &info, message) }
    }
    return PictureInfo(info, format: format)
}

/// A decoder's own way from an opened picture to the picture at `DecodeOptions.resize`'s size,
/// without the decoded picture being copied whole (`shimDecode`): the resized picture (upright,
/// in sRGB) and whether its colour was converted (with the warning), or nil to read it as usual.
typealias ShimResize = (_ reader: OpaquePointer?, _ out: UnsafeMutablePointer<ccodecs_decoded>,
                        _ resize: ResizeRequest) throws(RasterError) -> (RasterImage, (converted: Bool, warning: String?))?

/// Decodes through a `ccodecs_*_open` function and `ccodecs_reader_read`, the pixels going
/// once, straight into the RasterImage's own storage (`readImage`); the codec's metadata is
/// released with `ccodecs_decoded_release`. With `options.resize` (to another size than the
/// decoded one, of a picture of at least its `minimumPixels`), `resized` may resize it its
/// own way first.
func shimDecode(_ format: PictureFormat, _ input: borrowing PictureInput, limit: Int,
                options: DecodeOptions = DecodeOptions(), resized: ShimResize? = nil,
                _ open: ShimOpen) throws(RasterError) -> DecodedPicture {
    guard input.count > 0 else { throw .empty }
    var out = ccodecs_decoded()
    defer { ccodecs_decoded_release(&out) }
    let (image, stored, color, resampled, redacted) = try withUnsafeMutablePointer(to: &out) { (out) throws(RasterError) in
        try input.withCInput { (input) throws(RasterError) in
            var reader: OpaquePointer?
            defer { ccodecs_reader_close(reader) }
            try callShim(format, limit: limit, size: { (out.pointee.width, out.pointee.height) }) { message in
                open(input, out, &reader, message)
            }
            let (width, height) = (Int(out.pointee.width), Int(out.pointee.height))
            if let resized, options.redactions.isEmpty, let resize = options.resize, resize.width > 0, resize.height > 0,
               resize.width != width || resize.height != height, width * height >= resize.minimumPixels,
               let (image, color) = try resized(reader, out, resize) {
                return (image, storedOrientation(out.pointee), color, true, false)
            }
            // Redactions for a picture of another size are the caller's to place (with no resize).
            let upright = options.autoOrient ? storedOrientation(out.pointee).orientedSize(width: width, height: height)
                : (width: width, height: height)
            var options = options
            if !options.redactions.isEmpty
                && (upright.width != options.redactionsWidth || upright.height != options.redactionsHeight) {
                options.redactions = []
                options.resize = nil
            }
            return try readImage(format, reader, out, options: options)
        }
    }
    let warning = withUnsafeBytes(of: out.warning) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    // A smaller version that the file stores (a HEIF thumbnail, a TIFF pyramid level) stands
    // for the picture at its width's fraction of the picture's; else the DCT or scaler's eighths.
    let scale = out.full_width > 0 ? lowestTerms(Int(out.width), Int(out.full_width))
        : eighthsInLowestTerms(out.scale_eighths == 0 ? 8 : Int(out.scale_eighths))
    return DecodedPicture(image: image, format: format, warningCount: Int(out.warnings),
                          firstWarning: warning.isEmpty ? nil : warning, orientation: stored,
                          colorConverted: color.converted, colorWarnings: color.warning.map { [$0] } ?? [],
                          scaleNumerator: scale.numerator, scaleDenominator: scale.denominator, resampled: resampled,
                          redacted: redacted)
}

/// The pixels of an opened picture (`out`: what open filled in; warnings are added to it),
/// decoded into a new array that the codec fills row by row, upright by the EXIF orientation (unless
/// `options.autoOrient` is off), then converted to sRGB in place
/// (`ColorManagement.convertToSRGB`); with the stored orientation, and the resolution the
/// codec found, else the EXIF one. With `options.resize`, when the rows come upright, one by
/// one while the file is read, and need no conversion, they are resized as they come
/// (`Resampler.resize(following:...)`). Not a progressive JPEG: its scans are all read when it
/// is opened, into a buffer of coefficients for the whole picture, and the resized picture
/// would only add to that peak. `options.redactions` are applied in both ways
/// (`RedactionGate` while resizing).
private func readImage(_ format: PictureFormat, _ reader: OpaquePointer?, _ out: UnsafeMutablePointer<ccodecs_decoded>,
                       options: DecodeOptions) throws(RasterError)
    -> (RasterImage, stored: Orientation, color: (converted: Bool, warning: String?), resampled: Bool, redacted: Bool) {
    let header = out.pointee
    let stored = storedOrientation(header)
    let orientation = options.autoOrient ? stored : .up
    let (width, height) = (Int(header.width), Int(header.height))
    let size = orientation.orientedSize(width: width, height: height)
    let layout = orientation.layout(width: width, height: height)
    let dpi = header.dpi_x > 0 ? header.dpi_x : ccodecs_exif_dpi(header.exif, header.exif_size)
    let resolution = dpi > 0 ? dpi : nil
    let hasAlpha = header.has_alpha != 0
    var result = Result<(converted: Bool, warning: String?), RasterError>.success((false, nil))
    func decode(into pixels: UnsafeMutablePointer<UInt8>) -> Bool {
        result = Result { () throws(RasterError) in
            try callShim(format) { message in ccodecs_reader_read(reader, pixels, layout, out, message) }
            return try ColorManagement.convertToSRGB(pixels, width: size.width, height: size.height,
                                                     decoded: header, format: format, options: options)
        }
        if case .success = result { return true }
        return false
    }

    ccodecs_reader_set_threads(reader, Int32(clamping: options.threadCount))
    let ready = RowsReady()
    if let resize = options.resize, resize.width > 0, resize.height > 0, width > 0, height > 0,
       resize.width != size.width || resize.height != size.height, width * height >= resize.minimumPixels,
       Resampler.processorCount > 1, orientation == .up, !ColorManagement.needsConversion(header),
       ccodecs_reader_publish_rows(reader, ready.counter) != 0 {
        // The decoded picture is only the resize's source: a buffer of its own, freed here,
        // all on 2 MB pages (a malloc'd one has up to 4 MB on 4 KB pages at its ends).
        let byteCount = width * height * 4
        // The resized picture is allocated while the source is held: ask for both first (and
        // for what redacting takes).
        guard Memory.available(byteCount + resize.width * resize.height * 4 + Redaction.workingBytes(options.redactions))
        else { throw .outOfMemory }
        guard let memory = ccodecs_huge_alloc(byteCount) else { throw .outOfMemory }
        defer { ccodecs_huge_free(memory, byteCount) }
        let pixels = memory.bindMemory(to: UInt8.self, capacity: byteCount)
        if !options.redactions.isEmpty {
            ready.gate = RedactionGate(options.redactions, pixels: pixels, width: width, height: height, hasAlpha: hasAlpha)
        }
        let resized = Resampler.resize(following: ready, source: pixels, sourceWidth: width, sourceHeight: height,
                                       hasAlpha: hasAlpha, width: resize.width, height: resize.height,
                                       filter: resize.filter, engines: options.engines) { decode(into: pixels) }
        let color = try result.get()
        guard let resized else { throw .outOfMemory }  // decode succeeded, so it cannot be nil
        let image = RasterImage(width: resize.width, height: resize.height, pixels: resized, hasAlpha: hasAlpha,
                                resolution: Resampler.scaledResolution(resolution, from: (width, height),
                                                                       to: (resize.width, resize.height)))
        return (image, stored, color, true, !options.redactions.isEmpty)
    }

    guard Memory.available(width * height * 4 + Redaction.workingBytes(options.redactions)) else { throw .outOfMemory }
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
        count = 0
        guard let pixels = buffer.baseAddress else { return }
        adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
        if decode(into: pixels) { count = width * height * 4 }
    }
    let color = try result.get()
    var image = RasterImage(width: size.width, height: size.height, pixels: pixels,
                            hasAlpha: hasAlpha, resolution: resolution)
    image.redact(options.redactions)
    return (image, stored, color, false, !options.redactions.isEmpty)
}

/// `numerator`/`denominator` in lowest terms (1/1 for a zero denominator).
func lowestTerms(_ numerator: Int, _ denominator: Int) -> (numerator: Int, denominator: Int) {
    guard numerator > 0, denominator > 0 else { return (1, 1) }
    var a = numerator, b = denominator
    while b != 0 { (a, b) = (b, a % b) }
    return (numerator / a, denominator / a)
}

/// The orientation an opened picture states: TIFF's Orientation tag, else the EXIF orientation
/// (HEIF hands on no EXIF: libheif applies the file's own transformations, and its EXIF
/// orientation only describes them).
func storedOrientation(_ header: ccodecs_decoded) -> Orientation {
    Orientation(exif: header.orientation > 0 ? header.orientation : ccodecs_exif_orientation(header.exif, header.exif_size))
}

/// `eighths`/8 as a fraction in lowest terms: 4 is 1/2, 3 is 3/8, 8 is 1/1.
func eighthsInLowestTerms(_ eighths: Int) -> (numerator: Int, denominator: Int) {
    var numerator = eighths, denominator = 8
    while numerator % 2 == 0 && denominator > 1 {
        numerator /= 2
        denominator /= 2
    }
    return (numerator, denominator)
}
