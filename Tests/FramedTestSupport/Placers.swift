import Foundation
import FramedRaster

/// The programs a figure is placed in, beyond the PDF viewers (`PDFViewer`): each turns framed's
/// SVG or PDF into pixels, headless, the way a user who places the figure there sees it.
///
/// Each runs with a time limit (`timeLimit`): an importer that hangs fails the test rather than
/// the suite. Each gets profile and configuration folders of its own, so that runs at the same time
/// do not share state. All the files of one call go through one start of the program (LibreOffice
/// and Firefox take seconds to start).
package enum Placer: String, CaseIterable, Sendable {
    /// Firefox ESR: the SVG in an `<img>` at its size (100 %) and at twice its size (200 %), one
    /// headless screenshot of a page holding them all, a device pixel per CSS px.
    case firefox
    /// Inkscape exporting the SVG to PNG (`--export-type=png`).
    case inkscapeSVG = "inkscape-svg"
    /// LibreOffice Draw opening the SVG and exporting the page to PNG (`--convert-to png`).
    case libreofficeSVG = "libreoffice-svg"
    /// pdfLaTeX placing the PDF with `\includegraphics`, each on a page of its size, then poppler.
    case pdflatexPoppler = "pdflatex-poppler"
    /// The same pdfLaTeX output, rasterised by Ghostscript.
    case pdflatexGhostscript = "pdflatex-ghostscript"
    /// Inkscape importing the PDF with its own importer (the default) and exporting PNG.
    case inkscapePDF = "inkscape-pdf"
    /// Inkscape importing the PDF through poppler and Cairo (`--pdf-poppler`).
    case inkscapePopplerPDF = "inkscape-poppler-pdf"
    /// LibreOffice Draw opening the PDF (its PDF import) and exporting the page to PNG.
    case libreofficePDF = "libreoffice-pdf"

    /// Whether the placer takes the SVG (else the PDF).
    package var takesSVG: Bool {
        switch self {
        case .firefox, .inkscapeSVG, .libreofficeSVG: return true
        default: return false
        }
    }

    /// How far from a shape's edge, in device pixels, its antialiasing may reach: LibreOffice's
    /// export draws shapes without antialiasing, with its drawing half a pixel in (2.5); the
    /// others antialias (1.5).
    package var edgeBand: Double {
        self == .libreofficeSVG || self == .libreofficePDF ? 2.5 : 1.5
    }

    /// Seconds a placer may take for one call before it counts as hung and is stopped.
    package static let timeLimit = 150

    /// One rendered figure: the picture, device pixels per point along x and y, and where the
    /// point (0, 0) of the figure lies in the picture, in pixels (a placer that centres the page
    /// in a bitmap rounded up puts it a fraction of a pixel in).
    package struct Rendering {
        package var image: RasterImage
        package var scaleX: Double, scaleY: Double
        package var originX: Double, originY: Double
        /// Where in a device pixel the placer samples a gradient (fractions of a pixel from its
        /// top-left corner).
        package var sample: (x: Double, y: Double)
    }

    /// A figure to place: its file and its size in points.
    package struct Figure {
        package var file: URL
        package var width: Double, height: Double
        package init(file: URL, width: Double, height: Double) { self.file = file; self.width = width; self.height = height }
    }

    /// Renders every figure at `scale` device pixels per CSS px (96 dpi times `scale`), in
    /// `folder`. Firefox gives two renderings per figure instead, at 100 % and 200 % (a scale of 1
    /// and 2); the others one. Throws when the program is missing, fails, or runs past `timeLimit`.
    package func render(_ figures: [Figure], scale: Double, in folder: URL) throws -> [[Rendering]] {
        let work = folder.appendingPathComponent("placer-\(rawValue)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let dpi = 96 * scale
        switch self {
        case .firefox:
            return try Self.firefox(figures, work: work)
        case .inkscapeSVG, .inkscapePDF, .inkscapePopplerPDF:
            return try Self.inkscape(figures, dpi: dpi, poppler: self == .inkscapePopplerPDF, work: work).map { [$0] }
        case .libreofficeSVG, .libreofficePDF:
            return try Self.libreoffice(figures, svg: self == .libreofficeSVG, work: work).map { [$0] }
        case .pdflatexPoppler, .pdflatexGhostscript:
            let pdf = try Self.pdflatex(figures, work: work)
            let viewer: PDFViewer = self == .pdflatexPoppler ? .poppler : .ghostscript
            return try figures.enumerated().map { index, figure in
                let r = try viewer.render(pdf, page: index + 1, dpi: dpi, pageSize: (figure.width, figure.height))
                return [Rendering(image: r.image, scaleX: r.scaleX, scaleY: r.scaleY, originX: 0, originY: r.top,
                                  sample: viewer.sampleOffset)]
            }
        }
    }

    /// Runs `program` under `timeout`, with HOME and the XDG folders inside `work`.
    static func run(_ program: String, _ arguments: [String], work: URL, label: String) throws -> ToolResult {
        let home = work.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                           "XDG_DATA_HOME": home.appendingPathComponent("data").path,
                           "XDG_RUNTIME_DIR": home.path]
        let started = Date()
        let result = try Tool.run("timeout", ["-k", "10", "\(timeLimit)", program] + arguments, in: work,
                                  environment: environment)
        if result.status == 124 || result.status == 137 || Date().timeIntervalSince(started) >= Double(timeLimit) {
            throw ToolFailure(description: "\(label) did not finish within \(timeLimit) s (hung)")
        }
        guard result.status == 0 else {
            throw ToolFailure(description: "\(label) failed (status \(result.status)): \(result.stderr.suffix(800))")
        }
        return result
    }

    /// Copies each figure into `work` under a name of its own (`figure-N.ext`).
    static func stage(_ figures: [Figure], work: URL) throws -> [URL] {
        try figures.enumerated().map { index, figure in
            let copy = work.appendingPathComponent("figure-\(index).\(figure.file.pathExtension)")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: figure.file, to: copy)
            return copy
        }
    }

    /// `inkscape --export-type=png` of every file in one run, on white. Inkscape draws the page at
    /// `dpi` from its top-left corner into a bitmap of its size rounded to whole pixels.
    static func inkscape(_ figures: [Figure], dpi: Double, poppler: Bool, work: URL) throws -> [Rendering] {
        let files = try stage(figures, work: work)
        var arguments = ["--export-type=png", "--export-dpi=\(dpi)", "--export-background=white",
                         "--export-background-opacity=1"]
        if poppler { arguments.append("--pdf-poppler") }
        _ = try run("inkscape", arguments + files.map(\.lastPathComponent), work: work,
                    label: poppler ? "Inkscape's poppler PDF importer" : "Inkscape")
        return try zip(files, figures).map { file, figure in
            let image = try Support.readPNG(file.deletingPathExtension().appendingPathExtension("png"))
            return Rendering(image: image, scaleX: dpi / 72, scaleY: dpi / 72, originX: 0, originY: 0, sample: (0.5, 0.5))
        }
    }

    /// `soffice --convert-to png` of every file in one start, with a private user profile.
    /// LibreOffice draws the page at 96 dpi; its SVG import makes the page a pixel larger than
    /// the drawing and puts the drawing half a pixel in, its PDF import draws from the corner.
    static func libreoffice(_ figures: [Figure], svg: Bool, work: URL) throws -> [Rendering] {
        let files = try stage(figures, work: work)
        let profile = work.appendingPathComponent("lo-profile", isDirectory: true)
        let out = work.appendingPathComponent("png", isDirectory: true)
        _ = try run("soffice", ["-env:UserInstallation=\(profile.absoluteString)", "--headless", "--norestore",
                                "--convert-to", "png", "--outdir", out.path] + files.map(\.lastPathComponent),
                    work: work, label: "LibreOffice")
        return try files.map { file in
            let png = out.appendingPathComponent(file.deletingPathExtension().lastPathComponent + ".png")
            guard FileManager.default.fileExists(atPath: png.path) else {
                throw ToolFailure(description: "LibreOffice wrote no PNG for \(file.lastPathComponent)")
            }
            let image = try Support.readPNG(png)
            let k = 96.0 / 72
            return Rendering(image: image, scaleX: k, scaleY: k, originX: svg ? 0.5 : 0, originY: svg ? 0.5 : 0,
                             sample: (0.5, 0.5))
        }
    }

    /// One pdfLaTeX document placing every PDF with `\includegraphics` on a page of its own size.
    static func pdflatex(_ figures: [Figure], work: URL) throws -> URL {
        let files = try stage(figures, work: work)
        var tex = """
            \\documentclass{article}
            \\usepackage{graphicx}
            \\pagestyle{empty}
            \\hoffset=-1in \\voffset=-1in
            \\newcommand{\\placefigure}[1]{\\setbox0=\\hbox{\\includegraphics{#1}}\\pdfpagewidth=\\wd0 \\pdfpageheight=\\ht0 \\shipout\\box0}
            \\begin{document}

            """
        for file in files { tex += "\\placefigure{\(file.lastPathComponent)}\n" }
        tex += "\\end{document}\n"
        let source = work.appendingPathComponent("figures.tex")
        try tex.write(to: source, atomically: true, encoding: .utf8)
        _ = try run("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", source.lastPathComponent], work: work,
                    label: "pdfLaTeX")
        return work.appendingPathComponent("figures.pdf")
    }

    /// One headless Firefox screenshot of a page that holds every SVG in an `<img>`, at its size
    /// and at twice it, each at whole CSS px on the page. Firefox draws an image into a bitmap of
    /// its size rounded to whole pixels.
    static func firefox(_ figures: [Figure], work: URL) throws -> [[Rendering]] {
        let files = try stage(figures, work: work)
        let profile = work.appendingPathComponent("firefox-profile", isDirectory: true)
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var html = "<!doctype html><html><head><style>html,body{margin:0;padding:0;background:#fff}"
            + "img{position:absolute;display:block}</style></head><body>\n"
        var top = 0, width = 0
        var places: [[(top: Int, zoom: Double)]] = []
        for (file, figure) in zip(files, figures) {
            var mine: [(Int, Double)] = []
            for zoom in [1.0, 2.0] {
                let w = figure.width / 0.75 * zoom, h = figure.height / 0.75 * zoom
                html += "<img src=\"\(file.lastPathComponent)\" style=\"left:0;top:\(top)px;width:\(w)px;height:\(h)px\">\n"
                mine.append((top, zoom))
                top += Int(h.rounded(.up)) + 8
                width = max(width, Int(w.rounded(.up)))
            }
            places.append(mine)
        }
        html += "</body></html>\n"
        let page = work.appendingPathComponent("figures.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let shot = work.appendingPathComponent("firefox.png")
        _ = try run("firefox-esr", ["--headless", "--no-remote", "--profile", profile.path,
                                    "--window-size=\(width),\(top)", "--screenshot", shot.path, page.absoluteString],
                    work: work, label: "Firefox")
        let full = try Support.readPNG(shot)
        return zip(places, figures).map { mine, figure in
            mine.map { top, zoom in
                let w = figure.width / 0.75 * zoom, h = figure.height / 0.75 * zoom
                let image = full.cropped(x: 0, y: top, width: min(full.width, Int(w.rounded(.up))),
                                         height: max(0, min(full.height - top, Int(h.rounded(.up)))))
                return Rendering(image: image, scaleX: w.rounded() / figure.width, scaleY: h.rounded() / figure.height,
                                 originX: 0, originY: 0, sample: (0.5, 0.5))
            }
        }
    }
}

extension RasterImage {
    /// The rectangle (`x`, `y`, `width`, `height`) of this picture, as a picture of its own.
    package func cropped(x: Int, y: Int, width: Int, height: Int) -> RasterImage {
        var out = [UInt8]()
        out.reserveCapacity(width * height * 4)
        for row in y..<(y + height) {
            let start = (row * self.width + x) * 4
            out += pixels[start..<(start + width * 4)]
        }
        return RasterImage(width: width, height: height, pixels: out, hasAlpha: hasAlpha)
    }
}
