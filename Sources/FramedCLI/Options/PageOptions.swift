import FramedLayout
import FramedRender

/// Print pages and PDF documents.
let pageOptions: [Option] = [
    Option(spec: OptionSpec(name: "page", valueName: "SIZE",
                            help: "centre the framed picture on a page: A3, A4, A5, Letter, Legal or WxH; "
                                + "a frame without --size shrinks to fit")) { s, v throws(UsageError) in
        s.pageSize = try parse("page", v, PageSize.init(parsing:))
    },
    Option(spec: OptionSpec(name: "orientation", valueName: "O",
                            help: "with --page: portrait, landscape, or auto (the picture's way)",
                            defaultText: "auto")) { s, v throws(UsageError) in
        s.orientation = try choice("orientation", v, PageOrientation.self)
    },
    Option(spec: OptionSpec(name: "bleed", valueName: "LENGTH",
                            help: "with --page: extra canvas on every side of the page, e.g. 3mm",
                            defaultText: "0")) { s, v throws(UsageError) in
        let bleed = try parse("bleed", v, Length.init(parsing:))
        guard bleed.points >= 0 else { throw UsageError("--bleed: \"\(v)\" is negative: the bleed must be zero or more") }
        s.bleed = bleed
    },
    Option(spec: OptionSpec(name: "pages", valueName: nil,
                            help: "all inputs into one PDF, a page each (a repeated picture is stored once)")) { s, _ throws(UsageError) in
        s.pages = true
    },
    Option(spec: OptionSpec(name: "title", valueName: "TEXT", help: "PDF document title")) { s, v throws(UsageError) in
        s.title = v
    },
    Option(spec: OptionSpec(name: "author", valueName: "TEXT", help: "PDF document author")) { s, v throws(UsageError) in
        s.author = v
    },
]
