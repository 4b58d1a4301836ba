internal import Glibc
import Framed
import FramedSystem

/// Where one picture's output goes.
enum Destination: Sendable, Equatable {
    case file(String)
    case stdout
    /// `--dry-run` without `-o`: nothing is written.
    case none

    var text: String? {
        switch self {
        case let .file(path): return path
        case .stdout: return "-"
        case .none: return nil
        }
    }
}

/// One picture to frame.
struct Job: Sendable {
    /// Position in the batch, from 0.
    var index: Int
    /// The path to read, or "-" for standard input.
    var input: String
    var output: Destination
    var format: OutputFormat

    /// The input as messages name it.
    var label: String { input == "-" ? "standard input" : input }
}

/// Everything a batch does, worked out before anything is read or written.
struct BatchPlan: Sendable {
    var jobs: [Job]
    /// `--pages`: the one PDF that gets every page.
    var pagesOutput: Destination?
    /// Folders to create before writing (for `-o out/` and templates).
    var folders: [String]
    /// What the planning found to say without failing (a folder that cannot be read).
    var warnings: [String] = []
}

/// Turns inputs and `-o` into jobs: expands folders, names outputs, refuses collisions.
enum BatchPlanner {
    /// One input found: its path, and for pictures found in a folder, the subfolder it was in
    /// (kept under an output folder) and that it was found so (`walked`), not given.
    struct Source { var path: String; var subfolder: String; var walked = false }

    static func plan(_ settings: Settings) throws -> BatchPlan {
        guard !settings.inputs.isEmpty else { throw UsageError("no input picture given") }
        if settings.inputs.filter({ $0 == "-" }).count > 1 {
            throw UsageError("- (standard input) can be read once only")
        }
        if !settings.dryRun && settings.output == nil { throw UsageError("no output file given (-o FILE)") }

        // What kind of output.
        enum Mode { case none, stdout, file(String), folder(String), template(String) }
        let mode: Mode
        switch settings.output {
        case nil: mode = .none
        case "-"?: mode = .stdout
        case let output?:
            if output.contains("{") || output.contains("}") {
                mode = .template(output)
            } else if output.hasSuffix("/") || (FileSystem.isDirectory(output) && !settings.pages) {
                mode = .folder(output)
            } else {
                mode = .file(output)
            }
        }
        if settings.pages {
            switch mode {
            case .folder, .template: throw UsageError("--pages writes one PDF; give -o a file name ending in .pdf")
            default: break
            }
            if let format = settings.framer.output.format ?? settings.output.flatMap(OutputFormat.init(path:)), format != .pdf {
                throw UsageError("--pages writes one PDF; the output is \(format.rawValue.uppercased())")
            }
        }

        var outputFolder: String?
        if case let .folder(folder) = mode { outputFolder = folder }
        var warnings: [String] = []
        var sources = try expand(settings.inputs, recursive: settings.recursive, skipping: outputFolder, warnings: &warnings)
        if case let .template(template) = mode, !settings.pages {
            sources = try leavingOutOwnOutputs(sources, template: template)
        }
        guard !sources.isEmpty else {
            // The folders left out may be why none was found: say so first.
            for warning in warnings { FramedCommand.report("warning: " + warning) }
            throw UsageError("no pictures found in " + settings.inputs.joined(separator: ", "))
        }
        let count = sources.count
        let digits = String(count).count

        var jobs: [Job] = []
        var pagesOutput: Destination?
        var folders: [String] = []
        if settings.pages {
            let format = OutputFormat.pdf
            switch mode {
            case .none: pagesOutput = Destination.none
            case .stdout: pagesOutput = .stdout
            case let .file(path):
                if FileSystem.isDirectory(path) { throw FileError(path: path, reason: "is a folder; give an output file name") }
                pagesOutput = .file(path)
            default: break
            }
            jobs = sources.enumerated().map { Job(index: $0, input: $1.path, output: .none, format: format) }
        } else {
            for (index, source) in sources.enumerated() {
                let output: Destination
                var format = settings.framer.output.format
                switch mode {
                case .none:
                    output = .none
                    format = format ?? .png
                case .stdout:
                    guard count == 1 else {
                        throw UsageError("-o - (standard output) takes one picture; got \(count) (use --pages for one PDF)")
                    }
                    guard format != nil else { throw UsageError("-o - (standard output) needs --format svg, pdf or png") }
                    output = .stdout
                case let .file(path):
                    guard count == 1 else {
                        throw UsageError("\(count) inputs need an output folder (-o out/), a template (-o 'out/{stem}.png') "
                                         + "or --pages for one PDF; \(path) is one file")
                    }
                    if FileSystem.isDirectory(path) {
                        throw FileError(path: path, reason: "is a folder; give an output file name, or --format to write into it")
                    }
                    if format == nil {
                        guard let named = OutputFormat(path: path) else {
                            throw UsageError("cannot tell the format of \"\(path)\"; end it in .svg, .pdf, .png, .jpg or .tif, or give --format")
                        }
                        format = named
                    }
                    output = .file(path)
                case let .folder(folder):
                    guard let f = format else {
                        if count == 1 && !folder.hasSuffix("/") {
                            throw FileError(path: folder, reason: "is a folder; give an output file name, or --format to write into it")
                        }
                        throw UsageError("writing into the folder \(folder) needs --format svg, pdf or png")
                    }
                    var path = folder.hasSuffix("/") ? folder : folder + "/"
                    if !source.subfolder.isEmpty { path += source.subfolder + "/" }
                    path += names(of: source.path).stem + "." + f.rawValue
                    output = .file(path)
                case let .template(template):
                    let path = try expandTemplate(template, source: source.path, index: index + 1, digits: digits)
                    if format == nil {
                        guard let named = OutputFormat(path: path) else {
                            throw UsageError("cannot tell the format of \"\(path)\" (from -o \(template)); "
                                             + "end the template in .svg, .pdf, .png, .jpg or .tif, or give --format")
                        }
                        format = named
                    }
                    output = .file(path)
                }
                jobs.append(Job(index: index, input: source.path, output: output, format: format!))
            }
        }

        // No output may be an input or another output; found before anything is written.
        var taken: [String: Job] = [:]
        // Each input's path and file identity, found once (one stat each, not one per output).
        let inputPaths = jobs.filter { $0.input != "-" }.map(\.input)
        let inputKeys = Set(inputPaths.map(Paths.canonical))
        let inputFiles = Set(inputPaths.compactMap(FileSystem.identity))
        let destinations = jobs.compactMap { job -> (Job, String)? in
            if case let .file(path) = job.output { return (job, path) }
            return nil
        } + (pagesOutput?.text.flatMap { $0 == "-" ? nil : (jobs[0], $0) }.map { [$0] } ?? [])
        for (job, path) in destinations {
            if let long = SystemPath.bytes(path).split(separator: UInt8(ascii: "/")).first(where: { $0.count > Int(NAME_MAX) }) {
                throw FileError(path: path, reason: "cannot be written: a name in it is \(long.count) bytes long, "
                                + "over the \(NAME_MAX) a file name may have")
            }
            let key = Paths.canonical(path)
            if inputKeys.contains(key) || FileSystem.identity(path).map(inputFiles.contains) == true {
                throw UsageError("the output \(path) is the input picture; it would be overwritten")
            }
            if !settings.pages, let other = taken[key] {
                throw UsageError("\(other.label) and \(job.label) would both be written to \(path); "
                                 + "use a template with {name} or {index}")
            }
            taken[key] = job
            if case .folder = mode { folders.append(Paths.deletingLastComponent(path)) }
            if case .template = mode {
                let folder = Paths.deletingLastComponent(path)
                if !folder.isEmpty { folders.append(folder) }
            }
        }
        var seen = Set<String>()
        folders = folders.filter { seen.insert($0).inserted }
        return BatchPlan(jobs: jobs, pagesOutput: pagesOutput, folders: folders, warnings: warnings)
    }

    /// The sources without the pictures found in a walked folder that this run writes (a
    /// template that writes into the folder it walks, run a second time, finds its first run's
    /// outputs), as the output folder of `-o out/` is skipped. A picture whose output is itself
    /// stays, to be refused as such. Leaving pictures out renumbers `{index}`, so the outputs
    /// are named again until none is left out.
    static func leavingOutOwnOutputs(_ sources: [Source], template: String) throws(UsageError) -> [Source] {
        var sources = sources
        while sources.contains(where: \.walked) {
            let digits = String(sources.count).count
            var outputs: [String] = []
            for (index, source) in sources.enumerated() {
                outputs.append(Paths.normalized(try expandTemplate(template, source: source.path, index: index + 1, digits: digits)))
            }
            let written = Set(outputs)
            let kept = sources.indices.filter { index in
                let path = Paths.normalized(sources[index].path)
                return !sources[index].walked || !written.contains(path) || outputs[index] == path
            }
            if kept.count == sources.count { break }
            sources = kept.map { sources[$0] }
        }
        return sources
    }

    /// Inputs in order; folders walked (with `recursive`) in name order, taking only regular
    /// files (or links to them) whose first bytes are a picture framed reads. Hidden files and
    /// folders, links to folders, pipes and devices, and the output folder are skipped; a
    /// folder that cannot be read is left out with a warning.
    static func expand(_ inputs: [String], recursive: Bool, skipping outputFolder: String?,
                       warnings: inout [String]) throws -> [Source] {
        var sources: [Source] = []
        let skip = outputFolder.map(Paths.normalized)
        for input in inputs {
            guard input != "-", FileSystem.isDirectory(input) else {
                sources.append(Source(path: input, subfolder: ""))
                continue
            }
            guard recursive else {
                throw UsageError("\(input) is a folder; add --recursive (-r) to frame the pictures in it")
            }
            walk(input, subfolder: "", skip: skip, into: &sources, warnings: &warnings)
        }
        return sources
    }

    private static func walk(_ folder: String, subfolder: String, skip: String?, into sources: inout [Source],
                             warnings: inout [String]) {
        let names: [String]
        switch FileSystem.names(in: folder) {
        case let .success(found): names = found
        case let .failure(error):
            warnings.append("\(folder): cannot read the folder (\(error)); the pictures in it are left out")
            return
        }
        // Numbers in names in numeric order (p2 before p10), whatever the locale.
        for name in NameOrder.sorted(names) where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let status: FileSystem.Status
            do { status = try FileSystem.linkStatusOrError(path) } catch {
                warnings.append("\(path): cannot read (\(error)); left out")
                continue
            }
            switch status.kind {
            case .directory:
                if let skip, Paths.normalized(path) == skip { continue }
                walk(path, subfolder: subfolder.isEmpty ? name : subfolder + "/" + name, skip: skip, into: &sources,
                     warnings: &warnings)
            case .regular, .link:
                // A link counts when it leads to a regular file (isPicture opens nothing else).
                if isPicture(path) { sources.append(Source(path: path, subfolder: subfolder, walked: true)) }
            default:
                continue
            }
        }
    }

    /// Whether the regular file starts like a picture framed can read (opened without waiting,
    /// should it have become a pipe since it was looked at).
    static func isPicture(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.openRegularFile(path) else { return false }
        defer { try? file.close() }
        let head = (try? file.read(upTo: PictureFormat.sniffLength)) ?? []
        guard let format = PictureFormat.sniff(head) else { return false }
        return Pictures.canRead(format)
    }

    /// `{name}` the file name, `{stem}` without its extension, `{ext}` the extension (without the
    /// dot), `{index}` the position from 1, zero-padded to the width of the count.
    static func expandTemplate(_ template: String, source: String, index: Int, digits: Int) throws(UsageError) -> String {
        let parts = names(of: source)
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            result += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw UsageError("-o \(template): a { without its } (placeholders: {name}, {stem}, {ext}, {index})")
            }
            let key = rest[rest.index(after: open)..<close]
            switch key {
            case "name": result += parts.name
            case "stem": result += parts.stem
            case "ext": result += parts.ext
            case "index":
                let number = String(index)
                result += String(repeating: "0", count: max(0, digits - number.count)) + number
            default:
                throw UsageError("-o \(template): unknown placeholder {\(key)} (use {name}, {stem}, {ext} or {index})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A caption with `{name}`, `{stem}` and `{ext}` replaced by the picture's (as in an output
    /// template); any other braces are the caption's own text and stay.
    static func expandCaption(_ text: String, source: String) -> String {
        guard text.contains("{") else { return text }
        let parts = names(of: source)
        return text.replacing("{name}", with: parts.name).replacing("{stem}", with: parts.stem)
            .replacing("{ext}", with: parts.ext)
    }

    /// File name, stem and extension of an input ("stdin" for standard input).
    static func names(of path: String) -> (name: String, stem: String, ext: String) {
        if path == "-" { return ("stdin", "stdin", "") }
        let name = Paths.lastComponent(path)
        let ext = Paths.pathExtension(name)
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        return (name, stem.isEmpty ? name : stem, ext)
    }
}

