internal import Glibc
import FramedLayout

/// A shadow that framed writes into a PDF itself, so that the viewers people open PDFs with draw
/// it alike: Chrome's and Edge's (PDFium), MuPDF, Ghostscript and poppler.
///
/// Cairo's construction (`VectorShadow`: gradients masked by gradients) is exact in poppler but not
/// in PDFium, which evaluates an axial shading through a 256-entry table over the whole axis (47/255
/// off on a 600x400 frame), nor in MuPDF, which tabulates it in 8 bits and applied the soft masks'
/// errors one on top of the other (28/255). Here the shadow's alpha itself is sampled and drawn as
/// one luminosity soft mask, filled with the shadow's colour:
///
///     mask group:  plateau (the box less 4σ, alpha A)     every tile a function-based shading
///                  + 4 corner tiles (one function,         (type 1) whose function is sampled
///                    mirrored by each tile's matrix)      (type 0, 16 bits, a sample every σ/4)
///                  + 4 edge strips (two functions)        over that tile only
///
/// PDFium evaluates a function-based shading at every device pixel, poppler too; MuPDF cuts each
/// tile into a 64x64 mesh, fine because the tiles are small (a few σ); Ghostscript subdivides it
/// to the smoothness that `/SM` asks for. Tiles overlap a little and agree where they overlap, so
/// no seam shows where their edges are antialiased. The shadow's alpha goes into the mask's gray,
/// not into `/ca`: MuPDF 1.21 applies a `/ca` to the mask group's contents as well (the shadow
/// came out at A² there).
///
/// Cairo is handed a placeholder in the shadow's place, a one-pixel JPEG image painted over the
/// shadow's area under the same clip (as `PDFPicture` does for pictures), and `PDFCompaction` puts
/// a form XObject drawing the masked fill in the image object's place. A shadow for which this does
/// not suit (no blur, an empty box, or a corner so large against σ that its samples would weigh
/// more than `maximumSamples`) is drawn by `VectorShadow` as before.
struct PDFShadow {
    /// The JPEG bytes of the placeholder image, unique within one PDF.
    let placeholder: [UInt8]
    /// Where the placeholder is painted, in the page's user space (y down).
    let area: Rect
    let shadow: ShadowGeometry
    let correction: CornerCorrection?

    /// Samples per side of a tile's function beyond which the shadow is left to `VectorShadow`.
    static let maximumSamples = 120
    /// Samples per σ.
    static let samplesPerSigma = 4.0
    /// The smoothness asked of Ghostscript, in the mask group and where the mask is used.
    static let smoothness = "0.001"

    /// The shadow as a PDF mask, or nil when `VectorShadow` should draw it. `clip` is the padding
    /// box that an inset shadow is drawn in; `index` tells the shadows of one PDF apart.
    init?(_ shadow: ShadowGeometry, clip: Rect?, index: Int) {
        let box = shadow.box, sigma = shadow.sigma
        guard box.width > 0, box.height > 0, sigma > 1e-3, shadow.color.alpha > 0 else { return nil }
        if shadow.inset {
            guard let clip, clip.width > 0, clip.height > 0 else { return nil }
            area = clip
        } else {
            area = VectorShadow.area(of: shadow)
        }
        let tiles = Tiles(box: box, radius: shadow.radius, sigma: sigma)
        guard tiles.cornerSamples.x <= Self.maximumSamples, tiles.cornerSamples.y <= Self.maximumSamples else { return nil }
        self.shadow = shadow
        correction = CornerCorrection.fit(size: box.size, radius: shadow.radius, sigma: sigma,
                                          insideWeight: shadow.inset ? 1 : 0.3, opacity: shadow.color.alpha)
        placeholder = PDFPicture.placeholder(width: 1, height: 1, name: "framed shadow \(index)")
    }

    /// The one-pixel surface carrying the placeholder.
    func placeholderSurface() throws(RenderError) -> CairoImageSurface {
        let surface = try CairoImageSurface(width: 1, height: 1, hasAlpha: false)
        try surface.attachJPEG(placeholder)
        return surface
    }

    /// Paints the placeholder over `area` (under whatever clip is set).
    func drawPlaceholder(in context: CairoContext) throws(RenderError) {
        let pattern = try CairoPattern.surface(placeholderSurface())
        try pattern.setMatrix(scaleX: 1 / area.width, scaleY: 1 / area.height,
                          translateX: -area.x / area.width, translateY: -area.y / area.height)
        try context.paint(pattern, over: area)
    }

    /// The shadow's alpha at (x, y): `A · S · (1 − D)` outside, `A · (1 − S · (1 − D))` inset.
    func alpha(_ x: Double, _ y: Double) -> Double {
        let box = shadow.box
        var s = EdgeProfile(start: box.minX, end: box.maxX, sigma: shadow.sigma).value(at: x)
            * EdgeProfile(start: box.minY, end: box.maxY, sigma: shadow.sigma).value(at: y)
        if let correction { s *= 1 - correction.deficit(at: Point(x: x, y: y), box: box, radius: shadow.radius) }
        return shadow.color.alpha * (shadow.inset ? 1 - s : s)
    }

    /// Where the tiles go: the top-left corner tile (the others are its mirror images), how far
    /// it reaches, and the strips along the edges between the corners.
    struct Tiles {
        var corner: Rect
        var cornerSamples: (x: Int, y: Int)
        /// The strips along the top (and bottom) edge and along the left (and right) edge, when the
        /// box is long enough to have them.
        var top: Rect?, left: Rect?
        var middle: Point

        init(box: Rect, radius: Double, sigma: Double) {
            let reach = VectorShadow.reach * sigma
            let overlap = max(sigma / 2, 0.5)
            let r = min(max(0, radius), box.width / 2, box.height / 2)
            // The rounded corner's correction reaches r + 5σ along the edges (`CornerFitProblem`).
            let bend = r > 0 ? max(reach, r + 5 * sigma) : reach
            middle = Point(x: box.midX, y: box.midY)
            let right = min(box.midX + overlap, box.minX + bend + overlap)
            let bottom = min(box.midY + overlap, box.minY + bend + overlap)
            corner = Rect(x: box.minX - reach, y: box.minY - reach, width: right - box.minX + reach,
                          height: bottom - box.minY + reach)
            cornerSamples = (PDFShadow.count(corner.width, sigma), PDFShadow.count(corner.height, sigma))
            if right < box.midX + overlap {
                let x0 = right - 2 * overlap
                top = Rect(x: x0, y: corner.minY, width: 2 * box.midX - 2 * x0, height: corner.height)
            }
            if bottom < box.midY + overlap {
                let y0 = bottom - 2 * overlap
                left = Rect(x: corner.minX, y: y0, width: corner.width, height: 2 * box.midY - 2 * y0)
            }
        }
    }

    static func count(_ length: Double, _ sigma: Double) -> Int {
        max(2, Int((length / sigma * samplesPerSigma).rounded(.up)) + 1)
    }

    /// The objects that draw the shadow: the form XObject numbered `number` (in the placeholder
    /// image's place), then its mask group, shadings and functions, numbered from `next` on.
    /// Dictionaries without a stream come back in `plain`, for the object stream. `functions`
    /// holds the sampled functions already written to the file, by their dictionary and samples:
    /// a function that is there already (the same shadow on another page of the same size) is
    /// used again rather than written twice. `defaultRGB`, when given, is the `DefaultRGB` colour
    /// space the form's resources name, so that its colour stays sRGB under a CMYK output intent.
    func objects(number: Int, next: inout Int, functions: inout [[UInt8]: Int], defaultRGB: Int? = nil)
        -> (streams: [(number: Int, bytes: [UInt8])], plain: [(number: Int, body: [UInt8])])? {
        var streams: [(number: Int, bytes: [UInt8])] = [], plain: [(number: Int, body: [UInt8])] = []
        func reserve() -> Int { defer { next += 1 }; return next }
        func stream(_ number: Int, _ dictionary: String, _ data: [UInt8]) -> Bool {
            guard let packed = Zlib.compress(data) else { return false }
            streams.append((number, Array("\(number) 0 obj\n<< \(dictionary) /Filter /FlateDecode /Length \(packed.count) >>\nstream\n".utf8)
                + packed + Array("\nendstream\nendobj\n".utf8)))
            return true
        }
        /// A sampled function over `rect` (`columns` x `rows` samples, 16 bits), its domain the unit square.
        func function(_ rect: Rect, columns: Int, rows: Int) -> Int? {
            var data = [UInt8]()
            data.reserveCapacity(columns * rows * 2)
            for j in 0..<rows {
                let y = rows > 1 ? rect.minY + rect.height * Double(j) / Double(rows - 1) : rect.midY
                for i in 0..<columns {
                    let x = columns > 1 ? rect.minX + rect.width * Double(i) / Double(columns - 1) : rect.midX
                    let v = UInt16((min(1, max(0, alpha(x, y))) * 65535).rounded())
                    data += [UInt8(v >> 8), UInt8(v & 0xFF)]
                }
            }
            let dictionary = "/FunctionType 0 /Domain [0 1 0 1] /Range [0 1] /Size [\(columns) \(rows)] /BitsPerSample 16"
            let key = Array(dictionary.utf8) + data
            if let written = functions[key] { return written }
            let n = reserve()
            guard stream(n, dictionary, data) else { return nil }
            functions[key] = n
            return n
        }
        /// A function-based shading painting `function` over `rect`, mirrored about the box's
        /// middle when `mirrorX` / `mirrorY`.
        func shading(_ function: Int, _ rect: Rect, mirrorX: Bool = false, mirrorY: Bool = false, middle: Point) -> Int {
            let a = mirrorX ? -rect.width : rect.width, d = mirrorY ? -rect.height : rect.height
            let e = mirrorX ? 2 * middle.x - rect.minX : rect.minX, f = mirrorY ? 2 * middle.y - rect.minY : rect.minY
            let n = reserve()
            plain.append((n, Array(("<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 1 0 1] "
                + "/Matrix [\(Self.number(a)) 0 0 \(Self.number(d)) \(Self.number(e)) \(Self.number(f))] /Function \(function) 0 R >>").utf8)))
            return n
        }

        let box = shadow.box, sigma = shadow.sigma, tiles = Tiles(box: box, radius: shadow.radius, sigma: sigma)
        let mask = reserve()
        var shadings: [Int] = []
        // Strips first, the corners over them: each is exact where the next one overlaps it.
        if let top = tiles.top {
            guard let f = function(Rect(x: box.midX - 0.5, y: top.minY, width: 1, height: top.height),
                                   columns: 2, rows: Self.count(top.height, sigma)) else { return nil }
            shadings.append(shading(f, top, middle: tiles.middle))
            shadings.append(shading(f, top, mirrorY: true, middle: tiles.middle))
        }
        if let left = tiles.left {
            guard let f = function(Rect(x: left.minX, y: box.midY - 0.5, width: left.width, height: 1),
                                   columns: Self.count(left.width, sigma), rows: 2) else { return nil }
            shadings.append(shading(f, left, middle: tiles.middle))
            shadings.append(shading(f, left, mirrorX: true, middle: tiles.middle))
        }
        guard let corner = function(tiles.corner, columns: tiles.cornerSamples.x, rows: tiles.cornerSamples.y) else { return nil }
        for (mx, my) in [(false, false), (true, false), (false, true), (true, true)] {
            shadings.append(shading(corner, tiles.corner, mirrorX: mx, mirrorY: my, middle: tiles.middle))
        }

        // The mask group: its backdrop is black (no shadow); the inset shadow's full alpha outside
        // its box, the outer one's inside it (4σ in, where the blur has reached 1), then the tiles.
        let a = shadow.color.alpha
        let colorSpaces = defaultRGB.map { " /ColorSpace << /DefaultRGB \($0) 0 R >>" } ?? ""
        var content = "/s gs\n"
        let plateau = box.outset(by: -VectorShadow.reach * sigma)
        if shadow.inset { content += "\(Self.number(a)) g \(Self.rect(area.outset(by: 1))) re f\n" }
        if plateau.width > 0, plateau.height > 0 {
            content += "\(Self.number(shadow.inset ? 0 : a)) g \(Self.rect(plateau)) re f\n"
        }
        for n in shadings { content += "/h\(n) sh\n" }
        let names = shadings.map { "/h\($0) \($0) 0 R" }.joined(separator: " ")
        guard stream(mask, "/Type /XObject /Subtype /Form /BBox [\(Self.corners(area))] "
            + "/Group << /Type /Group /S /Transparency /CS /DeviceGray >> "
            + "/Resources << /ExtGState << /s << /SM \(Self.smoothness) >> >> /Shading << \(names) >>\(colorSpaces) >>",
                     Array(content.utf8))
        else { return nil }

        // The form in the placeholder's place. Whatever Cairo wrote to draw the image maps the
        // image's unit square onto `area` (its first row at the top), so the form's matrix maps
        // user space back onto that square: (x, y) -> ((x - ax) / aw, 1 - (y - ay) / ah).
        let c = shadow.color
        let matrix = [1 / area.width, 0, 0, -1 / area.height, -area.minX / area.width, 1 + area.minY / area.height]
        let fill = "q \(Self.number(c.red)) \(Self.number(c.green)) \(Self.number(c.blue)) rg /m gs \(Self.rect(area)) re f Q\n"
        guard stream(number, "/Type /XObject /Subtype /Form /BBox [\(Self.corners(area))] "
            + "/Matrix [\(matrix.map { Self.number($0, digits: 9) }.joined(separator: " "))] "
            + "/Resources << /ExtGState << /m << /SMask << /Type /Mask /S /Luminosity /G \(mask) 0 R >> "
            + "/SM \(Self.smoothness) >> >>\(colorSpaces) >>",
                     Array(fill.utf8))
        else { return nil }
        return (streams, plain)
    }

    /// A PDF number: at most `digits` decimals, no trailing zeros, no exponent.
    static func number(_ v: Double, digits: Int = 5) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(v) * scale).rounded()
        guard scaled < 9e15 else { return String(Int(v.rounded())) }
        let units = Int(scaled), whole = units / Int(scale), fraction = units % Int(scale)
        var text = units == 0 || v >= 0 ? "" : "-"
        text += String(whole)
        if fraction > 0 {
            var digitsText = String(fraction)
            digitsText = String(repeating: "0", count: digits - digitsText.count) + digitsText
            while digitsText.hasSuffix("0") { digitsText.removeLast() }
            text += "." + digitsText
        }
        return text
    }

    static func rect(_ r: Rect) -> String { "\(number(r.minX)) \(number(r.minY)) \(number(r.width)) \(number(r.height))" }
    static func corners(_ r: Rect) -> String { "\(number(r.minX)) \(number(r.minY)) \(number(r.maxX)) \(number(r.maxY))" }
}

/// The shadows of one PDF that go in as `PDFShadow`, in the order they are drawn.
final class PDFShadows {
    private(set) var all: [PDFShadow] = []

    /// Draws `shadow` as a placeholder and keeps it; false when `VectorShadow` should draw it.
    func draw(_ shadow: ShadowGeometry, clip: Rect?, in context: CairoContext) throws(RenderError) -> Bool {
        guard let pdf = PDFShadow(shadow, clip: clip, index: all.count) else { return false }
        try pdf.drawPlaceholder(in: context)
        all.append(pdf)
        return true
    }
}
