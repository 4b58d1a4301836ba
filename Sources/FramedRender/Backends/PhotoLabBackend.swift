import FramedLayout
import FramedRaster

/// JPEG and TIFF for photo labs: the PNG's drawing at the output's resolution, composited on
/// white (under the canvas colour, so that what is transparent comes out paper-white), as 8-bit
/// RGB without alpha, the sRGB profile and the resolution embedded. JPEG goes through
/// libjpeg-turbo at the quality asked with 4:4:4 chroma (`JPEGOutput`), TIFF through libtiff
/// with LZW (`TIFFOutput`).
enum PhotoLabBackend {
    static func render(_ page: RenderPage, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let picture = try PictureSurface.embedding(page.picture, format: options.format, threads: options.threads)
        let size = options.pixelSize(ofCanvas: page.outputSize)
        let image = try OutputSurface.raster(size)
        let context = try CairoContext(image.surface)
        context.setSource(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))
        context.paint()
        let k = options.pictureDPI / 72
        context.scale(k, k)
        try OutputPage(page).draw([picture], in: context, format: options.format, pixelsPerPoint: k)
        try context.checkStatus("drawing the picture")
        let name = options.format == .tiff ? "TIFF" : "JPEG"
        // Opaque everywhere (white under everything): the encoders read R, G, B where they lie.
        let encoded = image.withStraightRGBA { rows in
            Result { () throws(RasterError) in
                let profile = try ICCProfile.sRGB()
                if options.format == .tiff {
                    return try TIFFOutput.encode(rows, resolution: options.pictureDPI, profile: profile)
                }
                return try JPEGOutput.encode(rows, resolution: options.pictureDPI, quality: options.quality,
                                             profile: profile, threads: options.threads)
            }
        }
        do {
            return try encoded.get()
        } catch {
            throw .cairo(operation: "encoding the \(name)", message: error.description)
        }
    }
}
