import Framed

/// A small command-line parser: `--name value`, `--name=value`, `-o value`, flags, positionals,
/// and `--` to end options. Declarative enough to print its own help.

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. "border".
    var name: String
    /// Other long names that mean the same option (`border-radius` for `radius`). A setting's
    /// option takes the setting's aliases (`Option.setting`), so the library, config files,
    /// help, the manual page and completions all know the same ones.
    var aliases: [String] = []
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

    /// The name and the aliases.
    var names: [String] { [name] + aliases }

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
            guard let spec = specs.first(where: { $0.name == name }) ?? specs.first(where: { $0.aliases.contains(name) }) else {
                throw UsageError("unknown option --\(excerpt(name))" + suggestion(for: name))
            }
            // Messages name the option as it was typed; the result by its own name, so that an
            // alias and the name override each other as one option.
            let typed = name
            name = spec.name
            if spec.valueName == nil {
                guard inlineValue == nil else { throw UsageError("--\(typed) takes no value") }
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
                guard index < arguments.count else { throw UsageError("--\(typed) needs a value (\(spec.valueName!))") }
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

    /// The help text: the groups in order, each under its title, with one aligned entry per
    /// option (names, value, help and default), its words wrapped at `columns`; one alignment
    /// for all.
    static func helpText(groups: [(title: String, specs: [OptionSpec])], columns: Int = 100) -> String {
        func head(_ spec: OptionSpec) -> String {
            var head = spec.short.map { "-\($0), " } ?? "    "
            head += spec.names.map { "--" + $0 }.joined(separator: ", ")
            if let value = spec.valueName { head += " \(value)" }
            return head
        }
        let width = min(34, groups.flatMap(\.specs).map { head($0).count }.max() ?? 0)
        return groups.map { title, specs in
            "\(title):\n" + specs.map { spec in
                let head = head(spec)
                var text = spec.help
                if let value = spec.defaultText { text += " (default: \(value))" }
                let indent = String(repeating: " ", count: width + 4)
                var lines = ["  " + head + (head.count < width ? String(repeating: " ", count: width - head.count + 2) : "")]
                if head.count >= width { lines.append(indent) }
                // A word that starts with a dash stays with the word before it, so that no
                // wrapped line starts like an option ("; - for standard output").
                var words: [String] = []
                for word in text.split(separator: " ") {
                    if word.hasPrefix("-"), !words.isEmpty { words[words.count - 1] += " " + word } else { words.append(String(word)) }
                }
                for word in words {
                    let last = lines[lines.count - 1]
                    if last.count > indent.count, last.count + 1 + word.count > columns { lines.append(indent + word) } else {
                        lines[lines.count - 1] += (last.count > indent.count && !last.hasSuffix("  ") ? " " : "") + word
                    }
                }
                return lines.joined(separator: "\n")
            }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}

extension [OptionSpec] {
    /// The first option whose name is a prefix of `name`, has it as a prefix, or is within two
    /// edits of it: the "did you mean" of the command line.
    func nearestName(to name: String) -> String? {
        Framed.nearestName(to: name, in: flatMap(\.names))
    }
}
