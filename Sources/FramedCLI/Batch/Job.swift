import Framed
import FramedSystem

/// What every job of a batch shares: the settings and standard input's bytes.
struct JobContext: Sendable {
    var settings: Settings
    var stdin: [UInt8]
    /// The cores one picture may use (`RenderOptions.threads`).
    var threads: Int

    /// The library's settings for the picture `input`, with this batch's share of the cores and
    /// its caption's `{name}`, `{stem}` and `{ext}` filled in.
    func framer(for input: String) -> Framer {
        var framer = settings.framer
        framer.threads = threads
        framer.style.caption.text = BatchPlanner.expandCaption(framer.style.caption.text, source: input)
        // One variant and no set: these settings in that version (the planner checked it has one),
        // on the canvas of the pair.
        if framer.output.setMembers.count == 1, framer.output.variants.count == 1,
           let one = framer.member(framer.output.setMembers[0]) {
            framer = one
        }
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
        let outputs = job.setOutputs.isEmpty ? [job.output] : job.setOutputs
        for case let .file(path) in outputs where !settings.overwrite && !settings.dryRun && OutputFile.wouldReplace(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        // A file is read by the decoders as they need it (an unreadable one fails as .picture).
        let source: PictureSource = job.input == "-" ? .bytes(stdin) : .file(job.input)
        let framer = self.framer(for: job.input)

        if settings.dryRun {
            do throws(FramingError) {
                let opened = try framer.open(source, label: input)
                if job.setOutputs.isEmpty {
                    let plan = try framer.plan(opened, label: input, format: job.format)
                    result.layouts = [plan.jsonValue(input: job.input, output: job.output.text)]
                    result.warnings += plan.warnings.map { "\(input): \($0.commandLineText)" }
                    try planWarnings(plan, framer: framer, input: input, into: &result)
                } else {
                    // A set: the layout of each of its files, in the order of the members.
                    let plans = try framer.setPlans(opened, label: input, format: job.format,
                                                    members: framer.output.setMembers)
                    for (plan, output) in zip(plans, job.setOutputs) {
                        result.layouts.append(plan.jsonValue(input: job.input, output: output.text))
                        for warning in plan.warnings {
                            let line = "\(input): \(warning.commandLineText)"
                            if !result.warnings.contains(line) { result.warnings.append(line) }
                        }
                        try planWarnings(plan, framer: framer, input: input, into: &result)
                    }
                }
            } catch { throw error.commandLineError(input: input, output: job.output.text) }
            return
        }
        if !job.setOutputs.isEmpty {
            try frameSet(job, source: source, framer: framer, into: &result)
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
            if let problem = framer.strictProblem(warning) {
                result.prepared = nil
                throw FramingError(picture: input, problem: problem).commandLineError(input: input)
            }
            result.warnings.append("\(input): \(warning.commandLineText)")
        }
        if !settings.pages { try BatchRunner.writeOut(bytes, to: job.output, replacing: settings.overwrite) }
    }

    /// The warnings a plan alone tells (lines within the safe margin), as framing would give
    /// them: each once, or the error that `--strict` makes of it.
    private func planWarnings(_ plan: FramePlan, framer: Framer, input: String,
                              into result: inout JobResult) throws(FramingError) {
        for warning in plan.safeMarginWarnings.map(FramingWarning.safeMargin) {
            if let problem = framer.strictProblem(warning) { throw FramingError(picture: input, problem: problem) }
            let line = "\(input): \(warning.commandLineText)"
            if !result.warnings.contains(line) { result.warnings.append(line) }
        }
    }

    /// A set (`--scale 1,2,3`): the picture decoded once, framed at each scale, and the files
    /// written whole or not at all; a warning that every scale gives (the decoder's) is said once.
    private func frameSet(_ job: Job, source: PictureSource, framer: Framer, into result: inout JobResult) throws {
        let input = job.label
        let set: [FramedPicture]
        do { set = try framer.framedSet(source, label: input, format: job.format, members: framer.output.setMembers) } catch {
            throw error.commandLineError(input: input, output: job.output.text)
        }
        for framed in set {
            for warning in framed.report.warnings {
                if let problem = framer.strictProblem(warning) {
                    throw FramingError(picture: input, problem: problem).commandLineError(input: input)
                }
                let line = "\(input): \(warning.commandLineText)"
                if !result.warnings.contains(line) { result.warnings.append(line) }
            }
        }
        // Whole or not at all: a full disk at the last file leaves none of them.
        try BatchRunner.writeSet(zip(set, job.setOutputs).map { ($0.bytes, $1) }, replacing: settings.overwrite)
    }
}
