import FramedSystem

/// Prints ganged on sheets (`PageOptions.sheet`), from the headers alone: where each goes.
public struct SheetPlan: Sendable, Equatable {
    /// The grid every sheet shares, and each print's page and place.
    public var arrangement: SheetArrangement
    /// Each print laid out on its own page (its cell, its way up), in order.
    public var prints: [FramePlan]
}

/// Sheets: a document's prints ganged several to a page. Each print is framed as it would be
/// alone on its page (the cell, its way up, with its bleed and no marks), then moved, and turned
/// when its way up differs from the cell's, onto its sheet (`SheetLayout`); the sheet carries
/// the crop marks.
extension Framer {
    /// These settings for print `index` of `arrangement`: its page (`page.size` turned its way,
    /// or its cell), the bleed and safe margin, no marks, no sheet.
    package func printing(_ index: Int, of arrangement: SheetArrangement) -> Framer {
        var framer = self
        let own = arrangement.pageSpec(for: index)
        framer.page = PageOptions(size: page.size ?? own.size, orientation: own.orientation, bleed: page.bleed, marks: .none,
                                  safeMargin: page.safeMargin)
        framer.page.failWithinSafeMargin = page.failWithinSafeMargin
        return framer
    }

    /// What the picture in `input` needs of a sheet, from its layout alone without a page: the
    /// smallest page that holds it unchanged, its frame clear of the safe margin
    /// (`PageLayout.smallestPage`), which gives its way up, and its size when the prints have no
    /// page (`SheetLayout.arrange`).
    package func sheetCanvas(_ input: borrowing PictureInput, label: String) throws(FramingError) -> Size {
        var alone = self
        alone.page = PageOptions()
        let safe = page.safeMargin.points
        guard safe >= 0, safe.isFinite else { throw FramingError(picture: label, problem: .page(.invalidSafeMargin(safe))) }
        return PageLayout.smallestPage(for: try alone.plan(input, label: label, format: .pdf).layout, safeMargin: safe)
    }

    /// The grid and places of prints whose canvases alone are `canvases`.
    package func arrangement(canvases: [Size]) throws(FramingError) -> SheetArrangement {
        guard let spec = page.sheetSpec else {
            throw FramingError(picture: "sheets", problem: .render(.unsupported("no sheet is set")))
        }
        do {
            return try SheetLayout.arrange(sheet: spec, page: page.size, orientation: page.orientation, bleed: page.bleed,
                                           canvases: canvases)
        } catch {
            throw FramingError(picture: "sheets", problem: .sheet(error))
        }
    }

    /// The sheets as pages of a document: each print where its place says, and the crop marks
    /// of the cuts of the cells that hold prints.
    package func sheetPages(_ prints: [PreparedPicture], arrangement: SheetArrangement) -> [OutputPage] {
        let grid = arrangement.grid
        return (0..<arrangement.sheetCount).map { sheet in
            let on = arrangement.places.indices.filter { arrangement.places[$0].sheet == sheet }
            let slots = on.map { arrangement.places[$0].row * grid.columns + arrangement.places[$0].column }
            return OutputPage(sheet: grid.sheet, prints: on.map { (prints[$0].renderPage, arrangement.places[$0]) },
                              marks: page.marks == .crop ? grid.cropMarks(slots: slots) : [])
        }
    }

    /// The arrangement of `pictures` on sheets, from their headers.
    func sheetArrangement(_ pictures: [PictureSource]) throws(FramingError) -> SheetArrangement {
        var canvases: [Size] = []
        for source in pictures {
            let label = Self.label(source)
            canvases.append(try sheetCanvas(open(source, label: label), label: label))
        }
        return try arrangement(canvases: canvases)
    }

    /// Lays out pictures on sheets from their headers alone, decoding nothing (unless trimming
    /// needs to find the edges): the grid, each print's place, and each print's own plan.
    public func sheetPlan(_ pictures: [PictureSource]) throws(FramingError) -> SheetPlan {
        let arrangement = try sheetArrangement(pictures)
        var prints: [FramePlan] = []
        for (index, source) in pictures.enumerated() {
            let label = Self.label(source)
            prints.append(try printing(index, of: arrangement).plan(open(source, label: label), label: label, format: .pdf))
        }
        return SheetPlan(arrangement: arrangement, prints: prints)
    }

    /// Pictures framed onto sheets as one PDF, what happened to each, and with
    /// `OutputOptions.proof` each sheet's soft proof.
    func framedSheets(_ pictures: [PictureSource]) throws(FramingError)
        -> (pdf: [UInt8], reports: [PictureReport], proofs: [[UInt8]]) {
        let arrangement = try sheetArrangement(pictures)
        var prepared: [PreparedPicture] = []
        for (index, source) in pictures.enumerated() {
            let label = Self.label(source)
            let picture = try printing(index, of: arrangement).prepare(source, label: label, format: .pdf)
            try checkStrict(picture.report, label: label)
            prepared.append(picture.keptForDocument(proof: output.proof != nil))
        }
        let (pdf, proofs) = try document(sheetPages(prepared, arrangement: arrangement), label: "sheets", sources: pictures,
                                         proofs: true)
        var reports = prepared.map(\.report)
        if !proofs.isEmpty {
            for (index, place) in arrangement.places.enumerated() {
                reports[index].outOfGamut = Self.share(proofs[place.sheet].gamut[index % arrangement.grid.perSheet])
            }
        }
        return (pdf, reports, proofs.map(\.png))
    }
}
