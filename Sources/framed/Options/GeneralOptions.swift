import FramedLayout
import FramedRaster
import FramedRender

/// Input and output, and the preset the look starts from.
let generalOptions: [Option] = [
    Option(spec: OptionSpec(name: "output", short: "o", valueName: "FILE",
                            help: "output file; its extension (.svg, .pdf, .png) picks the format")) { s, v throws(UsageError) in
        s.output = v
    },
    Option(spec: OptionSpec(name: "format", valueName: "FORMAT", help: "svg, pdf or png, whatever the output's extension")) { s, v throws(UsageError) in
        s.format = try choice("format", v, OutputFormat.self)
    },
    Option(spec: OptionSpec(name: "preset", valueName: "NAME",
                            help: "starting look: " + Preset.allCases.map(\.rawValue).joined(separator: ", "),
                            defaultText: "classic")) { _, _ throws(UsageError) in },
]

/// Help and version.
let infoOptions: [Option] = [
    Option(spec: OptionSpec(name: "help", short: "h", valueName: nil, help: "show this help and exit")) { _, _ throws(UsageError) in },
    Option(spec: OptionSpec(name: "version", valueName: nil, help: "show the version and exit")) { _, _ throws(UsageError) in },
]
