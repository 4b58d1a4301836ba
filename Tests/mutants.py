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
      ("                    context.setSource(shadow.color)\n                    context.paint()",
       "                    context.setSource(RGBAColor(red: 0, green: 0, blue: 0, alpha: shadow.color.alpha))\n                    context.paint()"),
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
    M("flatten-colour-truncated", "colour", "Sources/FramedRender/Backends/ProofBackend.swift",
      ("UInt8((min(max(v, 0), 1) * 255).rounded())", "UInt8(min(max(v, 0), 1) * 255)"),
      "--flatten's colour truncated to bytes (127.99 becomes 127)", "OptionOutputTests"),
    M("canvas-colour-translucent", "colour", "Sources/FramedRender/FrameDrawing.swift",
      ("if style.canvasColor.alpha > 0 {", "if style.canvasColor.alpha >= 1 {"),
      "a translucent --canvas-color left out", "OptionOutputTests"),
    M("hex-short", "colour", "Sources/FramedLayout/Color.swift",
      ("channels = nibbles.map { $0 * 17 / 255 }", "channels = nibbles.map { $0 * 16 / 255 }"),
      "#rgb colours read as 0x10 per digit instead of 0x11", "ColorTests|OptionOutputTests"),
    M("intent-setting", "colour", "Sources/Framed/Settings/Setting.swift",
      ('f.picture.renderingIntent = try choice("rendering-intent", v, RenderingIntent.self)',
       '_ = try choice("rendering-intent", v, RenderingIntent.self)'),
      "--rendering-intent not passed on from the command line", "OptionOutputTests"),
    M("intent-pipeline", "colour", "Sources/Framed/Pipeline/Planning.swift",
      ("decodeOptions.intent = picture.renderingIntent", "decodeOptions.intent = .perceptual"),
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
    M("alias-dropped", "options", "Sources/Framed/Settings/Setting.swift",
      ('Setting("rendering-intent", aliases: ["intent"])', 'Setting("rendering-intent")'),
      "--intent, the old name of --rendering-intent, no longer taken", "OptionOutputTests|SettingsTests"),
    M("css-alias-dropped", "options", "Sources/Framed/Settings/Setting.swift",
      ('Setting("radius", aliases: ["border-radius"])', 'Setting("radius")'),
      "--border-radius, CSS's name for --radius, no longer taken",
      "FramedCLITests.CLITests/aliases|SettingsTests|ManualTests"),
    M("setting-no-suggestion", "options", "Sources/Framed/Framer.swift",
      ('(nearestName(to: name, in: Setting.allNames).map { " (did you mean \\"\\($0)\\"?)" } ?? "")', '""'),
      "Framer.set's unknown name without the command line's \"did you mean\"", "SettingsTests"),
    M("help-ungrouped", "options", "Sources/FramedCLI/ArgumentParser.swift",
      ('"\\(title):\\n" + specs.map', '"" + specs.map'),
      "--help lists the options in one block, without the groups' titles", "OptionTableTests"),
    M("gradient-read-as-colour", "options", "Sources/FramedLayout/Gradient.swift",
      ('return lower[..<open].hasSuffix("gradient")',
       'return lower.hasPrefix("linear-gradient(") || lower.hasPrefix("radial-gradient(")'),
      "conic-gradient() called an unknown colour function rather than a gradient framed does not draw",
      "FramedCLITests.CLITests/anUnknownGradient"),
    M("config-alias-unresolved", "options", "Sources/Framed/Settings/Configuration.swift",
      ("for name in setting.names where canonical[name] == nil { canonical[name] = setting.names[0] }",
       "for name in setting.names where canonical[name] == nil { canonical[name] = name }"),
      "a configuration's alias kept as its own key rather than its setting's name", "SettingsTests|PresetConfigLayoutTests"),
    M("folder-from-input-ignored", "options", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("let f = format ?? folderFormat(source, framer: framer)", "let f = format ?? .png"),
      "-o out/ without --format writes PNG whatever the picture's own format", "DestinationTests|BatchTests"),
    M("folder-name-not-kept", "options", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("if !parts.ext.isEmpty, OutputFormat(path: parts.name) == format { return parts.name }", ""),
      "-o out/ names IMG_1.JPG out/IMG_1.jpeg rather than keeping its name", "DestinationTests|BatchTests"),
    M("author-as-title", "options", "Sources/FramedRender/Backends/OutputSurface.swift",
      ("(CAIRO_PDF_METADATA_AUTHOR, metadata.author)", "(CAIRO_PDF_METADATA_AUTHOR, metadata.title)"),
      "--author written as the title", "PresetConfigLayoutTests"),

    # --- Limits ---------------------------------------------------------------------------------
    M("max-pixels-off-by-one", "limits", "Sources/FramedRaster/Decoding.swift",
      ("|| width.multipliedReportingOverflow(by: height).partialValue > limit",
       "|| width.multipliedReportingOverflow(by: height).partialValue >= limit"),
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
    M("file-folder-not-made", "files", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("if !folder.isEmpty { folders.append(folder) }",
       "if !folder.isEmpty, settings.output?.contains(\"{\") == true || settings.output?.hasSuffix(\"/\") == true "
       + "{ folders.append(folder) }"),
      "the command line makes the folders of templates and -o out/ only, a file's as it writes (after the work)",
      "DestinationTests"),
    M("library-folder-not-made", "files", "Sources/FramedSystem/OutputFile.swift",
      ("if existing == nil { try makeFolder(of: target, for: path) }", ""),
      "the library writes into a missing folder without making it", "FileOutputTests"),
    M("replace-race", "files", "Sources/FramedSystem/OutputFile.swift",
      ("try TemporaryFiles.shared.place(&temporary, at: target, replacing: replacing, for: path)",
       "try TemporaryFiles.shared.place(&temporary, at: target, replacing: true, for: path)"),
      "an output that appeared meanwhile replaced without -f", "anOutputThatAppearsAtTheLastStepIsKept"),
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
      ("TemporaryFiles.shared.discard(temporary)\n            throw .cannotWrite(path, error)",
       "throw .cannotWrite(path, error)"),
      "a failed write leaves its temporary file", "HostileCLITests|FileOutputTests|DestinationTests"),
    M("set-written-in-turn", "files", "Sources/FramedCLI/Batch/Job.swift",
      ("try BatchRunner.writeSet(zip(set, job.setOutputs).map { ($0.bytes, $1) }, replacing: settings.overwrite)",
       "for (framed, output) in zip(set, job.setOutputs) {\n"
       "            try BatchRunner.writeOut(framed.bytes, to: output, replacing: settings.overwrite)\n        }"),
      "a set's files written one after the other: a full disk at the last leaves the first", "HostileCLITests"),
    M("walk-drops-any-output-name", "files", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("return !sources[index].walked || byOthers == 0 || !isFramedOutput(sources[index].path)",
       "return !sources[index].walked || byOthers == 0"),
      "a user's picture that a template would write over left out of the walk, and replaced", "RobustnessTests"),
    M("png-unmarked", "files", "Sources/FramedRender/Backends/PNGBackend.swift",
      ("software: OutputMark.software)", "software: nil)"),
      "PNG outputs without framed's mark: a second run into the walked folder refuses its own outputs",
      "RobustnessTests"),
    M("hard-link-input", "files", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("if inputKeys.contains(key) || FileSystem.identity(path).map(inputFiles.contains) == true {",
       "if inputKeys.contains(key) {"),
      "an output that is the input by a hard link written over it", "HostileCLITests"),
    # --- Promises no test held (issue 36) -------------------------------------------------------
    M("pages-replace-race", "files", "Sources/FramedCLI/Batch/BatchRunner.swift",
      ("try writeOut(document.pdf, to: destination, replacing: settings.overwrite)",
       "try writeOut(document.pdf, to: destination, replacing: true)"),
      "--pages: a PDF that appeared while the pages were made is replaced without -f", "RobustnessTests"),
    M("flatten-svg-ignored", "colour", "Sources/Framed/Pipeline/Preparing.swift",
      ("VectorPicture(document: document, background: picture.flatten)", "VectorPicture(document: document, background: nil)"),
      "--flatten paints nothing under an SVG picture", "SVGInputTests"),
    M("new-file-private", "files", "Sources/FramedSystem/OutputFile.swift",
      ("fchmod(descriptor, newFileMode)", "_ = newFileMode"),
      "a new output keeps its temporary file's 0600 instead of 0666 less the umask", "RobustnessTests"),
    M("set-trim-on-smallest", "geometry", "Sources/Framed/Pipeline/Preparing.swift",
      ("let largest = scales.indices.max { scales[$0] < scales[$1] }!",
       "let largest = scales.indices.min { scales[$0] < scales[$1] }!"),
      "a trimmed set finds its edges on the smallest file's decode: the largest is not its own framing", "SetTests"),
    # --- Print, PDF shadow, formats, backdrops, trim (issues 19-22) ------------------------------
    # --- Print shops: bleed, safe zone, photo sizes, dates (issue 30), marks' colour (issue 36) ----
    M("bleed-mat-stops-at-trim", "geometry", "Sources/FramedLayout/Bleed.swift",
      ("            add(.mat, shape: frame, radius: layout.outerRadius)\n", "            _ = frame\n"),
      "the mat stops at the trim: a cut a little off leaves a white sliver",
      "FramedLayoutTests.BleedTests|PrintBleedTests"),
    M("bleed-border-needs-opaque", "geometry", "Sources/FramedLayout/Bleed.swift",
      ("if layout.borderWidth > 0, style.borderColor.alpha > 0 {", "if layout.borderWidth > 0, style.borderColor.alpha > 1 {"),
      "the border's colour never continues into the bleed", "FramedLayoutTests.BleedTests|PrintBleedTests"),
    M("bleed-rounded-corner-filled", "geometry", "Sources/FramedLayout/Bleed.swift",
      ("        if radius <= tolerance {\n", "        if radius >= 0 {\n"),
      "the bleed beyond a rounded corner painted, where the trim beside it is paper",
      "FramedLayoutTests.BleedTests|PrintBleedTests"),
    M("bleed-along-the-curve", "geometry", "Sources/FramedLayout/Bleed.swift",
      ("let y0 = max(shape.minY, frame.minY + radius), y1 = min(shape.maxY, frame.maxY - radius)",
       "let y0 = max(shape.minY, frame.minY), y1 = min(shape.maxY, frame.maxY)"),
      "the bleed beside a side's rounded ends painted as beside its straight part",
      "FramedLayoutTests.BleedTests|PrintBleedTests"),
    M("bleed-picture-edges-left-out", "geometry", "Sources/FramedRender/BleedDrawing.swift",
      ("if !frame.padPictureEdges, case let .raster(embedded) = picture {",
       "if frame.padPictureEdges, case let .raster(embedded) = picture {"),
      "SVG and PDF: a picture on the trim not drawn outwards: paper beside its uncropped edges",
      "PrintBleedTests"),
    M("safe-margin-not-fitted", "geometry", "Sources/FramedLayout/Page.swift",
      ("2 * safeMargin - abs(", "0 * safeMargin - abs("),
      "a frame without a size fitted to the page, not inside its safe margin", "PageSafeMarginTests|SafeZoneCLITests",
      count=2),
    M("safe-margin-offset-forgotten", "geometry", "Sources/FramedLayout/Page.swift",
      ("page.height - 2 * safeMargin - abs(bottom - top)", "page.height - 2 * safeMargin"),
      "an offset shadow's room taken from both sides: the frame crosses the margin on the other",
      "PageSafeMarginTests"),
    M("safe-zone-at-the-margin", "limits", "Sources/FramedLayout/SafeZone.swift",
      ("let near = distances.filter { $0.1 < safeMargin - tolerance }", "let near = distances.filter { $0.1 <= safeMargin }"),
      "a border exactly the safe margin in warned about", "SafeZoneTests|SafeZoneCLITests"),
    M("safe-zone-inner-border-unclipped", "geometry", "Sources/FramedLayout/SafeZone.swift",
      ("let ring = clip.outset(by: w).intersection(layout.paddingBox)", "let ring = clip.outset(by: w)"),
      "an inner border's reach measured past the mat that clips it", "SafeZoneTests"),
    M("safe-zone-caption-skipped", "geometry", "Sources/FramedLayout/SafeZone.swift",
      ("if let caption = layout.caption, caption.box.height > 0,", "if let caption = layout.caption, caption.box.height < 0,"),
      "a caption on the cut never warned about", "SafeZoneTests|SafeZoneCLITests"),
    M("strict-ignores-safe-margin", "options", "Sources/Framed/Settings/Setting.swift",
      ("            f.page.failWithinSafeMargin = f.picture.failBelowMinimumPPI\n", ""),
      "--strict leaves a border on the cut a warning", "SafeZoneCLITests|SettingsTests"),
    M("page-bare-numbers-are-px", "parsing", "Sources/FramedLayout/Page.swift",
      ("if let last = trimmed.last, last.isNumber || last == \".\" {", "if let last = trimmed.last, last == \"#\" {"),
      "--page 4x5 taken as 4 x 5 px", "PageSafeMarginTests|SafeZoneCLITests"),
    M("page-photo-cm-as-inches", "parsing", "Sources/FramedLayout/Page.swift",
      ('PageSize(width: .cm(10), height: .cm(15), name: "10x15")', 'PageSize(width: .inches(10), height: .inches(15), name: "10x15")'),
      "--page 10x15 read as inches, not the centimetres European labs mean", "PageSafeMarginTests|SafeZoneCLITests"),
    M("page-photo-one-way-round", "parsing", "Sources/FramedLayout/Page.swift",
      ('if compact == "\\(sides[1])x\\(sides[0])" {', 'if compact == "\\(sides[0])x\\(sides[1])" {'),
      "--page 6x4 refused: photo sizes only as written in the list", "PageSafeMarginTests|SafeZoneCLITests"),
    M("pdf-date-fixed", "options", "Sources/FramedRender/DocumentDate.swift",
      ("date(seconds: sourceDateEpoch() ?? Int(time(nil)))", "date(seconds: sourceDateEpoch() ?? 946_684_800)"),
      "every PDF dated 2000-01-01 without SOURCE_DATE_EPOCH", "PDFDateTests|RobustnessTests"),
    M("pdf-date-without-prefix", "options", "Sources/FramedRender/Backends/PDFPrint.swift",
      ("document.replace(info, body: Self.datingInfo(body, metadata: options.metadata))", "_ = body"),
      "a plain PDF's dates left as Cairo 1.16 writes them, without D: and a time zone", "PDFDateTests|BatchTests"),
    M("registration-rgb-in-plain-pdf", "colour", "Sources/FramedRender/Backends/PDFPrint.swift",
      ("let rgbIntent = variant != nil && (options.print.intent?.space ?? .rgb) == .rgb",
       "let rgbIntent = (options.print.intent?.space ?? .rgb) == .rgb"),
      "crop marks' registration colour with a DeviceRGB alternate in a plain PDF (no RGB intent there)",
      "PrintTests/cropMarksRenderWhereTheyBelong"),
    M("bleed-box-is-trim", "options", "Sources/FramedRender/Backends/PDFPrint.swift",
      ('("BleedBox", page.bleed), ("TrimBox", page.trim)]', '("BleedBox", page.trim), ("TrimBox", page.trim)]'),
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
      [("let low = try gradient(line, horizontal: horizontal, color: .white, reflect: false)",
        "let low = try gradient(line, horizontal: horizontal, color: .black, reflect: false)"),
       ("let high = try gradient(mirrored, horizontal: horizontal, color: .white, reflect: false)",
        "let high = try gradient(mirrored, horizontal: horizontal, color: .black, reflect: false)")],
      "SVG: the shadow's masks black, their alpha turned to luminance by Cairo's filter alone (LibreOffice ignores it)",
      "PlacedFigureTests"),
    M("svg-shadow-long-axes", "geometry", "Sources/FramedRender/Shadow.swift",
      ("guard (hi - lo) / 2 >= reach * sigma + overlap else {", "guard (hi - lo) / 2 >= .infinity else {"),
      "SVG: each blur factor one gradient across half the frame (LibreOffice draws it in coarse steps)",
      "PlacedFigureTests"),
    M("svg-shadow-colour-ungrouped", "geometry", "Sources/FramedRender/Shadow.swift",
      ("                    context.setSource(color)\n                    context.mask(across)",
       "                    context.setSource(shadow.color)\n                    context.mask(across)"),
      "SVG: the colour masked as a plain colour, which Cairo's SVG backend masks off by the group's origin",
      "PlacedFigureTests"),
    M("pdf-page-size-every-page", "geometry", "Sources/FramedRender/Backends/PDFBackend.swift",
      ("if index > 0, page.media != pages[index - 1].media {", "if index > 0 {"),
      "PDF: Cairo told every later page's size, which clips it to whole points (a shadow's last column darker on page 2)",
      "PresetConfigLayoutTests"),
    M("canvas-gradient-canvas-only", "geometry", "Sources/FramedRender/FrameDrawing.swift",
      ("let covered = context.clipExtents().map { $0.union(canvas) } ?? canvas", "let covered = canvas"),
      "the gradient canvas filled over the canvas only: a print's bleed left white", "PrintBleedTests"),
    M("pdf-shadow-groups-device-rgb", "colour", "Sources/FramedRender/Backends/PDFShadow.swift",
      ('let blending = defaultRGB.map { "\\($0) 0 R" } ?? "/DeviceRGB"', 'let blending = "/DeviceRGB"'),
      "PDF/X-4 with a CMYK intent: the shadow's mask groups blend in DeviceRGB", "PrintTests"),
    M("pdf-shadow-corners-unclipped", "geometry", "Sources/FramedRender/Backends/PDFShadow.swift",
      ("content += draw(centre, clip: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))",
       "content += draw(centre, clip: big)"),
      "PDF: the four corners' shadings in one group, each over the whole area (the last paints the others out)",
      "PDFViewerShadowTests"),
    M("svg-colours-percent", "colour", "Sources/FramedRender/Backends/SVGBackend.swift",
      (".flatMap(SVGHexColors.rewrite)", ""),
      "SVG: colours left as Cairo's percentages, which Inkscape reads as whole percents", "ChromeTests|PlacedFigureTests"),
    M("chrome-title-translucent", "colour", "Sources/FramedRender/WindowChrome.swift",
      ("context.setSource(Self.over(figures.titleColor, figures.barColor))", "context.setSource(figures.titleColor)"),
      "the window title drawn translucent over the bar (LibreOffice draws it too light)", "ChromeTests|PlacedFigureTests"),
    M("aspect-not-centred", "geometry", "Sources/FramedLayout/CanvasSizing.swift",
      ("moved(dx: Self.wholePixelsDown((target.width - canvas.width) / 2),",
       "moved(dx: Self.wholePixelsDown(target.width - canvas.width),"),
      "--aspect puts the frame at the right edge instead of the middle", "BackdropTests|GradientTests"),
    M("gradient-angle", "geometry", "Sources/FramedLayout/Gradient.swift",
      ("case let .angle(deg): radians = deg.truncatingRemainder(dividingBy: 360) * .pi / 180",
       "case let .angle(deg): radians = (deg.truncatingRemainder(dividingBy: 360) + 90) * .pi / 180"),
      "a gradient's angle turned a quarter (0deg pointing right, not up)", "GradientTests|BackdropTests"),
    # --- Numbers out of range in gradients (issue 32) --------------------------------------------
    M("gradient-angle-unreduced", "robustness", "Sources/FramedLayout/Gradient.swift",
      [("return .angle(v.truncatingRemainder(dividingBy: turn) * (360 / turn))", "return .angle(v * (360 / turn))"),
       ("case let .angle(deg): radians = deg.truncatingRemainder(dividingBy: 360) * .pi / 180",
        "case let .angle(deg): radians = deg * .pi / 180")],
      "a gradient's angle not taken modulo a turn: 1e308deg overflows to NaN", "GradientTests|FileNumbersTests"),
    M("gradient-far-stops-kept", "robustness", "Sources/FramedLayout/Gradient.swift",
      ("var (offsets, colors) = Self.cut(Self.offsets(stops, length: length), stops.map(\\.color), to: -1...2)",
       "var (offsets, colors) = (Self.offsets(stops, length: length), stops.map(\\.color))"),
      "a linear gradient's far stops kept: its line grows a million million times the box", "GradientTests|FileNumbersTests"),
    M("cairo-numbers-finite-only", "robustness", "Sources/FramedRender/Cairo/CairoNumbers.swift",
      ("values.first { !(abs($0) <= limit) }", "values.first { !$0.isFinite }"),
      "the last check before Cairo lets numbers too large for a PDF reader through", "CairoNumbersTests"),
    M("pdf-drawing-unread", "robustness", "Sources/FramedRender/Backends/PDFNumbers.swift",
      ("if let bad = firstUnusable(tokensOf: operators[...]) { return bad }", "_ = operators"),
      "the PDF's last check reads its dictionaries only: a 30-digit line width that librsvg drew is written",
      "FileNumbersTests"),
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
      "RobustnessTests/aHEICAsksForItsMemoryBeforeDecoding"),
    M("svg-picture-outlives-the-copy", "robustness", "Sources/FramedRender/Backends/SVGBackend.swift",
      [("        var pictureSize: (width: Int, height: Int)?\n        do {",
        "        var pictureSize: (width: Int, height: Int)?\n        var kept: Any?\n        do {"),
       ("                try OutputPage(page).draw([picture], in: context, format: .svg)\n",
        "                try OutputPage(page).draw([picture], in: context, format: .svg)\n                kept = picture\n"),
       ("        return try SVGAnnotations.insert(", "        withExtendedLifetime(kept) {}\n        return try SVGAnnotations.insert(")],
      "SVG: the picture's surface ended after the SVG's copy, where Cairo 1.16 crashes out of memory",
      "RobustnessTests/runningOutOfMemoryIsAnError"),
    M("svg-viewbox-aspect", "geometry", "Sources/FramedRender/SVG/SVGDocument.swift",
      ("case let (w?, nil): size = (w, w * d.viewbox_height / d.viewbox_width)",
       "case let (w?, nil): size = (w, d.viewbox_height)"),
      "SVG: a width without a height keeps the viewBox's height, not its ratio", "SVGLibraryTests|SVGInputTests"),
    # --- Issue 32: SVG pictures and text under attack ---------------------------------------------
    M("svg-sandbox-off", "robustness", "Sources/FramedCLI/FramedCommand.swift",
      ("            settings.framer.svgSandbox = sandbox\n", ""),
      "SVG pictures drawn in framed's own process, where librsvg's crashes short of memory end it",
      "RobustnessTests/textAndSVGShortOfMemoryEndWithOneLine"),
    M("svg-child-left-running", "robustness", "Sources/FramedSystem/ChildProcess.swift",
      ("let termination = timedOut ? kill(pid) : wait(for: pid, until: deadline)",
       "let termination = timedOut ? .timedOut : wait(for: pid, until: deadline)"),
      "a child that ran out of time is left running (and its memory held)", "SVGSandboxTests"),
    M("svg-child-memory-unbounded", "robustness", "Sources/CRsvg/rsvg.c",
      ("        if (setrlimit(RLIMIT_DATA, &data) != 0) return -1;\n", ""),
      "the SVG sandbox's child may take any memory", "SVGSandboxTests"),
    M("svg-font-size-unbounded", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ("guard pixels.isFinite, pixels <= limits.fontSize else {", "guard pixels.isFinite else {"),
      "SVG: a font-size on which librsvg panics reaches it", "SVGLibraryTests|SVGInputTests"),
    M("svg-em-of-16px", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ('case "em", "ex", "ch": pixels = size * parent', 'case "em", "ex", "ch": pixels = size * 16'),
      "SVG: a font-size in em taken of 16 px, not of the size it inherits", "SVGLibraryTests|SVGInputTests"),
    M("svg-text-uncounted", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ("        textCharacters += count\n", ""),
      "SVG: the characters of one <text> not bounded", "SVGLibraryTests|SVGInputTests"),
    M("svg-crossings-not-counted", "robustness", "Sources/FramedRender/SVG/SVGPathWork.swift",
      ("let crossed = sweep > 16 * segments.count ? crossings() : 0", "let crossed = 0.0"),
      "SVG: a path's crossings left out of its work (a scribble passes)", "SVGLibraryTests|SVGInputTests"),
    M("svg-filters-unweighed", "robustness", "Sources/FramedRender/SVG/SVGDocument.swift",
      ("        guard check.filterWeight > 0 else { return }\n        let passes",
       "        guard check.filterWeight > 1e300 else { return }\n        let passes"),
      "SVG: filters drawn over any area", "SVGLibraryTests|SVGInputTests"),
    M("svg-data-jpeg-scans-unchecked", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ("            try Pictures.checkWork(data: body, maxPixels: limits.embeddedPixels)\n", ""),
      "SVG: a data: JPEG's scans not counted (the 499-scan JPEG reaches librsvg)", "SVGLibraryTests|SVGInputTests"),
    M("svg-dashes-uncounted", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ("        try dashes(kind, attributes)\n", ""),
      "SVG: a stroke cut into a billion dashes reaches librsvg", "SVGLibraryTests|SVGInputTests"),
    M("svg-noncharacters-kept", "robustness", "Sources/FramedRender/SVG/SVGCheck.swift",
      ("        guard !replacements.isEmpty else { return bytes }", "        return bytes"),
      "SVG: a noncharacter in text reaches Cairo, which fails the PDF", "SVGLibraryTests|LibraryMessageTests"),
    M("caption-noncharacters-kept", "robustness", "Sources/FramedRender/Caption.swift",
      ("            let bytes = Self.drawable(text).utf8CString", "            let bytes = text.utf8CString"),
      "a caption's noncharacter reaches Cairo, which fails the PDF", "LibraryMessageTests"),
    M("caption-name-bytes-kept", "robustness", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("let parts = names(of: SystemPath.displayName(source))", "let parts = names(of: source)"),
      "{name} in a caption keeps the stand-ins of a name's bytes that are not UTF-8", "LibraryMessageTests"),
    M("glib-log-not-routed", "messages", "Sources/CMessages/messages.c",
      ("            set_writer(writer, NULL, NULL);\n", ""),
      "GLib's log not routed: a fatal error (a thread Pango cannot start) aborts, warnings reach stderr",
      "aThreadTheTextLibraryCannotStartEndsWithOneLine|LibraryMessageTests"),
    M("stderr-stream-not-quiet", "messages", "Sources/FramedCLI/FramedCommand.swift",
      ("        LibraryMessages.quietStandardErrorStream()\n", ""),
      "dav1d's and fontconfig's lines printed on stderr", "LibraryMessageTests"),
    M("resources-listed-per-use", "pdf", "Sources/FramedRender/Backends/PDFCompaction.swift",
      ("Self.withoutRepeatedResources(Syntax.collapsingWhiteSpace(Array(body)))", "Syntax.collapsingWhiteSpace(Array(body))"),
      "the same picture twice on a sheet listed twice in the page's resources (a duplicated key)",
      "aPictureTwiceOnASheetIsNamedOnce"),
    M("layout-ignores-coded-size", "limits", "Sources/FramedRaster/Decoding.swift",
      ("        if let codedWidth, let codedHeight, over(codedWidth, codedHeight) { return (codedWidth, codedHeight) }\n", ""),
      "framed layout passes a HEIF whose ispe is small while it codes far more than the limit",
      "aHEIFIsOverTheLimitForWhatItCodesEvenInLayout"),
    M("glib-error-aborts", "messages", "Sources/FramedCLI/FramedCommand.swift",
      ("        LibraryFailure.endCleanly()\n", ""),
      "a thread Pango cannot start ends framed in GLib's abort, not one line and exit 1",
      "aThreadTheTextLibraryCannotStartEndsWithOneLine"),
    M("text-size-unchecked", "messages", "Sources/FramedRender/Renderer.swift",
      ("for (what, points) in texts where points * k > TextLayout.maximumDevicePixels {",
       "for (what, points) in texts where points * k > 1e300 {"),
      "text too large to draw found only when drawing", "LibraryMessageTests"),
    M("text-not-prepared", "robustness", "Sources/FramedRender/Caption.swift",
      ("        guard !texts.isEmpty else { return }\n        let k", "        guard texts.isEmpty else { return }\n        let k"),
      "Pango's threads started while drawing, when the picture has taken the memory",
      "CaptionTests|RobustnessTests/textAndSVGShortOfMemoryEndWithOneLine"),
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
      "PNG and lab outputs: red and blue swapped in opaque pixels", "PhotoLabTests|PrintTests"),
    # --- Soft proofs and sheets (issue 30) ---------------------------------------------------------
    M("proof-paper-not-simulated", "colour", "Sources/CCodecs/proof.c",
      ("INTENT_RELATIVE_COLORIMETRIC,\n            INTENT_ABSOLUTE_COLORIMETRIC, flags)",
       "INTENT_RELATIVE_COLORIMETRIC,\n            INTENT_RELATIVE_COLORIMETRIC, flags)"),
      "the soft proof shows the press's colours on sRGB white, not on its paper", "ProofTests"),
    M("proof-warning-ignored", "colour", "Sources/CCodecs/proof.c",
      ("cmsHTRANSFORM page = proof->has_warning ? proof->transforms[1] : proof->transforms[0];",
       "cmsHTRANSFORM page = proof->transforms[0];"),
      "--gamut-warning paints nothing", "ProofTests"),
    M("proof-alarm-taken-as-it-is", "colour", "Sources/CCodecs/proof.c",
      ("if (!proof->has_warning || USED(proof->alarms[1])) {", "if (!proof->has_warning) {"),
      "the gamut count misses the pixels whose proof is the warning colour", "ProofTests"),
    M("proof-counts-the-mat", "colour", "Sources/FramedRender/Backends/OutputPage.swift",
      ("return (onPage(layout.pictureClip), onPage(layout.paddingBox), layout.innerRadius)",
       "return (onPage(layout.paddingBox), onPage(layout.paddingBox), layout.innerRadius)"),
      "the share out of gamut counts the mat with the picture", "ProofTests"),
    M("proof-screen-resolution", "options", "Sources/FramedRender/Backends/ProofBackend.swift",
      ("raster.dpi = pictureDPI", "raster.dpi = 96"),
      "the soft proof drawn at 96 dpi whatever --dpi says", "ProofTests"),
    M("proof-pages-one-file", "options", "Sources/FramedCLI/Batch/BatchPlan.swift",
      ("proofs = (1...jobs.count).map { Framer.proofPath(proof, page: $0, of: jobs.count) }",
       "proofs = (1...jobs.count).map { Framer.proofPath(proof, page: $0, of: 1) }"),
      "--pages: every page's proof written to the same file", "ProofTests"),
    M("proof-sheet-shares-misassigned", "colour", "Sources/FramedCLI/Batch/SheetRun.swift",
      ("(page, arrangement.places.indices.filter { arrangement.places[$0].sheet == sheet })",
       "(page, Array(arrangement.places.indices.filter { arrangement.places[$0].sheet == sheet }.reversed()))"),
      "sheets: each print's share out of gamut given to another print of its sheet", "ProofTests"),
    M("document-drops-bleed-pixels", "robustness", "Sources/Framed/Results.swift",
      ("guard !proof, case let .raster(embedded) = picture, !renderPage.bleedReadsPicturePixels else { return self }",
       "guard !proof, case let .raster(embedded) = picture else { return self }"),
      "a document lets go of the pixels its bleed continues the picture with", "SheetPrintTests"),
    M("sheet-gutter-one-bleed", "geometry", "Sources/FramedLayout/Sheet.swift",
      ("let gutter = spec.gutter?.points ?? 2 * bleed", "let gutter = spec.gutter?.points ?? bleed"),
      "sheets: the default gutter one bleed wide, too narrow for two", "SheetTests|SheetPrintTests"),
    M("sheet-auto-fewest", "geometry", "Sources/FramedLayout/Sheet.swift",
      ("let most = counted.map { $1 * $2 }.max() ?? 0", "let most = counted.map { $1 * $2 }.min() ?? 0"),
      "n-up auto takes the way up that holds fewer prints", "SheetTests|SheetPrintTests"),
    M("sheet-block-at-margin", "geometry", "Sources/FramedLayout/Sheet.swift",
      ("origin: Point(x: (sheet.width - block.width) / 2, y: (sheet.height - block.height) / 2))",
       "origin: Point(x: SheetGrid.margin + bleed, y: SheetGrid.margin + bleed))"),
      "sheets: the block of prints at the top-left margin, not centred", "SheetTests|SheetPrintTests"),
    M("sheet-marks-ignore-bleed", "geometry", "Sources/FramedLayout/Sheet.swift",
      ("let near = bleed + CropMarks.gap, far = near + CropMarks.length",
       "let near = CropMarks.gap, far = near + CropMarks.length"),
      "sheets: the marks measured from the trim, reaching into the bleed", "SheetTests|SheetPrintTests"),
    M("sheet-turn-anticlockwise", "geometry", "Sources/FramedRender/Backends/OutputPage.swift",
      ("context.translate(place.media.height, 0)\n                    context.rotate(Double.pi / 2)",
       "context.translate(0, place.media.width)\n                    context.rotate(-Double.pi / 2)"),
      "sheets: a turned print turned anticlockwise, its picture upside down against the layout", "SheetPrintTests"),
    M("sheet-print-unclipped", "geometry", "Sources/FramedRender/Backends/OutputPage.swift",
      ("                context.addRoundedRect(Rect(origin: .zero, size: place.media), radius: 0)\n                context.clip()\n",
       ""),
      "sheets: a print's canvas colour floods the sheet past its bleed", "SheetPrintTests"),
    M("n-up-columns-rows-swapped", "options", "Sources/FramedLayout/Sheet.swift",
      ("self = .grid(columns: columns, rows: rows)", "self = .grid(columns: rows, rows: columns)"),
      "--n-up 4x5 read as 5 columns of 4 rows", "SheetTests|SheetPrintTests"),
    M("n-up-setting-ignored", "options", "Sources/Framed/Settings/Setting.swift",
      ('f.page.nUp = try parse("n-up", v, NUp.init(parsing:))', '_ = try parse("n-up", v, NUp.init(parsing:))'),
      "--n-up not passed on: every sheet is n-up auto", "SheetPrintTests"),
    M("occurrence-restart", "parsing", "Sources/FramedSystem/Occurrences.swift",
      ("from = index(after: start)", "from = at"),
      "a search restarts after the part it matched, missing an overlapping match", "OccurrencesTests"),
    # --- Captions and title bars (issue 31, items 1 to 4; issue 36, item 4) ------------------
    M("font-family-always-double-quoted", "parsing", "Sources/FramedLayout/Caption.swift",
      (r"""return name.unicodeScalars.contains("\"") ? "'" + name + "'" : "\"" + name + "\"" """.rstrip(),
       r"""return "\"" + name + "\"" """.rstrip()),
      "a font family holding a double quote is written in double quotes, and does not read back",
      "CaptionLayoutTests"),
    M("caption-switch-lightness", "colour", "Sources/FramedLayout/Caption.swift",
      ("let dark = worst(0) >= worst(255)", "let dark = (luminances.min() ?? 1) >= 0.3"),
      "the automatic caption colour turns light at the wrong lightness (light text on a mat just light enough for black)",
      "CaptionContrastTests|CaptionRoomTests"),
    M("caption-grey-kept-short", "colour", "Sources/FramedLayout/Caption.swift",
      ("let level = candidates.first { worst($0) >= minimumContrast } ?? (dark ? 0 : 255)", "let level = preferred"),
      "#333333 kept where it falls short of 4.5:1 (on classic's #808080 mat)", "CaptionContrastTests"),
    M("caption-gradient-unseen", "colour", "Sources/FramedLayout/CaptionPaint.swift",
      ("if let canvasGradient { color = canvasGradient.color(at: point).over(color) }", ""),
      "the automatic caption colour judged without the canvas's gradient (dark grey on a dark gradient)",
      "CaptionContrastTests|CaptionRoomTests"),
    M("caption-page-white", "colour", "Sources/Framed/Pipeline/Planning.swift",
      ("var captionPageColor: RGBAColor { page.spec == nil ? preset.variant.pageColor : .white }",
       "var captionPageColor: RGBAColor { .white }"),
      "a caption on a transparent canvas judged against white for docs-dark's dark page",
      "CaptionContrastTests|CaptionLookTests"),
    M("caption-backdrop-unseen", "colour", "Sources/Framed/Pipeline/Preparing.swift",
      ("        paintCaption(&plan, backdrop: backdrop)\n", ""),
      "the caption's colour judged before canvas-color auto or the canvas image is known",
      "CaptionContrastTests", count=2),
    M("caption-contrast-warning-floor", "colour", "Sources/Framed/FramingError.swift",
      ("let floor = automatic ? Caption.minimumContrast : Caption.warningContrast", "let floor = Caption.warningContrast"),
      "no warning for an automatic caption colour that falls short of 4.5:1 where no grey reaches it",
      "CaptionContrastTests"),
    M("caption-descent-touches-border", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("let under = max(0, gap - style.padding.bottom.points)", "let under = 0.0"),
      "a caption in the mat without room under it: its descenders touch the border",
      "CaptionContrastTests|CaptionRoomTests"),
    M("caption-below-in-the-shadow", "geometry", "Sources/FramedLayout/BoxModel.swift",
      ("let top = max(frameSize.height + gap, shadowed)", "let top = frameSize.height + gap"),
      "a caption under the frame set in its shadow", "CaptionContrastTests|CaptionRoomTests"),
    M("docs-contact-shadow-dropped", "options", "Sources/Framed/Preset.swift",
      ("shadows: [BoxShadow(offsetX: .zero, offsetY: .px(1), blur: .px(2),\n"
       "                                       color: RGBAColor(red: 0, green: 0, blue: 0, alpha: contact)),\n"
       "                             BoxShadow(",
       "shadows: [BoxShadow("),
      "docs and docs-dark without their contact shadow", "OptionOutputTests"),
    M("windows-title-centred", "geometry", "Sources/FramedLayout/Chrome.swift",
      ("titleAlignment: .left, titleStart: 16", "titleAlignment: .center, titleStart: 16"),
      "the Windows 11 title centred, as macOS puts it", "ChromeTests"),
    M("macos-dark-rims-missing", "colour", "Sources/FramedLayout/Chrome.swift",
      ("innerRim: dark ? RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.2) : nil,", "innerRim: nil,"),
      "a dark macOS window without its light inner rim, lost on a dark page", "ChromeTests"),
    M("macos-button-rim-missing", "colour", "Sources/FramedRender/WindowChrome.swift",
      ("            context.setSource(button.rim)\n", "            context.setSource(button.fill)\n"),
      "macOS's buttons without their darker rim", "ChromeTests"),

    # --- Issue 32: the decoders' and readers' limits ---------------------------------------------
    M("tiff-rgba-goes-on", "errors", "Sources/CCodecs/tiff.c",
      ("TIFFRGBAImageBegin(&state->rgba, state->tiff, 1, reason)", "TIFFRGBAImageBegin(&state->rgba, state->tiff, 0, reason)"),
      "TIFF: a tile that cannot be read, not the first of a band, left out without a word (libtiff's RGBA interface)",
      "TIFFTests"),
    M("tiff-tile-unchecked", "limits", "Sources/CCodecs/tiff.c",
      ("        status = ccodecs_check_size(p->tile_width, p->tile_height, max_pixels, message);\n", ""),
      "TIFF: a tile larger than the pixel limit allocated (out of memory, not over the limit)", "TIFFTests"),
    M("icc-size-unchecked", "limits", "Sources/FramedRaster/ICCProfile.swift",
      ("if let header = Self.headerSize(bytes), header != bytes.count {", "if let header = Self.headerSize(bytes), header < 0 {"),
      "an output intent cut short, or with bytes after it, embedded", "PrintTests/anOutputIntentOfTheWrongSizeIsRefused"),
    M("icc-limit-cut", "limits", "Sources/Framed/Pipeline/Printing.swift",
      ("guard bytes.count <= limit, (ICCProfile.headerSize(bytes) ?? 0) <= limit else {", "guard true else {"),
      "an output intent over 64 MB cut at 64 MB and embedded", "PrintTests/anOutputIntentOfTheWrongSizeIsRefused"),
    M("jpeg-scans-area-ignored", "limits", "Sources/FramedRaster/JPEGExtent.swift",
      ("if structure.passes * Double(structure.pixels) > maximumPixelPasses * Double(max(0, maxPixels)) {",
       "if structure.passes > maximumPixelPasses * Double(max(0, maxPixels)) {"),
      "a progressive JPEG's scans counted without its area: 16000x16000 pixels in 69 scans decoded", "ScanLimitTests"),
    M("stream-end-ignored", "limits", "Sources/FramedRaster/FileReading.swift",
      ("            if let end = stream.end(in: bytes) {", "            if let end = stream.end(in: bytes), end < 0 {"),
      "a picture on standard input or a FIFO read past its own end (a PNG then /dev/zero up to the bound)",
      "RobustnessTests/aStreamIsReadToThePicturesOwnEnd"),
    M("stream-growth-doubles", "memory", "Sources/FramedRaster/FileReading.swift",
      ("if wanted != .max && grown > wanted / 2 { grown = wanted }", "if wanted != .max && grown > wanted { grown = wanted }"),
      "a stream's buffer doubled up to its bound: the last copy holds one and a half times the bound",
      "RobustnessTests/aStreamWithoutAnEndTakesNoMoreThanItsBound"),
    M("webp-chunk-unbounded", "limits", "Sources/CCodecs/webp.c",
      ("if (keep && is_image && (image += size) > image_limit) {", "if (keep && is_image && (image += size) > UINT64_MAX / 2) {"),
      "a WebP chunk that claims 1.8 GB read whole for a 64x48 picture", "RobustnessTests/aWebPIsReadAsFarAsItsChunksSay"),
    M("heif-coded-size-unchecked", "limits", "Sources/CCodecs/heif.c",
      ("status = id ? check_coded_size(input, id, max_pixels, out, message) : CCODECS_OK;", "status = CCODECS_OK;"),
      "HEIF: the pixel limit held to the ispe box alone, and a 64x64 ispe over 2048x2048 coded pixels decoded",
      "HEIFTests|HostileCLITests/aHEIFIsOverTheLimitForWhatItCodesEvenInLayout"),
    M("heif-grid-tiles-uncounted", "limits", "Sources/CCodecs/heifboxes.c",
      ("        keep_larger(part_w * (uint64_t)columns, part_h * (uint64_t)rows, width, height);",
       "        keep_larger(part_w, part_h, width, height);"),
      "HEIF: a grid's tiles counted as one, so 256 tiles sharing one picture's data pass a limit they are 256 times over",
      "HEIFTests"),
    M("av1-size-override-ignored", "limits", "Sources/CCodecs/heifboxes.c",
      ("        if (override) {\n            w = bits(&r, s->width_bits) + 1;", "        if (0) {\n            w = bits(&r, s->width_bits) + 1;"),
      "AVIF: a frame header's own size ignored for the sequence header's maximum", "HEIFTests"),
    M("heif-security-limit-as-memory", "errors", "Sources/CCodecs/heif.c",
      ("            status = CCODECS_TOO_LARGE;\n", ""),
      "HEIF: a size libheif refuses (2^32-1 a side) called out of memory instead of over the limit",
      "HostileCLITests/aHEIFIsOverTheLimitForWhatItCodesEvenInLayout"),
    M("canvas-unbounded", "limits", "Sources/CCodecs/common.c",
      ("if (canvas <= CCODECS_CANVAS_FREE_PIXELS || canvas / CCODECS_CANVAS_RATIO <= covered) return CCODECS_OK;",
       "if (canvas <= CCODECS_CANVAS_FREE_PIXELS || canvas <= covered * canvas) return CCODECS_OK;"),
      "an animation's canvas not bounded by its first frame: 140 bytes of WebP or GIF take a gigabyte",
      "RobustnessTests/anAnimationsCanvasIsBoundedByItsFirstFrame"),
    M("webp-canvas-unchecked-when-decoding", "limits", "Sources/CCodecs/webp.c",
      ("    int status = ccodecs_check_canvas(out->width, out->height, (uint64_t)frame.width * (uint64_t)frame.height,\n"
       "                                      \"first frame\", message);",
       "    int status = CCODECS_OK;"),
      "WebP: the canvas bound held by the header alone, and a library's decode of a 4096x4096 canvas around an 8x8 frame done",
      "WebPTests"),
    M("gif-canvas-unchecked-when-decoding", "limits", "Sources/CCodecs/gif.c",
      ("    if (!status) status = check_canvas(&state->head, message);\n", ""),
      "GIF: the screen bound held by the header alone, and a library's decode of a 4096x4096 screen around a 1x1 image done",
      "GIFTests"),
    M("heif-grid-canvas-uncovered", "limits", "Sources/CCodecs/heifboxes.c",
      ("if (part_w && (canvas_w > part_w * (uint64_t)columns || canvas_h > part_h * (uint64_t)rows)) {",
       "if (0) {"),
      "HEIF: a grid's canvas larger than its tiles left to libheif", "HEIFTests"),
    M("jpeg-passthrough-despite-warnings", "files", "Sources/Framed/Pipeline/Preparing.swift",
      ("&& plan.trim == nil && decoded.warningCount == 0", "&& plan.trim == nil"),
      "a JPEG without its end marker passed through with everything after it to the end of the file",
      "RobustnessTests/aJPEGWithoutItsEndIsNotPassedThrough"),
    M("stream-claim-unchecked", "limits", "Sources/FramedRaster/FileReading.swift",
      ("            } else if stream.atLeast > limit {", "            } else if stream.atLeast < 0 {"),
      "a stream whose PNG chunk claims 2 GB read up to the bound before it is refused",
      "RobustnessTests/aStreamWithoutAnEndTakesNoMoreThanItsBound"),
    M("heif-alpha-uncounted", "limits", "Sources/CCodecs/heifboxes.c",
      ("        if (!alpha || !is_alpha(boxes, alpha)) continue;", "        if (1) continue;"),
      "HEIF: an alpha plane of 2048x2048 behind a small picture decoded past the pixel limit", "HEIFTests"),
    M("stream-jpeg-scan-uncapped", "limits", "Sources/FramedRaster/StreamEnd.swift",
      ("let cap = scanStart + blocks * Self.scanBytesPerBlock + (1 << 16)", "let cap = Int.max / 2"),
      "a JPEG without EOI on standard input read on through the zeros after it, up to the bound",
      "RobustnessTests/aStreamIsReadToThePicturesOwnEnd"),
    # --- A frame of the page's size (issue 30, item 1 as the issue wrote it) -------------------------
    M("frame-of-page-canvas-centred", "geometry", "Sources/FramedLayout/Page.swift",
      ("        let origin = Point(x: edge + (layout.canvas.width > pageSize.width + tolerance\n",
       "        let origin = Point(x: edge + (layout.canvas.width > .infinity\n"),
      "a frame of the page's size centred by its canvas: an offset shadow moves it off the trim", "PageTests"),
    M("frame-of-page-refused", "geometry", "Sources/FramedLayout/Page.swift",
      ("                        || Self.fillsTrim(layout, page: pageSize) else {", "                        else {"),
      "a frame given the page's size refused because its shadow lies past the trim", "PageTests|PrintBleedTests"),
    M("bleed-only-exactly-on-trim", "geometry", "Sources/FramedLayout/Bleed.swift",
      ("let top = shape.minY <= trim.minY + tolerance, bottom = shape.maxY >= trim.maxY - tolerance",
       "let top = abs(shape.minY - trim.minY) <= tolerance, bottom = abs(shape.maxY - trim.maxY) <= tolerance"),
      "a frame a fraction of a point past the trim (whole px) carries nothing into the bleed above and below it",
      "PageTests|PrintBleedTests"),
    M("canvas-blur-unused-silent", "options", "Sources/Framed/Pipeline/Planning.swift",
      ("        if style.canvasBlur.points > 0 && style.canvasImage == nil { result.warnings.append(.canvasBlurWithoutImage) }\n", ""),
      "--canvas-blur without --canvas-image changes nothing and says nothing", "BackgroundWarningTests"),
    # --- Documentation figures: sets, cards, backdrops (issue 31) --------------------------------
    M("set-canvas-per-look", "geometry", "Sources/FramedLayout/CanvasSizing.swift",
      ("guard layouts.count > 1 else { return layouts }", "guard layouts.count > 99 else { return layouts }"),
      "the looks of a set each keep their own canvas: the dark file comes out larger", "CanvasSizingTests|SetSizeTests"),
    M("canvas-size-width-only", "geometry", "Sources/FramedLayout/CanvasSizing.swift",
      ("for axis in StyleField.Axis.allCases {", "for axis in [StyleField.Axis.width] {"),
      "--canvas-size fits the frame across only: a tall picture overflows the card", "CanvasSizingTests|CanvasSizeTests"),
    M("fewer-pixels-at-1x", "options", "Sources/Framed/Pipeline/Preparing.swift",
      ("let need = PixelSize(width: Self.devicePixels(plan.layout.picture.width, dpi: plan.dpi),\n"
       "                                     height: Self.devicePixels(plan.layout.picture.height, dpi: plan.dpi))",
       "let need = PixelSize(width: Self.devicePixels(plan.layout.picture.width, dpi: 96),\n"
       "                                     height: Self.devicePixels(plan.layout.picture.height, dpi: 96))"),
      "a set's members are checked for pixels at 1x whatever their scale: no warning at 3x",
      "SetSizeTests|FigureSettingsTests"),
    M("background-warning-for-presets", "options", "Sources/Framed/Pipeline/Planning.swift",
      ("let backgroundSet = style.background != preset.background || style.backgroundGradient != preset.backgroundGradient",
       "let backgroundSet = true"),
      "a preset's own hidden mat warns too", "BackgroundWarningTests"),
    M("background-warning-through-alpha", "options", "Sources/Framed/Pipeline/Planning.swift",
      ("if backgroundCovered && info.hasAlpha == false { result.warnings.append(.backgroundCovered) }",
       "if backgroundCovered { result.warnings.append(.backgroundCovered) }"),
      "a background seen through a transparent picture is said to be hidden", "BackgroundWarningTests"),
    M("backdrop-alias-missing", "options", "Sources/Framed/Settings/Setting.swift",
      ('Setting("canvas-color", aliases: ["backdrop"])', 'Setting("canvas-color")'),
      "--backdrop and a config file's backdrop are unknown", "BackgroundWarningTests|FigureSettingsTests"),
    M("oklab-sign", "colour", "Sources/FramedLayout/OKLab.swift",
      ("b: 0.0259040371 * lms.0 + 0.7827717662 * lms.1 - 0.8086757660 * lms.2)",
       "b: 0.0259040371 * lms.0 + 0.7827717662 * lms.1 + 0.8086757660 * lms.2)"),
      "OKLab's b axis with a sign slipped: hues and the auto backdrop come out wrong",
      "BackdropColorsTests|PictureBackdropTests"),
    M("auto-shadow-ignored", "colour", "Sources/FramedLayout/BackdropColors.swift",
      ("        let a = shadow.alpha\n", "        let a = 1.0\n"),
      "--canvas-color auto judges the shadow as if opaque: a dark backdrop hides a light shadow",
      "BackdropColorsTests|PictureBackdropTests"),
    M("canvas-image-contain", "geometry", "Sources/FramedLayout/CanvasImageGeometry.swift",
      ("let s = max(Double(area.width) / Double(image.width), Double(area.height) / Double(image.height))",
       "let s = min(Double(area.width) / Double(image.width), Double(area.height) / Double(image.height))"),
      "the canvas image is fitted inside (contain) and stretched, not scaled to cover",
      "CanvasImageGeometryTests|PictureBackdropTests"),
    M("canvas-blur-halved", "geometry", "Sources/Framed/Pipeline/Backdrop.swift",
      ("image = image.blurred(sigma: plan.style.canvasBlur.points * k)",
       "image = image.blurred(sigma: plan.style.canvasBlur.points * k / 2)"),
      "--canvas-blur read as box-shadow's blur (sigma = LENGTH / 2), not as CSS filter: blur()",
      "PictureBackdropTests"),
    M("canvas-image-raster-only", "geometry", "Sources/FramedRender/FrameDrawing.swift",
      ("        if let backdrop {\n            // Like a CSS background image",
       "        if let backdrop, padPictureEdges {\n            // Like a CSS background image"),
      "the canvas image is left out of SVG and PDF", "PictureBackdropTests"),
    # --- Callouts and redaction (issue 35) ---------------------------------------------------------
    M("arrow-head-reversed", "geometry", "Sources/FramedLayout/AnnotationLayout.swift",
      ("shaftEnd = Point(x: tip.x - ux * length, y: tip.y - uy * length)",
       "shaftEnd = Point(x: tip.x + ux * length, y: tip.y + uy * length)"),
      "an arrow's head turned round: its base past the point it shows, its point back on the shaft",
      "AnnotationLayoutTests|AnnotationTests"),
    M("badge-number-off-centre", "geometry", "Sources/FramedRender/AnnotationPieces.swift",
      ("let origin = Point(x: center.x - ink.midX, y: center.y - ink.midY)",
       "let origin = Point(x: center.x - ink.midX, y: center.y - ink.height / 2)"),
      "a badge's number placed by its ink's height, not its ink's box: low in the disc", "AnnotationTests"),
    M("pixelate-block-too-small", "limits", "Sources/FramedLayout/AnnotationParsing.swift",
      ("guard block.isFinite, block >= Self.minimumBlock, block <= 10_000 else {",
       "guard block.isFinite, block >= 1, block <= 10_000 else {"),
      "pixelate takes blocks of a few pixels, which keep text readable", "AnnotationTests|AnnotationLayoutTests"),
    M("coordinate-exponent-refused", "parsing", "Sources/FramedLayout/Annotation.swift",
      ("guard let value = styleNumber(number) else {",
       "guard let value = Double(number), value.isFinite, !number.contains(where: { $0.isLetter }) else {"),
      "a coordinate written with an exponent (as the inline form writes a large one) does not read back",
      "AnnotationLayoutTests"),
    M("coordinate-hex-accepted", "parsing", "Sources/FramedLayout/Annotation.swift",
      ("guard let value = styleNumber(number) else {",
       "guard let value = Double(number), value.isFinite else {"),
      "a coordinate in hexadecimal (0x10), which no CSS number is, is taken", "AnnotationLayoutTests"),
    M("annotation-setting-hex-accepted", "parsing", "Sources/FramedLayout/AnnotationParsing.swift",
      ("guard let n = styleNumber(value) else {",
       "guard let n = Double(value), n.isFinite else {"),
      "a block, sigma or zoom in hexadecimal (block=0x10) is taken", "AnnotationLayoutTests"),
    M("setting-number-hex-accepted", "parsing", "Sources/Framed/Settings/Setting.swift",
      ("guard let value = styleNumber(trimmingSpaces(text)), value > 0 else {",
       "guard let value = Double(trimmingSpaces(text)), value.isFinite, value > 0 else {"),
      "a dpi or scale in hexadecimal (dpi 0x12C) is taken", "SettingsTests"),
    M("svg-gradients-not-shared", "output", "Sources/FramedRender/Backends/SVGBackend.swift",
      (".flatMap(SVGHexColors.rewrite).flatMap(SVGSharedGradients.rewrite) else {",
       ".flatMap(SVGHexColors.rewrite) else {"),
      "a shadow's SVG writes the same stops four times over (its bytes grow)", "SVGSharedGradientsTests"),
    M("svg-gradients-shared-across-attributes", "output", "Sources/FramedRender/Backends/SVGSharedGradients.swift",
      ("key = Array(kind.utf8) + [0] + names.sorted { $0.lexicographicallyPrecedes($1) }.joined(separator: [0]) + [0] + body",
       "key = Array(kind.utf8) + [0] + body"),
      "a gradient takes another's stops whatever its attributes, and inherits its spread method", "SVGSharedGradientsTests"),
    M("radial-rings-not-split", "geometry", "Sources/FramedRender/Shadow.swift",
      ("let pieces = max(1, Int((abs(v1 - v0) * color.alpha * opacity / ringStep).rounded(.up)))",
       "let pieces = 1"),
      "a corner's radial gradient has stops far apart, which LibreOffice draws in steps", "SVGSharedGradientsTests"),
    M("svg-ids-hash-found-once", "output", "Sources/FramedRender/Backends/SVGBackend.swift",
      ("if nextHash < i { nextHash =", "if nextHash < 0 { nextHash ="),
      "SVG: only the first `#surfaceN` reference renumbered, the rest left pointing at Cairo's numbers",
      "SVGRewritesTests"),
    M("metadata-nonchar-kept", "robustness", "Sources/FramedRender/Renderer.swift",
      [("        options.metadata.title = metadata.title.map(TextLayout.drawable)\n", ""),
       ("        options.metadata.author = metadata.author.map(TextLayout.drawable)\n", "")],
      "a PDF whose title or author holds U+FFFF fails whole (Cairo: input string not valid UTF-8)",
      "LibraryMessageTests"),
    M("byte-search-past-range", "robustness", "Sources/FramedSystem/ByteSearch.swift",
      ("memchr(base + range.lowerBound, Int32(byte), range.count)",
       "memchr(base + range.lowerBound, Int32(byte), count - range.lowerBound)"),
      "a byte search runs past its range's end: a gradient's body takes a comment that follows it",
      "ByteSearchTests"),
    M("gradient-angle-hex-accepted", "parsing", "Sources/FramedLayout/Gradient.swift",
      ("guard let (number, rest) = splitStyleNumber(word.dropLast(unit.count)), rest.isEmpty, let v = Double(number)",
       "guard let v = Double(word.dropLast(unit.count))"),
      "a gradient's angle in hexadecimal (0x10deg) is taken", "GradientTests"),
    M("pixelate-blocks-halved", "geometry", "Sources/Framed/Pipeline/Preparing.swift",
      ("case .pixelate: return Redaction(box: box, method: .pixelate(width: redaction.block * fx, height: redaction.block * fy))",
       "case .pixelate: return Redaction(box: box, method: .pixelate(width: redaction.block * fx / 2, height: redaction.block * fy / 2))"),
      "pixelate's blocks half the size asked for", "AnnotationTests|RedactionTests"),
    M("redaction-after-embedding", "file handling", "Sources/Framed/Pipeline/Preparing.swift",
      ("&& decoded.warningCount == 0 && plan.annotations.redactions.isEmpty", "&& decoded.warningCount == 0"),
      "a JPEG passed into the PDF and SVG byte for byte: the redacted pixels are in the file", "AnnotationTests"),
    M("annotation-layer-missing", "file handling", "Sources/FramedRender/Backends/PDFLayer.swift",
      ("        document.replace(file.root, body: withLayer)\n", "        _ = withLayer\n"),
      "the PDF's callouts in no optional content group the catalog names: no layer to hide", "AnnotationTests"),
    M("redaction-ignores-trim", "geometry", "Sources/Framed/Pipeline/Preparing.swift",
      ("                                                 picture: plan.layout.picturePixels))",
       "                                                 picture: plan.sourcePixels))"),
      "redactions placed in the untrimmed picture's pixels after --trim", "AnnotationTests"),
    M("redaction-rows-read-early", "robustness", "Sources/FramedRaster/RedactionGate.swift",
      ("        return min(stored, nextTop)", "        return stored"),
      "a picture resized while it decodes: the resize reads rows a redaction has not reached yet",
      "AnnotationTests|ResizeWhileDecodingTests"),
    M("redactions-out-of-order", "geometry", "Sources/FramedRaster/RedactionGate.swift",
      ("        return needed.min()", "        return needed.max()"),
      "overlapping redactions applied while decoding in another order than the list's",
      "AnnotationTests|ResizeWhileDecodingTests"),
    M("redaction-before-its-rows", "robustness", "Sources/FramedRaster/RedactionGate.swift",
      ("            if stored >= rows[k].upperBound {", "            if true {"),
      "a region redacted before the decoder has stored its rows, which the decoder then writes over",
      "ResizeWhileDecodingTests|AnnotationTests"),
    M("redactions-any-size", "geometry", "Sources/FramedRaster/Decoding.swift",
      ("            if !options.redactions.isEmpty\n                && (upright.width", "            if false\n                && (upright.width"),
      "redactions placed for one size applied by a decoder to a picture of another",
      "ResizeWhileDecodingTests"),
]



def log(message=""):
    print(message, flush=True)


def link_judges(source, target):
    """Links the judges' Python environment (.build/judges: PDFium, pikepdf) into the copy's
    .build, which sync_tree leaves out: without it every test that renders with PDFium fails
    on any mutant, and a mutant those tests name counts as killed whatever it did."""
    judges = os.path.join(source, ".build", "judges")
    link = os.path.join(target, ".build", "judges")
    if not os.path.exists(judges) or os.path.lexists(link):
        return
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink(os.path.realpath(judges), link)


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
    link_judges(ROOT, scratch)
    build = [SWIFT, "build", "--build-tests"]
    # MutantsListTests checks that every mutation applies to the code: in the scratch copy, with
    # one mutation applied, it always fails, and would count every mutant as killed.
    test = [SWIFT, "test", "--skip-build", "--skip", "MutantsListTests"]

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
