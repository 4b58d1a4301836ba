import Foundation
import Testing

/// docs/options.md's option table says what `framed --help` says, row for row.
struct OptionTableTests {
    /// `| head | default | meaning |` for each option in the help, in order.
    static func rowsFromHelp(_ help: String) -> [String] {
        var rows: [(head: String, text: String)] = []
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "options:" { inOptions = true; continue }
            guard inOptions, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let body = line.drop(while: { $0 == " " })
            if body.hasPrefix("-") && (line.hasPrefix("  -") || line.hasPrefix("      --")) {
                // "-o, --output FILE   text": the head ends at two spaces (or the line's end).
                let head: Substring, text: Substring
                if let gap = body.range(of: "  ") {
                    head = body[..<gap.lowerBound]
                    text = body[gap.upperBound...].drop(while: { $0 == " " })
                } else {
                    head = body; text = ""
                }
                // "-o, --output FILE", "--radius, --border-radius LENGTH": each name in its own
                // code span, the value with the last.
                let cell = head.split(separator: ", ").map { "`\($0)`" }.joined(separator: ", ")
                rows.append((cell, String(text)))
            } else if !rows.isEmpty {
                rows[rows.count - 1].text += (rows[rows.count - 1].text.isEmpty ? "" : " ") + body
            }
        }
        return rows.map { head, text in
            var meaning = text, value = ""
            if let range = text.range(of: " (default: ", options: .backwards), text.hasSuffix(")") {
                value = String(text[range.upperBound...].dropLast())
                meaning = String(text[..<range.lowerBound])
            }
            func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
            return "| \(cell(head)) | \(value.isEmpty ? "" : cell(value) + " ")| \(cell(meaning)) |"
        }
    }

    @Test func tableMatchesHelp() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/options.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "| Option | Default | Meaning |")) + 2
        let table = Array(lines[start...].prefix { $0.hasPrefix("|") })
        let help = try CLITests.framed(["--help"]).stdout
        let expected = Self.rowsFromHelp(help)
        #expect(expected.count > 40)
        #expect(table == expected, "docs/options.md's option table differs from --help:\n\(expected.joined(separator: "\n"))")
    }
}
