import Foundation
import FramedLayout
import FramedRaster
import FramedRender

/// `framed INPUT -o OUTPUT [options]`: frames one picture.
enum FramedCommand {
    static let version = "0.1.0"

    static var parser: ArgumentParser { ArgumentParser(specs: frameOptions.map(\.spec)) }

    static var usage: String {
        """
        framed \(version): frames a picture with a border, a mat and a soft drop shadow, as SVG, PDF or PNG.

        usage: framed INPUT -o OUTPUT [options]

        Lengths take units px (1/96 in, the default), pt, in, mm, cm. Colours are CSS colours:
        #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), names, transparent.

        options:
        \(parser.helpText())
        """
    }

    /// Runs the command; returns the exit code (0 done, 1 a file problem, 2 a usage problem).
    static func main(_ arguments: [String]) -> Int32 {
        do {
            let parsed = try parser.parse(arguments)
            if parsed.has("help") { print(usage); return 0 }
            if parsed.has("version") { print("framed \(version)"); return 0 }
            let settings = try settings(from: parsed)
            try run(settings)
            return 0
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

    /// Applies the preset, then every option in order, and checks what is required.
    static func settings(from parsed: ParsedArguments) throws(UsageError) -> Settings {
        var settings = Settings()
        if let name = parsed.last("preset") {
            guard let preset = Preset(rawValue: name.lowercased()) else {
                throw UsageError("--preset: \"\(name)\" is not one of " + Preset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            settings.style = preset.style
        }
        for (name, value) in parsed.options {
            guard let option = frameOptions.first(where: { $0.spec.name == name }) else { continue }
            try option.apply(&settings, value ?? "")
        }
        switch parsed.positionals.count {
        case 0: throw UsageError("no input picture given")
        case 1: settings.input = parsed.positionals[0]
        default: throw UsageError("one input picture at a time; got \(parsed.positionals.count)")
        }
        guard let output = settings.output else { throw UsageError("no output file given (-o FILE)") }
        if settings.format == nil {
            guard let format = OutputFormat(path: output) else {
                throw UsageError("cannot tell the format of \"\(output)\"; end it in .svg, .pdf or .png, or give --format")
            }
            settings.format = format
        }
        return settings
    }

    /// Reads, lays out, renders and writes one picture.
    static func run(_ settings: Settings) throws {
        let input = settings.input!, output = settings.output!, format = settings.format!
        if OutputFile.isSameFile(input, output) || input == output {
            throw UsageError("the output \(output) is the input picture; it would be overwritten")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            throw FileError(path: output, reason: "is a folder; give an output file name")
        }

        let data: [UInt8]
        do { data = try Pictures.bytes(contentsOf: input) } catch { throw FileError(path: input, reason: error.description) }
        var options = RenderOptions(format: format, scale: settings.scale, dpi: settings.dpi, resample: settings.resample,
                                    metadata: DocumentMetadata(creator: "framed \(version)", creationDate: creationDate()),
                                    embed: settings.embed, quality: settings.quality, lossless: settings.lossless,
                                    autoOrient: settings.autoOrient, intent: settings.intent, flatten: settings.flatten,
                                    maxPixels: settings.maxPixels)
        options.snap = settings.snap
        let framed: FramedPicture
        do { framed = try Framer.frame(data, style: settings.style, options: options) } catch {
            switch error {
            case .picture(let reason): throw FileError(path: input, reason: reason.description)
            case .layout(let reason): throw UsageError("\(input): \(reason)")
            case .options(let reason): throw UsageError("\(input): \(reason)")
            case .render(let reason): throw FileError(path: output, reason: reason.description)
            }
        }
        for warning in framed.report.warnings { report("warning: \(input): \(warning)") }
        if let minimum = settings.minPPI, framed.report.effectivePPI < minimum - 1e-9 {
            let text = "\(input): the picture is placed at \(Int(framed.report.effectivePPI.rounded(.down))) pixels per inch, below --min-ppi \(minimum == minimum.rounded() ? String(Int(minimum)) : String(minimum))"
            if settings.strict { throw FileError(path: input, reason: String(text.dropFirst(input.count + 2)) + " (--strict)") }
            report("warning: " + text)
        }
        try OutputFile.write(framed.bytes, to: output)
    }

    /// The PDF creation date: `SOURCE_DATE_EPOCH` when set (reproducible builds), else a fixed date.
    static func creationDate() -> String {
        guard let text = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"],
              let seconds = Int(text), seconds >= 0 else { return DocumentMetadata().creationDate }
        var time = time_t(seconds), parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1,
                      parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// One line on standard error.
    static func report(_ message: String) {
        FileHandle.standardError.write(Data("framed: \(message)\n".utf8))
    }
}
