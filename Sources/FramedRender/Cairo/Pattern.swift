internal import CCairo
import FramedLayout

/// Owns one `cairo_pattern_t` and destroys it in `deinit`.
final class CairoPattern {
    let pointer: OpaquePointer

    /// Takes ownership of a pattern returned by a `cairo_pattern_create_*` or `cairo_pop_group` call.
    init(taking pointer: OpaquePointer, _ operation: String) throws(RenderError) {
        self.pointer = pointer
        try check(cairo_pattern_status(pointer), operation)
    }

    deinit { cairo_pattern_destroy(pointer) }

    /// `cairo_pattern_create_linear`: a gradient along the line from (x0, y0) to (x1, y1).
    static func linear(from start: Point, to end: Point) throws(RenderError) -> CairoPattern {
        try CairoNumbers.check("creating a linear gradient", start.x, start.y, end.x, end.y)
        return try CairoPattern(taking: cairo_pattern_create_linear(start.x, start.y, end.x, end.y),
                         "creating a linear gradient")
    }

    /// `cairo_pattern_create_radial` with both circles centred on `centre`: a gradient along the
    /// distance from `centre`, from 0 (offset 0) to `radius` (offset 1).
    static func radial(centre: Point, radius: Double) throws(RenderError) -> CairoPattern {
        try CairoNumbers.check("creating a radial gradient", centre.x, centre.y, radius)
        return try CairoPattern(taking: cairo_pattern_create_radial(centre.x, centre.y, 0, centre.x, centre.y, radius),
                         "creating a radial gradient")
    }

    /// `cairo_pattern_create_for_surface`: paints an image.
    static func surface(_ image: CairoImageSurface) throws(RenderError) -> CairoPattern {
        try CairoPattern(taking: cairo_pattern_create_for_surface(image.surface.pointer),
                         "creating an image pattern")
    }

    /// `cairo_pattern_add_color_stop_rgba`, offset in 0...1 along the gradient line.
    func addStop(_ offset: Double, _ color: RGBAColor) throws(RenderError) {
        try CairoNumbers.check("adding a gradient stop", offset, color.red, color.green, color.blue, color.alpha)
        cairo_pattern_add_color_stop_rgba(pointer, offset, color.red, color.green, color.blue, color.alpha)
    }

    /// `cairo_pattern_set_extend(CAIRO_EXTEND_PAD)`: the end stops continue beyond the line.
    func padEnds() { cairo_pattern_set_extend(pointer, CAIRO_EXTEND_PAD) }

    /// `cairo_pattern_set_extend(CAIRO_EXTEND_REFLECT)`: the gradient continues mirrored at each end,
    /// so half of a symmetric profile draws all of it (SVG `spreadMethod="reflect"`; in PDF one
    /// function referenced once per repeat).
    func reflectEnds() { cairo_pattern_set_extend(pointer, CAIRO_EXTEND_REFLECT) }

    /// `cairo_pattern_set_filter(CAIRO_FILTER_GOOD)`: smooth sampling of an image that is drawn
    /// at about its own pixel size (it was resampled before); PDF marks it `/Interpolate true`.
    func setSmoothFiltering() { cairo_pattern_set_filter(pointer, CAIRO_FILTER_GOOD) }

    /// `cairo_pattern_set_matrix` with a scale and translation: pattern space = user space * scale + offset.
    /// Its inverse is what SVG and PDF files hold, and is checked; the matrix itself need only be
    /// finite (a one-pixel image stretched over a hairline has a scale in the millions).
    func setMatrix(scaleX: Double, scaleY: Double, translateX: Double, translateY: Double) throws(RenderError) {
        try CairoNumbers.check("placing a pattern", limit: .greatestFiniteMagnitude, scaleX, scaleY, translateX, translateY)
        try CairoNumbers.check("placing a pattern", 1 / scaleX, 1 / scaleY, translateX / scaleX, translateY / scaleY)
        var matrix = cairo_matrix_t(xx: scaleX, yx: 0, xy: 0, yy: scaleY, x0: translateX, y0: translateY)
        cairo_pattern_set_matrix(pointer, &matrix)
    }
}
