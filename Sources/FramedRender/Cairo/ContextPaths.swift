internal import CCairo
import FramedLayout

/// The drawing calls callouts need beyond the frame's: paths of `PathElement`s, round strokes,
/// the multiply operator, and reading a path back (text outlines for SVG).
extension CairoContext {
    /// Adds `path` to the current path.
    func addPath(_ path: [PathElement]) {
        for element in path {
            switch element {
            case let .move(p): cairo_move_to(pointer, p.x, p.y)
            case let .line(p): cairo_line_to(pointer, p.x, p.y)
            case let .curve(a, b, c): cairo_curve_to(pointer, a.x, a.y, b.x, b.y, c.x, c.y)
            case .close: cairo_close_path(pointer)
            }
        }
    }

    /// `cairo_stroke` of the path with lines `width` wide, round caps and round joins.
    func strokeRound(width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(pointer)
    }

    /// `CAIRO_OPERATOR_MULTIPLY` until the state is restored: the source's colour multiplies
    /// what lies under it (a highlighter's ink).
    func setMultiply() { cairo_set_operator(pointer, CAIRO_OPERATOR_MULTIPLY) }

    /// The current path (`cairo_copy_path`), its curves kept; nil when Cairo cannot copy it.
    func copyPath() -> [PathElement]? {
        guard let path = cairo_copy_path(pointer) else { return nil }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return nil }
        var out: [PathElement] = []
        var i = 0
        let count = Int(path.pointee.num_data)
        func point(_ k: Int) -> Point { Point(x: data[k].point.x, y: data[k].point.y) }
        while i < count {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO: out.append(.move(point(i + 1)))
            case CAIRO_PATH_LINE_TO: out.append(.line(point(i + 1)))
            case CAIRO_PATH_CURVE_TO: out.append(.curve(point(i + 1), point(i + 2), point(i + 3)))
            case CAIRO_PATH_CLOSE_PATH: out.append(.close)
            default: return nil
            }
            i += Int(header.length)
        }
        return out
    }
}

extension CairoSurface {
    /// `cairo_recording_surface_create` without extents: a scratch surface on which nothing is
    /// left out for lying outside it.
    static func unboundedRecording() throws(RenderError) -> CairoSurface {
        try CairoSurface(taking: cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil), "creating a scratch surface")
    }
}
