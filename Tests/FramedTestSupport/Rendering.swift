import Foundation
import FramedRaster

/// A judging tool that ran and failed.
package struct ToolFailure: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

/// Helpers for rendering tests: temporary folders, external rasterisers, pixel access.
package enum Support {
    /// A fresh empty folder under the system's temporary folder.
    package static func temporaryDirectory() throws -> URL { try TemporaryFolder.make() }

    /// Runs `tool` (searched in PATH) and returns its exit status; fails the test when it cannot start.
    @discardableResult
    package static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        try Tool.run(tool, arguments).status
    }

    /// Output of `tool` as text.
    package static func output(_ tool: String, _ arguments: [String]) throws -> String {
        try Tool.run(tool, arguments).output
    }

    /// A solid picture, optionally with a contrasting left half so orientation can be seen.
    package static func picture(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8) = (40, 120, 200),
                        left: (UInt8, UInt8, UInt8)? = nil) -> RasterImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<height {
            for x in 0..<width {
                let c = (left != nil && x < width / 2) ? left! : rgb
                pixels += [c.0, c.1, c.2, 255]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    /// Colourful, every channel changing from pixel to pixel, with opaque, translucent and fully
    /// transparent columns (whose straight colour is kept too) when `alpha` is set; `gray`
    /// makes R = G = B.
    package static func busyPicture(width: Int, height: Int, gray: Bool = false, alpha: Bool = true) -> RasterImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8((x * 7 + y * 3) % 256), g = UInt8((x * x / 5 + y) % 256), b = UInt8((x ^ y) % 256)
                let a: UInt8 = !alpha ? 255 : x < width / 4 ? 0 : x < width / 2 ? UInt8((x + y) % 256) : 255
                pixels += gray ? [r, r, r, a] : [r, g, b, a]
            }
        }
        return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
    }

    package static func write(_ bytes: [UInt8], to url: URL) throws {
        try Data(bytes).write(to: url)
    }

    /// Decodes a PNG written by a rasteriser.
    package static func readPNG(_ url: URL) throws -> RasterImage {
        try Pictures.decode(contentsOf: url.path).image
    }

    /// Rasterises an SVG with librsvg at `zoom` times 96 dpi.
    package static func rasteriseSVG(_ svg: URL, zoom: Double) throws -> RasterImage {
        let png = svg.deletingPathExtension().appendingPathExtension("rsvg-\(zoom).png")
        let status = try run("rsvg-convert", ["--zoom", "\(zoom)", "-o", png.path, svg.path])
        guard status == 0 else { throw ToolFailure(description: "rsvg-convert failed") }
        return try readPNG(png)
    }

    /// Rasterises a PDF with poppler at `dpi` (on white paper).
    package static func rasterisePDF(_ pdf: URL, dpi: Double) throws -> RasterImage {
        let base = pdf.deletingPathExtension().appendingPathExtension("poppler-\(Int(dpi))")
        let status = try run("pdftoppm", ["-r", "\(dpi)", "-png", "-singlefile", pdf.path, base.path])
        guard status == 0 else { throw ToolFailure(description: "pdftoppm failed") }
        return try readPNG(base.appendingPathExtension("png"))
    }
}

extension Support {
    /// Rasterises a PDF with Ghostscript's `pngalpha` device at `dpi` (transparent background).
    package static func rasterisePDFWithGhostscript(_ pdf: URL, dpi: Double) throws -> RasterImage {
        let png = pdf.deletingPathExtension().appendingPathExtension("gs-\(Int(dpi)).png")
        let status = try run("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pngalpha",
                                    "-r\(dpi)", "-o", png.path, pdf.path])
        guard status == 0 else { throw ToolFailure(description: "gs failed") }
        return try readPNG(png)
    }

    /// Rasterises a PDF with MuPDF's `mutool draw` at `dpi` (on white paper).
    package static func rasterisePDFWithMuPDF(_ pdf: URL, dpi: Double) throws -> RasterImage {
        let png = pdf.deletingPathExtension().appendingPathExtension("mupdf-\(Int(dpi)).png")
        let status = try run("mutool", ["draw", "-q", "-r", "\(dpi)", "-o", png.path, pdf.path])
        guard status == 0 else { throw ToolFailure(description: "mutool draw failed") }
        return try readPNG(png)
    }
}

extension Support {
    /// Renders `svg` with headless Chromium at `width` x `height` CSS pixels, `scale` device
    /// pixels each; throws when Chromium is missing, fails, or makes no picture within two minutes.
    package static func chromiumScreenshot(_ svg: URL, width: Int, height: Int, scale: Int = 1, folder: URL) throws -> RasterImage {
        let shot = folder.appendingPathComponent("chromium.png")
        let profile = folder.appendingPathComponent("chromium-profile")
        let r = try Tool.run("timeout", ["120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                         "--hide-scrollbars", "--force-device-scale-factor=\(scale)",
                                         "--user-data-dir=\(profile.path)", "--screenshot=\(shot.path)",
                                         "--window-size=\(width),\(height)", svg.absoluteString])
        guard r.status == 0, FileManager.default.fileExists(atPath: shot.path) else {
            throw ToolFailure(description: "chromium made no screenshot (status \(r.status)): \(r.stderr.suffix(600))")
        }
        return try readPNG(shot)
    }
}

extension RasterImage {
    /// Components of pixel (x, y) as 0...255 numbers.
    package func rgba(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        let i = (y * width + x) * 4
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]), Int(pixels[i + 3]))
    }
}
