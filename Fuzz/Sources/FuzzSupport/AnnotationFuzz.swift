import Framed
import FramedTestSupport

/// Annotations, which a batch reads from a file beside each picture (`{stem}.annotations.json`)
/// as it reads the picture: the inline form (`Annotation.parseList`) and the JSON form
/// (`Annotation.list(jsonText:)`) on the same bytes, then whichever list parsed drawn over a
/// small picture into PNG, SVG or PDF (a hash of the input picks the format, the frame's size and
/// fit, and the scale). Checks that a list writes itself back (`description(of:)`, `jsonText`,
/// and a JSON list in the inline form too) as text that parses to the same list, that a PNG
/// output reads back, that a PDF is sound (`PDFStructure`), and that an SVG output is well-formed
/// XML whose references resolve and holds no number that is not finite.
package enum AnnotationFuzz {
    /// A 96x64 picture with alpha, the same for every input.
    static let picture: [UInt8] = {
        var pixels = [UInt8](repeating: 0, count: 96 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<96 {
                let i = (y * 96 + x) * 4
                pixels[i] = UInt8(x * 255 / 95); pixels[i + 1] = UInt8(y * 255 / 63)
                pixels[i + 2] = UInt8((x ^ y) & 0xFF); pixels[i + 3] = UInt8(128 + (x + y) % 128)
            }
        }
        return try! PictureEncoder.png(RasterImage(width: 96, height: 64, pixels: pixels, hasAlpha: true))
    }()

    package static func run(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        var lists: [[Annotation]] = []
        if let list = try? Annotation.parseList(text) {
            readsBack(list, in: "the inline form", write: Annotation.description(of:), read: Annotation.parseList)
            lists.append(list)
        }
        if let list = try? Annotation.list(jsonText: data) {
            readsBack(list, in: "JSON", write: Annotation.jsonText, read: { (text: String) throws(AnnotationError) in
                try Annotation.list(jsonText: text)
            })
            // And in the inline form, which the command line and a printed configuration use.
            readsBack(list, in: "the inline form", write: Annotation.description(of:), read: Annotation.parseList)
            lists.append(list)
        }
        let knobs = Knobs(data)
        for list in lists where !list.isEmpty { frame(list, knobs: knobs) }
    }

    /// `list`, written by `write`, must read back by `read` as `list` again.
    static func readsBack(_ list: [Annotation], in form: String, write: ([Annotation]) -> String,
                          read: (String) throws(AnnotationError) -> [Annotation]) {
        let written = write(list)
        do {
            let again = try read(written)
            require(again == list, "a list written in \(form) as \(written) reads back as \(Annotation.jsonText(again))")
        } catch {
            fatalError("a list written in \(form) does not read back: \(error)\n\(written)")
        }
    }

    static func frame(_ list: [Annotation], knobs: Knobs) {
        var framer = Framer()
        framer.picture.maxPixels = FuzzLimits.maxPixels
        framer.picture.annotations = .list(list)
        let format: OutputFormat = [.png, .svg, .pdf][Int(knobs.bits % 3)]
        framer.output.format = format
        try? framer.set("size", ["120x80", "60x90", "200x50"][Int((knobs.bits >> 2) % 3)])
        try? framer.set("fit", ["contain", "cover", "fill"][Int((knobs.bits >> 4) % 3)])
        if (knobs.bits >> 6) & 1 == 1 { try? framer.set("scale", "2") }
        guard let framed = try? framer.frame(picture) else { return }
        require(!framed.bytes.isEmpty, "empty output")
        switch format {
        case .png:
            do { _ = try Pictures.info(data: framed.bytes) } catch { fatalError("the PNG output does not read back: \(error)") }
        case .svg:
            checkSVG(framed.bytes)
        default:
            if let problem = PDFStructure.problem(in: framed.bytes) { fatalError("the PDF output is broken: \(problem)") }
        }
    }

    /// Ends the run when `svg` is not well-formed XML, refers to an id it does not have, or holds
    /// a number that is not finite.
    static func checkSVG(_ svg: [UInt8]) {
        if let problem = XMLStructure.problem(in: svg, references: true) { fatalError("the SVG output is broken: \(problem)") }
        if let bad = nonFinite(in: String(decoding: svg, as: UTF8.self)) { fatalError("the SVG output holds \(bad)") }
    }

    /// The first `nan` or `inf` written as a number (after a space, comma, bracket, quote, colon
    /// or equals sign, as Cairo and framed write numbers; a picture's base64 has none of those
    /// before a letter).
    static func nonFinite(in text: String) -> String? {
        let bytes = Array(text.utf8)
        let before: Set<UInt8> = Set(" ,(\"=:-".utf8)
        for i in bytes.indices.dropFirst() where before.contains(bytes[i - 1]) {
            for word in ["nan", "inf"] where bytes[i...].starts(with: word.utf8) {
                let start = max(0, i - 20)
                return String(decoding: bytes[start..<min(bytes.count, i + 10)], as: UTF8.self)
            }
        }
        return nil
    }
}
