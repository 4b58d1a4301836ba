import FramedTestSupport
import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import Testing

/// PDF shadows stay vector (issue 19): a framed PDF with shadows holds no image but the picture,
/// passes `qpdf --check`, and its shadows cost at most 40 KB, however many pages.
struct PDFShadowStructureTests {
    typealias S = CSSFrameScene.Shadow

    /// The heaviest single shadow (a large rounded corner) and three shadows at once.
    static let scenes: [CSSFrameScene] = [
        CSSFrameScene(name: "600x400, radius 40, 4 4 10 -2", width: 600, height: 400, radius: 40, border: 3,
                      shadows: [S(x: 4, y: 4, blur: 10, spread: -2, alpha: 0.6)]),
        CSSFrameScene(name: "600x400, radius 16, three shadows and an inset one", width: 600, height: 400, radius: 16, border: 3,
                      padding: 20,
                      shadows: [S(y: 1, blur: 2, alpha: 0.3), S(y: 4, blur: 8, alpha: 0.25), S(y: 12, blur: 24, spread: -4, alpha: 0.2),
                                S(y: 2, blur: 8, alpha: 0.5, inset: true)]),
    ]

    /// What `pdfimages -list` lists (one row per image drawn, inline images too) and how many
    /// image XObjects the file holds.
    static func images(_ pdf: URL) throws -> (listed: [String], objects: Int) {
        let list = try Tool.run("pdfimages", ["-list", pdf.path])
        #expect(list.status == 0, "pdfimages -list: \(list.stderr)")
        let rows = list.output.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").map(String.init) }
        let bytes = try [UInt8](Data(contentsOf: pdf))
        return (rows.map { "\($0[2]) \($0[3])x\($0[4])" }, bytes.ranges(of: Array("/Subtype /Image".utf8)).count)
    }

    @Test(arguments: [1, 3], scenes)
    func shadowsAddNoImageAndLittleSize(pages: Int, scene: CSSFrameScene) throws {
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = Support.busyPicture(width: 300, height: 200, alpha: false)
        let with = folder.appendingPathComponent("with.pdf"), without = folder.appendingPathComponent("without.pdf")
        try PDFViewerShadowTests.render(scene, pages: pages, picture: photo, to: with)
        var bare = scene
        bare.shadows = []
        try PDFViewerShadowTests.render(bare, pages: pages, picture: photo, to: without)

        let check = try Tool.run("qpdf", ["--check", with.path])
        #expect(check.status == 0, "qpdf --check: \(check.output) \(check.stderr)")
        let images = try Self.images(with)
        #expect(images.listed == [String](repeating: "image 300x200", count: pages), "only the picture, on each page")
        #expect(images.objects == 1, "one image XObject: the picture, written once")
        #expect(try Self.images(without).objects == 1)

        let added = try FileManager.default.attributesOfItem(atPath: with.path)[.size] as! Int
            - (FileManager.default.attributesOfItem(atPath: without.path)[.size] as! Int)
        if ProcessInfo.processInfo.environment["FRAMED_SHADOW_REPORT"] != nil {
            print("pdf-shadow-size", scene.name, "pages \(pages): shadows add \(added) bytes")
        }
        #expect(added <= 40 * 1024, "\(scene.name), \(pages) pages: the shadows add \(added) bytes")
    }
}
