import FramedSystem

/// A configuration that cannot be used: not JSON, not an object of settings, or a value that does
/// not parse.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configuration file, when it came from one.
    public var file: String?
    /// What is wrong, e.g. `unknown setting "bordr" (did you mean "border"?)`.
    public var reason: String

    /// An error about the configuration in `file`.
    public init(file: String?, reason: String) { self.file = file; self.reason = reason }

    /// `file: reason`, or the reason alone.
    public var description: String { file.map { "\($0): \(reason)" } ?? reason }
}

/// Configurations: a JSON object whose keys are setting names and whose values are what
/// `Framer.set(_:_:)` takes, `true` (or `false`) for a switch. The preset applies first, then the
/// others in `Setting.all` order.
extension Framer {
    /// Settings from a configuration's bytes (see the extension's summary for its form).
    public init(configuration bytes: [UInt8]) throws(ConfigurationError) {
        try self.init(configuration: bytes, file: nil)
    }

    /// Settings from a configuration file (at most `Configuration.byteLimit` bytes).
    public init(configurationFile path: String) throws(ConfigurationError) {
        let bytes: [UInt8]
        do { bytes = try Configuration.read(path) } catch { throw ConfigurationError(file: path, reason: error.description) }
        try self.init(configuration: bytes, file: path)
    }

    private init(configuration bytes: [UInt8], file: String?) throws(ConfigurationError) {
        self.init()
        let pairs: [(name: String, value: String?)]
        do {
            pairs = try Configuration.pairs(bytes, settings: Setting.all.map { ($0.names, $0.isSwitch) })
        } catch { throw ConfigurationError(file: file, reason: error.description) }
        for (name, value) in pairs where name == "preset" {
            do { try set(name, value ?? "") } catch { throw ConfigurationError(file: file, reason: error.description) }
        }
        for (name, value) in pairs where name != "preset" {
            do { try set(name, value ?? "") } catch { throw ConfigurationError(file: file, reason: error.description) }
        }
    }

    /// The effective settings as a configuration (JSON text, keys in `Setting.all` order, one
    /// a line); reading it back gives these settings.
    public var configuration: String { Configuration.object(effectiveSettings).text(exact: true) }

    /// Every setting that has a value, with that value, in `Setting.all` order.
    package var effectiveSettings: [(name: String, value: JSON)] {
        Setting.all.compactMap { setting in setting.read(self).map { (setting.name, $0) } }
    }
}

/// Reading configuration objects, for `Framer(configuration:)` and for the command line's
/// `--config`, which knows more names (its own options) and words its messages its own way.
package enum Configuration {
    /// The largest configuration read, in bytes: one names a few dozen settings.
    package static let byteLimit = 1 << 20

    /// Why a configuration file could not be read, in words.
    package struct ReadFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A configuration file's bytes, at most `byteLimit` of them (a device or pipe that does not
    /// end is refused once past them).
    package static func read(_ path: String) throws(ReadFailure) -> [UInt8] {
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor.openForReading(path)
            defer { try? file.close() }
            bytes = try file.read(upTo: byteLimit + 1)
        } catch { throw ReadFailure(description: "cannot read (\(error))") }
        guard bytes.count <= byteLimit else {
            throw ReadFailure(description: "more than \(byteLimit >> 20) MB, too large for a configuration")
        }
        return bytes
    }

    /// Why a configuration's bytes are not a usable object of settings.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not JSON.
        case syntax(String)
        /// JSON, but not an object.
        case notAnObject
        /// A key given twice.
        case duplicate(String)
        /// Two keys that name one setting (an alias and its setting's name).
        case sameSetting(String, String)
        /// A key that names no setting, with the nearest name if one is near.
        case unknown(String, suggestion: String?)
        /// A key that names a setting a configuration cannot hold (`refused`).
        case refused(String)
        /// Two settings that replace each other (`size`, `width` and `height`; `aspect` and
        /// `canvas-size`; a setting and its alias) were both given.
        case conflicting(String, String)
        /// A switch's value that is not `true` or `false`, or another setting's that is not a
        /// string or a number (`expected` says which), and what it was.
        case wrongType(key: String, expected: String, found: String)

        /// One line, naming keys as settings.
        package var description: String {
            switch self {
            case let .syntax(reason): return "not a JSON object of settings (\(reason))"
            case .notAnObject: return "not a JSON object of settings (the top level must be an object)"
            case let .duplicate(key): return "\"\(excerpt(key))\" is given twice"
            case let .sameSetting(a, b): return "\"\(a)\" and \"\(b)\" name the same setting; give one"
            case let .unknown(key, suggestion):
                return "unknown setting \"\(excerpt(key))\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
            case let .refused(key): return "\"\(excerpt(key))\" cannot be set in a configuration"
            case let .conflicting(a, b): return "\"\(a)\" and \"\(b)\" replace each other; give one"
            case let .wrongType(key, expected, found): return "\"\(key)\" must be \(expected), not \(found)"
            }
        }
    }

    /// The (name, value) pairs of a configuration, in the order of `settings` (its names, the
    /// first the one pairs are given by and the others its aliases, and whether it is a switch),
    /// as a command line would give them: strings and numbers as text, `nil` for a switch that
    /// is `true`; a switch that is `false` is left out. Every key and type is checked here;
    /// values are checked by the settings.
    package static func pairs(_ bytes: [UInt8], settings: [(names: [String], isSwitch: Bool)],
                              refused: Set<String> = []) throws(Failure) -> [(name: String, value: String?)] {
        let document: JSON
        do { document = try JSONReader.parse(bytes) } catch { throw .syntax(error.description) }
        guard case let .object(members) = document else { throw .notAnObject }
        // Each name, alias or not, to the name the pairs give.
        var canonical: [String: String] = [:]
        for setting in settings { for name in setting.names where canonical[name] == nil { canonical[name] = setting.names[0] } }
        let names = settings.flatMap(\.names)
        var values: [String: JSON] = [:]
        // The key each setting was given by, for messages.
        var keys: [String: String] = [:]
        for (key, value) in members {
            guard let name = canonical[key] else { throw .unknown(key, suggestion: nearestName(to: key, in: names)) }
            if let other = keys[name] { throw other == key ? .duplicate(key) : .sameSetting(other, key) }
            if refused.contains(name) { throw .refused(key) }
            values[name] = value
            keys[name] = key
        }
        for group in [["size", "width", "height"], ["aspect", "canvas-size"]] {
            let keys = group.filter { values[$0] != nil }
            if keys.count > 1 { throw .conflicting(keys[0], keys[1]) }
        }
        var pairs: [(name: String, value: String?)] = []
        for (names, isSwitch) in settings {
            let name = names[0]
            guard let value = values[name] else { continue }
            let key = keys[name] ?? name
            if isSwitch {
                guard case let .bool(on) = value else { throw .wrongType(key: key, expected: "true or false", found: describe(value)) }
                if on { pairs.append((name, nil)) }
            } else {
                switch value {
                case let .string(text): pairs.append((name, text))
                case let .number(n): pairs.append((name, JSON.exactNumber(n)))
                case .array where listSettings.contains(name): pairs.append((name, value.text(exact: true)))
                default: throw .wrongType(key: key, expected: "a string or a number", found: describe(value))
                }
            }
        }
        return pairs
    }

    /// The settings whose value may be a JSON list (`annotate`: the annotations themselves),
    /// given to the setting as its JSON text.
    package static let listSettings: Set<String> = ["annotate"]

    /// `pairs` as a JSON object.
    static func object(_ pairs: [(name: String, value: JSON)]) -> JSON { .object(pairs.map { ($0.name, $0.value) }) }

    /// A JSON value as a message names it: `the string "x"`, `the number 3`, `true`, `a list`.
    package static func describe(_ value: JSON) -> String {
        switch value {
        case let .string(s): return "the string \(JSON.quote(excerpt(s)))"
        case let .number(n): return "the number \(excerpt(JSON.exactNumber(n)))"
        case let .bool(b): return b ? "true" : "false"
        case .null: return "null"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

/// The "did you mean" of settings, configurations and the command line: the first of `names`
/// fewest edits away from `name` (two at most), else the first that is a prefix of `name` or
/// has it as a prefix (`bor` for `border`).
package func nearestName(to name: String, in names: [String]) -> String? {
    let near = names.map { (name: $0, edits: editDistance($0, name)) }.filter { $0.edits <= 2 }
    if let nearest = near.min(by: { $0.edits < $1.edits }) { return nearest.name }
    return names.first { $0.hasPrefix(name) || name.hasPrefix($0) }
}

/// Levenshtein distance, for "did you mean" hints.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(1, b.count) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
