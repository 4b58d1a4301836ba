/// Several prints on one sheet: the grid a batch is ganged in, and where each print goes.
///
/// Pure geometry in points, y downwards, like pages. Every print of a batch has a trim box of
/// the same size, a *cell*: the page (`--page`) when one is given, else a cell that the grid
/// makes (`n-up CxR`: the sheet divided) or that the prints make (`n-up auto`: the largest
/// framed canvas). Cells lie in a grid of columns and rows, `gutter` apart (trim to trim), the
/// whole block centred on the portrait sheet with `SheetGrid.margin` kept free on every side
/// for crop marks and a printer's unprintable edge. A print keeps its own bleed round its cell;
/// crop marks are drawn only in the margin, in line with every cut (`SheetGrid.cropMarks`), so
/// that none crosses another print's bleed. A print whose way up differs from its cell's is
/// turned a quarter turn clockwise to fill it (only with `PageOrientation.auto`).

/// How many prints a sheet holds.
public enum NUp: Sendable, Equatable, Codable, CustomStringConvertible {
    /// As many as fit at the prints' size, the cells turned whichever way holds more.
    case auto
    /// A fixed grid: `columns` across the portrait sheet, `rows` down.
    case grid(columns: Int, rows: Int)

    /// The most columns or rows a grid may have.
    public static let maximumSide = 50

    /// Parses `auto` or `CxR` (`2x3`: two columns, three rows), each from 1 to `maximumSide`.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = String(text.styleTrimmed).lowercased()
        if trimmed == "auto" {
            self = .auto
            return
        }
        let parts = trimmed.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0].styleTrimmed), let rows = Int(parts[1].styleTrimmed),
              (1...Self.maximumSide).contains(columns), (1...Self.maximumSide).contains(rows) else {
            throw StyleParseError(kind: "n-up", input: text, reason: "expected auto or COLUMNSxROWS, like 2x3, "
                                  + "each from 1 to \(Self.maximumSide)")
        }
        self = .grid(columns: columns, rows: rows)
    }

    /// `auto`, or `2x3`; parses back to the same value.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case let .grid(columns, rows): return "\(columns)x\(rows)"
        }
    }

    public init(from decoder: any Decoder) throws {
        self = try decodeStyleValue(decoder, NUp.init(parsing:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The sheet a batch is ganged on: its paper (always portrait, as a printer takes it), how many
/// prints it holds, and the gutter between them.
public struct SheetSpec: Sendable, Equatable, Codable {
    /// The paper.
    public var size: PageSize
    /// How many prints go on a sheet.
    public var nUp: NUp
    /// The room between neighbouring prints' trim boxes; nil: twice the bleed, so that their
    /// bleeds meet. Narrower than twice the bleed is an error.
    public var gutter: Length?

    /// A sheet of `size` holding `nUp` prints, `gutter` apart (twice the bleed when nil).
    public init(size: PageSize, nUp: NUp = .auto, gutter: Length? = nil) {
        self.size = size; self.nUp = nUp; self.gutter = gutter
    }
}

/// The grid every sheet of a batch shares.
public struct SheetGrid: Sendable, Equatable, Codable {
    /// The sheet, portrait, in points.
    public var sheet: Size
    /// Every print's trim box as it lies on the sheet.
    public var cell: Size
    /// Cells across.
    public var columns: Int
    /// Cells down.
    public var rows: Int
    /// Trim to trim between neighbouring cells, in points.
    public var gutter: Double
    /// Each print's bleed round its cell, in points.
    public var bleed: Double
    /// The first cell's top-left corner: the block of cells is centred on the sheet.
    public var origin: Point

    /// The room kept free on every side of the sheet, outside the bleed of every print:
    /// `CropMarks.slug` (9 mm), where the crop marks go (3 mm gap, 5 mm mark, 1 mm of paper), so
    /// that turning marks on or off moves nothing, and which a home printer's unprintable edge
    /// (3 to 5 mm) leaves alone.
    public static let margin = CropMarks.slug

    /// Prints on a full sheet.
    public var perSheet: Int { columns * rows }

    /// The cells' way up on the sheet (a square cell counts as portrait).
    public var orientation: PageOrientation { cell.width > cell.height ? .landscape : .portrait }

    /// The trim box of the cell at `column`, `row` (from 0), on the sheet.
    public func trim(column: Int, row: Int) -> Rect {
        Rect(x: origin.x + Double(column) * (cell.width + gutter), y: origin.y + Double(row) * (cell.height + gutter),
             width: cell.width, height: cell.height)
    }

    /// The crop marks of a sheet whose cells `slots` (from 0, row by row) hold prints: every
    /// cut, the left and right edges of each column used and the top and bottom edges of each
    /// row used, marked at both ends outside the block of those cells, in the sheet's margin:
    /// each mark `CropMarks.gap` beyond the block's bleed and `CropMarks.length` long, in line
    /// with its cut. A cut that two cells share (no gutter) is marked once. No mark lies between
    /// prints, so none crosses a print's bleed.
    public func cropMarks(slots: [Int]) -> [CropMarks.Line] {
        guard !slots.isEmpty else { return [] }
        let columnsUsed = Set(slots.map { $0 % columns }).sorted(), rowsUsed = Set(slots.map { $0 / columns }).sorted()
        let first = trim(column: columnsUsed.first!, row: rowsUsed.first!)
        let last = trim(column: columnsUsed.last!, row: rowsUsed.last!)
        let near = bleed + CropMarks.gap, far = near + CropMarks.length
        func distinct(_ values: [Double]) -> [Double] {
            values.sorted().reduce(into: []) { kept, v in if kept.last.map({ abs($0 - v) > 1e-6 }) ?? true { kept.append(v) } }
        }
        var lines: [CropMarks.Line] = []
        for x in distinct(columnsUsed.flatMap { [trim(column: $0, row: 0).minX, trim(column: $0, row: 0).maxX] }) {
            lines.append(CropMarks.Line(start: Point(x: x, y: first.minY - near), end: Point(x: x, y: first.minY - far)))
            lines.append(CropMarks.Line(start: Point(x: x, y: last.maxY + near), end: Point(x: x, y: last.maxY + far)))
        }
        for y in distinct(rowsUsed.flatMap { [trim(column: 0, row: $0).minY, trim(column: 0, row: $0).maxY] }) {
            lines.append(CropMarks.Line(start: Point(x: first.minX - near, y: y), end: Point(x: first.minX - far, y: y)))
            lines.append(CropMarks.Line(start: Point(x: last.maxX + near, y: y), end: Point(x: last.maxX + far, y: y)))
        }
        return lines
    }
}

/// Where one print goes: its sheet and cell, and how its own output (its page and bleed, as
/// framing it alone on that page would make it) lies there.
public struct PrintPlace: Sendable, Equatable, Codable {
    /// The sheet, from 0.
    public var sheet: Int
    /// The cell's column and row on the sheet, from 0.
    public var column: Int
    /// See `column`.
    public var row: Int
    /// Turned a quarter turn clockwise: the print's top edge runs down the cell's right side.
    public var turned: Bool
    /// The print's own output (its bleed box): its size the print's way up.
    public var media: Size
    /// Where the print's bleed box's top-left corner lies on the sheet, as placed (turned or not).
    public var origin: Point

    /// A place with every value given.
    public init(sheet: Int, column: Int, row: Int, turned: Bool, media: Size, origin: Point) {
        self.sheet = sheet; self.column = column; self.row = row; self.turned = turned; self.media = media
        self.origin = origin
    }

    /// The room the print takes on the sheet: its media, turned or not.
    public var footprint: Rect {
        Rect(origin: origin, size: turned ? Size(width: media.height, height: media.width) : media)
    }

    /// A point of the print's own output on the sheet.
    public func onSheet(_ p: Point) -> Point {
        turned ? Point(x: origin.x + media.height - p.y, y: origin.y + p.x) : Point(x: origin.x + p.x, y: origin.y + p.y)
    }

    /// A rectangle of the print's own output on the sheet.
    public func onSheet(_ r: Rect) -> Rect {
        guard turned else { return r.offsetBy(dx: origin.x, dy: origin.y) }
        return Rect(x: origin.x + media.height - r.maxY, y: origin.y + r.minX, width: r.height, height: r.width)
    }
}

/// A batch on sheets: the grid, and for each print (in order) the page it is framed on, its way
/// up, and its place.
public struct SheetArrangement: Sendable, Equatable, Codable {
    /// The grid every sheet shares.
    public var grid: SheetGrid
    /// Each print's page (its trim box), its own way up.
    public var pages: [Size]
    /// Each print's place on the sheets.
    public var places: [PrintPlace]

    /// How many sheets the prints fill.
    public var sheetCount: Int { (places.map(\.sheet).max() ?? -1) + 1 }

    /// The page spec a print is framed on: its page, its way up, the bleed, no marks (the
    /// sheet has them).
    public func pageSpec(for index: Int) -> PageSpec {
        let page = pages[index]
        return PageSpec(size: PageSize(width: Length(points: page.width), height: Length(points: page.height)),
                        orientation: page.width > page.height ? .landscape : .portrait,
                        bleed: Length(points: grid.bleed))
    }
}

/// Why prints cannot go on sheets.
public enum SheetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A gutter narrower than two bleeds: neighbouring prints' bleeds would overlap.
    case gutterTooNarrow(gutter: Double, bleed: Double)
    /// A bleed or gutter that is negative or not a finite number.
    case invalidLength(name: String, Double)
    /// The margin and bleeds leave no room on the sheet.
    case noRoom(sheet: Size, sheetName: String)
    /// The page (with its bleed) does not fit on the sheet either way up.
    case pageDoesNotFit(page: Size, pageName: String, sheet: Size, sheetName: String)
    /// The grid does not fit on the sheet: its columns and rows, and the page when one was given.
    case gridDoesNotFit(columns: Int, rows: Int, page: Size?, sheet: Size, sheetName: String)

    public var description: String { message(naming: { $0 }) }

    /// The description with each setting it names (`gutter`, `n-up`, `page`, `bleed`) named by
    /// `name`.
    public func message(naming name: (String) -> String) -> String {
        let margin = formatStyleNumber((Length(points: SheetGrid.margin).value(in: .mm) * 10).rounded() / 10)
        switch self {
        case let .gutterTooNarrow(gutter, bleed):
            return "the \(name("gutter")) (\(Length(points: gutter))) is narrower than two bleeds (2 x \(Length(points: bleed))): "
                + "neighbouring prints' bleeds would overlap; give a \(name("gutter")) of at least \(Length(points: 2 * bleed))"
        case let .invalidLength(setting, value):
            return "\(name(setting)) \(Length(points: value)) is invalid: it must be zero or more"
        case let .noRoom(sheet, sheetName):
            return "the sheet \(sheetName) (\(PageSize.millimetres(sheet))) has no room for a print once its \(margin) mm "
                + "margins and the \(name("bleed")) are kept free"
        case let .pageDoesNotFit(page, pageName, sheet, sheetName):
            return "the \(name("page")) \(pageName) (\(PageSize.millimetres(page))) with its \(name("bleed")) does not fit on "
                + "the sheet \(sheetName) (\(PageSize.millimetres(sheet))) inside its \(margin) mm margins"
        case let .gridDoesNotFit(columns, rows, page, sheet, sheetName):
            let what = page.map { " of \(PageSize.millimetres($0)) prints" } ?? ""
            return "\(name("n-up")) \(columns)x\(rows)\(what) does not fit on the sheet \(sheetName) (\(PageSize.millimetres(sheet))) "
                + "with its gutters, bleeds and \(margin) mm margins; give fewer columns or rows"
                + (page == nil ? "" : ", a smaller \(name("page")), or n-up auto")
        }
    }
}

/// Gangs prints on sheets.
public enum SheetLayout {
    /// Arranges prints on sheets of `sheet`. `canvases` are the prints' framed canvases as each
    /// is laid out alone without a page (their way up, and their size when there is no page).
    ///
    /// - The cell: `page` (turned as the grid needs) when given; else, for a grid, the sheet's
    ///   room (less its margins and the outer bleeds) shared out among its columns and rows less
    ///   the gutters; else (`auto`) the smallest box that holds every canvas, or the sheet's
    ///   whole room when none fits (the frames then shrink to it, as on a page).
    /// - The cells' way up: with `orientation` portrait or landscape, that one (a grid's cells
    ///   have the grid's shape) and no print is turned. With `auto`: the way that holds more
    ///   prints (`auto`) or that fits (a grid with a page); on a tie, the way that turns fewer
    ///   prints, then portrait. A print whose way up (a canvas wider than tall is landscape)
    ///   differs from a cell that is not square is turned a quarter turn clockwise.
    /// - Prints fill the cells row by row, left to right, sheet after sheet.
    public static func arrange(sheet spec: SheetSpec, page: PageSize?, orientation: PageOrientation, bleed: Length,
                               canvases: [Size]) throws(SheetError) -> SheetArrangement {
        let bleed = bleed.points
        guard bleed >= 0, bleed.isFinite else { throw .invalidLength(name: "bleed", bleed) }
        let gutter = spec.gutter?.points ?? 2 * bleed
        guard gutter >= 0, gutter.isFinite else { throw .invalidLength(name: "gutter", gutter) }
        guard gutter >= 2 * bleed - 1e-9 else { throw .gutterTooNarrow(gutter: gutter, bleed: bleed) }
        let short = min(spec.size.width.points, spec.size.height.points)
        let long = max(spec.size.width.points, spec.size.height.points)
        let sheet = Size(width: short, height: long), sheetName = spec.size.description
        let room = Size(width: short - 2 * (SheetGrid.margin + bleed), height: long - 2 * (SheetGrid.margin + bleed))
        guard room.width > 0, room.height > 0 else { throw .noRoom(sheet: sheet, sheetName: sheetName) }
        let tolerance = 1e-6

        /// How many cells of `size` fit across `length` of room.
        func count(_ size: Double, in length: Double) -> Int {
            size > 0 ? max(0, Int(((length + gutter) / (size + gutter) + tolerance).rounded(.down))) : 0
        }
        func isLandscape(_ s: Size) -> Bool { s.width > s.height }
        /// Prints that a cell of `way` turns (with `auto`).
        func turns(_ way: PageOrientation) -> Int {
            canvases.filter { $0.width != $0.height && isLandscape($0) != (way == .landscape) }.count
        }
        func transposed(_ s: Size) -> Size { Size(width: s.height, height: s.width) }
        /// Of two ways up, the one that turns fewer prints, then portrait.
        func preferred(_ ways: [PageOrientation]) -> PageOrientation {
            ways.min { a, b in (turns(a), a == .portrait ? 0 : 1) < (turns(b), b == .portrait ? 0 : 1) }!
        }

        var cell: Size
        var columns: Int, rows: Int
        switch (spec.nUp, page) {
        case let (.grid(c, r), page?):
            let s = min(page.width.points, page.height.points), l = max(page.width.points, page.height.points)
            let ways: [PageOrientation] = orientation == .auto ? [.portrait, .landscape] : [orientation]
            let fitting = ways.filter { way in
                let size = way == .landscape ? Size(width: l, height: s) : Size(width: s, height: l)
                return count(size.width, in: room.width) >= c && count(size.height, in: room.height) >= r
            }
            guard !fitting.isEmpty else {
                throw .gridDoesNotFit(columns: c, rows: r, page: Size(width: s, height: l), sheet: sheet, sheetName: sheetName)
            }
            let way = preferred(fitting)
            cell = way == .landscape ? Size(width: l, height: s) : Size(width: s, height: l)
            (columns, rows) = (c, r)
        case let (.grid(c, r), nil):
            cell = Size(width: (room.width - Double(c - 1) * gutter) / Double(c),
                        height: (room.height - Double(r - 1) * gutter) / Double(r))
            guard cell.width > tolerance, cell.height > tolerance else {
                throw .gridDoesNotFit(columns: c, rows: r, page: nil, sheet: sheet, sheetName: sheetName)
            }
            (columns, rows) = (c, r)
        case let (.auto, page):
            var candidates: [(way: PageOrientation, cell: Size)] = []
            if let page {
                let s = min(page.width.points, page.height.points), l = max(page.width.points, page.height.points)
                candidates = [(.portrait, Size(width: s, height: l)), (.landscape, Size(width: l, height: s))]
            } else if orientation == .auto {
                let s = canvases.map { min($0.width, $0.height) }.max() ?? 0
                let l = canvases.map { max($0.width, $0.height) }.max() ?? 0
                candidates = [(.portrait, Size(width: s, height: l)), (.landscape, Size(width: l, height: s))]
            } else {
                let upright = Size(width: canvases.map(\.width).max() ?? 0, height: canvases.map(\.height).max() ?? 0)
                candidates = [(isLandscape(upright) ? .landscape : .portrait, upright)]
            }
            if page != nil && orientation != .auto { candidates = candidates.filter { $0.way == orientation } }
            let counted = candidates.map { ($0, count($0.cell.width, in: room.width), count($0.cell.height, in: room.height)) }
            let most = counted.map { $1 * $2 }.max() ?? 0
            if most == 0 {
                if let page {
                    throw .pageDoesNotFit(page: Size(width: min(page.width.points, page.height.points),
                                                     height: max(page.width.points, page.height.points)),
                                          pageName: page.description, sheet: sheet, sheetName: sheetName)
                }
                // Larger than the sheet: one to a sheet, shrunk to its room.
                cell = room
                (columns, rows) = (1, 1)
            } else {
                let best = counted.filter { $1 * $2 == most }
                let way = preferred(best.map(\.0.way))
                let chosen = best.first { $0.0.way == way }!
                cell = chosen.0.cell
                (columns, rows) = (chosen.1, chosen.2)
            }
        }

        let block = Size(width: Double(columns) * cell.width + Double(columns - 1) * gutter,
                         height: Double(rows) * cell.height + Double(rows - 1) * gutter)
        let grid = SheetGrid(sheet: sheet, cell: cell, columns: columns, rows: rows, gutter: gutter, bleed: bleed,
                             origin: Point(x: (sheet.width - block.width) / 2, y: (sheet.height - block.height) / 2))
        let square = abs(cell.width - cell.height) <= tolerance
        var pages: [Size] = [], places: [PrintPlace] = []
        for (index, canvas) in canvases.enumerated() {
            let turned = orientation == .auto && !square && canvas.width != canvas.height
                && isLandscape(canvas) != isLandscape(cell)
            let own = turned ? transposed(cell) : cell
            let slot = index % grid.perSheet
            let column = slot % columns, row = slot / columns
            let trim = grid.trim(column: column, row: row)
            pages.append(own)
            places.append(PrintPlace(sheet: index / grid.perSheet, column: column, row: row, turned: turned,
                                     media: Size(width: own.width + 2 * bleed, height: own.height + 2 * bleed),
                                     origin: Point(x: trim.minX - bleed, y: trim.minY - bleed)))
        }
        return SheetArrangement(grid: grid, pages: pages, places: places)
    }
}
