import Framed

extension Framer {
    /// Settings for a test: `style`, and the few output and picture options tests change.
    init(_ style: FrameStyle, format: OutputFormat, scale: Double = 1, dpi: Double? = nil, embed: EmbedMode = .auto,
         quality: Int = 90, lossless: Bool = false, flatten: RGBAColor? = nil, maxPixels: Int = 256_000_000) {
        self.init(style: style, picture: PictureOptions(flatten: flatten, maxPixels: maxPixels),
                  output: OutputOptions(format: format, scale: scale, dpi: dpi, embed: embed, quality: quality,
                                        lossless: lossless))
    }
}
