import FramedLayout
import FramedRaster

/// What a soft proof needs besides the pages: the press's profile and the colour that marks
/// what it cannot print.
package struct ProofOptions: Sendable, Equatable {
    /// The output intent's ICC profile; nil: sRGB, and the proof is the page unchanged.
    package var profile: ICCProfile?
    /// Paints the pixels the press cannot print; nil: they show as the press comes closest.
    package var warning: RGBAColor?

    package init(profile: ICCProfile? = nil, warning: RGBAColor? = nil) { self.profile = profile; self.warning = warning }
}

/// One page's soft proof.
package struct ProofPage: Sendable {
    /// The proof: an 8-bit RGB PNG at the output's resolution.
    package var png: [UInt8]
    /// Its size in pixels.
    package var pixels: PixelSize
    /// For each print on the page, in order: how many pixels its picture shows, and how many
    /// of them the press cannot print.
    package var gamut: [(pixels: Int, outOfGamut: Int)]
}

/// The soft proof: each page drawn as a photo lab's JPEG is (the PNG's drawing at the output's
/// resolution over white paper, marks in black), then through lcms2's proofing transform
/// (`SoftProofTransform`): what the press prints of it, seen in sRGB with the paper's white.
/// Before the transform, each picture's pixels (those whose centres lie in its visible
/// rectangle, inside the mat's rounded opening) are checked against the press's gamut.
enum ProofBackend {
    static func render(_ pages: [OutputPage], options: RenderOptions, proof: ProofOptions) throws(RenderError)
        -> [ProofPage] {
        let transform: SoftProofTransform?
        do {
            transform = try proof.profile.map { profile throws(RasterError) in
                try SoftProofTransform(profile: profile, warning: proof.warning.map(\.rgb8))
            }
        } catch {
            throw .cairo(operation: "making the soft proof", message: error.description)
        }
        let raster = options.proofRaster
        let k = raster.pictureDPI / 72
        var proofs: [ProofPage] = []
        for page in pages {
            let size = raster.pixelSize(ofCanvas: page.media)
            try raster.checkCanvas(page.media)
            let image = try OutputSurface.raster(size)
            let context = try CairoContext(image.surface)
            context.setSource(RGBAColor(red: 1, green: 1, blue: 1, alpha: 1))
            context.paint()
            context.scale(k, k)
            var pictures: [DrawnPicture] = []
            for print in page.prints {
                pictures.append(try PictureSurface.embedding(print.page.picture, format: .png, threads: options.threads))
            }
            try page.draw(pictures, in: context, format: .png)
            try context.checkStatus("drawing the soft proof")
            let counted = image.withUnsafeMutablePixels { base, stride in
                Result { () throws(RenderError) -> [(pixels: Int, outOfGamut: Int)] in
                    var counts: [(pixels: Int, outOfGamut: Int)] = []
                    for area in page.pictureAreas {
                        counts.append(try Self.count(area, in: base, stride: stride, size: size, pixelsPerPoint: k,
                                                     transform: transform))
                    }
                    transform?.proof(base, stride: stride, width: size.width, height: size.height)
                    return counts
                }
            }
            let gamut = try counted.get()
            let encoded = image.withStraightRGBA { rows in
                Result { () throws(RasterError) in
                    try PictureEncoder.png(rows, resolution: raster.pictureDPI, dropAlpha: true, threads: options.threads)
                }
            }
            do {
                proofs.append(ProofPage(png: try encoded.get(), pixels: size, gamut: gamut))
            } catch {
                throw .cairo(operation: "encoding the soft proof", message: error.description)
            }
        }
        return proofs
    }

    /// A picture's pixels on the page, and how many of them are out of the press's gamut (none
    /// without a transform: sRGB holds every sRGB colour).
    private static func count(_ area: (clip: Rect, padding: Rect, radius: Double), in base: UnsafeMutableRawPointer,
                              stride: Int, size: PixelSize, pixelsPerPoint k: Double,
                              transform: SoftProofTransform?) throws(RenderError) -> (pixels: Int, outOfGamut: Int) {
        let clip = area.clip
        let x0 = max(0, Int((clip.minX * k - 0.5).rounded(.up))), x1 = min(size.width, Int((clip.maxX * k - 0.5).rounded(.up)))
        let y0 = max(0, Int((clip.minY * k - 0.5).rounded(.up))), y1 = min(size.height, Int((clip.maxY * k - 0.5).rounded(.up)))
        guard x1 > x0, y1 > y0 else { return (0, 0) }
        var flags: [UInt8] = []
        if let transform {
            do {
                flags = try transform.outOfGamut(base + y0 * stride + x0 * 4, stride: stride, width: x1 - x0, height: y1 - y0)
            } catch {
                throw .cairo(operation: "checking the soft proof's gamut", message: error.description)
            }
        }
        let padding = area.padding, r = min(area.radius, padding.width / 2, padding.height / 2)
        /// Whether a point inside `clip` is inside the rounded padding box too (only its corners
        /// can leave it).
        func inside(_ x: Double, _ y: Double) -> Bool {
            guard r > 0 else { return true }
            let cx = min(max(x, padding.minX + r), padding.maxX - r), cy = min(max(y, padding.minY + r), padding.maxY - r)
            return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
        }
        var pixels = 0, out = 0
        for y in y0..<y1 {
            let py = (Double(y) + 0.5) / k
            for x in x0..<x1 where inside((Double(x) + 0.5) / k, py) {
                pixels += 1
                if !flags.isEmpty && flags[(y - y0) * (x1 - x0) + (x - x0)] != 0 { out += 1 }
            }
        }
        return (pixels, out)
    }
}

extension RenderOptions {
    /// What a soft proof's pixels are drawn with: these options for a PNG at the embedded
    /// picture's resolution (a PDF's `dpi`, 300 by default), with a PNG's limits.
    package var proofRaster: RenderOptions {
        var raster = self
        raster.format = .png
        raster.dpi = pictureDPI
        return raster
    }
}

extension RGBAColor {
    /// The colour as 8-bit components (alpha ignored).
    package var rgb8: (r: UInt8, g: UInt8, b: UInt8) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return (byte(red), byte(green), byte(blue))
    }
}
