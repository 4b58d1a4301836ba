import FramedRaster

/// One decoder over arbitrary bytes: the header (`info`), then a full decode through the same
/// path as `framed` (C shim and every one of framed's engines, colour management, orientation)
/// with options the input picks. Beyond not crashing, checks that a decoded picture is what its
/// header promised, and (one input in two) that the plain libraries give the same pixels.
package enum DecoderFuzz {
    package static func run(_ data: [UInt8], _ decoder: some PictureDecoder) {
        let info = try? decoder.info(data)
        let knobs = Knobs(data)
        var options = DecodeOptions(maxPixels: FuzzLimits.maxPixels)
        let scale = knobs.pick([(1, 1)] + DecodeOptions.shrinkScales, at: 0)
        options.scaleNumerator = scale.0
        options.scaleDenominator = scale.1
        options.autoOrient = !knobs.flag(2)
        options.intent = knobs.flag(3) ? .relative : .perceptual
        // The default CMYK profile makes a slow transform (about 0.1 s): one input in 16 uses it.
        options.cmykProfilePath = knobs.bits >> 4 & 15 == 0 ? ColorManagement.defaultCMYKProfilePath : nil
        options.threads = knobs.flag(7) ? 2 : 1
        // Every engine, whatever FRAMED_ENGINES says; on two threads, the reduced engine's
        // entropy decoding at 1/8, 1/4, 3/8 or 1/2 splits even small data.
        options.engines = knobs.flag(8) ? Engines.all.union(.jpegReducedAlwaysSplit) : .all
        let decoded: DecodedPicture
        do { decoded = try decoder.decode(data, options: options) } catch {
            if case .tooLarge(let width, let height, _) = error {
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                require(overflow || pixels > FuzzLimits.maxPixels, "refused \(width)x\(height) as too large")
            }
            if knobs.flag(4) { compareWithFile(data, decoder, options, expected: nil) }
            if knobs.flag(6) { compareWithLibraries(data, decoder, options, expected: nil) }
            return
        }
        // One input in two is also decoded with no engine: a PNG by libpng's rows (framed reads
        // most PNGs' image data itself), a JPEG by libjpeg alone (every scan read, also those a
        // 1/8 decode leaves unread, and its own entropy decoding).
        if knobs.flag(6) { compareWithLibraries(data, decoder, options, expected: decoded) }
        // One input in two is also decoded from a file, which JPEG and PNG read a chunk at a
        // time: the same picture, or the same failure.
        if knobs.flag(4) { compareWithFile(data, decoder, options, expected: decoded) }
        // One in two is decoded again while a second thread resizes it: the same as resizing
        // after. Not for pictures over 64K pixels: two resizes of a 16x32268 WebP canvas took
        // 0.45 s in this instrumented build, and such inputs crowded the WebP corpus.
        if knobs.flag(5) && decoded.image.width * decoded.image.height <= 1 << 16 {
            compareResizing(data, decoder, options, expected: decoded)
        }
        let image = decoded.image
        require(image.width > 0 && image.height > 0, "decoded an empty \(image.width)x\(image.height) picture")
        require(image.pixels.count == image.width * image.height * 4, "pixel buffer of the wrong size")
        require(image.width * image.height <= FuzzLimits.maxPixels, "decoded more pixels than the limit")
        guard let info else { return }
        // What the header said, shrunk as the decoder says it shrank, turned as it was turned.
        let n = decoded.scaleNumerator, d = decoded.scaleDenominator
        let stored = ((info.width * n + d - 1) / d, (info.height * n + d - 1) / d)
        let turned = options.autoOrient ? decoded.orientation : .up
        let expected = turned.orientedSize(width: stored.0, height: stored.1)
        require(decoded.orientation == info.orientation,
                     "header says orientation \(info.orientation), decoding found \(decoded.orientation)")
        require(image.width == expected.width && image.height == expected.height,
                     "header says \(info.width)x\(info.height) (\(n)/\(d), \(turned)), decoded \(image.width)x\(image.height)")
    }

    /// Decodes `data` again, resized to a third of its size as it decodes
    /// (`DecodeOptions.resize`), and requires what resizing the decoded picture gives.
    static func compareResizing(_ data: [UInt8], _ decoder: some PictureDecoder, _ options: DecodeOptions,
                                expected: DecodedPicture) {
        let size = (max(1, expected.image.width / 3), max(1, expected.image.height / 3))
        var options = options
        options.resize = ResizeRequest(width: size.0, height: size.1, minimumPixels: 0)
        guard let resized = try? decoder.decode(data, options: options) else {
            require(false, "decodes, but not while resizing")
            return
        }
        let wanted = Resampler.resize(expected.image, width: size.0, height: size.1)
        let got = resized.resampled ? resized.image : Resampler.resize(resized.image, width: size.0, height: size.1)
        require(got == wanted, "resizing while decoding gives other pixels than resizing afterwards")
    }

    /// Decodes `data` again with no engine (`DecodeOptions.engines` empty): the same pixels.
    /// A PNG through libpng's rows must also refuse what framed's reader refuses, and decode what
    /// it decodes (framed's reader makes libpng's checks, up to the end of the zlib stream). A
    /// JPEG read by libjpeg alone, every scan of a progressive one: what that decodes, framed
    /// decodes to the same pixels; not the other way round, as damage inside a scan that framed
    /// leaves unread can stop libjpeg without stopping framed.
    static func compareWithLibraries(_ data: [UInt8], _ decoder: some PictureDecoder, _ options: DecodeOptions,
                                     expected: DecodedPicture?) {
        let jpeg = type(of: decoder).format == .jpeg
        compareWithOtherWay(data, decoder, options, expected: expected,
                            other: jpeg ? "libjpeg reading every scan" : "the libraries alone",
                            otherMayRefuseMore: jpeg) { $0.engines = [] }
    }

    /// Decodes `data` again with `change` made to the options, and requires the pixels framed
    /// gave (`expected`; nil: it refused the file). The other way must refuse what framed
    /// refuses, and decode what framed decodes unless `otherMayRefuseMore`.
    static func compareWithOtherWay(_ data: [UInt8], _ decoder: some PictureDecoder, _ options: DecodeOptions,
                                    expected: DecodedPicture?, other: String, otherMayRefuseMore: Bool,
                                    _ change: (inout DecodeOptions) -> Void) {
        var options = options
        change(&options)
        guard let decoded = try? decoder.decode(data, options: options) else {
            require(otherMayRefuseMore || expected == nil, "framed decodes what \(other) refuses")
            return
        }
        guard let expected else {
            require(false, "\(other) decodes what framed refuses")
            return
        }
        require(decoded.image == expected.image, "\(other) gives other pixels than framed")
    }

    /// Decodes `data` again from a file (`PictureSource.file`) and requires what the bytes gave.
    static func compareWithFile(_ data: [UInt8], _ decoder: some PictureDecoder, _ options: DecodeOptions,
                                expected: DecodedPicture?) {
        let path = FuzzFile.store(data)
        let fromFile: DecodedPicture?
        do {
            let input = try PictureInput(.file(path))
            fromFile = try decoder.decode(input, options: options)
        } catch {
            fromFile = nil
        }
        require((fromFile == nil) == (expected == nil),
                "from bytes: \(expected == nil ? "failed" : "decoded"); from a file: \(fromFile == nil ? "failed" : "decoded")")
        if let fromFile, let expected {
            require(fromFile.image.width == expected.image.width && fromFile.image.height == expected.image.height
                        && fromFile.image.pixels == expected.image.pixels,
                    "a file decodes to other pixels than the same bytes")
        }
    }
}
