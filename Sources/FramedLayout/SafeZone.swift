/// The safe zone: lines and text too near the trim, where a cutter's drift (0.5-1 mm) makes a
/// border thin on one side and gone on the other.
///
/// What counts, each as the box it is drawn in: the border (the frame's outer edge, when it has
/// a visible border), the inner border (the hairline's outer edge around the picture, as far as
/// the mat shows it), and the caption (its box: the lines' height, and the width the text wraps
/// to). A picture or a mat that fills the trim is no concern: that is a print without a border,
/// and its paint continues into the bleed (`Bleed`).

/// One edge of the trim box.
public enum TrimEdge: String, Sendable, Equatable, CaseIterable, Codable {
    /// The top edge.
    case top
    /// The right edge.
    case right
    /// The bottom edge.
    case bottom
    /// The left edge.
    case left
}

/// A line or text that lies within the safe margin of the trim.
public struct SafeMarginWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What lies there.
    public enum Element: String, Sendable, Equatable, CaseIterable, Codable {
        /// The frame's border.
        case border
        /// The hairline around the picture's opening in the mat.
        case innerBorder = "inner border"
        /// The caption's text.
        case caption
    }

    /// What lies within the margin.
    public var element: Element
    /// How far its nearest part is inside the trim, in points (0: on the trim).
    public var distance: Double
    /// The trim edges it is within the margin of, in the order top, right, bottom, left.
    public var edges: [TrimEdge]
    /// The safe margin, in points.
    public var safeMargin: Double

    /// A warning that `element` lies `distance` points inside the trim at `edges`, within
    /// `safeMargin`.
    public init(element: Element, distance: Double, edges: [TrimEdge], safeMargin: Double) {
        self.element = element; self.distance = distance; self.edges = edges; self.safeMargin = safeMargin
    }

    /// The message in the library's words.
    public var description: String { message(naming: { $0 }) }

    /// One line: what, how far from the trim and at which edges, and what to change, with each
    /// setting named by `name` (`size`, `border`, `padding`, `safe-margin`).
    public func message(naming name: (String) -> String) -> String {
        let change: String
        switch element {
        case .border:
            change = "give a smaller \(name("size")) (or none, to fit the frame inside the margin) or \(name("border")) 0"
        case .innerBorder, .caption:
            change = "give more \(name("padding")) or a smaller \(name("size")) (or none, to fit the frame inside the margin)"
        }
        return "the \(element.rawValue) is \(Self.millimetres(distance, down: true)) mm from the trim ("
            + edges.map(\.rawValue).joined(separator: ", ") + "), within the \(Self.millimetres(safeMargin, down: false)) mm "
            + "\(name("safe-margin")) where a cut can drift onto it; " + change
    }

    /// Points in millimetres to a tenth, rounded down when `down` (so that a distance just
    /// inside the margin never reads as the margin itself).
    static func millimetres(_ points: Double, down: Bool) -> String {
        let tenths = Length(points: points).value(in: .mm) * 10
        let t = Int(down ? (tenths + 1e-9).rounded(.down) : tenths.rounded())
        return t % 10 == 0 ? String(t / 10) : "\(t / 10).\(t % 10)"
    }
}

/// Finds the lines and text within a page's safe margin.
public enum SafeZone {
    /// The border, inner border and caption of `layout` (drawn with `style`) that lie less than
    /// `safeMargin` points inside `trim` (in the layout's coordinates), by more than
    /// `tolerance`, each with its nearest distance; none when the margin is 0. An element
    /// exactly `safeMargin` in is safe.
    public static func warnings(layout: FrameLayout, style: FrameStyle, trim: Rect, safeMargin: Double,
                                tolerance: Double = 1e-6) -> [SafeMarginWarning] {
        guard safeMargin > 0 else { return [] }
        var boxes: [(SafeMarginWarning.Element, Rect)] = []
        if layout.borderWidth > 0, style.borderColor.alpha > 0 { boxes.append((.border, layout.frame)) }
        if let box = innerBorderBox(layout, style) { boxes.append((.innerBorder, box)) }
        if let caption = layout.caption, caption.box.height > 0, (style.caption.color?.alpha ?? 1) > 0 {
            boxes.append((.caption, caption.box))
        }
        return boxes.compactMap { element, box in
            let distances: [(TrimEdge, Double)] = [(.top, box.minY - trim.minY), (.right, trim.maxX - box.maxX),
                                                   (.bottom, trim.maxY - box.maxY), (.left, box.minX - trim.minX)]
            let near = distances.filter { $0.1 < safeMargin - tolerance }
            guard let nearest = near.map(\.1).min() else { return nil }
            return SafeMarginWarning(element: element, distance: max(0, nearest), edges: near.map(\.0), safeMargin: safeMargin)
        }
    }

    /// The box the inner border is drawn in: the hairline's outer edge around the picture's
    /// visible part, clipped to the padding box as the drawing clips it; nil when it has no width
    /// or colour, or when the mat leaves it no room on any side.
    static func innerBorderBox(_ layout: FrameLayout, _ style: FrameStyle) -> Rect? {
        let w = layout.innerBorderWidth, clip = layout.pictureClip
        guard w > 0, let line = style.innerBorder, line.color.alpha > 0, clip.width > 0, clip.height > 0 else { return nil }
        let ring = clip.outset(by: w).intersection(layout.paddingBox)
        let shows = ring.minX < clip.minX - 1e-9 || ring.minY < clip.minY - 1e-9
            || ring.maxX > clip.maxX + 1e-9 || ring.maxY > clip.maxY + 1e-9
        return shows ? ring : nil
    }
}
