// The config-file reader (`--config FILE`, issue 5) on arbitrary bytes, through the same path as
// the command line (`FramedCommand.settings`: JSON, keys, then every value through its option);
// a config that loads must print (`--print-config`) as a config that loads back to itself.
import FramedCLI
import Foundation
import FuzzSupport

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-config-\(getpid())")
try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let file = folder.appendingPathComponent("look.json").path, again = folder.appendingPathComponent("printed.json").path

/// The settings a config file gives, as `framed picture.png --config FILE` would make them.
func load(_ path: String) throws -> (Settings, [(name: String, value: String?)]) {
    try FramedCommand.settings(from: ParsedArguments(options: [(name: "config", value: path)], positionals: ["picture.png"]))
}

fuzzMain { data in
    precondition(FileManager.default.createFile(atPath: file, contents: Data(data)), "cannot write \(file)")
    guard let (settings, given) = try? load(file) else { return }
    let printed = ConfigFile.effective(settings, given: given).text()
    precondition(FileManager.default.createFile(atPath: again, contents: Data(printed.utf8)), "cannot write \(again)")
    do {
        let (reloaded, givenAgain) = try load(again)
        let reprinted = ConfigFile.effective(reloaded, given: givenAgain).text()
        require(reprinted == printed, "--print-config does not load back to itself:\n\(printed)\nloads as\n\(reprinted)")
    } catch {
        fatalError("--print-config writes a config that does not load: \(error)\n\(printed)")
    }
}
