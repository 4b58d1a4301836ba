import Framed

/// A small command-line parser: `--name value`, `--name=value`, `-o value`, flags, positionals,
/// and `--` to end options. Declarative enough to print its own help.

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "border".
    var name: String
    /// Optional one-letter alias, e.g. "o".
    var short: Character? = nil
    /// Placeholder for the value in help (nil: a flag that takes no value).
    var valueName: String?
    /// One line of help text.
    var help: String
    /// Default shown in help, if any.
    var defaultText: String? = nil
    /// What the value can be, for shell completion: a file, or one of a few words.
    var completion: Completion = .anything
    /// The value may be left out (`--trim`, `--trim 10%`, `--trim=10%`): then the next argument
    /// is its value only when it reads as one (a number, or a percentage), and otherwise the
    /// option's value is empty.
    var optionalValue: Bool = false
    /// Other long names the option answers to (`--backdrop` for `--canvas-color`); the parser
    /// gives the option's own name.
    var aliases: [String] = []

    /// The help line, with the other names the option answers to.
    var helpLine: String {
        aliases.isEmpty ? help : help + " (also " + aliases.map { "--" + $0 }.joined(separator: ", ") + ")"
    }

    /// What an option's value can be, for shell completion.
    enum Completion: Sendable, Equatable {
        /// Anything: nothing to offer.
        case anything
        /// A path.
        case file
        /// One of these words (other values may be allowed too, e.g. a page size `WxH`).
        case words([String])

        /// Every case name of a word type, e.g. `OutputFormat`.
        static func cases<T: CaseIterable & RawRepresentable>(_: T.Type) -> Completion where T.RawValue == String {
            .words(T.allCases.map(\.rawValue))
        }
    }
}

/// What the parser found, in order.
struct ParsedArguments {
    /// (option name, value) pairs in command-line order; flags have a nil value.
    var options: [(name: String, value: String?)] = []
    var positionals: [String] = []

    func has(_ name: String) -> Bool { options.contains { $0.name == name } }
    /// The last value given for `name` (later options override earlier ones).
    func last(_ name: String) -> String? { options.last { $0.name == name }?.value }
}

/// A mistake in the command line; exit code 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct ArgumentParser {
    var specs: [OptionSpec]

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }

            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    name = String(body[..<equals]); inlineValue = String(body[body.index(after: equals)...])
                } else {
                    name = String(body)
                }
            } else {
                let letters = argument.dropFirst()
                guard let letter = letters.first,
                      let spec = specs.first(where: { $0.short == letter }) else {
                    throw UsageError("unknown option \(excerpt(argument))")
                }
                name = spec.name
                if letters.count > 1 { inlineValue = String(letters.dropFirst()) }
            }
            guard let spec = specs.first(where: { $0.name == name || $0.aliases.contains(name) }) else {
                throw UsageError("unknown option --\(excerpt(name))" + suggestion(for: name))
            }
            name = spec.name
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                result.options.append((name, nil))
                continue
            }
            if let inlineValue {
                result.options.append((name, inlineValue))
            } else if spec.optionalValue {
                if index < arguments.count, Self.readsAsTolerance(arguments[index]) {
                    result.options.append((name, arguments[index]))
                    index += 1
                } else {
                    result.options.append((name, ""))
                }
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(spec.valueName!))") }
                result.options.append((name, arguments[index]))
                index += 1
            }
        }
        return result
    }

    /// Whether an argument after an option with an optional value is that value: digits with
    /// at most one point, and an optional `%`.
    static func readsAsTolerance(_ argument: String) -> Bool {
        let number = argument.hasSuffix("%") ? argument.dropLast() : Substring(argument)
        return !number.isEmpty && number.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && number.filter { $0 == "." }.count <= 1 && number != "."
    }

    /// " (did you mean --x?)" for a near miss, else "".
    private func suggestion(for name: String) -> String {
        specs.nearestName(to: name).map { " (did you mean --\($0)?)" } ?? ""
    }

    /// The help text: one aligned line per option, with its default.
    func helpText() -> String {
        let heads = specs.map { spec -> String in
            var head = spec.short.map { "-\($0), " } ?? "    "
            head += "--\(spec.name)"
            if let value = spec.valueName { head += " \(value)" }
            return head
        }
        let width = min(34, heads.map(\.count).max() ?? 0)
        return zip(specs, heads).map { spec, head in
            var line = "  " + head
            line += head.count < width ? String(repeating: " ", count: width - head.count) : "\n  " + String(repeating: " ", count: width)
            line += "  " + spec.helpLine
            if let value = spec.defaultText { line += " (default: \(value))" }
            return line
        }.joined(separator: "\n")
    }
}

extension [OptionSpec] {
    /// The first option whose name is a prefix of `name`, has it as a prefix, or is within two
    /// edits of it: the "did you mean" of the command line.
    func nearestName(to name: String) -> String? {
        Framed.nearestName(to: name, in: map(\.name))
    }
}
