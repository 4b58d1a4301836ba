internal import Glibc
import Dispatch
import FramedLayout
import FramedRaster
import FramedRender
import FramedSystem

/// Benchmark helper (Benchmarks/bench.sh, Benchmarks/memory.sh).
///
/// Makes the benchmark corpus deterministically:
///
///     framed-bench jpeg WIDTH HEIGHT OUT.jpg [quality] [baseline|progressive|grayscale]
///                                                      photo-like JPEG (gradients, edges, noise)
///     framed-bench png  WIDTH HEIGHT OUT.png             photo-like RGBA PNG with alpha edges
///     framed-bench screenshot WIDTH HEIGHT OUT.png       screenshot-like RGBA PNG: a window with
///                                                      rounded transparent corners, a soft alpha
///                                                      shadow, text, flat panels, a chart, a photo
///     framed-bench wallpaper WIDTH HEIGHT OUT.ppm        desktop-wallpaper-like RGB: a diagonal
///                                                      gradient under large soft colour blobs,
///                                                      with a fine grain (a --canvas-image)
///
/// An OUT ending in .ppm (binary RGB, alpha dropped) or .pam (RGB_ALPHA) writes the pixels as
/// Netpbm instead, so that the benchmark can encode its corpus with tools that do not change
/// when framed's own encoders are tuned (cjpeg, ImageMagick).
///
/// and times single stages in-process, with the same FramedRaster code that `framed` runs
/// (each prints one line of `key=value` pairs; times are medians in seconds, after one
/// untimed warm-up run):
///
///     framed-bench decode IN [SCALE] [RUNS] [THREADS]  read + decode (at SCALE for JPEG: 2 for 1/2, or 3/8),
///                                                        on THREADS threads at most (default: all cores)
///     framed-bench encode IN.png [RUNS]                  decode IN once, then time framed's PNG
///                                                      encoder (PictureEncoder.png) on its pixels
///     framed-bench stages IN NEED_W NEED_H [RUNS]        decode at the shrink-on-load scale framed
///                                                      picks for NEED (smallest of 1/8, 1/4, 3/8,
///                                                      1/2 that keeps >= NEED pixels), then
///                                                      resample (Lanczos-3,
///                                                      framed's default) to exactly NEED
///
/// `decode IN SCALE 0` decodes once, untimed, and prints nothing: a whole process that
/// only reads and decodes, for timing from outside (the benchmark's floor for PNG inputs).

// MARK: - Corpus pictures

/// Photo-like pixels: smooth gradients, hard-edged shapes and seeded noise, so that codecs and
/// resamplers work as hard as on a real photo (flat colours would flatter them).
func photo(width: Int, height: Int, alpha: Bool) -> RasterImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var seed: UInt32 = 12345
    pixels.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            let fy = Double(y) / Double(height)
            for x in 0..<width {
                let fx = Double(x) / Double(width)
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Double(Int(seed >> 27)) - 16
                var r = 255 * fx, g = 255 * fy, b = 128 + 100 * sin(fx * 37 + fy * 23)
                if (x / 97 + y / 61) % 5 == 0 { r = 255 - r; b = 40 }         // hard edges
                let ring = sin((Double((x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2))) / 9000)
                g += 40 * ring
                let i = (y * width + x) * 4
                p[i] = UInt8(clamping: Int(r + noise)); p[i + 1] = UInt8(clamping: Int(g + noise))
                p[i + 2] = UInt8(clamping: Int(b + noise))
                p[i + 3] = alpha && (x < width / 20 || y < height / 20) ? UInt8(x % 256) : 255
            }
        }
    }
    return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: alpha)
}

/// Wallpaper-like pixels, as desktop backgrounds are: a diagonal gradient under four large soft
/// blobs of colour (Gaussian falloff), with a fine seeded grain of a few levels so that the JPEG
/// is not all flat: a 4K one is about 1 MB at quality 90, as wallpapers are.
func wallpaper(width: Int, height: Int) -> RasterImage {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    let blobs: [(x: Double, y: Double, radius: Double, rgb: (Double, Double, Double))] = [
        (0.2, 0.3, 0.35, (240, 120, 80)), (0.75, 0.25, 0.4, (80, 120, 230)),
        (0.5, 0.85, 0.45, (120, 220, 180)), (0.9, 0.8, 0.3, (250, 210, 90)),
    ]
    let aspect = Double(width) / Double(height)
    var seed: UInt32 = 12345
    pixels.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            let fy = Double(y) / Double(height)
            for x in 0..<width {
                let fx = Double(x) / Double(width)
                var r = 40 + 60 * fx, g = 50 + 40 * fy, b = 90 + 50 * (1 - fx)
                for blob in blobs {
                    let dx = (fx - blob.x) * aspect, dy = fy - blob.y
                    let w = 0.8 * exp(-2 * (dx * dx + dy * dy) / (blob.radius * blob.radius))
                    r += (blob.rgb.0 - r) * w; g += (blob.rgb.1 - g) * w; b += (blob.rgb.2 - b) * w
                }
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let grain = Double(Int(seed >> 29)) - 3.5
                let i = (y * width + x) * 4
                p[i] = UInt8(clamping: Int(r + grain)); p[i + 1] = UInt8(clamping: Int(g + grain))
                p[i + 2] = UInt8(clamping: Int(b + grain))
            }
        }
    }
    return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: false)
}

/// A deterministic 64-bit mix (splitmix64's finaliser) for pseudo-random but repeatable detail.
func mix(_ values: Int...) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15
    for v in values {
        h ^= UInt64(bitPattern: Int64(v)) &+ 0x9E37_79B9_7F4A_7C15 &+ (h << 6) &+ (h >> 2)
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
    }
    return h
}

/// Screenshot-like pixels: a window (title bar with three buttons, a sidebar with a selected
/// row, lines of anti-aliased "text", a bar chart on a grid, a photo) with rounded corners that
/// are transparent outside, sitting in a soft translucent black shadow that fades to fully
/// transparent at the picture's edges, as a macOS window capture does. Mostly flat colours, so
/// it compresses like a real screenshot, with enough detail that decoding is real work.
func screenshot(width: Int, height: Int) -> RasterImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    let margin = max(2, width / 60)                                      // shadow margin
    let wx0 = margin, wy0 = margin, wx1 = width - margin, wy1 = height - margin
    let ww = wx1 - wx0, wh = wy1 - wy0
    let radius = Double(max(2, width / 150))
    let titleH = max(4, wh * 45 / 1000)
    let sideW = ww / 5
    let line = max(6, wh * 28 / 1000)                                    // text line pitch
    let glyphW = max(3, line * 45 / 100), glyphH = max(4, line * 55 / 100)
    let photoX0 = wx0 + sideW + (ww - sideW) * 55 / 100, photoY0 = wy0 + wh * 55 / 100
    let chartX0 = wx0 + sideW + (ww - sideW) * 4 / 100, chartY0 = photoY0
    let chartX1 = photoX0 - (ww - sideW) * 4 / 100, chartY1 = wy1 - wh * 5 / 100
    let photoX1 = wx1 - (ww - sideW) * 4 / 100, photoY1 = chartY1

    /// Distance outside the rounded window rectangle (negative inside).
    func outside(_ x: Int, _ y: Int) -> Double {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let cx = min(max(px, Double(wx0) + radius), Double(wx1) - radius)
        let cy = min(max(py, Double(wy0) + radius), Double(wy1) - radius)
        let dx = px - cx, dy = py - cy
        let d = (dx * dx + dy * dy).squareRoot() - radius
        let inner = min(px - Double(wx0), Double(wx1) - px, py - Double(wy0), Double(wy1) - py)
        return d > 0 || inner < radius ? d : -inner
    }

    /// Ink coverage (0...1) of "text" at (x, y) for a text line starting at (x0, top) that is
    /// `glyphs` cells long; line `seed` picks the words and letter shapes.
    func text(_ x: Int, _ y: Int, x0: Int, top: Int, glyphs: Int, seed: Int) -> Double {
        let u = x - x0, v = y - top - (line - glyphH) / 2
        guard u >= 0, v >= 0, v < glyphH, u < glyphs * glyphW else { return 0 }
        let cell = u / glyphW
        let letter = mix(seed, cell)
        if letter % 6 == 0 { return 0 }                                  // a space between words
        let gx = (u % glyphW) * 5 / glyphW, gy = v * 7 / glyphH           // 5x7 letter grid
        if (u % glyphW) >= glyphW - max(1, glyphW / 5) { return 0 }       // letter spacing
        let bits = mix(Int(truncatingIfNeeded: letter), gx, gy)
        if bits % 100 < 42 { return bits % 3 == 0 ? 0.45 : 1 }             // ink, some half-covered
        return bits % 100 < 48 ? 0.2 : 0                                  // anti-aliasing fringe
    }

    pixels.withUnsafeMutableBufferPointer { p in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let d = outside(x, y)
                if d >= 1 {                                               // the window's shadow
                    let fall = max(0, 1 - d / Double(margin))
                    p[i + 3] = UInt8(clamping: Int(110 * fall * fall + 0.5))
                    continue
                }
                let coverage = d <= 0 ? 1 : 1 - d                         // anti-aliased corner
                var r = 255.0, g = 255.0, b = 255.0
                let lx = x - wx0, ly = y - wy0
                if ly < titleH {                                          // title bar
                    let t = Double(ly) / Double(titleH)
                    r = 236 - 24 * t; g = r; b = r + 2
                    let colours: [(Double, Double, Double)] = [(255, 95, 87), (254, 188, 46), (40, 200, 64)]
                    for (k, c) in colours.enumerated() {
                        let cx = Double(titleH) * (0.6 + 0.75 * Double(k)), cy = Double(titleH) / 2
                        let dist = ((Double(lx) + 0.5 - cx) * (Double(lx) + 0.5 - cx)
                                    + (Double(ly) + 0.5 - cy) * (Double(ly) + 0.5 - cy)).squareRoot()
                        let a = min(max(Double(titleH) * 0.26 - dist + 0.5, 0), 1)
                        r += (c.0 - r) * a; g += (c.1 - g) * a; b += (c.2 - b) * a
                    }
                    let ink = text(lx, ly, x0: ww / 2 - 8 * glyphW, top: (titleH - line) / 2, glyphs: 16, seed: 7)
                    r -= 180 * ink; g -= 180 * ink; b -= 180 * ink
                } else if lx < sideW {                                    // sidebar
                    r = 240; g = 240; b = 244
                    let row = (ly - titleH) / line
                    var ink = 0.0, inkColour = 40.0
                    if row == 3 { r = 47; g = 111; b = 224; inkColour = 255 }
                    if row % 9 != 8 {
                        ink = text(lx, ly, x0: glyphW * 2, top: titleH + row * line,
                                   glyphs: 6 + Int(mix(row, 1) % 12), seed: 1000 + row)
                    }
                    r += (inkColour - r) * ink; g += (inkColour - g) * ink; b += (inkColour - b) * ink
                    if lx == sideW - 1 { r = 210; g = 210; b = 214 }
                } else if x >= photoX0 && x < photoX1 && y >= photoY0 && y < photoY1 {   // a photo
                    let fx = Double(x - photoX0) / Double(photoX1 - photoX0)
                    let fy = Double(y - photoY0) / Double(photoY1 - photoY0)
                    let noise = Double(Int(mix(x, y) % 29)) - 14
                    r = 90 + 140 * fy + noise
                    g = 150 + 60 * sin(fx * 9 + fy * 4) + noise
                    b = 230 - 150 * fy + 25 * sin(fx * 31) + noise
                    if fy > 0.62 + 0.08 * sin(fx * 13) { r = 60 + noise; g = 110 + 30 * fx + noise; b = 50 + noise }
                } else if x >= chartX0 && x < chartX1 && y >= chartY0 && y < chartY1 {   // a chart
                    let cw = chartX1 - chartX0, ch = chartY1 - chartY0
                    let u = x - chartX0, v = y - chartY0
                    if u % (cw / 10) == 0 || v % (ch / 8) == 0 { r = 225; g = 225; b = 230 }
                    let bar = u * 12 / cw, within = (u * 12) % cw
                    let top = Double(ch) * (0.15 + 0.7 * Double(mix(bar, 99) % 1000) / 1000)
                    if within > cw / 5 && Double(v) >= top {
                        let t = (Double(v) - top) / (Double(ch) - top + 1)
                        r = 52 + 60 * t; g = 120 + 70 * t; b = 220 - 20 * t
                    }
                } else {                                                  // paragraphs
                    let top = titleH + line
                    let row = (ly - top) / line
                    if ly >= top && row % 7 != 6 && y < chartY0 - line {
                        let glyphs = row % 7 == 5 ? 10 + Int(mix(row, 5) % 40) : (ww - sideW) / glyphW - 8
                        let ink = text(lx, ly, x0: sideW + 3 * glyphW, top: top + row * line,
                                       glyphs: glyphs, seed: 5000 + row)
                        r -= 215 * ink; g -= 215 * ink; b -= 205 * ink
                    }
                }
                p[i] = UInt8(clamping: Int(r.rounded())); p[i + 1] = UInt8(clamping: Int(g.rounded()))
                p[i + 2] = UInt8(clamping: Int(b.rounded()))
                p[i + 3] = UInt8(clamping: Int((255 * coverage).rounded()))
            }
        }
    }
    return RasterImage(width: width, height: height, pixels: pixels, hasAlpha: true)
}

/// Netpbm bytes: P6 (RGB, alpha dropped) or, with `alpha`, P7 RGB_ALPHA.
func netpbm(_ image: RasterImage, alpha: Bool) -> [UInt8] {
    let header = alpha
        ? "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        : "P6\n\(image.width) \(image.height)\n255\n"
    if alpha { return Array(header.utf8) + image.pixels }
    var bytes = Array(header.utf8)
    bytes.reserveCapacity(bytes.count + image.width * image.height * 3)
    image.pixels.withUnsafeBufferPointer { p in
        for i in stride(from: 0, to: p.count, by: 4) { bytes.append(p[i]); bytes.append(p[i + 1]); bytes.append(p[i + 2]) }
    }
    return bytes
}

// MARK: - In-process stage timing

func fail(_ message: String) -> Never {
    try? FileDescriptor.standardError.write("framed-bench: \(message)\n")
    exit(2)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Median of `runs` timed calls after one untimed warm-up call.
func timed(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    for _ in 0..<max(1, runs) { times.append(try seconds(body)) }
    return median(times)
}

func format(_ value: Double) -> String { String(printf: "%.6f", value) }

// MARK: - Command line

let arguments = Array(CommandLine.arguments.dropFirst())
func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
func integer(_ index: Int, default value: Int) -> Int {
    guard let text = argument(index) else { return value }
    guard let number = Int(text) else { fail("not a number: \(text)") }
    return number
}

do {
    switch argument(0) {
    case "jpeg", "png", "screenshot", "wallpaper":
        guard arguments.count >= 4, let width = Int(arguments[1]), let height = Int(arguments[2]),
              width > 0, height > 0 else {
            fail("usage: framed-bench jpeg|png|screenshot|wallpaper WIDTH HEIGHT OUT [quality] [baseline|progressive|grayscale]")
        }
        let bytes: [UInt8]
        let out = arguments[3].lowercased()
        switch arguments[0] {
        case _ where out.hasSuffix(".ppm") || out.hasSuffix(".pam"):
            let image = arguments[0] == "screenshot" ? screenshot(width: width, height: height)
                : arguments[0] == "wallpaper" ? wallpaper(width: width, height: height)
                : photo(width: width, height: height, alpha: arguments[0] == "png")
            bytes = netpbm(image, alpha: out.hasSuffix(".pam"))
        case "wallpaper": fail("framed-bench wallpaper writes .ppm (encode it with cjpeg)")
        case "jpeg":
            let mode = argument(5) ?? "baseline"
            guard ["baseline", "progressive", "grayscale"].contains(mode) else { fail("unknown JPEG mode \(mode)") }
            bytes = try PictureEncoder.jpeg(photo(width: width, height: height, alpha: false),
                                            quality: integer(4, default: 90),
                                            grayscale: mode == "grayscale", progressive: mode == "progressive")
        case "png": bytes = try PictureEncoder.png(photo(width: width, height: height, alpha: true))
        default: bytes = try PictureEncoder.png(screenshot(width: width, height: height))
        }
        do {
            let file = try FileDescriptor.create(arguments[3])
            try file.write(bytes)
            try file.close()
        } catch {
            fail("\(arguments[3]): \(error)")
        }

    case "decode":
        guard let path = argument(1) else { fail("usage: framed-bench decode IN [SCALE] [RUNS] [THREADS]") }
        // SCALE: a denominator (1, 2, 4, 8) or N/D (3/8).
        let scale = (argument(2) ?? "1").split(separator: "/").map { Int($0) }
        guard scale.count <= 2, let first = scale.first ?? nil, let last = scale.last ?? nil else {
            fail("framed-bench decode: SCALE is a denominator (2) or a fraction (3/8), not \(argument(2) ?? "")")
        }
        var options = DecodeOptions(scaleDenominator: last)
        if scale.count == 2 { options.scaleNumerator = first }
        if argument(4) != nil { options.threads = integer(4, default: 1) }
        let runs = integer(3, default: 5)
        if runs == 0 {
            _ = try Pictures.decode(contentsOf: path, options: options)
            break
        }
        var size = (0, 0)
        let time = try timed(runs: runs) {
            let image = try Pictures.decode(contentsOf: path, options: options).image
            size = (image.width, image.height)
        }
        print("decode_s=\(format(time)) decoded=\(size.0)x\(size.1)")

    case "encode":
        guard let path = argument(1) else { fail("usage: framed-bench encode IN.png [RUNS]") }
        let image = try Pictures.decode(contentsOf: path).image
        var size = 0
        let time = try timed(runs: integer(2, default: 9)) { size = try PictureEncoder.png(image).count }
        print("encode_s=\(format(time)) pixels=\(image.width)x\(image.height) bytes=\(size)")

    case "stages":
        guard let path = argument(1), arguments.count >= 4 else {
            fail("usage: framed-bench stages IN NEED_W NEED_H [RUNS]")
        }
        let needWidth = integer(2, default: 0), needHeight = integer(3, default: 0), runs = integer(4, default: 5)
        let info = try Pictures.info(contentsOf: path)
        let oriented = info.orientedSize
        // framed's own choice (PNG has no shrink-on-load: 1).
        let scale = info.format == .png ? (numerator: 1, denominator: 1) :
            DecodeOptions.shrinkOnLoadScale(source: oriented, need: (needWidth, needHeight))
        var decoded = RasterImage(width: 0, height: 0, pixels: [])
        let decode = try timed(runs: runs) {
            var options = DecodeOptions(scaleDenominator: scale.denominator)
            options.scaleNumerator = scale.numerator
            decoded = try Pictures.decode(.file(path), options: options).image
        }
        let resample = timed(runs: runs) {
            _ = Resampler.resize(decoded, width: needWidth, height: needHeight, filter: .best)
        }
        print("scale=\(scale.numerator)/\(scale.denominator) decoded=\(decoded.width)x\(decoded.height) decode_s=\(format(decode)) resample_s=\(format(resample))")

    default:
        fail("usage: framed-bench jpeg|png|screenshot|decode|encode|stages ... (see Sources/FramedBench/main.swift)")
    }
} catch {
    fail("\(error)")
}
