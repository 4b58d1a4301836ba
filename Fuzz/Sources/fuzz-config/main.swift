// The configuration reader (`Framer(configuration:)`, which `--config FILE` shares: JSON, keys,
// then every value through its setting) on arbitrary bytes; a configuration that loads must
// print (`Framer.configuration`, what `--print-config` writes) as one that loads back to itself.
import Framed
import FuzzSupport

fuzzMain { data in
    guard let framer = try? Framer(configuration: data) else { return }
    let printed = framer.configuration
    do {
        let reloaded = try Framer(configuration: Array(printed.utf8))
        require(reloaded.configuration == printed, "the configuration does not load back to itself:\n\(printed)\nloads as\n\(reloaded.configuration)")
    } catch {
        fatalError("a printed configuration does not load: \(error)\n\(printed)")
    }
}
