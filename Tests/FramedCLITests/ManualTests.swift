import Foundation
import FramedTestSupport
import Testing

/// The manual page and the shell completions: made by the binary from the option table that
/// `--help` prints, committed in step (docs/framed.1, completions/), and working in their
/// programs (groff, bash, fish; zsh is checked for syntax).
struct ManualTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let files: [(arguments: [String], path: String)] = [
        (["--generate-manual"], "docs/framed.1"),
        (["--generate-completion-script", "bash"], "completions/framed.bash"),
        (["--generate-completion-script", "zsh"], "completions/_framed"),
        (["--generate-completion-script", "fish"], "completions/framed.fish"),
    ]

    /// Every long option that `--help` lists, and its aliases (`--radius, --border-radius LENGTH`).
    static func helpOptions() throws -> [String] {
        let help = try CLITests.framed(["--help"]).stdout
        return help.split(separator: "\n").flatMap { line -> [String] in
            guard line.hasPrefix("  -") || line.hasPrefix("      --") else { return [] }
            // The head ends where the help text starts, after two spaces.
            let body = line.drop { $0 == " " }
            let head = body.range(of: "  ").map { body[..<$0.lowerBound] } ?? body
            return head.split(separator: " ").filter { $0.hasPrefix("--") }.map { String($0.dropFirst(2).prefix { $0.isLetter || $0 == "-" }) }
        }
    }

    @Test(arguments: files.indices)
    func theCommittedCopyIsWhatTheBinaryMakes(_ index: Int) throws {
        let (arguments, path) = Self.files[index]
        let made = try CLITests.framed(arguments)
        #expect(made.status == 0 && made.stderr.isEmpty)
        let committed = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(made.stdout == committed, "\(path) is out of step with the option table: run make manual")
        for option in try Self.helpOptions() {
            let written = path.hasSuffix(".1") ? "\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")
                : path.hasSuffix(".fish") ? "-l \(option) " : "--" + option
            #expect(made.stdout.contains(written), "\(path) has --\(option)")
        }
    }

    @Test func helpListsTheOptions() throws {
        let options = try Self.helpOptions()
        #expect(options.count == 72 + 9 && options.contains("border") && options.contains("fail-fast"), "\(options)")
        for alias in ["border-radius", "border-width", "background-color", "box-shadow", "object-fit", "object-position",
                      "aspect-ratio", "backdrop", "intent"] {
            #expect(options.contains(alias), "--help lists the alias --\(alias)")
        }
    }

    @Test func theManualRendersCleanly() throws {
        let page = Self.root.appendingPathComponent("docs/framed.1").path
        let lint = try Tool.run("groff", ["-man", "-ww", "-z", page])
        #expect(lint.status == 0 && lint.stderr.isEmpty, "groff: \(lint.stderr)")
        let text = try Tool.run("groff", ["-man", "-Tascii", "-P-c", "-P-b", "-P-o", "-P-u", page]).output
        #expect(text.contains("--border-style STYLE\n") && text.contains("solid or double (CSS border-style) (default: solid)"))
        #expect(text.contains("EXIT STATUS") && text.contains("SOURCE_DATE_EPOCH"))
    }

    /// `framed --fit c<Tab>` and friends, in bash through the function the script defines.
    @Test func bashCompletes() throws {
        let script = Self.root.appendingPathComponent("completions/framed.bash").path
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try Tool.run("bash", ["-c", "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _framed; "
                                          + "printf '%s\\n' \"${COMPREPLY[@]}\""])
            #expect(r.status == 0, "\(r.stderr)")
            return r.output.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["framed", "--fit", "c"]) == ["contain", "cover"])
        #expect(try complete(["framed", "--fi"]) == ["--fit"])
        #expect(try complete(["framed", "--border-r"]) == ["--border-radius"], "aliases complete as options")
        #expect(try complete(["framed", "--object-fit", "c"]) == ["contain", "cover"], "and take their option's words")
        #expect(try complete(["framed", "--preset", ""]) == ["classic", "docs", "docs-dark", "print", "polaroid", "none"])
        #expect(try complete(["framed", "--border", ""]).isEmpty, "a length: nothing to offer")
        #expect(try complete(["framed", "la"]).contains("layout"))
    }

    @Test func fishCompletes() throws {
        let script = Self.root.appendingPathComponent("completions/framed.fish").path
        let r = try Tool.run("fish", ["-c", "source '\(script)'; complete -C'framed --embed '; complete -C'framed --inner'; "
                                      + "complete -C'framed --intent '"])
        #expect(r.status == 0, "\(r.stderr)")
        let words = r.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(words == ["auto", "jpeg", "png", "--inner-border", "perceptual", "relative"], "\(r.output)")
    }

    @Test func zshReadsItsScript() throws {
        let r = try Tool.run("zsh", ["-n", Self.root.appendingPathComponent("completions/_framed").path])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
}
