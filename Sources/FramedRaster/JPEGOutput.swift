/// The JPEG that a photo lab takes: 8-bit RGB at full chroma resolution, the sRGB profile in APP2,
/// the resolution in the JFIF header.
package enum JPEGOutput {
    /// `image` (opaque RGBA, read where it lies; alpha is ignored) as a JPEG at `quality` with
    /// 4:4:4 chroma (labs print borders where 4:2:0 would blur the colour), `resolution` as the
    /// JFIF density in dots per inch, and `profile` embedded as APP2 `ICC_PROFILE` segments.
    package static func encode(_ image: RGBARows, resolution: Double?, quality: Int, profile: ICCProfile,
                               threads: Int?) throws(RasterError) -> [UInt8] {
        let jpeg = try PictureEncoder.jpeg(image, resolution: resolution, quality: quality, chroma444: true, threads: threads)
        return try embedding(profile.bytes, in: jpeg, comment: OutputMark.software)
    }

    /// The largest profile chunk in one APP2 segment: 65535 bytes less the length field (2),
    /// the `ICC_PROFILE\0` name (12) and the chunk's number and count (2).
    static let chunkSize = 65_519

    /// `jpeg` with `icc` inserted as APP2 segments after its SOI and any APP0 (JFIF) segment,
    /// where ICC.1 (Annex B) puts them: each holds `ICC_PROFILE\0`, its number from 1, the count,
    /// and up to `chunkSize` bytes of the profile; `comment` (framed's `OutputMark`), when
    /// given, goes before them as a COM segment.
    static func embedding(_ icc: [UInt8], in jpeg: [UInt8], comment: String? = nil) throws(RasterError) -> [UInt8] {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw .encodingFailed(.jpeg, "the encoder's output does not start with SOI")
        }
        let chunks = stride(from: 0, to: icc.count, by: chunkSize).map { icc[$0..<min($0 + chunkSize, icc.count)] }
        guard !chunks.isEmpty, chunks.count <= 255 else {
            throw .encodingFailed(.jpeg, "an ICC profile of \(icc.count) bytes does not fit in a JPEG")
        }
        var at = 2
        if jpeg.count >= 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
            guard at <= jpeg.count else { throw .encodingFailed(.jpeg, "the encoder's APP0 segment is cut short") }
        }
        var segments: [UInt8] = []
        if let comment {
            let text = Array(comment.utf8.prefix(65_000)), length = 2 + text.count
            segments += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text
        }
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(chunks.count)]
            segments += chunk
        }
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + segments.count)
        out += jpeg[..<at]
        out += segments
        out += jpeg[at...]
        return out
    }
}
