import Foundation
import FramedRaster

/// The PDF viewers that people open framed's PDFs with, as judges: each renders one page of a PDF
/// on white paper at a resolution, and says where in a device pixel it samples a shading.
package enum PDFViewer: String, CaseIterable, Sendable {
    /// Chrome's and Edge's built-in viewer, through pypdfium2 (`Tests/Viewers/pdfium-render.py`,
    /// run by the Python of the virtual environment that `make test-deps` makes in .build/judges).
    case pdfium
    /// `mutool draw` (MuPDF: SumatraPDF, zathura).
    case mupdf
    /// Ghostscript's `png16m` device.
    case ghostscript
    /// `pdftoppm` (poppler: Evince, Okular).
    case poppler

    /// Where the viewer evaluates a shading inside a device pixel, as fractions of a pixel from
    /// its top-left corner. PDFium and poppler evaluate at the pixel's corner; MuPDF's mesh painter
    /// walks scanlines at whole y and starts each span at its left edge truncated to a whole
    /// pixel, so along x it samples anywhere in the pixel (on average its centre); Ghostscript
    /// at the centre.
    package var sampleOffset: (x: Double, y: Double) {
        switch self {
        case .pdfium, .poppler: return (0, 0)
        case .mupdf: return (0.5, 0)
        case .ghostscript: return (0.5, 0.5)
        }
    }

    /// Renders page `page` (from 1) of `pdf` at `dpi`, on white; with the device pixels per point
    /// along x and y, and how far down (in pixels) the page's top lies in the picture. PDFium
    /// fits the page to whole pixels, so its scale is the bitmap's side over the page's, not
    /// `dpi / 72` exactly. Ghostscript makes the picture the page's height rounded to whole pixels
    /// and puts the page's bottom edge on the picture's: its top lies `rows − height · dpi / 72`
    /// down (half a pixel for a page 109.5 pt high at 72 dpi), the others put it at the top.
    package func render(_ pdf: URL, page: Int = 1, dpi: Double, pageSize: (width: Double, height: Double))
        throws -> (image: RasterImage, scaleX: Double, scaleY: Double, top: Double) {
        let png = pdf.deletingPathExtension().appendingPathExtension("\(rawValue)-\(page)-\(Int(dpi)).png")
        let result: ToolResult
        switch self {
        case .pdfium:
            let python = PDFViewer.pdfiumPython
            guard FileManager.default.isExecutableFile(atPath: python.path) else {
                throw ToolFailure(description: "PDFium is not installed: \(python.path) is missing (run make test-deps, "
                    + "which installs pypdfium2 from PyPI into .build/judges)")
            }
            result = try Tool.run(python, [PDFViewer.pdfiumScript.path, pdf.path, "\(page)", "\(dpi)", png.path])
        case .mupdf:
            result = try Tool.run("mutool", ["draw", "-q", "-r", "\(dpi)", "-o", png.path, pdf.path, "\(page)"])
        case .ghostscript:
            result = try Tool.run("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-dFirstPage=\(page)",
                                         "-dLastPage=\(page)", "-r\(dpi)", "-o", png.path, pdf.path])
        case .poppler:
            result = try Tool.run("pdftoppm", ["-r", "\(dpi)", "-png", "-singlefile", "-f", "\(page)", "-l", "\(page)", pdf.path,
                                               png.deletingPathExtension().path])
        }
        guard result.status == 0 else { throw ToolFailure(description: "\(rawValue) failed: \(result.stderr)") }
        let image = try Support.readPNG(png)
        switch self {
        case .pdfium: return (image, Double(image.width) / pageSize.width, Double(image.height) / pageSize.height, 0)
        case .ghostscript: return (image, dpi / 72, dpi / 72, Double(image.height) - pageSize.height * dpi / 72)
        default: return (image, dpi / 72, dpi / 72, 0)
        }
    }

    /// The package's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The judges' Python (pypdfium2, pikepdf), from `make test-deps`.
    package static let pdfiumPython = root.appendingPathComponent(".build/judges/bin/python")
    /// The judges' Python, which has pikepdf too (for reading a PDF's structure).
    package static let pikepdfPython = pdfiumPython
    static let pdfiumScript = root.appendingPathComponent("Tests/Viewers/pdfium-render.py")
}
