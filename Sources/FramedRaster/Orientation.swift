internal import CCodecs

/// The EXIF orientation tag (0x0112): how the stored rows and columns are to be turned for
/// the picture to stand upright. Case names say where the stored picture's top went (as in
/// CGImagePropertyOrientation); the EXIF meaning, by value:
///
/// | value | case | stored row 0 is the visual | stored column 0 is the visual |
/// | --- | --- | --- | --- |
/// | 1 | up | top | left |
/// | 2 | upMirrored | top | right |
/// | 3 | down | bottom | right |
/// | 4 | downMirrored | bottom | left |
/// | 5 | leftMirrored | left | top |
/// | 6 | right | right | top |
/// | 7 | rightMirrored | right | bottom |
/// | 8 | left | left | bottom |
public enum Orientation: Int, Sendable, CaseIterable {
    /// EXIF 1: stored upright; nothing to do. Also what a picture without EXIF gets.
    case up = 1
    /// EXIF 2: stored mirrored left to right; flipped horizontally to stand upright.
    case upMirrored = 2
    /// EXIF 3: stored upside down; turned 180° to stand upright.
    case down = 3
    /// EXIF 4: stored mirrored top to bottom; flipped vertically to stand upright.
    case downMirrored = 4
    /// EXIF 5: stored transposed (mirrored across the top-left to bottom-right diagonal);
    /// transposed back to stand upright. Width and height swap.
    case leftMirrored = 5
    /// EXIF 6: the camera was turned a quarter; the stored picture is turned 90° clockwise
    /// to stand upright (the usual portrait photo). Width and height swap.
    case right = 6
    /// EXIF 7: stored transversed (mirrored across the top-right to bottom-left diagonal);
    /// mirrored back to stand upright. Width and height swap.
    case rightMirrored = 7
    /// EXIF 8: the stored picture is turned 90° counter-clockwise to stand upright. Width and
    /// height swap.
    case left = 8

    /// The orientation that EXIF bytes (from the TIFF header on, or with JPEG's "Exif\0\0" in
    /// front) give, through `ccodecs_exif_orientation` (libexif); `.up` when absent or invalid.
    package init(exif: [UInt8]) {
        self.init(exif: exif.withUnsafeBufferPointer { ccodecs_exif_orientation($0.baseAddress, $0.count) })
    }

    /// `.up` for anything but 1–8 (0 means a decoder that did not read the EXIF).
    init(exif value: Int32) {
        self = Orientation(rawValue: Int(value)) ?? .up
    }

    /// Whether the upright picture is the stored one turned a quarter (values 5–8).
    package var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The size of the upright picture, for a stored picture of `width` x `height`.
    package func orientedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsWidthAndHeight ? (height, width) : (width, height)
    }

    /// The picture turned upright (for `.up`, the picture itself).
    package func applied(to image: RasterImage) -> RasterImage {
        if self == .up { return image }
        let pixels = image.pixels.withUnsafeBytes { reoriented($0, width: image.width, height: image.height) }
        let size = orientedSize(width: image.width, height: image.height)
        return RasterImage(width: size.width, height: size.height, pixels: pixels, hasAlpha: image.hasAlpha,
                           resolution: image.resolution)
    }

    /// Where `ccodecs_reader_read` writes each pixel of a stored `width` x `height` picture so
    /// that it comes out upright: stored pixel (x, y) goes to upright pixel
    /// `origin + x * step_x + y * step_y` (the inverse of `reoriented`'s mapping).
    func layout(width: Int, height: Int) -> ccodecs_layout {
        let (w, h) = (width, height)
        let (origin, stepX, stepY): (Int, Int, Int) = switch self {
        case .up: (0, 1, w)
        case .upMirrored: (w - 1, -1, w)
        case .down: (h * w - 1, -1, -w)
        case .downMirrored: ((h - 1) * w, 1, -w)
        case .leftMirrored: (0, h, 1)
        case .right: (h - 1, h, -1)
        case .rightMirrored: (w * h - 1, -h, -1)
        case .left: ((w - 1) * h, -h, 1)
        }
        return ccodecs_layout(origin: origin, step_x: stepX, step_y: stepY)
    }

    /// The RGBA pixels of a stored `width` x `height` picture, turned upright in one pass:
    /// upright pixel (x, y) is stored pixel `origin + x * dx + y * dy`.
    func reoriented(_ source: UnsafeRawBufferPointer, width: Int, height: Int) -> [UInt8] {
        precondition(source.count >= width * height * 4)
        if self == .up { return Array(source.prefix(width * height * 4)) }
        let (w, h) = orientedSize(width: width, height: height)
        let last = width * (height - 1)
        let (origin, dx, dy): (Int, Int, Int) = switch self {
        case .up: (0, 1, width)
        case .upMirrored: (width - 1, -1, width)
        case .down: (last + width - 1, -1, -width)
        case .downMirrored: (last, 1, -width)
        case .leftMirrored: (0, width, 1)
        case .right: (last, -width, 1)
        case .rightMirrored: (last + width - 1, -width, -1)
        case .left: (width - 1, width, -1)
        }
        return [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            guard w > 0 && h > 0, let from = source.baseAddress, let to = buffer.baseAddress else { count = 0; return }
            let target = UnsafeMutableRawPointer(to)
            var d = 0
            for y in 0..<h {
                var s = origin + y * dy
                for _ in 0..<w {
                    target.storeBytes(of: from.loadUnaligned(fromByteOffset: s * 4, as: UInt32.self),
                                      toByteOffset: d, as: UInt32.self)
                    s += dx
                    d += 4
                }
            }
            count = w * h * 4
        }
    }
}
