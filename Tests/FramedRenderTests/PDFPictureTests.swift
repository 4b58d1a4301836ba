import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import FramedTestSupport
import Testing

/// The lossless picture that framed writes into a PDF itself (`PDFPicture`): its zlib streams,
/// and the pixels a PDF reader gets back.
struct PDFPictureTests {
    static func picture(width: Int, height: Int, gray: Bool = false, alpha: Bool = true) -> RasterImage {
        Support.busyPicture(width: width, height: height, gray: gray, alpha: alpha)
    }

    /// Wraps a zlib stream of predicted rows as the IDAT of an 8-bit PNG (gray or RGB), which
    /// libpng then decodes: an independent reading of the rows, the filters and the checksum.
    static func decodeAsPNG(_ stream: [UInt8], width: Int, height: Int, samples: Int) throws -> RasterImage {
        try Pictures.decode(data: png(stream, width: width, height: height, samples: samples)).image
    }

    /// The PNG file whose IDAT is `stream`.
    static func png(_ stream: [UInt8], width: Int, height: Int, samples: Int) -> [UInt8] {
        let colorType: UInt8 = samples == 4 ? 6 : samples == 3 ? 2 : 0
        let header = PictureBytes.be32(UInt32(width)) + PictureBytes.be32(UInt32(height)) + [8, colorType, 0, 0, 0]
        return PictureBytes.pngSignature + PictureBytes.chunk("IHDR", header) + PictureBytes.chunk("IDAT", stream)
            + PictureBytes.chunk("IEND", [])
    }

    /// Every plane, compressed in one band or cut into several (as on a machine with that many
    /// cores), reads back exactly; the bands join into one stream with one checksum.
    @Test(arguments: [1, 2, 3, 7])
    func planesReadBackExactlyWhateverTheBands(bands: Int) throws {
        let image = Self.picture(width: 97, height: 61)
        for plane in [FlateRows.Plane.rgba, .rgb, .gray, .alpha] {
            let stream = try #require(FlateRows.compress(image, plane: plane, bands: bands))
            let decoded = try Self.decodeAsPNG(stream, width: 97, height: 61, samples: plane.samples)
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                let want: [UInt8] = switch plane {
                case .rgba: Array(image.pixels[i..<i + 3])  // and alpha, below
                case .rgb: Array(image.pixels[i..<i + 3])
                case .gray: Array(repeating: image.pixels[i], count: 3)
                case .alpha: Array(repeating: image.pixels[i + 3], count: 3)
                }
                guard Array(decoded.pixels[i..<i + 3]) == want, plane != .rgba || decoded.pixels[i + 3] == image.pixels[i + 3] else {
                    Issue.record("\(plane), \(bands) bands: pixel \(i / 4) is \(decoded.pixels[i..<i + 3]), not \(want)")
                    return
                }
            }
        }
    }

    /// framed's PNGs, whose rows are compressed in bands on every core, read back exactly by
    /// ImageMagick's own libpng, which checks the Adler-32 that joins the bands (framed's
    /// decoder does not).
    @Test func largePNGsReadBackExactlyElsewhere() throws {
        let image = Self.picture(width: 1200, height: 900)  // 4.3 MB of rows: 4 bands
        for dropAlpha in [false, true] {
            let png = try PictureEncoder.png(image, dropAlpha: dropAlpha)
            let result = try Tool.run("convert", ["png:-", dropAlpha ? "rgb:-" : "rgba:-"], stdin: Data(png))
            #expect(result.status == 0, "\(result.stderr)")
            let want = dropAlpha ? stride(from: 0, to: image.pixels.count, by: 4).flatMap { image.pixels[$0..<$0 + 3] }
                : image.pixels
            #expect(difference(Array(result.stdout), want) == nil)
        }
    }

    /// `pdfimages -png` of the PDF: (type, colour, file) for each image, in order.
    static func extractedImages(_ pdf: [UInt8]) throws -> [(type: String, color: String, image: RasterImage)] {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("x.pdf")
        try Data(pdf).write(to: url)
        let list = try Tool.run("pdfimages", ["-list", url.path]).output
        let rows = list.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        #expect(try Tool.run("pdfimages", ["-png", url.path, folder.appendingPathComponent("img").path]).status == 0)
        return try rows.enumerated().map { index, row in
            let file = folder.appendingPathComponent("img-" + String(repeating: "0", count: 3 - String(index).count) + "\(index).png")
            return (String(row[2]), String(row[5]), try Pictures.decode(contentsOf: file.path).image)
        }
    }

    /// A lossless picture in a PDF: poppler reads back exactly the pixels that were embedded,
    /// straight colour and alpha (Cairo's own embedding went through premultiplied pixels), as
    /// RGB or gray samples with a soft mask only when there is alpha.
    @Test(arguments: [(false, true), (true, true), (false, false), (true, false)])
    func losslessPictureReadsBackExactly(gray: Bool, alpha: Bool) throws {
        let image = Self.picture(width: 300, height: 200, gray: gray, alpha: alpha)
        let style = FrameStyle(size: LengthSize(width: .px(320), height: .px(220)), border: .px(4),
                               background: RGBAColor(red8: 128, green8: 128, blue8: 128))
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 300, pixelHeight: 200), style: style)
        let pdf = try FrameRenderer.render(EmbeddedPicture(image: image), layout: layout, style: style,
                                           options: RenderOptions(format: .pdf))
        let images = try Self.extractedImages(pdf)
        #expect(images.map(\.type) == (alpha ? ["image", "smask"] : ["image"]))
        #expect(images.first?.color == (gray ? "gray" : "rgb"))
        let color = try #require(images.first).image
        #expect(color.width == 300 && color.height == 200)
        var wrong = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            if color.pixels[i..<i + 3] != image.pixels[i..<i + 3] { wrong += 1 }
            if alpha, images[1].image.pixels[i] != image.pixels[i + 3] { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(pdf.firstRange(of: Array("framed picture".utf8)) == nil, "no placeholder is left")
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("picture.pdf")
        try Data(pdf).write(to: url)
        #expect(try Tool.run("qpdf", ["--check", url.path]).status == 0, "qpdf --check")
    }

    /// A resource list names each resource once: Cairo lists an object again for each use, and
    /// a duplicated key is what qpdf and preflight report. Only plain lists of references whose
    /// repeats agree are changed.
    @Test func resourceListsNameEachResourceOnce() {
        func fixed(_ text: String) -> String {
            String(decoding: PDFCompaction.withoutRepeatedResources(Array(text.utf8)), as: UTF8.self)
        }
        #expect(fixed("<< /ExtGState << /a0 << /CA 1 /ca 1 >> >> /XObject << /x6 6 0 R /x7 7 0 R /x8 8 0 R /x7 7 0 R >> >>")
                == "<< /ExtGState << /a0 << /CA 1 /ca 1 >> >> /XObject << /x6 6 0 R /x7 7 0 R /x8 8 0 R >> >>")
        #expect(fixed("<< /Pattern << /p5 5 0 R /p5 5 0 R /p5 5 0 R >> /Font << /f-0-0 9 0 R /f-0-0 9 0 R >> >>")
                == "<< /Pattern << /p5 5 0 R >> /Font << /f-0-0 9 0 R >> >>")
        for untouched in ["<< /XObject << /x6 6 0 R /x7 7 0 R >> >>",
                          "<< /XObject << /x6 6 0 R /x6 7 0 R >> >>",
                          "<< /XObject << /x6 6 0 R /x6 << /Type /XObject >> >> >>",
                          "<< /Type /Page /Contents 4 0 R /Resources 3 0 R >>"] {
            #expect(fixed(untouched) == untouched)
        }
    }

    /// Pages: each lossless picture gets its own object, a repeated one is written once, and
    /// each reads back exactly.
    @Test func pagesWriteEachLosslessPictureOnce() throws {
        let a = Self.picture(width: 120, height: 80), b = Self.picture(width: 90, height: 90, gray: true, alpha: false)
        let pages = try [a, b, a].map { image in
            let metrics = PictureMetrics(pixelWidth: image.width, pixelHeight: image.height)
            return RenderPage(picture: EmbeddedPicture(image: image), layout: try FrameLayout(picture: metrics, style: .classic),
                              style: .classic)
        }
        let pdf = try FrameRenderer.render(document: pages, options: RenderOptions(format: .pdf, dpi: 72))
        let images = try Self.extractedImages(pdf)
        // pdfimages lists an image each time a page draws it: a, its mask, b, then a again.
        #expect(images.map(\.type) == ["image", "smask", "image", "image", "smask"])
        #expect(pdf.ranges(of: Array("/Subtype /Image".utf8)).count == 3, "a, a's mask and b, each once")
        for (index, want) in [(0, a), (2, b), (3, a)] {
            let got = images[index].image
            #expect(got.width == want.width && got.height == want.height)
            let same = stride(from: 0, to: want.pixels.count, by: 4).allSatisfy { got.pixels[$0..<$0 + 3] == want.pixels[$0..<$0 + 3] }
            #expect(same, "image \(index)")
        }
    }

    /// Without its placeholder in the file, the compaction gives up (and the backend lets Cairo
    /// embed the pixels) rather than writing a PDF without its picture.
    @Test func aMissingPlaceholderIsRefused() throws {
        let image = Self.picture(width: 40, height: 30)
        let style = FrameStyle.classic
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 40, pixelHeight: 30), style: style)
        let pdf = try FrameRenderer.render(EmbeddedPicture(image: image), layout: layout, style: style,
                                           options: RenderOptions(format: .pdf))
        let stranger = try #require(PDFPicture(image, index: 5, threads: 1))
        #expect(PDFCompaction.compact(pdf, pictures: [stranger]) == nil)
        #expect(PDFCompaction.compact(Array("%PDF-1.4 not really".utf8), pictures: []) == nil)
    }
}
