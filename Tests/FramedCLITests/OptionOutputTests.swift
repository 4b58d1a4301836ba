import Foundation
import FramedRaster
import FramedTestSupport
import Testing

/// Every option that changes the output, checked in the output file against what the test
/// works out itself: the built `framed` run as a user runs it, then the PNG's pixels, the SVG's
/// embedded picture or the PDF's images and pages read back. The expectations come from the
/// test's own arithmetic (CSS box model, its own resampling kernels, the IJG quantisation
/// tables for a JPEG quality) or from an independent tool (lcms2's `transicc`, with a committed
/// copy of its answer), never from framed's report or layout, which only repeat the option back.
///
/// `checks` lists, for every option of docs/options.md, the tests that hold it in the output;
/// `everyOptionIsCheckedInTheOutput` keeps that list complete and its tests real.
struct OptionOutputTests {
    // MARK: The list

    /// For each option in docs/options.md, the tests (`Suite.test`) that check its effect in the
    /// output; options that change no picture are checked by what they do (files, messages).
    static let checks: [String: [String]] = [
        "output": ["CLITests.theIssueExamplesWork", "BatchTests"],
        "format": ["OptionOutputTests.formatWinsOverTheExtension", "CLITests.formatComesFromFlagWhenExtensionSaysNothing"],
        "preset": ["OptionOutputTests.presetsLookAsDocumented", "PresetConfigLayoutTests.everyPresetRenders"],
        "config": ["PresetConfigLayoutTests.configIsOverriddenByTheCommandLine"],
        "print-config": ["PresetConfigLayoutTests.printConfigCoversEveryOptionAndRoundTrips"],
        "size": ["OptionOutputTests.sizeWidthAndHeightSetTheFrame", "CLITests.theIssueExamplesWork"],
        "width": ["OptionOutputTests.sizeWidthAndHeightSetTheFrame"],
        "height": ["OptionOutputTests.sizeWidthAndHeightSetTheFrame"],
        "border": ["BorderTests.oneCSSPixelBorderIsCrispOnAnOffGridFrame", "OptionOutputTests.radiusRoundsTheFrameAndTheBorderKeepsItsWidth"],
        "border-color": ["BorderTests.oneCSSPixelBorderIsCrispOnAnOffGridFrame", "ShadowColourTests.colouredTranslucentShadowsAreExact"],
        "border-style": ["BorderTests.doubleBorderDrawsTwoBandsWithTheMatBetween"],
        "inner-border": ["BorderTests.innerBorderOutlinesThePictureInsideTheMat"],
        "padding": ["OptionOutputTests.paddingTakesCSSOrder"],
        "background": ["OptionOutputTests.paddingTakesCSSOrder", "ShadowColourTests.colouredTranslucentShadowsAreExact",
                       "BackdropTests.cornerKeywordsAndStopPositions", "BackdropTests.gradientsStayVectorInSVGAndPDF",
                       "BackgroundWarningTests.aCoveredBackgroundChangesNothingAndSaysSo"],
        "radius": ["OptionOutputTests.radiusRoundsTheFrameAndTheBorderKeepsItsWidth"],
        "fit": ["OptionOutputTests.fitAndPositionPlaceThePictureAsCSSDoes"],
        "position": ["OptionOutputTests.fitAndPositionPlaceThePictureAsCSSDoes"],
        "shadow": ["ShadowColourTests.colouredTranslucentShadowsAreExact", "ShadowAccuracyTests.shadowMatchesErfProduct",
                   "RoundedShadowTests.shadowMatchesExactShape", "OptionOutputTests.theCanvasHoldsAShadowsWholeReach"],
        "margin": ["OptionOutputTests.marginAndCanvasColourSurroundTheFrame"],
        "canvas-color": ["OptionOutputTests.marginAndCanvasColourSurroundTheFrame",
                         "BackdropTests.linearCanvasGradientFollowsTheCSSGradientLine",
                         "BackdropTests.radialGradientsHaveTheirCSSShapeAndSize",
                         "BackdropTests.jpegAndTIFFOutputsHaveTheGradientToo",
                         "PictureBackdropTests.autoTakesTheEdgesHueAndLetsTheShadowRead",
                         "BackgroundWarningTests.backdropIsCanvasColourByAnotherName"],
        "canvas-image": ["PictureBackdropTests.aCanvasImageCoversTheCanvasAsCSSDoes",
                         "PictureBackdropTests.theBlurIsCSSsGaussianAtEveryScaleAndFormat",
                         "PictureBackdropTests.aCanvasImageThatCannotBeReadIsOneLine"],
        "canvas-blur": ["PictureBackdropTests.theBlurIsCSSsGaussianAtEveryScaleAndFormat"],
        "aspect": ["BackdropTests.aspectGrowsTheCanvasAroundTheFrame"],
        "canvas-size": ["CanvasSizeTests.theOutputIsExactlyTheSizeInEveryFormatWithThePictureFittedAndCentred",
                        "CanvasSizeTests.whatCannotFitIsAnErrorAndTheRatioOptionsReplaceEachOther"],
        "chrome": ["ChromeTests.macOSButtonsSitOnTheBarAboveThePicture", "ChromeTests.windowsGlyphsAreRightAlignedInTheirButtons",
                   "ChromeTests.thePlainBarIsRoundedByTheFramesCorners", "ChromeTests.layoutAndBatchesHaveTheBar"],
        "chrome-theme": ["ChromeTests.macOSButtonsSitOnTheBarAboveThePicture", "ChromeTests.windowsGlyphsAreRightAlignedInTheirButtons",
                         "ChromeTests.jpegAndTIFFOutputsHaveTheBar", "ChromeTests.theTitleIsCentredInTheThemesColour",
                         "ChromeTests.darkMacOSWindowsHaveRims", "ChromeTests.theWindowsTitleSitsAtTheLeft"],
        "chrome-title": ["ChromeTests.theTitleIsCentredInTheThemesColour", "ChromeTests.aLongTitleIsEllipsisedAndStaysTextInPDF",
                         "ChromeTests.rightToLeftTitlesAreShaped", "ChromeTests.theWindowsTitleSitsAtTheLeft"],
        "image-dpi": ["OptionOutputTests.imageDPISetsThePicturesNaturalSize"],
        "scale": ["CLITests.theIssueExamplesWork", "ShadowColourTests.colouredTranslucentShadowsAreExact",
                  "SetTests.scalesAreNamedTheWebWayAndSizedExactly", "SetTests.theLargestOfASetIsItsOwnFramingByteForByte",
                  "SetSizeTests.aMemberWithFewerPixelsThanItNeedsIsNamedWithThePixels"],
        "variant": ["SetTests.theDarkFileHasDocsDarksColours", "SetTests.templatesTakeScaleAndVariant",
                    "SetSizeTests.lightAndDarkHaveOneSizeAtEveryScaleWithTheFrameAtOnePlace"],
        "caption": ["CaptionTests.pdfKeepsTheCaptionAsTextInAnEmbeddedSubsetFont", "CaptionTests.pngInkStaysInTheBoxThatLayoutReports",
                    "CaptionTests.svgAndPDFDrawTheCaptionWhereLayoutSays", "CaptionTests.aLongCaptionWrapsInWholeLines",
                    "CaptionContrastTests.descendersKeepHalfAnEmFromTheBorder"],
        "caption-font": ["CaptionTests.colourFontAndPositionChangeTheOutput", "CaptionTests.aMissingFontFallsBackWithAWarning"],
        "caption-position": ["CaptionTests.colourFontAndPositionChangeTheOutput", "CaptionTests.pngInkStaysInTheBoxThatLayoutReports",
                             "CaptionContrastTests.theCaptionUnderTheFrameClearsItsShadow"],
        "caption-align": ["CaptionTests.alignmentMovesTheInk"],
        "caption-color": ["CaptionTests.colourFontAndPositionChangeTheOutput", "CaptionTests.pngInkStaysInTheBoxThatLayoutReports",
                          "CaptionContrastTests.theAutomaticColourAtTheEdgesOfItsRule",
                          "CaptionContrastTests.captionsReadOnGradientsAndDarkPagesInEveryFormat",
                          "CaptionContrastTests.captionsThatDoNotReadAreWarnedAbout",
                          "CaptionContrastTests.captionsReadOnBackdropsMadeFromPictures"],
                "dpi": ["OptionOutputTests.dpiSetsThePixelsOfEveryFormat"],
        "no-snap": ["BorderTests.oneCSSPixelBorderIsCrispOnAnOffGridFrame"],
        "embed": ["OptionOutputTests.embedLosslessAndTurnedPicturesAreStoredAsAsked"],
        "quality": ["OptionOutputTests.qualitySetsTheEmbeddedJPEGsQuantisation"],
        "lossless": ["OptionOutputTests.embedLosslessAndTurnedPicturesAreStoredAsAsked", "PictureOptionTests.embeddingChoices"],
        "resample": ["OptionOutputTests.resampleGivesEachFiltersOwnResult"],
        "flatten": ["OptionOutputTests.flattenCompositesOntoTheColour", "OptionOutputTests.aTranslucentPictureKeepsItsColoursInPNG"],
        "trim": ["TrimTests.exactAndFuzzyTrimKeepTheFixturesContent", "TrimTests.transparentEdgesAreTrimmed",
                 "TrimTests.aBigPhotoIsTrimmedOnItsShrunkDecode"],
        "no-auto-orient": ["PictureOptionTests.exifOrientationTurnsThePictureUnlessToldNotTo"],
        "annotate": ["AnnotationTests.badgeArrowAndHighlighterLandWhereTheArithmeticSaysInEveryRenderer",
                     "AnnotationTests.redactedPixelsAreInNoOutputsPicture", "AnnotationTests.thePDFsCalloutsAreALayerThatAViewerCanHide",
                     "AnnotationTests.theSVGKeepsCalloutsAsClassedVectorsOverItsOnePicture",
                     "AnnotationTests.eachPictureTakesItsOwnFileAndLayoutListsTheBoxes"],
        "rendering-intent": ["OptionOutputTests.intentConvertsACMYKPictureAsLcmsDoes"],
        "max-pixels": ["OptionOutputTests.maxPixelsIsTheMostAllowed", "PictureOptionTests.maxPixelsRefusesBigPictures"],
        "min-ppi": ["PictureOptionTests.minimumResolutionWarnsOrFails"],
        "strict": ["PictureOptionTests.minimumResolutionWarnsOrFails", "SafeZoneCLITests.aBorderOnTheCutIsWarnedAboutOrRefused"],
        "page": ["PresetConfigLayoutTests.pagesCentreTheFramedPictureAndBleedGrowsTheMedia", "SafeZoneCLITests.photoSizesAndBareNumbers"],
        "safe-margin": ["SafeZoneCLITests.thePrintPresetKeepsItsBorderOffTheCut", "SafeZoneCLITests.theEdgesOfTheMargin",
                        "SafeZoneCLITests.aBorderOnTheCutIsWarnedAboutOrRefused"],
        "orientation": ["OptionOutputTests.orientationTurnsThePage"],
        "bleed": ["PresetConfigLayoutTests.pagesCentreTheFramedPictureAndBleedGrowsTheMedia", "PrintTests.everyPDFHasItsBoxes",
                  "PrintBleedTests.theMatOnTheTrimRunsThroughTheBleedInEveryFormat", "PrintBleedTests.aPhotoOnTheTrimContinuesItsEdges",
                  "PrintBleedTests.roundedCornersLeavePaperBesideThem", "PrintBleedTests.aGradientCanvasRunsIntoTheBleed"],
        "marks": ["PrintTests.cropMarksRenderWhereTheyBelong", "PrintTests.cropMarksInSVGAndPNG"],
        "pdf-variant": ["PrintTests.pdfX4HasEveryPart"],
        "output-intent": ["PrintTests.cmykOutputIntent"],
        "proof": ["ProofTests.theProofIsWhatTificcProofsAndTheShareWhatItMarks", "ProofTests.anSRGBProofIsThePage",
                  "ProofTests.pagesGetAProofEach"],
        "gamut-warning": ["ProofTests.theProofIsWhatTificcProofsAndTheShareWhatItMarks"],
        "sheet": ["SheetPrintTests.sheetsRenderWhereTheGridSays", "SheetTests"],
        "n-up": ["SheetPrintTests.aContactSheetIsAGridWithCaptions", "SheetTests.aGridSharesTheSheetOut"],
        "gutter": ["SheetPrintTests.sheetsRenderWhereTheGridSays", "SheetTests.marksRunAlongEveryCutInTheMargin"],
        "pages": ["PresetConfigLayoutTests.severalPicturesMakeOneMultiPagePDFWithEachPictureOnce"],
        "title": ["PresetConfigLayoutTests.severalPicturesMakeOneMultiPagePDFWithEachPictureOnce"],
        "author": ["PresetConfigLayoutTests.severalPicturesMakeOneMultiPagePDFWithEachPictureOnce"],
        "jobs": ["BatchTests"],
        "recursive": ["BatchTests"],
        "overwrite": ["FileOutputTests.anExistingOutputIsKeptUnlessReplaced", "CLITests.corruptJPEGLeavesNothingAndKeepsAnExistingOutput"],
        "fail-fast": ["BatchTests"],
        "quiet": ["BatchTests"],
        "dry-run": ["PresetConfigLayoutTests.layoutMatchesTheRenderedGeometry"],
        "help": ["CLITests.helpListsEveryOptionWithDefaults"],
        "version": ["CLITests.helpListsEveryOptionWithDefaults"],
    ]

    @Test func everyOptionIsCheckedInTheOutput() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let table = try String(contentsOf: root.appendingPathComponent("docs/options.md"), encoding: .utf8)
        let options = table.split(separator: "\n").filter { $0.hasPrefix("| `-") }.compactMap { row -> String? in
            guard let range = row.range(of: "`--") else { return nil }
            return String(row[range.upperBound...].prefix { $0.isLetter || $0 == "-" })
        }
        #expect(options.count > 40, "the option table: \(options)")
        #expect(Set(options) == Set(Self.checks.keys),
                "not listed: \(Set(options).subtracting(Self.checks.keys)); not options: \(Set(Self.checks.keys).subtracting(options))")
        // Each test named is a suite (or a test of one) in Tests/.
        var sources = ""
        for case let file as String in FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests").path)
            ?? FileManager.DirectoryEnumerator() where file.hasSuffix(".swift") {
            sources += try String(contentsOf: root.appendingPathComponent("Tests").appendingPathComponent(file), encoding: .utf8)
        }
        for name in Set(Self.checks.values.joined()) {
            let parts = name.split(separator: ".")
            #expect(sources.contains("struct \(parts[0]) "), "\(name): no suite \(parts[0])")
            if parts.count > 1 { #expect(sources.contains("func \(parts[1])("), "\(name): no test \(parts[1])") }
        }
    }

    // MARK: Helpers

    /// Runs framed in `folder`; the run must succeed.
    @discardableResult
    static func framed(_ arguments: [String], in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLITests.Result {
        let r = try CLITests.framed(arguments + ["-f"], in: folder)
        try #require(r.status == 0, "framed \(arguments.joined(separator: " ")): \(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    /// Writes `image` as a PNG: RGB when it is opaque, else RGBA.
    static func write(_ image: RasterImage, _ name: String, in folder: URL) throws {
        try Data(PictureEncoder.png(image, dropAlpha: !image.hasAlpha)).write(to: folder.appendingPathComponent(name))
    }

    static func png(_ name: String, in folder: URL) throws -> RasterImage {
        try Pictures.decode(contentsOf: folder.appendingPathComponent(name).path).image
    }

    /// The one picture an SVG embeds: its MIME type (`image/png`, `image/jpeg`) and bytes.
    static func embedded(svg name: String, in folder: URL) throws -> (type: String, bytes: [UInt8]) {
        let svg = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        #expect(svg.components(separatedBy: "data:image/").count == 2, "one embedded picture in \(name)")
        let start = try #require(svg.range(of: "data:image/"))
        let rest = svg[start.upperBound...]
        let type = "image/" + rest.prefix { $0 != ";" }
        let payload = try #require(rest.range(of: "base64,"))
        let encoded = rest[payload.upperBound...].prefix { $0 != "\"" }.filter { !$0.isWhitespace }
        return (type, [UInt8](try #require(Data(base64Encoded: String(encoded)))))
    }

    /// The pictures of a PDF as `pdfimages -all` writes them (JPEG as it is stored, the rest as
    /// PNG), with `pdfimages -list`'s encoding of each (`jpeg`, `image`...).
    static func pdfPictures(_ name: String, in folder: URL) throws -> [(encoding: String, width: Int, height: Int, bytes: [UInt8])] {
        let pdf = folder.appendingPathComponent(name).path
        let rows = try Support.output("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }.filter { $0[2] == "image" }
        let prefix = folder.appendingPathComponent("extracted-\(name)").path
        try #require(try Support.run("pdfimages", ["-all", pdf, prefix]) == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("extracted-\(name)-") }.sorted()
        var pictures: [(String, Int, Int, [UInt8])] = []
        for (row, file) in zip(rows, files.filter { !$0.contains("smask") }) {
            pictures.append((String(row[8]), Int(row[3])!, Int(row[4])!,
                             [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))))
        }
        #expect(pictures.count == rows.count, "\(files)")
        return pictures
    }

    /// The colour runs along row `y` (or column `x`) of `image`: each pixel within 12 levels of a
    /// colour of `palette` counts as that colour's index; pixels matching none (antialiased
    /// edges) are left out, and equal neighbours merge. `to` is exclusive.
    static func runs(_ image: RasterImage, palette: [(Int, Int, Int)], row y: Int? = nil, column x: Int? = nil)
        -> [(colour: Int, from: Int, to: Int)] {
        let count = y != nil ? image.width : image.height
        var out: [(colour: Int, from: Int, to: Int)] = []
        for i in 0..<count {
            let p = image.rgba(y != nil ? i : x!, y ?? i)
            guard p.a == 255, let c = palette.firstIndex(where: { abs($0.0 - p.r) <= 12 && abs($0.1 - p.g) <= 12 && abs($0.2 - p.b) <= 12 })
            else { continue }
            if let last = out.last, last.colour == c { out[out.count - 1].to = i + 1 } else { out.append((c, i, i + 1)) }
        }
        return out
    }

    /// Whether `runs` are `expected` (colour, from, to), each boundary within one pixel.
    static func matches(_ runs: [(colour: Int, from: Int, to: Int)], _ expected: [(Int, Int, Int)]) -> Bool {
        runs.count == expected.count && zip(runs, expected).allSatisfy { r, e in
            r.colour == e.0 && abs(r.from - e.1) <= 1 && abs(r.to - e.2) <= 1
        }
    }

    /// A picture of vertical stripes, `stripe` pixels wide, in `colours` from the left.
    static func stripes(_ colours: [(Int, Int, Int)], stripe: Int, height: Int) -> RasterImage {
        let width = stripe * colours.count
        var pixels = [UInt8]()
        for _ in 0..<height {
            for x in 0..<width {
                let c = colours[x / stripe]
                pixels += [UInt8(c.0), UInt8(c.1), UInt8(c.2), 255]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// A busy opaque picture: every channel changes from pixel to pixel.
    static func busy(_ width: Int, _ height: Int) -> RasterImage {
        Support.busyPicture(width: width, height: height, alpha: false)
    }

    // MARK: Format, size, padding, radius

    @Test func formatWinsOverTheExtension() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.framed(["photo.jpg", "-o", "a.png", "--format", "pdf"], in: folder)
        try Self.framed(["photo.jpg", "-o", "b.pdf", "--format", "svg"], in: folder)
        try Self.framed(["photo.jpg", "-o", "c.svg", "--format", "png"], in: folder)
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.png")).starts(with: Data("%PDF-".utf8)))
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.pdf")).starts(with: Data("<?xml".utf8)))
        // 320x200 px with the classic 3px border and 3 sigma (15px) of shadow on each side.
        let png = try Self.png("c.svg", in: folder)
        #expect(png.width == 320 + 2 * 3 + 2 * 15 && png.height == 200 + 2 * 3 + 2 * 15)
    }

    @Test func sizeWidthAndHeightSetTheFrame() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let look = ["--preset", "none", "--border", "5", "--border-color", "#000000"]
        // photo.jpg is 320x200 (1.6:1): the content box keeps that ratio, the border adds 10px.
        for (option, value, width, height) in [("--width", "210", 210, 200 / 1.6 + 10), ("--height", "110", 100 * 1.6 + 10, 110),
                                                ("--width", "1in", 96, 86 / 1.6 + 10), ("--size", "300x100", 300, 100)] {
            try Self.framed(["photo.jpg", "-o", "s.png"] + look + [option, value], in: folder)
            let png = try Self.png("s.png", in: folder)
            #expect(png.width == Int(Double(width).rounded(.up)) && png.height == Int(Double(height).rounded(.up)),
                    "\(option) \(value): \(png.width)x\(png.height), not \(width)x\(height)")
            #expect(png.pixel(x: 2, y: png.height / 2) == (0, 0, 0, 255) && png.pixel(x: png.width - 3, y: 2) == (0, 0, 0, 255),
                    "\(option) \(value): the border at the canvas's edge")
        }
    }

    @Test func paddingTakesCSSOrder() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Support.picture(width: 50, height: 50, rgb: (255, 0, 0)), "red.png", in: folder)
        let palette = [(255, 0, 0), (0, 0, 255)]  // picture, mat
        // (padding, top, right, bottom, left) in px, CSS's order.
        for (padding, top, right, bottom, left) in [("2px 4px 6px 8px", 2, 4, 6, 8), ("2px 4px 6px", 2, 4, 6, 4),
                                                    ("3px 9px", 3, 9, 3, 9), ("5px", 5, 5, 5, 5), ("0.75pt 3pt", 1, 4, 1, 4)] {
            try Self.framed(["red.png", "-o", "p.png", "--preset", "none", "--size", "100x80", "--fit", "fill",
                             "--background", "#0000ff", "--padding", padding], in: folder)
            let png = try Self.png("p.png", in: folder)
            #expect(png.width == 100 && png.height == 80)
            let across = Self.runs(png, palette: palette, row: 40), down = Self.runs(png, palette: palette, column: 50)
            #expect(Self.matches(across, [(1, 0, left), (0, left, 100 - right), (1, 100 - right, 100)].filter { $0.1 < $0.2 }),
                    "\(padding): across \(across)")
            #expect(Self.matches(down, [(1, 0, top), (0, top, 80 - bottom), (1, 80 - bottom, 80)].filter { $0.1 < $0.2 }),
                    "\(padding): down \(down)")
        }
    }

    /// The outer corners follow a circle of the radius; the border keeps its width round the
    /// corner, its inner edge a circle of radius minus border about the same centre.
    @Test func radiusRoundsTheFrameAndTheBorderKeepsItsWidth() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Support.picture(width: 40, height: 40, rgb: (255, 255, 255)), "white.png", in: folder)
        let radius = 24.0, border = 8.0
        try Self.framed(["white.png", "-o", "r.png", "--preset", "none", "--size", "120x100", "--radius", "24",
                         "--border", "8", "--border-color", "#000000", "--background", "#ff0000", "--padding", "20"], in: folder)
        let png = try Self.png("r.png", in: folder)
        #expect(png.width == 120 && png.height == 100)
        var checked = (outside: 0, border: 0, mat: 0)
        // Every pixel of each corner's 24x24 square, mirrored to the top-left one.
        for (cornerX, cornerY) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            for j in 0..<Int(radius) {
                for i in 0..<Int(radius) {
                    let x = cornerX == 0 ? i : png.width - 1 - i, y = cornerY == 0 ? j : png.height - 1 - j
                    let d = ((radius - Double(i) - 0.5) * (radius - Double(i) - 0.5)
                             + (radius - Double(j) - 0.5) * (radius - Double(j) - 0.5)).squareRoot()
                    let p = png.pixel(x: x, y: y)
                    if d > radius + 0.75 {
                        #expect(p.a == 0, "outside the corner at \(x),\(y)"); checked.outside += 1
                    } else if d < radius - 0.75 && d > radius - border + 0.75 {
                        #expect(p == (0, 0, 0, 255), "border at \(x),\(y): \(p)"); checked.border += 1
                    } else if d < radius - border - 0.75 && Double(min(i, j)) >= border + 0.5 {
                        #expect(p == (255, 0, 0, 255), "mat at \(x),\(y): \(p)"); checked.mat += 1
                    }
                }
            }
        }
        #expect(checked.outside > 200 && checked.border > 300 && checked.mat > 50, "\(checked)")
    }

    // MARK: Fit and position

    static let stripeColours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
    static let mat = (255, 0, 255)

    /// An 80x40 picture of four 20px stripes (A B C D) in a 100x100 frame whose content box is the
    /// whole frame. CSS object-fit and object-position, worked out by hand: (fit, position, the
    /// runs along a row, the row, the runs down a column, the column); colour 4 is the mat.
    static let placements: [(String, String, [(Int, Int, Int)], Int, [(Int, Int, Int)], Int)] = [
        // contain: 100x50 at (0, 25).
        ("contain", "center", [(0, 0, 25), (1, 25, 50), (2, 50, 75), (3, 75, 100)], 50, [(4, 0, 25), (0, 25, 75), (4, 75, 100)], 10),
        // contain at the top: 100x50 at (0, 0).
        ("contain", "top", [(0, 0, 25), (1, 25, 50), (2, 50, 75), (3, 75, 100)], 20, [(0, 0, 50), (4, 50, 100)], 10),
        // cover: 200x100 at (-50, 0): the middle stripes B and C, 50px each.
        ("cover", "center", [(1, 0, 50), (2, 50, 100)], 50, [(1, 0, 100)], 10),
        // cover at the left: 200x100 at (0, 0): A and B.
        ("cover", "left", [(0, 0, 50), (1, 50, 100)], 50, [(0, 0, 100)], 10),
        // fill: 100x100, 25px stripes.
        ("fill", "center", [(0, 0, 25), (1, 25, 50), (2, 50, 75), (3, 75, 100)], 50, [(0, 0, 100)], 10),
        // none: 80x40 at (10, 30).
        ("none", "center", [(4, 0, 10), (0, 10, 30), (1, 30, 50), (2, 50, 70), (3, 70, 90), (4, 90, 100)], 50,
         [(4, 0, 30), (0, 30, 70), (4, 70, 100)], 20),
        // none at the top right: 80x40 at (20, 0).
        ("none", "top-right", [(4, 0, 20), (0, 20, 40), (1, 40, 60), (2, 60, 80), (3, 80, 100)], 20,
         [(3, 0, 40), (4, 40, 100)], 90),
        // none at the left: 80x40 at (0, 30).
        ("none", "left", [(0, 0, 20), (1, 20, 40), (2, 40, 60), (3, 60, 80), (4, 80, 100)], 50,
         [(4, 0, 30), (0, 30, 70), (4, 70, 100)], 10),
        // none at the bottom right: 80x40 at (20, 60).
        ("none", "bottom-right", [(4, 0, 20), (0, 20, 40), (1, 40, 60), (2, 60, 80), (3, 80, 100)], 80,
         [(4, 0, 60), (3, 60, 100)], 90),
        // scale-down: the picture is smaller than the box, so its natural size, as none.
        ("scale-down", "center", [(4, 0, 10), (0, 10, 30), (1, 30, 50), (2, 50, 70), (3, 70, 90), (4, 90, 100)], 50,
         [(4, 0, 30), (0, 30, 70), (4, 70, 100)], 20),
    ]

    @Test func fitAndPositionPlaceThePictureAsCSSDoes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Self.stripes(Self.stripeColours, stripe: 20, height: 40), "stripes.png", in: folder)
        let palette = Self.stripeColours + [Self.mat]
        for (fit, position, across, row, down, column) in Self.placements {
            try Self.framed(["stripes.png", "-o", "f.png", "--preset", "none", "--size", "100x100", "--background", "#ff00ff",
                             "--fit", fit, "--position", position], in: folder)
            let png = try Self.png("f.png", in: folder)
            let a = Self.runs(png, palette: palette, row: row), d = Self.runs(png, palette: palette, column: column)
            #expect(Self.matches(a, across), "\(fit) \(position): row \(row) is \(a)")
            #expect(Self.matches(d, down), "\(fit) \(position): column \(column) is \(d)")
        }
        // scale-down in a box smaller than the picture: as contain, 60x30 at (0, 15).
        try Self.framed(["stripes.png", "-o", "s.png", "--preset", "none", "--size", "60x60", "--background", "#ff00ff",
                         "--fit", "scale-down"], in: folder)
        let small = try Self.png("s.png", in: folder)
        #expect(Self.matches(Self.runs(small, palette: palette, row: 30), [(0, 0, 15), (1, 15, 30), (2, 30, 45), (3, 45, 60)]))
        #expect(Self.matches(Self.runs(small, palette: palette, column: 5), [(4, 0, 15), (0, 15, 45), (4, 45, 60)]))
    }

    // MARK: Margin, canvas colour, picture resolution, output resolution

    @Test func marginAndCanvasColourSurroundTheFrame() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Support.picture(width: 100, height: 60, rgb: (255, 0, 0)), "red.png", in: folder)
        try Self.framed(["red.png", "-o", "m.png", "--preset", "none", "--margin", "7", "--canvas-color", "#00ff00"], in: folder)
        let png = try Self.png("m.png", in: folder)
        #expect(png.width == 114 && png.height == 74, "7px on every side: \(png.width)x\(png.height)")
        let palette = [(255, 0, 0), (0, 255, 0)]
        #expect(Self.matches(Self.runs(png, palette: palette, row: 37), [(1, 0, 7), (0, 7, 107), (1, 107, 114)]))
        #expect(Self.matches(Self.runs(png, palette: palette, column: 57), [(1, 0, 7), (0, 7, 67), (1, 67, 74)]))

        // A margin in another unit, beyond a shadow's reach: 0.25in = 24px, after 15px of shadow.
        try Self.framed(["red.png", "-o", "s.png", "--preset", "none", "--margin", "0.25in",
                         "--shadow", "0 0 10px black"], in: folder)
        let shadowed = try Self.png("s.png", in: folder)
        #expect(shadowed.width == 100 + 2 * (15 + 24) && shadowed.height == 60 + 2 * (15 + 24))

        // A translucent canvas colour, straight in the PNG: alpha 0.5 of 255 (Cairo rounds the
        // half up), the colour as given.
        try Self.framed(["red.png", "-o", "t.png", "--preset", "none", "--margin", "4",
                         "--canvas-color", "rgba(0, 128, 255, 0.5)"], in: folder)
        let translucent = try Self.png("t.png", in: folder)
        for (x, y) in [(1, 1), (translucent.width - 2, translucent.height - 2)] {
            let p = translucent.pixel(x: x, y: y)
            #expect(abs(Int(p.a) - 128) <= 1 && p.r == 0 && abs(Int(p.g) - 128) <= 1 && p.b == 255, "\(p)")
        }
        #expect(translucent.pixel(x: 50, y: 30) == (255, 0, 0, 255), "the picture, opaque, over it")
    }

    /// The canvas holds each side of a shadow's 3-sigma reach rounded up to whole px, however
    /// little of a pixel is left over: a fractional offset leaves 0.2 and 0.3 px, which rounding
    /// to the nearest pixel would cut off. The size comes from `CSSFrame`'s arithmetic.
    @Test func theCanvasHoldsAShadowsWholeReach() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Support.picture(width: 100, height: 60, rgb: (255, 0, 0)), "red.png", in: folder)
        let css = CSSFrame(width: 100, height: 60, shadows: [CSSShadow(2.2, 1.3, 10)])
        // Reach 15 px: left 12.8 and top 13.7 round up to 13 and 14, right 17.2 and bottom 16.3 to 18 and 17.
        #expect(css.canvasPixels(1).width == 131 && css.canvasPixels(1).height == 91)
        for scale in [1.0, 2.0] {
            try Self.framed(["red.png", "-o", "c.png", "--preset", "none", "--shadow", CSSShadow.css(css.shadows),
                             "--scale", "\(Int(scale))"], in: folder)
            let png = try Self.png("c.png", in: folder)
            let size = css.canvasPixels(scale)
            #expect(png.width == size.width && png.height == size.height,
                    "scale \(scale): \(png.width)x\(png.height), not \(size.width)x\(size.height)")
            // The frame where the rounded-up reach puts it.
            let x = Int(css.frame.x * scale), y = Int(css.frame.y * scale)
            #expect(png.pixel(x: x, y: y) == (255, 0, 0, 255) && png.pixel(x: x - 1, y: y).a < 255,
                    "scale \(scale): the frame's corner at \(x),\(y)")
        }
    }

    @Test func imageDPISetsThePicturesNaturalSize() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 192x96 PNG that says 144 dpi (pHYs).
        var picture = Support.picture(width: 192, height: 96, rgb: (0, 0, 255))
        picture.resolution = 144
        try Self.write(picture, "hidpi.png", in: folder)
        // (option, natural size in CSS px): 96 per inch by default; the file's own with auto.
        for (value, width, height) in [("css", 192, 96), ("auto", 128, 64), ("192", 96, 48), ("48", 384, 192)] {
            try Self.framed(["hidpi.png", "-o", "i.png", "--preset", "none", "--image-dpi", value], in: folder)
            let png = try Self.png("i.png", in: folder)
            #expect(png.width == width && png.height == height, "--image-dpi \(value): \(png.width)x\(png.height)")
        }
    }

    @Test func dpiSetsThePixelsOfEveryFormat() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Self.busy(200, 100), "busy.png", in: folder)
        // 200x100 px is 2.08x1.04 in: PNG at 144 dpi is 300x150 pixels.
        try Self.framed(["busy.png", "-o", "d.png", "--preset", "none", "--dpi", "144"], in: folder)
        let png = try Self.png("d.png", in: folder)
        #expect(png.width == 300 && png.height == 150)
        // SVG and PDF: the embedded picture, at 48 and at 72 dpi.
        try Self.framed(["busy.png", "-o", "d.svg", "--preset", "none", "--dpi", "48"], in: folder)
        let embedded = try Pictures.decode(data: Self.embedded(svg: "d.svg", in: folder).bytes).image
        #expect(embedded.width == 100 && embedded.height == 50)
        try Self.framed(["busy.png", "-o", "d.pdf", "--preset", "none", "--dpi", "72"], in: folder)
        let pictures = try Self.pdfPictures("d.pdf", in: folder)
        #expect(pictures.map(\.width) == [150] && pictures.map(\.height) == [75])
        // By default: SVG 192 dpi (the source's 200 pixels at most), PDF 300.
        try Self.framed(["busy.png", "-o", "e.svg", "--preset", "none", "--size", "50x25"], in: folder)
        #expect(try Pictures.decode(data: Self.embedded(svg: "e.svg", in: folder).bytes).image.width == 100)
    }

    // MARK: How the picture is stored: embedding, lossless, turned and colour-managed JPEGs

    /// A 640x400 JPEG of a busy picture (every channel changing from pixel to pixel).
    static func busyJPEG(in folder: URL) throws {
        try Data(PictureEncoder.jpeg(Self.busy(640, 400), quality: 95)).write(to: folder.appendingPathComponent("busy.jpg"))
    }

    @Test func embedLosslessAndTurnedPicturesAreStoredAsAsked() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.busyJPEG(in: folder)
        try Self.write(Self.busy(100, 60), "opaque.png", in: folder)
        // The photo resampled (330x206 px from 640x400, decoded whole: half of it would be too
        // few pixels): re-encoded as JPEG unless told otherwise.
        let resampled = ["--preset", "none", "--size", "330x206", "--fit", "fill", "--dpi", "96"]
        for (options, type) in [([String](), "image/jpeg"), (["--embed", "png"], "image/png"), (["--lossless"], "image/png"),
                                (["--embed", "jpeg"], "image/jpeg")] {
            try Self.framed(["busy.jpg", "-o", "e.svg"] + resampled + options, in: folder)
            #expect(try Self.embedded(svg: "e.svg", in: folder).type == type, "\(options): \(type)")
            try Self.framed(["busy.jpg", "-o", "e.pdf"] + resampled + options, in: folder)
            let encodings = try Self.pdfPictures("e.pdf", in: folder).map(\.encoding)
            #expect(encodings == [type == "image/png" ? "image" : "jpeg"], "\(options): \(encodings)")
        }
        // Lossless keeps the resampled pixels exactly: the box filter's own result.
        try Self.framed(["busy.jpg", "-o", "l.svg", "--lossless", "--resample", "box"] + resampled, in: folder)
        let stored = try Pictures.decode(data: Self.embedded(svg: "l.svg", in: folder).bytes).image
        let source = try Pictures.decode(contentsOf: folder.appendingPathComponent("busy.jpg").path).image
        #expect(stored.width == 330 && stored.height == 206)
        #expect(Resampling.largestDifference(stored, Resampling.resize(source, 330, 206, .box)) <= 1)
        // An opaque PNG stays lossless unless JPEG is asked for.
        try Self.framed(["opaque.png", "-o", "o.svg", "--preset", "none"], in: folder)
        #expect(try Self.embedded(svg: "o.svg", in: folder).type == "image/png")
        try Self.framed(["opaque.png", "-o", "o.svg", "--preset", "none", "--embed", "jpeg"], in: folder)
        #expect(try Self.embedded(svg: "o.svg", in: folder).type == "image/jpeg")

        // A JPEG that needs nothing done is embedded as it is; one that EXIF turns is turned
        // first: 40x20 stored (red left, blue right), orientation 6, 20x40 upright, red on top.
        var halves = [UInt8]()
        for _ in 0..<20 { for x in 0..<40 { halves += x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let plain = try PictureEncoder.jpeg(RasterImage(width: 40, height: 20, pixels: halves), quality: 95)
        try Data(plain).write(to: folder.appendingPathComponent("plain.jpg"))
        try Data(PictureBytes.withEXIF(plain, PictureBytes.exif(orientation: 6))).write(to: folder.appendingPathComponent("turned.jpg"))
        try Self.framed(["plain.jpg", "-o", "p.svg", "--preset", "none", "--dpi", "96"], in: folder)
        #expect(try Self.embedded(svg: "p.svg", in: folder).bytes == plain, "passed through byte for byte")
        for format in ["svg", "pdf"] {
            try Self.framed(["turned.jpg", "-o", "t.\(format)", "--preset", "none", "--dpi", "96"], in: folder)
            let bytes = format == "svg" ? try Self.embedded(svg: "t.svg", in: folder).bytes
                : try #require(try Self.pdfPictures("t.pdf", in: folder).first).bytes
            // Read as a PDF's DCTDecode reads it, EXIF ignored: the stored pixels must be upright
            // (the original bytes, passed through, decode upright only when EXIF is obeyed).
            let upright = try Pictures.decode(data: bytes, options: DecodeOptions(autoOrient: false)).image
            #expect(upright.width == 20 && upright.height == 40, "\(format): \(upright.width)x\(upright.height)")
            if upright.width == 20 {
                #expect(upright.pixel(x: 10, y: 5).r > 200 && upright.pixel(x: 10, y: 35).b > 200, "\(format): red on top")
            }
        }
    }

    /// A JPEG with an Adobe RGB profile, needing no resampling, is converted to sRGB before it
    /// is embedded (its own bytes would show Adobe RGB numbers as sRGB): the embedded pixels are
    /// lcms2's conversion of the stored ones, as `transicc` computes it.
    @Test func aColourManagedJPEGIsEmbeddedConverted() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let patches = [(200, 100, 50), (60, 140, 90), (120, 60, 180)]
        let stored = Self.stripes(patches, stripe: 16, height: 16)
        let plain = try PictureEncoder.jpeg(stored, quality: 95)
        let profile = "/usr/share/color/icc/ghostscript/a98.icc"  // libgs-common, which make installs
        let icc = [UInt8](try #require(FileManager.default.contents(atPath: profile)))
        try Data(PictureBytes.withICC(plain, icc)).write(to: folder.appendingPathComponent("adobe.jpg"))
        let decoded = try Pictures.decode(data: plain).image  // the numbers the file holds
        let centres = patches.indices.map { i in decoded.pixel(x: 16 * i + 8, y: 8) }
        let input = centres.map { "\($0.r) \($0.g) \($0.b)" }.joined(separator: "\n") + "\n"
        let result = try Tool.run("transicc", ["-n", "-s", "-t0", "-i\(profile)"], stdin: Data(input.utf8))
        let expected = result.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            .filter { $0.count == 3 }
        try #require(expected.count == patches.count, "transicc: \(result.output) \(result.stderr)")
        for format in ["svg", "pdf"] {
            try Self.framed(["adobe.jpg", "-o", "a.\(format)", "--preset", "none", "--dpi", "96"], in: folder)
            let bytes = format == "svg" ? try Self.embedded(svg: "a.svg", in: folder).bytes
                : try #require(try Self.pdfPictures("a.pdf", in: folder).first).bytes
            let embedded = try Pictures.decode(data: bytes).image
            for (i, want) in expected.enumerated() {
                let p = embedded.pixel(x: 16 * i + 8, y: 8)
                let worst = max(abs(Double(p.r) - want[0]), abs(Double(p.g) - want[1]), abs(Double(p.b) - want[2]))
                #expect(worst <= 5, "\(format) patch \(i): \(p) for \(want)")
            }
        }
    }

    // MARK: JPEG quality

    /// The IJG's example quantisation tables (ITU T.81 annex K), natural order: luminance, then
    /// chrominance.
    static let baseTables: [[Int]] = [
        [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
         14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
         49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99],
        [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99,
         47, 66, 99, 99, 99, 99, 99, 99] + [Int](repeating: 99, count: 32),
    ]
    /// The natural position of each coefficient in zigzag order, the order DQT stores them in.
    static let zigzag = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
                         13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
                         52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63]

    /// The tables a JPEG of `quality` carries, as the IJG scales them (libjpeg's
    /// `jpeg_set_quality` with baseline values): in zigzag order, by table number.
    static func quantisation(quality: Int) -> [Int: [Int]] {
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        var tables: [Int: [Int]] = [:]
        for (id, base) in baseTables.enumerated() {
            tables[id] = zigzag.map { min(255, max(1, (base[$0] * scale + 50) / 100)) }
        }
        return tables
    }

    /// The 8-bit quantisation tables of a JPEG's DQT segments, by table number, as stored.
    static func quantisation(of jpeg: [UInt8]) -> [Int: [Int]] {
        var tables: [Int: [Int]] = [:], i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1], length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if marker == 0xDA { break }
            if marker == 0xDB {
                var j = i + 4
                while j + 65 <= i + 2 + length {
                    if jpeg[j] >> 4 == 0 { tables[Int(jpeg[j] & 15)] = jpeg[(j + 1)...(j + 64)].map(Int.init) }
                    j += jpeg[j] >> 4 == 0 ? 65 : 129
                }
            }
            i += 2 + length
        }
        return tables
    }

    @Test func qualitySetsTheEmbeddedJPEGsQuantisation() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.busyJPEG(in: folder)
        let resampled = ["--preset", "none", "--size", "300x188", "--fit", "fill", "--dpi", "96"]
        var sizes: [Int] = []
        for quality in [30, 75, 95] {
            try Self.framed(["busy.jpg", "-o", "q.svg", "--quality", "\(quality)"] + resampled, in: folder)
            let jpeg = try Self.embedded(svg: "q.svg", in: folder)
            #expect(jpeg.type == "image/jpeg")
            #expect(Self.quantisation(of: jpeg.bytes) == Self.quantisation(quality: quality), "--quality \(quality)")
            sizes.append(jpeg.bytes.count)
        }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "lower quality, smaller picture: \(sizes)")
        // The default is 90; PDF embeds the same JPEG.
        try Self.framed(["busy.jpg", "-o", "d.svg"] + resampled, in: folder)
        #expect(Self.quantisation(of: try Self.embedded(svg: "d.svg", in: folder).bytes) == Self.quantisation(quality: 90))
        try Self.framed(["busy.jpg", "-o", "q.pdf", "--quality", "50"] + resampled, in: folder)
        let pdf = try Self.pdfPictures("q.pdf", in: folder)
        #expect(pdf.map(\.encoding) == ["jpeg"])
        #expect(Self.quantisation(of: try #require(pdf.first).bytes) == Self.quantisation(quality: 50))
    }

    // MARK: Resampling

    @Test(arguments: [("box", Resampling.Filter.box), ("good", .catmullRom), ("best", .lanczos3)])
    func resampleGivesEachFiltersOwnResult(_ option: String, _ filter: Resampling.Filter) throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Self.busy(90, 60)
        try Self.write(source, "busy.png", in: folder)
        // A reduction by 3 and a fractional one, stored losslessly at one pixel per CSS px.
        for (width, height) in [(30, 20), (37, 23)] {
            var options = ["--preset", "none", "--size", "\(width)x\(height)", "--fit", "fill", "--dpi", "96"]
            if option != "best" || width == 37 { options += ["--resample", option] }  // best is the default
            try Self.framed(["busy.png", "-o", "r.svg"] + options, in: folder)
            let stored = try Pictures.decode(data: Self.embedded(svg: "r.svg", in: folder).bytes).image
            try #require(stored.width == width && stored.height == height)
            let expected = Resampling.resize(source, width, height, filter)
            #expect(Resampling.largestDifference(stored, expected) <= 1, "\(option) to \(width)x\(height)")
            // The other filters' results are far from it: the comparison tells them apart.
            for other in Resampling.Filter.allCases where other != filter {
                #expect(Resampling.largestDifference(stored, Resampling.resize(source, width, height, other)) > 8)
            }
        }
        // A picture of a megapixel or more is resized while it decodes, on a second core, by
        // another path (`ResizeRequest`): the filter asked for must reach it too.
        let large = Self.busy(1280, 820)
        try Self.write(large, "large.png", in: folder)
        for (width, height) in [(320, 205), (377, 241)] {
            var options = ["--preset", "none", "--size", "\(width)x\(height)", "--fit", "fill", "--dpi", "96"]
            if option != "best" || width == 377 { options += ["--resample", option] }
            try Self.framed(["large.png", "-o", "r.svg"] + options, in: folder)
            let stored = try Pictures.decode(data: Self.embedded(svg: "r.svg", in: folder).bytes).image
            try #require(stored.width == width && stored.height == height)
            let expected = Resampling.resize(large, width, height, filter)
            #expect(Resampling.largestDifference(stored, expected) <= 1, "\(option) to \(width)x\(height) from 1280x820")
        }
    }

    // MARK: Transparency and flatten

    /// Without `--flatten` a PNG keeps a translucent picture's straight colours and alpha (within
    /// what 8-bit premultiplied pixels hold on the way through Cairo).
    @Test func aTranslucentPictureKeepsItsColoursInPNG() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var pixels = [UInt8]()
        let alphas: [UInt8] = [0, 60, 128, 200, 255]
        for _ in 0..<10 { for x in 0..<50 { pixels += [200, 60, 30, alphas[x / 10]] } }
        try Self.write(RasterImage(width: 50, height: 10, pixels: pixels), "translucent.png", in: folder)
        try Self.framed(["translucent.png", "-o", "t.png", "--preset", "none"], in: folder)
        let png = try Self.png("t.png", in: folder)
        #expect(png.pixel(x: 5, y: 5).a == 0)
        for (i, alpha) in alphas.enumerated().dropFirst() {
            let p = png.pixel(x: 10 * i + 5, y: 5), allowed = 1 + 255 / Int(alpha)
            #expect(p.a == alpha && abs(Int(p.r) - 200) <= allowed && abs(Int(p.g) - 60) <= allowed
                    && abs(Int(p.b) - 30) <= allowed, "alpha \(alpha): \(p)")
        }
    }

    @Test func flattenCompositesOntoTheColour() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three columns: transparent, alpha 100 and opaque, all (200, 60, 30).
        var pixels = [UInt8]()
        for _ in 0..<10 { for x in 0..<30 { pixels += [200, 60, 30, [0, 100, 255][x / 10]] } }
        try Self.write(RasterImage(width: 30, height: 10, pixels: pixels), "translucent.png", in: folder)
        // A colour that 8 bits do not hold: 40 %, 10.6, 70 % are 102, 10.6 and 178.5 levels, which
        // round to 102, 11 and 179.
        let colour = (102.0, 10.6, 178.5), bytes = (102, 11, 179)
        try Self.framed(["translucent.png", "-o", "f.png", "--preset", "none", "--flatten", "rgb(40%, 10.6, 70%)"], in: folder)
        let png = try Self.png("f.png", in: folder)
        #expect(png.pixel(x: 5, y: 5) == (UInt8(bytes.0), UInt8(bytes.1), UInt8(bytes.2), 255), "transparent: the colour itself")
        let mixed = png.pixel(x: 15, y: 5)
        for (got, c, b) in [(mixed.r, 200.0, colour.0), (mixed.g, 60, colour.1), (mixed.b, 30, colour.2)] {
            #expect(abs(Double(got) - (c * 100 + b * 155) / 255) <= 1, "alpha 100 over the colour: \(mixed)")
        }
        #expect(png.pixel(x: 25, y: 5) == (200, 60, 30, 255), "opaque: the picture")
        // In SVG the flattened picture is opaque, so it is stored without alpha (RGB PNG).
        try Self.framed(["translucent.png", "-o", "f.svg", "--preset", "none", "--flatten", "rgb(40%, 10.6, 70%)",
                         "--dpi", "96"], in: folder)
        let stored = try Self.embedded(svg: "f.svg", in: folder)
        #expect(stored.bytes[25] == 2, "PNG colour type 2, RGB")
        let flat = try Pictures.decode(data: stored.bytes).image
        #expect(flat.pixel(x: 5, y: 5) == (UInt8(bytes.0), UInt8(bytes.1), UInt8(bytes.2), 255))
    }

    // MARK: Colour: the rendering intent

    /// Ink amounts (C, M, Y, K; 255 = full ink), one 16x16 patch each.
    static let inks: [[UInt8]] = [[0, 0, 0, 0], [255, 0, 0, 0], [0, 255, 0, 0], [0, 0, 255, 0], [0, 0, 0, 255],
                                  [128, 64, 0, 32], [20, 200, 180, 10], [0, 128, 255, 64], [60, 0, 90, 140],
                                  [255, 255, 255, 255]]

    /// `transicc -n -s -t0` (perceptual) and `-t1` (relative colorimetric) of the inks through
    /// Ghostscript's default CMYK profile (libgs-common 10.0), to two decimals: the reference
    /// committed, so that the comparison does not need the tool (the next test checks that the
    /// tool still says so).
    static let transiccSays: [String: [(Double, Double, Double)]] = [
        "perceptual": [(255, 255, 255), (0, 174.53, 239.35), (236.32, 20.04, 141.34), (255, 242.03, 0),
                       (43.76, 40.87, 41.51), (114.38, 151.3, 194.57), (215.28, 92.13, 80.36), (194.01, 118.21, 33),
                       (108.76, 126.93, 104.76), (3.05, 0, 0)],
        "relative": [(255, 255, 255), (0, 175.97, 239.58), (236.59, 39.38, 143.74), (255, 242.22, 21.13),
                     (55.08, 52.9, 53.37), (117.91, 153.38, 195.57), (215.89, 97.02, 86.23), (195.02, 121.56, 47.26),
                     (112.58, 129.88, 108.82), (32.26, 30.67, 30.61)],
    ]

    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    @Test(arguments: ["perceptual", "relative"])
    func theCommittedCMYKReferenceIsTransiccs(_ intent: String) throws {
        let input = Self.inks.map { $0.map { "\(Double($0) / 255 * 100)" }.joined(separator: " ") }.joined(separator: "\n") + "\n"
        let result = try Tool.run("transicc", ["-n", "-s", intent == "perceptual" ? "-t0" : "-t1", "-i\(Self.cmykProfile)"],
                                  stdin: Data(input.utf8))
        let rows = result.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            .filter { $0.count == 3 }
        let committed = try #require(Self.transiccSays[intent])
        try #require(rows.count == committed.count, "transicc: \(result.output) \(result.stderr)")
        for (row, want) in zip(rows, committed) {
            #expect(abs(row[0] - want.0) <= 0.01 && abs(row[1] - want.1) <= 0.01 && abs(row[2] - want.2) <= 0.01, "\(row)")
        }
    }

    @Test func intentConvertsACMYKPictureAsLcmsDoes() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        var cmyk = [UInt8]()
        for _ in 0..<16 { for x in 0..<(16 * Self.inks.count) { cmyk += Self.inks[x / 16] } }
        try Data(PictureBytes.cmykJPEG(cmyk, width: 16 * Self.inks.count, height: 16)).write(to: folder.appendingPathComponent("cmyk.jpg"))
        for (options, intent) in [([String](), "perceptual"), (["--rendering-intent", "perceptual"], "perceptual"),
                                  (["--rendering-intent", "relative"], "relative"), (["--intent", "relative"], "relative")] {
            for format in ["png", "svg"] {
                try Self.framed(["cmyk.jpg", "-o", "c.\(format)", "--preset", "none", "--dpi", "96"] + options, in: folder)
                let image = format == "png" ? try Self.png("c.png", in: folder)
                    : try Pictures.decode(data: Self.embedded(svg: "c.svg", in: folder).bytes).image
                // PNG holds the converted pixels exactly; SVG a JPEG of them (quality 90).
                let allowed = format == "png" ? 2.5 : 6
                for (i, want) in try #require(Self.transiccSays[intent]).enumerated() {
                    let p = image.pixel(x: 16 * i + 8, y: 8)
                    let worst = max(abs(Double(p.r) - want.0), abs(Double(p.g) - want.1), abs(Double(p.b) - want.2))
                    #expect(worst <= allowed, "\(intent) \(format), ink \(Self.inks[i]): \(p), not \(want)")
                }
            }
        }
    }

    // MARK: Pages, limits, presets

    /// The page size in points that `pdfinfo` gives for page 1.
    static func pageSize(_ name: String, in folder: URL) throws -> (Double, Double) {
        let info = try Support.output("pdfinfo", [folder.appendingPathComponent(name).path])
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("Page size:") }, "\(info)")
        let numbers = line.split(separator: " ").compactMap { Double($0) }
        try #require(numbers.count >= 2, "\(line)")
        return (numbers[0], numbers[1])
    }

    @Test func orientationTurnsThePage() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = 148 / 25.4 * 72, long = 210 / 25.4 * 72  // A5 in points
        try Self.write(Support.picture(width: 60, height: 90), "portrait.png", in: folder)
        // (picture, option, width, height): auto turns the page the picture's way.
        for (picture, orientation, width, height) in [("photo.jpg", "auto", long, short), ("photo.jpg", "portrait", short, long),
                                                      ("portrait.png", "auto", short, long),
                                                      ("portrait.png", "landscape", long, short)] {
            try Self.framed([picture, "-o", "o.pdf", "--page", "A5", "--orientation", orientation], in: folder)
            let size = try Self.pageSize("o.pdf", in: folder)
            #expect(abs(size.0 - width) < 0.01 && abs(size.1 - height) < 0.01, "\(picture) \(orientation): \(size)")
        }
    }

    @Test func maxPixelsIsTheMostAllowed() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write(Support.picture(width: 100, height: 50), "small.png", in: folder)
        // 5000 pixels, and a PNG canvas of as many: allowed at 5000, refused at 4999.
        try Self.framed(["small.png", "-o", "ok.png", "--preset", "none", "--max-pixels", "5000"], in: folder)
        #expect(try Self.png("ok.png", in: folder).width == 100)
        let r = try CLITests.framed(["small.png", "-o", "no.png", "--preset", "none", "--max-pixels", "4999"], in: folder)
        CLITests.expectOneLineError(r, status: 1, mentioning: ["small.png", "100x50"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("no.png").path))
    }

    /// The presets look as docs/options.md says: border, mat and shadow read back from the PNG
    /// (the shadow's alpha against the erf product of the documented CSS values).
    @Test func presetsLookAsDocumented() throws {
        let folder = try CLITests.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        /// Alpha of a sharp box's shadow (`alpha`, `sigma`) at pixel (x, y), in 0...255.
        func shadow(_ x: Int, _ y: Int, box: CSSBox, sigma: Double, alpha: Double) -> Double {
            255 * alpha * ExactShadow.sharp(Double(x) + 0.5, Double(y) + 0.5, box: box, sigma: sigma)
        }
        func expectShadow(_ png: RasterImage, _ x: Int, _ y: Int, _ want: Double, _ preset: String) {
            let p = png.pixel(x: x, y: y)
            #expect(abs(Double(p.a) - want) <= 4 && p.r <= 2 && p.g <= 2 && p.b <= 2 && want > 20,
                    "\(preset): shadow at \(x),\(y) is \(p), alpha \(want) expected")
        }

        // classic: 3px white border, #808080 mat, 0 0 10px rgba(0,0,0,0.6): sigma 5, 15px of canvas.
        try Self.framed(["photo.jpg", "-o", "c.png", "--preset", "classic", "--size", "400x300"], in: folder)
        var png = try Self.png("c.png", in: folder)
        #expect(png.width == 430 && png.height == 330)
        #expect(png.pixel(x: 16, y: 165) == (255, 255, 255, 255) && png.pixel(x: 17, y: 165) == (255, 255, 255, 255)
                && png.pixel(x: 18, y: 165) != (255, 255, 255, 255), "3px white border")
        #expect(png.pixel(x: 30, y: 165) == (128, 128, 128, 255), "#808080 mat")
        let classic = CSSBox(x: 15, y: 15, width: 400, height: 300)
        for (x, y) in [(10, 165), (12, 100), (418, 200), (200, 318), (14, 14)] {
            expectShadow(png, x, y, shadow(x, y, box: classic, sigma: 5, alpha: 0.6), "classic")
        }

        // docs: 1px #d0d0d0 border, 8px corners, white mat, 16px margin and two shadows, the
        // contact one drawn over the soft one: 0 1px 2px rgba(0,0,0,0.16) (sigma 1) and
        // 0 12px 32px -6px rgba(0,0,0,0.28) (sigma 16, its box 6px inside the frame's sides, 18px
        // under its top and 6px past its bottom). The canvas reaches 3 sigma past the soft box:
        // 48 - 6 = 42px at the sides, 48 - 18 = 30 above, 6 + 48 = 54 below; then the margin.
        // docs-dark: the same shadows with black at 0.5 and 0.6, so the same canvas.
        func docsShadow(_ x: Int, _ y: Int, frame: CSSBox, contact: Double, soft: Double) -> Double {
            let near = CSSBox(x: frame.minX, y: frame.minY + 1, width: frame.width, height: frame.height)
            let far = CSSBox(x: frame.minX + 6, y: frame.minY + 18, width: frame.width - 12, height: frame.height - 12)
            let a = contact * ExactShadow.sharp(Double(x) + 0.5, Double(y) + 0.5, box: near, sigma: 1)
            let b = soft * ExactShadow.sharp(Double(x) + 0.5, Double(y) + 0.5, box: far, sigma: 16)
            return 255 * (a + b * (1 - a))
        }
        let left = 42 + 16, top = 30 + 16
        let docsFrame = CSSBox(x: Double(left), y: Double(top), width: 200, height: 150)
        for (preset, border, mat, contact, soft) in [("docs", (0xd0, 0xd0, 0xd0), (0xff, 0xff, 0xff), 0.16, 0.28),
                                                     ("docs-dark", (0x30, 0x36, 0x3d), (0x16, 0x1b, 0x22), 0.5, 0.6)] {
            try Self.framed(["photo.jpg", "-o", "\(preset).png", "--preset", preset, "--size", "200x150", "--fit", "contain"],
                            in: folder)
            png = try Self.png("\(preset).png", in: folder)
            #expect(png.width == left + 200 + 42 + 16 && png.height == top + 150 + 54 + 16, "\(preset): \(png.width)x\(png.height)")
            let b = png.pixel(x: left, y: top + 75)
            #expect((Int(b.r), Int(b.g), Int(b.b), Int(b.a)) == (border.0, border.1, border.2, 255)
                    && png.pixel(x: left + 1, y: top + 75) != b, "\(preset): 1px border, \(b)")
            let m = png.pixel(x: left + 100, y: top + 1)
            #expect((Int(m.r), Int(m.g), Int(m.b), Int(m.a)) == (mat.0, mat.1, mat.2, 255), "\(preset): mat above the picture, \(m)")
            #expect(png.pixel(x: left, y: top).a < 128, "\(preset): rounded corner")
            #expect(png.pixel(x: 0, y: 0).a == 0 && png.pixel(x: png.width - 1, y: png.height - 1).a == 0,
                    "\(preset): the margin holds the whole shadow")
            for (x, y) in [(left + 100, top + 150 + 10), (left - 1, top + 75), (left + 200, top + 75),
                           (left + 100, top + 150 + 4)] {
                expectShadow(png, x, y, docsShadow(x, y, frame: docsFrame, contact: contact, soft: soft), preset)
            }
        }

        // polaroid: no border, #fdfdfb mat 16px 16px 64px, 0 2px 8px rgba(0,0,0,0.3): sigma 4,
        // 12px of canvas left and right, 10 above, 14 below; 320x200 at natural size.
        try Self.framed(["photo.jpg", "-o", "p.png", "--preset", "polaroid"], in: folder)
        png = try Self.png("p.png", in: folder)
        #expect(png.width == 352 + 24 && png.height == 280 + 24)
        #expect(png.pixel(x: 12, y: 150) == (0xfd, 0xfd, 0xfb, 255) && png.pixel(x: 27, y: 150) == (0xfd, 0xfd, 0xfb, 255)
                && png.pixel(x: 29, y: 150) != (0xfd, 0xfd, 0xfb, 255), "16px of mat at the left")
        #expect(png.pixel(x: 188, y: 10 + 216 + 62) == (0xfd, 0xfd, 0xfb, 255)
                && png.pixel(x: 188, y: 10 + 216 + 2) == (0xfd, 0xfd, 0xfb, 255)
                && png.pixel(x: 188, y: 10 + 214) != (0xfd, 0xfd, 0xfb, 255), "64px of mat at the bottom")
        let polaroid = CSSBox(x: 12, y: 12, width: 352, height: 280)
        for (x, y) in [(188, 293), (10, 150), (365, 150)] {
            expectShadow(png, x, y, shadow(x, y, box: polaroid, sigma: 4, alpha: 0.3), "polaroid")
        }
    }
}

/// Resampling as the tests compute it, in Double, from the filters' definitions: each output
/// pixel the kernel-weighted mean of the source pixels under it (an area average for the box;
/// Catmull-Rom and Lanczos-3 widened by the reduction factor), edges clamped, rows then columns.
enum Resampling {
    enum Filter: CaseIterable, Sendable { case box, catmullRom, lanczos3 }

    /// The weights of each output pixel along one axis: (source index, weight), summing to 1.
    static func weights(_ source: Int, _ destination: Int, _ filter: Filter) -> [[(Int, Double)]] {
        let scale = Double(source) / Double(destination), widen = max(scale, 1)
        return (0..<destination).map { i in
            var taps: [Int: Double] = [:]
            if filter == .box {
                let a = Double(i) * scale, b = Double(i + 1) * scale
                for j in Int(a.rounded(.down))..<Int(b.rounded(.up)) {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 0 { taps[min(j, source - 1), default: 0] += overlap }
                }
            } else {
                let centre = (Double(i) + 0.5) * scale, radius = (filter == .catmullRom ? 2 : 3) * widen
                for j in Int((centre - radius).rounded(.down))...Int((centre + radius).rounded(.up)) {
                    let x = abs((Double(j) + 0.5 - centre) / widen)
                    let w: Double
                    if filter == .catmullRom {
                        w = x < 1 ? 1.5 * x * x * x - 2.5 * x * x + 1 : x < 2 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 0
                    } else {
                        w = x < 1e-12 ? 1 : x < 3 ? 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * .pi * x * x) : 0
                    }
                    taps[min(max(j, 0), source - 1), default: 0] += w
                }
            }
            let total = taps.values.reduce(0, +)
            return taps.sorted { $0.key < $1.key }.map { ($0.key, $0.value / total) }
        }
    }

    /// An opaque picture resized to `width` x `height`.
    static func resize(_ image: RasterImage, _ width: Int, _ height: Int, _ filter: Filter) -> RasterImage {
        let across = weights(image.width, width, filter), down = weights(image.height, height, filter)
        var rows = [Double](repeating: 0, count: width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<width {
                for (j, w) in across[x] {
                    for c in 0..<3 { rows[(y * width + x) * 3 + c] += w * Double(image.pixels[(y * image.width + j) * 4 + c]) }
                }
            }
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    let v = down[y].reduce(0.0) { $0 + $1.1 * rows[($1.0 * width + x) * 3 + c] }
                    pixels[(y * width + x) * 4 + c] = UInt8(min(255, max(0, v.rounded())))
                }
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels)
    }

    /// The largest difference of any colour sample.
    static func largestDifference(_ a: RasterImage, _ b: RasterImage) -> Int {
        guard a.width == b.width && a.height == b.height else { return 255 }
        var worst = 0
        for i in 0..<a.pixels.count where i % 4 != 3 { worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i]))) }
        return worst
    }
}
