import FramedRaster

/// A losslessly stored picture that framed writes into the PDF itself, instead of Cairo.
///
/// Cairo 1.16 deflates an image's raw samples at zlib's default level and lets no caller choose
/// otherwise: on a 300 dpi picture that is most of a PDF's time, and photographs barely shrink
/// (96 % of their raw size). So Cairo is handed a placeholder: a surface of the picture's size
/// whose JPEG mime data is a JPEG header of that size with a comment naming the picture. Cairo
/// copies those bytes into an image object as they are, never reading the surface's pixels, and
/// does everything else as for any picture (clip, transform, `/Interpolate`). `PDFCompaction`
/// then puts the picture's own image object in the placeholder's place: its RGB (or gray)
/// samples as PNG-predicted rows deflated at level 1 by `FlateRows`, and its
/// alpha as a soft mask, compressed alike.
struct PDFPicture {
    /// The JPEG bytes Cairo writes as the image's stream, unique within one PDF.
    let placeholder: [UInt8]
    let width: Int
    let height: Int
    let color: FlateRows.Plane
    /// The colour samples' zlib stream.
    let samples: [UInt8]
    /// The alpha samples' zlib stream, for pictures with pixels that are not opaque.
    let mask: [UInt8]?

    /// Compresses `image` (nil if zlib fails) on at most `threads` cores; `index` tells the
    /// pictures of one PDF apart.
    init?(_ image: RasterImage, index: Int, threads: Int) {
        width = image.width; height = image.height
        color = image.isGrayscale ? .gray : .rgb
        let masked = image.hasAlpha && !image.isOpaque
        guard let samples = FlateRows.compress(image, plane: color, threads: threads) else { return nil }
        self.samples = samples
        if masked {
            guard let mask = FlateRows.compress(image, plane: .alpha, threads: threads) else { return nil }
            self.mask = mask
        } else {
            mask = nil
        }
        // A JPEG header holds sides of at most 65535; the placeholder's size is never used (the
        // image object written in its place has the picture's own), so a longer side is cut.
        placeholder = Self.placeholder(width: min(width, 0xFFFF), height: min(height, 0xFFFF), name: "framed picture \(index)")
    }

    /// SOI, a comment holding `name`, a baseline SOF of the size with three components, EOI:
    /// all that Cairo reads of a JPEG (`_cairo_image_info_get_jpeg_info`) to write its image.
    static func placeholder(width: Int, height: Int, name: String) -> [UInt8] {
        func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        let comment = Array(name.utf8)
        return [0xFF, 0xD8, 0xFF, 0xFE] + be16(comment.count + 2) + comment
            + [0xFF, 0xC0] + be16(17) + [8] + be16(height) + be16(width) + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]
            + [0xFF, 0xD9]
    }

    /// A Cairo surface that carries the placeholder. It is one pixel: PDF draws every image onto
    /// the same unit square whatever its pixels, so the drawing maps this one pixel onto the
    /// picture's place and the image object (the JPEG header's size) fills it. A surface of the
    /// picture's size, never written, still cost a copy of its zeros: Cairo snapshots the
    /// surfaces it records (two copies, 17 MB for a 300 dpi screenshot).
    func placeholderSurface() throws(RenderError) -> CairoImageSurface {
        let surface = try CairoImageSurface(width: 1, height: 1, hasAlpha: false)
        try surface.attachJPEG(placeholder)
        return surface
    }

    /// The image object numbered `number` (its soft mask, if any, numbered `maskNumber`), and
    /// the soft mask's object, each as its parts: dictionary, stream (the compressed samples
    /// themselves, not a copy) and end. `interpolate` repeats what Cairo wrote for the placeholder.
    func objects(number: Int, maskNumber: Int, interpolate: Bool)
        -> (image: [ArraySlice<UInt8>], mask: [ArraySlice<UInt8>]?) {
        func object(_ number: Int, _ plane: FlateRows.Plane, _ data: [UInt8], extra: String) -> [ArraySlice<UInt8>] {
            let space = plane == .rgb ? "/DeviceRGB" : "/DeviceGray"
            let head = "\(number) 0 obj\n<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) "
                + "/ColorSpace \(space) /BitsPerComponent 8\(interpolate ? " /Interpolate true" : "")\(extra) "
                + "/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors \(plane.samples) "
                + "/BitsPerComponent 8 /Columns \(width) >> /Length \(data.count) >>\nstream\n"
            return [Array(head.utf8)[...], data[...], Array("\nendstream\nendobj\n".utf8)[...]]
        }
        guard let mask else { return (object(number, color, samples, extra: ""), nil) }
        return (object(number, color, samples, extra: " /SMask \(maskNumber) 0 R"), object(maskNumber, .alpha, mask, extra: ""))
    }
}
