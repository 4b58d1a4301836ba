import FramedLayout
import FramedRaster
import FramedRender

/// Output resolution and how the picture is stored in SVG and PDF.
let outputOptions: [Option] = [
    Option(spec: OptionSpec(name: "scale", valueName: "N", help: "PNG: device pixels per CSS px", defaultText: "1")) { s, v throws(UsageError) in
        s.scale = try number("scale", v, maximum: 64)
    },
    Option(spec: OptionSpec(name: "dpi", valueName: "N",
                            help: "PNG: pixels per inch of the output; SVG/PDF: of the embedded picture",
                            defaultText: "PNG 96 x scale, SVG 192, PDF 300")) { s, v throws(UsageError) in
        s.dpi = try number("dpi", v, maximum: 6_000)
    },
    Option(spec: OptionSpec(name: "no-snap", valueName: nil,
                            help: "PNG: keep edges where the geometry puts them instead of on whole pixels")) { s, _ throws(UsageError) in
        s.snap = false
    },
    Option(spec: OptionSpec(name: "embed", valueName: "MODE",
                            help: "SVG/PDF picture storage: auto (JPEG for opaque photos, else PNG), jpeg or png",
                            defaultText: "auto")) { s, v throws(UsageError) in
        s.embed = try choice("embed", v, EmbedMode.self)
    },
    Option(spec: OptionSpec(name: "quality", valueName: "N", help: "JPEG quality 1-100 when the picture is re-encoded",
                            defaultText: "90")) { s, v throws(UsageError) in
        guard let q = Int(v), (1...100).contains(q) else { throw UsageError("--quality: \"\(v)\" is not a whole number from 1 to 100") }
        s.quality = q
    },
    Option(spec: OptionSpec(name: "lossless", valueName: nil, help: "SVG/PDF: never re-encode the picture lossily")) { s, _ throws(UsageError) in
        s.lossless = true
    },
]
