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

    /// An option that is a setting of the library's (`Framer.set`), by the same name; its error
    /// names the option.
    static func setting(_ spec: OptionSpec) -> Option {
        precondition(Setting.named(spec.name) != nil, "--\(spec.name) is no setting of Framer")
        return Option(spec: spec) { settings, value throws(UsageError) in
            do throws(SettingError) { try settings.framer.set(spec.name, value) } catch {
                throw UsageError("--\(error.setting): \(error.reason)")
            }
        }
    }
}

/// Every option of `framed`, in help order. Values apply in command-line order, after the preset.
let frameOptions: [Option] = generalOptions + lookOptions + outputOptions + pictureOptions + pageOptions + batchOptions
    + infoOptions
