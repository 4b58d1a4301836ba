import Framed

/// Everything one run of `framed` needs, after parsing: the library's settings, and how to run
/// the batch.
struct Settings {
    /// The look, picture, output and page settings (`Framer.set` applies them by name).
    var framer = Framer()
    /// `-o`: a file, a folder, a template or `-`.
    var output: String?
    /// Every input given (files, folders, `-` for standard input), in order.
    var inputs: [String] = []
    /// `--pages`: all inputs into one PDF, a page each.
    var pages = false
    /// All inputs into one PDF: `--pages`, or `--sheet` (several to a page).
    var onePDF: Bool { pages || framer.page.sheet != nil }
    /// The option that asked for one PDF, for messages.
    var onePDFOption: String { framer.page.sheet != nil ? "--sheet" : "--pages" }
    /// Pictures framed at once (nil: one per core).
    var jobs: Int?
    var recursive = false
    var overwrite = false
    var quiet = false
    var failFast = false
    var dryRun = false
    var printConfig = false
    /// The config file read (`--config`), for messages.
    var config: String?
}

/// An option: how it shows in help and what its value does to the settings (flags get "").
struct Option: Sendable {
    var spec: OptionSpec
    var apply: @Sendable (inout Settings, String) throws(UsageError) -> Void

    /// An option that is a setting of the library's (`Framer.set`), by the same name and aliases;
    /// its error names the option.
    static func setting(_ spec: OptionSpec) -> Option {
        guard let setting = Setting.named(spec.name), setting.name == spec.name else {
            preconditionFailure("--\(spec.name) is no setting of Framer")
        }
        var withAliases = spec
        withAliases.aliases = setting.aliases
        return Option(spec: withAliases) { settings, value throws(UsageError) in
            do throws(SettingError) { try settings.framer.set(setting.name, value) } catch {
                throw UsageError("--\(error.setting): \(error.reason)")
            }
        }
    }
}

/// The options in groups, as the docs group them, each with its title: the order and the
/// headings of `--help`, the manual page and docs/options.md's tables.
let optionGroups: [(title: String, options: [Option])] = [
    ("Output", generalOptions + outputOptions),
    ("Look", presetOptions + lookOptions),
    ("Text", textOptions),
    ("Picture", pictureOptions),
    ("Page and print", pageOptions),
    ("Many pictures", batchOptions),
    ("Config files and help", configOptions + infoOptions),
]

/// Every option of `framed`, in help order. Values apply in command-line order, after the preset.
let frameOptions: [Option] = optionGroups.flatMap(\.options)
