import FramedRaster

/// PNG: the drawing on an ARGB32 image surface, un-premultiplied into straight RGBA where it lies
/// and written as 8-bit RGBA by the project's own encoder straight from the surface's memory, so
/// the output's pixels are held once (Cairo's `cairo_surface_write_to_png_stream` drops the alpha
/// channel when nothing happens to be transparent, and picks no compression settings).
enum PNGBackend {
    static func render(_ page: RenderPage, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let picture = try PictureSurface.embedding(page.picture, format: .png, threads: options.threads)
        let size = options.pixelSize(ofCanvas: page.outputSize)
        let image = try OutputSurface.raster(size)
        let context = try CairoContext(image.surface)
        let k = options.pictureDPI / 72
        context.scale(k, k)
        try OutputPage(page).draw([picture], in: context, format: .png, pixelsPerPoint: k)
        try context.checkStatus("drawing the PNG")
        let encoded = image.withStraightRGBA { rows in
            Result { () throws(RasterError) in
                try PictureEncoder.png(rows, resolution: options.pictureDPI, threads: options.threads,
                                       software: OutputMark.software)
            }
        }
        do {
            return try encoded.get()
        } catch {
            throw .cairo(operation: "encoding the PNG", message: error.description)
        }
    }
}
