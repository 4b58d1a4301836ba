import Framed
import FramedSystem

/// What every job of a batch shares: the settings and standard input's bytes.
struct JobContext: Sendable {
    var settings: Settings
    var stdin: [UInt8]
    /// The cores one picture may use (`RenderOptions.threads`).
    var threads: Int
    /// `--sheet`: where each print goes (laid out from every picture's header first).
    var arrangement: SheetArrangement?
    /// `--sheet` with `--proof`: each sheet's proof file.
    var sheetProofs: [String] = []

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
        capture(into: &result) { result throws in try frame(job, into: &result) }
        return result
    }

    /// `--sheet`: the picture's framed canvas alone, from its header (nil, and the failure in
    /// `result`, when it cannot be read or laid out).
    func sheetCanvas(_ job: Job, into result: inout JobResult) -> Size? {
        var canvas: Size?
        capture(into: &result) { _ throws in
            let framer = self.framer(for: job.input)
            let source: PictureSource = job.input == "-" ? .bytes(stdin) : .file(job.input)
            do throws(FramingError) {
                canvas = try framer.sheetCanvas(framer.open(source, label: job.label), label: job.label)
            } catch { throw error.commandLineError(input: job.label) }
        }
        return canvas
    }

    /// Runs `body`, putting what it throws into `result` in the command line's words.
    private func capture(into result: inout JobResult, _ body: (inout JobResult) throws -> Void) {
        do {
            try body(&result)
        } catch is BrokenPipe {
            result.error = ""
            result.brokenPipe = true
        } catch let error as UsageError {
            result.error = error.description
            result.usageError = true
        } catch {
            result.error = "\(error)"
        }
    }

    private func frame(_ job: Job, into result: inout JobResult) throws {
        let input = job.label
        let outputs = (job.setOutputs.isEmpty ? [job.output] : job.setOutputs) + (job.proof.map { [.file($0)] } ?? [])
        for case let .file(path) in outputs where !settings.overwrite && !settings.dryRun && OutputFile.wouldReplace(path) {
            throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
        }
        // A file is read by the decoders as they need it (an unreadable one fails as .picture).
        let source: PictureSource = job.input == "-" ? .bytes(stdin) : .file(job.input)
        var framer = self.framer(for: job.input)
        // On a sheet, the print is framed alone on its own page, then placed.
        let place = arrangement.map { ($0.places[job.index], $0.grid) }
        if let arrangement { framer = framer.printing(job.index, of: arrangement) }

        if settings.dryRun {
            do throws(FramingError) {
                let framer = try framer.resolvingAnnotations(for: source, label: input)
                let opened = try framer.open(source, label: input)
                if job.setOutputs.isEmpty {
                    let plan = try framer.plan(opened, label: input, format: job.format)
                    let proof = place.flatMap { sheetProofs.isEmpty ? nil : sheetProofs[$0.0.sheet] } ?? job.proof
                    result.layouts = [plan.jsonValue(input: job.input, output: job.output.text, proof: proof, sheet: place)]
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
        var proof: [UInt8]?
        do {
            if settings.onePDF {
                let prepared = try framer.prepare(source, label: input, format: job.format)
                report = prepared.report
                result.prepared = prepared.keptForDocument(proof: framer.output.proof != nil)
            } else {
                let framed = try framer.framed(source, label: input, format: job.format)
                report = framed.report
                bytes = framed.bytes
                proof = framed.proof
            }
        } catch { throw error.commandLineError(input: input, output: job.output.text) }
        for warning in report.warnings {
            if let problem = framer.strictProblem(warning) {
                result.prepared = nil
                throw FramingError(picture: input, problem: problem).commandLineError(input: input)
            }
            result.warnings.append("\(input): \(warning.commandLineText)")
        }
        if !settings.onePDF { try BatchRunner.writeOut(bytes, to: job.output, replacing: settings.overwrite) }
        if let proof, let path = job.proof {
            try BatchRunner.writeOut(proof, to: .file(path), replacing: settings.overwrite)
            result.proofs = [ProofSummary.File(path: path, picture: input, share: report.outOfGamut ?? 0)]
        }
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
