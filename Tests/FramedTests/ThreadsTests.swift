import Framed
import FramedTestSupport
import Testing

/// `Framer.threads`: a picture framed on one core or on all gives the same bytes (the
/// resize while decoding, the resampler's bands and the compressed bands all follow the size).
struct ThreadsTests {
    @Test func oneCoreOrAllGiveTheSameBytes() throws {
        let picture = try PictureEncoder.png(Support.busyPicture(width: 1400, height: 900))  // 1.26 MP, alpha
        let jpeg = try PictureEncoder.jpeg(Support.busyPicture(width: 1400, height: 900, alpha: false))
        for data in [picture, jpeg] {
            for format in OutputFormat.allCases {
                var framer = Framer(.classic, format: format, scale: 2)
                framer.output.metadata.creationDate = "2023-11-14T22:13:20"  // else each PDF is dated when framed
                let all = try framer.frame(data)
                framer.threads = 1
                let one = try framer.frame(data)
                #expect(difference(all.bytes, one.bytes) == nil, "\(format)")
            }
        }
    }
}
