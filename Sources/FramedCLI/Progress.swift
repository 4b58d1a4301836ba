internal import Glibc
import FramedSystem

/// Standard error: one-line messages, and on a terminal a progress bar that they print above.
final class Console: @unchecked Sendable {
    private var showBar: Bool
    private let total: Int
    private let start: ContinuousClock.Instant
    private var done = 0
    private var failed = 0
    private var barShown = false
    private var lastDraw: ContinuousClock.Instant?

    /// The bar shows for two or more pictures when standard error is a terminal and not `quiet`.
    init(total: Int, quiet: Bool, start: ContinuousClock.Instant = .now) {
        self.total = total
        self.start = start
        showBar = !quiet && total >= 2 && isatty(STDERR_FILENO) == 1
    }

    /// `framed: MESSAGE` on its own line, above the bar; the message's control characters (an
    /// escape sequence or a line break in a file name) and a name's bytes that are not UTF-8 are
    /// written escaped (`Console.escaped`), so that the message stays one line that cannot
    /// command the terminal.
    func report(_ message: String) {
        var text = barShown ? "\r\u{1B}[K" : ""
        text += "framed: \(Self.escaped(message))\n"
        barShown = false
        Self.write(text)
        if showBar { draw() }
    }

    /// Counts pictures finished so far and redraws the bar (at most ten times a second, and
    /// always at the end).
    func progress(done: Int, failed: Int) {
        self.done = done; self.failed = failed
        guard showBar else { return }
        if done == total || lastDraw.map({ $0.duration(to: .now) >= .milliseconds(100) }) ?? true { draw() }
    }

    /// Seconds since the start.
    var elapsed: Double {
        let time = start.duration(to: .now).components
        return Double(time.seconds) + Double(time.attoseconds) * 1e-18
    }

    /// Removes the bar.
    func finish() {
        if barShown { Self.write("\r\u{1B}[K") }
        barShown = false
        showBar = false
    }

    /// `[#########-----------]  12/40  3.1/s  0:09 left`
    private func draw() {
        lastDraw = .now
        let width = 24
        let filled = total > 0 ? done * width / total : width
        var line = "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        line += "  \(done)/\(total)"
        if failed > 0 { line += "  \(failed) failed" }
        let seconds = elapsed
        if done > 0, seconds > 0 {
            let rate = Double(done) / seconds
            line += String(printf: "  %.1f/s", rate)
            if done < total { line += "  " + Self.clock(Double(total - done) / rate) + " left" }
        }
        Self.write(line)
        barShown = true
    }

    /// `text` safe for a terminal and a log: C0 and C1 control characters and DEL as `\n`, `\t`,
    /// `\r` or `\xNN`, the bidirectional controls that can reorder what a line shows as
    /// `\u{NNNN}`, and a file name's bytes that are not UTF-8 (`SystemPath`) as `\xNN`.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            func hex(_ value: UInt32, _ width: Int) -> String {
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            if let byte = SystemPath.escapedByte(scalar) {
                out += "\\x" + hex(UInt32(byte), 2)
            } else if scalar == "\n" { out += "\\n" } else if scalar == "\t" { out += "\\t" } else if scalar == "\r" {
                out += "\\r"
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\x" + hex(scalar.value, 2)
            } else if [0x200E, 0x200F, 0x061C].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                        || (0x2066...0x2069).contains(scalar.value) {
                out += "\\u{" + hex(scalar.value, 4) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Writes to standard error; a message that cannot be written has nowhere else to go.
    static func write(_ text: String) {
        try? FileDescriptor.standardError.write(text)
    }

    /// "0:09", "12:30", "1:02:03".
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s >= 3600 { return String(printf: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        return String(printf: "%d:%02d", s / 60, s % 60)
    }
}
