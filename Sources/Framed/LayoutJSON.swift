/// A plan as JSON: what `framed layout` prints. Lengths in points (1/72 in), y downwards,
/// (0, 0) the output's top-left corner; with a page (or marks) every rectangle is where it lands
/// on the page (bleed and slug included). `boxes` are the PDF's page boxes: media, bleed, trim.
/// `warnings`, when there are any, are what the layout alone tells (`FramePlan.warnings`);
/// `canvasImage` is the canvas image's file, the area it covers and the pixels it is made at;
/// `annotations` lists each annotation's place in the list, kind and box (what it covers,
/// strokes aside; a redaction's region).
/// A print on a sheet is laid out on its own page, and `sheet` says where that lands: the
/// sheet, column and row (from 1), whether it is turned, and its boxes and frame on the sheet.
extension FramePlan {
    /// The plan as JSON text, naming the picture `input`, the output file and the soft proof's
    /// file (`OutputOptions.proof`), if any.
    public func json(input: String, output: String? = nil, proof: String? = nil) -> String {
        jsonValue(input: input, output: output, proof: proof).text()
    }

    /// The plan as a JSON value (several make the array of a batch); on a sheet, with `sheet`
    /// its place there.
    package func jsonValue(input: String, output: String?, proof: String? = nil,
                           sheet: (place: PrintPlace, grid: SheetGrid)? = nil) -> JSON {
        let place: (Rect) -> Rect = { placement?.onPage($0) ?? $0 }
        var pairs: [(String, JSON)] = [("input", .string(input))]
        if let output { pairs.append(("output", .string(output))) }
        pairs += [
            ("format", .string(outputFormat.rawValue)),
            ("unit", .string("pt")),
            ("dpi", .number(dpi)),
            ("pictureFormat", .string(pictureFormat.rawValue)),
            ("sourcePixels", Self.pixels(sourcePixels)),
        ]
        if let trim {
            pairs.append(("trimmed", .object([("x", .number(Double(trim.x))), ("y", .number(Double(trim.y))),
                                              ("width", .number(Double(trim.width))),
                                              ("height", .number(Double(trim.height)))])))
        }
        pairs.append(("canvas", Self.size(canvas)))
        if let canvasPixels { pairs.append(("canvasPixels", Self.pixels(canvasPixels))) }
        if let proof {
            // The proof draws the whole page at the picture's resolution.
            let size = RenderOptions(format: .png, dpi: dpi).pixelSize(ofCanvas: canvas)
            pairs.append(("proof", .object([("file", .string(proof)), ("pixels", Self.pixels(size))])))
        }
        if let path = style.canvasImage {
            // The area it covers, and the pixels it is made at there (fewer when blurred).
            pairs.append(("canvasImage", .object([
                ("file", .string(path)),
                ("area", Self.rect(place(Framer.canvasArea(self)))),
                ("pixels", Self.pixels(Framer.canvasImagePixels(self).pixels)),
            ])))
        }
        // The page boxes, as a PDF writes them (the media is the whole output).
        let trim = placement?.trim ?? Rect(origin: .zero, size: canvas)
        var boxes: [(String, JSON)] = [
            ("media", Self.rect(Rect(origin: .zero, size: canvas))),
            ("bleed", Self.rect(placement?.bleedBox ?? trim)),
            ("trim", Self.rect(trim)),
        ]
        if let marks = placement?.marks, marks != .none { boxes.append(("marks", .string(marks.rawValue))) }
        pairs.append(("boxes", .object(boxes)))
        if let placement, let page {
            pairs.append(("page", .object([
                ("size", .string(page.description)),
                ("orientation", .string(placement.orientation.rawValue)),
                ("bleed", .number(placement.bleed)),
                ("trim", Self.rect(placement.trim)),
                ("safeMargin", .number(placement.safeMargin)),
                ("safe", Self.rect(placement.safeBox)),
                ("framedCanvas", Self.rect(Rect(origin: placement.origin, size: layout.canvas))),
            ])))
        }
        pairs += [
            ("frame", Self.rect(place(layout.frame))),
            ("outerRadius", .number(layout.outerRadius)),
            ("borderWidth", .number(layout.borderWidth)),
            ("paddingBox", Self.rect(place(layout.paddingBox))),
            ("innerRadius", .number(layout.innerRadius)),
            ("contentBox", Self.rect(place(layout.contentBox))),
            ("picture", Self.rect(place(layout.picture))),
            ("pictureClip", Self.rect(place(layout.pictureClip))),
            ("innerBorderWidth", .number(layout.innerBorderWidth)),
        ]
        if let bar = layout.titleBar { pairs.append(("titleBar", Self.rect(place(bar)))) }
        pairs += [
            ("shadows", .array(layout.shadows.map { shadow in
                .object([
                    ("box", Self.rect(place(shadow.box))),
                    ("radius", .number(shadow.radius)),
                    ("sigma", .number(shadow.sigma)),
                    ("color", .string(shadow.color.description)),
                    ("extent", Self.rect(place(shadow.extent))),
                ])
            })),
        ]
        if let caption = layout.caption {
            pairs.append(("caption", .object([
                ("box", Self.rect(place(caption.box))),
                ("lines", .number(Double(caption.lines))),
                ("position", .string(caption.position.rawValue)),
                ("textBox", Self.rect(place(caption.textBox))),
                ("color", .string(caption.color.description)),
                ("contrast", .number(caption.contrast)),
            ])))
        }
        let placed = annotations.drawn.map { ($0.index, $0.kind, $0.box) } + annotations.redactions.map { ($0.index, $0.kind, $0.box) }
        if !placed.isEmpty {
            // Each annotation's box in output points, in the list's order.
            pairs.append(("annotations", .array(placed.sorted { $0.0 < $1.0 }.map { index, kind, box in
                .object([("index", .number(Double(index))), ("kind", .string(kind.rawValue)), ("box", Self.rect(place(box)))])
            })))
        }
        pairs += [
            ("rasterPixels", Self.pixels(rasterPixels)),
            ("effectivePPI", .number(effectivePPI)),
        ]
        let safeMargin = safeMarginWarnings
        if !safeMargin.isEmpty {
            pairs.append(("safeMarginWarnings", .array(safeMargin.map { warning in
                .object([
                    ("element", .string(warning.element.rawValue)),
                    ("distance", .number(warning.distance)),
                    ("edges", .array(warning.edges.map { .string($0.rawValue) })),
                ])
            })))
        }
        if !warnings.isEmpty { pairs.append(("warnings", .array(warnings.map { .string($0.description) }))) }
        if let (spot, grid) = sheet {
            // The print's own output, moved (and turned) onto its sheet.
            let onSheet: (Rect) -> Rect = { spot.onSheet(place($0)) }
            let trim = placement?.trim ?? Rect(origin: .zero, size: canvas)
            pairs.append(("sheet", .object([
                ("number", .number(Double(spot.sheet + 1))),
                ("size", Self.size(grid.sheet)),
                ("column", .number(Double(spot.column + 1))),
                ("row", .number(Double(spot.row + 1))),
                ("turned", .bool(spot.turned)),
                ("trim", Self.rect(spot.onSheet(trim))),
                ("bleed", Self.rect(spot.footprint)),
                ("framedCanvas", Self.rect(onSheet(Rect(origin: .zero, size: layout.canvas)))),
                ("frame", Self.rect(onSheet(layout.frame))),
                ("pictureClip", Self.rect(onSheet(layout.pictureClip))),
            ])))
        }
        return .object(pairs)
    }

    private static func rect(_ r: Rect) -> JSON {
        .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
    }

    private static func size(_ s: Size) -> JSON { .object([("width", .number(s.width)), ("height", .number(s.height))]) }

    private static func pixels(_ p: PixelSize) -> JSON {
        .object([("width", .number(Double(p.width))), ("height", .number(Double(p.height)))])
    }
}
