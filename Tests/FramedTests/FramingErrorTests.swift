import Foundation
import Framed
import FramedTestSupport
import Testing

/// Errors name the picture and the style field or setting, in the library's words (the command
/// line words them its own way).
struct FramingErrorTests {
    static let jpeg = try! FramerTests.jpeg(64, 48)

    /// The error framing `bytes` with `framer` gives, or nil (recorded) when it frames.
    static func error(_ framer: Framer, _ bytes: [UInt8] = jpeg, sourceLocation: SourceLocation = #_sourceLocation) -> FramingError? {
        do {
            _ = try framer.frame(bytes)
            Issue.record("framed", sourceLocation: sourceLocation)
        } catch {
            #expect(!error.description.contains("--"), "no command-line flag in \(error)", sourceLocation: sourceLocation)
            return error
        }
        return nil
    }

    @Test func aMissingFileIsNamed() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("holiday.jpg").path
        do {
            _ = try Framer().frame(path)
            Issue.record("framed a missing file")
        } catch {
            #expect(error.picture == path && error.problem == .picture(.unreadable("No such file or directory")))
            #expect(error.description == "\(path): cannot read (No such file or directory)")
        }
    }

    @Test func lengthsAreNamedByTheirFieldInTheStyle() {
        var framer = Framer(.classic, format: .png)
        framer.style.border = .px(-1)
        #expect(Self.error(framer)?.description == "picture in memory: border -1px is invalid: it must not be negative")
        framer.style.border = .zero
        framer.style.padding.top = Length(points: .infinity)
        #expect(Self.error(framer)?.problem == .layout(.invalidLength(field: .padding(.top), value: .infinity,
                                                                       reason: "it must be a finite number")))
        framer.style.padding = .zero
        framer.style.shadows = [BoxShadow(offsetX: .zero, offsetY: .zero), BoxShadow(offsetX: .zero, offsetY: .zero, blur: .px(-2))]
        #expect(Self.error(framer)?.description == "picture in memory: shadows[1].blur -2px is invalid: it must not be negative")
        framer.style.shadows = []
        framer.style.size = LengthSize(width: .px(-5), height: .px(10))
        #expect(Self.error(framer)?.description.contains("size.width -5px is invalid") == true)
    }

    @Test func pageAndCanvasErrorsNameSettings() {
        var framer = Framer(.classic, format: .pdf)
        framer.page.size = .a5
        framer.style.size = LengthSize(width: .mm(300), height: .mm(200))
        let page = Self.error(framer)
        guard case .page(.doesNotFit) = page?.problem else { Issue.record("expected doesNotFit, got \(String(describing: page))"); return }
        #expect(page?.description.hasSuffix("give a smaller size, or none to fit the page") == true)

        var png = Framer(.classic, format: .png, scale: 60)
        png.style.size = LengthSize(width: .px(1000), height: .px(1000))
        let canvas = Self.error(png)
        // The frame, and the classic shadow's 3 sigma (15px) on each side, 60 device pixels a px.
        let side = (1000 + 2 * 15) * 60
        #expect(canvas?.problem == .canvas(.canvasTooLarge(PixelSize(width: side, height: side))))
        #expect(canvas?.description.hasSuffix("use a smaller scale or dpi") == true)
    }

    @Test func transparencyInAJPEGSaysWhatToSet() throws {
        let png = try FramerTests.png(10, 10, alpha: 100)
        let error = Self.error(Framer(.classic, format: .svg, embed: .jpeg), png)
        #expect(error?.problem == .transparencyInJPEG)
        #expect(error?.description == "picture in memory: a JPEG cannot hold the picture's transparency; "
                    + "set flatten to a colour or embed as png")
    }
}
