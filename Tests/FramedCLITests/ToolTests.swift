import Foundation
import FramedTestSupport
import Testing

/// The tests' way of running tools (`Tool.run`), where it can fail the whole run rather than a
/// test.
@Suite struct ToolTests {
    /// A tool that exits without reading its input (framed refuses some command lines before it
    /// reads standard input): writing the rest to the closed pipe must not raise SIGPIPE, which
    /// ends the test process with every test in it (seen once in CI as "exited with unexpected
    /// signal code 13"). A megabyte is more than a pipe holds, so the writer is still writing
    /// when `true` exits.
    @Test func aToolThatIgnoresItsInputEndsOnlyItself() throws {
        let r = try Tool.run("true", stdin: Data(count: 1 << 20))
        #expect(r.status == 0)
        Thread.sleep(forTimeInterval: 0.2)  // the writer meets the closed pipe in this time
    }
}
