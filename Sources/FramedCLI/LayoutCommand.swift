import FramedLayout
import FramedRaster
import FramedRender

/// `framed layout` and `--dry-run`: the geometry of one framed picture as JSON, from the
/// picture's header alone. Lengths in points (1/72 in), y downwards, (0, 0) the output's top-left
/// corner; with `--page` every rectangle is where it lands on the page (bleed included).
enum LayoutReport {
    static func json(job: Job, plan: FramePlan, options: RenderOptions) -> JSON {
        let layout = plan.layout
        let place: (Rect) -> Rect = { plan.placement?.onPage($0) ?? $0 }
        var pairs: [(String, JSON)] = [("input", .string(job.input))]
        if let output = job.output.text { pairs.append(("output", .string(output))) }
        pairs += [
            ("format", .string(options.format.rawValue)),
            ("unit", .string("pt")),
            ("dpi", .number(options.pictureDPI)),
            ("sourcePixels", pixels(plan.sourcePixels)),
            ("canvas", size(plan.canvas)),
        ]
        if options.format == .png { pairs.append(("canvasPixels", pixels(options.pixelSize(ofCanvas: plan.canvas)))) }
        if let placement = plan.placement, let page = options.page {
            pairs.append(("page", .object([
                ("size", .string(page.size.description)),
                ("orientation", .string(placement.orientation.rawValue)),
                ("bleed", .number(placement.bleed)),
                ("trim", rect(placement.trim)),
                ("framedCanvas", rect(Rect(origin: placement.origin, size: layout.canvas))),
            ])))
        }
        pairs += [
            ("frame", rect(place(layout.frame))),
            ("outerRadius", .number(layout.outerRadius)),
            ("borderWidth", .number(layout.borderWidth)),
            ("paddingBox", rect(place(layout.paddingBox))),
            ("innerRadius", .number(layout.innerRadius)),
            ("contentBox", rect(place(layout.contentBox))),
            ("picture", rect(place(layout.picture))),
            ("pictureClip", rect(place(layout.pictureClip))),
            ("innerBorderWidth", .number(layout.innerBorderWidth)),
            ("shadows", .array(layout.shadows.map { shadow in
                .object([
                    ("box", rect(place(shadow.box))),
                    ("radius", .number(shadow.radius)),
                    ("sigma", .number(shadow.sigma)),
                    ("color", .string(shadow.color.description)),
                    ("extent", rect(place(shadow.extent))),
                ])
            })),
            ("rasterPixels", pixels(plan.rasterPixels)),
            ("effectivePPI", .number(plan.effectivePPI)),
        ]
        return .object(pairs)
    }

    static func rect(_ r: Rect) -> JSON {
        .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
    }

    static func size(_ s: Size) -> JSON { .object([("width", .number(s.width)), ("height", .number(s.height))]) }

    static func pixels(_ p: PixelSize) -> JSON {
        .object([("width", .number(Double(p.width))), ("height", .number(Double(p.height)))])
    }
}

/// `framed presets`: every preset with the options it stands for.
enum PresetList {
    static func text() -> String {
        var lines: [String] = []
        let lookNames = Set(lookOptions.map(\.spec.name))
        for preset in Preset.allCases {
            var settings = Settings()
            preset.apply(to: &settings)
            lines.append("\(preset.rawValue): \(preset.summary)")
            guard case let .object(pairs) = ConfigFile.effective(settings, given: []) else { continue }
            for (name, value) in pairs where lookNames.contains(name) || name == "dpi" {
                lines.append("    --\(name) " + shellWord(value))
            }
            if preset.dpi == nil { lines.append("    (--dpi: the format's default)") }
            lines.append("")
        }
        lines.append("Use one with --preset NAME; options given after it (or in --config) change it.")
        return lines.joined(separator: "\n")
    }

    /// A value as it would be typed in a shell.
    static func shellWord(_ value: JSON) -> String {
        let text: String
        switch value {
        case let .string(s): text = s
        default: text = value.text()
        }
        let plain = text.unicodeScalars.allSatisfy { scalar in
            CharacterSetLike.isPlain(scalar)
        }
        return plain && !text.isEmpty ? text : quoted(text)
    }

    /// In single quotes, each quote inside written as `'\''` (quote, escaped quote, quote).
    static func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { result += "'\\''" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "'"
    }
}

/// Characters that need no quoting in a shell word.
enum CharacterSetLike {
    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_", "/", ":", "=", "+", "%", ",": return true
        default: return false
        }
    }
}
