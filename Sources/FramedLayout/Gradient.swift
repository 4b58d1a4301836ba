internal import Glibc

/// A CSS gradient (CSS Images 3): `linear-gradient(...)` or `radial-gradient(...)`, for the mat
/// and the canvas. Parsed from its CSS text and Codable as that text; `resolved(in:)` turns it
/// into the points, radii and stop offsets of one box, which the renderer draws as a vector
/// gradient.
public struct CSSGradient: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which way a linear gradient runs.
    public enum Direction: Sendable, Equatable {
        /// An angle in degrees, CSS style: 0 points up, 90 to the right, clockwise.
        case angle(Double)
        /// `to left`, `to bottom right`...: -1, 0 or +1 on each axis (y grows downwards), not both 0.
        case toward(x: Int, y: Int)
    }

    /// A radial gradient's ending shape.
    public enum RadialShape: String, Sendable, Equatable {
        /// Same radius both ways.
        case circle
        /// Its own radius on each axis.
        case ellipse
    }

    /// How big a radial gradient's ending shape is.
    public enum RadialSize: Sendable, Equatable {
        /// `closest-side`, `farthest-side`, `closest-corner` or `farthest-corner` (the default).
        case extent(RadialExtent)
        /// Explicit radii: one length for a circle, two (length or percentage of the box) for an ellipse.
        case radii(x: Position, y: Position)
    }

    /// The CSS extent keywords of a radial gradient.
    public enum RadialExtent: String, Sendable, Equatable, CaseIterable {
        /// Touches the nearest side (both nearest sides, for an ellipse).
        case closestSide = "closest-side"
        /// Touches the farthest side.
        case farthestSide = "farthest-side"
        /// Passes through the nearest corner.
        case closestCorner = "closest-corner"
        /// Passes through the farthest corner: the CSS default.
        case farthestCorner = "farthest-corner"
    }

    /// A length or a percentage of a reference length (the gradient line, the box's side).
    public enum Position: Sendable, Equatable {
        /// A percentage, 50 for 50%.
        case percent(Double)
        /// An absolute length.
        case length(Length)

        /// In points, against `reference` points for 100%.
        public func points(of reference: Double) -> Double {
            switch self {
            case let .percent(p): p / 100 * reference
            case let .length(l): l.points
            }
        }
    }

    /// What kind of gradient.
    public enum Kind: Sendable, Equatable {
        /// `linear-gradient`.
        case linear(Direction)
        /// `radial-gradient`: shape, size and centre (x, y against the box's width and height).
        case radial(shape: RadialShape, size: RadialSize, centerX: Position, centerY: Position)
    }

    /// One colour stop: a colour and, when given, where it sits on the gradient line.
    public struct Stop: Sendable, Equatable {
        /// The colour.
        public var color: RGBAColor
        /// Where on the gradient line; nil to space it evenly between its neighbours.
        public var position: Position?
        /// A stop.
        public init(color: RGBAColor, position: Position? = nil) { self.color = color; self.position = position }
    }

    /// Linear or radial, with its geometry.
    public var kind: Kind
    /// At least two stops, in order.
    public var stops: [Stop]
    /// The CSS text it was parsed from, trimmed, which `description` and `Codable` give back.
    public let text: String

    /// Whether `text` reads as a gradient function rather than a colour: a function whose name
    /// ends in `gradient` (any case), so that one framed does not draw (`conic-gradient(`,
    /// `repeating-linear-gradient(`) is told apart from a colour, and its error says so.
    public static func looksLikeGradient(_ text: String) -> Bool {
        let lower = text.styleTrimmed.lowercased()
        guard let open = lower.firstIndex(of: "(") else { return false }
        return lower[..<open].hasSuffix("gradient")
    }

    /// The gradient functions framed draws, as an error lists them.
    public static let functions = ["linear-gradient()", "radial-gradient()"]

    /// Parses `linear-gradient([<angle> | to <side-or-corner>,] <stops>)` and
    /// `radial-gradient([<shape> || <size>] [at <position>], <stops>)` with colour stops
    /// `<colour> [<length-percentage> [<length-percentage>]]`. Angles in deg, rad, grad or turn;
    /// lengths in px, pt, in, mm or cm (a bare number is px). Repeating gradients and colour hints
    /// are not accepted.
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = String(text.styleTrimmed)
        self.text = trimmed
        func fail(_ reason: String) -> StyleParseError { StyleParseError(kind: "gradient", input: trimmed, reason: reason) }
        let lower = trimmed.lowercased()
        let isLinear: Bool
        if lower.hasPrefix("linear-gradient(") { isLinear = true } else if lower.hasPrefix("radial-gradient(") {
            isLinear = false
        } else {
            let name = lower.firstIndex(of: "(").map { String(lower[..<$0]) + "()" }
            throw fail((name.map { "\"\(excerpt($0))\" is not drawn: " } ?? "") + "use "
                       + Self.functions.joined(separator: " or "))
        }
        guard trimmed.hasSuffix(")") else { throw fail("missing the closing parenthesis") }
        let open = trimmed.firstIndex(of: "(")!
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        guard let parts = splitOutsideParentheses(inner, where: { $0 == "," }, omittingEmpty: false) else {
            throw fail("the parentheses do not balance")
        }
        var items = parts.map { String($0.styleTrimmed) }
        guard !items.contains(where: \.isEmpty) else { throw fail("an empty item between commas") }
        // The first item is geometry when it does not start with a colour.
        var kind: Kind = isLinear ? .linear(.angle(180))
            : .radial(shape: .ellipse, size: .extent(.farthestCorner), centerX: .percent(50), centerY: .percent(50))
        if let first = items.first, (try? Self.parseStop(first)) == nil {
            do throws(StyleParseError) {
                kind = isLinear ? .linear(try Self.parseDirection(first)) : try Self.parseRadial(first)
            } catch {
                // An item that starts with a colour is a stop, whatever is wrong with it: say that.
                if let word = first.split(whereSeparator: \.isWhitespace).first, (try? RGBAColor(parsing: String(word))) != nil {
                    do throws(StyleParseError) { _ = try Self.parseStop(first) } catch { throw fail(error.nestedReason()) }
                }
                throw fail(error.nestedReason())
            }
            items.removeFirst()
        }
        var stops: [Stop] = []
        for item in items {
            do throws(StyleParseError) { stops += try Self.parseStop(item) } catch {
                throw fail(error.nestedReason())
            }
        }
        guard stops.count >= 2 else { throw fail("a gradient needs at least two colour stops") }
        self.kind = kind
        self.stops = stops
    }

    /// A stop, or two when it has two positions (`red 10% 20%`).
    static func parseStop(_ text: String) throws(StyleParseError) -> [Stop] {
        guard let words = splitOutsideParentheses(Substring(text), where: \.isWhitespace), !words.isEmpty else {
            throw StyleParseError(kind: "colour stop", input: text, reason: "expected a colour and up to two positions")
        }
        // The colour may be several words only as a function, so it is the first word.
        let color = try RGBAColor(parsing: String(words[0]))
        let positions = try words.dropFirst().map { word throws(StyleParseError) in try parsePosition(String(word)) }
        guard positions.count <= 2 else {
            throw StyleParseError(kind: "colour stop", input: text, reason: "at most two positions after the colour")
        }
        if positions.isEmpty { return [Stop(color: color)] }
        return positions.map { Stop(color: color, position: $0) }
    }

    /// `50%` or a length.
    static func parsePosition(_ text: String) throws(StyleParseError) -> Position {
        if text.hasSuffix("%") {
            guard let (number, rest) = splitStyleNumber(text.dropLast()), rest.isEmpty, let v = Double(number) else {
                throw StyleParseError(kind: "percentage", input: text, reason: "expected a number before %")
            }
            guard v.isFinite else { throw StyleParseError(kind: "percentage", input: text, reason: "\(excerpt(text)) is too large") }
            return .percent(v)
        }
        return .length(try Length(parsing: text))
    }

    /// `135deg`, `0.25turn`, `to top right`...
    static func parseDirection(_ text: String) throws(StyleParseError) -> Direction {
        let words = text.lowercased().split(whereSeparator: \.isWhitespace)
        if words.first == "to" {
            var x = 0, y = 0
            for word in words.dropFirst() {
                switch word {
                case "left" where x == 0: x = -1
                case "right" where x == 0: x = 1
                case "top" where y == 0: y = -1
                case "bottom" where y == 0: y = 1
                default:
                    throw StyleParseError(kind: "direction", input: text,
                                          reason: "expected to and one or two of left, right, top, bottom")
                }
            }
            guard x != 0 || y != 0 else {
                throw StyleParseError(kind: "direction", input: text, reason: "expected a side or corner after to")
            }
            return .toward(x: x, y: y)
        }
        // Each unit with its full turn: an angle is taken modulo a turn in its own unit, so that
        // any finite number (CSS allows any) stays finite in degrees.
        let units: [(String, Double)] = [("deg", 360), ("grad", 400), ("rad", 2 * .pi), ("turn", 1)]
        guard words.count == 1 else {
            throw StyleParseError(kind: "direction", input: text, reason: "expected an angle like 135deg or to right")
        }
        let word = String(words[0])
        for (unit, turn) in units where word.hasSuffix(unit) {
            guard let (number, rest) = splitStyleNumber(word.dropLast(unit.count)), rest.isEmpty, let v = Double(number)
            else { continue }
            guard v.isFinite else { throw StyleParseError(kind: "direction", input: text, reason: "\(excerpt(word)) is too large") }
            return .angle(v.truncatingRemainder(dividingBy: turn) * (360 / turn))
        }
        if word == "0" { return .angle(0) }
        throw StyleParseError(kind: "direction", input: text,
                              reason: "expected an angle (deg, rad, grad or turn) like 135deg, or to right")
    }

    /// `circle closest-side at 30% 40%`, `ellipse 40px 20px`, `at left top`...
    static func parseRadial(_ text: String) throws(StyleParseError) -> Kind {
        func fail(_ reason: String) -> StyleParseError { StyleParseError(kind: "radial shape", input: text, reason: reason) }
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let at = words.firstIndex(of: "at") ?? words.endIndex
        var shape: RadialShape?, extent: RadialExtent?, radii: [Position] = []
        for word in words[..<at] {
            if let s = RadialShape(rawValue: word), shape == nil { shape = s } else if let e = RadialExtent(rawValue: word), extent == nil, radii.isEmpty {
                extent = e
            } else if extent == nil, let first = word.first, first.isNumber || "+-.".contains(first) {
                radii.append(try parsePosition(word))  // a number: its own error says what is wrong with it
            } else {
                throw fail("expected circle or ellipse, an extent keyword (\(RadialExtent.allCases.map(\.rawValue).joined(separator: ", "))) or radii, then at X Y")
            }
        }
        let size: RadialSize
        switch radii.count {
        case 0: size = .extent(extent ?? .farthestCorner)
        case 1:
            guard shape != .ellipse else { throw fail("an ellipse needs two radii") }
            guard case .length = radii[0] else { throw fail("a circle's radius must be a length, not a percentage") }
            shape = .circle; size = .radii(x: radii[0], y: radii[0])
        case 2:
            guard shape != .circle else { throw fail("a circle takes one radius") }
            shape = .ellipse; size = .radii(x: radii[0], y: radii[1])
        default: throw fail("at most two radii")
        }
        for radius in radii where radius.points(of: 100) < 0 { throw fail("a radius may not be negative") }
        var cx = Position.percent(50), cy = Position.percent(50)
        if at < words.endIndex {
            (cx, cy) = try parseCenter(Array(words[(at + 1)...]), text: text)
        }
        return .radial(shape: shape ?? .ellipse, size: size, centerX: cx, centerY: cy)
    }

    /// The `at` position: one or two of keywords, percentages and lengths, horizontal first
    /// (keywords in either order).
    static func parseCenter(_ words: [String], text: String) throws(StyleParseError) -> (Position, Position) {
        func fail() -> StyleParseError {
            StyleParseError(kind: "position", input: text,
                            reason: "expected at and one or two of left, center, right, top, bottom, percentages or lengths")
        }
        let horizontal = ["left": 0.0, "right": 100.0], vertical = ["top": 0.0, "bottom": 100.0]
        guard (1...2).contains(words.count) else { throw fail() }
        if words.count == 1 {
            let w = words[0]
            if let h = horizontal[w] { return (.percent(h), .percent(50)) }
            if let v = vertical[w] { return (.percent(50), .percent(v)) }
            if w == "center" { return (.percent(50), .percent(50)) }
            guard let p = try centerPosition(w) else { throw fail() }
            return (p, .percent(50))
        }
        var (a, b) = (words[0], words[1])
        if vertical[a] != nil || (a == "center" && horizontal[b] != nil) { swap(&a, &b) }
        func value(_ w: String, _ keywords: [String: Double]) throws(StyleParseError) -> Position {
            if let k = keywords[w] { return .percent(k) }
            if w == "center" { return .percent(50) }
            guard let p = try centerPosition(w) else { throw fail() }
            return p
        }
        return (try value(a, horizontal), try value(b, vertical))
    }

    /// A position of the `at` part: nil when `word` is not a number at all; a number that is
    /// wrong (too large) throws its own error.
    static func centerPosition(_ word: String) throws(StyleParseError) -> Position? {
        guard let first = word.first, first.isNumber || "+-.".contains(first) else { return nil }
        return try parsePosition(word)
    }

    /// A gradient built rather than parsed (`BackdropColors`): `text` must be its CSS.
    init(kind: Kind, stops: [Stop], text: String) {
        self.kind = kind; self.stops = stops; self.text = text
    }

    /// The trimmed CSS text.
    public var description: String { text }

    public static func == (a: CSSGradient, b: CSSGradient) -> Bool { a.text == b.text }

    public init(from decoder: any Decoder) throws { self = try decodeStyleValue(decoder, CSSGradient.init(parsing:)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// A gradient laid out in one box: the geometry Cairo's gradient patterns take, and the stops as
/// offsets in 0...1 along it.
public struct ResolvedGradient: Sendable, Equatable {
    /// The gradient's geometry in the box's coordinates.
    public enum Geometry: Sendable, Equatable {
        /// Colour changes along the line from `start` (offset 0) to `end` (offset 1).
        case linear(start: Point, end: Point)
        /// Colour changes from the centre (offset 0) to the ellipse with these radii (offset 1).
        case radial(center: Point, radiusX: Double, radiusY: Double)
    }

    /// One stop: an offset in 0...1 and its colour.
    public struct Stop: Sendable, Equatable {
        /// Offset along the geometry, 0...1, never less than the previous stop's.
        public var offset: Double
        /// The colour there.
        public var color: RGBAColor
    }

    /// Where the gradient runs.
    public var geometry: Geometry
    /// The stops, offsets ascending in 0...1.
    public var stops: [Stop]

    /// The colour the gradient paints at `point`: its offset there (along the line, or out from
    /// the centre), padded to the end colours outside 0...1, between the two stops around it
    /// interpolated as CSS does (premultiplied).
    public func color(at point: Point) -> RGBAColor {
        let t: Double
        switch geometry {
        case let .linear(start, end):
            let dx = end.x - start.x, dy = end.y - start.y, length2 = dx * dx + dy * dy
            t = length2 > 0 ? ((point.x - start.x) * dx + (point.y - start.y) * dy) / length2 : 1
        case let .radial(center, rx, ry):
            let x = (point.x - center.x) / rx, y = (point.y - center.y) / ry
            t = (x * x + y * y).squareRoot()
        }
        guard let first = stops.first, let last = stops.last else { return .transparent }
        if !(t > first.offset) { return first.color }
        if t >= last.offset { return last.color }
        let after = stops.firstIndex { $0.offset > t } ?? stops.count - 1
        let a = stops[after - 1], b = stops[after]
        return CSSGradient.mix(a.color, b.color, (t - a.offset) / (b.offset - a.offset))
    }
}

extension CSSGradient {
    /// The gradient in `box` as CSS Images 3 draws it: the gradient line through the box's centre
    /// at the angle, as long as `|w sin a| + |h cos a|` so that the corners get the end colours;
    /// a corner direction at the angle that is perpendicular to the diagonal between the two
    /// neighbouring corners; radial sizes from the centre to the sides or corners. Stop positions
    /// are fixed up as CSS does (missing ends at 0% and 100%, none before an earlier one, the
    /// missing ones evenly spaced), then the line is lengthened (linear) or the inside clamped
    /// (radial) so that every offset lies in 0...1.
    ///
    /// Any finite numbers give finite geometry of a size a file can hold, as browsers clamp what
    /// they cannot represent: an angle counts modulo a turn; a stop lies at most `farthestStop`
    /// lengths of the gradient line from its start; stops far beyond what the box shows are cut
    /// where they stop mattering, at the colour the gradient has there (more than a line's length
    /// before or after a linear gradient's line, beyond twice the farthest corner of a radial
    /// one); a radial centre lies at most `farthestCentre` points outside the box, a radius is at
    /// most `largestRadius` points and at most `flattestEllipse` times the other. Within those
    /// bounds the box looks as CSS says; beyond them the difference is far below a level of colour.
    public func resolved(in box: Rect) -> ResolvedGradient {
        let w = box.width, h = box.height
        switch kind {
        case let .linear(direction):
            let radians: Double
            switch direction {
            case let .angle(deg): radians = deg.truncatingRemainder(dividingBy: 360) * .pi / 180
            case let .toward(x, y):
                if y == 0 { radians = x > 0 ? .pi / 2 : 3 * .pi / 2 } else if x == 0 { radians = y > 0 ? .pi : 0 } else {
                    // Perpendicular to the diagonal through the two neighbouring corners,
                    // pointing into the named corner's quadrant.
                    let base = atan2(h, w) // `to top right`
                    switch (x, y) {
                    case (1, -1): radians = base
                    case (1, 1): radians = .pi - base
                    case (-1, 1): radians = .pi + base
                    default: radians = 2 * .pi - base
                    }
                }
            }
            // Exact on the axes, so that `to right` runs exactly level.
            let quarters = radians / (.pi / 2)
            let dx: Double, dy: Double
            if abs(quarters - quarters.rounded()) < 1e-12, abs(quarters) < 1e6 {
                let q = ((Int(quarters) % 4) + 4) % 4
                (dx, dy) = [(0.0, -1.0), (1, 0), (0, 1), (-1, 0)][q]
            } else {
                dx = sin(radians); dy = -cos(radians)
            }
            let length = abs(w * dx) + abs(h * dy)
            let c = Point(x: box.midX, y: box.midY)
            var (offsets, colors) = Self.cut(Self.offsets(stops, length: length), stops.map(\.color), to: -1...2)
            var start = Point(x: c.x - dx * length / 2, y: c.y - dy * length / 2)
            var end = Point(x: c.x + dx * length / 2, y: c.y + dy * length / 2)
            let lo = min(0, offsets.first ?? 0), hi = max(1, offsets.last ?? 1)
            if lo < 0 || hi > 1 {
                let s = start, e = end
                func at(_ t: Double) -> Point { Point(x: s.x + (e.x - s.x) * t, y: s.y + (e.y - s.y) * t) }
                start = at(lo); end = at(hi)
                offsets = offsets.map { ($0 - lo) / (hi - lo) }
            }
            if colors.count == 1 { offsets.append(1); colors.append(colors[0]) }
            return ResolvedGradient(geometry: .linear(start: start, end: end),
                                    stops: zip(offsets, colors).map { ResolvedGradient.Stop(offset: $0, color: $1) })
        case let .radial(shape, size, centerX, centerY):
            func clamped(_ v: Double, _ low: Double, _ high: Double) -> Double { v < low ? low : v > high ? high : v }
            let reach = Self.farthestCentre
            let cx = box.x + clamped(centerX.points(of: w), -reach, w + reach)
            let cy = box.y + clamped(centerY.points(of: h), -reach, h + reach)
            let left = abs(cx - box.minX), right = abs(box.maxX - cx), top = abs(cy - box.minY), bottom = abs(box.maxY - cy)
            var rx: Double, ry: Double
            switch size {
            case let .radii(x, y):
                rx = min(x.points(of: w), Self.largestRadius); ry = min(y.points(of: h), Self.largestRadius)
            case let .extent(extent):
                let sideX = extent == .closestSide || extent == .closestCorner ? min(left, right) : max(left, right)
                let sideY = extent == .closestSide || extent == .closestCorner ? min(top, bottom) : max(top, bottom)
                switch (extent, shape) {
                case (.closestSide, .circle), (.farthestSide, .circle):
                    rx = extent == .closestSide ? min(sideX, sideY) : max(sideX, sideY); ry = rx
                case (.closestSide, .ellipse), (.farthestSide, .ellipse): rx = sideX; ry = sideY
                case (_, .circle):
                    rx = (sideX * sideX + sideY * sideY).squareRoot(); ry = rx
                case (_, .ellipse):
                    // The ellipse with the side extent's aspect ratio through that corner.
                    if sideX > 0, sideY > 0 {
                        rx = sideX * 2.0.squareRoot(); ry = sideY * 2.0.squareRoot()
                    } else {
                        rx = sideX; ry = sideY
                    }
                }
            }
            // CSS: a zero-sized ending shape draws the last colour; a tiny one does nearly that,
            // and so does a flat one.
            rx = max(rx, 1e-6); ry = max(ry, 1e-6)
            rx = max(rx, ry / Self.flattestEllipse); ry = max(ry, rx / Self.flattestEllipse)
            // How far out the box reaches, in radii: the farthest corner's distance on the
            // ellipse's own scale. Stops beyond twice that cannot show.
            let corners = [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)]
            let farthest = corners.map { x, y in (((x - cx) / rx) * ((x - cx) / rx) + ((y - cy) / ry) * ((y - cy) / ry)).squareRoot() }
                .max()!
            // Nothing lies inside the centre: start at the colour the gradient has at offset 0.
            var (offsets, colors) = Self.cut(Self.offsets(stops, length: rx), stops.map(\.color), to: 0...(2 * max(1, farthest)))
            if colors.count == 1 { offsets = [0, 1]; colors.append(colors[0]) }
            let hi = max(1, offsets.last!)
            if hi > 1 { rx *= hi; ry *= hi; offsets = offsets.map { $0 / hi } }
            return ResolvedGradient(geometry: .radial(center: Point(x: cx, y: cy), radiusX: rx, radiusY: ry),
                                    stops: zip(offsets, colors).map { ResolvedGradient.Stop(offset: $0, color: $1) })
        }
    }

    /// The farthest a stop lies from the start of its gradient line, in lengths of the line:
    /// a million million, where a level of colour across the box would need a gradient a
    /// thousand million times shorter.
    public static let farthestStop = 1e12
    /// The farthest a radial gradient's centre lies outside its box, in points: ten times the
    /// largest canvas (`1e6` pt).
    public static let farthestCentre = 1e7
    /// The largest radius of a radial gradient's ending shape, in points.
    public static let largestRadius = 1e8
    /// The most one radius of an ellipse is times the other.
    public static let flattestEllipse = 1e6

    /// CSS Images 3 § 3.5.3: stop positions as fractions of `length`, each within
    /// `farthestStop` of 0.
    static func offsets(_ stops: [Stop], length: Double) -> [Double] {
        func fraction(_ position: Position) -> Double {
            let v: Double
            switch position {
            case let .percent(p): v = p / 100
            case let .length(l): v = l.points / (length > 0 ? length : 1)
            }
            return v < -farthestStop ? -farthestStop : v > farthestStop ? farthestStop : v
        }
        var values = stops.map { stop in stop.position.map(fraction) }
        if values[0] == nil { values[0] = 0 }
        if values[values.count - 1] == nil { values[values.count - 1] = 1 }
        var highest = -Double.infinity
        for i in values.indices {
            if let v = values[i] { values[i] = max(v, highest); highest = values[i]! }
        }
        var i = 0
        while i < values.count {
            if values[i] == nil {
                let before = values[i - 1]!
                var j = i
                while values[j] == nil { j += 1 }
                let after = values[j]!
                for k in i..<j { values[k] = before + (after - before) * Double(k - i + 1) / Double(j - i + 1) }
                i = j
            }
            i += 1
        }
        return values.map { $0! }
    }

    /// The stops (ascending `offsets`) cut to `range`: a stop before its start is replaced by
    /// the colour the gradient has just after the start, one past its end by the colour just
    /// before the end; a side that no stop passes is left as it is. What shows inside `range`
    /// is unchanged.
    static func cut(_ offsets: [Double], _ colors: [RGBAColor], to range: ClosedRange<Double>)
        -> (offsets: [Double], colors: [RGBAColor]) {
        guard let first = offsets.first, let last = offsets.last, first < range.lowerBound || last > range.upperBound else {
            return (offsets, colors)
        }
        // The colour at `t`, coming from above (`after`: a hard stop at `t` gives its second colour).
        func color(at t: Double, after: Bool) -> RGBAColor {
            guard let j = offsets.firstIndex(where: { after ? $0 > t : $0 >= t }) else { return colors[colors.count - 1] }
            guard j > 0 else { return colors[0] }
            let a = offsets[j - 1], b = offsets[j]
            return mix(colors[j - 1], colors[j], b > a ? (t - a) / (b - a) : 1)
        }
        var kept: [(Double, RGBAColor)] = []
        let cutsStart = first < range.lowerBound, cutsEnd = last > range.upperBound
        if cutsStart { kept.append((range.lowerBound, color(at: range.lowerBound, after: true))) }
        for (offset, color) in zip(offsets, colors)
        where (cutsStart ? offset > range.lowerBound : true) && (cutsEnd ? offset < range.upperBound : true) {
            kept.append((offset, color))
        }
        if cutsEnd { kept.append((range.upperBound, color(at: range.upperBound, after: false))) }
        return (kept.map(\.0), kept.map(\.1))
    }

    /// Straight interpolation between two colours (premultiplied, as CSS interpolates).
    static func mix(_ a: RGBAColor, _ b: RGBAColor, _ t: Double) -> RGBAColor {
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        guard alpha > 0 else { return .transparent }
        func c(_ x: Double, _ y: Double) -> Double { (x * a.alpha + (y * b.alpha - x * a.alpha) * t) / alpha }
        return RGBAColor(red: c(a.red, b.red), green: c(a.green, b.green), blue: c(a.blue, b.blue), alpha: alpha)
    }
}

/// The ratio `aspect` grows the canvas to: `16:9`, `1:1`, `1200x630`.
public struct AspectRatio: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The width part.
    public var width: Double
    /// The height part.
    public var height: Double

    /// A ratio of two positive numbers.
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    /// Parses `W:H`, `WxH` or CSS `aspect-ratio`'s `W / H` with positive numbers (`16:9`,
    /// `1.91:1`, `1200x630`, `16 / 9`).
    public init(parsing text: String) throws(StyleParseError) {
        let trimmed = String(text.styleTrimmed).lowercased()
        let parts = trimmed.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "x" || $0 == "/" })
            .map { String($0.styleTrimmed) }
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w > 0, h > 0, w.isFinite, h.isFinite, w / h < 1e6, h / w < 1e6 else {
            throw StyleParseError(kind: "aspect ratio", input: trimmed,
                                  reason: "expected two positive numbers as W:H, WxH or W / H, like 16:9, 1200x630 or 16 / 9")
        }
        self.init(width: w, height: h)
    }

    /// `W:H`.
    public var description: String { "\(formatStyleNumber(width)):\(formatStyleNumber(height))" }

    /// Width over height.
    public var value: Double { width / height }

    public init(from decoder: any Decoder) throws { self = try decodeStyleValue(decoder, AspectRatio.init(parsing:)) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
