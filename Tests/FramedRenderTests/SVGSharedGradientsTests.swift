import FramedTestSupport
import Foundation
import FramedLayout
import FramedRaster
@testable import FramedRender
import Testing

/// A shadow's SVG writes each gradient's stops once (`SVGSharedGradients`), and its corners'
/// radial gradients in steps that LibreOffice draws smoothly (`VectorShadow.ringStep`).
struct SVGSharedGradientsTests {
    /// The SVG of a 300x200px frame, radius 16, with the issue's shadow `0 6px 12px 4px
    /// rgba(0,0,0,.6)` on a transparent canvas.
    static func shadowSVG() throws -> String {
        var style = FrameStyle(size: LengthSize(width: .px(300), height: .px(200)), border: .px(3), borderColor: .white,
                               background: .white)
        style.fit = .fill
        style.radius = .px(16)
        style.shadows = try BoxShadow.parseList("0 6px 12px 4px rgba(0,0,0,.6)")
        let picture = RasterImage(width: 30, height: 20, pixels: [UInt8](repeating: 128, count: 30 * 20 * 4), hasAlpha: false)
        let layout = try FrameLayout(picture: PictureMetrics(pixelWidth: 30, pixelHeight: 20), style: style)
        return String(decoding: try FrameRenderer.render(picture, layout: layout, style: style, options: RenderOptions(format: .svg)),
                      as: UTF8.self)
    }

    /// Each gradient element: its id, its start tag, its stops (nil for one that references).
    static func gradients(_ svg: String) -> [(id: String, tag: String, stops: String?)] {
        var found: [(String, String, String?)] = []
        var rest = svg[...]
        while let open = rest.range(of: "Gradient id=\"") {
            let tagStart = svg[..<open.lowerBound].lastIndex(of: "<")!
            let idEnd = rest[open.upperBound...].firstIndex(of: "\"")!
            let id = String(rest[open.upperBound..<idEnd])
            let tagEnd = rest[idEnd...].firstIndex(of: ">")!
            let tag = String(svg[tagStart...tagEnd])
            if tag.hasSuffix("/>") {
                found.append((id, tag, nil))
                rest = rest[rest.index(after: tagEnd)...]
            } else {
                let kind = tag.hasPrefix("<linear") ? "linearGradient" : "radialGradient"
                let close = rest[tagEnd...].range(of: "</\(kind)>")!
                found.append((id, tag, String(rest[rest.index(after: tagEnd)..<close.lowerBound])))
                rest = rest[close.upperBound...]
            }
        }
        return found
    }

    /// The SVG with every reference written out again: the referenced gradient's stops copied in.
    static func expanded(_ svg: String) -> String {
        let all = gradients(svg)
        var out = svg
        for g in all where g.stops == nil {
            let target = String(g.tag.split(separator: "xlink:href=\"#")[1].prefix { $0 != "\"" })
            let stops = all.first { $0.id == target }!.stops!
            let kind = g.tag.hasPrefix("<linear") ? "linearGradient" : "radialGradient"
            let opened = g.tag.replacingOccurrences(of: " xlink:href=\"#\(target)\"/>", with: ">")
            out = out.replacingOccurrences(of: g.tag, with: opened + stops + "</\(kind)>")
        }
        return out
    }

    @Test func aShadowWritesEachStopListOnceAndDrawsTheSame() throws {
        let svg = try Self.shadowSVG()
        let all = Self.gradients(svg)
        let written = all.compactMap(\.stops)
        #expect(Set(written).count == written.count, "no stop list is written twice")
        let radials = all.filter { $0.tag.hasPrefix("<radial") }
        #expect(radials.count == 4 && radials.filter { $0.stops != nil }.count == 1, "the four corners share one list: \(radials.map(\.tag))")
        for g in all where g.stops == nil {
            let target = String(g.tag.split(separator: "xlink:href=\"#")[1].prefix { $0 != "\"" })
            let index = all.firstIndex { $0.id == target }
            #expect(index != nil && all[index!].stops != nil && index! < all.firstIndex { $0.id == g.id }!,
                    "\(g.id) takes its stops from an earlier gradient with stops")
        }
        // Drawn by librsvg with the references written out again: the same pixels.
        let folder = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var images: [RasterImage] = []
        for (name, text) in [("shared", svg), ("expanded", Self.expanded(svg))] {
            let file = folder.appendingPathComponent("\(name).svg"), png = folder.appendingPathComponent("\(name).png")
            try Data(text.utf8).write(to: file)
            let r = try Tool.run("rsvg-convert", ["-o", png.path, file.path])
            #expect(r.status == 0, "rsvg-convert: \(r.stderr)")
            images.append(try Support.readPNG(png))
        }
        #expect(Self.expanded(svg) != svg, "there were references to write out")
        #expect(images[0].width == images[1].width && images[0].pixels == images[1].pixels, "the same drawing")
    }

    /// Between two stops of a corner's radial gradient the shadow's alpha moves by at most 0.03
    /// (LibreOffice draws each stretch in a few flat rings).
    @Test func cornerGradientsChangeLittleBetweenStops() throws {
        let svg = try Self.shadowSVG()
        let radial = try #require(Self.gradients(svg).first { $0.tag.hasPrefix("<radial") && $0.stops != nil }?.stops)
        let opacities = radial.components(separatedBy: "stop-opacity:").dropFirst().map { Double($0.prefix { $0 != ";" })! }
        #expect(opacities.count > 6, "\(opacities)")
        for (a, b) in zip(opacities, opacities.dropFirst()) {
            #expect(abs(a - b) * 0.6 <= 0.03 + 1e-6, "a step of \(abs(a - b)) in the mask's alpha")
        }
    }

    /// Only stops are shared: a gradient whose attributes differ by name (here a spread method it
    /// would otherwise inherit) keeps its own; nothing changes without the xlink namespace.
    @Test func onlyStopsAreShared() throws {
        let stops = "\n<stop offset=\"0\" style=\"stop-color:#ffffff;stop-opacity:0;\"/>\n<stop offset=\"1\" style=\"stop-color:#ffffff;stop-opacity:1;\"/>\n"
        func document(_ xlink: Bool, _ second: String) -> String {
            "<svg xmlns=\"http://www.w3.org/2000/svg\"\(xlink ? " xmlns:xlink=\"http://www.w3.org/1999/xlink\"" : "")><defs>"
                + "<linearGradient id=\"linear0\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"0\" x2=\"10\" y2=\"0\" >\(stops)</linearGradient>\n"
                + "<linearGradient id=\"linear1\" \(second) >\(stops)</linearGradient>\n</defs></svg>"
        }
        let same = "gradientUnits=\"userSpaceOnUse\" x1=\"5\" y1=\"0\" x2=\"20\" y2=\"0\""
        let shared = String(decoding: try #require(SVGSharedGradients.rewrite(Array(document(true, same).utf8))), as: UTF8.self)
        #expect(shared.contains("<linearGradient id=\"linear1\" \(same) xlink:href=\"#linear0\"/>"), "\(shared)")
        #expect(shared.components(separatedBy: "<stop").count - 1 == 2)
        for other in [same + " spreadMethod=\"reflect\"", "gradientUnits=\"userSpaceOnUse\" x1=\"5\" y1=\"0\" x2=\"20\""] {
            let text = document(true, other)
            #expect(SVGSharedGradients.rewrite(Array(text.utf8)) == Array(text.utf8), "\(other)")
        }
        let plain = document(false, same)
        #expect(SVGSharedGradients.rewrite(Array(plain.utf8)) == Array(plain.utf8), "no xlink namespace")
    }
}
