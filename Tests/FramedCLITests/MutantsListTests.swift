import Foundation
import FramedTestSupport
import Testing

/// `make mutants` (Tests/mutants.py) finds each mutation's text in the product's code, so a
/// change to the code that moves a mutated line would leave the mutation behind unnoticed until
/// the next long run: `--check` applies every one in memory, in a second.
struct MutantsListTests {
    @Test func everyMutationStillApplies() throws {
        let script = ManualTests.root.appendingPathComponent("Tests/mutants.py").path
        let r = try Tool.run("python3", [script, "--check"])
        #expect(r.status == 0 && r.output.contains("mutations apply"),
                "Tests/mutants.py --check: \(r.stderr)\(r.output)")
    }
}
