import FramedRaster
import Testing

/// `FRAMED_ENGINES` as `Engines.parse` reads it: `on`, `off`, `-name`, `+name`, and a bare name
/// first meaning that engine alone; words it does not know are given back.
@Suite struct EnginesTests {
    @Test func theSwitchReadsAsDocumented() {
        #expect(Engines.parse("").engines == .all)
        #expect(Engines.parse("on").engines == .all && Engines.parse("all").engines == .all)
        #expect(Engines.parse("off").engines == [] && Engines.parse("none").engines == [])
        #expect(Engines.parse("-pngdata,-jpegreduced").engines == Engines.all.subtracting([.pngData, .jpegReduced]))
        #expect(Engines.parse("pngdata").engines == .pngData)
        #expect(Engines.parse("off,+fastdeflate, +avx2rows").engines == [.fastDeflate, .avx2Rows])
        #expect(Engines.parse("jpegsplit jpegscans").engines == [.jpegSplit, .jpegScans])
        #expect(Engines.parse("OFF,+JPEGParts").engines == .jpegParts)
        let (engines, unknown) = Engines.parse("-pngdata,turbo,-")
        #expect(engines == Engines.all.subtracting(.pngData) && unknown == ["turbo", "-"])
    }

    /// Every engine has a name, and a set prints as the switch takes it back.
    @Test func namesRoundTrip() {
        #expect(Engines.names.reduce(into: Engines()) { $0.insert($1.engine) } == .all)
        #expect(Set(Engines.names.map(\.name)).count == Engines.names.count)
        for engines: Engines in [.all, [], [.pngData, .jpegReduced], .avx2Rows] {
            #expect(Engines.parse(engines.description).engines == engines, "\(engines)")
        }
        #expect(!Engines.all.contains(.jpegReducedAlwaysSplit))
    }
}
