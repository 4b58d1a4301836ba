import FramedSystem

/// Framing files and bytes: into a file (written atomically), into memory, or into one PDF; and
/// planning from the header alone.
extension Framer {
    /// The name errors give a picture in memory.
    public static let bytesLabel = "picture in memory"

    // MARK: Into a file

    /// Frames the picture at `path` into the file `output`, in the format its extension names
    /// (`.svg`, `.pdf`, `.png`) unless `output.format` says otherwise.
    ///
    /// The file is written atomically: into a temporary file beside it, renamed into place only
    /// when complete, so that a failure never leaves part of a file nor harms an existing one;
    /// its missing folders are made first (as `mkdir -p`). The output is never the picture
    /// itself. With `overwrite` false an existing output is an error (`outputExists`), found
    /// before any work. With `OutputOptions.proof` the soft proof is written too, after the
    /// output, in the same way.
    /// - Returns: what happened to the picture (warnings included).
    @discardableResult
    public func frame(_ path: String, to output: String, overwrite: Bool = true) throws(FramingError) -> PictureReport {
        try frame(.file(path), to: output, overwrite: overwrite)
    }

    /// Frames a picture held in memory (PNG, JPEG, WebP, HEIC, AVIF, TIFF or GIF bytes) into the file `output`, as
    /// `frame(_:to:overwrite:)` does.
    @discardableResult
    public func frame(_ bytes: [UInt8], to output: String, overwrite: Bool = true) throws(FramingError) -> PictureReport {
        try frame(.bytes(bytes), to: output, overwrite: overwrite)
    }

    /// Frames a picture from a file or from memory into the file `output`, as
    /// `frame(_:to:overwrite:)` does.
    @discardableResult
    public func frame(_ source: PictureSource, to output: String, overwrite: Bool = true) throws(FramingError) -> PictureReport {
        let label = Self.label(source)
        func fail(_ problem: FramingError.Problem) -> FramingError { FramingError(picture: label, problem: problem) }
        guard let format = self.output.format ?? OutputFormat(path: output) else { throw fail(.unknownFormat(output: output)) }
        if case let .file(path) = source, let picture = FileSystem.identity(path), FileSystem.identity(output) == picture {
            throw fail(.outputIsPicture(output))
        }
        if !overwrite && OutputFile.wouldReplace(output) { throw fail(.outputExists(output)) }
        if page.sheet != nil {
            guard format == .pdf else { throw fail(.sheetNeedsPDF(format)) }
            return try document([source], to: output, overwrite: overwrite)[0]
        }
        let proofs = try proofFiles(count: 1, output: output, sources: [source], overwrite: overwrite, label: label)
        let framed = try framed(source, label: label, format: format)
        try checkStrict(framed.report, label: label)
        do {
            try OutputFile.write(framed.bytes, to: output, replacing: overwrite)
            if let proof = framed.proof, let path = proofs.first { try OutputFile.write(proof, to: path, replacing: overwrite) }
        } catch { throw fail(Self.problem(error)) }
        return framed.report
    }

    // MARK: Into memory

    /// Frames the picture at `path` in memory, as a file of `output.format` (PNG when it is nil).
    public func frame(_ path: String) throws(FramingError) -> FramedPicture {
        try frame(.file(path) as PictureSource)
    }

    /// Frames a picture held in memory (PNG, JPEG, WebP, HEIC, AVIF, TIFF or GIF bytes), as a file of `output.format`
    /// (PNG when it is nil).
    public func frame(_ bytes: [UInt8]) throws(FramingError) -> FramedPicture {
        try frame(.bytes(bytes) as PictureSource)
    }

    /// Frames a picture from a file or from memory, as a file of `output.format` (PNG when it
    /// is nil).
    public func frame(_ source: PictureSource) throws(FramingError) -> FramedPicture {
        let label = Self.label(source)
        let framed = try framed(source, label: label, format: output.format ?? .png)
        try checkStrict(framed.report, label: label)
        return framed
    }

    // MARK: Sets

    /// Frames the picture at `path` once for each of `scales` (device pixels per CSS px), as
    /// `frame(_:scales:)` does.
    public func frame(_ path: String, scales: [Double]) throws(FramingError) -> [FramedPicture] {
        try frame(.file(path) as PictureSource, scales: scales)
    }

    /// Frames a picture once for each of `scales` (device pixels per CSS px: `[1, 2, 3]` for a
    /// 1x screen and HiDPI ones), as files of `output.format` (PNG when it is nil), in the
    /// order given; `output.scale` and `output.scales` are not used.
    ///
    /// The picture is read and decoded once, at the pixels the largest output needs, and
    /// resampled from there for each of the others, so a set costs one decode however many
    /// scales it has. The largest comes out the same bytes as framing at its scale alone; a
    /// smaller one may differ from its own framing in the last bits of its picture's pixels
    /// (it is resampled from more pixels than a shrink-on-load decode for it alone gives).
    /// With trimming, the edges are found once, on the largest.
    /// - Throws: `scalesNeedRaster` for SVG or PDF (one vector file serves every scale),
    ///   `scalesWithDPI` when `output.dpi` is set (it, not the scale, decides the pixels), and
    ///   what `frame(_:)` throws.
    public func frame(_ source: PictureSource, scales: [Double]) throws(FramingError) -> [FramedPicture] {
        try frame(source, set: scales.map { SetMember(scale: $0) })
    }

    /// Frames a picture once for each member of a set: a version of the look (`variant(_:)`:
    /// `docs` and `docs-dark`) at a scale, in the order given (`output.setMembers` lists the
    /// set that `output.variants` and `output.scales` ask for). The picture is read and
    /// decoded once, as `frame(_:scales:)` says.
    /// - Throws: `noVariant` for a preset without the twin asked for, `scalesNeedRaster` for
    ///   several scales in SVG or PDF, and what `frame(_:)` throws.
    public func frame(_ source: PictureSource, set members: [SetMember]) throws(FramingError) -> [FramedPicture] {
        let label = Self.label(source)
        let set = try framedSet(source, label: label, format: output.format ?? .png, members: members)
        for framed in set { try checkStrict(framed.report, label: label) }
        return set
    }

    // MARK: Plans

    /// Lays out the picture at `path` from its header alone, decoding nothing: every rectangle,
    /// the page placement and the pixels the picture gets, for output in `output.format` (PNG
    /// when it is nil).
    public func plan(_ path: String) throws(FramingError) -> FramePlan {
        try plan(.file(path) as PictureSource)
    }

    /// Lays out a picture held in memory from its header alone, as `plan(_:)` does.
    public func plan(_ bytes: [UInt8]) throws(FramingError) -> FramePlan {
        try plan(.bytes(bytes) as PictureSource)
    }

    /// Lays out a picture from a file or from memory from its header alone, as `plan(_:)` does.
    public func plan(_ source: PictureSource) throws(FramingError) -> FramePlan {
        let label = Self.label(source)
        let framer = try resolvingAnnotations(for: source, label: label)
        return try framer.plan(framer.open(source, label: label), label: label, format: output.format ?? .png)
    }

    /// Lays out a picture once for each member of a set (`output.setMembers` lists the set that
    /// `output.variants` and `output.scales` ask for), from its header alone, as
    /// `frame(_:set:)` would frame them: the looks on the canvas they share, and in a set of
    /// several scales a warning (`FramingWarning.fewerPixels`) on each member whose picture has
    /// fewer pixels than it needs.
    public func plan(_ source: PictureSource, set members: [SetMember]) throws(FramingError) -> [FramePlan] {
        let label = Self.label(source)
        let framer = try resolvingAnnotations(for: source, label: label)
        return try framer.setPlans(framer.open(source, label: label), label: label, format: output.format ?? .png,
                                   members: members)
    }

    // MARK: Documents

    /// Frames several pictures into one PDF file, a page each, in order (each page the size of
    /// its framed canvas, or of `page`), or with `page.sheet` ganged on sheets, several to a
    /// page; a picture that repeats is stored once. Written atomically, as
    /// `frame(_:to:overwrite:)` writes.
    /// - Returns: what happened to each picture.
    @discardableResult
    public func document(_ pictures: [PictureSource], to output: String, overwrite: Bool = true) throws(FramingError)
        -> [PictureReport] {
        if !overwrite && OutputFile.wouldReplace(output) {
            throw FramingError(picture: output, problem: .outputExists(output))
        }
        let pages = page.sheet != nil && self.output.proof != nil ? try sheetArrangement(pictures).sheetCount : pictures.count
        let paths = try proofFiles(count: pages, output: output, sources: pictures, overwrite: overwrite, label: output)
        let (pdf, reports, proofs) = try framedDocument(pictures)
        do {
            try OutputFile.write(pdf, to: output, replacing: overwrite)
            for (proof, path) in zip(proofs, paths) { try OutputFile.write(proof, to: path, replacing: overwrite) }
        } catch {
            throw FramingError(picture: output, problem: Self.problem(error))
        }
        return reports
    }

    /// Frames the pictures at `paths` into one PDF file, as `document(_:to:overwrite:)` does.
    @discardableResult
    public func document(_ paths: [String], to output: String, overwrite: Bool = true) throws(FramingError) -> [PictureReport] {
        try document(paths.map(PictureSource.file), to: output, overwrite: overwrite)
    }

    /// Frames several pictures into one PDF in memory, a page each (or sheets, with `page.sheet`).
    /// - Returns: the PDF's bytes, and what happened to each picture.
    public func document(_ pictures: [PictureSource]) throws(FramingError) -> (pdf: [UInt8], reports: [PictureReport]) {
        let (pdf, reports, _) = try framedDocument(pictures)
        return (pdf, reports)
    }

    /// The PDF of `pictures`, a page each, what happened to each picture, and with
    /// `OutputOptions.proof` each page's soft proof (the reports then say how much of each
    /// picture is out of gamut).
    func framedDocument(_ pictures: [PictureSource]) throws(FramingError)
        -> (pdf: [UInt8], reports: [PictureReport], proofs: [[UInt8]]) {
        guard !pictures.isEmpty else {
            throw FramingError(picture: "document", problem: .render(.unsupported("a PDF needs at least one page")))
        }
        if page.sheet != nil { return try framedSheets(pictures) }
        var prepared: [PreparedPicture] = []
        for source in pictures {
            let label = Self.label(source)
            let picture = try prepare(source, label: label, format: .pdf)
            try checkStrict(picture.report, label: label)
            prepared.append(picture.keptForDocument(proof: output.proof != nil))
        }
        let (pdf, proofs) = try document(prepared.map { OutputPage($0.renderPage) }, label: "document", sources: pictures,
                                         proofs: true)
        var reports = prepared.map(\.report)
        for (index, proof) in proofs.enumerated() { reports[index].outOfGamut = proof.gamut.first.map(Self.share) }
        return (pdf, reports, proofs.map(\.png))
    }

    // MARK: Soft proofs

    /// The file that the soft proof of page `page` (from 1) of a document of `count` pages goes
    /// into: `proof` itself for one page; for several, `proof` with `-N` before its extension,
    /// N zero-padded to the width of `count` (`proof-01.png` ... `proof-12.png`).
    public static func proofPath(_ proof: String, page: Int, of count: Int) -> String {
        guard count > 1 else { return proof }
        let digits = String(count).count, number = String(page)
        let suffix = "-" + String(repeating: "0", count: max(0, digits - number.count)) + number
        let ext = Paths.pathExtension(proof)
        guard !ext.isEmpty else { return proof + suffix }
        return String(proof.dropLast(ext.count + 1)) + suffix + "." + ext
    }

    /// The proof files of an output of `count` pages (none without `OutputOptions.proof`),
    /// checked before any work: none may be the output or a picture, nor exist unless
    /// `overwrite`.
    func proofFiles(count: Int, output: String, sources: [PictureSource], overwrite: Bool, label: String)
        throws(FramingError) -> [String] {
        guard let proof = self.output.proof else { return [] }
        let paths = (1...max(1, count)).map { Self.proofPath(proof, page: $0, of: count) }
        let others = [output] + sources.compactMap { source -> String? in
            if case let .file(path) = source { return path }
            return nil
        }
        let taken = Set(others.map(Paths.canonical)), takenFiles = Set(others.compactMap(FileSystem.identity))
        for path in paths {
            if taken.contains(Paths.canonical(path)) || FileSystem.identity(path).map(takenFiles.contains) == true {
                throw FramingError(picture: label, problem: .proofOverwrites(path))
            }
            if !overwrite && OutputFile.wouldReplace(path) { throw FramingError(picture: label, problem: .outputExists(path)) }
        }
        return paths
    }

    // MARK: Helpers

    /// An output that was not written, as a framing problem.
    static func problem(_ error: OutputFileError) -> FramingError.Problem {
        switch error {
        case let .exists(path): return .outputExists(path)
        case let .cannotWrite(path, reason): return .cannotWrite(output: path, reason: reason.description)
        case let .refused(path, reason): return .cannotWrite(output: path, reason: reason)
        case let .cannotCreateFolder(path, folder, reason):
            return .cannotWrite(output: path, reason: "cannot create the folder \(folder) (\(reason))")
        }
    }

    /// How errors name a picture: its path, or `bytesLabel`.
    static func label(_ source: PictureSource) -> String {
        if case let .file(path) = source { return path }
        return bytesLabel
    }

    /// The warnings that these settings make errors (`strict`): a picture placed below the
    /// minimum resolution with `PictureOptions.failBelowMinimumPPI`, a line or text within the
    /// safe margin with `PageOptions.failWithinSafeMargin`; nil for any other warning.
    public func strictProblem(_ warning: FramingWarning) -> FramingError.Problem? {
        switch warning {
        case let .belowMinimumPPI(ppi, minimum) where picture.failBelowMinimumPPI:
            return .belowMinimumPPI(ppi: ppi, minimum: minimum)
        case let .safeMargin(intrusion) where page.failWithinSafeMargin:
            return .withinSafeMargin(intrusion)
        default:
            return nil
        }
    }

    /// The first of `report`'s warnings that these settings make an error, thrown.
    func checkStrict(_ report: PictureReport, label: String) throws(FramingError) {
        for warning in report.warnings {
            if let problem = strictProblem(warning) { throw FramingError(picture: label, problem: problem) }
        }
    }
}
