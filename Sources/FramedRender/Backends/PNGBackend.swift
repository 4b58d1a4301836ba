internal import CCairo
import FramedRaster
import FramedSystem

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
        try page.draw(picture, in: context, format: .png)
        let encoded = image.withStraightRGBA { rows in
            Result { () throws(RasterError) in
                try PictureEncoder.png(rows, resolution: options.pictureDPI, threads: options.threads)
            }
        }
        do {
            return try encoded.get()
        } catch {
            throw .cairo(operation: "encoding the PNG", message: error.description)
        }
    }
}

extension CairoImageSurface {
    /// Turns the surface's pixels into straight RGBA bytes where they lie (rows without padding:
    /// an ARGB32 row is 4 bytes a pixel) and gives them to `body`. The surface must not be drawn
    /// on afterwards: its words are no longer premultiplied ARGB.
    func withStraightRGBA<R>(_ body: (RGBARows) -> R) -> R {
        withUnsafeMutablePixels { base, stride in
            precondition(stride == width * 4, "an ARGB32 row of \(width) pixels has \(stride) bytes")
            for offset in Swift.stride(from: 0, to: width * height * 4, by: 4) {
                let word = Self.straightRGBA(base.load(fromByteOffset: offset, as: UInt32.self))
                base.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt32.self)
            }
            return body(RGBARows(base: UnsafePointer(base.assumingMemoryBound(to: UInt8.self)), width: width, height: height))
        }
    }

    /// The pixels as straight (not premultiplied) RGBA bytes, rows without padding, in a new array.
    func straightRGBA() -> [UInt8] {
        // Every byte is written below, so the array is not zeroed first (4 MB at scale 2).
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            withUnsafeMutablePixels { base, stride in
                let to = UnsafeMutableRawPointer(out.baseAddress!)
                for y in 0..<height {
                    let row = base + y * stride, outRow = to + y * width * 4
                    for x in 0..<width {
                        let word = Self.straightRGBA(row.load(fromByteOffset: x * 4, as: UInt32.self))
                        outRow.storeBytes(of: word.littleEndian, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
            count = width * height * 4
        }
    }

    /// A premultiplied ARGB32 word (A in the top byte) as straight R, G, B, A with R in the
    /// lowest byte: the bytes R, G, B, A in that order once stored little-endian.
    @inline(__always)
    static func straightRGBA(_ v: UInt32) -> UInt32 {
        let a = v >> 24
        if a == 255 { return (v >> 16 & 255) | (v & 0xFF00) | (v & 255) << 16 | 0xFF00_0000 }
        if a == 0 { return 0 }
        let r = ((v >> 16 & 255) &* 255 &+ a / 2) / a, g = ((v >> 8 & 255) &* 255 &+ a / 2) / a
        let b = ((v & 255) &* 255 &+ a / 2) / a
        return r | g << 8 | b << 16 | a << 24
    }
}
