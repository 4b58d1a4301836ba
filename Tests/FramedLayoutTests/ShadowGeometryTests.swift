import FramedLayout
import Testing

/// Shadow shapes as CSS Backgrounds 3 defines them: spread grows (or shrinks) the box and its
/// corner radius, a radius smaller than the spread grows by spread · (1 + (r/spread − 1)³), and
/// inset shadows start from the padding box and its inner radius, their spread shrinking them.
struct ShadowGeometryTests {
    @Test func cornerRadiusFollowsCSS() {
        #expect(ShadowGeometry.cornerRadius(10, spread: 5) == 15, "radius ≥ spread: plain sum")
        #expect(abs(ShadowGeometry.cornerRadius(2, spread: 8) - (2 + 8 * (1 - 0.421875))) < 1e-12, "small radius: cubic")
        #expect(ShadowGeometry.cornerRadius(0, spread: 5) == 0, "sharp corners stay sharp")
        #expect(ShadowGeometry.cornerRadius(10, spread: -4) == 6, "negative spread shrinks")
        #expect(ShadowGeometry.cornerRadius(3, spread: -5) == 0, "never below zero")
        #expect(ShadowGeometry.cornerRadius(6, spread: 0) == 6)
        // Continuous where radius meets spread.
        #expect(abs(ShadowGeometry.cornerRadius(5 - 1e-9, spread: 5) - 10) < 1e-6)
    }

    @Test func outerAndInsetShadowsTakeTheirBoxes() throws {
        var style = FrameStyle(size: LengthSize(width: .px(200), height: .px(100)), border: .px(4))
        style.radius = .px(12)
        style.shadows = try BoxShadow.parseList("2px 3px 6px 5px black, inset -1px 2px 4px 3px black")
        let l = try FrameLayout(picture: PictureMetrics(pixelWidth: 10, pixelHeight: 10), style: style)
        let outer = l.shadows[0], inset = l.shadows[1]
        #expect(!outer.inset && inset.inset)
        #expect(outer.box == l.frame.offsetBy(dx: 1.5, dy: 2.25).outset(by: 3.75))
        #expect(abs(outer.radius - (9 + 3.75)) < 1e-12, "outer: frame radius plus spread")
        #expect(inset.box == l.paddingBox.offsetBy(dx: -0.75, dy: 1.5).outset(by: -2.25))
        #expect(abs(inset.radius - (l.innerRadius - 2.25)) < 1e-12, "inset: inner radius minus spread")
        #expect(l.contains(outerExtent: outer), "the canvas holds the outer shadow")
    }
}

extension FrameLayout {
    func contains(outerExtent shadow: ShadowGeometry) -> Bool {
        Rect(x: 0, y: 0, width: canvas.width, height: canvas.height).contains(shadow.extent)
    }
}
