import Framed
import FramedSystem

/// `framed INPUT... -o OUTPUT [options]`: frames pictures; `framed layout` and `framed presets`.
package enum FramedCommand {
    static let version = Framer.version

    static var parser: ArgumentParser { ArgumentParser(specs: frameOptions.map(\.spec)) }

    /// What framed does, in a few words.
    static let summary = "frames pictures with a border, a mat and a soft drop shadow, as SVG, PDF, PNG, JPEG or TIFF"

    /// The paragraphs that say what inputs, outputs, lengths and colours are (help and manual).
    static let description = [
        """
        INPUT is a PNG, JPEG, WebP, HEIC, AVIF, TIFF, GIF or SVG file, a folder (with
        --recursive), or - for standard input.
        OUTPUT is a file; a folder (out/) or a template such as 'out/{stem}.pdf' for several inputs
        ({name} file name, {stem} without extension, {ext} extension, {index} position from 1);
        one PDF with --pages; - for standard output (with --format). Into a folder, a picture
        keeps its name and format where framed writes that format (PNG, JPEG, TIFF, SVG) and
        becomes PNG otherwise, unless --format says. Missing folders are made, as mkdir -p does.
        Existing outputs are kept unless --overwrite is given.
        """,
        """
        Lengths take units px (1/96 in, the default), pt, in, mm, cm. Colours are CSS colours:
        #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), names, transparent.
        """,
    ]

    static var usage: String {
        """
        framed \(version): \(summary).

        usage: framed INPUT... -o OUTPUT [options]
               framed layout INPUT... [options]    print the geometry as JSON; write nothing
               framed presets                      list the presets with their settings

        \(description.joined(separator: "\n\n"))

        \(ArgumentParser.helpText(groups: optionGroups.map { ($0.title, $0.options.map(\.spec)) }))
        """
    }

    /// Runs `framed` as the process: standard input, output and error open (on /dev/null where
    /// they were closed, so that no file framed opens takes their numbers and gets messages
    /// written into it), then the command line's arguments, each kept byte for byte
    /// (`SystemPath`: a file name need not be UTF-8). Returns the exit code.
    package static func run() -> Int32 {
        FileDescriptor.openStandardStreams()
        let arguments = (1..<Int(CommandLine.argc)).map { SystemPath.string(cString: CommandLine.unsafeArgv[$0]!) }
        // framed started by itself to run librsvg for one SVG picture (not an option: never in
        // --help; the parent hands it the document in a descriptor).
        if arguments.first == SVGSandbox.argument { return SVGSandbox.serve(Array(arguments.dropFirst())) }
        LibraryMessages.quietStandardErrorStream()
        LibraryFailure.endCleanly()
        return main(arguments)
    }

    /// librsvg in a child process of this very executable, for the SVG pictures of a run; in
    /// this process where the system shows no /proc (a bare chroot), as the library draws them.
    static var sandbox: SVGSandbox? {
        FileSystem.isRegularFile("/proc/self/exe") ? SVGSandbox(executable: "/proc/self/exe") : nil
    }

    /// Runs the command; returns the exit code (0 done, 1 a file problem, 2 a usage problem).
    static func main(_ arguments: [String]) -> Int32 {
        do {
            var arguments = arguments
            var layoutCommand = false
            switch arguments.first {
            case "--generate-manual" where arguments.count == 1:
                try printOut(Manual.page)
                return 0
            case "--generate-completion-script" where arguments.count == 2:
                guard let script = Completions.script(for: arguments[1]) else {
                    throw UsageError("--generate-completion-script: \"\(arguments[1])\" is not one of "
                                     + Completions.shells.joined(separator: ", "))
                }
                try printOut(script)
                return 0
            case "presets":
                guard arguments.count == 1 else { throw UsageError("framed presets takes no arguments") }
                try printOut(PresetList.text() + "\n")
                return 0
            case "layout":
                arguments.removeFirst()
                layoutCommand = true
            default: break
            }
            let parsed = try parser.parse(arguments)
            if parsed.has("help") { try printOut(usage + "\n"); return 0 }
            if parsed.has("version") { try printOut("framed \(version)\n"); return 0 }
            var settings = try settings(from: parsed)
            if layoutCommand { settings.dryRun = true }
            settings.framer.svgSandbox = sandbox
            if settings.printConfig {
                try printOut(ConfigFile.effective(settings).text(exact: true) + "\n")
                return 0
            }
            // The output intent's profile is checked once, before any picture.
            do { _ = try settings.framer.outputIntentProfile() } catch { throw error.commandLineError(input: error.picture) }
            let plan = try BatchPlanner.plan(settings)
            return try BatchRunner.run(plan, settings: settings)
        } catch is BrokenPipe {
            return BrokenPipe.status
        } catch let error as UsageError {
            report("\(error) (see framed --help)")
            return 2
        } catch let error as FileError {
            report("\(error)")
            return 1
        } catch {
            report("\(error)")
            return 1
        }
    }

    /// The preset first (from the command line, else the config file), then the config file,
    /// then every command-line option in order.
    static func settings(from parsed: ParsedArguments) throws -> Settings {
        var settings = Settings()
        var fromConfig: [(name: String, value: String?)] = []
        if let path = parsed.last("config") {
            fromConfig = try ConfigFile.load(path)
            settings.config = path
        }
        let given = fromConfig + parsed.options
        /// Applies one option; an error from the config file names the file.
        func apply(_ index: Int) throws(UsageError) {
            let (name, value) = given[index]
            do { try option(named: name).apply(&settings, value ?? "") } catch {
                throw index < fromConfig.count ? UsageError("--config \(settings.config ?? ""): \(error)") : error
            }
        }
        // The preset first (the command line's, else the config file's), then everything else.
        for index in given.indices where given[index].name == "preset" { try apply(index) }
        for index in given.indices where given[index].name != "preset" && given[index].name != "config" { try apply(index) }
        settings.inputs = parsed.positionals
        if settings.framer.page.size == nil && settings.framer.page.sheet == nil {
            for name in ["orientation", "bleed", "safe-margin"] where given.contains(where: { $0.name == name }) {
                throw UsageError("--\(name) needs --page or --sheet")
            }
        }
        if settings.framer.page.sheet == nil {
            for name in ["n-up", "gutter"] where given.contains(where: { $0.name == name }) {
                throw UsageError("--\(name) needs --sheet")
            }
        }
        if settings.framer.output.outputIntent != nil && settings.framer.output.pdfVariant == nil {
            throw UsageError("--output-intent needs --pdf-variant")
        }
        if settings.framer.output.gamutWarning != nil && settings.framer.output.proof == nil {
            throw UsageError("--gamut-warning needs --proof")
        }
        return settings
    }

    private static func option(named name: String) -> Option {
        frameOptions.first { $0.spec.name == name }!
    }

    /// Writes `text` to standard output; a failed write is an error (`BrokenPipe` when the
    /// reader went away), not text silently lost.
    static func printOut(_ text: String) throws {
        try BatchRunner.writeOut(Array(text.utf8), to: .stdout, replacing: true)
    }

    /// One line on standard error.
    static func report(_ message: String) {
        Console.write("framed: \(Console.escaped(message))\n")
    }
}
