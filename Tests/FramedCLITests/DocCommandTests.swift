import Foundation
import FramedTestSupport
import Testing

/// Every command the README and docs/ show runs as written (issue 33, item 3).
///
/// A shell command is a fenced block marked `sh`, `shell` or `bash`: each is run by bash with
/// `-euo pipefail` (so every line of it must succeed, `rsvg-convert` and `pdftoppm` too), in a
/// copy of `Samples/` as git has it (a file the samples lack is the docs' failure, never a skip),
/// with the built binary first on PATH as `framed`. The blocks of one page run in its order,
/// in one folder, so that a command may use what an earlier one of the same page made; the
/// pages run at the same time, each in a folder of its own. A `console` block is a transcript
/// run from the checkout's root (`make demo`, `make install`): it is not run, and so must not
/// hold a `framed` command, which belongs in a block that is. Unmarked blocks are synopses
/// and outputs, not commands.
struct DocCommandTests {
    /// One fenced block of a page: where it starts (the line after the fence) and its lines.
    struct Block {
        var page: String
        var line: Int
        var language: String
        var text: String
    }

    /// The fenced blocks of a page, with their info strings; a fence may be indented (in a list),
    /// and its block's lines lose that indentation.
    static func blocks(of page: String, _ text: String) -> [Block] {
        var blocks: [Block] = []
        var open: (language: String, indent: Int, line: Int, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") {
                if let block = open {
                    if trimmed.trimmingCharacters(in: .whitespaces) == "```" {
                        blocks.append(Block(page: page, line: block.line, language: block.language,
                                            text: block.lines.joined(separator: "\n")))
                        open = nil
                    }
                } else {
                    open = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), line.count - trimmed.count,
                            index + 2, [])
                }
            } else if open != nil {
                open!.lines.append(String(line.dropFirst(min(open!.indent, line.prefix { $0 == " " }.count))))
            }
        }
        return blocks
    }

    static let shellLanguages: Set<String> = ["sh", "shell", "bash"]

    /// The commands of a block, for the count: its lines joined at a trailing backslash, less
    /// blank lines and comments.
    static func commands(_ block: String) -> [String] {
        block.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The files of `Samples/` as the repository has them (git's list; the whole folder where
    /// there is no git), copied into `folder`.
    static func copySamples(into folder: URL) throws {
        let root = DocumentationTests.root
        let listed = try? Tool.run("git", ["-C", root.path, "ls-files", "-z", "Samples"])
        var files = (listed?.status == 0 ? listed!.output : "").split(separator: "\0").map(String.init)
        if files.isEmpty {
            let samples = root.appendingPathComponent("Samples")
            let enumerator = FileManager.default.enumerator(atPath: samples.path)
            while let file = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: samples.appendingPathComponent(file).path, isDirectory: &isFolder),
                   !isFolder.boolValue {
                    files.append("Samples/" + file)
                }
            }
        }
        for file in files {
            let target = folder.appendingPathComponent(String(file.dropFirst("Samples/".count)))
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: root.appendingPathComponent(file), to: target)
        }
    }

    @Test func everyShellCommandOfTheDocsRunsAsWritten() throws {
        let pages = DocumentationTests.pages
        let all = try pages.flatMap { try Self.blocks(of: $0, DocumentationTests.text($0)) }
        for block in all where block.language == "console" {
            #expect(!block.text.split(separator: "\n").contains { $0.hasPrefix("$ framed") || $0.hasPrefix("framed ") },
                    "\(block.page):\(block.line): a framed command in a console block, which is not run: mark it sh")
        }
        let shell = all.filter { Self.shellLanguages.contains($0.language) }
        let byPage = Dictionary(grouping: shell, by: \.page)
        #expect(byPage["README.md"] != nil, "the README shows no command")
        #expect(shell.count >= 15, "\(shell.count) blocks")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("framed-doc-commands-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let bin = work.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("framed"), withDestinationURL: CLITests.binary)

        // Each page: a copy of the samples, its blocks as files, and a driver that runs them in
        // order and says which failed; every page's driver started at once.
        var running: [(page: String, process: Process, log: URL, blocks: [Block])] = []
        for (number, (page, blocks)) in byPage.sorted(by: { $0.key < $1.key }).enumerated() {
            let folder = work.appendingPathComponent("page\(number)")
            try Self.copySamples(into: folder)
            var driver = "cd \(folder.path)\n"
            for (index, block) in blocks.enumerated() {
                let script = work.appendingPathComponent("page\(number)-block\(index).sh")
                try Data(block.text.utf8).write(to: script)
                driver += "echo '>>> \(block.page):\(block.line)'\n"
                driver += "bash -euo pipefail \(script.path) || echo '!!! failed: \(block.page):\(block.line)'\n"
            }
            let log = work.appendingPathComponent("page\(number).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // A command that hangs fails the page rather than the whole run.
            process.arguments = ["timeout", "600", "bash", "-c", driver]
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            running.append((page, process, log, blocks))
        }
        for run in running {
            run.process.waitUntilExit()
            let log = (try? String(contentsOf: run.log, encoding: .utf8)) ?? ""
            let commands = run.blocks.map { Self.commands($0.text).count }.reduce(0, +)
            print("DocCommandTests: \(run.page): \(run.blocks.count) blocks, \(commands) commands")
            #expect(run.process.terminationStatus == 0, "\(run.page): the commands did not finish: \(log)")
            for failure in log.split(separator: "\n") where failure.hasPrefix("!!! failed: ") {
                let place = failure.dropFirst("!!! failed: ".count)
                let block = run.blocks.first { "\($0.page):\($0.line)" == place }
                // The block's own output: from its marker to the next.
                let start = log.range(of: ">>> \(place)\n")
                let output = start.map { String(log[$0.upperBound...].prefix { _ in true }) }?
                    .components(separatedBy: "\n>>> ").first ?? log
                Issue.record("\(place) fails as written:\n\(block?.text ?? "")\n--- its output:\n\(output)")
            }
        }
    }
}
