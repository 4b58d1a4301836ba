import FramedLayout
import FramedRaster
import FramedRender

/// What happens to the picture on its way in.
let pictureOptions: [Option] = [
    Option(spec: OptionSpec(name: "resample", valueName: "FILTER",
                            help: "picture resampling: box (fastest), good (Catmull-Rom) or best (Lanczos-3)",
                            defaultText: "best")) { s, v throws(UsageError) in
        s.resample = try choice("resample", v, ResamplingFilter.self)
    },
    Option(spec: OptionSpec(name: "flatten", valueName: "COLOR", help: "composite a transparent picture onto this colour")) { s, v throws(UsageError) in
        s.flatten = try parse("flatten", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "no-auto-orient", valueName: nil, help: "ignore the EXIF orientation; keep the stored pixels")) { s, _ throws(UsageError) in
        s.autoOrient = false
    },
    Option(spec: OptionSpec(name: "intent", valueName: "INTENT",
                            help: "colour conversion from an embedded profile to sRGB: perceptual or relative",
                            defaultText: "perceptual")) { s, v throws(UsageError) in
        s.intent = try choice("intent", v, RenderingIntent.self)
    },
    Option(spec: OptionSpec(name: "max-pixels", valueName: "N",
                            help: "refuse pictures and PNG outputs with more pixels (from the header, before decoding)",
                            defaultText: "256000000")) { s, v throws(UsageError) in
        s.maxPixels = Int(try number("max-pixels", v, maximum: 4_000_000_000))
    },
    Option(spec: OptionSpec(name: "min-ppi", valueName: "N",
                            help: "warn when the placed picture has fewer pixels per inch")) { s, v throws(UsageError) in
        s.minPPI = try number("min-ppi", v, maximum: 100_000)
    },
    Option(spec: OptionSpec(name: "strict", valueName: nil, help: "make the --min-ppi warning an error (exit 1, no output)")) { s, _ throws(UsageError) in
        s.strict = true
    },
]
