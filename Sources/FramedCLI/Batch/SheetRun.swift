import Framed
import FramedSystem

/// `--sheet`: before any picture is framed, every picture's framed canvas from its header, then
/// the sheets' grid and each print's place (`Framer.arrangement`), which the jobs then frame to.
extension BatchRunner {
    /// Lays the batch out on sheets into `context` (and names the sheets' proofs there). False
    /// when a picture cannot be read or laid out: its failure is reported in `report`, and no
    /// picture is framed.
    static func arrangeSheets(_ jobs: [Job], plan: BatchPlan, settings: Settings, context: inout JobContext,
                              report: inout BatchReport) throws -> Bool {
        var canvases: [Size] = []
        var failures: [JobResult] = []
        for job in jobs {
            var result = JobResult()
            if let canvas = context.sheetCanvas(job, into: &result) { canvases.append(canvas) } else { failures.append(result) }
        }
        guard failures.isEmpty else {
            for failure in failures { report.take(failure) }
            return false
        }
        do throws(FramingError) {
            context.arrangement = try context.framer(for: "").arrangement(canvases: canvases)
        } catch {
            throw error.commandLineError(input: "--sheet")
        }
        if let proof = settings.framer.output.proof, let arrangement = context.arrangement {
            context.sheetProofs = try BatchPlanner.sheetProofs(proof, count: arrangement.sheetCount, jobs: jobs,
                                                               output: plan.pagesOutput)
            for path in context.sheetProofs where !settings.overwrite && !settings.dryRun && OutputFile.wouldReplace(path) {
                throw FileError(path: path, reason: "exists; add --overwrite (-f) to replace it")
            }
        }
        return true
    }

    /// The pages of the one PDF: the sheets (`--sheet`) or a page a picture (`--pages`), with
    /// the indices of the pictures on each, in order.
    static func pages(_ prepared: [PreparedPicture], context: JobContext) -> [(page: OutputPage, pictures: [Int])] {
        guard let arrangement = context.arrangement else {
            return prepared.enumerated().map { (OutputPage($1.renderPage), [$0]) }
        }
        let sheets = context.framer(for: "").sheetPages(prepared, arrangement: arrangement)
        return sheets.enumerated().map { sheet, page in
            (page, arrangement.places.indices.filter { arrangement.places[$0].sheet == sheet })
        }
    }
}
