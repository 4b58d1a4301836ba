internal import CCairo
import FramedLayout

/// Owns one `cairo_t` drawing context and destroys it in `deinit`.
///
/// Cairo keeps errors sticky on the context, so drawing calls do not throw; `checkStatus()` turns
/// the first error into a `RenderError`. A call given a number that `CairoNumbers` refuses
/// is left out, and is such an error too.
final class CairoContext {
    let pointer: OpaquePointer
    /// Kept alive as long as the context draws on it.
    private let target: CairoSurface
    /// The first call left out for a number a file cannot hold, and that number.
    private var unusable: (operation: String, value: Double)?

    /// `cairo_create`.
    init(_ target: CairoSurface) throws(RenderError) {
        self.target = target
        pointer = cairo_create(target.pointer)
        try check(cairo_status(pointer), "creating a drawing context")
    }

    deinit { cairo_destroy(pointer) }

    /// `cairo_status`, after the calls left out for an unusable number.
    func checkStatus(_ operation: @autoclosure () -> String) throws(RenderError) {
        if let unusable {
            throw .cairo(operation: "\(operation()): \(unusable.operation)",
                         message: "\(unusable.value) is not a number a file can hold")
        }
        try check(cairo_status(pointer), operation())
    }

    /// Whether `values` may go to Cairo; if not, the first such call is kept for `checkStatus`.
    private func accepts(_ operation: String, _ values: Double...) -> Bool {
        guard let bad = CairoNumbers.firstUnusable(values) else { return true }
        if unusable == nil { unusable = (operation, bad) }
        return false
    }

    /// Runs `body` between `cairo_save` and `cairo_restore`.
    func withSavedState<R>(_ body: () throws(RenderError) -> R) throws(RenderError) -> R {
        cairo_save(pointer)
        defer { cairo_restore(pointer) }
        return try body()
    }

    func scale(_ sx: Double, _ sy: Double) {
        if accepts("scaling", sx, sy, 1 / sx, 1 / sy) { cairo_scale(pointer, sx, sy) }
    }
    func translate(_ dx: Double, _ dy: Double) {
        if accepts("moving the origin", dx, dy) { cairo_translate(pointer, dx, dy) }
    }
    /// Turns user space by `angle` radians, clockwise on the page (y points down).
    func rotate(_ angle: Double) {
        if accepts("turning", angle) { cairo_rotate(pointer, angle) }
    }
    /// `cairo_show_page`: ends the page of a PDF surface; the next drawing starts a new one.
    func showPage() { cairo_show_page(pointer) }

    // MARK: Paths

    func newPath() { cairo_new_path(pointer) }

    /// Adds a rectangle with corner radius `radius` (clamped to half the shorter side); a plain
    /// `cairo_rectangle` when the radius is zero. Corners are circular arcs (`cairo_arc`, or
    /// `cairo_arc_negative` when not `clockwise`: a hole under the nonzero winding rule).
    func addRoundedRect(_ rect: Rect, radius: Double, clockwise: Bool = true) {
        guard accepts("adding a rectangle", rect.x, rect.y, rect.width, rect.height, radius) else { return }
        let r = min(max(0, radius), rect.width / 2, rect.height / 2)
        let half = Double.pi / 2
        switch (r > 0, clockwise) {
        case (false, true):
            cairo_rectangle(pointer, rect.x, rect.y, rect.width, rect.height)
        case (false, false):
            cairo_move_to(pointer, rect.minX, rect.minY)
            cairo_line_to(pointer, rect.minX, rect.maxY)
            cairo_line_to(pointer, rect.maxX, rect.maxY)
            cairo_line_to(pointer, rect.maxX, rect.minY)
            cairo_close_path(pointer)
        case (true, true):
            cairo_new_sub_path(pointer)
            cairo_arc(pointer, rect.maxX - r, rect.minY + r, r, -half, 0)
            cairo_arc(pointer, rect.maxX - r, rect.maxY - r, r, 0, half)
            cairo_arc(pointer, rect.minX + r, rect.maxY - r, r, half, 2 * half)
            cairo_arc(pointer, rect.minX + r, rect.minY + r, r, 2 * half, 3 * half)
            cairo_close_path(pointer)
        case (true, false):
            cairo_new_sub_path(pointer)
            cairo_arc_negative(pointer, rect.minX + r, rect.minY + r, r, 3 * half, 2 * half)
            cairo_arc_negative(pointer, rect.minX + r, rect.maxY - r, r, 2 * half, half)
            cairo_arc_negative(pointer, rect.maxX - r, rect.maxY - r, r, half, 0)
            cairo_arc_negative(pointer, rect.maxX - r, rect.minY + r, r, 0, -half)
            cairo_close_path(pointer)
        }
    }

    /// A closed polygon through `points` (`cairo_move_to`, `cairo_line_to`, `cairo_close_path`).
    func addPolygon(_ points: [Point]) {
        guard let first = points.first, points.allSatisfy({ accepts("adding a polygon", $0.x, $0.y) }) else { return }
        cairo_move_to(pointer, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(pointer, p.x, p.y) }
        cairo_close_path(pointer)
    }

    /// `cairo_clip_extents`: the box the current clip (or the surface) lets drawing into, in user
    /// space; nil when it is empty or not a finite size.
    func clipExtents() -> Rect? {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(pointer, &x0, &y0, &x1, &y1)
        guard CairoNumbers.firstUnusable([x0, y0, x1, y1]) == nil, x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `cairo_set_fill_rule`: even-odd makes a ring of two nested shapes.
    func setEvenOddFill(_ on: Bool) {
        cairo_set_fill_rule(pointer, on ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    /// `cairo_move_to` then `cairo_line_to`: a straight segment added to the path.
    func addLine(from start: Point, to end: Point) {
        guard accepts("adding a line", start.x, start.y, end.x, end.y) else { return }
        cairo_move_to(pointer, start.x, start.y)
        cairo_line_to(pointer, end.x, end.y)
    }

    /// `cairo_stroke` of the path with lines `width` wide and butt ends.
    func stroke(width: Double) {
        guard accepts("stroking a line", width) else { cairo_new_path(pointer); return }
        cairo_set_line_width(pointer, width)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        cairo_stroke(pointer)
    }

    /// `cairo_clip`: intersects the clip with the current path (and clears the path).
    func clip() { cairo_clip(pointer) }
    /// `cairo_fill`.
    func fill() { cairo_fill(pointer) }

    // MARK: Sources and painting

    /// `cairo_set_source_rgba`.
    func setSource(_ color: RGBAColor) {
        guard accepts("setting a colour", color.red, color.green, color.blue, color.alpha) else { return }
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }
    /// `cairo_set_source`.
    func setSource(_ pattern: CairoPattern) { cairo_set_source(pointer, pattern.pointer) }
    /// `cairo_paint`: the source everywhere inside the clip.
    func paint() { cairo_paint(pointer) }
    /// `cairo_mask`: the source, weighted by the alpha of `mask`.
    func mask(_ mask: CairoPattern) { cairo_mask(pointer, mask.pointer) }
    /// `cairo_paint_with_alpha`: the source everywhere inside the clip, times `alpha`.
    func paint(alpha: Double) {
        if accepts("painting", alpha) { cairo_paint_with_alpha(pointer, alpha) }
    }
    /// Paints `pattern` over `rect` only (under whatever clip is set): a clip and a paint, the way
    /// to draw an image pattern (Cairo's SVG backend tiles an image pattern that fills a path).
    func paint(_ pattern: CairoPattern, over rect: Rect) throws(RenderError) {
        try withSavedState { () throws(RenderError) in
            newPath()
            addRoundedRect(rect, radius: 0)
            clip()
            setSource(pattern)
            paint()
        }
    }

    // MARK: Groups

    /// `cairo_push_group`: draws into a transparent offscreen group (a recording surface in SVG and
    /// PDF, so the group stays vector) until `popGroup()`; its extents are the current clip's.
    func pushGroup() { cairo_push_group(pointer) }
    /// `cairo_pop_group`: ends the group and returns it as a pattern.
    func popGroup() throws(RenderError) -> CairoPattern {
        try CairoPattern(taking: cairo_pop_group(pointer), "ending a group")
    }
    /// Runs `body` inside `pushGroup()` … `popGroup()`.
    func group(_ body: () throws(RenderError) -> Void) throws(RenderError) -> CairoPattern {
        pushGroup()
        do { try body() } catch {
            _ = try? popGroup()
            throw error
        }
        return try popGroup()
    }
}
