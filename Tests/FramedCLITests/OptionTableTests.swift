import Foundation
import Testing

/// docs/options.md's option tables say what `framed --help` says, group for group and row for
/// row; the help is grouped as the docs are, and names the values of every option that takes
/// one of a few words.
struct OptionTableTests {
    /// The help's groups, in order: each title with `| head | default | meaning |` for each of
    /// its options.
    static func groupsFromHelp(_ help: String) -> [(title: String, rows: [String])] {
        var groups: [(title: String, rows: [(head: String, text: String)])] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            // A group's title: a line of its own, unindented, ending in a colon ("Page and print:").
            if let first = line.first, first.isUppercase, line.hasSuffix(":"), !line.contains("  "),
               line.split(separator: " ").count <= 5 {
                groups.append((String(line.dropLast()), []))
                continue
            }
            guard !groups.isEmpty, !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
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
                groups[groups.count - 1].rows.append((cell, String(text)))
            } else if !groups[groups.count - 1].rows.isEmpty {
                // A wrapped line of the text before.
                let last = groups[groups.count - 1].rows.count - 1
                groups[groups.count - 1].rows[last].text += (groups[groups.count - 1].rows[last].text.isEmpty ? "" : " ") + body
            }
        }
        return groups.map { title, rows in
            (title, rows.map { head, text in
                var meaning = text, value = ""
                if let range = text.range(of: " (default: ", options: .backwards), text.hasSuffix(")") {
                    value = String(text[range.upperBound...].dropLast())
                    meaning = String(text[..<range.lowerBound])
                }
                func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
                return "| \(cell(head)) | \(value.isEmpty ? "" : cell(value) + " ")| \(cell(meaning)) |"
            })
        }
    }

    /// docs/options.md's tables as they should read: under `### Title`, one table per group.
    static func markdown(_ groups: [(title: String, rows: [String])]) -> [String] {
        groups.flatMap { title, rows in
            ["### \(title)", "", "| Option | Default | Meaning |", "| --- | --- | --- |"] + rows + [""]
        }
    }

    @Test func tablesMatchHelp() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/options.md")
        let lines = try String(contentsOf: doc, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let help = try CLITests.framed(["--help"]).stdout
        let groups = Self.groupsFromHelp(help)
        #expect(groups.map(\.title) == ["Output", "Look", "Text", "Picture", "Page and print", "Many pictures",
                                        "Config files and help"])
        #expect(groups.map(\.rows.count).reduce(0, +) > 40)
        let expected = Self.markdown(groups)
        let start = try #require(lines.firstIndex(of: "### Output"))
        let table = Array(lines[start...].prefix(expected.count))
        #expect(table == expected, "docs/options.md's option tables differ from --help:\n\(expected.joined(separator: "\n"))")
    }

    /// Every help line fits 100 columns, and the wrapped text still reads as one: a word is never
    /// cut.
    @Test func helpFitsAHundredColumns() throws {
        let help = try CLITests.framed(["--help"]).stdout
        let options = help[try #require(help.range(of: "\nOutput:\n")).lowerBound...]
        for line in options.split(separator: "\n") {
            #expect(line.count <= 100, "too wide: \(line)")
        }
    }

    /// An option that takes one of a few words names every one of them in its help (`--marks`
    /// once never said `crop`). The words are the test's own list, from the docs.
    @Test func helpNamesEveryValue() throws {
        let help = try CLITests.framed(["--help"]).stdout
        let groups = Self.groupsFromHelp(help)
        let rows = groups.flatMap(\.rows)
        let values: [String: [String]] = [
            "--format": ["svg", "pdf", "png", "jpeg", "tiff"],
            "--preset": ["classic", "docs", "docs-dark", "print", "polaroid", "none"],
            "--border-style": ["solid", "double"],
            "--fit": ["contain", "cover", "fill", "none", "scale-down"],
            "--embed": ["auto", "jpeg", "png"],
            "--resample": ["box", "good", "best"],
            "--rendering-intent": ["perceptual", "relative"],
            "--orientation": ["portrait", "landscape", "auto"],
            "--marks": ["crop", "none"],
            "--pdf-variant": ["pdf/x-4"],
            "--chrome": ["macos", "windows", "plain", "none"],
            "--chrome-theme": ["light", "dark"],
            "--caption-position": ["inside", "below"],
            "--caption-align": ["left", "center", "right", "start", "end"],
            "--caption-color": ["auto"],
            "--canvas-color": ["auto"],
            "--variant": ["light", "dark"],
            "--image-dpi": ["css", "auto"],
        ]
        for (option, words) in values {
            let row = try #require(rows.first { row in ["` ", "`,", " "].contains { row.hasPrefix("| `\(option)" + $0) } },
                                   "\(option) is not in the help")
            for word in words {
                #expect(row.range(of: "\\b\(NSRegularExpression.escapedPattern(for: word))\\b", options: .regularExpression) != nil,
                        "\(option)'s help does not name \(word): \(row)")
            }
        }
    }
}
