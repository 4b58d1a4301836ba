import Foundation
import FramedTestSupport
import Testing
import FramedRaster
import CCodecs

@Suite struct OrientationTests {
    enum Side: Equatable { case top, bottom, left, right
        var opposite: Side { switch self { case .top: .bottom; case .bottom: .top; case .left: .right; case .right: .left } }
    }

    /// The EXIF 2.3 table: which visual side stored row 0 and stored column 0 are on.
    static let spec: [Int: (row0: Side, column0: Side)] = [
        1: (.top, .left), 2: (.top, .right), 3: (.bottom, .right), 4: (.bottom, .left),
        5: (.left, .top), 6: (.right, .top), 7: (.right, .bottom), 8: (.left, .bottom),
    ]

    /// 64x32, gray with three 16x16 marks: red at stored (0, 0), green at the other end of
    /// row 0, blue at the other end of column 0.
    static let marked: RasterImage = {
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<64 {
                pixels += y < 16 && x < 16 ? [255, 0, 0, 255] : y < 16 && x >= 48 ? [0, 255, 0, 255]
                    : y >= 16 && x < 16 ? [0, 0, 255, 255] : [128, 128, 128, 255]
            }
        }
        return RasterImage(width: 64, height: 32, pixels: pixels)
    }()

    /// The mark's colour in the corner between two sides, or nil for gray.
    static func mark(_ image: RasterImage, _ a: Side, _ b: Side) -> String? {
        let sides = [a, b]
        let x = sides.contains(.left) ? 4 : image.width - 5, y = sides.contains(.top) ? 4 : image.height - 5
        let p = image.pixel(x: x, y: y)
        if p.r > 200 && p.g < 60 && p.b < 60 { return "red" }
        if p.g > 200 && p.r < 60 && p.b < 60 { return "green" }
        if p.b > 200 && p.r < 60 && p.g < 60 { return "blue" }
        return nil
    }

    /// Every mark is in the corner the EXIF table puts it in, and the size is swapped for 5-8.
    static func checkUpright(_ image: RasterImage, _ value: Int) {
        let (row0, column0) = spec[value]!
        #expect(image.width == (value >= 5 ? 32 : 64) && image.height == (value >= 5 ? 64 : 32), "orientation \(value)")
        #expect(mark(image, row0, column0) == "red", "orientation \(value)")
        #expect(mark(image, row0, column0.opposite) == "green", "orientation \(value)")
        #expect(mark(image, row0.opposite, column0) == "blue", "orientation \(value)")
        #expect(mark(image, row0.opposite, column0.opposite) == nil, "orientation \(value)")
    }

    @Test(arguments: 1...8)
    func jpegEXIFPutsTheMarksWhereTheyBelong(value: Int) throws {
        for bigEndian in [true, false] {
            let bytes = PictureBytes.withEXIF(try PictureEncoder.jpeg(Self.marked, quality: 95),
                                         PictureBytes.exif(orientation: UInt16(value), bigEndian: bigEndian))
            let info = try Pictures.info(data: bytes)
            #expect(info.orientation.rawValue == value && info.width == 64)
            #expect(info.orientedSize == (value >= 5 ? (32, 64) : (64, 32)))
            let decoded = try Pictures.decode(data: bytes)
            #expect(decoded.orientation.rawValue == value && !decoded.colorConverted)
            Self.checkUpright(decoded.image, value)
        }
    }

    @Test(arguments: 1...8)
    func pngEXIfPutsTheMarksWhereTheyBelong(value: Int) throws {
        let png = try PictureEncoder.png(Self.marked)
        let exif = PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: UInt16(value)))
        let iend = png.count - 12
        // eXIf before IDAT (after IHDR) and after it (before IEND): both are allowed.
        for bytes in [Array(png[..<33]) + exif + Array(png[33...]), Array(png[..<iend]) + exif + Array(png[iend...])] {
            #expect(try Pictures.info(data: bytes).orientation.rawValue == value)
            let decoded = try Pictures.decode(data: bytes)
            #expect(decoded.orientation.rawValue == value && decoded.warningCount == 0)
            Self.checkUpright(decoded.image, value)
            #expect(difference(decoded.image.pixels, Orientation(rawValue: value)!.applied(to: Self.marked).pixels) == nil)
        }
    }

    /// ImageMagick's `-auto-orient`, reading our EXIF with its own parser, agrees.
    @Test(arguments: 1...8)
    func imageMagickAutoOrientAgrees(value: Int) throws {
        let directory = try TemporaryFolder.make("framed-orient")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.jpg"), output = directory.appendingPathComponent("out.png")
        let bytes = PictureBytes.withEXIF(try PictureEncoder.jpeg(Fixture.gradient(40, 24), quality: 95),
                                     PictureBytes.exif(orientation: UInt16(value), bigEndian: value % 2 == 0))
        try Data(bytes).write(to: input)
        #expect(ImageMagick.run([input.path, "-auto-orient", output.path]))
        let theirs = try Pictures.decode(contentsOf: output.path).image
        let ours = try Pictures.decode(data: bytes).image
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        if ours.width == theirs.width && ours.height == theirs.height { #expect(meanDifference(ours, theirs) < 1) }
    }

    @Test func autoOrientOffKeepsTheStoredPixels() throws {
        let image = Fixture.noise(7, 5)
        let bytes = try PictureEncoder.png(image)
        let rotated = Array(bytes[..<33]) + PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: 6)) + Array(bytes[33...])
        let kept = try Pictures.decode(data: rotated, options: DecodeOptions(autoOrient: false))
        #expect(kept.image == image && kept.orientation == .right)
        let upright = try Pictures.decode(data: rotated)
        #expect(upright.image.width == 5 && upright.image.height == 7)
        #expect(upright.image == Orientation.right.applied(to: image))
    }

    /// `applied(to:)` against the table, pixel by pixel, on a picture of distinct pixels.
    @Test(arguments: Orientation.allCases)
    func appliedFollowsTheTable(orientation: Orientation) {
        let (w, h) = (5, 3)
        let image = RasterImage(width: w, height: h, pixels: (0..<w * h).flatMap { [UInt8($0), 0, 0, 255] })
        let turned = orientation.applied(to: image)
        let (row0, column0) = Self.spec[orientation.rawValue]!
        // Stored (x, y): along row 0 away from column 0's side, along column 0 away from row 0's side.
        for y in 0..<h {
            for x in 0..<w {
                func position(_ side: Side, _ distance: Int, _ size: (Int, Int)) -> (x: Int?, y: Int?) {
                    switch side {
                    case .left: (distance, nil)
                    case .right: (size.0 - 1 - distance, nil)
                    case .top: (nil, distance)
                    case .bottom: (nil, size.1 - 1 - distance)
                    }
                }
                let size = (turned.width, turned.height)
                let a = position(column0, x, size), b = position(row0, y, size)
                let target = (x: a.x ?? b.x!, y: a.y ?? b.y!)
                #expect(turned.pixel(x: target.x, y: target.y).r == UInt8(y * w + x), "\(orientation) (\(x), \(y))")
            }
        }
        #expect(orientation.orientedSize(width: w, height: h) == (orientation.rawValue >= 5 ? (h, w) : (w, h)))
    }

    @Test func turnsUndoEachOther() {
        let image = Fixture.noise(9, 4)
        #expect(Orientation.left.applied(to: Orientation.right.applied(to: image)) == image)
        #expect(Orientation.down.applied(to: Orientation.down.applied(to: image)) == image)
        for mirror in [Orientation.upMirrored, .downMirrored, .leftMirrored, .rightMirrored] {
            #expect(mirror.applied(to: mirror.applied(to: image)) == image, "\(mirror)")
        }
        #expect(Orientation.up.applied(to: image) == image)
        let empty = RasterImage(width: 0, height: 3, pixels: [])
        #expect(Orientation.right.applied(to: empty).width == 3 && Orientation.right.applied(to: empty).height == 0)
    }

    @Test func badOrMissingEXIFMeansUp() {
        #expect(Orientation(exif: PictureBytes.exif(orientation: 6)) == .right)
        #expect(Orientation(exif: Array("Exif\0\0".utf8) + PictureBytes.exif(orientation: 8, bigEndian: false)) == .left)
        for bad in [PictureBytes.exif(orientation: 0), PictureBytes.exif(orientation: 9), PictureBytes.exif(orientation: nil),
                    Array(PictureBytes.exif(orientation: 6).prefix(12)), [], Array("MM\0*".utf8), Fixture.noise(10, 10).pixels] {
            #expect(Orientation(exif: bad) == .up, "\(bad.prefix(16))")
        }
        #expect(ccodecs_exif_orientation(nil, 100) == 1)
    }

    @Test func exifResolutionIsUsedWithoutJFIFDensity() throws {
        let jpeg = try PictureEncoder.jpeg(Fixture.gradient(16, 8))
        let inches = PictureBytes.withEXIF(jpeg, PictureBytes.exif(orientation: 1, xResolution: (300, 1), unit: 2))
        #expect(try Pictures.info(data: inches).resolution == 300)
        #expect(try Pictures.decode(data: inches).image.resolution == 300)
        let centimetres = PictureBytes.withEXIF(jpeg, PictureBytes.exif(orientation: nil, xResolution: (11811, 100), unit: 3, bigEndian: false))
        #expect(abs(try #require(Pictures.decode(data: centimetres).image.resolution) - 300) < 0.01)
        // JFIF's density wins.
        var dense = Fixture.gradient(16, 8)
        dense.resolution = 96
        let both = PictureBytes.withEXIF(try PictureEncoder.jpeg(dense), PictureBytes.exif(orientation: 1, xResolution: (300, 1)))
        #expect(try Pictures.info(data: both).resolution == 96 && Pictures.decode(data: both).image.resolution == 96)
    }
}
