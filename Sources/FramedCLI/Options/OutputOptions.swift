import Framed

/// Output resolution and how the picture is stored in SVG and PDF.
let outputOptions: [Option] = [
    .setting(OptionSpec(name: "scale", valueName: "N[,N...]",
                        help: "PNG, JPEG, TIFF: device pixels per CSS px; a list (1,2,3) writes one file each: shot.png, shot@2x.png",
                        defaultText: "1")),
    .setting(OptionSpec(name: "variant", valueName: "light|dark",
                        help: "the preset's light or dark twin (docs, docs-dark), on the canvas the pair shares; light,dark writes both: shot.png, shot-dark.png",
                        completion: .words(["light", "dark", "light,dark"]))),
    .setting(OptionSpec(name: "dpi", valueName: "N",
                        help: "PNG, JPEG, TIFF: pixels per inch of the output; SVG/PDF: of the embedded picture",
                        defaultText: "PNG 96 x scale, SVG 192, PDF, JPEG, TIFF 300")),
    .setting(OptionSpec(name: "no-snap", valueName: nil,
                        help: "PNG: keep edges where the geometry puts them instead of on whole pixels")),
    .setting(OptionSpec(name: "embed", valueName: "MODE",
                        help: "SVG/PDF picture storage: auto (JPEG for opaque photos, else PNG), jpeg or png",
                        defaultText: "auto", completion: .cases(EmbedMode.self))),
    .setting(OptionSpec(name: "quality", valueName: "N", help: "JPEG quality 1-100: a JPEG output, a re-encoded picture",
                        defaultText: "90")),
    .setting(OptionSpec(name: "lossless", valueName: nil, help: "SVG/PDF: never re-encode the picture lossily")),
]
