/// Print pages: paper sizes, orientation, bleed, and where a framed picture goes on a page.
///
/// Pure geometry in points, like the box model. The framed canvas (frame, shadows, margin) is
/// centred on the page; when it is too big and no size was asked for, the frame is made smaller
/// (its border, padding, shadows and margin keep their lengths) until it fits.

/// A paper size, portrait (width <= height), either a standard one (A3, A4, A5, Letter, Legal)
/// or any `WxH` in length units. Codable as its text.
public struct PageSize: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The paper's width as written. Orientation, not this, decides which side runs across:
    /// `PageSpec.pageSize(for:)` uses the shorter and the longer side.
    public var width: Length
    /// The paper's height as written (see `width`).
    public var height: Length
    /// The standard name, when the size is one ("A4").
    public var name: String?

    /// A paper of `width` by `height`; `name`, when given, is what `description` says instead
    /// of the lengths.
    public init(width: Length, height: Length, name: String? = nil) {
        self.width = width; self.height = height; self.name = name
    }

    /// ISO A3: 297 x 420 mm.
    public static let a3 = PageSize(width: .mm(297), height: .mm(420), name: "A3")
    /// ISO A4: 210 x 297 mm.
    public static let a4 = PageSize(width: .mm(210), height: .mm(297), name: "A4")
    /// ISO A5: 148 x 210 mm.
    public static let a5 = PageSize(width: .mm(148), height: .mm(210), name: "A5")
    /// US Letter: 8.5 x 11 in.
    public static let letter = PageSize(width: .inches(8.5), height: .inches(11), name: "Letter")
    /// US Legal: 8.5 x 14 in.
    public static let legal = PageSize(width: .inches(8.5), height: .inches(14), name: "Legal")
    /// The standard sizes `init(parsing:)` knows by name.
    public static let standard: [PageSize] = [.a3, .a4, .a5, .letter, .legal]

    /// Parses a standard name (any case: `A4`, `letter`) or `WxH` (`100mmx150mm`, `4inx6in`).
    /// Either way the orientation decides which side is the long one.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = text.styleTrimmed
        if let named = Self.standard.first(where: { $0.name!.lowercased() == trimmed.lowercased() }) {
            self = named
            return
        }
        let size: LengthSize
        do { size = try LengthSize(parsing: String(trimmed)) } catch {
            throw StyleParseError(kind: "page", input: String(trimmed),
                                  reason: "expected " + Self.standard.map { $0.name! }.joined(separator: ", ")
                                    + " or WIDTHxHEIGHT, like 100mmx150mm")
        }
        self.init(width: size.width, height: size.height)
    }

    /// "A4", or for other sizes the two lengths as `Length` writes them, joined by "x" (100 x
    /// 150 mm gives "100mmx150mm"); parses back to the same size.
    public var description: String {
        if let name { return name }
        return "\(width.description)x\(height.description)"
    }

    /// "210 x 297 mm" for a size in points, rounded to 0.1 mm.
    public static func millimetres(_ size: Size) -> String {
        func mm(_ points: Double) -> String {
            let tenths = (Length(points: points).value(in: .mm) * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
        }
        return "\(mm(size.width)) x \(mm(size.height)) mm"
    }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, PageSize.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Which way up the page goes.
public enum PageOrientation: String, Sendable, Equatable, CaseIterable, Codable {
    /// Taller than wide.
    case portrait
    /// Wider than tall.
    case landscape
    /// Landscape for a framed picture that is wider than tall, portrait otherwise. The default.
    case auto
}

/// A page to put a framed picture on: its size, which way up, the bleed around it and the
/// marks outside that.
public struct PageSpec: Sendable, Equatable, Codable {
    /// The paper.
    public var size: PageSize
    /// Which way up the paper goes; `auto` follows the framed picture's shape.
    public var orientation: PageOrientation
    /// Extra room on every side of the page that the canvas colour runs into, trimmed off after
    /// printing. The output (PDF MediaBox, SVG or PNG canvas) is the page plus twice the bleed
    /// (and twice the slug, with marks).
    public var bleed: Length
    /// Printer's marks outside the bleed; the output grows by `CropMarks.slug` on every side
    /// to hold them.
    public var marks: PrintMarks = .none

    /// A page of `size`, turned as the picture needs unless `orientation` says, without bleed
    /// unless given (`PageLayout` refuses a negative one), and without marks unless given.
    public init(size: PageSize, orientation: PageOrientation = .auto, bleed: Length = .zero, marks: PrintMarks = .none) {
        self.size = size; self.orientation = orientation; self.bleed = bleed; self.marks = marks
    }

    /// The page's size in points the right way up for a framed canvas of `canvas`.
    public func pageSize(for canvas: Size) -> (size: Size, orientation: PageOrientation) {
        let short = min(size.width.points, size.height.points), long = max(size.width.points, size.height.points)
        let turn: PageOrientation
        switch orientation {
        case .portrait, .landscape: turn = orientation
        case .auto: turn = canvas.width > canvas.height ? .landscape : .portrait
        }
        return (turn == .landscape ? Size(width: long, height: short) : Size(width: short, height: long), turn)
    }
}

/// Where a framed canvas lands on a page, and the page's boxes: the media (the whole output)
/// holds the bleed box, which is the trim box (the finished page) grown by the bleed; crop marks,
/// when there are any, lie in the slug between the bleed box and the media's edge.
public struct PagePlacement: Sendable, Equatable, Codable {
    /// The whole output: the bleed box plus the slug on each side (the PDF MediaBox).
    public var media: Size
    /// The page (trim box) within the media.
    public var trim: Rect
    /// Bleed on each side, in points.
    public var bleed: Double
    /// Portrait or landscape, as resolved.
    public var orientation: PageOrientation
    /// Where the framed canvas's top-left corner goes on the media.
    public var origin: Point
    /// The room outside the bleed box on each side, in points: `CropMarks.slug` with crop
    /// marks, else 0.
    public var slug: Double = 0
    /// The marks drawn in the slug.
    public var marks: PrintMarks = .none

    /// A placement with every value given, in points; `PageLayout.place(picture:style:page:)`
    /// computes one.
    public init(media: Size, trim: Rect, bleed: Double, orientation: PageOrientation, origin: Point,
                slug: Double = 0, marks: PrintMarks = .none) {
        self.media = media; self.trim = trim; self.bleed = bleed; self.orientation = orientation; self.origin = origin
        self.slug = slug; self.marks = marks
    }

    /// The placement of a framed canvas of `canvas` points that has no page but has `marks`:
    /// the trim box is the canvas, there is no bleed, and the media grows by the slug.
    public static func unpaged(canvas: Size, marks: PrintMarks) -> PagePlacement {
        let slug = marks == .none ? 0 : CropMarks.slug
        return PagePlacement(media: Size(width: canvas.width + 2 * slug, height: canvas.height + 2 * slug),
                             trim: Rect(x: slug, y: slug, width: canvas.width, height: canvas.height), bleed: 0,
                             orientation: canvas.width > canvas.height ? .landscape : .portrait,
                             origin: Point(x: slug, y: slug), slug: slug, marks: marks)
    }

    /// The bleed box: the trim box grown by the bleed on every side.
    public var bleedBox: Rect {
        Rect(x: trim.x - bleed, y: trim.y - bleed, width: trim.width + 2 * bleed, height: trim.height + 2 * bleed)
    }

    /// The media box: the whole output, from (0, 0).
    public var mediaBox: Rect { Rect(origin: .zero, size: media) }

    /// The crop marks to draw, in media coordinates (none without `marks`).
    public var cropMarks: [CropMarks.Line] { marks == .crop ? CropMarks.lines(trim: trim, bleed: bleed) : [] }

    /// `rect` (in framed-canvas coordinates) in media coordinates.
    public func onPage(_ rect: Rect) -> Rect { rect.offsetBy(dx: origin.x, dy: origin.y) }
}

/// Why a framed picture cannot go on a page.
public enum PageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The framed picture (frame, shadows and margin) is larger than the page and its size was
    /// given, so it is not changed.
    case doesNotFit(canvas: Size, page: Size, pageName: String, orientation: PageOrientation)
    /// Even a tiny frame does not fit: the shadows, margin, border and padding fill the page.
    case noRoom(page: Size, pageName: String, orientation: PageOrientation, needed: Size)
    /// A bleed that is negative or not a finite number.
    case invalidBleed(Double)
    /// The style cannot frame the picture at all.
    case layout(LayoutError)

    public var description: String { message(naming: { $0 }) }

    /// The description with each setting it suggests changing (`size`) named by `name`.
    public func message(naming name: (String) -> String) -> String {
        switch self {
        case let .doesNotFit(canvas, page, pageName, orientation):
            return "the framed picture (\(PageSize.millimetres(canvas)) with its shadows and margin) does not fit on "
                + "\(pageName) \(orientation.rawValue) (\(PageSize.millimetres(page))); give a smaller \(name("size")), "
                + "or none to fit the page"
        case let .noRoom(page, pageName, orientation, needed):
            return "the border, padding, shadows and margin (\(PageSize.millimetres(needed))) leave no room for the "
                + "picture on \(pageName) \(orientation.rawValue) (\(PageSize.millimetres(page)))"
        case let .invalidBleed(points):
            return "bleed \(Length(points: points)) is invalid: it must be zero or more"
        case let .layout(error):
            return error.description
        }
    }
}

/// Puts a framed picture on a page.
public enum PageLayout {
    /// Lays out `picture` with `style` and centres it on `page`. A frame without a given size
    /// (`--size`, `--width`, `--height`) that is too large for the page is made smaller, keeping
    /// its border, padding, shadows and margin, until the whole canvas fits; a frame with a given
    /// size that does not fit is an error. `pageColor` is the colour a caption's automatic
    /// colour reads on where the canvas is transparent (`FrameLayout.init`). Returns the style
    /// actually used (its `width` or `height` set when the frame was made smaller), its layout
    /// and the placement.
    public static func place(picture: PictureMetrics, style: FrameStyle, page: PageSpec,
                             text: (any TextMeasure)? = nil, pageColor: RGBAColor = .white) throws(PageError) -> (style: FrameStyle, layout: FrameLayout, placement: PagePlacement) {
        let bleed = page.bleed.points
        guard bleed >= 0, bleed.isFinite else { throw .invalidBleed(bleed) }
        var style = style
        var layout: FrameLayout
        do { layout = try FrameLayout(picture: picture, style: style, text: text, pageColor: pageColor) } catch { throw .layout(error) }
        let (pageSize, orientation) = page.pageSize(for: layout.canvas)
        let name = page.size.description
        let tolerance = 1e-6

        if layout.canvas.width > pageSize.width + tolerance || layout.canvas.height > pageSize.height + tolerance {
            guard style.size == nil, style.width == nil, style.height == nil else {
                throw .doesNotFit(canvas: layout.canvas, page: pageSize, pageName: name, orientation: orientation)
            }
            // What surrounds the frame (shadow extents, margin) keeps its size whatever the frame's.
            let aroundW = layout.canvas.width - layout.frame.width
            let aroundH = layout.canvas.height - layout.frame.height
            let roomW = pageSize.width - aroundW, roomH = pageSize.height - aroundH
            let chromeW = layout.frame.width - layout.contentBox.width
            let chromeH = layout.frame.height - layout.contentBox.height
            guard roomW > chromeW, roomH > chromeH else {
                throw .noRoom(page: pageSize, pageName: name, orientation: orientation,
                              needed: Size(width: aroundW + chromeW, height: aroundH + chromeH))
            }
            var fitted = style
            fitted.width = Length(points: roomW)
            do { layout = try FrameLayout(picture: picture, style: fitted, text: text, pageColor: pageColor) } catch { throw .layout(error) }
            if layout.canvas.height > pageSize.height + tolerance {
                fitted.width = nil
                fitted.height = Length(points: roomH)
                do { layout = try FrameLayout(picture: picture, style: fitted, text: text, pageColor: pageColor) } catch { throw .layout(error) }
            }
            style = fitted
        }

        // The media holds the bleed box and, with marks, the slug around it.
        let slug = page.marks == .none ? 0 : CropMarks.slug
        let edge = bleed + slug
        let media = Size(width: pageSize.width + 2 * edge, height: pageSize.height + 2 * edge)
        let origin = Point(x: edge + (pageSize.width - layout.canvas.width) / 2,
                           y: edge + (pageSize.height - layout.canvas.height) / 2)
        let placement = PagePlacement(media: media, trim: Rect(x: edge, y: edge, width: pageSize.width, height: pageSize.height),
                                      bleed: bleed, orientation: orientation, origin: origin, slug: slug, marks: page.marks)
        return (style, layout, placement)
    }
}
