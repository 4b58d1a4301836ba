import Foundation
import Framed
import FramedTestSupport
import Testing

/// The whole job: shrink-on-load, resampling, how the picture is embedded, effective ppi.
struct FramerTests {
    /// A smooth photo-like JPEG of `width` x `height`.
    static func jpeg(_ width: Int, _ height: Int, quality: Int = 90) throws -> [UInt8] {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), UInt8((x + y) % 256), 255]
            }
        }
        return try PictureEncoder.jpeg(RasterImage(width: width, height: height, pixels: pixels), quality: quality)
    }

    static func png(_ width: Int, _ height: Int, alpha: UInt8) throws -> [UInt8] {
        let pixels = [UInt8]((0..<width * height).flatMap { _ in [200, 60, 30, alpha] })
        return try PictureEncoder.png(RasterImage(width: width, height: height, pixels: pixels))
    }

    /// Rows of `pdfimages -list`: (type, width, height, color, comp, enc) for each image.
    static func pdfImages(_ bytes: [UInt8]) throws
        -> [(type: String, width: Int, height: Int, color: String, components: Int, encoding: String)] {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("x.pdf")
        try Support.write(bytes, to: url)
        return try Support.output("pdfimages", ["-list", url.path]).split(separator: "\n").dropFirst(2).map { row in
            let f = row.split(separator: " ", omittingEmptySubsequences: true)
            return (String(f[2]), Int(f[3])!, Int(f[4])!, String(f[5]), Int(f[6])!, String(f[8]))
        }
    }

    @Test(arguments: [
        // (source, need) → scale
        ((6000, 4000), (600, 400), (1, 8)), ((6000, 4000), (751, 400), (1, 4)), ((6000, 4000), (1500, 1000), (1, 4)),
        ((6000, 4000), (1501, 1000), (3, 8)), ((6000, 4000), (1819, 1213), (3, 8)), ((6000, 4000), (2250, 1500), (3, 8)),
        ((6000, 4000), (2251, 1500), (1, 2)), ((6000, 4000), (2250, 1501), (1, 2)), ((6000, 4000), (3000, 2000), (1, 2)),
        ((6000, 4000), (3001, 2000), (1, 1)), ((6000, 4000), (6000, 4000), (1, 1)), ((6001, 4001), (751, 501), (1, 8)),
        ((100, 100), (100, 100), (1, 1)), ((100, 100), (13, 13), (1, 8)), ((100, 100), (14, 14), (1, 4)),
        ((100, 100), (26, 26), (3, 8)), ((100, 100), (38, 38), (3, 8)), ((100, 100), (39, 39), (1, 2)),
    ])
    func shrinkOnLoadPicksTheSmallestScaleThatStillHasEnoughPixels(_ source: (Int, Int), _ need: (Int, Int),
                                                                   _ scale: (Int, Int)) {
        let picked = DecodeOptions.shrinkOnLoadScale(source: source, need: need)
        #expect(picked.numerator == scale.0 && picked.denominator == scale.1)
    }

    @Test func bigJPEGIsDecodedAtAnEighthForASmallPNG() throws {
        let data = try Self.jpeg(2400, 1600)
        var style = FrameStyle.classic
        style.size = LengthSize(width: .px(306), height: .px(206))
        let framed = try Framer(style, format: .png).frame(data)
        #expect(framed.report.scaleNumerator == 1 && framed.report.scaleDenominator == 8)
        #expect(framed.report.embeddedPixels == PixelSize(width: 300, height: 200))
        #expect(abs(framed.report.effectivePPI - 96) < 1e-9)
        let image = try Pictures.decode(data: framed.bytes).image
        #expect(image.width == 336 && image.height == 236)
        // The picture's centre still shows the gradient's middle.
        let centre = image.pixel(x: 168, y: 118)
        #expect(abs(Int(centre.r) - 128) < 12 && abs(Int(centre.g) - 128) < 12)
    }

    /// At 1/4 (libjpeg-turbo's SIMD 2x2 and 4x4 IDCTs) and at 3/8 (its 3x3 and 6x6, in C): a
    /// 400x300 and a 700x466 picture from 2400x1600. The largest difference allowed is twice
    /// what was measured (6 at 1/4; 13 at 3/8, whose 3-point IDCT is the coarser filter).
    @Test(arguments: [(406, 306, 2, 12), (706, 472, 3, 26)])
    func shrinkOnLoadGivesThePictureAFullDecodeGives(width: Int, height: Int, eighths: Int, largest: Int) throws {
        let data = try Self.jpeg(2400, 1600)
        var style = FrameStyle.classic
        style.size = LengthSize(width: .px(Double(width)), height: .px(Double(height)))
        let shrunk = try Framer(style, format: .png).frame(data)
        #expect(shrunk.report.scaleNumerator * 8 == eighths * shrunk.report.scaleDenominator)
        let full = try Pictures.decode(data: data).image
        #expect(full.width == 2400)
        // The PNG backend snaps the frame and the picture to whole pixels: so does the reference.
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 2400, pixelHeight: 1600), style: style)
            .snapped(devicePixelsPerPoint: 96.0 / 72)
        let reference = try Pictures.decode(data: FrameRenderer.render(full, layout: layout, style: style, options: RenderOptions(format: .png))).image
        let a = try Pictures.decode(data: shrunk.bytes).image
        #expect(a.width == reference.width && a.height == reference.height)
        var total = 0, worst = 0
        for i in 0..<a.pixels.count {
            let d = abs(Int(a.pixels[i]) - Int(reference.pixels[i]))
            total += d; worst = max(worst, d)
        }
        let mean = Double(total) / Double(a.pixels.count)
        print("shrink-on-load vs full decode: mean \(mean), max \(worst)")
        #expect(mean < 1.0, "mean difference \(mean)")
        #expect(worst <= largest, "largest difference \(worst)")
    }

    @Test func untouchedJPEGIsPassedThroughIntoPDFAndSVG() throws {
        let data = try Self.jpeg(320, 200)
        // Natural size: 320x200 px placed at 320x200 px needs exactly the source's pixels at 96 dpi.
        for format in [OutputFormat.pdf, .svg] {
            let framed = try Framer(.classic, format: format, dpi: 96).frame(data)
            #expect(framed.report.embedding == .passthroughJPEG)
            if format == .pdf {
                let images = try Self.pdfImages(framed.bytes)
                #expect(images.count == 1 && images[0].encoding == "jpeg" && images[0].width == 320)
                #expect(framed.bytes.firstRange(of: data) != nil, "the source JPEG's bytes, byte for byte")
            } else {
                let svg = String(decoding: framed.bytes, as: UTF8.self)
                #expect(svg.contains("data:image/jpeg;base64," + Data(data).base64EncodedString()), "byte for byte")
                #expect(svg.components(separatedBy: "<image").count == 2)
            }
        }
    }

    @Test func resampledOpaquePictureIsReencodedAsJPEG() throws {
        let data = try Self.jpeg(1600, 1000)
        var style = FrameStyle.classic
        style.size = LengthSize(width: .px(406), height: .px(256))
        let framed = try Framer(style, format: .pdf, quality: 80).frame(data)
        #expect(framed.report.embedding == .jpeg(quality: 80))
        // 400x250 px = 4.17 x 2.6 in at 300 dpi = 1250x781 pixels; decoded at 1/1 (1600 ≥ 1250, 800 < 1250).
        #expect(framed.report.embeddedPixels == PixelSize(width: 1250, height: 781))
        #expect(framed.report.scaleNumerator == 1 && framed.report.scaleDenominator == 1)
        let images = try Self.pdfImages(framed.bytes)
        #expect(images.map(\.encoding) == ["jpeg"] && images[0].width == 1250)
        #expect(abs(framed.report.effectivePPI - 299.8) < 0.5)
    }

    @Test func transparentPictureIsLosslessAndLosslessIsHonoured() throws {
        let framed = try Framer(.classic, format: .pdf).frame(try Self.png(64, 64, alpha: 128))
        #expect(framed.report.embedding == .lossless)
        #expect(try Self.pdfImages(framed.bytes).map(\.type) == ["image", "smask"])
        let svg = try Framer(.classic, format: .svg).frame(try Self.png(64, 64, alpha: 128))
        #expect(String(decoding: svg.bytes, as: UTF8.self).contains("data:image/png;base64,"))

        let opaque = try Framer(.classic, format: .pdf, lossless: true).frame(try Self.jpeg(640, 400))
        #expect(opaque.report.embedding == .lossless)
        #expect(try Self.pdfImages(opaque.bytes).map(\.encoding) == ["image"])
        let screenshot = try Framer(.classic, format: .pdf).frame(try Self.png(640, 400, alpha: 255))
        #expect(screenshot.report.embedding == .lossless, "an opaque PNG source stays lossless")
        let forcedPNG = try Framer(.classic, format: .svg, dpi: 96, embed: .png).frame(try Self.jpeg(320, 200))
        #expect(forcedPNG.report.embedding == .lossless)
    }

    /// A gray picture goes into the PDF as a one-channel JPEG (no chroma to encode), and it
    /// looks as it does embedded losslessly; a colour picture keeps three channels.
    @Test func grayPictureIsReencodedAsOneChannelJPEG() throws {
        var pixels = [UInt8]()
        pixels.reserveCapacity(1600 * 1000 * 4)
        for y in 0..<1000 {
            for x in 0..<1600 {
                let v = UInt8((x / 8 + y / 6) % 256)
                pixels += [v, v, v, 255]
            }
        }
        // Resampled on the way (1600 px wide, 1250 needed), so re-encoded rather than passed through.
        let gray = RasterImage(width: 1600, height: 1000, pixels: pixels)
        #expect(gray.isGrayscale)
        let data = try PictureEncoder.jpeg(gray, quality: 95, grayscale: true)
        var style = FrameStyle.classic
        style.size = LengthSize(width: .px(330), height: .px(210))
        let framed = try Framer(style, format: .pdf).frame(data)
        #expect(framed.report.embedding == .jpeg(quality: 90))
        let images = try Self.pdfImages(framed.bytes)
        #expect(images.map(\.encoding) == ["jpeg"] && images.map(\.color) == ["gray"] && images.map(\.components) == [1])

        let exact = try Framer(style, format: .pdf, lossless: true).frame(data)
        #expect(try Self.pdfImages(exact.bytes).map(\.encoding) == ["image"])
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("jpeg.pdf"), b = folder.appendingPathComponent("exact.pdf")
        try Support.write(framed.bytes, to: a)
        try Support.write(exact.bytes, to: b)
        let seen = try Support.rasterisePDF(a, dpi: 150), wanted = try Support.rasterisePDF(b, dpi: 150)
        #expect(seen.width == wanted.width && seen.height == wanted.height)
        var total = 0, worst = 0
        for i in seen.pixels.indices {
            let d = abs(Int(seen.pixels[i]) - Int(wanted.pixels[i]))
            total += d; worst = max(worst, d)
        }
        let mean = Double(total) / Double(seen.pixels.count)
        #expect(mean < 1.0 && worst < 24, "JPEG quality 90 against the exact pixels: mean \(mean), worst \(worst)")

        let colour = try Framer(style, format: .pdf).frame(try Self.jpeg(1600, 1000))
        #expect(try Self.pdfImages(colour.bytes).map(\.components) == [3])
    }

    @Test func jpegEmbeddingOfATransparentPictureNeedsFlatten() throws {
        let data = try Self.png(64, 64, alpha: 100)
        #expect(throws: FramingError(picture: Framer.bytesLabel, problem: .transparencyInJPEG)) {
            try Framer(.classic, format: .pdf, embed: .jpeg).frame(data)
        }
        let flat = try Framer(.classic, format: .pdf, embed: .jpeg, flatten: .white).frame(data)
        #expect(flat.report.embedding == .jpeg(quality: 90))
        #expect(try Self.pdfImages(flat.bytes).map(\.type) == ["image"], "no soft mask after flattening")
    }

    @Test func flattenCompositesOntoTheColour() throws {
        // Red at alpha 100 over white: 255 * 100/255 + 255 * (155/255) = 255 for R; G, B = 155 + ...
        let data = try Self.png(20, 20, alpha: 100)
        let framed = try Framer(FrameStyle(), format: .png, flatten: .white).frame(data)
        let p = try Pictures.decode(data: framed.bytes).image.pixel(x: 10, y: 10)
        #expect(p.a == 255)
        let expected: Int = (60 * 100 + 255 * 155) / 255
        #expect(abs(Int(p.g) - expected) <= 1)
    }

    @Test func tooManyPixelsAreRefusedFromTheHeader() throws {
        let data = try Self.jpeg(400, 300)
        #expect(throws: FramingError(picture: Framer.bytesLabel,
                                     problem: .picture(.tooLarge(width: 400, height: 300, limit: 100_000)))) {
            try Framer(.classic, format: .png, maxPixels: 100_000).frame(data)
        }
    }
}
