import FramedLayout

/// The last check before a number reaches Cairo: Cairo writes whatever it is given into the
/// file (`x1="nan"` in an SVG, `/Coords [ nan nan nan nan ]` or an integer too long for a PDF
/// reader), so every coordinate, size, stop and colour framed passes must be a finite number of
/// a magnitude a file can hold. Layout and parsing keep numbers in range; this catches what
/// slips past them (a bug, or a library caller's NaN) as an error instead of a broken file.
enum CairoNumbers {
    /// The largest magnitude passed to Cairo: a thousand times the largest canvas side
    /// (`RenderOptions.maxCanvasPoints`), and below 2^31, which a PDF reader's integers hold
    /// (Cairo writes a whole number without a decimal point).
    static let limit = 1e9

    /// The first value that is not finite or not within `limit`, if any.
    static func firstUnusable(_ values: [Double], limit: Double = limit) -> Double? {
        values.first { !(abs($0) <= limit) }  // NaN fails the comparison too
    }

    /// Throws, naming `operation`, unless every value is finite and within `limit`.
    static func check(_ operation: @autoclosure () -> String, limit: Double = limit, _ values: Double...) throws(RenderError) {
        guard let bad = firstUnusable(values, limit: limit) else { return }
        throw .cairo(operation: operation(), message: "\(bad) is not a number a file can hold")
    }
}
