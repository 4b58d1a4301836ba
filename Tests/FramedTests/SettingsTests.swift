import Framed
import Testing

/// Settings by name (`Framer.set`) and configurations (`Framer(configuration:)`,
/// `framer.configuration`): the words that the command line and config files share.
struct SettingsTests {
    @Test func settingsParseTheirCSSWords() throws {
        var framer = Framer()
        try framer.set("border", "2mm")
        #expect(framer.style.border.points == 2 * 72 / 25.4)
        try framer.set("padding", "1px 2px 3px")
        #expect(framer.style.padding.top.points == 0.75 && framer.style.padding.right.points == 1.5
                && framer.style.padding.bottom.points == 2.25 && framer.style.padding.left.points == 1.5)
        try framer.set("shadow", "0 4px 16px rgba(0,0,0,.35), inset 1px 2px red")
        #expect(framer.style.shadows.count == 2)
        #expect(framer.style.shadows[0].blur.points == 12 && framer.style.shadows[0].color.alpha == 0.35)
        #expect(framer.style.shadows[1].inset && framer.style.shadows[1].color.red == 1)
        try framer.set("size", "150mmx100mm")
        #expect(framer.style.size?.width.points == 150 * 72 / 25.4)
        try framer.set("width", "300")
        #expect(framer.style.size == nil && framer.style.width?.points == 225, "width replaces size")
        try framer.set("format", "PDF")
        #expect(framer.output.format == .pdf)
        try framer.set("dpi", "150")
        try framer.set("quality", "70")
        try framer.set("intent", "relative")
        try framer.set("flatten", "white")
        try framer.set("page", "a4")
        try framer.set("bleed", "3mm")
        try framer.set("safe-margin", "5mm")
        try framer.set("title", "A title")
        #expect(framer.output.dpi == 150 && framer.output.quality == 70 && framer.picture.renderingIntent == .relative)
        #expect(framer.picture.flatten == .white && framer.page.size == .a4 && framer.page.bleed.points == 3 * 72 / 25.4)
        #expect(framer.output.metadata.title == "A title")
        #expect(framer.page.safeMargin == .mm(5) && PageOptions().safeMargin == .mm(3), "3 mm unless set")
        try framer.set("strict", "true")
        #expect(framer.picture.failBelowMinimumPPI && framer.page.failWithinSafeMargin, "strict makes both warnings errors")
        try framer.set("dpi", "3e2")
        try framer.set("trim", "1.5e1%")
        #expect(framer.output.dpi == 300 && framer.picture.trim == 0.15, "numbers are CSS numbers: an exponent reads")
    }

    @Test func switchesTakeTrueOrFalse() throws {
        var framer = Framer()
        try framer.set("lossless", "")
        #expect(framer.output.lossless)
        try framer.set("lossless", "false")
        #expect(!framer.output.lossless)
        try framer.set("no-snap", "TRUE")
        #expect(!framer.output.snap)
        try framer.set("no-auto-orient", "true")
        #expect(!framer.picture.autoOrient)
        #expect(throws: SettingError(setting: "strict", reason: "\"maybe\" is not true or false")) {
            try framer.set("strict", "maybe")
        }
    }

    /// A preset replaces the look and the resolution it carries, and nothing else.
    @Test func aPresetStartsTheLookAgain() throws {
        var framer = Framer()
        try framer.set("quality", "50")
        try framer.set("border", "9px")
        try framer.set("preset", "print")
        #expect(framer.preset == .print && framer.style == Preset.print.style && framer.output.dpi == 300)
        #expect(framer.output.quality == 50, "settings outside the look stay")
        try framer.set("preset", "docs")
        #expect(framer.output.dpi == nil && framer.style.radius.points == 6)
    }

    @Test func errorsNameTheSettingNotAnOption() {
        var framer = Framer()
        let cases: [(String, String, String)] = [
            ("border", "12qq", "border: invalid length \"12qq\": unknown unit \"qq\" (use px, pt, in, mm or cm)"),
            ("fit", "sideways", "fit: \"sideways\" is not one of contain, cover, fill, none, scale-down"),
            ("scale", "0", "scale: \"0\" is not a positive number"),
            ("scale", "65", "scale: 65 is too large (at most 64)"),
            ("scale", "1,2,1", "scale: 1 is given twice in \"1,2,1\""),
            ("scale", "1,,2", "scale: \"\" is not a positive number"),
            ("scale", "0x2", "scale: \"0x2\" is not a positive number"),
            ("dpi", "0x12C", "dpi: \"0x12C\" is not a positive number"),
            ("dpi", "nan", "dpi: \"nan\" is not a positive number"),
            ("trim", "0x10%", "trim: \"0x10%\" is not a tolerance: give a percentage from 0% to 100%, like 10%, or none"),
            ("variant", "dim", "variant: \"dim\" is not one of light, dark"),
            ("variant", "dark,dark", "variant: dark is given twice in \"dark,dark\""),
            ("quality", "101", "quality: \"101\" is not a whole number from 1 to 100"),
            ("bleed", "-1mm", "bleed: \"-1mm\" is negative: the bleed must be zero or more"),
            ("safe-margin", "-1mm", "safe-margin: \"-1mm\" is negative: the safe margin must be zero or more"),
            ("page", "4x5", "page: invalid page \"4x5\": a page needs units, like 4inx6in or 10x15cm (a page of pixels is "
                + "never meant; the photo sizes 4x6, 5x7, 8x10, 11x14 are inches, 10x15, 13x18, 20x30 cm)"),
            ("bordr", "1px", "bordr: no such setting (did you mean \"border\"?)"),
        ]
        for (name, value, message) in cases {
            do {
                try framer.set(name, value)
                Issue.record("\(name) \(value) was taken")
            } catch {
                #expect(error.description == message)
                #expect(!error.description.contains("--"), "no command-line flag in \(error)")
            }
        }
    }

    @Test func everySettingIsNamedOnceAndReadsBack() throws {
        let names = Setting.all.map(\.name)
        #expect(Set(names).count == names.count)
        // A framer with every setting changed prints as a configuration that loads back to it.
        var framer = Framer(preset: .polaroid)
        let values: [String: String] = [
            "format": "svg", "size": "600x400", "border": "2px", "border-color": "#123456", "border-style": "double",
            "inner-border": "1px #333", "padding": "1px 2px", "background": "rgb(10 20 30 / 0.5)", "radius": "3mm",
            "fit": "cover", "position": "bottom-left", "shadow": "1px 2px 3px 4px red, inset 0 0 2px blue",
            "margin": "1in", "canvas-color": "radial-gradient(circle at 10% 20%, red, blue 80%)", "aspect": "4:3", "canvas-image": "wall.jpg", "canvas-blur": "1.5mm", "chrome": "windows", "chrome-theme": "dark", "chrome-title": "Café — 報告", "image-dpi": "144", "scale": "1,2.5,3", "variant": "light,dark",
            "caption": "Ω \u{202B}שלום", "caption-font": "oblique small-caps 300 condensed 10pt 'DejaVu Sans', monospace",
            "caption-position": "below", "caption-align": "start", "caption-color": "rgba(1, 2, 3, 0.5)", "dpi": "200",
            "no-snap": "true", "embed": "png", "quality": "75", "lossless": "true", "resample": "box", "flatten": "#eee",
            "no-auto-orient": "true", "trim": "2.5%", "annotate": "arrow 1,2 -> 3,4 via=50%,1; redact 0,0 5x5 color=white", "rendering-intent": "relative", "max-pixels": "1000000", "min-ppi": "150", "strict": "true",
            "page": "Letter", "orientation": "landscape", "bleed": "0.125in", "safe-margin": "0.25in", "title": "T", "author": "A",
            "marks": "crop", "pdf-variant": "X-4", "output-intent": "press.icc", "proof": "soft.png", "gamut-warning": "lime",
            "sheet": "A3", "n-up": "3x4", "gutter": "0.25in",
        ]
        // canvas-size replaces aspect (as size, width and height replace each other): FigureSettingsTests.
        #expect(Set(values.keys).union(["preset", "width", "height", "canvas-size"]) == Set(names), "every setting is tried")
        for name in names where values[name] != nil { try framer.set(name, values[name]!) }
        let printed = framer.configuration
        let reloaded = try Framer(configuration: Array(printed.utf8))
        #expect(reloaded == framer, "\(printed)")
        #expect(reloaded.configuration == printed)
    }

    @Test func aConfigurationIsAJSONObjectOfSettings() throws {
        let json = #"{"border": "2px", "preset": "docs", "lossless": true, "no-snap": false, "dpi": 150}"#
        let framer = try Framer(configuration: Array(json.utf8))
        #expect(framer.preset == .docs && framer.style.border.points == 1.5, "the preset first, then the others")
        #expect(framer.output.lossless && framer.output.snap && framer.output.dpi == 150)
        let wrong: [(String, String)] = [
            (#"{"bordr": "2px"}"#, #"unknown setting "bordr" (did you mean "border"?)"#),
            (#"{"border": "2px", "border": "3px"}"#, #""border" is given twice"#),
            (#"{"lossless": "yes"}"#, #""lossless" must be true or false, not the string "yes""#),
            (#"{"border": [1]}"#, #""border" must be a string or a number, not a list"#),
            (#"{"size": "10x10", "width": 10}"#, #""size" and "width" replace each other; give one"#),
            (#"[1, 2]"#, "not a JSON object of settings (the top level must be an object)"),
            (#"{"border": "-"}"#, #"border: invalid length "-": expected a number with an optional unit (px, pt, in, mm or cm), like 12px or 3.5mm"#),
        ]
        for (text, reason) in wrong {
            #expect(throws: ConfigurationError(file: nil, reason: reason)) { try Framer(configuration: Array(text.utf8)) }
        }
    }

    /// Each alias sets what its setting sets, by `set` and in a configuration, which writes the
    /// setting's own name; an alias and its name together are refused; a near miss suggests the
    /// nearest name, alias or not.
    @Test func aliasesSetWhatTheirSettingsSet() throws {
        let aliases: [(alias: String, name: String, value: String)] = [
            ("border-width", "border", "2mm"), ("background-color", "background", "#abcdef"), ("border-radius", "radius", "12px"),
            ("object-fit", "fit", "cover"), ("object-position", "position", "top left"),
            ("box-shadow", "shadow", "0 4px 16px rgba(0,0,0,.35)"), ("aspect-ratio", "aspect", "16:9"),
            ("backdrop", "canvas-color", "#336699"), ("intent", "rendering-intent", "relative"),
        ]
        #expect(Set(Setting.all.flatMap(\.aliases)) == Set(aliases.map(\.alias)), "every alias is tried")
        for (alias, name, value) in aliases {
            var byAlias = Framer(), byName = Framer()
            try byAlias.set(alias, value)
            try byName.set(name, value)
            #expect(byAlias == byName && byAlias != Framer(), "\(alias) sets \(name)")
            #expect(Setting.named(alias)?.name == name)
            let configured = try Framer(configuration: Array(#"{"\#(alias)": "\#(value)"}"#.utf8))
            #expect(configured == byName, "\(alias) in a configuration")
            #expect(configured.configuration.contains("\"\(name)\":") && !configured.configuration.contains("\"\(alias)\":"))
        }
        var css = Framer()
        try css.set("aspect-ratio", "16 / 9")
        #expect(css.style.aspect == AspectRatio(width: 16, height: 9), "CSS aspect-ratio's W / H")
        #expect(throws: ConfigurationError(file: nil, reason: #""radius" and "border-radius" name the same setting; give one"#)) {
            try Framer(configuration: Array(#"{"radius": "1px", "border-radius": "2px"}"#.utf8))
        }
        var framer = Framer()
        #expect(throws: SettingError(setting: "borderradius", reason: #"no such setting (did you mean "border-radius"?)"#)) {
            try framer.set("borderradius", "1px")
        }
        #expect(throws: SettingError(setting: "backgroundcolor", reason: #"no such setting (did you mean "background-color"?)"#)) {
            try framer.set("backgroundcolor", "red")
        }
    }
}
