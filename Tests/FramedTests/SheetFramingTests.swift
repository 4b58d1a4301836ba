import Foundation
import Framed
import FramedTestSupport
import Testing

/// Sheets and soft proofs as the library's users call them: `page.sheet` makes `document` gang
/// the prints, `sheetPlan` lays them out, `output.proof` writes proofs and fills the reports.
struct SheetFramingTests {
    @Test func aDocumentWithASheetGangsThePrints() throws {
        let folder = try FileOutputTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        try Data(FramerTests.jpeg(200, 320)).write(to: folder.appendingPathComponent("tall.jpg"))
        let tall = folder.appendingPathComponent("tall.jpg").path
        var framer = Framer(preset: .print)
        framer.page.sheet = .a4
        framer.page.size = PageSize(width: .mm(100), height: .mm(150))
        framer.page.bleed = .mm(3)
        framer.page.marks = .crop
        framer.output.proof = folder.appendingPathComponent("proof.png").path

        // A4 holds two 150 x 100 mm cells (see SheetTests): three prints make two sheets.
        let plan = try framer.sheetPlan([.file(photo), .file(tall), .file(photo)])
        #expect(plan.arrangement.grid.perSheet == 2 && plan.arrangement.sheetCount == 2)
        #expect(plan.arrangement.places.map(\.turned) == [false, true, false])
        #expect(plan.prints.map { $0.placement?.orientation } == [.landscape, .portrait, .landscape])
        #expect(plan.prints.allSatisfy { $0.placement?.marks == PrintMarks.none }, "the sheet has the marks")

        let output = folder.appendingPathComponent("sheets.pdf").path
        let reports = try framer.document([photo, tall, photo], to: output)
        #expect(reports.count == 3 && reports.allSatisfy { $0.outOfGamut == 0 }, "sRGB: nothing out of gamut")
        let info = try Support.output("pdfinfo", [output])
        #expect(info.contains("Pages:           2") && info.contains("595.276 x 841.89 pts (A4)"), "\(info)")
        for name in ["proof-1.png", "proof-2.png"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }

        // One picture with a sheet: a PDF of one sheet, in a file or in memory; not a PNG.
        framer.output.proof = nil
        try framer.frame(photo, to: folder.appendingPathComponent("one.pdf").path)
        #expect(try Support.output("pdfinfo", [folder.appendingPathComponent("one.pdf").path]).contains("(A4)"))
        framer.output.format = .pdf
        let inMemory = try framer.frame(photo)
        #expect(inMemory.bytes.starts(with: Array("%PDF-".utf8)) && inMemory.plan.placement?.orientation == .landscape)
        framer.output.format = .png
        #expect(throws: FramingError(picture: photo, problem: .sheetNeedsPDF(.png))) { try framer.frame(photo) }
        framer.page.gutter = .mm(2)
        #expect(throws: FramingError(picture: "sheets", problem: .sheet(.gutterTooNarrow(gutter: Length.mm(2).points,
                                                                                         bleed: Length.mm(3).points)))) {
            try framer.document([.file(photo)])
        }
    }

    @Test func sheetSettingsByName() throws {
        var framer = Framer()
        try framer.set("sheet", "letter")
        try framer.set("n-up", "2x3")
        try framer.set("gutter", "4mm")
        #expect(framer.page.sheet == .letter && framer.page.nUp == .grid(columns: 2, rows: 3))
        #expect(framer.page.gutter == .mm(4))
        #expect(throws: SettingError.self) { try framer.set("gutter", "-1mm") }
        #expect(throws: SettingError.self) { try framer.set("n-up", "3") }
        try framer.set("proof", "soft.png")
        try framer.set("gamut-warning", "#f0f")
        #expect(framer.output.proof == "soft.png" && framer.output.gamutWarning == RGBAColor(red: 1, green: 0, blue: 1, alpha: 1))
        #expect(throws: SettingError.self) { try framer.set("proof", "soft.tif") }
        #expect(Framer.proofPath("a/p.png", page: 3, of: 12) == "a/p-03.png" && Framer.proofPath("p.png", page: 1, of: 1) == "p.png")
        #expect(Framer.proofPath("proof", page: 2, of: 2) == "proof-2")
    }
}
