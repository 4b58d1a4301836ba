internal import Glibc
import Dispatch
import Framed
import FramedSystem
import Synchronization

/// What happened to one picture.
struct JobResult: Sendable {
    /// Warnings, in order.
    var warnings: [String] = []
    /// The error, if the picture failed: its message and whether it is a usage error (exit 2
    /// when it is the only picture).
    var error: String?
    var usageError = false
    /// `--dry-run`: the geometry (of each file of a set).
    var layouts: [JSON] = []
    /// `--pages`: the picture ready to draw.
    var prepared: PreparedPicture?
    /// `--proof`: the soft proof written, and how much of the picture is out of gamut.
    var proofs: [ProofSummary.File] = []
    /// Standard output's reader went away: the batch ends quietly (`BrokenPipe`).
    var brokenPipe = false

    var failed: Bool { error != nil }
}

/// Standard output's reader went away (`framed ... -o - | head`): framed ends quietly, with the
/// status a program that SIGPIPE ends has (141), as tools in a pipeline do.
struct BrokenPipe: Error {
    /// 128 + SIGPIPE.
    static let status: Int32 = 141
}

/// Runs a batch: pictures on `jobs` workers at once (`WorkerPool`), messages in input order
/// (`BatchReport`), then the one PDF of `--pages` or the layouts of `--dry-run`.
enum BatchRunner {
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
        if case let .file(path)? = plan.pagesOutput, !settings.overwrite, !settings.dryRun, OutputFile.wouldReplace(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        var stdin: [UInt8] = []
        if jobs.contains(where: { $0.input == "-" }) {
            do {
                stdin = try PictureInput.readToEnd(FileDescriptor.standardInput.rawValue,
                                                   limit: PictureInput.byteLimit(forPixels: settings.framer.picture.maxPixels))
            } catch {
                throw FileError(path: "standard input", reason: error.description)
            }
        }
        if !settings.dryRun {
            TemporaryFiles.shared.removeOnInterrupt()
            // Every output's folder, before any picture is read: one that cannot be made stops
            // the run in one line rather than failing each picture after its work.
            for folder in plan.folders where !FileSystem.isDirectory(folder) {
                do { try FileSystem.createDirectory(folder) } catch { throw Self.folderError(folder, error) }
            }
        }

        let (workers, threadsEach) = Self.shares(jobs: settings.jobs, pictures: jobs.count, cores: Resampler.processorCount)
        var arranged = JobContext(settings: settings, stdin: stdin, threads: threadsEach)
        var report = BatchReport(total: jobs.count, settings: settings)
        for warning in plan.warnings { report.console.report("warning: " + warning) }
        if !settings.dryRun, jobs.contains(where: { $0.format == .pdf }), let problem = DocumentMetadata.unusableSourceDateEpoch() {
            report.console.report("warning: " + problem)
        }
        if settings.framer.page.sheet != nil,
           try !arrangeSheets(jobs, plan: plan, settings: settings, context: &arranged, report: &report) {
            if let destination = plan.pagesOutput?.text, !settings.dryRun {
                report.console.report("\(destination): not written: \(report.failed) of \(jobs.count) pictures could not be laid out")
            }
            report.finish(skipped: 0, pagesOutput: plan.pagesOutput)
            return jobs.count == 1 && report.firstError?.usageError == true ? 2 : 1
        }
        let pool = WorkerPool<JobResult>(count: jobs.count, workers: workers, failed: { $0.failed },
                                         stopAtFailure: settings.failFast)
        let context = arranged
        let finished = try pool.run({ context.run(jobs[$0]) }, deliver: { report.take($0) },
                                    progress: { report.console.progress(done: $0, failed: $1) })
        let skipped = jobs.count - finished
        if report.brokenPipe { throw BrokenPipe() }

        if settings.dryRun {
            if !report.layouts.isEmpty {
                let json = report.layouts.count == 1 && jobs.count == 1 && !settings.onePDF ? report.layouts[0] : .array(report.layouts)
                try writeOut(Array((json.text() + "\n").utf8), to: .stdout, replacing: true)
            }
        } else if let destination = plan.pagesOutput {
            if report.failed == 0 && skipped == 0 {
                let pages = Self.pages(report.prepared, context: context)
                let proofs = context.arrangement == nil ? plan.proofs : context.sheetProofs
                let document: (pdf: [UInt8], proofs: [ProofPage])
                do throws(FramingError) {
                    document = try context.framer(for: "").document(pages.map(\.page), label: destination.text ?? "-", proofs: !proofs.isEmpty)
                } catch {
                    throw FileError(path: destination.text ?? "-", reason: error.problem.description)
                }
                try writeOut(document.pdf, to: destination, replacing: settings.overwrite)
                for ((proof, path), (_, pictures)) in zip(zip(document.proofs, proofs), pages) {
                    try writeOut(proof.png, to: .file(path), replacing: settings.overwrite)
                    for (count, index) in zip(proof.gamut, pictures) {
                        report.proofs.append(ProofSummary.File(path: path, picture: jobs[index].label, pixels: count.pixels,
                                                               outOfGamut: count.outOfGamut))
                    }
                }
                report.sheets = context.arrangement?.sheetCount
            } else {
                report.console.report("\(destination.text ?? "-"): not written: \(report.failed + skipped) of \(jobs.count) pages could not be made")
            }
        }
        report.finish(skipped: skipped, pagesOutput: plan.pagesOutput)
        if let firstError = report.firstError {
            return jobs.count == 1 && firstError.usageError ? 2 : 1
        }
        return skipped > 0 ? 1 : 0
    }

    /// An output's folder that could not be made.
    static func folderError(_ folder: String, _ reason: SystemError) -> FileError {
        FileError(path: folder, reason: "cannot create the folder (\(reason))")
    }

    /// Writes bytes to a file (atomically; an existing one only when `replacing`) or to standard
    /// output.
    static func writeOut(_ bytes: [UInt8], to destination: Destination, replacing: Bool) throws {
        switch destination {
        case let .file(path):
            do { try OutputFile.write(bytes, to: path, replacing: replacing) } catch { throw fileError(error) }
        case .stdout:
            do { try FileDescriptor.standardOutput.write(bytes) } catch {
                if error.code == EPIPE { throw BrokenPipe() }
                throw FileError(path: "standard output", reason: "cannot write: \(error)")
            }
        case .none: break
        }
    }

    /// Writes the files of a set (`--scale 1,2`, `--variant light,dark`) whole or not at all:
    /// every one into its temporary file first, then all moved into place (`OutputFile.writeAll`).
    static func writeSet(_ files: [(bytes: [UInt8], destination: Destination)], replacing: Bool) throws {
        let paths = files.compactMap { file -> (bytes: [UInt8], path: String)? in
            if case let .file(path) = file.destination { return (file.bytes, path) }
            return nil
        }
        do { try OutputFile.writeAll(paths, replacing: replacing) } catch { throw fileError(error) }
    }

    /// An output that was not written, in the command line's words.
    private static func fileError(_ error: OutputFileError) -> FileError {
        switch error {
        case let .exists(path): FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        case let .cannotWrite(path, reason): FileError(path: path, reason: "cannot write: \(reason)")
        case let .refused(path, reason): FileError(path: path, reason: "not written: \(reason)")
        case let .cannotCreateFolder(_, folder, reason): folderError(folder, reason)
        }
    }
}
