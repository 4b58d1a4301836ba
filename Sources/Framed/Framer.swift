import FramedSystem

/// Frames pictures: the one type a Swift program needs.
///
/// A `Framer` is a value holding every setting, by stage: the look (`style`), how the picture is
/// read (`picture`), how the output is written (`output`) and the page it goes on (`page`).
/// Start from a preset, change what you need, then frame files or bytes:
///
/// ```swift
/// var framer = Framer(preset: .docs)
/// framer.style.radius = .px(12)
/// try framer.frame("shot.png", to: "shot-framed.png")
/// ```
///
/// Settings can also be set by name with the words of a configuration file and of the `framed`
/// command line (`set("shadow", "0 4px 16px rgba(0,0,0,.35)")`). Framing is pure: the same
/// picture and settings give the same bytes on any thread (a PDF's date aside: it is the time
/// of framing unless `output.metadata.creationDate` or `SOURCE_DATE_EPOCH` fixes it), and a
/// `Framer` may be shared between tasks.
public struct Framer: Sendable, Equatable {
    /// The preset the settings started from (a configuration names it).
    public var preset: Preset
    /// The look: size, border, mat, corners, placement and shadows.
    public var style: FrameStyle
    /// How pictures are read: orientation, colour, flattening, resampling, limits.
    public var picture: PictureOptions
    /// How the output is written: format, resolution, embedding, metadata.
    public var output: OutputOptions
    /// The page to centre the framed picture on, if any.
    public var page: PageOptions
    /// The cores one picture may use (resizing while decoding, resampling and compressing spread
    /// over them). A batch of several workers gives each its share; outputs are the same bytes
    /// whatever the number.
    package var threads: Int = Resampler.processorCount
    /// Where librsvg reads and draws SVG pictures: nil, in this process (a library user's
    /// program); the `framed` tool runs it in a child process of itself (`SVGSandbox`), so that
    /// a document that makes librsvg abort or run past its time costs one picture, not the run.
    package var svgSandbox: SVGSandbox?
    /// The looks of the set of variants these settings are a member of (`member(_:)`): the
    /// picture is laid out on the canvas they all share (`FrameLayout.set`), so that the files
    /// of a set, made in one run or in several, have one size. Empty outside a set.
    package var companions: [FrameStyle] = []
    /// The file `picture.annotations` was read from (`resolvingAnnotations(for:label:)`), which
    /// errors about an annotation name.
    package var annotationFile: String? = nil

    /// The version of framed, as its PDFs name their creator.
    public static let version = "0.1.0"

    /// The PDF creator: `framed` and its version.
    public static var creator: String { "framed \(version)" }

    /// Settings that start from `preset` (`classic` by default): its style and resolution, and
    /// the default picture, output and page options.
    public init(preset: Preset = .classic) {
        self.preset = preset
        style = preset.style
        picture = PictureOptions()
        output = OutputOptions(dpi: preset.dpi)
        page = PageOptions()
    }

    /// Settings with this style and options (the preset is `classic` only as a name: the style
    /// given is used).
    public init(style: FrameStyle, picture: PictureOptions = PictureOptions(), output: OutputOptions = OutputOptions(),
                page: PageOptions = PageOptions()) {
        preset = .classic
        self.style = style
        self.picture = picture
        self.output = output
        self.page = page
    }

    /// Starts again from `preset`: its style and resolution replace the current ones; every
    /// other setting stays.
    public mutating func apply(_ preset: Preset) {
        self.preset = preset
        style = preset.style
        output.dpi = preset.dpi
    }

    /// Sets one setting by name, as a configuration file or the command line writes it:
    /// `set("border", "2mm")`, `set("shadow", "0 4px 16px rgba(0,0,0,.35)")`, `set("lossless",
    /// "true")`. `preset` starts again from that preset (see `apply(_:)`). `Setting.all` lists
    /// the names; a setting's aliases work too (`set("border-radius", "8px")`). A name that is
    /// no setting is an error that suggests the nearest one, as the command line does.
    public mutating func set(_ name: String, _ value: String) throws(SettingError) {
        guard let setting = Setting.named(name) else {
            throw SettingError(setting: name, reason: "no such setting"
                               + (nearestName(to: name, in: Setting.allNames).map { " (did you mean \"\($0)\"?)" } ?? ""))
        }
        try setting.apply(&self, value)
    }
}
