import Framed

/// The reporter half of a batch: each picture's warnings and error in input order, above the
/// progress bar; what the pictures leave for the end (layouts, prepared pages); the summary.
struct BatchReport {
    let console: Console
    let total: Int
    let settings: Settings
    /// Pictures framed, and failed, so far.
    private(set) var framed = 0
    private(set) var failed = 0
    /// `--dry-run`: each picture's geometry, in order.
    private(set) var layouts: [JSON] = []
    /// `--pages`: each picture ready to draw, in order.
    private(set) var prepared: [PreparedPicture] = []
    /// The first picture that failed (its error decides the exit code).
    private(set) var firstError: JobResult?
    /// Standard output's reader went away: nothing more is said.
    private(set) var brokenPipe = false
    /// `--proof`: each picture's part of the soft proofs written.
    var proofs: [ProofSummary.File] = []
    /// `--sheet`: how many sheets the PDF has.
    var sheets: Int?

    init(total: Int, settings: Settings) {
        self.total = total
        self.settings = settings
        console = Console(total: total, quiet: settings.quiet || settings.dryRun)
    }

    /// Reports the next picture's result.
    mutating func take(_ result: JobResult) {
        if result.brokenPipe { brokenPipe = true }
        guard !brokenPipe else { return }
        for warning in result.warnings { console.report("warning: " + warning) }
        if let error = result.error {
            console.report(error)
            failed += 1
            if firstError == nil { firstError = result }
        } else {
            framed += 1
            layouts += result.layouts
            proofs += result.proofs
            if let picture = result.prepared { prepared.append(picture) }
        }
    }

    /// Removes the bar, then for two pictures or more (unless quiet) says how many were framed,
    /// how fast, and how many failed or were skipped (`--fail-fast`).
    func finish(skipped: Int, pagesOutput: Destination?) {
        console.finish()
        if !settings.quiet, let line = ProofSummary.line(proofs) { console.report(line) }
        guard total >= 2 && !settings.quiet && !settings.dryRun else { return }
        var summary = "framed \(framed) of \(total) pictures"
        if failed == 0 && skipped == 0 { summary = "framed \(total) pictures" }
        if let destination = pagesOutput?.text, failed == 0 && skipped == 0 {
            summary += sheets.map { " onto \($0) sheet\($0 == 1 ? "" : "s") of \(destination)" } ?? " into \(total) pages of \(destination)"
        }
        summary += String(printf: " in %.1f s", console.elapsed)
        if failed > 0 { summary += ", \(failed) failed" }
        if skipped > 0 { summary += ", \(skipped) skipped (--fail-fast)" }
        console.report(summary)
    }
}
