import Foundation
import FramedSystem
import FramedTestSupport
import Testing

/// What the built `framed` loads at start. Foundation on Linux brings ICU with it
/// (`lib_FoundationICU.so`, 40 MB) and a dozen more libraries, which cost every run, even
/// `framed --version`, several milliseconds and megabytes before a byte is read; even
/// FoundationEssentials alone costs 4 MB and a millisecond. The shipped modules use the C
/// library and the standard library instead (`--config` has its own `JSONReader`).
struct LinkageTests {
    /// Libraries that `framed` must not load, directly or through another library.
    static let forbidden: Set<String> = ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                                         "libFoundationEssentials.so"]

    @Test func framedLoadsNeitherFoundationNorICU() throws {
        let libraries = try Self.sharedLibraries(of: CLITests.binary)
        // ldd listed something: a Swift binary always loads the standard library.
        #expect(libraries.contains("libswiftCore.so"), "ldd listed \(libraries.sorted())")
        #expect(libraries.isDisjoint(with: Self.forbidden),
                "framed loads \(libraries.intersection(Self.forbidden).sorted()): a shipped module imports Foundation")
    }

    /// framed calls nothing in `_StringProcessing` (the standard library's `firstRange(of:)`,
    /// `contains(_:)` with a string, `replacing(_:with:)`, `split(separator:)` with a string,
    /// regexes): one use links that module and its regex parser, 1.2 MB of code, into the
    /// shipped binary. `FramedSystem`'s `firstOccurrence(of:)` and its kin stand in for them. Read
    /// from the symbols this build imports: a debug binary links those modules dynamically.
    @Test func framedUsesNothingFromStringProcessing() throws {
        let result = try Tool.run("nm", ["-D", "--undefined-only", CLITests.binary.path])
        #expect(result.status == 0, "nm: \(result.stderr)")
        let imported = result.output.split(separator: "\n")
        #expect(imported.contains { $0.contains("swift_retain") }, "nm listed the imports: \(imported.prefix(5))")
        let used = imported.filter { $0.containsOccurrence(of: "17_StringProcessing") || $0.containsOccurrence(of: "12_RegexParser") }
        #expect(used.isEmpty, "framed imports \(used.count) symbols of _StringProcessing, such as \(used.prefix(3))")
    }

    /// The names of the shared libraries `binary` loads, directly or through others (`ldd`).
    static func sharedLibraries(of binary: URL) throws -> Set<String> {
        let result = try Tool.run("/usr/bin/ldd", [binary.path])
        #expect(result.status == 0, "ldd \(binary.path) failed")
        let listing = result.stdout
        // "\tlibcairo.so.2 => /lib/x86_64-linux-gnu/libcairo.so.2 (0x...)": the name comes first.
        return Set(String(decoding: listing, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(whereSeparator: \.isWhitespace).first.map(String.init)
        })
    }
}
