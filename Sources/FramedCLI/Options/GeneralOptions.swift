import Framed

/// Where the output goes and in which format (with `outputOptions`, the help's "Output").
let generalOptions: [Option] = [
    Option(spec: OptionSpec(name: "output", short: "o", valueName: "FILE",
                            help: "output file, folder (out/: each picture's own format if framed writes it, else PNG) "
                            + "or template (out/{stem}.pdf); - for standard output; missing folders are made",
                            completion: .file)) { s, v throws(UsageError) in
        s.output = v
    },
    .setting(OptionSpec(name: "format", valueName: "FORMAT",
                        help: "svg, pdf, png, jpeg or tiff, whatever the output's extension or the picture's format",
                        completion: .cases(OutputFormat.self))),
]

/// Where the look starts from: a preset (first in the help's "Look").
let presetOptions: [Option] = [
    // Applied before every other option and the config file, wherever it is written.
    .setting(OptionSpec(name: "preset", valueName: "NAME",
                        help: "starting look: " + Preset.allCases.map(\.rawValue).joined(separator: ", ")
                        + " (framed presets lists them)",
                        defaultText: "classic", completion: .cases(Preset.self))),
]

/// Settings in a file, and read back.
let configOptions: [Option] = [
    // Read before every other option, which override it.
    Option(spec: OptionSpec(name: "config", valueName: "FILE",
                            help: "JSON object of long option names and values; command-line options override it",
                            completion: .file)) { s, v throws(UsageError) in
        s.config = v
    },
    Option(spec: OptionSpec(name: "print-config", valueName: nil,
                            help: "write the effective settings as JSON (usable as --config) and exit")) { s, _ throws(UsageError) in
        s.printConfig = true
    },
]

/// Help and version.
let infoOptions: [Option] = [
    Option(spec: OptionSpec(name: "help", short: "h", valueName: nil, help: "show this help and exit")) { _, _ throws(UsageError) in },
    Option(spec: OptionSpec(name: "version", valueName: nil, help: "show the version and exit")) { _, _ throws(UsageError) in },
]
