internal import CMessages
internal import CCodecs
internal import FramedSystem

/// HEIF pictures through libheif, which reads HEIC (HEVC, through libde265) and AVIF (AV1,
/// through dav1d or aom) alike: `HEIFDecoder` and `AVIFDecoder` differ only in the format they
/// are sniffed as and named by.
///
/// `ccodecs_heif_info` reads the boxes (never the whole file: libheif reads what it asks for,
/// a chunk at a time); `ccodecs_heif_open` decodes the primary image, grid pictures included,
/// with the file's own transformations (`irot`, `imir`, `clap`) applied as libheif applies them,
/// or none with `autoOrient` off (the stored pixels). The EXIF orientation is never applied on
/// top: in HEIF it only describes what `irot` and `imir` do. 10- and 12-bit samples are rounded
/// to 8 bits; an ICC profile, or the nclx primaries and transfer, convert to sRGB. When
/// `DecodeOptions.neededWidth`/`neededHeight` say how many pixels are needed, a thumbnail the
/// file stores that has them all is decoded instead of the picture.
enum HEIFFile {
    static func info(_ format: PictureFormat, _ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(format, input) { ccodecs_heif_info($0, $1, $2) }
    }

    static func decode(_ format: PictureFormat, _ input: borrowing PictureInput,
                       options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels), threads = Int32(clamping: options.threadCount)
        // To be resized (and not redacted first): an 8-bit picture stays in libheif's RGBA
        // buffer, resized from there.
        let ownResize = options.resize != nil && options.redactions.isEmpty
        let flags = (options.autoOrient ? 0 : CCODECS_HEIF_KEEP_STORED) | (ownResize ? CCODECS_HEIF_RGBA : 0)
        let needWidth = UInt32(clamping: max(0, options.neededWidth))
        let needHeight = UInt32(clamping: max(0, options.neededHeight))
        return try shimDecode(format, input, limit: limit, options: options, resized: { reader, out, resize throws(RasterError) in
            try resizeInPlace(format, reader, out, resize, options: options)
        }) {
            ccodecs_heif_open($0, flags, needWidth, needHeight, threads, limit, $1, $2, $3)
        }
    }

    /// The picture resized straight from libheif's RGBA buffer (`ccodecs_heif_rgba`), colour
    /// converted there first: the decoded picture is never copied, so that a 12-megapixel HEIC
    /// framed small holds libheif's picture and the small one, not a third. nil when libheif holds
    /// it otherwise (more than 8 bits), or when a conversion needs rows without padding and
    /// libheif padded them.
    static func resizeInPlace(_ format: PictureFormat, _ reader: OpaquePointer?, _ out: UnsafeMutablePointer<ccodecs_decoded>,
                              _ resize: ResizeRequest, options: DecodeOptions) throws(RasterError)
        -> (RasterImage, (converted: Bool, warning: String?))? {
        var pixels: UnsafeMutablePointer<UInt8>?
        var stride = 0
        guard ccodecs_heif_rgba(reader, &pixels, &stride) != 0, let pixels else { return nil }
        let header = out.pointee, (width, height) = (Int(header.width), Int(header.height))
        var color: (converted: Bool, warning: String?) = (false, nil)
        if ColorManagement.needsConversion(header) {
            guard stride == width * 4 else { return nil }
            color = try ColorManagement.convertToSRGB(pixels, width: width, height: height, decoded: header,
                                                      format: format, options: options)
        }
        guard Memory.available(resize.width * resize.height * 4) else { throw .outOfMemory }
        let hasAlpha = header.has_alpha != 0
        let resized = Resampler.resize(source: pixels, stride: stride, sourceWidth: width, sourceHeight: height,
                                       hasAlpha: hasAlpha, width: resize.width, height: resize.height,
                                       filter: resize.filter, threads: options.threads, engines: options.engines)
        let dpi = header.dpi_x > 0 ? header.dpi_x : nil
        let resolution = Resampler.scaledResolution(dpi, from: (width, height), to: (resize.width, resize.height))
        return (RasterImage(width: resize.width, height: resize.height, pixels: resized, hasAlpha: hasAlpha,
                            resolution: resolution), color)
    }
}

/// HEIC and other HEIF pictures (an `ftyp` box with a HEIF brand) through libheif: see `HEIFFile`.
package struct HEIFDecoder: PictureDecoder {
    package static let format = PictureFormat.heif
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try HEIFFile.info(Self.format, input)
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        // dav1d writes what it finds wrong in a stream to stderr: framed says it in its words.
        cmessages_quiet_begin()
        defer { cmessages_quiet_end() }
        return try HEIFFile.decode(Self.format, input, options: options)
    }
}

/// AVIF pictures (an `ftyp` box with the `avif` or `avis` brand) through libheif: see `HEIFFile`.
package struct AVIFDecoder: PictureDecoder {
    package static let format = PictureFormat.avif
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try HEIFFile.info(Self.format, input)
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        // dav1d writes what it finds wrong in a stream to stderr: framed says it in its words.
        cmessages_quiet_begin()
        defer { cmessages_quiet_end() }
        return try HEIFFile.decode(Self.format, input, options: options)
    }
}
