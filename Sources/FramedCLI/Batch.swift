internal import Glibc
import Dispatch
import FramedLayout
import FramedRaster
import FramedRender
import FramedSystem
import Synchronization

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
}

/// Turns inputs and `-o` into jobs: expands folders, names outputs, refuses collisions.
enum BatchPlanner {
    /// One input found: its path, and for pictures found in a folder, the subfolder it was in
    /// (kept under an output folder).
    struct Source { var path: String; var subfolder: String }

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
            if let format = settings.format ?? settings.output.flatMap(OutputFormat.init(path:)), format != .pdf {
                throw UsageError("--pages writes one PDF; the output is \(format.rawValue.uppercased())")
            }
        }

        var outputFolder: String?
        if case let .folder(folder) = mode { outputFolder = folder }
        let sources = try expand(settings.inputs, recursive: settings.recursive, skipping: outputFolder)
        guard !sources.isEmpty else {
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
                var format = settings.format
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
                            throw UsageError("cannot tell the format of \"\(path)\"; end it in .svg, .pdf or .png, or give --format")
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
                                             + "end the template in .svg, .pdf or .png, or give --format")
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
        let inputKeys = Set(inputPaths.map(Paths.normalized))
        let inputFiles = Set(inputPaths.compactMap(FileSystem.identity))
        let destinations = jobs.compactMap { job -> (Job, String)? in
            if case let .file(path) = job.output { return (job, path) }
            return nil
        } + (pagesOutput?.text.flatMap { $0 == "-" ? nil : (jobs[0], $0) }.map { [$0] } ?? [])
        for (job, path) in destinations {
            let key = Paths.normalized(path)
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
        return BatchPlan(jobs: jobs, pagesOutput: pagesOutput, folders: folders)
    }

    /// Inputs in order; folders walked (with `recursive`) in name order, taking only files whose
    /// first bytes are a picture framed reads. Hidden files and folders, links to folders, and
    /// the output folder are skipped.
    static func expand(_ inputs: [String], recursive: Bool, skipping outputFolder: String?) throws -> [Source] {
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
            walk(input, subfolder: "", skip: skip, into: &sources)
        }
        return sources
    }

    private static func walk(_ folder: String, subfolder: String, skip: String?, into sources: inout [Source]) {
        guard let names = FileSystem.names(in: folder) else { return }
        // Numbers in names in numeric order (p2 before p10), whatever the locale.
        for name in NameOrder.sorted(names) where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                if let skip, Paths.normalized(path) == skip { continue }
                walk(path, subfolder: subfolder.isEmpty ? name : subfolder + "/" + name, skip: skip, into: &sources)
            } else if type == S_IFREG || (type == S_IFLNK && !FileSystem.isDirectory(path)) {
                if isPicture(path) { sources.append(Source(path: path, subfolder: subfolder)) }
            }
        }
    }

    /// Whether the file starts like a picture framed can read.
    static func isPicture(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.openForReading(path) else { return false }
        defer { try? file.close() }
        let head = (try? file.read(upTo: 32)) ?? []
        guard let format = PictureFormat.sniff(head) else { return false }
        return Pictures.decoder(for: format) != nil
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

    /// File name, stem and extension of an input ("stdin" for standard input).
    static func names(of path: String) -> (name: String, stem: String, ext: String) {
        if path == "-" { return ("stdin", "stdin", "") }
        let name = Paths.lastComponent(path)
        let ext = Paths.pathExtension(name)
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        return (name, stem.isEmpty ? name : stem, ext)
    }
}

/// What happened to one picture.
struct JobResult: Sendable {
    /// Warnings, in order.
    var warnings: [String] = []
    /// The error, if the picture failed: its message and whether it is a usage error (exit 2
    /// when it is the only picture).
    var error: String?
    var usageError = false
    /// `--dry-run`: the geometry.
    var layout: JSON?
    /// `--pages`: the picture ready to draw.
    var prepared: PreparedPicture?

    var failed: Bool { error != nil }
}

/// Runs a batch: pictures on `jobs` workers at once, messages in input order.
enum BatchRunner {
    /// Shared between the workers and the thread that reports: the progress under a lock, and a
    /// semaphore that wakes the reporter when a worker has news.
    final class State: Sendable {
        struct Progress {
            var next = 0
            /// Results not yet taken by the reporter, by job index.
            var results: [JobResult?]
            var finished = 0
            var failed = 0
            var stop = false
            var workersDone = 0
        }
        let progress: Mutex<Progress>
        let wake = DispatchSemaphore(value: 0)
        init(count: Int) { progress = Mutex(Progress(results: Array(repeating: nil, count: count))) }
    }

    /// How many pictures are framed at once, and on how many threads each: `-j N` (default:
    /// one per core) uses at most N cores, as `make -j` runs at most N jobs. Workers take one
    /// picture each; cores that no worker needs (fewer pictures than N) are shared out, so one
    /// picture alone has every core N allows, and `-j 1` keeps to one.
    static func shares(jobs: Int?, pictures: Int, cores: Int) -> (workers: Int, threadsEach: Int) {
        let allowed = max(1, jobs ?? cores)
        let workers = max(1, min(allowed, pictures))
        return (workers, max(1, min(allowed, cores) / workers))
    }

    static func run(_ plan: BatchPlan, settings: Settings) throws -> Int32 {
        let jobs = plan.jobs
        let console = Console(total: jobs.count, quiet: settings.quiet || settings.dryRun)
        if case let .file(path)? = plan.pagesOutput, !settings.overwrite, !settings.dryRun, FileSystem.exists(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        var stdin: [UInt8] = []
        if jobs.contains(where: { $0.input == "-" }) {
            do { stdin = try FileDescriptor.standardInput.readToEnd() } catch {
                throw FileError(path: "standard input", reason: "cannot read (\(error))")
            }
        }
        if !settings.dryRun {
            TemporaryFiles.shared.removeOnInterrupt()
            for folder in plan.folders where !FileSystem.isDirectory(folder) {
                do { try FileSystem.createDirectory(folder) } catch {
                    throw FileError(path: folder, reason: "cannot create the folder")
                }
            }
        }

        let state = State(count: jobs.count)
        let (workerCount, threadsEach) = Self.shares(jobs: settings.jobs, pictures: jobs.count,
                                                     cores: Resampler.processorCount)
        let context = JobContext(settings: settings, stdin: stdin, threads: threadsEach)
        /// One worker: the next job, until none is left or `--fail-fast` stopped the batch.
        let work: @Sendable () -> Void = {
            while true {
                let next: Int? = state.progress.withLock { progress in
                    guard !progress.stop, progress.next < jobs.count else {
                        progress.workersDone += 1
                        return nil
                    }
                    progress.next += 1
                    return progress.next - 1
                }
                guard let index = next else {
                    state.wake.signal()
                    return
                }
                let result = context.run(jobs[index])
                state.progress.withLock { progress in
                    progress.results[index] = result
                    progress.finished += 1
                    if result.failed {
                        progress.failed += 1
                        if settings.failFast { progress.stop = true }
                    }
                }
                state.wake.signal()
            }
        }
        // Joined before returning (see `WorkerThread`), also when reporting throws.
        var threads: [WorkerThread] = []
        defer { for thread in threads { thread.join() } }
        for _ in 0..<workerCount {
            do {
                threads.append(try WorkerThread(work))
            } catch {
                // A thread the system refuses: the workers already started share the jobs.
                if threads.isEmpty { throw error }
                break
            }
        }
        let workers = threads.count

        // Report in input order as results come in.
        var reported = 0, finished = 0, failed = 0, framed = 0
        var layouts: [JSON] = []
        var prepared: [PreparedPicture] = []
        var firstError: JobResult?
        while true {
            _ = state.wake.wait(timeout: .now() + .milliseconds(200))
            // Take the results that are next in input order out of the shared state (no copy of
            // the whole list under the lock, which the workers also take).
            var ready: [JobResult] = []
            let allDone = state.progress.withLock { progress in
                var index = reported
                while index < jobs.count, let result = progress.results[index] {
                    ready.append(result)
                    progress.results[index] = nil
                    index += 1
                }
                finished = progress.finished
                failed = progress.failed
                return progress.workersDone == workers
            }
            for result in ready {
                for warning in result.warnings { console.report("warning: " + warning) }
                if let error = result.error {
                    console.report(error)
                    if firstError == nil { firstError = result }
                } else {
                    framed += 1
                    if let layout = result.layout { layouts.append(layout) }
                    if let picture = result.prepared { prepared.append(picture) }
                }
                reported += 1
            }
            console.progress(done: finished, failed: failed)
            if allDone && reported == finished { break }
        }
        let skipped = jobs.count - finished

        if settings.dryRun {
            if !layouts.isEmpty {
                let json = jobs.count == 1 && !settings.pages ? layouts[0] : .array(layouts)
                try writeOut(Array((json.text() + "\n").utf8), to: .stdout)
            }
        } else if let destination = plan.pagesOutput {
            if failed == 0 && skipped == 0 {
                var options = context.renderOptions(.pdf)
                options.page = nil
                let bytes: [UInt8]
                do { bytes = try FrameRenderer.renderPages(prepared, options: options) } catch {
                    throw FileError(path: destination.text ?? "-", reason: error.description)
                }
                try writeOut(bytes, to: destination)
            } else {
                console.report("\(destination.text ?? "-"): not written: \(failed + skipped) of \(jobs.count) pages could not be made")
            }
        }
        console.finish()

        if jobs.count >= 2 && !settings.quiet && !settings.dryRun {
            var summary = "framed \(framed) of \(jobs.count) pictures"
            if failed == 0 && skipped == 0 { summary = "framed \(jobs.count) pictures" }
            if let destination = plan.pagesOutput?.text, failed == 0 && skipped == 0 {
                summary += " into \(jobs.count) pages of \(destination)"
            }
            summary += String(printf: " in %.1f s", console.elapsed)
            if failed > 0 { summary += ", \(failed) failed" }
            if skipped > 0 { summary += ", \(skipped) skipped (--fail-fast)" }
            console.report(summary)
        }
        if let firstError {
            return jobs.count == 1 && firstError.usageError ? 2 : 1
        }
        return skipped > 0 ? 1 : 0
    }

    /// Writes bytes to a file (atomically) or to standard output.
    static func writeOut(_ bytes: [UInt8], to destination: Destination) throws {
        switch destination {
        case let .file(path): try OutputFile.write(bytes, to: path)
        case .stdout:
            do { try FileDescriptor.standardOutput.write(bytes) } catch {
                throw FileError(path: "standard output", reason: "cannot write: \(error)")
            }
        case .none: break
        }
    }
}

/// What every job of a batch shares: the settings and standard input's bytes.
struct JobContext: Sendable {
    var settings: Settings
    var stdin: [UInt8]
    /// The cores one picture may use (`RenderOptions.threads`).
    var threads: Int

    func renderOptions(_ format: OutputFormat) -> RenderOptions {
        var options = RenderOptions(format: format, scale: settings.scale, dpi: settings.dpi, resample: settings.resample,
                                    metadata: DocumentMetadata(title: settings.title, author: settings.author,
                                                               creator: "framed \(FramedCommand.version)",
                                                               creationDate: FramedCommand.creationDate()),
                                    embed: settings.embed, quality: settings.quality, lossless: settings.lossless,
                                    autoOrient: settings.autoOrient, intent: settings.intent, flatten: settings.flatten,
                                    maxPixels: settings.maxPixels)
        options.snap = settings.snap
        options.threads = threads
        if let size = settings.pageSize {
            options.page = PageSpec(size: size, orientation: settings.orientation, bleed: settings.bleed)
        }
        return options
    }

    /// Frames (or lays out, or prepares) one picture; never throws: failures are in the result.
    func run(_ job: Job) -> JobResult {
        var result = JobResult()
        do {
            try frame(job, into: &result)
        } catch let error as UsageError {
            result.error = error.description
            result.usageError = true
        } catch {
            result.error = "\(error)"
        }
        return result
    }

    private func frame(_ job: Job, into result: inout JobResult) throws {
        let input = job.label
        if case let .file(path) = job.output, !settings.overwrite, !settings.dryRun, FileSystem.exists(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        // A file is read by the decoders as they need it (an unreadable one fails as .picture).
        let source: PictureSource = job.input == "-" ? .bytes(stdin) : .file(job.input)
        let options = renderOptions(job.format)
        func translate(_ error: FramingError) -> any Error {
            switch error {
            case .picture(let reason): return FileError(path: input, reason: reason.description)
            case .layout(let reason): return UsageError("\(input): \(reason)")
            case .options(let reason): return UsageError("\(input): \(reason)")
            case .render(let reason): return FileError(path: job.output.text ?? input, reason: reason.description)
            }
        }

        if settings.dryRun {
            let plan: FramePlan
            do { plan = try Framer.plan(source, style: settings.style, options: options) } catch { throw translate(error) }
            result.layout = LayoutReport.json(job: job, plan: plan, options: options)
            return
        }
        let report: PictureReport
        var bytes: [UInt8] = []
        if settings.pages {
            let prepared: PreparedPicture
            do { prepared = try Framer.prepare(source, style: settings.style, options: options) } catch { throw translate(error) }
            report = prepared.report
            result.prepared = prepared
        } else {
            let framed: FramedPicture
            do { framed = try Framer.frame(source, style: settings.style, options: options) } catch { throw translate(error) }
            report = framed.report
            bytes = framed.bytes
        }
        result.warnings += report.warnings.map { "\(input): \($0)" }
        if let minimum = settings.minPPI, report.effectivePPI < minimum - 1e-9 {
            let text = "the picture is placed at \(Int(report.effectivePPI.rounded(.down))) pixels per inch, below --min-ppi "
                + (minimum == minimum.rounded() ? String(Int(minimum)) : String(minimum))
            if settings.strict {
                result.prepared = nil
                throw FileError(path: input, reason: text + " (--strict)")
            }
            result.warnings.append("\(input): \(text)")
        }
        if !settings.pages { try BatchRunner.writeOut(bytes, to: job.output) }
    }
}
