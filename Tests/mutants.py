#!/usr/bin/env python3
"""Mutation testing: does the suite catch a wrong picture?

Applies small, realistic mistakes to the product's code, one at a time, in a scratch copy of the
package (with a .build of its own, so that each mutant is an incremental build), runs the test
suite against each, and prints which mutants survived: a mutant that every test passes is a bug
the suite would let through.

    Tests/mutants.py                    every mutation (make mutants)
    Tests/mutants.py ID...              only these (make mutants MUTANTS='quality-ignored ...')
    Tests/mutants.py --list             the mutations, without running anything
    Tests/mutants.py --check            that each mutation still applies to the code (quick)

Each mutant is built (`swift build --build-tests`); one that does not build is reported and not
counted. Its `tests` (a `swift test --filter` pattern: the suites expected to catch it) run first,
and when they fail the mutant is killed; otherwise the whole suite runs (`swift test`, without
the sanitizer passes). The suite runs once unmutated first (`--no-baseline` skips that), so that
a failing suite cannot pass for a killing one. Logs go to SCRATCH/logs; the scratch copy is
$FRAMED_MUTANTS_DIR, else .build/mutants/package. Exit status: 0 when every mutant that built
was killed, 1 when one survived, 2 on a usage or setup error.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.environ.get("SWIFT", "swift")
# A hung mutant (an endless loop) counts as killed after this long.
TEST_TIMEOUT = int(os.environ.get("FRAMED_MUTANTS_TIMEOUT", "1800"))


class Mutation:
    """`edits` (old text, new text) applied to `path`; each old text must occur exactly once
    (or `count` times, all replaced)."""

    def __init__(self, id, area, path, edits, description, tests=None, count=1):
        self.id, self.area, self.path, self.description, self.tests, self.count = id, area, path, description, tests, count
        self.edits = edits if isinstance(edits, list) else [edits]

    def apply(self, text):
        for old, new in self.edits:
            found = text.count(old)
            if found != self.count:
                raise ValueError(f"{self.id}: {self.path} holds {found} of {old!r}, not {self.count}")
            text = text.replace(old, new)
        return text


M = Mutation
# Small mistakes that change what a user gets. `tests` names the suites expected to catch each
# (run first, to save time); any failing test kills it.
MUTATIONS = [
    # --- Colour ---------------------------------------------------------------------------------
    M("shadow-black", "colour", "Sources/FramedRender/Shadow.swift",
      ("color: shadow.color, complement: false, tolerance: tol)",
       "color: RGBAColor(red: 0, green: 0, blue: 0, alpha: shadow.color.alpha), complement: false, tolerance: tol)"),
      "the shadow drawn black whatever its colour", "ShadowColourTests"),
    M("inset-shadow-opaque", "colour", "Sources/FramedRender/Shadow.swift",
      ("context.paint(alpha: shadow.color.alpha)", "context.paint()"),
      "an inset shadow drawn at full opacity", "RoundedShadowTests|ShadowColourTests"),
    M("unpremultiply-channel", "colour", "Sources/FramedRender/Cairo/Surface.swift",
      ("let r = ((v >> 16 & 255) &* 255 &+ a / 2) / a", "let r = ((v >> 0 & 255) &* 255 &+ a / 2) / a"),
      "PNG: a translucent pixel's red taken from its blue", "ShadowColourTests"),
    M("premultiply-forgotten", "colour", "Sources/FramedRender/PictureSurface.swift",
      ("r = (r * a + 127) / 255; g = (g * a + 127) / 255; b = (b * a + 127) / 255", "_ = a"),
      "a translucent picture handed to Cairo without premultiplying", "OptionOutputTests"),
    M("flatten-white", "colour", "Sources/Framed/Pipeline/Preparing.swift",
      ("image = image.flattened(onto: flatten.rgb8)", "image = image.flattened(onto: RGBAColor.white.rgb8)"),
      "--flatten composites onto white whatever the colour", "OptionOutputTests"),
    M("flatten-colour-truncated", "colour", "Sources/Framed/Pipeline/Preparing.swift",
      ("UInt8((min(max(v, 0), 1) * 255).rounded())", "UInt8(min(max(v, 0), 1) * 255)"),
      "--flatten's colour truncated to bytes (127.99 becomes 127)", "OptionOutputTests"),
    M("canvas-colour-translucent", "colour", "Sources/FramedRender/FrameDrawing.swift",
      ("if style.canvasColor.alpha > 0 {", "if style.canvasColor.alpha >= 1 {"),
      "a translucent --canvas-color left out", "OptionOutputTests"),
    M("hex-short", "colour", "Sources/FramedLayout/Color.swift",
      ("channels = nibbles.map { $0 * 17 / 255 }", "channels = nibbles.map { $0 * 16 / 255 }"),
      "#rgb colours read as 0x10 per digit instead of 0x11", "ColorTests|OptionOutputTests"),
    M("intent-setting", "colour", "Sources/Framed/Settings/Setting.swift",
      ('f.picture.intent = try choice("intent", v, RenderingIntent.self)', '_ = try choice("intent", v, RenderingIntent.self)'),
      "--intent not passed on from the command line", "OptionOutputTests"),
    M("intent-pipeline", "colour", "Sources/Framed/Pipeline/Planning.swift",
      ("decodeOptions.intent = picture.intent", "decodeOptions.intent = .perceptual"),
      "the library's intent not passed to the decoder", "OptionOutputTests"),
    M("intent-c-value", "colour", "Sources/FramedRaster/ColorManagement.swift",
      ("self == .perceptual ? CCODECS_INTENT_PERCEPTUAL : CCODECS_INTENT_RELATIVE", "CCODECS_INTENT_PERCEPTUAL"),
      "every intent handed to lcms2 as perceptual", "CMYKTests|ColorTests|OptionOutputTests"),
    M("converted-jpeg-passed-through", "colour", "Sources/Framed/Pipeline/Preparing.swift",
      ("&& !decoded.colorConverted && plan.orientation == .up", "&& plan.orientation == .up"),
      "a colour-managed JPEG embedded as it is, unconverted", "OptionOutputTests"),

    # --- Geometry -------------------------------------------------------------------------------
    M("erf-scale", "geometry", "Sources/FramedRender/Shadow.swift",
      ("0.5 * erfc(-u / 2.squareRoot())", "0.5 * erfc(-u)"),
      "the shadow's erf profile sqrt(2) too steep", "ShadowAccuracyTests|RoundedShadowTests"),
    M("spread-radius", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("let radius = ShadowGeometry.cornerRadius(shadow.inset ? max(0, outer - b) : outer, spread: grow)",
       "let radius = ShadowGeometry.cornerRadius(shadow.inset ? max(0, outer - b) : outer, spread: 0)"),
      "the spread ignored for the shadow's corner radius", "RoundedShadowTests|ShadowGeometryTests"),
    M("shadow-offset-swapped", "geometry", "Sources/FramedLayout/BoxModel.swift",
      (".offsetBy(dx: shadow.offsetX.points, dy: shadow.offsetY.points)",
       ".offsetBy(dx: shadow.offsetY.points, dy: shadow.offsetX.points)"),
      "a shadow's x and y offsets swapped", "ShadowAccuracyTests|RoundedShadowTests"),
    M("inset-spread-grows", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("let grow = shadow.inset ? -shadow.spread.points : shadow.spread.points", "let grow = shadow.spread.points"),
      "an inset shadow's spread grows its box instead of shrinking it", "RoundedShadowTests"),
    M("shadow-order", "geometry", "Sources/FramedRender/FrameDrawing.swift",
      ("for shadow in outer.reversed() {", "for shadow in outer {"),
      "outer shadows stacked the wrong way (the last on top)", "RoundedShadowTests|ShadowColourTests"),
    M("inner-radius", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("innerRadius = max(0, outer - b)", "innerRadius = outer"),
      "the inner radius not reduced by the border", "OptionOutputTests|BoxModelTests"),
    M("canvas-rounding", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("(points / 0.75 - 1e-9).rounded(.up) * 0.75", "(points / 0.75).rounded() * 0.75"),
      "the canvas rounded to the nearest pixel, cutting into the shadow", "OptionOutputTests|BoxModelTests"),
    M("margin-one-side", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("let right = wholePixels(bounds.maxX - frameSize.width) + m", "let right = wholePixels(bounds.maxX - frameSize.width)"),
      "--margin left out on the right", "OptionOutputTests|BoxModelTests"),
    M("position-y", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("y: box.y + (box.height - placed.height) * style.position.y,", "y: box.y + (box.height - placed.height) * style.position.x,"),
      "--position's vertical part taken from its horizontal one", "OptionOutputTests|BoxModelTests"),
    M("cover-as-contain", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("var s = style.fit == .cover ? max(sx, sy) : min(sx, sy)", "var s = min(sx, sy)"),
      "--fit cover fits the picture inside instead of filling", "OptionOutputTests|BoxModelTests"),
    M("scale-down-enlarges", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("if style.fit == .scaleDown { s = min(s, 1) }", ""),
      "--fit scale-down enlarges small pictures", "OptionOutputTests|BoxModelTests"),
    M("width-aspect", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("height: contentW / natural.aspectRatio + edgesH +", "height: contentW * natural.aspectRatio + edgesH +"),
      "--width alone gives the height by the inverse aspect ratio", "OptionOutputTests|BoxModelTests"),
    M("padding-order", "geometry", "Sources/FramedLayout/Length.swift",
      ("default: self.init(top: v[0], right: v[1], bottom: v[2], left: v[3])",
       "default: self.init(top: v[0], right: v[3], bottom: v[2], left: v[1])"),
      "four paddings read counter-clockwise", "OptionOutputTests|EdgeInsetsTests"),
    M("double-border-band", "geometry", "Sources/FramedRender/FrameDrawing.swift",
      ("let band = b / 3", "let band = b / 4"),
      "a double border's bands a quarter of it instead of a third", "BorderTests"),
    M("image-dpi-auto", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("case .auto: dpi = picture.fileResolution.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 96",
       "case .auto: dpi = 96"),
      "--image-dpi auto ignores the file's resolution", "OptionOutputTests|BoxModelTests"),
    M("bleed-once", "geometry", "Sources/FramedLayout/Page.swift",
      ("let media = Size(width: pageSize.width + 2 * edge, height: pageSize.height + 2 * edge)",
       "let media = Size(width: pageSize.width + edge, height: pageSize.height + edge)"),
      "the bleed added once instead of on both sides", "PresetConfigLayoutTests|PageTests"),
    M("orientation-ignored", "geometry", "Sources/FramedLayout/Page.swift",
      ("case .portrait, .landscape: turn = orientation",
       "case .portrait, .landscape: turn = canvas.width > canvas.height ? .landscape : .portrait"),
      "--orientation ignored: the page always turned the picture's way", "OptionOutputTests|PageTests"),

    # --- Options --------------------------------------------------------------------------------
    M("quality-ignored", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("jpeg = try PictureEncoder.jpeg(image, quality: output.quality,", "jpeg = try PictureEncoder.jpeg(image, quality: 90,"),
      "--quality ignored when the picture is re-encoded as JPEG", "OptionOutputTests"),
    M("resample-ignored", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("filter: picture.resample", "filter: .best"),
      "--resample ignored when the picture is resized after decoding", "OptionOutputTests"),
    M("resample-ignored-decoding", "options", "Sources/Framed/Pipeline/Planning.swift",
      ("filter: picture.resample", "filter: .best"),
      "--resample ignored when the picture is resized while it decodes", "OptionOutputTests"),
    M("resample-setting", "options", "Sources/Framed/Settings/Setting.swift",
      ('f.picture.resample = try choice("resample", v, ResamplingFilter.self)',
       '_ = try choice("resample", v, ResamplingFilter.self)'),
      "--resample read but not kept", "OptionOutputTests"),
    M("lossless-ignored", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("|| (output.embed == .auto && !image.hasAlpha && !output.lossless && !info.format.isLossless)",
       "|| (output.embed == .auto && !image.hasAlpha && !info.format.isLossless)"),
      "--lossless ignored for a resampled photo", "OptionOutputTests|FramerTests"),
    M("embed-png-ignored", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("|| (output.embed == .auto && !image.hasAlpha && !output.lossless && !info.format.isLossless)",
       "|| (!image.hasAlpha && !output.lossless && info.format != .png)"),
      "--embed png ignored for a resampled photo (re-encoded as JPEG)", "OptionOutputTests|FramerTests"),
    M("rotated-jpeg-passed-through", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("&& !decoded.colorConverted && plan.orientation == .up", "&& !decoded.colorConverted"),
      "a JPEG that EXIF turns embedded as it is, unturned", "OptionOutputTests"),
    M("dpi-vector-ignored", "options", "Sources/FramedRender/Renderer.swift",
      ("if let dpi { return dpi }", "if let dpi, format == .png { return dpi }"),
      "--dpi ignored for the picture embedded in SVG and PDF", "OptionOutputTests|RenderTests"),
    M("no-auto-orient-setting", "options", "Sources/Framed/Settings/Setting.swift",
      ('f.picture.autoOrient = !(try switchValue("no-auto-orient", v))', '_ = try switchValue("no-auto-orient", v)'),
      "--no-auto-orient read but not kept", "PictureOptionTests"),
    M("no-snap-ignored", "options", "Sources/Framed/Pipeline/Planning.swift",
      ("if format.isRaster && output.snap {", "if format.isRaster {"),
      "--no-snap ignored", "BorderTests"),
    M("author-as-title", "options", "Sources/FramedRender/Backends/OutputSurface.swift",
      ("(CAIRO_PDF_METADATA_AUTHOR, metadata.author)", "(CAIRO_PDF_METADATA_AUTHOR, metadata.title)"),
      "--author written as the title", "PresetConfigLayoutTests"),

    # --- Limits ---------------------------------------------------------------------------------
    M("max-pixels-off-by-one", "limits", "Sources/Framed/Pipeline/Planning.swift",
      ("info.width.multipliedReportingOverflow(by: info.height).partialValue <= limit",
       "info.width.multipliedReportingOverflow(by: info.height).partialValue < limit"),
      "a picture of exactly --max-pixels refused", "LimitTests|FramerTests|OptionOutputTests"),
    M("png-height-unchecked", "limits", "Sources/FramedRender/Renderer.swift",
      ("guard size.width <= Self.maxCanvasPixelsPerSide, size.height <= Self.maxCanvasPixelsPerSide else {",
       "guard size.width <= Self.maxCanvasPixelsPerSide else {"),
      "a PNG canvas too tall for Cairo not refused", "LimitTests|HostileCLITests"),
    M("shadow-limit", "limits", "Sources/FramedLayout/Style.swift",
      ("public static let maximumShadows = 100", "public static let maximumShadows = 1000"),
      "1000 shadows allowed instead of 100", "RobustnessTests|BoxModelTests"),
    M("scan-limit", "limits", "Sources/CCodecs/include/ccodecs_jpeglib.h",
      ("#define CCODECS_JPEG_MAX_SCANS 500", "#define CCODECS_JPEG_MAX_SCANS 5000"),
      "progressive JPEGs of 5000 scans decoded", "ScanLimitTests"),
    M("stream-byte-limit", "limits", "Sources/FramedRaster/FileReading.swift",
      ("max(0, pixels).multipliedReportingOverflow(by: 8)", "max(0, pixels).multipliedReportingOverflow(by: 80)"),
      "a pipe read up to 80 bytes a pixel instead of 8", "RobustnessTests|FileInputTests"),
    M("config-size", "limits", "Sources/Framed/Settings/Configuration.swift",
      ("package static let byteLimit = 1 << 20", "package static let byteLimit = 1 << 24"),
      "config files of 16 MB read", "RobustnessTests|SettingsTests"),

    # --- File handling --------------------------------------------------------------------------
    M("replace-race", "files", "Sources/FramedSystem/OutputFile.swift",
      ("try TemporaryFiles.shared.place(&temporary, at: target, replacing: replacing, for: path)",
       "try TemporaryFiles.shared.place(&temporary, at: target, replacing: true, for: path)"),
      "an output that appeared meanwhile replaced without -f", "RobustnessTests"),
    M("mode-not-kept", "files", "Sources/FramedSystem/OutputFile.swift",
      ("fchmod(descriptor, mode_t(existing.permissions))", "fchmod(descriptor, newFileMode)"),
      "a replaced file loses its permissions", "RobustnessTests"),
    M("owner-not-kept", "files", "Sources/FramedSystem/OutputFile.swift",
      ("if geteuid() == 0 { _ = fchown(descriptor, existing.owner, existing.group) } else {",
       "if geteuid() == 0 { } else {"),
      "as root, a replaced file becomes root's", "RobustnessTests"),
    M("device-replaced", "files", "Sources/FramedSystem/OutputFile.swift",
      [("case .characterDevice?, .pipe?, .socket?:", "case .pipe?, .socket?:"),
       ("case nil, .regular?, .link?:\n            break", "case nil, .regular?, .link?, .characterDevice?:\n            break")],
      "a character device (/dev/null, /dev/full) replaced by a file", "HostileCLITests|RobustnessTests"),
    M("temporary-left", "files", "Sources/FramedSystem/OutputFile.swift",
      ("if !placed { TemporaryFiles.shared.discard(temporary) }", "if !placed { }"),
      "a failed write leaves its temporary file", "HostileCLITests|FileOutputTests|DestinationTests"),
    M("hard-link-input", "files", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("if inputKeys.contains(key) || FileSystem.identity(path).map(inputFiles.contains) == true {",
       "if inputKeys.contains(key) {"),
      "an output that is the input by a hard link written over it", "HostileCLITests"),
    # --- Print, PDF shadow, formats, backdrops, trim (issues 19-22) ------------------------------
    M("bleed-box-is-trim", "options", "Sources/FramedRender/Backends/PDFPrint.swift",
      ('("BleedBox", bleed), ("TrimBox", trim)]', '("BleedBox", trim), ("TrimBox", trim)]'),
      "PDF: the BleedBox written as the trim box, the bleed lost to preflight", "PrintTests"),
    M("crop-mark-gap", "geometry", "Sources/FramedLayout/PrintMarks.swift",
      ("public static let gap = Length.mm(3).points", "public static let gap = Length.mm(1).points"),
      "crop marks 1 mm from the bleed instead of 3 mm", "PrintTests"),
    M("pdf-shadow-sigma", "geometry", "Sources/FramedRender/Backends/PDFShadow.swift",
      ("fy = shadings(Self.blurComplement(lo: box.minY, hi: box.maxY, sigma: sigma,",
       "fy = shadings(Self.blurComplement(lo: box.minY, hi: box.maxY, sigma: sigma * 1.25,"),
      "PDF: the shadow's vertical blur a quarter too wide", "PDFViewerShadowTests|ShadowAccuracyTests"),
    # --- Where figures are placed (issue 34) ---------------------------------------------------
    M("pdf-shadow-corner-dropped", "geometry", "Sources/FramedRender/Backends/PDFShadow.swift",
      ("        if let c = correction {\n            let start", "        if let c = correction, c.radial.values.isEmpty {\n            let start"),
      "PDF: a rounded shadow drawn with sharp corners (the corner correction left out)", "PDFViewerShadowTests"),
    M("pdf-shadow-halves-apart", "geometry", "Sources/FramedRender/Backends/PDFShadow.swift",
      ("    static let overlap = 0.5", "    static let overlap = -0.5"),
      "PDF: the two halves of a blur leave a gap at the frame's middle", "PDFViewerShadowTests"),
    M("pdf-canvas-gradient-painted", "geometry", "Sources/FramedRender/FrameDrawing.swift",
      ("            context.setSource(try Self.pattern(gradient.resolved(in: canvas)))\n            context.fill()",
       "            context.setSource(try Self.pattern(gradient.resolved(in: canvas)))\n            context.paint()"),
      "PDF: the gradient canvas a bare sh that Inkscape's import drops", "PlacedFigureTests"),
    M("svg-shadow-mask-black", "colour", "Sources/FramedRender/Shadow.swift",
      ("let down = try profileGradient(box: box, sigma: sigma, horizontal: false, from: area.minY,\n"
       "                                       color: .white,",
       "let down = try profileGradient(box: box, sigma: sigma, horizontal: false, from: area.minY,\n"
       "                                       color: .black,"),
      "SVG: the shadow's mask black with the alpha turned to luminance by a filter (LibreOffice draws no shadow)",
      "PlacedFigureTests"),
    M("svg-colours-percent", "colour", "Sources/FramedRender/Backends/SVGBackend.swift",
      (".flatMap(SVGHexColors.rewrite)", ""),
      "SVG: colours left as Cairo's percentages, which Inkscape reads as whole percents", "ChromeTests|PlacedFigureTests"),
    M("chrome-title-translucent", "colour", "Sources/FramedRender/WindowChrome.swift",
      ("context.setSource(Self.over(titleColor, barColor))", "context.setSource(titleColor)"),
      "the window title drawn translucent over the bar (LibreOffice draws it too light)", "PlacedFigureTests"),
    M("aspect-not-centred", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("left += ((grown - canvas.width) / 2 / 0.75).rounded(.down) * 0.75",
       "left += ((grown - canvas.width) / 0.75).rounded(.down) * 0.75"),
      "--aspect puts the frame at the right edge instead of the middle", "BackdropTests|GradientTests"),
    M("gradient-angle", "geometry", "Sources/FramedLayout/Gradient.swift",
      ("case let .angle(deg): radians = deg * .pi / 180", "case let .angle(deg): radians = (deg + 90) * .pi / 180"),
      "a gradient's angle turned a quarter (0deg pointing right, not up)", "GradientTests|BackdropTests"),
    M("trim-fuzz-strict", "limits", "Sources/FramedRaster/Trimming.swift",
      ("return da * da * 255 * 255 + a * a0 * (dr * dr + dg * dg + db * db) <= fuzz",
       "return da * da * 255 * 255 + a * a0 * (dr * dr + dg * dg + db * db) < fuzz"),
      "--trim 0 trims nothing (an exact match no longer counts)", "TrimTests|TrimmingTests"),
    M("heif-no-auto-orient", "options", "Sources/FramedRaster/HEIFDecoder.swift",
      ("(options.autoOrient ? 0 : CCODECS_HEIF_KEEP_STORED)", "0"),
      "HEIF: --no-auto-orient ignored (libheif's transformations applied anyway)", "HEIFTests"),
    M("tiff-orientation-ignored", "geometry", "Sources/CCodecs/tiff.c",
      ("libtiff.TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &p->orientation);", "p->orientation = 1;"),
      "TIFF: the Orientation tag ignored", "TIFFTests"),
    M("tiff-unassociated-as-associated", "colour", "Sources/CCodecs/tiff.c",
      ("p->associated = type == EXTRASAMPLE_ASSOCALPHA;", "p->associated = 1;"),
      "TIFF: unassociated (straight) alpha taken as premultiplied", "TIFFTests"),
    M("gif-transparency-ignored", "colour", "Sources/CCodecs/gif.c",
      ("head->transparent = (block[1] & 1) ? block[4] : -1;", "head->transparent = -1;"),
      "GIF: the transparent colour drawn opaque", "GIFTests"),
    M("heif-memory-not-asked-first", "robustness", "Sources/CCodecs/heif.c",
      ("            } else if (memory_was_short(needs)) {", "            } else if (0) {"),
      "HEIC: decoding starts without asking for its memory first, and libde265 aborts short of it",
      "RobustnessTests/decodingAHEICShortOfMemoryIsAnError"),
    M("svg-picture-outlives-the-copy", "robustness", "Sources/FramedRender/Backends/SVGBackend.swift",
      [("        let sink = ByteSink()\n        do {", "        let sink = ByteSink()\n        var kept: Any?\n        do {"),
       ("                try page.draw(picture, in: context, format: .svg)\n",
        "                try page.draw(picture, in: context, format: .svg)\n                kept = picture\n"),
       ("        return svg\n", "        withExtendedLifetime(kept) {}\n        return svg\n")],
      "SVG: the picture's surface ended after the SVG's copy, where Cairo 1.16 crashes out of memory",
      "RobustnessTests/runningOutOfMemoryIsAnError"),
    M("svg-viewbox-aspect", "geometry", "Sources/FramedRender/SVG/SVGDocument.swift",
      ("case let (w?, nil): size = (w, w * d.viewbox_height / d.viewbox_width)",
       "case let (w?, nil): size = (w, d.viewbox_height)"),
      "SVG: a width without a height keeps the viewBox's height, not its ratio", "SVGLibraryTests|SVGInputTests"),
    M("libheif-linked", "memory", "Package.swift",
      ('"lcms2", "z", "gif", "dl"]', '"lcms2", "z", "gif", "dl", "heif"]'),
      "libheif linked again, so that every run loads it and its video codecs", "PictureFormatTests"),
    M("libtiff-load-unchecked", "errors", "Sources/CCodecs/tiff.c",
      ("    int loaded = ccodecs_libtiff(message);\n    if (loaded) return loaded;\n    source s",
       "    (void)ccodecs_libtiff(message);\n    source s"),
      "a TIFF read through a libtiff that could not be opened", "PictureFormatTests"),
    M("straight-rgba-opaque-swapped", "colour", "Sources/FramedRender/Cairo/Surface.swift",
      ("if a == 255 { return (v >> 16 & 255) | (v & 0xFF00) | (v & 255) << 16 | 0xFF00_0000 }",
       "if a == 255 { return (v & 255) | (v & 0xFF00) | (v >> 16 & 255) << 16 | 0xFF00_0000 }"),
      "PNG and lab outputs: red and blue swapped in opaque pixels", "OptionOutputTests|PrintTests"),
    M("occurrence-restart", "parsing", "Sources/FramedSystem/Occurrences.swift",
      ("from = index(after: start)", "from = at"),
      "a search restarts after the part it matched, missing an overlapping match", "OccurrencesTests"),
]



def log(message=""):
    print(message, flush=True)


def sync_tree(source, target):
    """Copies the package into `target`: every file but builds and version control, each only if
    its bytes changed (unchanged files keep their times, so builds stay incremental); files
    that are gone are removed."""
    skip = {".build", ".git", ".swiftpm", "out"}
    wanted = set()
    for folder, dirs, files in os.walk(source):
        rel = os.path.relpath(folder, source)
        dirs[:] = [d for d in dirs if d not in skip and not (rel == "Fuzz" and d.startswith("."))]
        for name in files:
            path = os.path.normpath(os.path.join(rel, name))
            wanted.add(path)
            src, dst = os.path.join(source, path), os.path.join(target, path)
            with open(src, "rb") as f:
                data = f.read()
            try:
                with open(dst, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(dst, "wb") as f:
                    f.write(data)
                shutil.copymode(src, dst)
    for folder, dirs, files in os.walk(target):
        rel = os.path.relpath(folder, target)
        dirs[:] = [d for d in dirs if d not in skip and not (rel == "Fuzz" and d.startswith(".")) and d != "logs"]
        for name in files:
            path = os.path.normpath(os.path.join(rel, name))
            if path not in wanted:
                os.remove(os.path.join(target, path))


def run(command, cwd, logfile, timeout):
    """Runs `command` in its own process group, output appended to `logfile`; returns the exit
    status, or None when it ran out of time (the group is killed)."""
    with open(logfile, "ab") as out:
        out.write(("\n$ " + " ".join(command) + "\n").encode())
        out.flush()
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None


def failing_tests(logfile):
    """Names of the tests that failed, from Swift Testing's output in `logfile` (this run only)."""
    with open(logfile, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    text = text[text.rfind("\n$ "):]
    names = []
    for match in re.finditer(r"✘ Test (\S+?)(?:\(|\s)", text):
        if match.group(1) not in names and match.group(1) != "run":
            names.append(match.group(1))
    return names


def main(arguments):
    if "--help" in arguments or "-h" in arguments:
        log(__doc__)
        return 0
    if "--list" in arguments:
        for m in MUTATIONS:
            log(f"{m.id:32} {m.area:9} {m.path}: {m.description}")
        log(f"{len(MUTATIONS)} mutations")
        return 0
    ids = [a for a in arguments if not a.startswith("--")]
    known = {m.id for m in MUTATIONS}
    if len(known) != len(MUTATIONS):
        log("mutants: two mutations share an id")
        return 2
    unknown = [i for i in ids if i not in known]
    if unknown:
        log("mutants: no such mutation: " + ", ".join(unknown) + " (--list shows them)")
        return 2
    chosen = [m for m in MUTATIONS if not ids or m.id in ids]
    # Every mutation must still apply: the code it names may have moved.
    for m in chosen:
        with open(os.path.join(ROOT, m.path), encoding="utf-8") as f:
            try:
                m.apply(f.read())
            except ValueError as error:
                log(f"mutants: {error}")
                return 2
    if "--check" in arguments:
        log(f"mutants: all {len(chosen)} mutations apply")
        return 0

    scratch = os.path.abspath(os.environ.get("FRAMED_MUTANTS_DIR", os.path.join(ROOT, ".build", "mutants", "package")))
    logs = os.path.join(scratch, "logs")
    os.makedirs(logs, exist_ok=True)
    log(f"mutants: copying the package to {scratch}")
    sync_tree(ROOT, scratch)
    build = [SWIFT, "build", "--build-tests"]
    test = [SWIFT, "test", "--skip-build"]

    started = time.time()
    baseline = os.path.join(logs, "baseline.log")
    open(baseline, "w").close()
    if run(build, scratch, baseline, TEST_TIMEOUT) != 0:
        log(f"mutants: the unmutated package does not build; see {baseline}")
        return 2
    if "--no-baseline" not in arguments:
        log("mutants: running the suite on the unmutated code")
        if run(test, scratch, baseline, TEST_TIMEOUT) != 0:
            log(f"mutants: the suite fails without any mutation ({', '.join(failing_tests(baseline)[:5])}); "
                f"see {baseline}")
            return 2

    results = []
    for n, m in enumerate(chosen, 1):
        path = os.path.join(scratch, m.path)
        with open(path, encoding="utf-8") as f:
            original = f.read()
        logfile = os.path.join(logs, m.id + ".log")
        open(logfile, "w").close()
        t0 = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(m.apply(original))
            if run(build, scratch, logfile, TEST_TIMEOUT) != 0:
                status, by = "no build", []
            else:
                status, by = "survived", []
                if m.tests:
                    code = run(test + ["--filter", m.tests], scratch, logfile, TEST_TIMEOUT)
                    if code != 0:
                        status, by = "killed", failing_tests(logfile) if code is not None else ["(timed out)"]
                if status == "survived":
                    code = run(test, scratch, logfile, TEST_TIMEOUT)
                    if code != 0:
                        status, by = "killed", failing_tests(logfile) if code is not None else ["(timed out)"]
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        results.append((m, status, by))
        shown = ", ".join(by[:3]) + (f" and {len(by) - 3} more" if len(by) > 3 else "")
        log(f"[{n}/{len(chosen)}] {m.id}: {status}{' by ' + shown if shown else ''} ({time.time() - t0:.0f} s)")

    # Leave the scratch build as the unmutated code, for the next run.
    run(build, scratch, os.path.join(logs, "restore.log"), TEST_TIMEOUT)
    built = [r for r in results if r[1] != "no build"]
    killed = [r for r in built if r[1] == "killed"]
    survivors = [r for r in built if r[1] == "survived"]
    log("")
    log(f"mutants: {len(killed)} of {len(built)} killed ({100 * len(killed) / max(1, len(built)):.0f} %)"
        f" in {(time.time() - started) / 60:.0f} min")
    for m, status, _ in results:
        if status == "no build":
            log(f"  did not build: {m.id} ({m.path}); see {os.path.join(logs, m.id + '.log')}")
    for m, _, _ in survivors:
        log(f"  SURVIVED {m.id} [{m.area}] {m.path}: {m.description}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
