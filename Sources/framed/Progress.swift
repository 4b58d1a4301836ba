import Foundation

/// Standard error: one-line messages, and on a terminal a progress bar that they print above.
final class Console: @unchecked Sendable {
    private var showBar: Bool
    private let total: Int
    private let start: Date
    private var done = 0
    private var failed = 0
    private var barShown = false
    private var lastDraw = Date.distantPast

    /// The bar shows for two or more pictures when standard error is a terminal and not `quiet`.
    init(total: Int, quiet: Bool, start: Date = Date()) {
        self.total = total
        self.start = start
        showBar = !quiet && total >= 2 && isatty(STDERR_FILENO) == 1
    }

    /// `framed: MESSAGE` on its own line, above the bar.
    func report(_ message: String) {
        var text = barShown ? "\r\u{1B}[K" : ""
        text += "framed: \(message)\n"
        barShown = false
        FileHandle.standardError.write(Data(text.utf8))
        if showBar { draw() }
    }

    /// Counts pictures finished so far and redraws the bar (at most ten times a second, and
    /// always at the end).
    func progress(done: Int, failed: Int) {
        self.done = done; self.failed = failed
        guard showBar else { return }
        if done == total || Date().timeIntervalSince(lastDraw) >= 0.1 { draw() }
    }

    /// Seconds since the start.
    var elapsed: Double { Date().timeIntervalSince(start) }

    /// Removes the bar.
    func finish() {
        if barShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        barShown = false
        showBar = false
    }

    /// `[#########-----------]  12/40  3.1/s  0:09 left`
    private func draw() {
        lastDraw = Date()
        let width = 24
        let filled = total > 0 ? done * width / total : width
        var line = "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        line += "  \(done)/\(total)"
        if failed > 0 { line += "  \(failed) failed" }
        let seconds = elapsed
        if done > 0, seconds > 0 {
            let rate = Double(done) / seconds
            line += String(format: "  %.1f/s", rate)
            if done < total { line += "  " + Self.clock(Double(total - done) / rate) + " left" }
        }
        FileHandle.standardError.write(Data(line.utf8))
        barShown = true
    }

    /// "0:09", "12:30", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s >= 3600 { return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
