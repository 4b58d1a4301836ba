import Foundation
import FramedTestSupport
import Testing

/// Pango as the window title opens it (dlopen, Sources/CPango): its declarations held to the installed headers.
@Suite struct TitleTextLibraryTests {
    /// Tests/Fixtures/cpango-abi-check.c compiles only if pango_abi.h and cpango.h declare what the
    /// real GLib, Pango and Cairo headers do (libpango1.0-dev, in the Makefile's build packages).
    @Test func theDeclarationsMatchTheInstalledHeaders() throws {
        let flags = try Tool.run("pkg-config", ["--cflags", "pangocairo"])
        #expect(flags.status == 0, "pkg-config pangocairo (libpango1.0-dev): \(flags.stderr)")
        let folder = try TemporaryFolder.make("pango-abi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = SVGLibraryTests.root
        let arguments = flags.output.split(separator: " ").map(String.init).filter { !$0.isEmpty && $0 != "\n" }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            + ["-I", root.appendingPathComponent("Sources/CPango").path,
               "-I", root.appendingPathComponent("Sources/CPango/include").path,
               "-fsyntax-only", root.appendingPathComponent("Tests/Fixtures/cpango-abi-check.c").path]
        let r = try Tool.run("cc", arguments, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
    }
}
