/// Plain geometry in points (1/72 in), y growing downwards as in Cairo, SVG and CSS.

/// A point in points.
public struct Point: Sendable, Equatable, Hashable, Codable {
    /// Distance from the left edge, in points.
    public var x: Double
    /// Distance from the top edge, in points (y grows downwards).
    public var y: Double
    /// A point `x` points from the left and `y` points from the top.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin: the top-left corner.
    public static let zero = Point(x: 0, y: 0)
}

/// A width and height in points.
public struct Size: Sendable, Equatable, Hashable, Codable {
    /// The horizontal extent, in points.
    public var width: Double
    /// The vertical extent, in points.
    public var height: Double
    /// A size of `width` by `height` points.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// No width and no height.
    public static let zero = Size(width: 0, height: 0)
    /// Width over height; the picture's shape.
    public var aspectRatio: Double { width / height }
}

/// An axis-aligned rectangle in points.
public struct Rect: Sendable, Equatable, Hashable, Codable {
    /// The left edge, in points.
    public var x: Double
    /// The top edge, in points (y grows downwards).
    public var y: Double
    /// The width, in points; the rectangles framed makes never have a negative one.
    public var width: Double
    /// The height, in points; the rectangles framed makes never have a negative one.
    public var height: Double

    /// A rectangle whose top-left corner is at (`x`, `y`), `width` by `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// A rectangle whose top-left corner is `origin`, of `size`.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// The top-left corner.
    public var origin: Point { Point(x: x, y: y) }
    /// The width and height.
    public var size: Size { Size(width: width, height: height) }
    /// The left edge: `x`.
    public var minX: Double { x }
    /// The top edge: `y`.
    public var minY: Double { y }
    /// The right edge: `x + width`.
    public var maxX: Double { x + width }
    /// The bottom edge: `y + height`.
    public var maxY: Double { y + height }
    /// The horizontal centre: `x + width / 2`.
    public var midX: Double { x + width / 2 }
    /// The vertical centre: `y + height / 2`.
    public var midY: Double { y + height / 2 }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
    /// Grown by `d` on every side (shrunk when negative; never below zero size).
    public func outset(by d: Double) -> Rect {
        outset(top: d, right: d, bottom: d, left: d)
    }
    /// Grown by a different amount on each side (shrunk when negative; never below zero size).
    public func outset(top: Double, right: Double, bottom: Double, left: Double) -> Rect {
        let w = max(0, width + left + right)
        let h = max(0, height + top + bottom)
        return Rect(x: x - left + (width + left + right - w) / 2,
                    y: y - top + (height + top + bottom - h) / 2, width: w, height: h)
    }
    /// The smallest rectangle that holds both.
    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        let x1 = max(maxX, other.maxX), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// The overlap of the two rectangles; empty (zero width or height) where they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
    /// Whether `other` lies inside this rectangle, within `tolerance` points.
    public func contains(_ other: Rect, tolerance: Double = 1e-9) -> Bool {
        other.minX >= minX - tolerance && other.minY >= minY - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }
}

/// A size in whole pixels.
public struct PixelSize: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    /// `WIDTHxHEIGHT`, e.g. `1920x1080`.
    public var description: String { "\(width)x\(height)" }
}
