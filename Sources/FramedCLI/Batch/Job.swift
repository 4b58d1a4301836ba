import Framed
import FramedSystem

/// What every job of a batch shares: the settings and standard input's bytes.
struct JobContext: Sendable {
    var settings: Settings
    var stdin: [UInt8]
    /// The cores one picture may use (`RenderOptions.threads`).
    var threads: Int

    /// The library's settings, with this batch's share of the cores.
    var framer: Framer {
        var framer = settings.framer
        framer.threads = threads
        return framer
    }

    /// Frames (or lays out, or prepares) one picture; never throws: failures are in the result.
    func run(_ job: Job) -> JobResult {
        var result = JobResult()
        do {
            try frame(job, into: &result)
        } catch is BrokenPipe {
            result.error = ""
            result.brokenPipe = true
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
        if case let .file(path) = job.output, !settings.overwrite, !settings.dryRun, OutputFile.wouldReplace(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        // A file is read by the decoders as they need it (an unreadable one fails as .picture).
        let source: PictureSource = job.input == "-" ? .bytes(stdin) : .file(job.input)
        var framer = self.framer
        framer.style.caption.text = BatchPlanner.expandCaption(framer.style.caption.text, source: job.input)

        if settings.dryRun {
            do {
                let plan = try framer.plan(framer.open(source, label: input), label: input, format: job.format)
                result.layout = plan.jsonValue(input: job.input, output: job.output.text)
            } catch { throw error.commandLineError(input: input, output: job.output.text) }
            return
        }
        let report: PictureReport
        var bytes: [UInt8] = []
        do {
            if settings.pages {
                let prepared = try framer.prepare(source, label: input, format: job.format)
                report = prepared.report
                result.prepared = prepared
            } else {
                let framed = try framer.framed(source, label: input, format: job.format)
                report = framed.report
                bytes = framed.bytes
            }
        } catch { throw error.commandLineError(input: input, output: job.output.text) }
        for warning in report.warnings {
            if case let .belowMinimumPPI(ppi, minimum) = warning, framer.picture.failBelowMinimumPPI {
                result.prepared = nil
                throw FramingError(picture: input, problem: .belowMinimumPPI(ppi: ppi, minimum: minimum))
                    .commandLineError(input: input)
            }
            result.warnings.append("\(input): \(warning.commandLineText)")
        }
        if !settings.pages { try BatchRunner.writeOut(bytes, to: job.output, replacing: settings.overwrite) }
    }
}
