/// The picture stage: how a picture is read and brought to the pixels it needs, and the limits
/// that guard memory and print quality.
public struct PictureOptions: Sendable, Equatable {
    /// Turn the picture upright by its EXIF orientation; false keeps the stored pixels.
    public var autoOrient: Bool
    /// How colours are brought into sRGB from an embedded ICC profile or CMYK: ICC's rendering
    /// intent (not the PDF/X output intent, `OutputOptions.outputIntent`).
    public var renderingIntent: RenderingIntent
    /// Composite a picture with alpha onto this colour first (its alpha is ignored).
    public var flatten: RGBAColor?
    /// The kernel that shrinks (or enlarges) the picture to the pixels its place needs.
    public var resample: ResamplingFilter
    /// Pictures with more pixels are refused from their header, before anything is decoded; PNG
    /// outputs with more pixels are refused too. One number bounds the memory a picture takes.
    public var maxPixels: Int
    /// A picture placed at fewer pixels per inch than this gets a warning
    /// (`FramingWarning.belowMinimumPPI`); nil: no check.
    public var minimumPPI: Double?
    /// With `minimumPPI`: a picture below it is an error instead, and nothing is written.
    public var failBelowMinimumPPI: Bool
    /// Remove the picture's uniform edges before layout (ImageMagick's `-trim`): rows and
    /// columns within this colour distance of the top-left corner's colour, a fraction of the
    /// largest distance as `-fuzz` takes it (0 exact, 0.1 for `10%`); nil: no trimming.
    public var trim: Double? = nil
    /// Callouts drawn over the picture and redactions of its pixels, in its own pixels (after
    /// orientation and trimming) or percent of them; nil for none. A file is read when the
    /// picture is framed (`AnnotationSource.file`).
    public var annotations: AnnotationSource? = nil

    /// The defaults: upright, perceptual intent, no flattening, Lanczos-3, 256 megapixels, no
    /// resolution check.
    public init(autoOrient: Bool = true, renderingIntent: RenderingIntent = .perceptual, flatten: RGBAColor? = nil,
                resample: ResamplingFilter = .best, maxPixels: Int = 256_000_000, minimumPPI: Double? = nil,
                failBelowMinimumPPI: Bool = false) {
        self.autoOrient = autoOrient; self.renderingIntent = renderingIntent; self.flatten = flatten; self.resample = resample
        self.maxPixels = maxPixels; self.minimumPPI = minimumPPI; self.failBelowMinimumPPI = failBelowMinimumPPI
    }

    /// `renderingIntent` by a shorter name, which reads too much like the output intent.
    @available(*, deprecated, renamed: "renderingIntent")
    public var intent: RenderingIntent {
        get { renderingIntent }
        set { renderingIntent = newValue }
    }
}
