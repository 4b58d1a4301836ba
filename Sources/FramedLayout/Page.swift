/// Print pages: paper sizes, orientation, bleed, and where a framed picture goes on a page.
///
/// Pure geometry in points, like the box model. The framed canvas (frame, shadows, margin) is
/// centred on the page; when it is too big and no size was asked for, the frame is made smaller
/// (its border, padding, shadows and margin keep their lengths) until it fits.

/// A paper size, portrait (width <= height): a standard one (A3-A6, Letter, Legal), a photo
/// lab's print size (4x6, 5x7, 8x10, 11x14 in inches; 10x15, 13x18, 20x30 in centimetres), or
/// any `WxH` in length units. Codable as its text.
public struct PageSize: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The paper's width as written. Orientation, not this, decides which side runs across:
    /// `PageSpec.pageSize(for:)` uses the shorter and the longer side.
    public var width: Length
    /// The paper's height as written (see `width`).
    public var height: Length
    /// The standard name, when the size is one ("A4", "4x6").
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
    /// ISO A6: 105 x 148 mm (a postcard).
    public static let a6 = PageSize(width: .mm(105), height: .mm(148), name: "A6")
    /// US Letter: 8.5 x 11 in.
    public static let letter = PageSize(width: .inches(8.5), height: .inches(11), name: "Letter")
    /// US Legal: 8.5 x 14 in.
    public static let legal = PageSize(width: .inches(8.5), height: .inches(14), name: "Legal")
    /// The standard sizes `init(parsing:)` knows by name.
    public static let standard: [PageSize] = [.a3, .a4, .a5, .a6, .letter, .legal]

    /// The print sizes photo labs name by two bare numbers: inches in the US (4x6, 5x7, 8x10,
    /// 11x14), centimetres in Europe (10x15, 13x18, 20x30). `init(parsing:)` takes them either
    /// way round (`6x4` is `4x6`: the orientation decides which side runs across).
    public static let photo: [PageSize] = [
        PageSize(width: .inches(4), height: .inches(6), name: "4x6"),
        PageSize(width: .inches(5), height: .inches(7), name: "5x7"),
        PageSize(width: .inches(8), height: .inches(10), name: "8x10"),
        PageSize(width: .inches(11), height: .inches(14), name: "11x14"),
        PageSize(width: .cm(10), height: .cm(15), name: "10x15"),
        PageSize(width: .cm(13), height: .cm(18), name: "13x18"),
        PageSize(width: .cm(20), height: .cm(30), name: "20x30"),
    ]

    /// Every size known by name: the standard ones, then the photo sizes.
    public static var named: [PageSize] { standard + photo }

    /// What a page may be, for messages.
    static let expected = "expected " + standard.map { $0.name! }.joined(separator: ", ")
        + ", a photo size (4x6, 5x7, 8x10, 11x14 in inches; 10x15, 13x18, 20x30 in cm) or WIDTHxHEIGHT with units, "
        + "like 4inx6in or 10x15cm"

    /// Parses a standard name (any case: `A4`, `letter`), a photo size (`4x6`, `10x15`, either
    /// way round) or `WxH` with units (`100mmx150mm`, `4inx6in`, `10x15cm`). Any other size of
    /// bare numbers (`4x5`, `600x400`) is an error: a page a few pixels wide is never meant,
    /// and the message suggests units. Either way the orientation decides which side is the
    /// long one.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = String(text.styleTrimmed)
        if let named = Self.standard.first(where: { $0.name!.lowercased() == trimmed.lowercased() }) {
            self = named
            return
        }
        // A photo size: two bare numbers, either way round, "x" or "×" between, spaces allowed.
        let compact = String(trimmed.lowercased().filter { !$0.isWhitespace }.map { $0 == "×" ? "x" : $0 })
        for size in Self.photo {
            let sides = size.name!.split(separator: "x")
            if compact == size.name! {
                self = size
                return
            }
            if compact == "\(sides[1])x\(sides[0])" {
                self = PageSize(width: size.width, height: size.height, name: compact)
                return
            }
        }
        let size: LengthSize
        do { size = try LengthSize(parsing: trimmed) } catch {
            throw StyleParseError(kind: "page", input: trimmed, reason: Self.expected)
        }
        // The height's text ends in its unit, which is the width's too when that has none
        // (`10x15cm`): a size that ends in a digit has a bare number, which would be px.
        if let last = trimmed.last, last.isNumber || last == "." {
            throw StyleParseError(kind: "page", input: trimmed,
                                  reason: "a page needs units, like 4inx6in or 10x15cm (a page of pixels is never meant; "
                                    + "the photo sizes 4x6, 5x7, 8x10, 11x14 are inches, 10x15, 13x18, 20x30 cm)")
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
    /// The band inside the trim that a cutter's drift (0.5-1 mm) may reach: a frame without a
    /// given size is fitted inside the page less this on every side, and a border, inner border
    /// or caption within it gets a warning (`SafeZone`). 3 mm by default, the usual 1/8 in.
    public var safeMargin: Length = PageSpec.defaultSafeMargin

    /// The safe margin when none is given: 3 mm.
    public static let defaultSafeMargin = Length.mm(3)

    /// A page of `size`, turned as the picture needs unless `orientation` says, without bleed
    /// unless given (`PageLayout` refuses a negative one), without marks unless given, with the
    /// default safe margin unless given.
    public init(size: PageSize, orientation: PageOrientation = .auto, bleed: Length = .zero, marks: PrintMarks = .none,
                safeMargin: Length = PageSpec.defaultSafeMargin) {
        self.size = size; self.orientation = orientation; self.bleed = bleed; self.marks = marks
        self.safeMargin = safeMargin
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
    /// The safe margin inside the trim, in points (0 without a page).
    public var safeMargin: Double = 0

    /// A placement with every value given, in points; `PageLayout.place(picture:style:page:)`
    /// computes one.
    public init(media: Size, trim: Rect, bleed: Double, orientation: PageOrientation, origin: Point,
                slug: Double = 0, marks: PrintMarks = .none, safeMargin: Double = 0) {
        self.media = media; self.trim = trim; self.bleed = bleed; self.orientation = orientation; self.origin = origin
        self.slug = slug; self.marks = marks; self.safeMargin = safeMargin
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

    /// The safe box: the trim box less the safe margin on every side, where lines and text
    /// are safe from the cutter.
    public var safeBox: Rect { trim.outset(by: -safeMargin) }

    /// The trim box in the framed canvas's coordinates (where `FrameLayout`'s rectangles are).
    public var trimOnCanvas: Rect { trim.offsetBy(dx: -origin.x, dy: -origin.y) }

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
    /// Even a tiny frame does not fit: the shadows, margin, border, padding and safe margin
    /// fill the page.
    case noRoom(page: Size, pageName: String, orientation: PageOrientation, needed: Size)
    /// A bleed that is negative or not a finite number.
    case invalidBleed(Double)
    /// A safe margin that is negative or not a finite number.
    case invalidSafeMargin(Double)
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
            return "the border, padding, shadows, margin and \(name("safe-margin")) (\(PageSize.millimetres(needed))) leave "
                + "no room for the picture on \(pageName) \(orientation.rawValue) (\(PageSize.millimetres(page)))"
        case let .invalidBleed(points):
            return "bleed \(Length(points: points)) is invalid: it must be zero or more"
        case let .invalidSafeMargin(points):
            return "\(name("safe-margin")) \(Length(points: points)) is invalid: it must be zero or more"
        case let .layout(error):
            return error.description
        }
    }
}

/// Puts a framed picture on a page.
public enum PageLayout {
    /// Lays out `picture` with `style` and centres it on `page`. A frame without a given size
    /// (`--size`, `--width`, `--height`) is made smaller, keeping its border, padding, shadows
    /// and margin, until the whole canvas fits the page and the frame (with a caption under it)
    /// lies inside the page's safe box (the page less `PageSpec.safeMargin` on every side); a
    /// frame with a given size that does not fit the page is an error (one that reaches into
    /// the safe margin is `SafeZone`'s warning). `pageColor` is the colour a caption's automatic
    /// colour reads on where the canvas is transparent (`FrameLayout.init`). Returns the style
    /// actually used (its `width` or `height` set when the frame was made smaller), its layout
    /// and the placement.
    public static func place(picture: PictureMetrics, style: FrameStyle, page: PageSpec,
                             text: (any TextMeasure)? = nil, pageColor: RGBAColor = .white) throws(PageError) -> (style: FrameStyle, layout: FrameLayout, placement: PagePlacement) {
        let bleed = page.bleed.points, safe = page.safeMargin.points
        guard bleed >= 0, bleed.isFinite else { throw .invalidBleed(bleed) }
        guard safe >= 0, safe.isFinite else { throw .invalidSafeMargin(safe) }
        var style = style
        var layout: FrameLayout
        do { layout = try FrameLayout(picture: picture, style: style, text: text, pageColor: pageColor) } catch { throw .layout(error) }
        let (pageSize, orientation) = page.pageSize(for: layout.canvas)
        let name = page.size.description
        let tolerance = 1e-6

        let room = Self.room(layout, page: pageSize, safeMargin: safe)
        if layout.frame.width > room.width + tolerance || layout.frame.height > room.height + tolerance {
            if layout.canvas.width > pageSize.width + tolerance || layout.canvas.height > pageSize.height + tolerance {
                guard (style.size == nil && style.width == nil && style.height == nil)
                        || Self.fillsTrim(layout, page: pageSize) else {
                    throw .doesNotFit(canvas: layout.canvas, page: pageSize, pageName: name, orientation: orientation)
                }
            }
            if style.size == nil, style.width == nil, style.height == nil {
                // What surrounds the frame (shadow extents, margin, a caption below) keeps its
                // size whatever the frame's.
                let chromeW = layout.frame.width - layout.contentBox.width
                let chromeH = layout.frame.height - layout.contentBox.height
                guard room.width > chromeW, room.height > chromeH else {
                    throw .noRoom(page: pageSize, pageName: name, orientation: orientation,
                                  needed: Size(width: pageSize.width - room.width + chromeW,
                                               height: pageSize.height - room.height + chromeH))
                }
                var fitted = style
                fitted.width = Length(points: room.width)
                do { layout = try FrameLayout(picture: picture, style: fitted, text: text, pageColor: pageColor) } catch { throw .layout(error) }
                if layout.frame.height > room.height + tolerance {
                    fitted.width = nil
                    fitted.height = Length(points: room.height)
                    do { layout = try FrameLayout(picture: picture, style: fitted, text: text, pageColor: pageColor) } catch { throw .layout(error) }
                }
                style = fitted
            }
        }

        // The media holds the bleed box and, with marks, the slug around it.
        let slug = page.marks == .none ? 0 : CropMarks.slug
        let edge = bleed + slug
        let media = Size(width: pageSize.width + 2 * edge, height: pageSize.height + 2 * edge)
        // The canvas is centred; along an axis where it is wider than the page (a frame of the
        // page's size), the frame is, and its shadows and margin are cut at the bleed box.
        let body = Self.body(layout)
        let origin = Point(x: edge + (layout.canvas.width > pageSize.width + tolerance
                                      ? (pageSize.width - body.width) / 2 - body.minX
                                      : (pageSize.width - layout.canvas.width) / 2),
                           y: edge + (layout.canvas.height > pageSize.height + tolerance
                                      ? (pageSize.height - body.height) / 2 - body.minY
                                      : (pageSize.height - layout.canvas.height) / 2))
        let placement = PagePlacement(media: media, trim: Rect(x: edge, y: edge, width: pageSize.width, height: pageSize.height),
                                      bleed: bleed, orientation: orientation, origin: origin, slug: slug, marks: page.marks,
                                      safeMargin: safe)
        return (style, layout, placement)
    }

    /// The frame with a caption below it: what must lie on the page.
    static func body(_ layout: FrameLayout) -> Rect {
        layout.caption.map { $0.position == .below ? layout.frame.union($0.box) : layout.frame } ?? layout.frame
    }

    /// Whether the canvas of `layout`, wider or taller than `page`, is so only along axes where
    /// the frame (with a caption below) fills the page: a frame given the trim's size, whose
    /// shadows and margin lie past the trim, where the bleed continues the frame's paint over
    /// them and the cut takes them off. A frame smaller than the page whose shadows would be cut
    /// at the trim does not fit.
    /// "Fills" is within 0.75 pt (a quarter of a millimetre): a size given in other units
    /// (`6in` on a 152 mm page) may be a hair larger than the page, and lies over the trim.
    static func fillsTrim(_ layout: FrameLayout, page: Size) -> Bool {
        let body = Self.body(layout), px = 0.75
        let wide = layout.canvas.width > page.width + 1e-6, tall = layout.canvas.height > page.height + 1e-6
        return (!wide || abs(body.width - page.width) <= px) && (!tall || abs(body.height - page.height) <= px)
    }

    /// The largest frame that fits `page` as `layout` is placed: its canvas (frame, shadows,
    /// margin, a caption below) centred on the page and within it, and the frame with a caption
    /// below it inside the safe box. The canvas's parts around the frame keep their size when the
    /// frame changes, and they need not be even (an offset shadow): the frame's room shrinks by
    /// the difference, so that it stays clear of the safe margin on both sides.
    static func room(_ layout: FrameLayout, page: Size, safeMargin: Double) -> Size {
        let body = Self.body(layout)
        let left = body.minX, right = layout.canvas.width - body.maxX
        let top = body.minY, bottom = layout.canvas.height - body.maxY
        let below = body.height - layout.frame.height
        return Size(width: min(page.width - left - right, page.width - 2 * safeMargin - abs(right - left)),
                    height: min(page.height - top - bottom, page.height - 2 * safeMargin - abs(bottom - top)) - below)
    }

    /// The smallest page that holds `layout` as it is, `room`'s inverse: its canvas, and its
    /// frame (with a caption below) `safeMargin` inside the trim, the parts around the frame
    /// kept as they are. On a page this size the frame is not made smaller (a sheet's cell for
    /// prints without a page of their own).
    public static func smallestPage(for layout: FrameLayout, safeMargin: Double) -> Size {
        let body = Self.body(layout)
        let left = body.minX, right = layout.canvas.width - body.maxX
        let top = body.minY, bottom = layout.canvas.height - body.maxY
        let below = body.height - layout.frame.height
        return Size(width: max(layout.frame.width + left + right, layout.frame.width + 2 * safeMargin + abs(right - left)),
                    height: max(layout.frame.height + below + top + bottom,
                                layout.frame.height + below + 2 * safeMargin + abs(bottom - top)))
    }
}
