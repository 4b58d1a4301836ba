import Testing
@testable import FramedLayout

/// The safe zone checked with numbers: each element a hair inside the 3 mm margin and a hair
/// outside it, on a 100 x 100 mm trim at the origin (issue 30).
struct SafeZoneTests {
    static let mm = 72 / 25.4
    let trim = Rect(x: 0, y: 0, width: 100 * 72 / 25.4, height: 100 * 72 / 25.4)
    let margin = 3 * 72 / 25.4

    /// A layout whose frame is `inset` points inside the trim on every side, with `style`.
    func layout(inset: Double, _ style: FrameStyle) throws -> FrameLayout {
        var style = style
        let side = trim.width - 2 * inset
        style.size = LengthSize(width: .pt(side), height: .pt(side))
        var layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100), style: style)
        // Move it to its place, as a page placement would.
        let dx = inset - layout.frame.minX
        for keyPath in [\FrameLayout.frame, \.paddingBox, \.contentBox, \.picture, \.pictureClip] {
            layout[keyPath: keyPath] = layout[keyPath: keyPath].offsetBy(dx: dx, dy: dx)
        }
        return layout
    }

    @Test func aBorderJustInsideTheMarginIsWarnedAboutAndJustOutsideIsNot() throws {
        let style = FrameStyle(border: .mm(0.5), borderColor: .black)
        for (inset, warned) in [(2.9, true), (3.0, false), (3.1, false), (0.0, true)] {
            let warnings = SafeZone.warnings(layout: try layout(inset: inset * Self.mm, style), style: style, trim: trim,
                                             safeMargin: margin)
            #expect(warnings.count == (warned ? 1 : 0), "\(inset) mm: \(warnings)")
            if warned {
                #expect(warnings[0].element == .border && warnings[0].edges == [.top, .right, .bottom, .left])
                #expect(abs(warnings[0].distance - inset * Self.mm) < 1e-9)
            }
        }
        // The message: how far, which edges, what to change, each setting by the name given.
        let message = SafeZone.warnings(layout: try layout(inset: 1.25 * Self.mm, style), style: style, trim: trim,
                                        safeMargin: margin)[0].message(naming: { "--" + $0 })
        #expect(message.hasPrefix("the border is 1.2 mm from the trim (top, right, bottom, left), within the 3 mm --safe-margin"),
                "\(message)")
        #expect(message.contains("--size") && message.contains("--border 0"))
        // No border, or an invisible one: a picture or mat filling the trim is no concern.
        for quiet in [FrameStyle(background: .white), FrameStyle(border: .mm(1), borderColor: .transparent)] {
            #expect(SafeZone.warnings(layout: try layout(inset: 0, quiet), style: quiet, trim: trim, safeMargin: margin).isEmpty)
        }
        // No margin, no warning.
        #expect(SafeZone.warnings(layout: try layout(inset: 0, style), style: style, trim: trim, safeMargin: 0).isEmpty)
    }

    /// An offset frame: only the edges within the margin are named, the distance is the nearest.
    @Test func onlyTheNearEdgesAreNamed() throws {
        let style = FrameStyle(border: .px(1))
        var near = try layout(inset: 10 * Self.mm, style)
        near.frame = near.frame.offsetBy(dx: -8.5 * Self.mm, dy: 8 * Self.mm)
        let warning = try #require(SafeZone.warnings(layout: near, style: style, trim: trim, safeMargin: margin).first)
        #expect(warning.edges == [.bottom, .left] && abs(warning.distance - 1.5 * Self.mm) < 1e-9, "\(warning)")
    }

    /// The inner border's outer edge: the picture's opening (the content box here: the picture
    /// is square and fills it) grown by the hairline's width, inside the padding box. With a
    /// frame on the trim, no border, 3.5 mm of padding and a 0.4 mm hairline it is 3.1 mm in:
    /// safe; 0.6 mm makes it 2.9 mm: warned. With no padding the mat leaves it no room at all.
    @Test func theInnerBorderAtTheEdgesOfTheMargin() throws {
        for (width, warned) in [(0.4, false), (0.6, true)] {
            let style = FrameStyle(padding: EdgeInsets(all: .mm(3.5)), fit: .contain,
                                   innerBorder: InnerBorder(width: .mm(width), color: .black))
            let warnings = SafeZone.warnings(layout: try layout(inset: 0, style), style: style, trim: trim, safeMargin: margin)
            #expect(warnings.map(\.element) == (warned ? [.innerBorder] : []), "\(width) mm: \(warnings)")
            if warned { #expect(abs(warnings[0].distance - (3.5 - width) * Self.mm) < 1e-9) }
        }
        let none = FrameStyle(fit: .contain, innerBorder: InnerBorder(width: .mm(1), color: .black))
        #expect(SafeZone.warnings(layout: try layout(inset: 0, none), style: none, trim: trim, safeMargin: margin).isEmpty,
                "the picture fills the mat: the hairline is clipped away")
        // A 4:3 picture in a square box leaves mat above and below: the hairline there runs the
        // whole width, and on the sides it reaches 0.2 mm into the 1 mm of mat: 0.8 mm from the
        // trim (the mat is inside the padding box, which clips it).
        var wide = FrameStyle(padding: EdgeInsets(all: .mm(1)), innerBorder: InnerBorder(width: .mm(0.2), color: .black))
        wide.size = LengthSize(width: .pt(trim.width), height: .pt(trim.height))
        wide.fit = .contain
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 400, pixelHeight: 300), style: wide)
        let warning = try #require(SafeZone.warnings(layout: layout, style: wide, trim: trim, safeMargin: margin).first)
        #expect(warning.element == .innerBorder && abs(warning.distance - 0.8 * Self.mm) < 1e-9, "\(warning)")
        #expect(warning.edges == [.right, .left])
    }

    /// The caption's box: in the mat it is as wide as the content box and ends above the bottom
    /// padding. 3.1 mm of padding keeps it out; 2.9 mm does not, and only its sides and bottom
    /// are named (the picture is above it).
    @Test func theCaptionAtTheEdgesOfTheMargin() throws {
        for (padding, warned) in [(3.1, false), (2.9, true)] {
            var style = FrameStyle(padding: EdgeInsets(all: .mm(padding)))
            style.caption = Caption(text: "abc", font: CSSFont(families: ["DejaVu Sans"], size: .pt(12)))
            let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100),
                                         style: { var s = style; s.size = LengthSize(width: .pt(trim.width), height: .pt(trim.height)); return s }(),
                                         text: CaptionLayoutTests.Measure())
            let warnings = SafeZone.warnings(layout: layout, style: style, trim: trim, safeMargin: margin)
            #expect(warnings.map(\.element) == (warned ? [.caption] : []), "\(padding) mm: \(warnings)")
            if warned {
                #expect(warnings[0].edges == [.right, .bottom, .left] && abs(warnings[0].distance - padding * Self.mm) < 1e-9)
            }
        }
        // A caption in a transparent colour draws nothing.
        var clear = FrameStyle()
        clear.caption = Caption(text: "abc", font: CSSFont(families: ["DejaVu Sans"], size: .pt(12)), color: .transparent)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 100, pixelHeight: 100),
                                     style: { var s = clear; s.size = LengthSize(width: .pt(trim.width), height: .pt(trim.height)); return s }(),
                                     text: CaptionLayoutTests.Measure())
        #expect(SafeZone.warnings(layout: layout, style: clear, trim: trim, safeMargin: margin).isEmpty)
    }

    /// Snapped raster edges move by up to a pixel: a tolerance keeps a fitted frame quiet.
    @Test func aToleranceForSnappedEdges() throws {
        let style = FrameStyle(border: .px(1))
        let layout = try layout(inset: margin - 0.2, style)
        #expect(SafeZone.warnings(layout: layout, style: style, trim: trim, safeMargin: margin).count == 1)
        #expect(SafeZone.warnings(layout: layout, style: style, trim: trim, safeMargin: margin, tolerance: 0.24).isEmpty)
    }
}
