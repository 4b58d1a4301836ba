internal import CCodecs
internal import CFramedEngines

/// PNG through libpng, from memory or from a file a chunk at a time: `ccodecs_png_info_input`
/// reads the chunks before the first IDAT, `ccodecs_png_open` and `ccodecs_reader_read` expand
/// every colour type and depth to RGBA8 (libpng's errors longjmp inside C and come back as a
/// status and message) and hand on iCCP (or a profile made from gAMA/cHRM) and eXIf. Most
/// pictures' image data is read by framed's own reader where `DecodeOptions.engines` has
/// `pngData`, with libpng's pixels.
package struct PNGDecoder: PictureDecoder {
    package static let format = PictureFormat.png
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.png, input) { ccodecs_png_info_input($0, $1, $2) }
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels)
        let engine = options.engines.pngDataEngine
        return try shimDecode(.png, input, limit: limit, options: options) { ccodecs_png_open($0, limit, engine, $1, $2, $3) }
    }
}

/// JPEG through libjpeg-turbo, from memory or from a file a chunk at a time:
/// `ccodecs_jpeg_info_input` reads the header, `ccodecs_jpeg_open` and `ccodecs_reader_read`
/// decode to RGBA8 (CMYK and YCCK to CMYK, for colour management), shrinking by
/// the options' scale (1/8, 1/4, 3/8 or 1/2) with libjpeg's DCT scaling (cheap, and better than resampling
/// afterwards), and hands on the EXIF (APP1) and ICC profile (APP2). Baseline, progressive
/// and arithmetic-coded files decode; a truncated scan decodes with warnings. The JPEG engines
/// in `DecodeOptions.engines` take parts of the work, with libjpeg's pixels and warnings.
package struct JPEGDecoder: PictureDecoder {
    package static let format = PictureFormat.jpeg
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.jpeg, input) { ccodecs_jpeg_info_input($0, $1, $2) }
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        try JPEGExtent.checkScans(of: input, maxPixels: options.maxPixels)
        let limit = max(0, options.maxPixels), scale = Int32(options.supportedEighths)
        let flags = options.threadCount == 1 ? CCODECS_JPEG_ONE_THREAD : 0
        var engines = options.engines.jpegDecoding
        return try shimDecode(.jpeg, input, limit: limit, options: options) {
            ccodecs_jpeg_open($0, scale, flags, &engines, limit, $1, $2, $3)
        }
    }
}

/// Encoding RasterImages, for embedding in output files (and for test fixtures).
package enum PictureEncoder {
    /// An 8-bit RGBA PNG (RGB with `dropAlpha`, for opaque pictures): the rows Paeth-filtered
    /// and deflated at zlib level 1 in bands on every core (`FlateRows`), in one IDAT chunk;
    /// the resolution, if any, goes into pHYs. `threads` 1 keeps to the calling thread; the bytes
    /// are the same either way. `engines`: as for `FlateRows.compress`.
    package static func png(_ image: RasterImage, dropAlpha: Bool = false, threads: Int? = nil,
                            engines: Engines = .configured) throws(RasterError) -> [UInt8] {
        try image.withPixelAddress { base throws(RasterError) in
            guard let base else { throw .encodingFailed(.png, "a PNG cannot be \(image.width)x\(image.height) pixels") }
            return try png(RGBARows(base: base, width: image.width, height: image.height), resolution: image.resolution,
                           dropAlpha: dropAlpha, threads: threads, engines: engines)
        }
    }

    /// `png(_:dropAlpha:threads:engines:)` for pixels read where they lie, with the resolution
    /// (dots per inch) for pHYs, and `software` (framed's `OutputMark`) as a `tEXt` chunk
    /// `Software` before them.
    package static func png(_ image: RGBARows, resolution: Double?, dropAlpha: Bool = false, threads: Int? = nil,
                            engines: Engines = .configured, software: String? = nil) throws(RasterError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 0x7FFF_FFFF, image.height <= 0x7FFF_FFFF else {
            throw .encodingFailed(.png, "a PNG cannot be \(image.width)x\(image.height) pixels")
        }
        func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(body.withUnsafeBufferPointer { ccodecs_crc32(0, $0.baseAddress, $0.count) }))
        }
        var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        head += chunk("IHDR", be32(image.width) + be32(image.height) + [8, dropAlpha ? 2 : 6, 0, 0, 0])
        if let software { head += chunk("tEXt", Array("Software".utf8) + [0] + Array(software.utf8)) }
        if let dpi = resolution, dpi > 0, dpi.isFinite {
            let perMetre = be32(Int(min(dpi / 0.0254 + 0.5, Double(UInt32.max))))
            head += chunk("pHYs", perMetre + perMetre + [1])
        }
        let idatStart = head.count
        head += [0, 0, 0, 0] + Array("IDAT".utf8)  // the length is set below
        // The IDAT data is compressed straight after the head, with room for its CRC and IEND.
        guard var png = FlateRows.compress(image, plane: dropAlpha ? .rgb : .rgba, threads: threads,
                                           leading: head, trailing: 16, engines: engines) else {
            throw .outOfMemory
        }
        let length = png.count - idatStart - 8
        guard length <= 0x7FFF_FFFF else { throw .encodingFailed(.png, "the picture is too large for one PNG chunk") }
        png.replaceSubrange(idatStart..<idatStart + 4, with: be32(length))
        let crc = png[(idatStart + 4)...].withUnsafeBufferPointer { ccodecs_crc32(0, $0.baseAddress, $0.count) }
        png += be32(Int(crc)) + chunk("IEND", [])
        return png
    }

    /// JPEG via `ccodecs_jpeg_encode_rgb` (alpha ignored); the resolution, if any, goes into
    /// the JFIF density. `grayscale` writes one channel (luma); `chroma444` keeps the colour at
    /// full resolution (libjpeg's default halves it both ways).
    ///
    /// - Parameters:
    ///   - threads: nil writes the file as libjpeg does by default, with no restart markers
    ///     (fixtures, the benchmark's corpus). A count lets the `jpegParts` engine write a
    ///     baseline picture of 32 rows of MCUs or more in two halves with a restart marker
    ///     between them, encoded on two threads when there are two and the picture is large; the
    ///     bytes do not depend on the count.
    ///   - engines: without `jpegParts`, libjpeg writes the file whole, as with nil `threads`.
    package static func jpeg(_ image: RasterImage, quality: Int = 90, grayscale: Bool = false,
                            progressive: Bool = false, chroma444: Bool = false, threads: Int? = nil,
                            engines: Engines = .configured) throws(RasterError) -> [UInt8] {
        try image.withPixelAddress { base throws(RasterError) in
            try jpeg(base, width: image.width, height: image.height, resolution: image.resolution, quality: quality,
                     grayscale: grayscale, progressive: progressive, chroma444: chroma444, threads: threads, engines: engines)
        }
    }

    /// `jpeg(_:quality:grayscale:progressive:chroma444:threads:engines:)` for pixels read where
    /// they lie, with the resolution (dots per inch) for the JFIF density.
    package static func jpeg(_ image: RGBARows, resolution: Double?, quality: Int = 90, grayscale: Bool = false,
                            progressive: Bool = false, chroma444: Bool = false, threads: Int? = nil,
                            engines: Engines = .configured) throws(RasterError) -> [UInt8] {
        try jpeg(image.base, width: image.width, height: image.height, resolution: resolution, quality: quality,
                 grayscale: grayscale, progressive: progressive, chroma444: chroma444, threads: threads, engines: engines)
    }

    private static func jpeg(_ pixels: UnsafePointer<UInt8>?, width: Int, height: Int, resolution: Double?, quality: Int,
                             grayscale: Bool, progressive: Bool, chroma444: Bool, threads: Int?,
                             engines: Engines) throws(RasterError) -> [UInt8] {
        let flags = (grayscale ? CCODECS_JPEG_GRAYSCALE : 0) | (progressive ? CCODECS_JPEG_PROGRESSIVE : 0)
            | (chroma444 ? CCODECS_JPEG_CHROMA_444 : 0)
        let quality = Int32(min(max(quality, 1), 100)), dpi = resolution ?? 0
        if let threads, engines.contains(.jpegParts) {
            let threads = Int32(clamping: threads)
            return try encode(.jpeg, pixels, width: width, height: height) {
                framed_engine_jpeg_encode_in_parts($0, $1, $2, quality, dpi, flags, threads, $3, $4)
            }
        }
        return try encode(.jpeg, pixels, width: width, height: height) {
            ccodecs_jpeg_encode_rgb($0, $1, $2, quality, dpi, flags, 0, $3, $4)
        }
    }

    /// The C call of an encoder: pixels, width, height, output buffer, message; a status.
    typealias EncodeCall = (UnsafePointer<UInt8>?, UInt32, UInt32, UnsafeMutablePointer<ccodecs_buffer>,
                            UnsafeMutablePointer<CChar>) -> Int32

    /// Runs one `ccodecs_*_encode*` call over `image`'s pixels and returns the bytes it made.
    static func encode(_ format: PictureFormat, _ image: RasterImage, _ call: EncodeCall) throws(RasterError) -> [UInt8] {
        try image.withPixelAddress { base throws(RasterError) in
            try encode(format, base, width: image.width, height: image.height, call)
        }
    }

    /// Runs one `ccodecs_*_encode*` call over `width` x `height` RGBA pixels at `pixels` and
    /// returns the bytes it made.
    static func encode(_ format: PictureFormat, _ pixels: UnsafePointer<UInt8>?, width: Int, height: Int,
                       _ call: EncodeCall) throws(RasterError) -> [UInt8] {
        guard let w = UInt32(exactly: width), let h = UInt32(exactly: height) else {
            throw .encodingFailed(format, "picture is \(width)x\(height) pixels, too large")
        }
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        try callShim(format, encoding: true) { message in call(pixels, w, h, &out, message) }
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }
}
