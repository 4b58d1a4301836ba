internal import CCairo
internal import Glibc
import FramedLayout
import FramedRaster

/// Turns a picture into the Cairo image that gets embedded (premultiplied, native-endian).
/// Resampling happens before, in FramedRaster's `Resampler`.
enum PictureSurface {
    /// The surface the drawing paints for `picture` in `format`. When SVG or PDF get the picture
    /// as bytes (JPEG, or framed's own PNG in SVG), Cairo writes those bytes and never reads the
    /// surface's pixels, so they are left unwritten: no copy of the picture. In a PDF the
    /// surface is even one pixel (see `PDFPicture.placeholderSurface`: PDF draws an image onto
    /// the unit square whatever its size, here the JPEG's own), because Cairo snapshots the
    /// surfaces it records, zeros and all. SVG's `<image>` takes the surface's size, so it keeps
    /// the picture's (its shape, for a picture longer than an image surface can be). Otherwise
    /// the pixels are copied (`copy`).
    static func embedding(_ picture: PagePicture, format: OutputFormat, threads: Int) throws(RenderError) -> DrawnPicture {
        switch picture {
        case let .raster(picture): return .surface(try embedding(picture, format: format, threads: threads))
        case let .vector(picture): return .vector(picture)
        }
    }

    /// The surface for pixels.
    static func embedding(_ picture: EmbeddedPicture, format: OutputFormat, threads: Int) throws(RenderError) -> CairoImageSurface {
        let image = picture.image, size = picture.size
        if format == .svg {
            // SVG draws the picture's bytes into a box of the surface's size, which the drawing
            // maps onto the picture's place: a surface of the same shape but at most Cairo's
            // 32767 pixels a side serves a picture of any size.
            let side = Double(CairoImageSurface.maximumSide)
            let shrink = min(1, side / Double(max(size.width, size.height)))
            let width = max(1, min(CairoImageSurface.maximumSide, Int((Double(size.width) * shrink).rounded())))
            let height = max(1, min(CairoImageSurface.maximumSide, Int((Double(size.height) * shrink).rounded())))
            let surface = try CairoImageSurface(width: width, height: height, hasAlpha: picture.hasAlpha)
            if let jpeg = picture.jpeg { try surface.attachJPEG(jpeg) } else { try surface.attachPNG(of: image, threads: threads) }
            return surface
        }
        if let jpeg = picture.jpeg, format == .pdf {
            let surface = try CairoImageSurface(width: 1, height: 1, hasAlpha: picture.hasAlpha)
            try surface.attachJPEG(jpeg)
            return surface
        }
        return try copy(image)
    }

    /// Copies straight RGBA bytes into Cairo's native-endian premultiplied ARGB32 (or RGB24 for
    /// opaque pictures, which PDF then embeds without a soft mask).
    static func copy(_ image: RasterImage) throws(RenderError) -> CairoImageSurface {
        let surface = try CairoImageSurface(width: image.width, height: image.height, hasAlpha: image.hasAlpha)
        let width = image.width
        image.pixels.withUnsafeBufferPointer { source in
            surface.withUnsafeMutablePixels { base, stride in
                for y in 0..<image.height {
                    let row = (base + y * stride).assumingMemoryBound(to: UInt32.self)
                    var s = y * width * 4
                    for x in 0..<width {
                        let a = UInt32(source[s + 3])
                        var r = UInt32(source[s]), g = UInt32(source[s + 1]), b = UInt32(source[s + 2])
                        if a != 255 {
                            r = (r * a + 127) / 255; g = (g * a + 127) / 255; b = (b * a + 127) / 255
                        }
                        row[x] = a << 24 | r << 16 | g << 8 | b
                        s += 4
                    }
                }
            }
        }
        return surface
    }
}

extension CairoImageSurface {
    /// `cairo_surface_set_mime_data(CAIRO_MIME_TYPE_JPEG)`: SVG and PDF embed these JPEG bytes
    /// (DCTDecode, `data:image/jpeg`) instead of re-encoding the pixels. Cairo keeps a malloc'd
    /// copy and frees it with the surface.
    func attachJPEG(_ jpeg: [UInt8]) throws(RenderError) {
        try setMimeData(CAIRO_MIME_TYPE_JPEG, jpeg, "embedding the JPEG")
    }

    /// `cairo_surface_set_mime_data(CAIRO_MIME_TYPE_PNG)`: the SVG backend embeds this PNG
    /// (`data:image/png`) instead of writing the surface with `cairo_surface_write_to_png_stream`,
    /// which compresses at zlib's default level with every filter tried on every row: our own
    /// encoder (`PictureEncoder.png`, level 1 and Paeth) is about three times faster, and it
    /// encodes the straight pixels, without Cairo's premultiplied round trip.
    func attachPNG(of image: RasterImage, threads: Int) throws(RenderError) {
        let png: [UInt8]
        do { png = try PictureEncoder.png(image, dropAlpha: !image.hasAlpha, threads: threads) } catch {
            throw .cairo(operation: "embedding the picture", message: error.description)
        }
        try setMimeData(CAIRO_MIME_TYPE_PNG, png, "embedding the picture")
    }

    /// `cairo_surface_set_mime_data`: hands Cairo a malloc'd copy of `bytes`, which it frees
    /// with the surface (or now, when Cairo refuses it).
    func setMimeData(_ type: String, _ bytes: [UInt8], _ operation: String) throws(RenderError) {
        guard let copy = malloc(max(1, bytes.count)) else { throw .cairo(operation: operation, message: "out of memory") }
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        let status = cairo_surface_set_mime_data(surface.pointer, type, copy.assumingMemoryBound(to: UInt8.self),
                                                 UInt(bytes.count), { free($0) }, copy)
        if status != CAIRO_STATUS_SUCCESS { free(copy) }
        try check(status, operation)
    }
}
