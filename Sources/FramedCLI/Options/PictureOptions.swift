import Framed

/// What happens to the picture on its way in.
let pictureOptions: [Option] = [
    .setting(OptionSpec(name: "image-dpi", valueName: "css|auto|N",
                        help: "size of a picture pixel: 96 per inch, the file's own, or N per inch",
                        defaultText: "css", completion: .words(["css", "auto"]))),
    .setting(OptionSpec(name: "resample", valueName: "FILTER",
                        help: "picture resampling: box (fastest), good (Catmull-Rom) or best (Lanczos-3)",
                        defaultText: "best", completion: .cases(ResamplingFilter.self))),
    .setting(OptionSpec(name: "flatten", valueName: "COLOR", help: "composite a transparent picture onto this colour")),
    .setting(OptionSpec(name: "trim", valueName: "[TOLERANCE]",
                        help: "remove uniform edges (the top-left corner's colour, within TOLERANCE as in ImageMagick's -fuzz: 10%) before layout",
                        defaultText: "off; exact when given alone", completion: .words(["0", "5%", "10%"]), optionalValue: true)),
    .setting(OptionSpec(name: "annotate", valueName: "CALLOUTS",
                        help: "callouts and redactions in picture pixels: a JSON file ('{stem}.annotations.json': each "
                        + "picture's own, beside it) or inline, e.g. 'badge 1 300,200; arrow 400,300 -> 250,120; pixelate 10,20 200x30'",
                        defaultText: "none", completion: .file)),
    .setting(OptionSpec(name: "no-auto-orient", valueName: nil, help: "ignore the EXIF orientation; keep the stored pixels")),
    .setting(OptionSpec(name: "rendering-intent", valueName: "INTENT",
                        help: "ICC rendering intent from a picture's embedded profile (or CMYK) to sRGB: perceptual or relative",
                        defaultText: "perceptual", completion: .cases(RenderingIntent.self))),
    .setting(OptionSpec(name: "max-pixels", valueName: "N",
                        help: "refuse pictures and PNG outputs with more pixels (from the header, before decoding)",
                        defaultText: "256000000")),
    .setting(OptionSpec(name: "min-ppi", valueName: "N",
                        help: "warn when the placed picture has fewer pixels per inch")),
    .setting(OptionSpec(name: "strict", valueName: nil, help: "make the --min-ppi and --safe-margin warnings errors (exit 1, no output)")),
]
