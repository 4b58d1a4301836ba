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
    /// A set (`--scale 1,2,3`, `--variant light,dark`): one output per member, in the order of
    /// `OutputOptions.setMembers` (`output` is the first); empty for one output.
    var setOutputs: [Destination] = []
    /// `--proof`: the soft proof's file (of the picture's own PDF, or of its page with `--pages`).
    var proof: String?

    /// The input as messages name it.
    var label: String { input == "-" ? "standard input" : input }
}

/// Everything a batch does, worked out before anything is read or written.
struct BatchPlan: Sendable {
    var jobs: [Job]
    /// `--pages`: the one PDF that gets every page.
    var pagesOutput: Destination?
    /// `--proof` with `--pages`: each page's soft proof file, in order.
    var proofs: [String] = []
    /// The outputs' folders, made before any picture is read when missing (as `mkdir -p`).
    var folders: [String]
    /// What the planning found to say without failing (a folder that cannot be read).
    var warnings: [String] = []
}

/// Turns inputs and `-o` into jobs: expands folders, names outputs, refuses collisions.
enum BatchPlanner {
    /// One input found: its path, and for pictures found in a folder, the subfolder it was in
    /// (kept under an output folder), that it was found so (`walked`), not given, and its format
    /// (told from its first bytes when the walk took it).
    struct Source { var path: String; var subfolder: String; var walked = false; var format: PictureFormat? = nil }

    static func plan(_ settings: Settings) throws -> BatchPlan {
        guard !settings.inputs.isEmpty else { throw UsageError("no input picture given") }
        if settings.inputs.filter({ $0 == "-" }).count > 1 {
            throw UsageError("- (standard input) can be read once only")
        }
        if !settings.dryRun && settings.output == nil { throw UsageError("no output file given (-o FILE)") }
        // A set: one output per scale and variant, named by `variantSuffix` and `scaleSuffix`.
        let framer = settings.framer
        let scales = framer.output.scales, variants = framer.output.variants
        for variant in variants where framer.preset.twin(variant) == nil {
            throw FramingError.noVariant(framer.preset, variant)
        }
        if scales.count > 1, let dpi = framer.output.dpi { throw FramingError.scalesWithDPI(dpi) }
        let members = framer.output.setMembers
        let isSet = members.count > 1
        // Each member's words for a template ({variant}, {scale}), and for a plain name (only
        // what tells the files of this set apart).
        let templateWords = members.map { (variant: $0.variant.map(variantSuffix) ?? "", scale: scaleSuffix($0.scale)) }
        let nameSuffixes = zip(members, templateWords).map { member, words in
            (variants.count > 1 ? words.variant : "") + (scales.count > 1 ? words.scale : "")
        }

        // What kind of output.
        enum Mode { case none, stdout, file(String), folder(String), template(String) }
        let mode: Mode
        switch settings.output {
        case nil: mode = .none
        case "-"?: mode = .stdout
        case let output?:
            if output.contains("{") || output.contains("}") {
                mode = .template(output)
            } else if output.hasSuffix("/") || (FileSystem.isDirectory(output) && !settings.onePDF) {
                mode = .folder(output)
            } else {
                mode = .file(output)
            }
        }
        if isSet {
            let what = scales.count > 1 ? "--scale with several values" : "--variant with two values"
            if settings.onePDF { throw UsageError("\(settings.onePDFOption) writes one PDF; \(what) writes several files") }
            switch mode {
            case .stdout: throw UsageError("-o - (standard output) takes one file; \(what) writes several")
            case let .template(template) where scales.count > 1 && !template.containsOccurrence(of: "{scale}"):
                throw UsageError("-o \(excerpt(template)): --scale with several values needs {scale} in the template, "
                                 + "or the files would have one name (out/{stem}{scale}.png: shot.png, shot@2x.png)")
            case let .template(template) where variants.count > 1 && !template.containsOccurrence(of: "{variant}"):
                throw UsageError("-o \(excerpt(template)): --variant with two values needs {variant} in the template, "
                                 + "or the files would have one name (out/{stem}{variant}.png: shot.png, shot-dark.png)")
            default: break
            }
        }
        if settings.onePDF {
            switch mode {
            case .folder, .template: throw UsageError("\(settings.onePDFOption) writes one PDF; give -o a file name ending in .pdf")
            default: break
            }
            if let format = settings.framer.output.format ?? settings.output.flatMap(OutputFormat.init(path:)), format != .pdf {
                throw UsageError("\(settings.onePDFOption) writes one PDF; the output is \(format.rawValue.uppercased())")
            }
        }

        var outputFolder: String?
        if case let .folder(folder) = mode { outputFolder = folder }
        var warnings: [String] = []
        var sources = try expand(settings.inputs, recursive: settings.recursive, skipping: outputFolder, warnings: &warnings)
        if case let .template(template) = mode, !settings.onePDF {
            sources = try leavingOutOwnOutputs(sources, template: template, words: templateWords)
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
        if settings.onePDF {
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
                    // A soft proof is a PDF's: its layout is the PDF's.
                    format = format ?? (framer.output.proof == nil ? .png : .pdf)
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
                    let f = format ?? folderFormat(source, framer: framer)
                    format = f
                    var path = folder.hasSuffix("/") ? folder : folder + "/"
                    if !source.subfolder.isEmpty { path += source.subfolder + "/" }
                    path += folderName(of: source.path, format: f)
                    output = .file(path)
                case let .template(template):
                    let path = try expandTemplate(template, source: source.path, index: index + 1, digits: digits,
                                                  variant: templateWords[0].variant, scale: templateWords[0].scale)
                    if format == nil {
                        guard let named = OutputFormat(path: path) else {
                            throw UsageError("cannot tell the format of \"\(path)\" (from -o \(excerpt(template))); "
                                             + "end the template in .svg, .pdf, .png, .jpg or .tif, or give --format")
                        }
                        format = named
                    }
                    output = .file(path)
                }
                var job = Job(index: index, input: source.path, output: output, format: format!)
                if isSet {
                    guard job.format.isRaster || scales.count < 2 else { throw FramingError.scalesNeedRaster(job.format) }
                    job.setOutputs = try zip(templateWords, nameSuffixes).map { words, suffix throws(UsageError) -> Destination in
                        switch (mode, output) {
                        case let (.template(template), _):
                            return .file(try expandTemplate(template, source: source.path, index: index + 1, digits: digits,
                                                            variant: words.variant, scale: words.scale))
                        case let (_, .file(path)): return .file(inserting(suffix, into: path))
                        default: return output
                        }
                    }
                }
                jobs.append(job)
            }
        }

        // The soft proofs: one picture's, or with --pages one a page (sheets' once their count
        // is known, by `BatchRunner`).
        var proofs: [String] = []
        if let proof = framer.output.proof {
            guard settings.onePDF || jobs.count == 1 else {
                throw UsageError("--proof writes the soft proof of one PDF; give one input, or --pages for one PDF of all "
                                 + "\(jobs.count)")
            }
            if framer.page.sheet == nil {
                proofs = (1...jobs.count).map { Framer.proofPath(proof, page: $0, of: jobs.count) }
                for index in jobs.indices { jobs[index].proof = proofs[index] }
            }
        }

        // No output may be an input or another output; found before anything is written.
        var taken: [String: Job] = [:]
        // Each input's path and file identity, found once (one stat each, not one per output).
        let inputPaths = jobs.filter { $0.input != "-" }.map(\.input)
        let inputKeys = Set(inputPaths.map(Paths.canonical))
        let inputFiles = Set(inputPaths.compactMap(FileSystem.identity))
        let destinations = jobs.flatMap { job -> [(Job, String)] in
            (job.setOutputs.isEmpty ? [job.output] : job.setOutputs).compactMap { output in
                if case let .file(path) = output { return (job, path) }
                return nil
            }
        } + (pagesOutput?.text.flatMap { $0 == "-" ? nil : (jobs[0], $0) }.map { [$0] } ?? [])
            + proofs.map { (jobs[0], $0) }
        for (job, path) in destinations {
            if let long = SystemPath.bytes(path).split(separator: UInt8(ascii: "/")).first(where: { $0.count > Int(NAME_MAX) }) {
                throw FileError(path: path, reason: "cannot be written: a name in it is \(long.count) bytes long, "
                                + "over the \(NAME_MAX) a file name may have")
            }
            let key = Paths.canonical(path)
            if proofs.contains(path) && (inputKeys.contains(key) || FileSystem.identity(path).map(inputFiles.contains) == true
                                         || taken[key] != nil) {
                throw proofOverwrites(path)
            }
            if inputKeys.contains(key) || FileSystem.identity(path).map(inputFiles.contains) == true {
                if job.input != "-", Paths.canonical(job.input) != key, FileSystem.identity(job.input) != FileSystem.identity(path) {
                    throw UsageError("the output \(path) of \(job.label) is another picture of this run (not one framed wrote); "
                                     + "it would be overwritten")
                }
                throw UsageError("the output \(path) is the input picture; it would be overwritten")
            }
            if !settings.onePDF, let other = taken[key] {
                if other.index == job.index {
                    throw UsageError("two files of the set of \(job.label) would both be written to \(path); "
                                     + "give scales that differ in their @Nx names")
                }
                throw UsageError("\(other.label) and \(job.label) would both be written to \(path); "
                                 + "use a template with {name} or {index}")
            }
            taken[key] = job
            // Every output's folder, whatever named it: a file, a set, a folder, a template, --pages.
            let folder = Paths.deletingLastComponent(path)
            if !folder.isEmpty { folders.append(folder) }
        }
        var seen = Set<String>()
        folders = folders.filter { seen.insert($0).inserted }
        return BatchPlan(jobs: jobs, pagesOutput: pagesOutput, proofs: settings.onePDF ? proofs : [], folders: folders,
                         warnings: warnings)
    }

    /// A soft proof that would be written over the output or an input.
    static func proofOverwrites(_ path: String) -> UsageError {
        UsageError("--proof \(path) would be written over the output or an input; give the proof another name")
    }

    /// The soft proofs of `count` sheets, each checked before anything is written: none may be
    /// an input or the output.
    static func sheetProofs(_ proof: String, count: Int, jobs: [Job], output: Destination?) throws -> [String] {
        let paths = (1...max(1, count)).map { Framer.proofPath(proof, page: $0, of: count) }
        let others = jobs.filter { $0.input != "-" }.map(\.input) + (output?.text.map { $0 == "-" ? [] : [$0] } ?? [])
        let keys = Set(others.map(Paths.canonical)), files = Set(others.compactMap(FileSystem.identity))
        for path in paths where keys.contains(Paths.canonical(path)) || FileSystem.identity(path).map(files.contains) == true {
            throw proofOverwrites(path)
        }
        return paths
    }

    /// The sources without the pictures found in a walked folder that this run writes from
    /// another picture and that framed wrote (`OutputMark`): a template that writes into the
    /// folder it walks, run a second time, finds its first run's outputs, which are outputs
    /// again, not inputs, as the output folder of `-o out/` is skipped. A picture of the user's
    /// (no mark) stays, and so does one that only its own output would replace: the run then
    /// refuses to write over an input. Leaving pictures out renumbers `{index}`, so the outputs
    /// are named again until none is left out.
    static func leavingOutOwnOutputs(_ sources: [Source], template: String,
                                     words: [(variant: String, scale: String)] = [("", "")]) throws(UsageError) -> [Source] {
        var sources = sources
        var marked: [String: Bool] = [:]
        func isFramedOutput(_ path: String) -> Bool {
            if let known = marked[path] { return known }
            let found = OutputMark.isMarked(path)
            marked[path] = found
            return found
        }
        while sources.contains(where: \.walked) {
            let digits = String(sources.count).count
            var outputs: [[String]] = []
            for (index, source) in sources.enumerated() {
                var own: [String] = []
                for word in words {
                    own.append(Paths.normalized(try expandTemplate(template, source: source.path, index: index + 1,
                                                                   digits: digits, variant: word.variant, scale: word.scale)))
                }
                outputs.append(own)
            }
            // How many sources write each path: a path only its own source writes is not another's output.
            var writers: [String: Int] = [:]
            for own in outputs { for path in Set(own) { writers[path, default: 0] += 1 } }
            let kept = sources.indices.filter { index in
                let path = Paths.normalized(sources[index].path)
                let byOthers = (writers[path] ?? 0) - (outputs[index].contains(path) ? 1 : 0)
                return !sources[index].walked || byOthers == 0 || !isFramedOutput(sources[index].path)
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
                // A link counts when it leads to a regular file (pictureFormat opens nothing else).
                if let format = pictureFormat(path) {
                    sources.append(Source(path: path, subfolder: subfolder, walked: true, format: format))
                }
            default:
                continue
            }
        }
    }

    /// The format of a regular file that starts like a picture framed can read (opened without
    /// waiting, should it have become a pipe since it was looked at); nil for anything else.
    static func pictureFormat(_ path: String) -> PictureFormat? {
        guard let file = try? FileDescriptor.openRegularFile(path) else { return nil }
        defer { try? file.close() }
        let head = (try? file.read(upTo: PictureFormat.sniffLength)) ?? []
        guard let format = PictureFormat.sniff(head), Pictures.canRead(format) else { return nil }
        return format
    }

    /// The format a picture gets in an output folder without `--format`: its own where framed
    /// writes it (PNG, JPEG, TIFF, SVG), else PNG, as a user of `mogrify -path` expects; PNG
    /// for an SVG that a set of several scales writes (one SVG serves every scale), PDF when a
    /// PDF/X variant is asked for. Standard input, read later, is PNG.
    static func folderFormat(_ source: Source, framer: Framer) -> OutputFormat {
        if framer.output.pdfVariant != nil { return .pdf }
        let picture = source.format ?? (source.path == "-" ? nil : pictureFormat(source.path))
        let own: OutputFormat? = switch picture {
        case .png?: .png
        case .jpeg?: .jpeg
        case .tiff?: .tiff
        case .svg?: .svg
        default: nil
        }
        guard let own, own.isRaster || framer.output.scales.count < 2 else { return .png }
        return own
    }

    /// An input's name in an output folder: its own when its extension names `format`
    /// (`IMG_1.JPG` stays `IMG_1.JPG`), else its stem and the format (`shot.webp` as PNG:
    /// `shot.png`).
    static func folderName(of input: String, format: OutputFormat) -> String {
        let parts = names(of: input)
        if !parts.ext.isEmpty, OutputFormat(path: parts.name) == format { return parts.name }
        return parts.stem + "." + format.rawValue
    }

    /// `{name}` the file name, `{stem}` without its extension, `{ext}` the extension (without the
    /// dot), `{index}` the position from 1, zero-padded to the width of the count, `{variant}`
    /// the variant's suffix (`variantSuffix`: empty for light, `-dark`), `{scale}` the scale's
    /// (`scaleSuffix`: empty at 1x, `@2x`).
    static func expandTemplate(_ template: String, source: String, index: Int, digits: Int,
                               variant: String = "", scale: String = "") throws(UsageError) -> String {
        let parts = names(of: source)
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            result += rest[..<open]
            guard rest[open] == "{", let close = rest[open...].firstIndex(of: "}") else {
                throw UsageError("-o \(excerpt(template)): a { without its } (placeholders: {name}, {stem}, {ext}, {index}, {variant}, {scale})")
            }
            let key = rest[rest.index(after: open)..<close]
            switch key {
            case "name": result += parts.name
            case "scale": result += scale
            case "variant": result += variant
            case "stem": result += parts.stem
            case "ext": result += parts.ext
            case "index":
                let number = String(index)
                result += String(repeating: "0", count: max(0, digits - number.count)) + number
            default:
                throw UsageError("-o \(excerpt(template)): unknown placeholder {\(excerpt(key))} (use {name}, {stem}, {ext}, {index}, {variant} or {scale})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// How a file of a set is told by its scale, the way Apple's asset catalogues and `srcset`
    /// tooling name them: nothing at 1x, `@2x` at 2, `@1.5x` at 1.5.
    static func scaleSuffix(_ scale: Double) -> String {
        if scale == 1 { return "" }
        return "@" + (scale == scale.rounded() ? String(Int(scale)) : String(scale)) + "x"
    }

    /// How the dark file of a set is told from the light one: `-dark` (`shot-dark.png`, as
    /// GitHub's and MkDocs' light/dark pairs are usually named); nothing for light.
    static func variantSuffix(_ variant: Variant) -> String {
        variant == .light ? "" : "-" + variant.rawValue
    }

    /// `path` with `suffix` before the extension of its last component (`shot.png` with `@2x`:
    /// `shot@2x.png`), or at its end when it has none.
    static func inserting(_ suffix: String, into path: String) -> String {
        let ext = Paths.pathExtension(path)
        guard !ext.isEmpty else { return path + suffix }
        return String(path.dropLast(ext.count + 1)) + suffix + "." + ext
    }

    /// A caption with `{name}`, `{stem}` and `{ext}` replaced by the picture's (as in an output
    /// template; a byte of the name that is not UTF-8 shows as U+FFFD); any other braces are
    /// the caption's own text and stay.
    static func expandCaption(_ text: String, source: String) -> String {
        guard text.contains("{") else { return text }
        let parts = names(of: SystemPath.displayName(source))
        return text.replacingOccurrences(of: "{name}", with: parts.name)
            .replacingOccurrences(of: "{stem}", with: parts.stem).replacingOccurrences(of: "{ext}", with: parts.ext)
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

