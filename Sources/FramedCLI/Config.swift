import FramedLayout
import FramedSystem
import FramedRaster
import FramedRender

/// A value as written in JSON by `--print-config` and `framed layout`, with keys in a fixed order.
indirect enum JSON: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool { a.text() == b.text() }

    /// The JSON text, indented by two spaces per level (objects of numbers only stay on one line).
    func text(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch self {
        case let .string(s): return Self.quote(s)
        case let .number(n): return Self.number(n)
        case let .bool(b): return b ? "true" : "false"
        case .null: return "null"
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.text(indent: indent + 1) }.joined(separator: ",\n") + "\n" + end + "]"
        case let .object(pairs):
            if pairs.isEmpty { return "{}" }
            if pairs.allSatisfy({ if case .number = $0.1 { return true } else { return false } }) {
                return "{" + pairs.map { Self.quote($0.0) + ": " + $0.1.text() }.joined(separator: ", ") + "}"
            }
            return "{\n" + pairs.map { pad + Self.quote($0.0) + ": " + $0.1.text(indent: indent + 1) }
                .joined(separator: ",\n") + "\n" + end + "}"
        }
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whole numbers without a fraction; others with up to 6 decimals, trailing zeros dropped.
    static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        var text = String(printf: "%.6f", n)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

/// `--config FILE` and `--print-config`: the long options as a JSON object.
enum ConfigFile {
    /// Options that make no sense in a config file.
    static let refused: Set<String> = ["help", "version", "config", "print-config"]

    /// A value read from the config file.
    enum Value {
        case string(String), number(Double), bool(Bool), other(String)

        init(_ json: JSON) {
            switch json {
            case let .string(s): self = .string(s)
            case let .number(n): self = .number(n)
            case let .bool(b): self = .bool(b)
            case .null: self = .other("null")
            case .array: self = .other("a list")
            case .object: self = .other("an object")
            }
        }
    }

    /// Reads `path` and turns it into (option, value) pairs, in help order, as the command line
    /// would give them: strings and numbers as values, `true` for a flag given, `false` for a
    /// flag not given. Every key and type is checked here; values are checked by the options.
    static func load(_ path: String) throws -> [(name: String, value: String?)] {
        let bytes: [UInt8]
        do { bytes = try Pictures.bytes(contentsOf: path) } catch {
            throw FileError(path: path, reason: "config file: " + error.description)
        }
        let document: JSON
        do { document = try JSONReader.parse(bytes) } catch {
            throw UsageError("--config \(path): not a JSON object of option names and values (\(error))")
        }
        guard case let .object(members) = document else {
            throw UsageError("--config \(path): not a JSON object of option names and values (the top level must be an object)")
        }
        var values: [String: Value] = [:]
        for (key, value) in members {
            guard values[key] == nil else { throw UsageError("--config \(path): \"\(key)\" is given twice") }
            values[key] = Value(value)
        }
        let specs = frameOptions.map(\.spec)
        for key in values.keys.sorted() {
            guard specs.contains(where: { $0.name == key }) else {
                throw UsageError("--config \(path): unknown key \"\(key)\""
                                 + (specs.nearestName(to: key).map { " (did you mean \"\($0)\"?)" } ?? ""))
            }
            if refused.contains(key) { throw UsageError("--config \(path): \"\(key)\" cannot be set in a config file") }
        }
        let sizeKeys = ["size", "width", "height"].filter { values[$0] != nil }
        if sizeKeys.count > 1 {
            throw UsageError("--config \(path): \"\(sizeKeys[0])\" and \"\(sizeKeys[1])\" replace each other; give one")
        }
        var pairs: [(name: String, value: String?)] = []
        for spec in specs {
            guard let value = values[spec.name] else { continue }
            let key = spec.name
            if spec.valueName == nil {
                guard case let .bool(on) = value else {
                    throw UsageError("--config \(path): \"\(key)\" must be true or false, not \(describe(value))")
                }
                if on { pairs.append((key, nil)) }
            } else {
                switch value {
                case let .string(text): pairs.append((key, text))
                case let .number(n): pairs.append((key, JSON.number(n)))
                default: throw UsageError("--config \(path): \"\(key)\" must be a string or a number, not \(describe(value))")
                }
            }
        }
        return pairs
    }

    private static func describe(_ value: Value) -> String {
        switch value {
        case let .string(s): return "the string \(JSON.quote(s))"
        case let .number(n): return "the number \(JSON.number(n))"
        case let .bool(b): return b ? "true" : "false"
        case let .other(what): return what
        }
    }

    // MARK: --print-config

    /// How each option's effective value is written; options missing here are run settings
    /// (input and output, batch behaviour), not part of a look.
    static let getters: [String: @Sendable (Settings) -> JSON?] = [
        "preset": { .string($0.preset.rawValue) },
        "format": { $0.format.map { .string($0.rawValue) } },
        "size": { $0.style.size.map { .string("\($0.width)x\($0.height)") } },
        "width": { $0.style.width.map { .string($0.description) } },
        "height": { $0.style.height.map { .string($0.description) } },
        "border": { .string($0.style.border.description) },
        "border-color": { .string($0.style.borderColor.description) },
        "border-style": { .string($0.style.borderStyle.rawValue) },
        "inner-border": { .string($0.style.innerBorder?.description ?? "none") },
        "padding": { .string($0.style.padding.description) },
        "background": { .string($0.style.background.description) },
        "radius": { .string($0.style.radius.description) },
        "fit": { .string($0.style.fit.rawValue) },
        "position": { .string($0.style.position.description) },
        "shadow": { .string($0.style.shadows.isEmpty ? "none" : $0.style.shadows.map(\.description).joined(separator: ", ")) },
        "margin": { .string($0.style.margin.description) },
        "canvas-color": { .string($0.style.canvasColor.description) },
        "image-dpi": {
            switch $0.style.pictureResolution {
            case .css: return .string("css")
            case .auto: return .string("auto")
            case let .dpi(n): return .number(n)
            }
        },
        "scale": { .number($0.scale) },
        "dpi": { $0.dpi.map { .number($0) } },
        "no-snap": { .bool(!$0.snap) },
        "embed": { .string($0.embed.rawValue) },
        "quality": { .number(Double($0.quality)) },
        "lossless": { .bool($0.lossless) },
        "resample": { .string($0.resample.rawValue) },
        "flatten": { $0.flatten.map { .string($0.description) } },
        "no-auto-orient": { .bool(!$0.autoOrient) },
        "intent": { .string($0.intent.rawValue) },
        "max-pixels": { .number(Double($0.maxPixels)) },
        "min-ppi": { $0.minPPI.map { .number($0) } },
        "strict": { .bool($0.strict) },
        "page": { $0.pageSize.map { .string($0.description) } },
        "orientation": { $0.pageSize == nil ? nil : .string($0.orientation.rawValue) },
        "bleed": { $0.pageSize == nil ? nil : .string($0.bleed.description) },
        "title": { $0.title.map { .string($0) } },
        "author": { $0.author.map { .string($0) } },
    ]

    /// Options that `--print-config` leaves out on purpose: they say what to frame and how to
    /// run, not how it looks.
    static let runOptions: Set<String> = ["output", "config", "print-config", "pages", "jobs", "recursive", "overwrite",
                                          "fail-fast", "quiet", "dry-run", "help", "version"]

    /// The effective settings as a JSON object, keys in help order. An option without a getter
    /// (added later and not listed above) is written with the value last given, if any.
    static func effective(_ settings: Settings, given: [(name: String, value: String?)]) -> JSON {
        var pairs: [(String, JSON)] = []
        for option in frameOptions where !runOptions.contains(option.spec.name) {
            let name = option.spec.name
            if let getter = getters[name] {
                if let value = getter(settings) { pairs.append((name, value)) }
            } else if let last = given.last(where: { $0.name == name }) {
                pairs.append((name, last.value.map { .string($0) } ?? .bool(true)))
            }
        }
        return .object(pairs)
    }
}
