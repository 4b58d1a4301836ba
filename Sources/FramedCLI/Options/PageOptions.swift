import Framed

/// Print pages and PDF documents.
let pageOptions: [Option] = [
    .setting(OptionSpec(name: "page", valueName: "SIZE",
                        help: "centre the framed picture on a page: A3-A6, Letter, Legal, a photo size (4x6, 5x7, 8x10, "
                        + "11x14 in; 10x15, 13x18, 20x30 cm) or WxH with units; a frame without --size shrinks to fit",
                        completion: .words(PageSize.named.compactMap(\.name)))),
    .setting(OptionSpec(name: "orientation", valueName: "O",
                        help: "with --page or --sheet: portrait, landscape, or auto (the picture's way; on sheets, turned to fit)",
                        defaultText: "auto", completion: .cases(PageOrientation.self))),
    .setting(OptionSpec(name: "bleed", valueName: "LENGTH",
                        help: "with --page or --sheet: extra canvas on every side of the page (of each print), e.g. 3mm",
                        defaultText: "0")),
    .setting(OptionSpec(name: "safe-margin", valueName: "LENGTH",
                        help: "with --page or --sheet: fit a frame without --size this far inside the trim, and warn of borders "
                        + "and text nearer the cut", defaultText: "3mm")),
    .setting(OptionSpec(name: "marks", valueName: "MARKS",
                        help: "crop (crop marks at the trim corners, outside the bleed; the output grows 9mm a side; "
                        + "on sheets, along every cut in the margin) or none",
                        defaultText: "none", completion: .cases(PrintMarks.self))),
    .setting(OptionSpec(name: "pdf-variant", valueName: "VARIANT",
                        help: "PDF/X for print shops: pdf/x-4 (or x-4), with output intent, XMP, boxes",
                        completion: .words(PDFVariant.allCases.map(\.rawValue)))),
    .setting(OptionSpec(name: "output-intent", valueName: "FILE.icc",
                        help: "with --pdf-variant: the press's RGB or CMYK ICC profile", defaultText: "sRGB",
                        completion: .file)),
    .setting(OptionSpec(name: "proof", valueName: "FILE.png",
                        help: "PDF: also write a soft proof, the page as the press prints it through the output intent, "
                        + "at --dpi (one file a page, numbered, for several)",
                        completion: .file)),
    .setting(OptionSpec(name: "gamut-warning", valueName: "COLOR",
                        help: "with --proof: paint what the press cannot print in this colour, e.g. magenta")),
    Option(spec: OptionSpec(name: "pages", valueName: nil,
                            help: "all inputs into one PDF, a page each (a repeated picture is stored once)")) { s, _ throws(UsageError) in
        s.pages = true
    },
    .setting(OptionSpec(name: "sheet", valueName: "SIZE",
                        help: "gang the prints on sheets of this paper (A4, Letter, WxH), several to a page of one PDF",
                        completion: .words(PageSize.standard.compactMap(\.name)))),
    .setting(OptionSpec(name: "n-up", valueName: "N",
                        help: "with --sheet: prints a sheet, auto (as many as fit) or COLUMNSxROWS, e.g. 2x3",
                        defaultText: "auto", completion: .words(["auto", "2x2", "2x3", "4x5"]))),
    .setting(OptionSpec(name: "gutter", valueName: "LENGTH",
                        help: "with --sheet: room between prints, trim to trim (at least twice the bleed)",
                        defaultText: "twice the bleed")),
    .setting(OptionSpec(name: "title", valueName: "TEXT", help: "PDF document title")),
    .setting(OptionSpec(name: "author", valueName: "TEXT", help: "PDF document author")),
]
