/// Named looks to start from: a frame style and the output resolution that goes with it (a print
/// wants 300 dpi). `Framer(preset:)` starts from one; settings given after it change it.
public enum Preset: String, CaseIterable, Sendable, Codable {
    /// White 3px border, #808080 mat, shadow 0 0 10px rgba(0,0,0,0.6), scale-down.
    case classic
    /// A documentation figure: 1px light-gray border, 8px corners, white mat, a contact shadow and
    /// a soft one, a 16px margin, the caption under the frame, transparent canvas.
    case docs
    /// `docs` for a dark page (GitHub's #0d1117): a #30363d hairline, a #161b22 mat, denser
    /// shadows; the dark twin of `docs` (`Variant.dark`).
    case docsDark = "docs-dark"
    /// A print: white mat, thin dark border, no shadow, pictures at 300 dpi.
    case print
    /// An instant photo: white mat with a deep bottom edge, a small shadow.
    case polaroid
    /// No border, no mat, no shadow: just the scaled picture.
    case none

    /// One line saying what the preset is for.
    public var summary: String {
        switch self {
        case .classic: return "the default: 3px white border, gray mat, soft black shadow all round"
        case .docs: return "documentation figures: thin light-gray border, 8px corners, layered soft shadow, caption below, transparent canvas"
        case .docsDark: return "docs for a dark page (GitHub's #0d1117): #30363d hairline, #161b22 mat, denser shadow"
        case .print: return "prints: white mat, thin dark border, no shadow, 300 dpi"
        case .polaroid: return "an instant photo: white mat with a wider bottom, a small shadow"
        case .none: return "no border, no mat, no shadow: just the scaled picture"
        }
    }

    /// The preset's frame style.
    public var style: FrameStyle {
        switch self {
        case .classic:
            return .classic
        case .docs:
            return Self.docsStyle(borderColor: RGBAColor(red8: 0xd0, green8: 0xd0, blue8: 0xd0), background: .white,
                                  contact: 0.16, soft: 0.28)
        case .docsDark:
            // GitHub's dark palette: its border colour (#30363d) reads as a hairline on the
            // #0d1117 page where docs' #d0d0d0 glares; the mat is its raised surface (#161b22),
            // as a white mat would be the brightest thing on the page. A shadow shows on a dark
            // page only darker than the page and denser: the same two shadows, black at 0.5 and
            // 0.6, so that both versions of a figure have the same size. A window title bar, when
            // one is asked for, takes its platform's dark colours.
            var style = Self.docsStyle(borderColor: RGBAColor(red8: 0x30, green8: 0x36, blue8: 0x3d),
                                       background: RGBAColor(red8: 0x16, green8: 0x1b, blue8: 0x22), contact: 0.5, soft: 0.6)
            style.chrome.theme = .dark
            return style
        case .print:
            return FrameStyle(border: .mm(0.5), borderColor: RGBAColor(red8: 0x22, green8: 0x22, blue8: 0x22),
                              padding: EdgeInsets(all: .mm(8)), background: .white)
        case .polaroid:
            return FrameStyle(border: .zero, padding: EdgeInsets(top: .px(16), right: .px(16), bottom: .px(64), left: .px(16)),
                              background: RGBAColor(red8: 0xfd, green8: 0xfd, blue8: 0xfb),
                              shadows: [BoxShadow(offsetX: .zero, offsetY: .px(2), blur: .px(8),
                                                  color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3))])
        case .none:
            return FrameStyle()
        }
    }

    /// `docs` and `docs-dark`: a 1px hairline, 8px corners, a margin of 16px around the shadows,
    /// the caption under the frame, and two black shadows as design systems layer them (see
    /// docs/options.md): a contact shadow `0 1px 2px` that marks the edge where the figure meets
    /// the page, and a soft one `0 12px 32px -6px`, lit from above, whose negative spread keeps
    /// its sides lighter than its bottom.
    private static func docsStyle(borderColor: RGBAColor, background: RGBAColor, contact: Double,
                                  soft: Double) -> FrameStyle {
        FrameStyle(border: .px(1), borderColor: borderColor, background: background, radius: .px(8),
                   shadows: [BoxShadow(offsetX: .zero, offsetY: .px(1), blur: .px(2),
                                       color: RGBAColor(red: 0, green: 0, blue: 0, alpha: contact)),
                             BoxShadow(offsetX: .zero, offsetY: .px(12), blur: .px(32), spread: .px(-6),
                                       color: RGBAColor(red: 0, green: 0, blue: 0, alpha: soft))],
                   margin: .px(16), canvasColor: .transparent, caption: Caption(position: .below))
    }

    /// Pixels per inch the preset asks for (`OutputOptions.dpi`); nil leaves the format's default.
    public var dpi: Double? {
        self == .print ? 300 : nil
    }
}

/// The light or dark version of a look: the pair a page's light and dark colour schemes switch
/// between (GitHub's `#gh-dark-mode-only`, MkDocs Material's `#only-dark`).
public enum Variant: String, CaseIterable, Sendable, Codable {
    /// The look for a light page.
    case light
    /// The look for a dark page.
    case dark

    /// The page this variant is for, which shows through a transparent canvas and which a
    /// caption's automatic colour reads on there: white, or GitHub's dark page `#0d1117`.
    public var pageColor: RGBAColor {
        self == .light ? .white : RGBAColor(red8: 0x0d, green8: 0x11, blue8: 0x17)
    }
}

extension Preset {
    /// The kind of page the preset's look is for: `docs-dark` a dark one, every other preset a
    /// light one.
    public var variant: Variant { self == .docsDark ? .dark : .light }
}

extension Preset {
    /// This preset's version for `variant`: itself, or its twin (`docs` and `docs-dark`); nil
    /// when it has none (no preset but `docs` has a dark twin yet).
    public func twin(_ variant: Variant) -> Preset? {
        switch (self, variant) {
        case (.docs, .dark), (.docsDark, .dark): return .docsDark
        case (.docsDark, .light): return .docs
        case (_, .light): return self
        case (_, .dark): return nil
        }
    }
}

extension Framer {
    /// These settings in `variant`: the preset's twin for it (`docs` becomes `docs-dark`), with
    /// what was set on top of the preset kept. A look value still as the preset gives it takes
    /// the twin's; one set to something else stays, in both versions. Nil when the preset has
    /// no twin for `variant`.
    public func variant(_ variant: Variant) -> Framer? {
        guard let twin = preset.twin(variant) else { return nil }
        if twin == preset { return self }
        var framer = self
        let from = preset.style, to = twin.style
        func carry<T: Equatable>(_ value: WritableKeyPath<FrameStyle, T>) {
            if framer.style[keyPath: value] == from[keyPath: value] { framer.style[keyPath: value] = to[keyPath: value] }
        }
        carry(\.border); carry(\.borderColor); carry(\.borderStyle); carry(\.innerBorder); carry(\.padding)
        carry(\.background); carry(\.backgroundGradient); carry(\.radius); carry(\.shadows); carry(\.margin)
        carry(\.canvasColor); carry(\.canvasGradient); carry(\.chrome.theme); carry(\.caption.position)
        if output.dpi == preset.dpi { framer.output.dpi = twin.dpi }
        framer.preset = twin
        return framer
    }

    /// These settings for one member of a set (`OutputOptions.setMembers`): in its variant
    /// (`variant(_:)`), at its scale, and asking for no set of their own. Nil when the preset
    /// has no twin for the member's variant.
    ///
    /// A member in a variant is laid out on the canvas that the preset's light and dark
    /// versions share (the union of their canvases, the frames centred on one point), whichever
    /// variants the set asks for: `shot.png` and `shot-dark.png` have one size, made in one run
    /// or in two, and a page that swaps them never jumps.
    public func member(_ member: SetMember) -> Framer? {
        var framer = self
        if let variant = member.variant {
            guard let twin = self.variant(variant) else { return nil }
            framer = twin
            framer.companions = Variant.allCases.compactMap { self.variant($0)?.style }
        }
        framer.output.scale = member.scale
        framer.output.scales = []
        framer.output.variants = []
        return framer
    }
}
