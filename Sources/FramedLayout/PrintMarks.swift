/// Printer's marks around a page: what `--marks` draws outside the bleed.

/// The marks drawn outside the bleed box, in the slug that is cut away with it.
public enum PrintMarks: String, Sendable, Equatable, CaseIterable, Codable {
    /// No marks: the output ends at the bleed box.
    case none
    /// Crop marks: a short line in line with each edge of the trim box at its four corners,
    /// starting a little outside the bleed box, so that the cutter can find the trim.
    case crop
}

/// The geometry of crop marks, in points: thin lines in line with the trim box's edges, in the
/// slug outside the bleed box.
public enum CropMarks {
    /// The gap between the bleed box and the start of each mark: 3 mm, as print shops expect,
    /// so that a cut a little off the trim never shows a mark.
    public static let gap = Length.mm(3).points
    /// The length of each mark: 5 mm.
    public static let length = Length.mm(5).points
    /// The room the marks take on each side of the bleed box: the gap, the mark, and 1 mm of
    /// paper beyond it (9 mm in all), by which the media box grows on every side.
    public static let slug = gap + length + Length.mm(1).points
    /// The stroke width of the marks: a quarter of a point, a hairline that a cutter still sees.
    public static let lineWidth = 0.25

    /// One mark: a straight line from `start` to `end`.
    public struct Line: Sendable, Equatable {
        /// Where the line starts, nearer the trim corner.
        public var start: Point
        /// Where the line ends, at the outer end of the mark.
        public var end: Point
    }

    /// The eight marks (two at each corner) for a trim box `trim` with `bleed` points of bleed
    /// on each side, in the same coordinates as `trim` (y downwards): each corner has a
    /// horizontal mark in line with its horizontal edge and a vertical one in line with its
    /// vertical edge, each from `gap` to `gap + length` outside the bleed box.
    public static func lines(trim: Rect, bleed: Double) -> [Line] {
        let near = bleed + gap, far = bleed + gap + length
        var lines: [Line] = []
        for (x, dx) in [(trim.minX, -1.0), (trim.maxX, 1.0)] {
            for (y, dy) in [(trim.minY, -1.0), (trim.maxY, 1.0)] {
                lines.append(Line(start: Point(x: x + dx * near, y: y), end: Point(x: x + dx * far, y: y)))
                lines.append(Line(start: Point(x: x, y: y + dy * near), end: Point(x: x, y: y + dy * far)))
            }
        }
        return lines
    }
}
