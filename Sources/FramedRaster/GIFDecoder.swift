internal import CCodecs

/// GIF through giflib, read as giflib asks for bytes: the first image on its canvas (the logical
/// screen), transparent where the image does not cover it and where its transparent colour is;
/// an animation gives its first frame and a warning.
package struct GIFDecoder: PictureDecoder {
    package static let format = PictureFormat.gif
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.gif, input) { ccodecs_gif_info($0, $1, $2) }
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels)
        return try shimDecode(.gif, input, limit: limit, options: options) { ccodecs_gif_open($0, limit, $1, $2, $3) }
    }
}
