import FramedLayout
import FramedRaster
import FramedRender

/// The frame's look: size, border, mat, corners, placement, shadows.
let lookOptions: [Option] = [
    Option(spec: OptionSpec(name: "size", valueName: "WxH",
                            help: "outer size of the frame, e.g. 600x400, 150mmx100mm, 6inx4in",
                            defaultText: "the picture's size plus border and padding")) { s, v throws(UsageError) in
        s.style.size = try parse("size", v, LengthSize.init(parsing:)); s.style.width = nil; s.style.height = nil
    },
    Option(spec: OptionSpec(name: "width", valueName: "LENGTH",
                            help: "outer width only; the height follows the picture")) { s, v throws(UsageError) in
        s.style.width = try parse("width", v, Length.init(parsing:)); s.style.size = nil; s.style.height = nil
    },
    Option(spec: OptionSpec(name: "height", valueName: "LENGTH",
                            help: "outer height only; the width follows the picture")) { s, v throws(UsageError) in
        s.style.height = try parse("height", v, Length.init(parsing:)); s.style.size = nil; s.style.width = nil
    },
    Option(spec: OptionSpec(name: "border", valueName: "LENGTH", help: "border width, drawn inside the frame",
                            defaultText: "3px")) { s, v throws(UsageError) in
        s.style.border = try parse("border", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "border-color", valueName: "COLOR", help: "border colour", defaultText: "white")) { s, v throws(UsageError) in
        s.style.borderColor = try parse("border-color", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "border-style", valueName: "STYLE", help: "solid or double (CSS border-style)",
                            defaultText: "solid")) { s, v throws(UsageError) in
        s.style.borderStyle = try choice("border-style", v, BorderStyle.self)
    },
    Option(spec: OptionSpec(name: "inner-border", valueName: "'W COLOR'",
                            help: "hairline around the picture inside the mat, e.g. '1px #333' (either order), or none",
                            defaultText: "none")) { s, v throws(UsageError) in
        s.style.innerBorder = try parse("inner-border", v, InnerBorder.parse)
    },
    Option(spec: OptionSpec(name: "padding", valueName: "LENGTHS",
                            help: "mat between border and picture, 1 to 4 lengths in CSS order", defaultText: "0")) { s, v throws(UsageError) in
        s.style.padding = try parse("padding", v, EdgeInsets.init(parsing:))
    },
    Option(spec: OptionSpec(name: "background", valueName: "COLOR", help: "colour of the mat behind the picture",
                            defaultText: "#808080")) { s, v throws(UsageError) in
        s.style.background = try parse("background", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "radius", valueName: "LENGTH", help: "outer corner radius; inner = radius - border",
                            defaultText: "0")) { s, v throws(UsageError) in
        s.style.radius = try parse("radius", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "fit", valueName: "MODE",
                            help: "contain, cover, fill, none or scale-down (CSS object-fit)", defaultText: "scale-down")) { s, v throws(UsageError) in
        s.style.fit = try choice("fit", v, ContentFit.self)
    },
    Option(spec: OptionSpec(name: "position", valueName: "POS",
                            help: "center, top, bottom, left, right, top-left, ... (CSS object-position)",
                            defaultText: "center")) { s, v throws(UsageError) in
        s.style.position = try parse("position", v, ContentPosition.init(parsing:))
    },
    Option(spec: OptionSpec(name: "shadow", valueName: "SHADOWS",
                            help: "CSS box-shadow list '[inset] X Y BLUR SPREAD COLOR, ...', or none",
                            defaultText: "0 0 10px rgba(0,0,0,0.6)")) { s, v throws(UsageError) in
        s.style.shadows = try parse("shadow", v, BoxShadow.parseList)
    },
    Option(spec: OptionSpec(name: "margin", valueName: "LENGTH", help: "empty space around frame and shadows",
                            defaultText: "0")) { s, v throws(UsageError) in
        s.style.margin = try parse("margin", v, Length.init(parsing:))
    },
    Option(spec: OptionSpec(name: "canvas-color", valueName: "COLOR", help: "colour outside the frame",
                            defaultText: "transparent")) { s, v throws(UsageError) in
        s.style.canvasColor = try parse("canvas-color", v, RGBAColor.init(parsing:))
    },
    Option(spec: OptionSpec(name: "image-dpi", valueName: "css|auto|N",
                            help: "size of a picture pixel: 96 per inch, the file's own, or N per inch",
                            defaultText: "css")) { s, v throws(UsageError) in
        switch v.lowercased() {
        case "css": s.style.pictureResolution = .css
        case "auto": s.style.pictureResolution = .auto
        default: s.style.pictureResolution = .dpi(try number("image-dpi", v, maximum: 10_000))
        }
    },
]
