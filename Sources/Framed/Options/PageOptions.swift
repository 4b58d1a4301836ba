/// The page stage: a paper size to centre the framed picture on, which way up, the bleed and
/// the marks; and the sheet that a document's prints are ganged on.
public struct PageOptions: Sendable, Equatable {
    /// The paper; nil: no page, the output is the framed canvas.
    public var size: PageSize?
    /// Which way up the paper goes (with `size`).
    public var orientation: PageOrientation
    /// Extra canvas on every side of the page, trimmed off after printing (with `size`).
    public var bleed: Length
    /// Printer's marks outside the bleed (with or without a page: without one, the trim is the
    /// framed canvas; on sheets, in the sheet's margin along every cut).
    public var marks: PrintMarks
    /// With `size`: the band inside the trim kept clear of lines and text. A frame without a
    /// given size is fitted inside the page less this; a border, inner border or caption within
    /// it is a warning (`FramingWarning.safeMargin`). 3 mm by default; 0 turns both off.
    public var safeMargin: Length = PageSpec.defaultSafeMargin
    /// With `safeMargin`: a line or text within it is an error instead, and nothing is written
    /// (the `strict` setting sets this and `PictureOptions.failBelowMinimumPPI`).
    public var failWithinSafeMargin = false
    /// The paper that a document's prints are ganged on, several to a sheet (`Framer.document`);
    /// nil: a page each. Each print is framed on its own page: `size` when given, else a cell
    /// of the grid (`SheetLayout.arrange`).
    public var sheet: PageSize? = nil
    /// With `sheet`: how many prints a sheet holds.
    public var nUp: NUp = .auto
    /// With `sheet`: the room between neighbouring prints, trim to trim; nil: twice the bleed.
    public var gutter: Length? = nil

    /// No page unless `size` is given; orientation from the picture; no bleed; no marks; the
    /// default safe margin, a warning.
    public init(size: PageSize? = nil, orientation: PageOrientation = .auto, bleed: Length = .zero,
                marks: PrintMarks = .none, safeMargin: Length = PageSpec.defaultSafeMargin) {
        self.size = size; self.orientation = orientation; self.bleed = bleed; self.marks = marks
        self.safeMargin = safeMargin
    }

    /// The page as the layout takes it, when there is one.
    var spec: PageSpec? {
        size.map { PageSpec(size: $0, orientation: orientation, bleed: bleed, marks: marks, safeMargin: safeMargin) }
    }

    /// The sheet as the layout takes it, when there is one.
    var sheetSpec: SheetSpec? { sheet.map { SheetSpec(size: $0, nUp: nUp, gutter: gutter) } }
}
