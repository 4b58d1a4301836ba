import Foundation
import Testing

/// The README and docs/ stay true to the tree: their links lead to files that exist, and every
/// test that docs/guarantees.md names for a promise exists.
struct DocumentationTests {
    static let root = ManualTests.root

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static var pages: [String] {
        ["README.md"] + ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test func relativeLinksLeadToFiles() throws {
        #expect(Self.pages.count >= 9, "\(Self.pages)")
        let link = /\]\(([^)#:]+)(#[^)]*)?\)/
        for page in Self.pages {
            let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            for match in try Self.text(page).matches(of: link) {
                let target = Self.root.appendingPathComponent(folder).appendingPathComponent(String(match.1)).standardized
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page) links to \(match.1)")
            }
        }
    }

    /// `Suite.test` names in docs/guarantees.md: each is a test function in Tests/.
    @Test func everyGuaranteeNamesATestThatExists() throws {
        let guarantees = try Self.text("docs/guarantees.md")
        let named = Set(guarantees.matches(of: /`([A-Z][A-Za-z]+Tests)\.([a-z][A-Za-z]+)`/).map { (String($0.1), String($0.2)) }
                            .map { "\($0.0).\($0.1)" })
        #expect(named.count >= 25, "\(named.count) tests named")
        var sources: [String: String] = [:]
        let tests = Self.root.appendingPathComponent("Tests")
        for case let file as String in FileManager.default.enumerator(atPath: tests.path) ?? FileManager.DirectoryEnumerator()
            where file.hasSuffix(".swift") {
            sources[file] = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
        }
        for name in named.sorted() {
            let parts = name.split(separator: ".")
            // A suite is a struct, or a final class where it cleans up in deinit.
            let suite = sources.values.first { $0.contains("struct \(parts[0]) ") || $0.contains("class \(parts[0]) ") }
            #expect(suite?.contains("func \(parts[1])(") == true, "docs/guarantees.md names \(name), which is no test")
        }
    }
}
