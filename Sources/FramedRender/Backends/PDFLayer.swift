/// The PDF pass that puts each page's callouts in an optional content group, "Annotations": a
/// layer that viewers list and can hide (PDF 1.5 optional content), and print or not.
///
/// Cairo 1.16 has no optional content. So the callouts are drawn in a Cairo group, which Cairo
/// writes as a form XObject, and the group's first drawing is a placeholder picture
/// (`AnnotationLayerMarker`: a one-pixel JPEG header naming the page). This pass finds the
/// placeholder's image object, the resource dictionary that names it and the form whose
/// resources those are; it gives the form `/OC`, the layer's object, and takes away its
/// transparency group, so that what is inside blends with the page (a highlighter's multiply
/// over the picture, not over an empty group); the placeholder becomes an empty form. The
/// catalog gets `/OCProperties` naming the layer, on by default.
///
/// The file is written again as Cairo writes one (classic cross-reference table), for
/// `PDFPrint` and `PDFCompaction` after it; nil when Cairo's file is not as expected (the
/// caller then draws the pages without the layer).
enum PDFLayer {
    /// The layer's name, as viewers show it.
    static let name = "Annotations"

    /// `pdf` with every marker's group in the layer, or nil.
    static func apply(_ pdf: [UInt8], markers: [AnnotationLayerMarker]) -> [UInt8]? {
        guard !markers.isEmpty, let file = PDFCompaction.CairoPDF(pdf) else { return nil }
        var document = PDFPrint.Document(pdf: pdf, file: file)
        let layer = document.add("<< /Type /OCG /Name (\(name)) >>")
        for marker in markers {
            // The placeholder's image object (one, with its JPEG bytes as its stream).
            let images = file.objects.filter { object in
                let body = pdf[object.body]
                return Syntax.hasStream(body) && body.firstOccurrence(of: marker.placeholder) != nil
            }
            guard images.count == 1, let image = images.first?.number else { return nil }
            // The form whose resources name it: inline, or through a resource dictionary object.
            let holders = Set(file.objects.compactMap { object -> Int? in
                guard let part = document.dictionaryPart(of: object.number), Self.references(image, in: part.dictionary),
                      part.dictionary.firstOccurrence(of: Array("/XObject".utf8)) != nil else { return nil }
                return object.number
            })
            let forms = file.objects.filter { object in
                guard let part = document.dictionaryPart(of: object.number),
                      part.dictionary.firstOccurrence(of: Array("/Subtype /Form".utf8)) != nil,
                      let key = part.dictionary.firstOccurrence(of: Array("/Resources".utf8)) else { return false }
                if let (resources, _) = Syntax.referenceAfter(key.upperBound, in: part.dictionary) { return holders.contains(resources) }
                return holders.contains(object.number)
            }
            guard forms.count == 1, let form = forms.first?.number, form != image,
                  let part = document.dictionaryPart(of: form),
                  let dictionary = Syntax.inserting(" /OC \(layer) 0 R", afterOpeningOf: Self.withoutGroup(part.dictionary))
            else { return nil }
            document.replace(form, body: Array("\n".utf8) + dictionary + part.rest)
            document.replace(image, body: Array("\n<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream\n".utf8))
        }
        guard let catalog = document.body(of: file.root), catalog.firstOccurrence(of: Array("/OCProperties".utf8)) == nil,
              let withLayer = Syntax.inserting(" /OCProperties << /OCGs [\(layer) 0 R] /D << /Name (\(name)) /Order [\(layer) 0 R] "
                                               + "/ON [\(layer) 0 R] >> >>", afterOpeningOf: catalog)
        else { return nil }
        document.replace(file.root, body: withLayer)
        return document.write(version: nil, id: nil)
    }

    /// Whether `dictionary` holds a reference `number 0 R` (not the tail of a larger number).
    static func references(_ number: Int, in dictionary: [UInt8]) -> Bool {
        let reference = Array("\(number) 0 R".utf8)
        var from = 0
        while let range = dictionary[from...].firstOccurrence(of: reference) {
            let before = range.lowerBound > 0 ? dictionary[range.lowerBound - 1] : 0x20
            let after = range.upperBound < dictionary.count ? dictionary[range.upperBound] : 0x20
            if !(0x30...0x39).contains(before), !Syntax.isRegular(after) { return true }
            from = range.upperBound
        }
        return false
    }

    /// The form's dictionary without its `/Group << ... >>` entry.
    static func withoutGroup(_ dictionary: [UInt8]) -> [UInt8] {
        guard let key = dictionary.firstOccurrence(of: Array("/Group".utf8)) else { return dictionary }
        var open = key.upperBound
        while open < dictionary.count, Syntax.isWhite(dictionary[open]) { open += 1 }
        guard dictionary[open...].starts(with: Array("<<".utf8)), let close = Syntax.matchingClose(dictionary, open: open) else {
            return dictionary
        }
        var out = dictionary
        out.removeSubrange(key.lowerBound..<close)
        return out
    }

    typealias Syntax = PDFCompaction.Syntax
}
