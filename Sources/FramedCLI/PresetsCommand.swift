import Framed

/// `framed presets`: every preset with the options it stands for.
enum PresetList {
    static func text() -> String {
        var lines: [String] = []
        let lookNames = Set(lookOptions.map(\.spec.name))
        for preset in Preset.allCases {
            lines.append("\(preset.rawValue): \(preset.summary)")
            for (name, value) in Framer(preset: preset).effectiveSettings where lookNames.contains(name) || name == "dpi" {
                lines.append("    --\(name) " + shellWord(value))
            }
            if preset.dpi == nil { lines.append("    (--dpi: the format's default)") }
            lines.append("")
        }
        lines.append("Use one with --preset NAME; options given after it (or in --config) change it.")
        return lines.joined(separator: "\n")
    }

    /// A value as it would be typed in a shell.
    static func shellWord(_ value: JSON) -> String {
        let text: String
        switch value {
        case let .string(s): text = s
        default: text = value.text(exact: true)
        }
        let plain = text.unicodeScalars.allSatisfy { scalar in
            CharacterSetLike.isPlain(scalar)
        }
        return plain && !text.isEmpty ? text : quoted(text)
    }

    /// In single quotes, each quote inside written as `'\''` (quote, escaped quote, quote).
    static func quoted(_ text: String) -> String {
        var result = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { result += "'\\''" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "'"
    }
}

/// Characters that need no quoting in a shell word.
enum CharacterSetLike {
    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", "_", "/", ":", "=", "+", "%", ",": return true
        default: return false
        }
    }
}
