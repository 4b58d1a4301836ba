import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Callouts and redaction (`--annotate`, issue 35), end to end: where a badge, an arrow's head
/// and a highlighter land after `--fit cover --position top`, in framed's PNG at `--scale 2`, in
/// the SVG as librsvg and Chromium draw it and in the PDF as PDFium and Ghostscript draw it,
/// against the test's own arithmetic; the highlighter multiplied, not laid over; the SVG's
/// classes and its one picture; the PDF's layer read back with pikepdf and hidden; redacted
/// pixels gone from the picture each output embeds; files, templates, errors and warnings.
struct AnnotationTests {
    /// The picture's one colour, and what a highlighter's default ink, rgba(255, 220, 0, .5),
    /// makes of it multiplied: (1 - a) B + a B C / 255 per channel.
    static let ground = (r: 100.0, g: 140.0, b: 180.0)
    static let multiplied = (r: 100.0, g: 70 + 0.5 * 140 * 220 / 255, b: 90.0)

    /// 800x500 of `ground`, in a 400x200px frame, `cover`, at the top, nothing else drawn: a
    /// picture pixel is 0.5 CSS px, 0.375pt.
    static let scene = ["flat.png", "--preset", "none", "--fit", "cover", "--size", "400x200", "--position", "top",
                        "--annotate", "badge 3 300,200; arrow 100,300 -> 500,300; highlight 560,60 160x120"]
    static let k = 0.375
    static let badge = (x: 300 * k, y: 200 * k, radius: 9.0)
    static let arrow = (start: 100 * k, end: 500 * k, y: 300 * k, width: 2.25)
    static let highlight = (x: 560 * k, y: 60 * k, width: 160 * k, height: 120 * k)

    static func folder() throws -> URL {
        let folder = try CLITests.workspace()
        var flat = [UInt8]()
        for _ in 0..<(800 * 500) { flat += [UInt8(ground.r), UInt8(ground.g), UInt8(ground.b), 255] }
        try OptionOutputTests.write(RasterImage(width: 800, height: 500, pixels: flat), "flat.png", in: folder)
        return folder
    }

    /// Checks the badge, the arrow and the highlighter in `image`, drawn at `scale` device pixels
    /// per point with the page's top `top` pixels down; `tolerance` is the colour's, in levels.
    static func expectScene(_ image: RasterImage, scale: (x: Double, y: Double), top: Double = 0, tolerance: Double,
                            _ renderer: String, sourceLocation: SourceLocation = #_sourceLocation) {
        func px(_ x: Double) -> Double { x * scale.x }
        func py(_ y: Double) -> Double { y * scale.y + top }
        func color(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let p = image.onWhiteColour(x, y)
            return (Double(p.0), Double(p.1), Double(p.2))
        }
        func isGround(_ c: (Double, Double, Double)) -> Bool {
            abs(c.0 - ground.r) + abs(c.1 - ground.g) + abs(c.2 - ground.b) < 24
        }
        func isRed(_ c: (Double, Double, Double)) -> Bool { c.0 > 150 && c.1 < 90 && c.2 < 110 }

        // The badge: everything that is not the ground around it (disc, halo, number) is
        // centred on its point; the number's ink (white inside the disc) is centred too.
        let reach = (badge.radius + 3) * scale.x
        var sum = (x: 0.0, y: 0.0, n: 0.0), ink = (x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for y in Int(py(badge.y) - reach)...Int(py(badge.y) + reach) {
            for x in Int(px(badge.x) - reach)...Int(px(badge.x) + reach) {
                let c = color(x, y)
                if !isGround(c) { sum.x += Double(x) + 0.5; sum.y += Double(y) + 0.5; sum.n += 1 }
                let dx = Double(x) + 0.5 - px(badge.x), dy = Double(y) + 0.5 - py(badge.y)
                if c.0 > 200, c.1 > 200, c.2 > 200, (dx * dx + dy * dy).squareRoot() < (badge.radius - 1.5) * scale.x {
                    ink = (min(ink.x0, x), min(ink.y0, y), max(ink.x1, x), max(ink.y1, y))
                }
            }
        }
        let centre = (x: sum.x / max(sum.n, 1), y: sum.y / max(sum.n, 1))
        #expect(abs(centre.x - px(badge.x)) < 0.75 && abs(centre.y - py(badge.y)) < 0.75,
                "\(renderer): the badge is centred at \(centre), not (\(px(badge.x)), \(py(badge.y)))", sourceLocation: sourceLocation)
        #expect(ink.x0 != Int.max && abs(Double(ink.x0 + ink.x1 + 1) / 2 - px(badge.x)) < 1.25
                && abs(Double(ink.y0 + ink.y1 + 1) / 2 - py(badge.y)) < 1.25,
                "\(renderer): the number's ink \(ink) is centred in the disc", sourceLocation: sourceLocation)

        // The arrow, left to right: its red ends at the head's point; the head is wide near its
        // point (0.6 of its length back: 0.6 of its 4.5-width base), the shaft one width wide.
        let row = Int(py(arrow.y))
        let reds = (0..<image.width).filter { isRed(color($0, row)) }
        let tip = Double((reds.max() ?? -9) + 1)
        // (The last red pixel is where the head is still a pixel high, about 2 pixels short.)
        #expect(abs(tip - px(arrow.end)) <= 3, "\(renderer): the arrow's red ends at \(tip), its head's point is at \(px(arrow.end))",
                sourceLocation: sourceLocation)
        func redRun(_ x: Double) -> Int {
            (Int(py(arrow.y) - 20 * scale.y)...Int(py(arrow.y) + 20 * scale.y)).filter { isRed(color(Int(x), $0)) }.count
        }
        let head = Double(redRun(px(arrow.end - 0.6 * 5 * arrow.width))), shaft = Double(redRun(px(arrow.start + 20)))
        #expect(abs(head - 0.6 * 4.5 * arrow.width * scale.y) <= 2.5 && abs(shaft - arrow.width * scale.y) <= 2.5,
                "\(renderer): the head is \(head) px high near its point, the shaft \(shaft)", sourceLocation: sourceLocation)
        #expect(abs(Double(reds.min() ?? -99) - px(arrow.start - arrow.width / 2)) <= 1.5, "\(renderer): the tail with its round cap",
                sourceLocation: sourceLocation)

        // The highlighter: multiplied inside its rectangle, nothing outside it.
        let inside = [(highlight.x + 2 / scale.x, highlight.y + 2 / scale.y),
                      (highlight.x + highlight.width - 2 / scale.x, highlight.y + highlight.height - 2 / scale.y),
                      (highlight.x + highlight.width / 2, highlight.y + highlight.height / 2)]
        for (x, y) in inside {
            let c = color(Int(px(x)), Int(py(y)))
            #expect(abs(c.0 - multiplied.r) <= tolerance && abs(c.1 - multiplied.g) <= tolerance && abs(c.2 - multiplied.b) <= tolerance,
                    "\(renderer): the highlighter at (\(x), \(y))pt is \(c), multiplied it is \(multiplied)", sourceLocation: sourceLocation)
        }
        let outside = [(highlight.x - 2 / scale.x, highlight.y + 10), (highlight.x + highlight.width + 2 / scale.x, highlight.y + 10),
                       (highlight.x + 10, highlight.y + highlight.height + 2 / scale.y), (highlight.x + 10, 0.5)]
        for (x, y) in outside where y < highlight.y || y > highlight.y + highlight.height || x < highlight.x
            || x > highlight.x + highlight.width {
            #expect(isGround(color(Int(px(x)), Int(py(y)))), "\(renderer): the ground at (\(x), \(y))pt", sourceLocation: sourceLocation)
        }
    }

    @Test func badgeArrowAndHighlighterLandWhereTheArithmeticSaysInEveryRenderer() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // framed's PNG at twice the CSS size.
        try OptionOutputTests.framed(Self.scene + ["-o", "scene.png", "--scale", "2"], in: folder)
        let png = try OptionOutputTests.png("scene.png", in: folder)
        #expect(png.width == 800 && png.height == 400)
        Self.expectScene(png, scale: (8.0 / 3, 8.0 / 3), tolerance: 2, "PNG")

        // The SVG, in librsvg at twice 96 dpi and in Chromium at 96 dpi.
        try OptionOutputTests.framed(Self.scene + ["-o", "scene.svg"], in: folder)
        let svg = folder.appendingPathComponent("scene.svg")
        Self.expectScene(try Support.rasteriseSVG(svg, zoom: 2), scale: (8.0 / 3, 8.0 / 3), tolerance: 3, "librsvg")
        let chromium = try Support.chromiumScreenshot(svg, width: 400, height: 200, scale: 2, folder: folder)
        Self.expectScene(chromium, scale: (8.0 / 3, 8.0 / 3), tolerance: 3, "Chromium")

        // The PDF, in PDFium and Ghostscript at 192 dpi.
        try OptionOutputTests.framed(Self.scene + ["-o", "scene.pdf"], in: folder)
        let pdf = folder.appendingPathComponent("scene.pdf")
        for viewer in [PDFViewer.pdfium, .ghostscript] {
            let page = try viewer.render(pdf, dpi: 192, pageSize: (300, 150))
            Self.expectScene(page.image, scale: (page.scaleX, page.scaleY), top: page.top, tolerance: 4, viewer.rawValue)
        }
    }

    @Test func theSVGKeepsCalloutsAsClassedVectorsOverItsOnePicture() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let every = "rect 10,10 100x50 radius=4; ellipse 10,10 100x50; line 10,10 -> 90,90; arrow 10,10 -> 90,90 via=50,10; "
            + "badge 1 50,50; highlight 10,10 50x20; label \"Go\" 200,100 -> 150,150; spotlight 10,10 60x40; "
            + "magnify 300,100 40x30 -> 500,200"
        try OptionOutputTests.framed(["flat.png", "--annotate", every, "-o", "all.svg"], in: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("all.svg"), encoding: .utf8)
        for kind in ["rect", "ellipse", "line", "arrow", "badge", "highlight", "label", "spotlight", "magnify"] {
            #expect(text.contains("class=\"framed-annotation \(kind)\""), "an element of class framed-annotation \(kind)")
        }
        // One raster: the picture, drawn again (a <use> of it) in the magnifier; Cairo did not
        // rasterise the page for the highlighter, which blends by CSS.
        #expect(text.components(separatedBy: "<image").count == 2 && text.components(separatedBy: "data:image/").count == 2)
        let image = try #require(text.range(of: #"<image id="([a-z0-9]+)""#, options: .regularExpression))
        let id = text[image].dropFirst(#"<image id=""#.count).dropLast()
        #expect(text.components(separatedBy: "xlink:href=\"#\(id)\"").count == 3, "the picture drawn, and again in the lens")
        #expect(text.contains("style=\"mix-blend-mode:multiply\""))
        // The look is presentation attributes, which a page's CSS overrides.
        #expect(text.contains("stroke=\"#e01e2d\"") && !text.contains("framed-annotation rect\" style"))
    }

    @Test func thePDFsCalloutsAreALayerThatAViewerCanHide() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.framed(Self.scene + ["-o", "scene.pdf"], in: folder)
        #expect(try Support.run("qpdf", ["--check", folder.appendingPathComponent("scene.pdf").path]) == 0, "qpdf --check")
        // pikepdf: the layer, the one form it holds, and a copy with the layer off.
        let script = """
            import pikepdf, sys
            pdf = pikepdf.open(sys.argv[1])
            oc = pdf.Root.OCProperties
            groups = list(oc.OCGs)
            assert len(groups) == 1 and str(groups[0].Name) == "Annotations" and groups[0].Type == "/OCG", oc
            assert list(oc.D.ON)[0].objgen == groups[0].objgen
            marked = [x for _, x in pdf.pages[0].Resources.XObject.items() if "/OC" in x]
            assert len(marked) == 1 and marked[0].OC.objgen == groups[0].objgen and marked[0].Subtype == "/Form", marked
            assert "/Group" not in marked[0], "the layer blends with the page"
            oc.D.OFF = pikepdf.Array([groups[0]])
            oc.D.ON = pikepdf.Array([])
            pdf.save(sys.argv[2])
            print("ok")
            """
        let r = try Tool.run(PDFViewer.pikepdfPython, ["-c", script, "scene.pdf", "hidden.pdf"], in: folder)
        #expect(r.status == 0 && r.output.contains("ok"), "pikepdf: \(r.stderr)")
        // With the layer off, PDFium (Chrome) and poppler draw the picture alone (Ghostscript draws
        // every layer, as for print).
        for viewer in [PDFViewer.pdfium, .poppler] {
            let shown = try viewer.render(folder.appendingPathComponent("scene.pdf"), dpi: 96, pageSize: (300, 150))
            let hidden = try viewer.render(folder.appendingPathComponent("hidden.pdf"), dpi: 96, pageSize: (300, 150))
            // On the disc, under its number.
            let x = Int(Self.badge.x * shown.scaleX), y = Int((Self.badge.y + 6.5) * shown.scaleY + shown.top)
            let on = shown.image.onWhiteColour(x, y), off = hidden.image.onWhiteColour(x, y)
            #expect(on.0 > 150 && on.1 < 90, "\(viewer): the badge shows: \(on)")
            #expect(abs(off.0 - Int(Self.ground.r)) <= 3 && abs(off.1 - Int(Self.ground.g)) <= 3 && abs(off.2 - Int(Self.ground.b)) <= 3,
                    "\(viewer): with the layer off the picture shows there: \(off)")
        }
    }

    // MARK: Redaction

    /// 240x160 pixels of noise.
    static let noise = Support.busyPicture(width: 240, height: 160, alpha: false)
    static let redactions = ["--annotate", "pixelate 24,16 96x48; redact 150,20 60x30 color=#102030; blur 40,100 80x40 sigma=6"]

    /// Checks that the picture `image` (the noise as embedded, 240x160) has the regions redacted
    /// and every other pixel as it was.
    static func expectRedacted(_ image: RasterImage, _ where_: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.width == 240 && image.height == 160, "\(where_): \(image.width)x\(image.height)", sourceLocation: sourceLocation)
        guard image.width == 240, image.height == 160 else { return }
        func same(_ a: (r: Int, g: Int, b: Int, a: Int), _ b: (r: Int, g: Int, b: Int, a: Int), _ t: Int) -> Bool {
            abs(a.r - b.r) <= t && abs(a.g - b.g) <= t && abs(a.b - b.b) <= t
        }
        var traces = 0, nonUniform = 0, changedOutside = 0, solid = 0, blurredLikeOriginal = 0
        for y in 0..<160 {
            for x in 0..<240 {
                let p = image.rgba(x, y), o = noise.rgba(x, y)
                if (24..<120).contains(x) && (16..<64).contains(y) {
                    // Blocks of 16 picture pixels from the region's corner, each one colour.
                    let corner = image.rgba(24 + (x - 24) / 16 * 16, 16 + (y - 16) / 16 * 16)
                    if !same(p, corner, 1) { nonUniform += 1 }
                    if same(p, o, 2) { traces += 1 }
                } else if (150..<210).contains(x) && (20..<50).contains(y) {
                    if same(p, (0x10, 0x20, 0x30, 255), 0) { solid += 1 }
                } else if (40..<120).contains(x) && (100..<140).contains(y) {
                    if same(p, o, 2) { blurredLikeOriginal += 1 }
                } else if !same(p, o, 1) {
                    changedOutside += 1
                }
            }
        }
        #expect(nonUniform == 0, "\(where_): \(nonUniform) pixels of the pixelated region differ from their block",
                sourceLocation: sourceLocation)
        // Noise: a block's mean is near few of its pixels' own values.
        #expect(traces < 96 * 48 / 50, "\(where_): \(traces) pixels of the pixelated region are the original's", sourceLocation: sourceLocation)
        #expect(solid == 60 * 30, "\(where_): the redacted region is all #102030 (\(solid))", sourceLocation: sourceLocation)
        #expect(blurredLikeOriginal < 80 * 40 / 20, "\(where_): the blurred region (\(blurredLikeOriginal) as they were)",
                sourceLocation: sourceLocation)
        #expect(changedOutside == 0, "\(where_): \(changedOutside) pixels outside the regions changed", sourceLocation: sourceLocation)
    }

    @Test func redactedPixelsAreInNoOutputsPicture() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try OptionOutputTests.write(Self.noise, "noise.png", in: folder)
        let base = ["noise.png", "--preset", "none"] + Self.redactions
        // The PNG: at one device pixel a picture pixel, it is the picture.
        try OptionOutputTests.framed(base + ["-o", "r.png"], in: folder)
        Self.expectRedacted(try OptionOutputTests.png("r.png", in: folder), "PNG")
        // The SVG's data URL and the PDF's image object, lossless (the picture is a PNG).
        try OptionOutputTests.framed(base + ["-o", "r.svg"], in: folder)
        let embedded = try OptionOutputTests.embedded(svg: "r.svg", in: folder)
        #expect(embedded.type == "image/png")
        Self.expectRedacted(try Pictures.decode(data: embedded.bytes).image, "SVG")
        try OptionOutputTests.framed(base + ["-o", "r.pdf"], in: folder)
        let pictures = try OptionOutputTests.pdfPictures("r.pdf", in: folder)
        #expect(pictures.count == 1)
        Self.expectRedacted(try Pictures.decode(data: try #require(pictures.first).bytes).image, "PDF")

        // A JPEG that would go into the PDF and SVG byte for byte is decoded and redacted instead.
        try OptionOutputTests.framed(["photo.jpg", "--preset", "none", "--annotate", "redact 100,50 80x60", "-o", "j.pdf"], in: folder)
        let jpeg = try #require(try OptionOutputTests.pdfPictures("j.pdf", in: folder).first)
        let original = try Data(contentsOf: folder.appendingPathComponent("photo.jpg"))
        #expect(jpeg.bytes != [UInt8](original), "not the source's bytes")
        let decoded = try Pictures.decode(data: jpeg.bytes).image
        for (x, y) in [(110, 60), (140, 80), (170, 100)] {
            let p = decoded.rgba(x, y)
            #expect(p.r <= 12 && p.g <= 12 && p.b <= 12, "black at (\(x), \(y)): \(p)")
        }
    }

    /// A picture large enough to be resized while it decodes (a 2400x1600 PNG, framed at
    /// 600x400) is redacted row by row before the resize reads the rows, in the list's order
    /// where regions overlap: the framing is byte for byte that of the picture the test redacted
    /// itself (16-pixel blocks of their rounded mean, then a solid box over part of them, then
    /// strips of blocks from the top to the bottom), framed without annotations.
    @Test func aPictureResizedWhileItDecodesIsRedactedFirst() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (width, height) = (2400, 1600)
        let picture = Support.busyPicture(width: width, height: height, alpha: false)
        var pixels = picture.pixels
        func pixelate(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int) {
            for by in stride(from: y0, to: y0 + h, by: 16) {
                for bx in stride(from: x0, to: x0 + w, by: 16) {
                    for c in 0..<3 {
                        var sum = 0
                        for y in by..<(by + 16) { for x in bx..<(bx + 16) { sum += Int(pixels[(y * width + x) * 4 + c]) } }
                        for y in by..<(by + 16) { for x in bx..<(bx + 16) { pixels[(y * width + x) * 4 + c] = UInt8((sum + 128) / 256) } }
                    }
                }
            }
        }
        pixelate(600, 600, 240, 96)
        for y in 560..<640 { for x in 500..<700 { pixels.replaceSubrange((y * width + x) * 4 ..< (y * width + x) * 4 + 4, with: [0x10, 0x20, 0x30, 255]) } }
        // Strips down the picture: wherever the resize is when the decoder passes one.
        let strips = [32, 160, 320, 800, 1000, 1200, 1408, 1536]
        for y in strips { pixelate(96, y, 480, 48) }
        try OptionOutputTests.write(picture, "picture.png", in: folder)
        try OptionOutputTests.write(RasterImage(width: width, height: height, pixels: pixels, hasAlpha: false), "redacted.png",
                                    in: folder)
        let frame = ["--preset", "none", "--size", "600x400"]
        let annotations = ["pixelate 600,600 240x96", "redact 500,560 200x80 color=#102030"] + strips.map { "pixelate 96,\($0) 480x48" }
        try OptionOutputTests.framed(["picture.png", "-o", "a.png"] + frame + ["--annotate", annotations.joined(separator: "; ")],
                                     in: folder)
        try OptionOutputTests.framed(["redacted.png", "-o", "b.png"] + frame, in: folder)
        let a = try Data(contentsOf: folder.appendingPathComponent("a.png"))
        let b = try Data(contentsOf: folder.appendingPathComponent("b.png"))
        #expect(a.count > 1000 && a == b, "the redacted framing differs from the framing of the picture redacted beforehand")
    }

    @Test func trimmedPicturesTakeCoordinatesInWhatIsLeft() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The noise on a white margin of 30 pixels left and 20 above: trimmed, pixel (0, 0) is
        // the noise's top-left corner.
        var margin = RasterImage(width: 300, height: 200, pixels: [UInt8](repeating: 255, count: 300 * 200 * 4))
        var pixels = margin.pixels
        for y in 0..<160 { for x in 0..<240 {
            let p = Self.noise.rgba(x, y), i = ((y + 20) * 300 + x + 30) * 4
            pixels[i] = UInt8(p.r); pixels[i + 1] = UInt8(p.g); pixels[i + 2] = UInt8(p.b)
        } }
        margin = RasterImage(width: 300, height: 200, pixels: pixels)
        try OptionOutputTests.write(margin, "margin.png", in: folder)
        try OptionOutputTests.framed(["margin.png", "--trim", "--preset", "none", "-o", "t.png"] + Self.redactions, in: folder)
        Self.expectRedacted(try OptionOutputTests.png("t.png", in: folder), "trimmed PNG")
    }

    @Test func coordinatesAreInTheUprightPicture() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 40x20 stored sideways (red left, blue right), EXIF orientation 6: 20x40 upright, red on
        // top. The region is the upright picture's top quarter; in the stored pixels it would be
        // the right half of the top 20 rows.
        let pixels = [UInt8]((0..<800).flatMap { i in i % 40 < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] })
        let webp = try PictureEncoder.webp(RasterImage(width: 40, height: 20, pixels: pixels), quality: nil,
                                           exif: PictureBytes.exif(orientation: 6, bigEndian: false))
        try Data(webp).write(to: folder.appendingPathComponent("phone.webp"))
        try OptionOutputTests.framed(["phone.webp", "-o", "up.png", "--preset", "none", "--annotate", "redact 0,0 20x10 color=#00ff00"],
                                     in: folder)
        let up = try OptionOutputTests.png("up.png", in: folder)
        #expect(up.width == 20 && up.height == 40)
        for (x, y) in [(0, 0), (19, 9), (3, 5)] { #expect(up.rgba(x, y).g == 255 && up.rgba(x, y).r == 0, "green at (\(x), \(y))") }
        for (x, y) in [(3, 10), (15, 18)] { #expect(up.rgba(x, y).r == 255 && up.rgba(x, y).g == 0, "red at (\(x), \(y))") }
        for (x, y) in [(3, 25), (15, 39)] { #expect(up.rgba(x, y).b == 255 && up.rgba(x, y).g == 0, "blue at (\(x), \(y))") }
    }

    // MARK: Files, batches, errors

    @Test func eachPictureTakesItsOwnFileAndLayoutListsTheBoxes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shots"), withIntermediateDirectories: true)
        for name in ["a", "b"] {
            try FileManager.default.copyItem(at: folder.appendingPathComponent("flat.png"),
                                             to: folder.appendingPathComponent("shots/\(name).png"))
        }
        // Beside a.png only: the template's file, in the JSON words framed layout writes.
        let json = #"[{"kind": "badge", "number": 1, "at": {"x": "50%", "y": 100}}, "#
            + #"{"kind": "redact", "rect": {"x": 0, "y": 0, "width": 40, "height": 20}}]"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("shots/a.annotations.json"))
        let template = ["--annotate", "{stem}.annotations.json", "--preset", "none"]
        try OptionOutputTests.framed(["shots/a.png", "shots/b.png", "-o", "out/{stem}.png"] + template, in: folder)
        let a = try OptionOutputTests.png("out/a.png", in: folder), b = try OptionOutputTests.png("out/b.png", in: folder)
        #expect(a.rgba(400, 109).r > 150 && a.rgba(400, 109).g < 90, "a's badge at (400, 100), under its number")
        #expect(a.rgba(5, 5).r == 0 && a.rgba(39, 19).b == 0, "a's redaction")
        #expect(b.rgba(400, 100).r == Int(Self.ground.r) && b.rgba(5, 5).r == Int(Self.ground.r), "b has none")
        let r = try CLITests.framed(["layout", "shots/a.png", "shots/b.png"] + template, in: folder)
        try #require(r.status == 0, "\(r.stderr)")
        let layouts = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let listed = try #require(layouts[0]["annotations"] as? [[String: Any]])
        #expect(layouts[1]["annotations"] == nil)
        #expect(listed.map { $0["kind"] as? String } == ["badge", "redact"] && listed.map { $0["index"] as? Int } == [1, 2])
        let box = try PresetConfigLayoutTests.rect(listed[0]["box"])
        // The disc: 12px around (400, 100)px.
        #expect(abs(box.x - 388 * 0.75) < 1e-6 && abs(box.y - 88 * 0.75) < 1e-6 && abs(box.w - 18) < 1e-6)
        let redaction = try PresetConfigLayoutTests.rect(listed[1]["box"])
        #expect(redaction.x == 0 && redaction.y == 0 && redaction.w == 30 && redaction.h == 15)
    }

    @Test func mistakesAreOneLineNamingTheAnnotationAndNothingIsWritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [([String], Int32, String)] = [
            (["--annotate", "badge 1 10,10; arrow 10,10 -> 900,10"], 2,
             "flat.png: --annotate: annotation 2 (arrow): its head 900,10 lies outside the picture (800x500 pixels)"),
            (["--annotate", "badge 1 10,10; rect 1,1"], 2, "--annotate: annotation 2 (rect): the rectangle's size WxH is missing"),
            (["--annotate", "pixelate 0,0 50x50 block=4"], 2, "annotation 1 (pixelate): block 4 must be at least 12 picture pixels"),
            (["--annotate", "missing.json"], 1, "missing.json: --annotate: cannot read"),
            (["--annotate", "bad.json"], 2, "--annotate bad.json: annotation 1 (label): has no \"text\""),
        ]
        try Data(#"[{"kind": "label", "at": {"x": 1, "y": 1}}]"#.utf8).write(to: folder.appendingPathComponent("bad.json"))
        for (arguments, status, message) in cases {
            let r = try CLITests.framed(["flat.png", "-o", "x.png"] + arguments, in: folder)
            #expect(r.status == status && r.stderr.contains(message), "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.png").path))
        }
        // Cut off by the crop: drawn, with a warning naming it.
        let r = try CLITests.framed(Self.scene.dropLast(2) + ["--annotate", "badge 1 10,10; badge 2 400,460", "-o", "x.png"], in: folder)
        #expect(r.status == 0 && r.stderr.contains("annotation 2 (badge) lies wholly outside the visible picture"), "\(r.stderr)")
        // An SVG picture has no pixels to redact.
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"/>"#.utf8).write(to: folder.appendingPathComponent("v.svg"))
        let v = try CLITests.framed(["v.svg", "-o", "v.png", "--annotate", "redact 0,0 10x10"], in: folder)
        #expect(v.status == 2 && v.stderr.contains("annotation 1 (redact) needs the picture's pixels"), "\(v.stderr)")
    }
}

extension RasterImage {
    /// Pixel (x, y) composited on white (a renderer that leaves the canvas transparent).
    func onWhiteColour(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return (-1000, -1000, -1000) }
        let p = rgba(x, y)
        func over(_ c: Int) -> Int { (c * p.a + 255 * (255 - p.a) + 127) / 255 }
        return (over(p.r), over(p.g), over(p.b))
    }
}
