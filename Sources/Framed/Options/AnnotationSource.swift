import FramedSystem

/// Where a picture's annotations (`PictureOptions.annotations`) come from: a list in the
/// settings, or a JSON file read when the picture is framed.
public enum AnnotationSource: Sendable, Equatable {
    /// These annotations, for every picture framed with the settings.
    case list([Annotation])
    /// A JSON file of annotations (`Annotation`'s JSON form: a list of objects), read when a
    /// picture is framed. A path holding `{name}`, `{stem}` or `{ext}` is a template: each
    /// picture's file name, stem and extension fill it in, a relative template is taken from
    /// the picture's folder (`{stem}.annotations.json` is the file beside `shot.png` named
    /// `shot.annotations.json`), and a picture whose file does not exist gets no annotations.
    /// A plain path must exist.
    case file(String)

    /// Whether `path` is a template: it holds `{name}`, `{stem}` or `{ext}`.
    public static func isTemplate(_ path: String) -> Bool {
        ["{name}", "{stem}", "{ext}"].contains { path.containsOccurrence(of: $0) }
    }

    /// The largest annotation file read, in bytes.
    public static let byteLimit = 1 << 20
}

/// Why a picture's annotations cannot be used: the file that holds them cannot be read, or an
/// annotation is wrong or lies outside the picture.
public enum AnnotationProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The annotation file could not be read: its path and why.
    case unreadable(path: String, reason: String)
    /// An annotation (of the file at `path`, if it came from one) is wrong.
    case invalid(path: String?, AnnotationError)
    /// The picture is a vector drawing (SVG), whose pixels a redaction or a magnifier cannot
    /// take: the annotation's place and kind.
    case needsPixels(index: Int, kind: AnnotationKind)

    /// One line.
    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "the annotations \(path): \(reason)"
        case let .invalid(path?, error): return "the annotations \(path): \(error)"
        case let .invalid(nil, error): return error.index > 0 ? error.description : "the annotations: \(error)"
        case let .needsPixels(index, kind):
            return "annotation \(index) (\(kind.rawValue)) needs the picture's pixels; an SVG picture is drawn as vectors"
        }
    }
}

extension Framer {
    /// These settings with the annotations for the picture `source` read: a file (or the file a
    /// template names for this picture) replaced by its list.
    package func resolvingAnnotations(for source: PictureSource, label: String) throws(FramingError) -> Framer {
        guard case let .file(template)? = picture.annotations else { return self }
        var framer = self
        let path: String
        if AnnotationSource.isTemplate(template) {
            guard case let .file(picturePath) = source else {
                framer.picture.annotations = .list([])
                return framer
            }
            let name = Paths.lastComponent(picturePath)
            let ext = Paths.pathExtension(name)
            let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
            var expanded = template.replacingOccurrences(of: "{name}", with: name)
                .replacingOccurrences(of: "{stem}", with: stem.isEmpty ? name : stem).replacingOccurrences(of: "{ext}", with: ext)
            let folder = Paths.deletingLastComponent(picturePath)
            if !expanded.hasPrefix("/") && !folder.isEmpty { expanded = folder + (folder.hasSuffix("/") ? "" : "/") + expanded }
            guard FileSystem.exists(expanded) else {
                framer.picture.annotations = .list([])
                return framer
            }
            path = expanded
        } else {
            path = template
        }
        framer.picture.annotations = .list(try Self.annotations(file: path, label: label))
        framer.annotationFile = path
        return framer
    }

    /// The annotations in the JSON file at `path`.
    static func annotations(file path: String, label: String) throws(FramingError) -> [Annotation] {
        func fail(_ problem: AnnotationProblem) -> FramingError { FramingError(picture: label, problem: .annotations(problem)) }
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor.openForReading(path)
            defer { try? file.close() }
            bytes = try file.read(upTo: AnnotationSource.byteLimit + 1)
        } catch { throw fail(.unreadable(path: path, reason: "cannot read (\(error))")) }
        guard bytes.count <= AnnotationSource.byteLimit else {
            throw fail(.unreadable(path: path, reason: "more than \(AnnotationSource.byteLimit >> 20) MB, too large for annotations"))
        }
        do { return try Annotation.list(jsonText: bytes) } catch { throw fail(.invalid(path: path, error)) }
    }

    /// Whether the annotations are a file not yet read (`resolvingAnnotations` reads it and
    /// leaves a list, possibly empty, in its place).
    var annotationsAreAFile: Bool {
        if case .file? = picture.annotations { return true }
        return false
    }

    /// The annotations the settings hold as a list (none for a file not yet read).
    var annotationList: [Annotation] {
        if case let .list(list)? = picture.annotations { return list }
        return []
    }
}
