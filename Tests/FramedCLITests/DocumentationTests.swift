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

    /// The README is a page read in five minutes (issue 33, item 2): at most 12 KB; what framed
    /// is, a print and a documentation figure, then install with `make demo` and `make test`,
    /// before anything else; its examples' pictures are in Samples/examples/, which
    /// Samples/render-examples.sh makes.
    @Test func theReadmeIsShortAndStartsWithWhatFramedIs() throws {
        let readme = try Self.text("README.md")
        #expect(readme.utf8.count <= 12 * 1024, "README.md is \(readme.utf8.count) bytes")
        let top = String(readme.prefix(2500))
        for needle in ["Samples/examples/print.png", "Samples/examples/screenshot.png", "make demo", "make test"] {
            #expect(top.contains(needle), "README.md's first 2500 characters lack \(needle)")
        }
        let render = try Self.text("Samples/render-examples.sh")
        for picture in readme.matches(of: /Samples\/examples\/([a-z-]+)\.png/).map({ String($0.1) }) {
            #expect(render.contains("$out/\(picture)"), "Samples/render-examples.sh does not make \(picture).png")
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
