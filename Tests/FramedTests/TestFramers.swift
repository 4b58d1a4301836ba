import Framed

extension Framer {
    /// Settings for a test: `style`, and the few output and picture options tests change.
    init(_ style: FrameStyle, format: OutputFormat, scale: Double = 1, dpi: Double? = nil, embed: EmbedMode = .auto,
         quality: Int = 90, lossless: Bool = false, flatten: RGBAColor? = nil, maxPixels: Int = 256_000_000) {
        self.init(style: style, picture: PictureOptions(flatten: flatten, maxPixels: maxPixels),
                  output: OutputOptions(format: format, scale: scale, dpi: dpi, embed: embed, quality: quality,
                                        lossless: lossless))
    }

    /// A framer from `preset` writing `format`, with `settings` set in order by name, as a
    /// configuration file sets them.
    init(_ preset: Preset, format: OutputFormat, _ settings: KeyValuePairs<String, String>) throws {
        self.init(preset: preset)
        output.format = format
        for (name, value) in settings { try set(name, value) }
    }
}
