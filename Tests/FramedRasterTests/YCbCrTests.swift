import CFramedEngines
import Testing

/// framed's JPEG decoder (the jpegReduced engine, called by name) converts YCbCr to RGB eight pixels at a time, from the products that
/// libjpeg's tables (jdcolor.c) hold: every Cb and Cr pair, at luma values around the clamps
/// and in the middle, gives what the tables give, pixel by pixel (odd counts too, whose last
/// pixels take the tables' path).
@Suite struct YCbCrTests {
    static func convert(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], oneAtATime: Bool) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: y.count * 4)
        framed_engine_ycc_to_rgba(y, cb, cr, &rgba, y.count, oneAtATime ? 1 : 0)
        return rgba
    }

    @Test(arguments: [UInt8(0), 1, 16, 127, 128, 200, 235, 254, 255])
    func everyChromaPairAsLibjpegsTables(luma: UInt8) {
        let pairs = (0..<65_536).map { (UInt8($0 >> 8), UInt8($0 & 255)) }
        let y = [UInt8](repeating: luma, count: pairs.count + 5)
        let cb = pairs.map(\.0) + [0, 255, 128, 1, 254], cr = pairs.map(\.1) + [255, 0, 128, 254, 1]
        let fast = Self.convert(y, cb, cr, oneAtATime: false), tables = Self.convert(y, cb, cr, oneAtATime: true)
        let first = zip(fast, tables).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "pixel \((first ?? 0) / 4) (Cb, Cr \(cb[(first ?? 0) / 4]), \(cr[(first ?? 0) / 4])) differs")
        #expect(stride(from: 3, to: fast.count, by: 4).allSatisfy { fast[$0] == 255 })
        // The tables themselves: Y 128 with neutral chroma is gray 128.
        let gray = Self.convert([128], [128], [128], oneAtATime: true)
        #expect(gray == [128, 128, 128, 255])
    }
}
