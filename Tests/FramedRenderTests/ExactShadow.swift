import FramedLayout
import FramedTestSupport

extension ExactShadow {
    /// `inside` for a rectangle of framed's layout (points), to leave its antialiased edges out
    /// of a comparison; expected values never come from the layout (`CSSFrame` computes them).
    static func inside(_ p: Point, box: Rect, radius: Double, margin: Double) -> Bool {
        inside(p.x, p.y, box: CSSBox(x: box.x, y: box.y, width: box.width, height: box.height), radius: radius, margin: margin)
    }
}
