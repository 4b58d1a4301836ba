import FramedSystem

/// How the picture is stored inside an SVG or PDF.
public enum EmbedMode: String, Sendable, Equatable, CaseIterable, Codable {
    /// An untouched JPEG source is passed through byte for byte; other opaque pictures from
    /// lossy sources (JPEG, WebP, HEIC, AVIF) are re-encoded as JPEG; pictures with alpha and
    /// pictures from lossless sources (PNG, TIFF, GIF: screenshots, scans, diagrams) stay
    /// lossless, so text keeps sharp edges.
    case auto
    /// Always JPEG (a picture with alpha needs `PictureOptions.flatten`).
    case jpeg
    /// Always lossless (PNG in SVG, Flate in PDF).
    case png
}

/// The output stage: which format, at what resolution, how the picture is stored in SVG and PDF,
/// and the document's metadata.
public struct OutputOptions: Sendable, Equatable {
    /// The format to write; nil: from the output file's extension (`.svg`, `.pdf`, `.png`), and
    /// PNG for output kept in memory.
    public var format: OutputFormat?
    /// PNG, JPEG and TIFF: device pixels per CSS px (2 for a HiDPI figure). Ignored when `dpi`
    /// is set.
    public var scale: Double
    /// A set: the scales to write one output each at (`1, 2, 3` for `shot.png`, `shot@2x.png`,
    /// `shot@3x.png`), the picture decoded once for all of them (`Framer.frame(_:scales:)`).
    /// Empty (the default): one output, at `scale`. PNG, JPEG and TIFF only: SVG and PDF are
    /// vector, one file serving every scale.
    public var scales: [Double] = []
    /// A set of looks: the light and dark versions to write one output each for
    /// (`Framer.variant(_:)`), each at every scale. Empty (the default): the settings as they are.
    public var variants: [Variant] = []
    /// PNG, JPEG and TIFF: device pixels per inch of the whole output. SVG and PDF: pixels per
    /// inch of the embedded picture. Nil: the format's default (`OutputFormat.defaultPictureDPI`;
    /// PNG 96 times `scale`; JPEG and TIFF 300, or 96 times a `scale` other than 1).
    public var dpi: Double?
    /// SVG and PDF: how the picture is stored.
    public var embed: EmbedMode
    /// JPEG quality (1-100) when the picture is re-encoded as JPEG, and of a JPEG output.
    public var quality: Int
    /// SVG and PDF: never re-encode the picture lossily.
    public var lossless: Bool
    /// PNG: move the frame's straight edges to whole device pixels so they come out crisp.
    public var snap: Bool
    /// PDF: title, author, creator and dates.
    public var metadata: DocumentMetadata
    /// PDF: the PDF/X variant to write (`pdf/x-4`), nil for a plain PDF. Any other format with
    /// a variant is an error (`FramingError.Problem.pdfVariantNeedsPDF`).
    public var pdfVariant: PDFVariant?
    /// PDF/X: the ICC profile file (RGB or CMYK) of the output intent; nil embeds sRGB.
    public var outputIntent: String?
    /// PDF: the file to write a soft proof into, a PNG of what the press prints (each page
    /// through the output intent's profile, back to sRGB with the paper's white, at `dpi`); a
    /// document of several pages writes one each, numbered (`Framer.proofPath`). Nil: no proof.
    /// Any other format with a proof is an error (`FramingError.Problem.proofNeedsPDF`).
    public var proof: String? = nil
    /// With `proof`: the colour the proof paints where the press cannot print the page's
    /// colour; nil: those pixels show as near as the press comes.
    public var gamutWarning: RGBAColor? = nil

    /// The defaults: format from the file name, scale 1, the format's resolution, `auto`
    /// embedding at quality 90, snapped edges, metadata naming framed as the creator, dated
    /// when framed (`DocumentMetadata.framingDate()`), and a plain PDF.
    public init(format: OutputFormat? = nil, scale: Double = 1, dpi: Double? = nil, embed: EmbedMode = .auto,
                quality: Int = 90, lossless: Bool = false, snap: Bool = true,
                metadata: DocumentMetadata = DocumentMetadata(creator: Framer.creator),
                pdfVariant: PDFVariant? = nil, outputIntent: String? = nil) {
        self.format = format; self.scale = scale; self.dpi = dpi; self.embed = embed
        self.quality = quality; self.lossless = lossless; self.snap = snap; self.metadata = metadata
        self.pdfVariant = pdfVariant; self.outputIntent = outputIntent
    }
}

/// One output of a set: the look's version and the scale it is framed at.
public struct SetMember: Sendable, Equatable, Hashable {
    /// The light or dark version (`Framer.variant(_:)`); nil: the settings as they are.
    public var variant: Variant?
    /// Device pixels per CSS px.
    public var scale: Double

    /// A member at `scale` in `variant`.
    public init(variant: Variant? = nil, scale: Double) { self.variant = variant; self.scale = scale }
}

extension OutputOptions {
    /// The outputs these options ask for: each of `variants` (or the settings as they are) at
    /// each of `scales` (or `scale`), variant by variant.
    public var setMembers: [SetMember] {
        let variants: [Variant?] = variants.isEmpty ? [nil] : variants
        let scales = scales.isEmpty ? [scale] : scales
        return variants.flatMap { variant in scales.map { SetMember(variant: variant, scale: $0) } }
    }
}
