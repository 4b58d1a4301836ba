import Framed
import FramedSystem

/// `--config FILE`: the long options as a JSON object (the library's `Configuration`, with the
/// command line's own options as keys too, and its own words in messages).
enum ConfigFile {
    /// Options that make no sense in a config file.
    static let refused: Set<String> = ["help", "version", "config", "print-config"]

    /// Reads `path` and turns it into (option, value) pairs, in help order, as the command line
    /// would give them: strings and numbers as values, `nil` for a flag given, nothing for a flag
    /// not given. Every key and type is checked here; values are checked by the options.
    static func load(_ path: String) throws -> [(name: String, value: String?)] {
        let bytes: [UInt8]
        do { bytes = try Configuration.read(path) } catch {
            throw FileError(path: path, reason: "config file: " + error.description)
        }
        do {
            return try Configuration.pairs(bytes, settings: frameOptions.map { ($0.spec.names, $0.spec.valueName == nil) },
                                           refused: refused)
        } catch {
            throw UsageError("--config \(path): " + message(error))
        }
    }

    /// What is wrong with a config file, in the command line's words (keys, options).
    static func message(_ failure: Configuration.Failure) -> String {
        switch failure {
        case let .syntax(reason): return "not a JSON object of option names and values (\(reason))"
        case .notAnObject: return "not a JSON object of option names and values (the top level must be an object)"
        case let .unknown(key, suggestion):
            return "unknown key \"\(excerpt(key))\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        case let .refused(key): return "\"\(key)\" cannot be set in a config file"
        case .duplicate, .sameSetting, .conflicting, .wrongType: return failure.description
        }
    }

    /// `--print-config`: the effective settings as a JSON object, keys in help order.
    static func effective(_ settings: Settings) -> JSON {
        .object(settings.framer.effectiveSettings.map { ($0.name, $0.value) })
    }
}
