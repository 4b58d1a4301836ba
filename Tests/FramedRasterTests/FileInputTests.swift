import CCodecs
import Foundation
import FramedTestSupport
import FramedRaster
import Testing

/// Decoding from a file, which the JPEG and PNG decoders read a chunk at a time (issue 6),
/// gives exactly what decoding the same bytes in memory gives: the same pixels, metadata,
/// warnings, or the same error, with framed's engines (which read files their own way) and
/// with the libraries alone, both named here whatever FRAMED_ENGINES says. And the rows the
/// codecs write upright while decoding are the picture turned upright afterwards.
@Suite struct FileInputTests {
    /// A scratch folder, removed with the object.
    final class Folder {
        let url: URL
        init() throws {
            url = try TemporaryFolder.make("framed-file-input")
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        func write(_ bytes: [UInt8], _ name: String = "picture") throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    typealias Outcome<T> = Result<T, RasterError>

    static func outcome<T>(_ body: () throws(RasterError) -> T) -> Outcome<T> { Result(catching: body) }

    /// The 64x32 picture with a mark in three corners (OrientationTests), as a JPEG.
    static let markedJPEG = try! PictureEncoder.jpeg(OrientationTests.marked, quality: 95)

    /// Noise compresses badly: these are larger than a read chunk (CCODECS_READ_CHUNK), so the
    /// file is read in several.
    static let noisyJPEG = try! PictureEncoder.jpeg(Fixture.noise(240, 160), quality: 100)
    static let noisyPNG = try! PictureEncoder.png(Fixture.noise(240, 160))

    /// Adam7 scanlines (filter 0) of an 8-bit RGBA picture: each pass's pixels, row by row.
    static func adam7(_ image: RasterImage) -> [UInt8] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var scanlines: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < image.width && y0 < image.height {
            for y in stride(from: y0, to: image.height, by: dy) {
                scanlines.append(0)
                for x in stride(from: x0, to: image.width, by: dx) {
                    let p = image.pixel(x: x, y: y)
                    scanlines += [p.r, p.g, p.b, p.a]
                }
            }
        }
        return scanlines
    }

    static let interlaced = Fixture.noise(13, 7)

    /// An interlaced RGBA PNG of `interlaced`, with an eXIf chunk for `orientation`.
    static func interlacedPNG(orientation: Int) -> [UInt8] {
        Fixture.png(width: 13, height: 7, depth: 8, colorType: 6, interlace: 1,
                    chunks: [PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: UInt16(orientation)))],
                    scanlines: adam7(interlaced))
    }

    /// Pictures of every kind the decoders take apart differently.
    static let pictures: [String: [UInt8]] = {
        var pictures: [String: [UInt8]] = [
            "JPEG": try! PictureEncoder.jpeg(Fixture.gradient(40, 30)),
            "JPEG larger than a read chunk": noisyJPEG,
            "progressive JPEG": try! PictureEncoder.jpeg(Fixture.noise(240, 160), quality: 100, progressive: true),
            "gray JPEG": try! PictureEncoder.jpeg(Fixture.gradient(40, 30), grayscale: true),
            "arithmetic JPEG": Fixture.jpeg(Fixture.gradient(40, 30), flags: CCODECS_JPEG_ARITHMETIC),
            "JPEG with an Adobe RGB profile": PictureBytes.withICC(try! PictureEncoder.jpeg(Fixture.gradient(40, 30)),
                                                              Fixture.iccProfile(Fixture.adobeRGB, gamma: 563.0 / 256)),
            "CMYK JPEG": CMYKTests.jpeg(.adobe),
            // Markers libjpeg does not keep are skipped: across read chunks, without reading them.
            "JPEG with 130 KB of skipped markers": PictureBytes.inserting([(0xED, [UInt8](repeating: 7, count: 65000)),
                                                                     (0xEE, [UInt8](repeating: 9, count: 65000))],
                                                                    into: noisyJPEG),
            "truncated JPEG": Array(noisyJPEG.prefix(noisyJPEG.count * 2 / 3)),
            "JPEG cut in its header": Array(markedJPEG.prefix(100)),
            "PNG": try! PictureEncoder.png(Fixture.gradient(40, 30)),
            "PNG larger than a read chunk": noisyPNG,
            "16-bit PNG": Fixture.png(width: 2, height: 1, depth: 16, colorType: 2,
                                      scanlines: [0, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC]),
            "PNG with an iCCP profile": Fixture.png(width: 1, height: 1, depth: 8, colorType: 2,
                                                    chunks: [Fixture.iCCP(Fixture.iccProfile(Fixture.adobeRGB, gamma: 2.2))],
                                                    scanlines: [0, 200, 100, 50]),
            "PNG with gAMA": Fixture.png(width: 1, height: 1, depth: 8, colorType: 0,
                                         chunks: [PictureBytes.chunk("gAMA", PictureBytes.be32(100_000))], scanlines: [0, 128]),
            "truncated PNG": Array(noisyPNG.prefix(noisyPNG.count / 2)),
            "PNG cut in its header": Array(noisyPNG.prefix(20)),
            "not a picture": Array("just some text, long enough to be sniffed".utf8),
        ]
        for value in 1...8 {
            pictures["JPEG, EXIF orientation \(value)"] =
                PictureBytes.withEXIF(markedJPEG, PictureBytes.exif(orientation: UInt16(value), bigEndian: value % 2 == 0))
            let png = try! PictureEncoder.png(OrientationTests.marked), iend = png.count - 12
            pictures["PNG, eXIf orientation \(value) after the image data"] =
                Array(png[..<iend]) + PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: UInt16(value))) + Array(png[iend...])
            pictures["interlaced PNG, eXIf orientation \(value)"] = interlacedPNG(orientation: value)
        }
        for name in ["png-exif-after-bad-chunk.png", "png-300mb-exif-chunk.png"] {
            pictures["hostile \(name)"] = try! HostileInputTests.fixture(name)
        }
        return pictures
    }()

    @Test(arguments: pictures.keys.sorted())
    func aFileDecodesAsItsBytesDo(name: String) throws {
        let bytes = try #require(Self.pictures[name])
        let folder = try Folder()
        let path = try folder.write(bytes)
        #expect(Self.outcome { () throws(RasterError) in try Pictures.info(.file(path)) }
                == Self.outcome { () throws(RasterError) in try Pictures.info(.bytes(bytes)) })
        for engines in [Engines.all, []] {
            for var options in [DecodeOptions(), DecodeOptions(scaleDenominator: 4), DecodeOptions(autoOrient: false)] {
                options.engines = engines
                let fromFile = Self.outcome { () throws(RasterError) in try Pictures.decode(.file(path), options: options) }
                let fromBytes = Self.outcome { () throws(RasterError) in try Pictures.decode(.bytes(bytes), options: options) }
                #expect(fromFile == fromBytes,
                        "\(name), scale 1/\(options.scaleDenominator), auto-orient \(options.autoOrient), engines \(engines)")
            }
        }
    }

    /// The codecs write each row where the orientation puts it (ccodecs_layout): the same as
    /// decoding as stored and turning the picture afterwards (`Orientation.applied`).
    @Test(arguments: 1...8)
    func rowsPlacedUprightAreThePictureTurned(value: Int) throws {
        let orientation = try #require(Orientation(rawValue: value))
        for name in ["JPEG, EXIF orientation \(value)", "PNG, eXIf orientation \(value) after the image data",
                     "interlaced PNG, eXIf orientation \(value)"] {
            let bytes = try #require(Self.pictures[name])
            let stored = try Pictures.decode(.bytes(bytes), options: DecodeOptions(autoOrient: false))
            let upright = try Pictures.decode(.bytes(bytes))
            #expect(stored.orientation == orientation && upright.orientation == orientation, "\(name)")
            #expect(upright.image == orientation.applied(to: stored.image), "\(name)")
        }
        let interlaced = try Pictures.decode(.bytes(Self.interlacedPNG(orientation: value)))
        #expect(interlaced.image == orientation.applied(to: Self.interlaced))
        // Shrunk while decoding (JPEG DCT scaling), too.
        let jpeg = try #require(Self.pictures["JPEG, EXIF orientation \(value)"])
        let half = DecodeOptions(scaleDenominator: 2)
        var storedHalf = half
        storedHalf.autoOrient = false
        #expect(try Pictures.decode(.bytes(jpeg), options: half).image
                == orientation.applied(to: Pictures.decode(.bytes(jpeg), options: storedHalf).image))
    }

    @Test func aFileIsReadWholeOnlyWhenAsked() throws {
        let folder = try Folder()
        let path = try folder.write(Self.noisyJPEG)
        #expect(try difference(PictureSource.file(path).contents(), Self.noisyJPEG) == nil)
        #expect(try difference(Pictures.bytes(contentsOf: path), Self.noisyJPEG) == nil)
        #expect(try PictureSource.bytes([1, 2, 3]).contents() == [1, 2, 3])
        let input = try PictureInput(.file(path))
        #expect(input.count == Self.noisyJPEG.count)
        #expect(try difference(input.contents(), Self.noisyJPEG) == nil)
    }

    @Test func unreadableFilesAreExplained() throws {
        let folder = try Folder()
        let missing = folder.url.appendingPathComponent("missing.jpg").path
        for source in [PictureSource.file(missing)] {
            #expect(throws: RasterError.unreadable("No such file or directory")) { try Pictures.info(source) }
            #expect(throws: RasterError.unreadable("No such file or directory")) { try Pictures.decode(source) }
            #expect(throws: RasterError.unreadable("No such file or directory")) { try source.contents() }
        }
        #expect(throws: RasterError.unreadable("Is a directory")) { try Pictures.info(.file(folder.url.path)) }
        #expect(throws: RasterError.unreadable("Is a directory")) { try PictureSource.file(folder.url.path).contents() }
        let empty = try folder.write([], "empty.png")
        #expect(throws: RasterError.empty) { try Pictures.info(.file(empty)) }
        #expect(throws: RasterError.empty) { try Pictures.decode(.file(empty)) }
    }

    /// A pipe cannot be read twice (nor with pread): it is read whole when opened.
    @Test func aPipeIsReadWhole() throws {
        let folder = try Folder()
        let fifo = folder.url.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let bytes = Self.noisyPNG
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(bytes))
            try? handle.close()
        }
        writer.start()
        let decoded = try Pictures.decode(.file(fifo))
        #expect(decoded == (try Pictures.decode(.bytes(bytes))))
    }

    /// A file cut short after it was opened (its size is taken when it is opened): a JPEG
    /// decodes with libjpeg's premature-end warning, a PNG is a premature end of data; never
    /// a crash, nor pixels that were not decoded.
    @Test(arguments: [Engines.all, []])
    func aFileThatShrinksWhileOpenIsTruncatedData(engines: Engines) throws {
        var options = DecodeOptions()
        options.engines = engines
        let folder = try Folder()
        let jpegPath = try folder.write(Self.noisyJPEG, "shrinking.jpg")
        let jpeg = try PictureInput(.file(jpegPath))
        #expect(truncate(jpegPath, off_t(Self.noisyJPEG.count / 2)) == 0)
        let decoded = try JPEGDecoder().decode(jpeg, options: options)
        #expect(decoded.warningCount > 0 && decoded.image.width == 240)
        #expect(decoded == (try Pictures.decode(.bytes(Array(Self.noisyJPEG.prefix(Self.noisyJPEG.count / 2))), options: options)))

        let pngPath = try folder.write(Self.noisyPNG, "shrinking.png")
        let png = try PictureInput(.file(pngPath))
        #expect(truncate(pngPath, off_t(Self.noisyPNG.count / 2)) == 0)
        #expect(throws: RasterError.corrupt(.png, "premature end of data")) { try PNGDecoder().decode(png, options: options) }
    }
}
