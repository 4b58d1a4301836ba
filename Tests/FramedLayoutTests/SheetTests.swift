import Testing
@testable import FramedLayout

/// Sheets (issue 30, item 6): the grid, the gutter, the n-up choice, turned prints and the marks
/// along the cuts, with numbers worked out here in millimetres: A4 is 210 x 297 mm, and a sheet
/// keeps 9 mm free on every side.
struct SheetTests {
    let mm = 72 / 25.4
    func mm(_ points: Double) -> Double { (points / 72 * 25.4 * 1000).rounded() / 1000 }
    func mm(_ rect: Rect) -> [Double] { [rect.x, rect.y, rect.width, rect.height].map(mm) }
    func mm(_ point: Point) -> [Double] { [mm(point.x), mm(point.y)] }
    func size(_ w: Double, _ h: Double) -> Size { Size(width: w * mm, height: h * mm) }
    let page = PageSize(width: .mm(100), height: .mm(150))

    @Test func nUpParsesAutoAndGrids() throws {
        #expect(try NUp(parsing: "auto") == .auto)
        #expect(try NUp(parsing: " AUTO ") == .auto)
        #expect(try NUp(parsing: "2x3") == .grid(columns: 2, rows: 3))
        #expect(try NUp(parsing: "4X5") == .grid(columns: 4, rows: 5))
        #expect(NUp.grid(columns: 4, rows: 5).description == "4x5" && NUp.auto.description == "auto")
        for bad in ["0x3", "2x", "x2", "51x1", "2x3x4", "two", "", "-1x2", "2.5x2"] {
            #expect(throws: StyleParseError.self, "\(bad)") { try NUp(parsing: bad) }
        }
    }

    /// 100 x 150 mm prints with 3 mm bleed on A4: 186 x 273 mm of room for trims and gutters
    /// (210 - 2 x (9 + 3), 297 - 2 x (9 + 3)), gutter 6 mm. Upright, one fits (100 + 6 + 100 >
    /// 186; 150 + 6 + 150 > 273); turned, two (150 <= 186; 100 + 6 + 100 = 206 <= 273). So the
    /// cells are landscape, one column of two rows, and a portrait picture is turned.
    @Test func autoTurnsTheCellsTheWayMoreFit() throws {
        let canvases = [size(60, 40), size(40, 60), size(50, 50)]
        let a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4), page: page, orientation: .auto, bleed: .mm(3),
                                        canvases: canvases)
        let grid = a.grid
        #expect(grid.columns == 1 && grid.rows == 2 && grid.perSheet == 2)
        #expect(mm(grid.cell.width) == 150 && mm(grid.cell.height) == 100 && grid.orientation == .landscape)
        #expect(mm(grid.gutter) == 6 && mm(grid.bleed) == 3)
        // The block, 150 x 206 mm, centred: (210 - 150) / 2 = 30, (297 - 206) / 2 = 45.5.
        #expect(mm(grid.origin) == [30, 45.5])
        #expect(mm(grid.trim(column: 0, row: 1)) == [30, 151.5, 150, 100])
        #expect(a.sheetCount == 2)
        #expect(a.places.map(\.turned) == [false, true, false], "the portrait canvas is turned, the square one not")
        #expect(a.places.map(\.sheet) == [0, 0, 1] && a.places.map(\.row) == [0, 1, 0])
        // Each print's own page is the cell its way up; its media the page and its bleed.
        #expect(a.pages.map { [mm($0.width), mm($0.height)] } == [[150, 100], [100, 150], [150, 100]])
        #expect([mm(a.places[1].media.width), mm(a.places[1].media.height)] == [106, 156])
        #expect(mm(a.places[1].origin) == [27, 148.5])
        #expect(mm(a.places[1].footprint) == [27, 148.5, 156, 106])
        let spec = a.pageSpec(for: 1)
        #expect(spec.orientation == .portrait && mm(spec.bleed.points) == 3 && spec.marks == .none)
        #expect(mm(spec.pageSize(for: Size(width: 1, height: 1)).size.height) == 150)
    }

    /// A turned print goes a quarter turn clockwise: its top-left corner to the footprint's
    /// top-right, its bottom-left to the footprint's bottom-right.
    @Test func aTurnedPrintMapsOntoItsFootprint() throws {
        let place = PrintPlace(sheet: 0, column: 0, row: 0, turned: true, media: Size(width: 100, height: 200),
                               origin: Point(x: 10, y: 20))
        #expect(place.footprint == Rect(x: 10, y: 20, width: 200, height: 100))
        #expect(place.onSheet(Point(x: 0, y: 0)) == Point(x: 210, y: 20))
        #expect(place.onSheet(Point(x: 0, y: 200)) == Point(x: 10, y: 20))
        #expect(place.onSheet(Point(x: 100, y: 200)) == Point(x: 10, y: 120))
        #expect(place.onSheet(Rect(x: 10, y: 30, width: 20, height: 40)) == Rect(x: 140, y: 30, width: 40, height: 20))
        let upright = PrintPlace(sheet: 0, column: 0, row: 0, turned: false, media: Size(width: 100, height: 200),
                                 origin: Point(x: 10, y: 20))
        #expect(upright.onSheet(Rect(x: 10, y: 30, width: 20, height: 40)) == Rect(x: 20, y: 50, width: 20, height: 40))
    }

    /// Without a page a grid shares the room out: 2x3 on A4 without bleed is 192 x 279 mm in
    /// 96 x 93 mm cells; with 2 mm bleed and a 4 mm gutter, 188 x 275 mm less the gutters.
    @Test func aGridSharesTheSheetOut() throws {
        let canvases = [size(30, 20), size(20, 30)]
        var a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4, nUp: .grid(columns: 2, rows: 3)), page: nil,
                                        orientation: .auto, bleed: .zero, canvases: canvases)
        #expect(mm(a.grid.cell.width) == 96 && mm(a.grid.cell.height) == 93 && mm(a.grid.origin) == [9, 9])
        #expect(a.places.map(\.turned) == [false, true])
        #expect(mm(a.grid.trim(column: 1, row: 2)) == [105, 195, 96, 93])
        a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4, nUp: .grid(columns: 2, rows: 3), gutter: .mm(4)),
                                    page: nil, orientation: .portrait, bleed: .mm(2), canvases: canvases)
        // (188 - 4) / 2 = 92, (275 - 2 x 4) / 3 = 89; the block 188 x 275 mm from 11 mm.
        #expect(mm(a.grid.cell.width) == 92 && mm(a.grid.cell.height) == 89 && mm(a.grid.origin) == [11, 11])
        #expect(a.places.map(\.turned) == [false, false], "a fixed orientation turns nothing")
        #expect(mm(a.grid.trim(column: 1, row: 1)) == [107, 104, 92, 89])
    }

    /// Without a page, `auto` makes the cell the largest canvas: 300 x 200 pt and 200 x 300 pt
    /// give 200 x 300 pt cells upright (A4's room is 544.25 x 790.87 pt: 2 x 2 of them) and
    /// 300 x 200 pt turned (1 x 3): upright wins, and the landscape canvas is turned.
    @Test func autoWithoutAPageTakesTheLargestCanvas() throws {
        let canvases = [Size(width: 300, height: 200), Size(width: 200, height: 300), Size(width: 100, height: 100)]
        let a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4), page: nil, orientation: .auto, bleed: .zero,
                                        canvases: canvases)
        #expect(a.grid.cell == Size(width: 200, height: 300) && a.grid.columns == 2 && a.grid.rows == 2)
        #expect(a.places.map(\.turned) == [true, false, false])
        // A tie (a 600 pt square sheet holds two either way) goes to the way that turns fewer.
        let square = SheetSpec(size: PageSize(width: .pt(600), height: .pt(600)))
        let wide = [Size(width: 300, height: 200), Size(width: 300, height: 200), Size(width: 200, height: 300)]
        let tie = try SheetLayout.arrange(sheet: square, page: nil, orientation: .auto, bleed: .zero, canvases: wide)
        #expect(tie.grid.cell == Size(width: 300, height: 200) && tie.grid.perSheet == 2)
        #expect(tie.places.map(\.turned) == [false, false, true])
        // Larger than the sheet: one a sheet, in the whole room (the frames shrink to it).
        let huge = try SheetLayout.arrange(sheet: SheetSpec(size: .a4), page: nil, orientation: .auto, bleed: .mm(3),
                                           canvases: [Size(width: 3000, height: 2000)])
        #expect(huge.grid.perSheet == 1 && mm(huge.grid.cell.width) == 186 && mm(huge.grid.cell.height) == 273)
        #expect(huge.places[0].turned)
    }

    /// `portrait` keeps 100 x 150 mm prints upright: one a sheet.
    @Test func aFixedOrientationKeepsPrintsUpright() throws {
        let a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4), page: page, orientation: .portrait, bleed: .mm(3),
                                        canvases: [size(60, 40), size(40, 60)])
        #expect(a.grid.perSheet == 1 && mm(a.grid.cell.width) == 100 && a.places.allSatisfy { !$0.turned })
        #expect(a.sheetCount == 2)
    }

    @Test func whatCannotGoOnASheetIsAnError() {
        func failure(_ spec: SheetSpec, page: PageSize?, bleed: Length = .mm(3)) -> SheetError? {
            do {
                _ = try SheetLayout.arrange(sheet: spec, page: page, orientation: .auto, bleed: bleed, canvases: [size(60, 40)])
                return nil
            } catch { return error }
        }
        let narrow = failure(SheetSpec(size: .a4, gutter: .mm(5)), page: page)
        guard case let .gutterTooNarrow(gutter, bleed)? = narrow else { Issue.record("\(String(describing: narrow))"); return }
        #expect(mm(gutter) == 5 && mm(bleed) == 3)
        let message = narrow!.message(naming: { "--" + $0 })
        #expect(message.contains("--gutter (5mm)") && message.contains("at least 6mm"), "\(message)")
        let big = failure(SheetSpec(size: .a4), page: PageSize(width: .mm(400), height: .mm(300)))
        guard case let .pageDoesNotFit(size, name, sheet, sheetName)? = big else { Issue.record("\(String(describing: big))"); return }
        #expect([mm(size.width), mm(size.height), mm(sheet.width), mm(sheet.height)] == [300, 400, 210, 297])
        #expect(name == "400mmx300mm" && sheetName == "A4")
        let grid = failure(SheetSpec(size: .a4, nUp: .grid(columns: 2, rows: 2)), page: page)
        guard case let .gridDoesNotFit(2, 2, cell?, _, "A4")? = grid else { Issue.record("\(String(describing: grid))"); return }
        #expect(mm(cell.width) == 100 && mm(cell.height) == 150)
        let tiny = failure(SheetSpec(size: PageSize(width: .mm(20), height: .mm(20))), page: nil)
        guard case .noRoom(_, "20mmx20mm")? = tiny else { Issue.record("\(String(describing: tiny))"); return }
        let many = failure(SheetSpec(size: .a4, nUp: .grid(columns: 50, rows: 1), gutter: .mm(6)), page: nil)
        guard case .gridDoesNotFit(50, 1, nil, _, "A4")? = many else { Issue.record("\(String(describing: many))"); return }
    }

    /// The marks: every cut of the cells used, at both ends, 3 to 8 mm beyond the block's bleed;
    /// none inside any print's bleed box, none past the sheet.
    @Test func marksRunAlongEveryCutInTheMargin() throws {
        let a = try SheetLayout.arrange(sheet: SheetSpec(size: .a4, nUp: .grid(columns: 2, rows: 2), gutter: .mm(10)),
                                        page: PageSize(width: .mm(80), height: .mm(120)), orientation: .portrait,
                                        bleed: .mm(3), canvases: Array(repeating: size(40, 60), count: 3))
        let grid = a.grid
        // Block 170 x 250 mm (2 x 80 + 10, 2 x 120 + 10): from (20, 23.5).
        #expect(mm(grid.origin) == [20, 23.5])
        let marks = grid.cropMarks(slots: [0, 1, 2])
        // Columns 0 and 1 used: cuts at x = 20, 100, 110, 190; rows 0 and 1: y = 23.5, 143.5, 153.5, 273.5.
        let vertical = marks.filter { $0.start.x == $0.end.x }, horizontal = marks.filter { $0.start.y == $0.end.y }
        #expect(Set(vertical.map { mm($0.start.x) }) == [20, 100, 110, 190] && vertical.count == 8)
        #expect(Set(horizontal.map { mm($0.start.y) }) == [23.5, 143.5, 153.5, 273.5] && horizontal.count == 8)
        // Above the block: from 23.5 - 3 - 3 = 17.5 up to 12.5 mm; below from 279.5 to 284.5.
        #expect(Set(vertical.map { [mm($0.start.y), mm($0.end.y)] }) == [[17.5, 12.5], [279.5, 284.5]])
        #expect(Set(horizontal.map { [mm($0.start.x), mm($0.end.x)] }) == [[14, 9], [196, 201]])
        let bleeds = a.places.map(\.footprint)
        for line in marks {
            let x0 = min(line.start.x, line.end.x), x1 = max(line.start.x, line.end.x)
            let y0 = min(line.start.y, line.end.y), y1 = max(line.start.y, line.end.y)
            for bleed in bleeds {
                // A line meets a box when it runs inside it for some length, or lies on its edge.
                let across = x0 <= bleed.maxX && x1 >= bleed.minX, down = y0 <= bleed.maxY && y1 >= bleed.minY
                #expect(!(across && down), "\(line) meets \(bleed)")
            }
            for p in [line.start, line.end] { #expect(p.x >= 0 && p.y >= 0 && p.x <= grid.sheet.width && p.y <= grid.sheet.height) }
        }
        // One print in the first cell: only its own cuts; cuts shared without a gutter, once.
        #expect(grid.cropMarks(slots: [0]).count == 8)
        let touching = try SheetLayout.arrange(sheet: SheetSpec(size: .a4, nUp: .grid(columns: 2, rows: 1)), page: nil,
                                               orientation: .auto, bleed: .zero, canvases: [size(40, 60)])
        #expect(touching.grid.cropMarks(slots: [0, 1]).filter { $0.start.x == $0.end.x }.count == 6, "three cuts across")
    }
}
