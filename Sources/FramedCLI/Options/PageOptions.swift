import Framed

/// Print pages and PDF documents.
let pageOptions: [Option] = [
    .setting(OptionSpec(name: "page", valueName: "SIZE",
                        help: "centre the framed picture on a page: A3-A6, Letter, Legal, a photo size (4x6, 5x7, 8x10, "
                        + "11x14 in; 10x15, 13x18, 20x30 cm) or WxH with units; a frame without --size shrinks to fit",
                        completion: .words(PageSize.named.compactMap(\.name)))),
    .setting(OptionSpec(name: "orientation", valueName: "O",
                        help: "with --page: portrait, landscape, or auto (the picture's way)",
                        defaultText: "auto", completion: .cases(PageOrientation.self))),
    .setting(OptionSpec(name: "bleed", valueName: "LENGTH",
                        help: "with --page: extra canvas on every side of the page, e.g. 3mm",
                        defaultText: "0")),
    .setting(OptionSpec(name: "safe-margin", valueName: "LENGTH",
                        help: "with --page: fit a frame without --size this far inside the trim, and warn of borders "
                        + "and text nearer the cut", defaultText: "3mm")),
    .setting(OptionSpec(name: "marks", valueName: "MARKS",
                        help: "crop (crop marks at the trim corners, outside the bleed; the output grows 9mm a side) or none",
                        defaultText: "none", completion: .cases(PrintMarks.self))),
    .setting(OptionSpec(name: "pdf-variant", valueName: "VARIANT",
                        help: "PDF/X for print shops: pdf/x-4 (or x-4), with output intent, XMP, boxes",
                        completion: .words(PDFVariant.allCases.map(\.rawValue)))),
    .setting(OptionSpec(name: "output-intent", valueName: "FILE.icc",
                        help: "with --pdf-variant: the press's RGB or CMYK ICC profile", defaultText: "sRGB",
                        completion: .file)),
    Option(spec: OptionSpec(name: "pages", valueName: nil,
                            help: "all inputs into one PDF, a page each (a repeated picture is stored once)")) { s, _ throws(UsageError) in
        s.pages = true
    },
    .setting(OptionSpec(name: "title", valueName: "TEXT", help: "PDF document title")),
    .setting(OptionSpec(name: "author", valueName: "TEXT", help: "PDF document author")),
]
