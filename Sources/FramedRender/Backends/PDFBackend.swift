internal import CCairo
import FramedLayout
import FramedSystem

/// PDF through `cairo_pdf_surface_create_for_stream`: a page per framed picture, each the size
/// of its canvas (or of its page plus bleed) in points, or per sheet of prints; one picture is a
/// one-page document.
/// A JPEG picture is embedded by Cairo from its bytes; a lossless one is written by framed
/// (`PDFPicture`) in the place of a placeholder that Cairo lays out. `PDFPrint` adds the page
/// boxes (and marks, and PDF/X-4's parts); `PDFCompaction` then packs Cairo's small objects.
enum PDFBackend {
    /// The pages as one PDF. A picture that repeats is embedded once: equal embedded pictures
    /// share one Cairo surface, which also carries `CAIRO_MIME_TYPE_UNIQUE_ID` (a hash of its
    /// pixels and JPEG bytes), so Cairo writes one image object for all its pages. Should Cairo's
    /// file not be as `PDFCompaction` expects, the pages are drawn again with Cairo embedding
    /// every picture itself.
    ///
    /// Shadows go in as `PDFShadow`s, in the same way: placeholders that the PDF pass replaces.
    /// When it cannot, Cairo draws them too (`VectorShadow`). Each print's callouts go in a group
    /// that `PDFLayer` puts in the optional content group "Annotations", a layer viewers can
    /// hide; should Cairo's file not be as it expects, the pages are drawn again without it.
    static func render(_ pages: [OutputPage], options: RenderOptions) throws(RenderError) -> [UInt8] {
        let (pdf, pictures, shadows, defaultRGB) = try draw(pages, options: options, ownPictures: true)
        if pictures.isEmpty && shadows.isEmpty { return PDFCompaction.compact(pdf) }
        if let packed = PDFCompaction.compact(pdf, pictures: pictures, shadows: shadows, defaultRGB: defaultRGB) { return packed }
        return PDFCompaction.compact(try draw(pages, options: options, ownPictures: false).pdf)
    }

    /// The pages as Cairo writes them, and the pictures framed writes itself (`ownPictures`:
    /// lossless ones) for `PDFCompaction` to put in their placeholders' place. A single page
    /// with one picture names none: nothing can repeat, and hashing its pixels would be wasted. With
    /// `ownPictures` the shadows are framed's own too (`PDFShadow`).
    private static func draw(_ pages: [OutputPage], options: RenderOptions, ownPictures: Bool, layer: Bool = true)
        throws(RenderError) -> (pdf: [UInt8], pictures: [PDFPicture], shadows: [PDFShadow], defaultRGB: Int?) {
        guard let first = pages.first else { throw .unsupported("a PDF needs at least one page") }
        var pictures: [PDFPicture] = []
        let shadows = ownPictures ? PDFShadows() : nil
        let sink = ByteSink()
        var markers: [AnnotationLayerMarker] = []
        do {
            let surface = try OutputSurface.vector(.pdf, size: first.media, metadata: options.metadata, into: sink)
            var surfaces: [String: CairoImageSurface] = [:]
            let named = pages.count > 1 || first.prints.count > 1
            for (index, page) in pages.enumerated() {
                if index > 0, page.media != pages[index - 1].media {
                    try CairoNumbers.check("sizing page \(index + 1)", page.media.width, page.media.height)
                    cairo_pdf_surface_set_size(surface.pointer, page.media.width, page.media.height)
                }
                var drawn: [DrawnPicture] = []
                for print in page.prints {
                    switch print.page.picture {
                    case let .vector(vector):
                        drawn.append(.vector(vector))
                    case let .raster(raster):
                        let key = named ? PictureIdentity.key(raster) : nil
                        let picture: CairoImageSurface
                        if let key, let known = surfaces[key] {
                            picture = known
                        } else {
                            if ownPictures, raster.jpeg == nil,
                               let own = PDFPicture(raster.image, index: pictures.count, threads: options.threads) {
                                picture = try own.placeholderSurface()
                                pictures.append(own)
                            } else {
                                picture = try PictureSurface.embedding(raster, format: .pdf, threads: options.threads)
                            }
                            if let key {
                                try picture.attachUniqueID(key)
                                surfaces[key] = picture
                            }
                        }
                        drawn.append(.surface(picture))
                    }
                }
                let context = try CairoContext(surface)
                let layers = page.prints.enumerated().map { number, print in
                    layer && !print.page.annotations.isEmpty ? AnnotationLayerMarker(page: index, print: number) : nil
                }
                markers += layers.compactMap { $0 }
                try page.draw(drawn, in: context, format: .pdf, includeMarks: false, pdfShadows: shadows, annotationLayers: layers)
                if index < pages.count - 1 { context.showPage() }
                try context.checkStatus("ending page \(index + 1)")
            }
            try surface.finish()
        }
        // Page boxes, crop marks and PDF/X-4's parts (`PDFPrint`), before the packing.
        var cairoPDF = withExtendedLifetime(sink) { sink.bytes }
        if !markers.isEmpty {
            guard Memory.available(2 * cairoPDF.count), let layered = PDFLayer.apply(cairoPDF, markers: markers) else {
                return try draw(pages, options: options, ownPictures: ownPictures, layer: false)
            }
            cairoPDF = layered
        }
        // The last check: no number a reader refuses, whoever drew it (librsvg draws an SVG picture).
        if let bad = PDFNumbers.firstUnusable(in: cairoPDF) {
            throw .cairo(operation: "writing the PDF", message: "it would hold \(bad), a number no PDF reader takes")
        }
        guard Memory.available(2 * cairoPDF.count), let printed = PDFPrint.apply(cairoPDF, pages: pages, options: options) else {
            throw .cairo(operation: "adding the page boxes", message: "Cairo's PDF is not laid out as expected, or out of memory")
        }
        return (printed.pdf, pictures, shadows?.all ?? [], printed.defaultRGB)
    }
}

/// A stable name for an embedded picture's content, for `CAIRO_MIME_TYPE_UNIQUE_ID`: equal
/// names, one image object in the PDF.
enum PictureIdentity {
    /// A 128-bit hash of the size, the alpha flag and what the PDF holds of the picture: its
    /// JPEG bytes when it has them (they alone are embedded), else its pixels. Eight bytes at a
    /// time, in two lanes with different multipliers: `--pages` names every page's picture,
    /// and hashing 9 MB of pixels a byte at a time (FNV-1a, as before) took a tenth of an
    /// eight-page book's time.
    static func key(_ picture: EmbeddedPicture) -> String {
        var hash = Hash128()
        let size = picture.size
        let header = "\(size.width)x\(size.height) \(picture.hasAlpha ? "rgba" : "rgb") \(picture.jpeg?.count ?? -1);"
        hash.mix(Array(header.utf8))
        if let jpeg = picture.jpeg { hash.mix(jpeg) } else { hash.mix(picture.image.pixels) }
        func hex(_ v: UInt64) -> String {
            let digits = String(v, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "framed-" + hex(hash.a) + hex(hash.b)
    }

    /// Two 64-bit lanes, each a multiply and a shift-xor per eight bytes (the rest of the
    /// bytes, fewer than eight, as one word); the length goes in too.
    struct Hash128 {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142

        mutating func mix(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + 8 <= raw.count {
                    word(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    offset += 8
                }
                var last: UInt64 = 0
                for i in offset..<raw.count { last |= UInt64(raw[i]) << (8 * UInt64(i - offset)) }
                word(last)
                word(UInt64(raw.count))
            }
        }

        private mutating func word(_ w: UInt64) {
            a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
            a ^= a >> 29
            b = (b ^ w) &* 0xC2B2_AE3D_27D4_EB4F
            b ^= b >> 31
        }
    }
}

extension CairoImageSurface {
    /// `cairo_surface_set_mime_data(CAIRO_MIME_TYPE_UNIQUE_ID)`: the PDF backend writes surfaces
    /// with the same id once.
    func attachUniqueID(_ id: String) throws(RenderError) {
        try setMimeData(CAIRO_MIME_TYPE_UNIQUE_ID, Array(id.utf8), "naming the picture")
    }
}
