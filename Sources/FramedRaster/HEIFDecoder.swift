internal import CCodecs

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
        let flags = options.autoOrient ? 0 : CCODECS_HEIF_KEEP_STORED
        let needWidth = UInt32(clamping: max(0, options.neededWidth))
        let needHeight = UInt32(clamping: max(0, options.neededHeight))
        return try shimDecode(format, input, limit: limit, options: options) {
            ccodecs_heif_open($0, flags, needWidth, needHeight, threads, limit, $1, $2, $3)
        }
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
        try HEIFFile.decode(Self.format, input, options: options)
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
        try HEIFFile.decode(Self.format, input, options: options)
    }
}
