/// The work Cairo's tessellator (a Bentley–Ottmann sweep, which librsvg 2.54 runs to fill a
/// path, to stroke it and to find its bounds) does for a path, estimated from its data before
/// librsvg sees it.
///
/// The sweep's cost grows with the pairs of edges that cross (each crossing is an event) and,
/// more slowly, with the pairs that are on the sweep line together (edges whose vertical spans
/// overlap). Measured with librsvg 2.54 and Cairo 1.16 (rsvg-convert, one core): a scribble of
/// 5,000 random lines across its box (2.9 million crossings) took 3 s, of 10,000 (11.5
/// million) 13 s, of 120,000 more than a minute; a noisy line of 5,000 points (no crossings
/// but its neighbours', 8.4 million pairs sharing the sweep line) 0.5 s, and a circle of
/// 100,000 points 0.8 s. So the work counts a crossing as 1 and a pair on the sweep line as
/// 1/16, and a stroke twice (its outline has two sides).
///
/// Lines are taken as they are; a curve as its control polygon (the lines it is flattened into
/// cross what its polygon crosses, about); transforms are not applied. Crossings are counted
/// only where many segments share the sweep line (more than 16 on average): exactly among up to
/// 20,000 pairs of segments, and estimated from a fixed sample of that many beyond (the same
/// sample every time: the estimate is deterministic).
struct SVGPathWork {
    /// A path's segments, as the points of its polylines.
    private(set) var segments: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    /// Parses SVG path data (`d`): every command of SVG 1.1, relative or absolute, numbers in
    /// any form the grammar allows. What cannot be parsed ends the data (as in librsvg, which
    /// draws a path up to its first error).
    init(pathData bytes: ArraySlice<UInt8>) {
        var scanner = NumberScanner(bytes)
        var x = 0.0, y = 0.0, startX = 0.0, startY = 0.0
        var command: UInt8 = 0
        // The previous command's second control point, for S and T.
        var controlX = 0.0, controlY = 0.0
        while true {
            scanner.skipSeparators()
            guard let c = scanner.peek else { break }
            if Self.isCommand(c) {
                command = c
                scanner.advance()
            } else if command == 0 || !scanner.startsNumber {
                break
            }
            let relative = command >= 0x61
            let upper = relative ? command - 0x20 : command
            let ox = relative ? x : 0, oy = relative ? y : 0
            switch upper {
            case UInt8(ascii: "M"), UInt8(ascii: "L"), UInt8(ascii: "T"):
                guard let nx = scanner.number(), let ny = scanner.number() else { return }
                let px = ox + nx, py = oy + ny
                if upper == UInt8(ascii: "M") {
                    startX = px; startY = py
                    // Further pairs after a moveto are linetos.
                    command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
                } else if upper == UInt8(ascii: "T") {
                    let cx = 2 * x - controlX, cy = 2 * y - controlY
                    add(x, y, cx, cy); add(cx, cy, px, py)
                    controlX = cx; controlY = cy
                } else {
                    add(x, y, px, py)
                }
                x = px; y = py
                if upper != UInt8(ascii: "T") { controlX = x; controlY = y }
            case UInt8(ascii: "H"), UInt8(ascii: "V"):
                guard let n = scanner.number() else { return }
                let px = upper == UInt8(ascii: "H") ? ox + n : x, py = upper == UInt8(ascii: "V") ? oy + n : y
                add(x, y, px, py)
                x = px; y = py; controlX = x; controlY = y
            case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "Q"):
                var points: [Double] = []
                let count = upper == UInt8(ascii: "C") ? 6 : 4
                for _ in 0..<count {
                    guard let n = scanner.number() else { return }
                    points.append(n)
                }
                var polygon: [(Double, Double)] = [(x, y)]
                if upper == UInt8(ascii: "S") { polygon.append((2 * x - controlX, 2 * y - controlY)) }
                for k in stride(from: 0, to: points.count, by: 2) { polygon.append((points[k] + ox, points[k + 1] + oy)) }
                for k in 1..<polygon.count { add(polygon[k - 1].0, polygon[k - 1].1, polygon[k].0, polygon[k].1) }
                (controlX, controlY) = polygon[polygon.count - 2]
                (x, y) = polygon[polygon.count - 1]
            case UInt8(ascii: "A"):
                guard let rx = scanner.number(), let ry = scanner.number(), scanner.number() != nil,
                      scanner.flag() != nil, scanner.flag() != nil, let nx = scanner.number(), let ny = scanner.number()
                else { return }
                let px = ox + nx, py = oy + ny
                // Up to half an ellipse bulges out of the chord: its polygon goes through the
                // bulge's far corner.
                let bulge = min(max(abs(rx), abs(ry)), 1e300)
                let mx = (x + px) / 2, my = (y + py) / 2
                let dx = px - x, dy = py - y, length = (dx * dx + dy * dy).squareRoot()
                let (cx, cy) = length > 0 ? (mx - dy / length * bulge, my + dx / length * bulge) : (mx, my)
                add(x, y, cx, cy); add(cx, cy, px, py)
                x = px; y = py; controlX = x; controlY = y
            case UInt8(ascii: "Z"):
                add(x, y, startX, startY)
                x = startX; y = startY; controlX = x; controlY = y
                command = 0
            default:
                return
            }
        }
    }

    /// Parses a `points` list (polyline, polygon; a polygon is closed).
    init(points bytes: ArraySlice<UInt8>, closed: Bool) {
        var scanner = NumberScanner(bytes)
        var first: (Double, Double)?, last: (Double, Double)?
        while let x = scanner.number(), let y = scanner.number() {
            if let last { add(last.0, last.1, x, y) }
            if first == nil { first = (x, y) }
            last = (x, y)
        }
        if closed, let first, let last { add(last.0, last.1, first.0, first.1) }
    }

    private mutating func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        guard x0 != x1 || y0 != y1 else { return }
        segments.append((x0, y0, x1, y1))
    }

    /// The length of its segments together.
    var length: Double {
        segments.reduce(0) { $0 + (($1.x1 - $1.x0) * ($1.x1 - $1.x0) + ($1.y1 - $1.y0) * ($1.y1 - $1.y0)).squareRoot() }
    }

    static func isCommand(_ c: UInt8) -> Bool {
        switch c | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"),
             UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    /// The work: crossings, plus a sixteenth of the pairs on the sweep line together; twice
    /// that when `stroked`.
    func work(stroked: Bool) -> Double {
        guard segments.count > 1 else { return Double(segments.count) }
        // Crossings need both segments on the sweep line together: a path whose pairs there are
        // few (a shape, a plotted line) has few, and is not sampled.
        let sweep = sweepPairs()
        let crossed = sweep > 16 * segments.count ? crossings() : 0
        let total = crossed + Double(sweep) / 16 + Double(segments.count)
        return stroked ? 2 * total : total
    }

    /// Pairs of segments whose vertical spans overlap, counted exactly: the spans sorted, each
    /// start meets the spans still open.
    func sweepPairs() -> Int {
        var starts: [Double] = [], ends: [Double] = []
        starts.reserveCapacity(segments.count)
        ends.reserveCapacity(segments.count)
        for s in segments {
            starts.append(min(s.y0, s.y1))
            ends.append(max(s.y0, s.y1))
        }
        starts.sort()
        ends.sort()
        // At a start, the spans open are those started before it less those ended before it (a
        // span that ends where another starts still meets it).
        var pairs = 0, ended = 0
        for (index, start) in starts.enumerated() {
            while ended < ends.count, ends[ended] < start { ended += 1 }
            pairs += index - ended
        }
        return pairs
    }

    /// Pairs of segments that cross (neighbours in the path touch at their shared end, which is
    /// no crossing): all pairs when there are at most `sampleSize`, else that many pairs picked
    /// by a fixed sequence and scaled up.
    func crossings(sampleSize: Int = 20_000) -> Double {
        let n = segments.count
        let pairs = Double(n) * Double(n - 1) / 2
        if pairs <= Double(sampleSize) {
            var count = 0
            for i in 0..<n { for j in (i + 1)..<n where cross(i, j) { count += 1 } }
            return Double(count)
        }
        var random = SplitMix(seed: UInt64(n))
        var hits = 0
        for _ in 0..<sampleSize {
            let i = Int(random.next() % UInt64(n)), j = Int(random.next() % UInt64(n))
            if i != j && cross(i, j) { hits += 1 }
        }
        return Double(hits) / Double(sampleSize) * pairs
    }

    /// Whether segments `i` and `j` cross (properly: touching at an end does not count).
    private func cross(_ i: Int, _ j: Int) -> Bool {
        let a = segments[i], b = segments[j]
        func side(_ ox: Double, _ oy: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
            (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
        }
        let d1 = side(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0), d2 = side(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1)
        let d3 = side(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0), d4 = side(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
    }

    /// A small deterministic generator (SplitMix64) for the sample.
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
        mutating func next() -> UInt64 {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

/// Numbers as SVG's path and points grammars write them: an optional sign, digits with an
/// optional fraction, an optional exponent; separated by white space, a comma, or nothing when
/// the next starts with a sign or a second dot (`1.5.5` is 1.5 and .5).
struct NumberScanner {
    let bytes: ArraySlice<UInt8>
    var i: Int

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes; i = bytes.startIndex }

    var peek: UInt8? { i < bytes.endIndex ? bytes[i] : nil }
    mutating func advance() { i += 1 }

    mutating func skipSeparators() {
        while i < bytes.endIndex {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x2C: i += 1
            default: return
            }
        }
    }

    var startsNumber: Bool {
        guard let c = peek else { return false }
        return (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    /// The next number; nil (and nothing consumed but separators) when there is none. Read
    /// digit by digit (the estimate needs no last bit, and a document has millions of them).
    mutating func number() -> Double? {
        skipSeparators()
        let start = i
        var negative = false
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0.0, digits = 0, scale = 0
        while i < bytes.endIndex, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
            value = value * 10 + Double(bytes[i] - 0x30); i += 1; digits += 1
        }
        if i < bytes.endIndex, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < bytes.endIndex, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                value = value * 10 + Double(bytes[i] - 0x30); i += 1; digits += 1; scale -= 1
            }
        }
        guard digits > 0 else { i = start; return nil }
        if i < bytes.endIndex, bytes[i] | 0x20 == UInt8(ascii: "e") {
            var k = i + 1
            var negativeExponent = false
            if k < bytes.endIndex, bytes[k] == UInt8(ascii: "-") || bytes[k] == UInt8(ascii: "+") {
                negativeExponent = bytes[k] == UInt8(ascii: "-")
                k += 1
            }
            if k < bytes.endIndex, bytes[k] >= 0x30 && bytes[k] <= 0x39 {
                var exponent = 0
                while k < bytes.endIndex, bytes[k] >= 0x30 && bytes[k] <= 0x39 {
                    exponent = min(100_000, exponent * 10 + Int(bytes[k] - 0x30)); k += 1
                }
                scale += negativeExponent ? -exponent : exponent
                i = k
            }
        }
        var power = 1.0, step = 10.0, n = abs(scale)
        while n > 0 && power.isFinite {
            if n & 1 == 1 { power *= step }
            step *= step
            n >>= 1
        }
        value = scale < 0 ? value / power : value * power
        guard value.isFinite else { i = start; return nil }
        return negative ? -value : value
    }

    /// An arc's flag: a single 0 or 1, which may touch what follows.
    mutating func flag() -> Bool? {
        skipSeparators()
        guard let c = peek, c == UInt8(ascii: "0") || c == UInt8(ascii: "1") else { return nil }
        i += 1
        return c == UInt8(ascii: "1")
    }
}
