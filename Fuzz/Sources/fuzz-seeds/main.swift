// Writes the seed corpora of the fuzz targets, one folder per target, with the project's own
// encoders (and PNGs and EXIF built byte by byte): `fuzz-seeds OUTDIR`. Small files on purpose
// (libFuzzer mutates faster, and caps input sizes at the largest seed unless told otherwise).
import CCodecs
import Foundation
import FramedRaster
import FramedTestSupport

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: fuzz-seeds OUTDIR\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: CommandLine.arguments[1])

func write(_ target: String, _ name: String, _ bytes: [UInt8]) {
    let folder = root.appendingPathComponent(target)
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try! Data(bytes).write(to: folder.appendingPathComponent(name))
}

// MARK: Pictures

/// A smooth gradient (JPEG-friendly) with alpha from `alpha(x, y)`.
func gradient(_ width: Int, _ height: Int, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RasterImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            pixels += [UInt8(40 + 160 * x / max(width - 1, 1)), UInt8(30 + 180 * y / max(height - 1, 1)),
                       UInt8(200 - 100 * (x + y) / max(width + height - 2, 1)), alpha(x, y)]
        }
    }
    return RasterImage(width: width, height: height, pixels: pixels)
}

func check(_ status: Int32, _ message: [CChar]) {
    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    precondition(status == CCODECS_OK, text)
}

func bytes(_ buffer: ccodecs_buffer) -> [UInt8] { Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size)) }

/// A JPEG with CCODECS_JPEG_* flags (progressive, arithmetic, grayscale).
func jpeg(_ image: RasterImage, quality: Int32 = 80, flags: Int32 = 0) -> [UInt8] {
    var out = ccodecs_buffer()
    var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
    defer { ccodecs_free(out.data) }
    check(ccodecs_jpeg_encode_rgb(image.pixels, UInt32(image.width), UInt32(image.height), quality,
                                  image.resolution ?? 0, flags, 0, &out, &message), message)
    return bytes(out)
}

/// A CMYK JPEG (CCODECS_JPEG_ADOBE, CCODECS_JPEG_YCCK).
func cmykJPEG(_ width: Int, _ height: Int, flags: Int32) -> [UInt8] {
    var cmyk: [UInt8] = []
    for i in 0..<width * height {
        let c = UInt8(i * 7 % 256), m = UInt8(i * 3 % 256), y = UInt8(255 - i % 256), k = UInt8(i % 64)
        cmyk += [c, m, y, k]
    }
    var out = ccodecs_buffer()
    var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
    defer { ccodecs_free(out.data) }
    check(ccodecs_jpeg_encode_cmyk(cmyk, UInt32(width), UInt32(height), 80, flags, &out, &message), message)
    return bytes(out)
}

/// A matrix-shaper ICC profile (lcms2 through the shim); nil chromaticities: sRGB's.
func iccProfile(_ chromaticities: [Double]?, gamma: Double, gray: Bool = false) -> [UInt8] {
    var out = ccodecs_buffer()
    var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
    defer { ccodecs_free(out.data) }
    let status = chromaticities.map { ccodecs_icc_profile($0, gamma, gray ? 1 : 0, &out, &message) }
        ?? ccodecs_icc_profile(nil, gamma, gray ? 1 : 0, &out, &message)
    check(status, message)
    return bytes(out)
}

let adobeRGB: [Double] = [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06]
let adobeProfile = iccProfile(adobeRGB, gamma: 563.0 / 256)
let grayProfile = iccProfile(nil, gamma: 1.8, gray: true)

// MARK: PNG (chunks, EXIF and JPEG segments come from PictureBytes, shared with the tests)

/// A PNG of `width` x `height` with every sample a ramp, any colour type and depth, optionally
/// Adam7-interlaced (the scanlines are then written pass by pass), with extra chunks before
/// and after IDAT.
func png(_ width: Int, _ height: Int, depth: Int, colorType: UInt8, interlace: Bool = false,
         before: [[UInt8]] = [], after: [[UInt8]] = []) -> [UInt8] {
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]!
    func scanlines(_ w: Int, _ h: Int, seed: Int) -> [UInt8] {
        guard w > 0 && h > 0 else { return [] }
        let rowBytes = (w * channels * depth + 7) / 8
        var out: [UInt8] = []
        for y in 0..<h {
            out.append(0)
            for x in 0..<rowBytes { out.append(UInt8(truncatingIfNeeded: (x * 29 + y * 13 + seed) % (colorType == 3 ? 4 : 256))) }
        }
        return out
    }
    var raw: [UInt8] = []
    if interlace {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        for (i, (x0, y0, dx, dy)) in passes.enumerated() {
            raw += scanlines((width - x0 + dx - 1) / dx, (height - y0 + dy - 1) / dy, seed: i)
        }
    } else {
        raw = scanlines(width, height, seed: 0)
    }
    var extra = before
    if colorType == 3 {
        extra.insert(PictureBytes.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]), at: 0)
    }
    let header = PictureBytes.be32(UInt32(width)) + PictureBytes.be32(UInt32(height)) + [UInt8(depth), colorType, 0, 0, interlace ? 1 : 0]
    return PictureBytes.pngSignature + PictureBytes.chunk("IHDR", header) + extra.flatMap { $0 } + PictureBytes.chunk("IDAT", PictureBytes.zlibStored(raw))
        + after.flatMap { $0 } + PictureBytes.chunk("IEND", [])
}

// MARK: fuzz-jpeg

let photo = gradient(32, 24)
write("fuzz-jpeg", "baseline.jpg", jpeg(photo))
write("fuzz-jpeg", "progressive.jpg", jpeg(photo, flags: CCODECS_JPEG_PROGRESSIVE))
write("fuzz-jpeg", "arithmetic.jpg", jpeg(photo, flags: CCODECS_JPEG_ARITHMETIC))
write("fuzz-jpeg", "progressive-arithmetic.jpg", jpeg(photo, flags: CCODECS_JPEG_PROGRESSIVE | CCODECS_JPEG_ARITHMETIC))
write("fuzz-jpeg", "gray.jpg", jpeg(photo, flags: CCODECS_JPEG_GRAYSCALE))
write("fuzz-jpeg", "restarts.jpg", jpeg(photo, flags: CCODECS_JPEG_RESTARTS))
write("fuzz-jpeg", "restarts-7.jpg", jpeg(photo, flags: CCODECS_JPEG_RESTARTS_7))
write("fuzz-jpeg", "odd-size.jpg", jpeg(gradient(17, 9), quality: 50))
write("fuzz-jpeg", "one-pixel.jpg", jpeg(gradient(1, 1)))
var dense = gradient(24, 16)
dense.resolution = 300
write("fuzz-jpeg", "density.jpg", jpeg(dense))
write("fuzz-jpeg", "cmyk.jpg", cmykJPEG(16, 16, flags: 0))
write("fuzz-jpeg", "cmyk-adobe.jpg", cmykJPEG(16, 16, flags: CCODECS_JPEG_ADOBE))
write("fuzz-jpeg", "ycck.jpg", cmykJPEG(16, 16, flags: CCODECS_JPEG_YCCK))
for orientation in [3, 6, 8] as [UInt16] {
    write("fuzz-jpeg", "exif-\(orientation).jpg", PictureBytes.withEXIF(jpeg(gradient(24, 16)), PictureBytes.exif(orientation: orientation, xResolution: (144, 1), unit: 2)))
}
write("fuzz-jpeg", "icc.jpg", PictureBytes.withICC(jpeg(photo), adobeProfile))
write("fuzz-jpeg", "gray-icc.jpg", PictureBytes.withICC(jpeg(photo, flags: CCODECS_JPEG_GRAYSCALE), grayProfile))

// MARK: fuzz-png

for (type, depths) in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])] as [(UInt8, [Int])] {
    for depth in depths { write("fuzz-png", "type\(type)-\(depth).png", png(13, 7, depth: depth, colorType: type)) }
}
write("fuzz-png", "interlaced-rgba.png", png(13, 11, depth: 8, colorType: 6, interlace: true))
write("fuzz-png", "interlaced-gray1.png", png(9, 9, depth: 1, colorType: 0, interlace: true))
write("fuzz-png", "palette-trns.png", png(8, 8, depth: 2, colorType: 3, before: [PictureBytes.chunk("tRNS", [0, 128, 255])]))
write("fuzz-png", "gray-trns.png", png(8, 8, depth: 8, colorType: 0, before: [PictureBytes.chunk("tRNS", [0, 7])]))
write("fuzz-png", "iccp.png", png(8, 8, depth: 8, colorType: 2,
                                  before: [PictureBytes.chunk("iCCP", Array("seed".utf8) + [0, 0] + PictureBytes.zlibStored(adobeProfile))]))
write("fuzz-png", "gama-chrm.png", png(8, 8, depth: 8, colorType: 2,
                                       before: [PictureBytes.chunk("gAMA", PictureBytes.be32(55555)), PictureBytes.chunk("cHRM", [31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000].flatMap { PictureBytes.be32(UInt32($0)) })]))
write("fuzz-png", "srgb.png", png(8, 8, depth: 8, colorType: 2, before: [PictureBytes.chunk("sRGB", [0]), PictureBytes.chunk("gAMA", PictureBytes.be32(45455))]))
write("fuzz-png", "exif-before.png", png(12, 6, depth: 8, colorType: 2, before: [PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: 6))]))
write("fuzz-png", "exif-after.png", png(12, 6, depth: 8, colorType: 2, after: [PictureBytes.chunk("eXIf", PictureBytes.exif(orientation: 8, bigEndian: false))]))
write("fuzz-png", "phys.png", png(8, 8, depth: 8, colorType: 2, before: [PictureBytes.chunk("pHYs", PictureBytes.be32(5669) + PictureBytes.be32(5669) + [1])]))
write("fuzz-png", "text.png", png(8, 8, depth: 8, colorType: 0, before: [PictureBytes.chunk("tEXt", Array("Comment\0seed".utf8)),
                                                                        PictureBytes.chunk("zTXt", Array("Comment\0\0".utf8) + PictureBytes.zlibStored(Array("seed".utf8)))]))
write("fuzz-png", "compressed.png", try! PictureEncoder.png(gradient(24, 16, alpha: { x, _ in UInt8(x * 10) })))

// MARK: fuzz-webp

write("fuzz-webp", "lossy.webp", try! PictureEncoder.webp(photo, quality: 70))
write("fuzz-webp", "lossless.webp", try! PictureEncoder.webp(gradient(16, 12), quality: nil))
write("fuzz-webp", "lossless-alpha.webp", try! PictureEncoder.webp(gradient(16, 12, alpha: { x, y in UInt8((x + y) * 8) }), quality: nil))
write("fuzz-webp", "lossy-alpha.webp", try! PictureEncoder.webp(gradient(16, 12, alpha: { x, _ in UInt8(x * 16) }), quality: 60))
write("fuzz-webp", "metadata.webp", try! PictureEncoder.webp(gradient(16, 12), quality: 60, icc: adobeProfile,
                                                               exif: PictureBytes.exif(orientation: 6, xResolution: (72, 1), unit: 2)))

// MARK: fuzz-exif

for orientation in 1...8 {
    write("fuzz-exif", "be-\(orientation).tiff", PictureBytes.exif(orientation: UInt16(orientation)))
}
write("fuzz-exif", "le-6.tiff", PictureBytes.exif(orientation: 6, bigEndian: false))
write("fuzz-exif", "resolution-inch.tiff", PictureBytes.exif(orientation: 1, xResolution: (300, 1), unit: 2))
write("fuzz-exif", "resolution-cm.tiff", PictureBytes.exif(orientation: nil, xResolution: (118, 1), unit: 3, bigEndian: false))
write("fuzz-exif", "prefixed.exif", Array("Exif\0\0".utf8) + PictureBytes.exif(orientation: 3, xResolution: (72, 1)))

// MARK: fuzz-icc (first byte: pixel format, intent, default CMYK profile; then the profile)

write("fuzz-icc", "srgb-rgba", [0] + iccProfile(nil, gamma: 2.2))
write("fuzz-icc", "adobe-relative", [4] + adobeProfile)
write("fuzz-icc", "gray-on-gray", [3] + grayProfile)
write("fuzz-icc", "gray-on-rgba", [0] + grayProfile)
write("fuzz-icc", "rgb-on-cmyk", [1] + adobeProfile)
write("fuzz-icc", "empty-cmyk-inverted", [2 | 8])
for name in ["a98.icc", "default_gray.icc", "default_rgb.icc", "lab.icc", "gray_to_k.icc", "default_cmyk.icc"] {
    // Ghostscript's profiles (libgs-common), when installed: real-world tag types.
    if let data = FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/" + name) {
        let selector: UInt8 = name.contains("cmyk") || name.contains("to_k") ? 1 : name.contains("gray") ? 3 : 0
        write("fuzz-icc", "ghostscript-" + name, [selector] + Array(data))
    }
}

// MARK: fuzz-parsers

let texts = ["12", "12px", "3.5mm", "-2pt", "0.5in", "1e1px", "+3", "2cm", "600x400", "150mmx100mm", "6inx4in",
             "600 x 400", "10px 20px", "10px 10px 40px", "1px 2px 3px 4px", "#fff", "#6495ed80", "rgb(10, 20, 30)",
             "rgba(0,0,0,0.6)", "rgb(10% 20% 30% / 50%)", "cornflowerblue", "transparent",
             "0 0 10px rgba(0,0,0,0.6)", "0 4px 16px rgba(0,0,0,.35), -8px -6px 20px 2px #ff8c0059",
             "inset 2px 3px 10px -1px #00000099", "none", "center", "top-left", "right bottom", "1.5e-3in",
             #"italic small-caps bold condensed 14px/1.4 "DejaVu Serif", serif"#, "600 12pt sans-serif",
             "linear-gradient(135deg, #fdfbfb 0%, #ebedee 100%)", "linear-gradient(to right top, red, 30% blue 40% 60%, green)",
             "radial-gradient(circle closest-side at 20% 30%, #fff, rgba(0,0,0,.5) 80%)", "radial-gradient(ellipse 40px 2em, red, blue)",
             "16:9", "1.91 / 1", "1200x630", "A4", "letter", "100mmx150mm", "4inx6in", "auto", "2x3"]
for (i, text) in texts.enumerated() { write("fuzz-parsers", "text-\(i)", Array(text.utf8)) }

// MARK: fuzz-frame (a line of settings, then the picture)

let small = [("jpg", jpeg(gradient(40, 30))),
             ("png", try! PictureEncoder.png(gradient(30, 20, alpha: { x, _ in UInt8(x * 8) }))),
             ("webp", try! PictureEncoder.webp(gradient(24, 24), quality: 70))]
let settings = ["format=png", "format=svg", "format=pdf",
                "format=png;size=60x40;border=2;shadow=0 2px 4px red;scale=2",
                "format=svg;size=50x50;fit=cover;position=top;radius=8;padding=4px 2px",
                "format=pdf;width=64;margin=5;canvas=#eee;shadow=0 0 0 1px #ccc, 3px 4px 6px rgba(0,0,0,.4)",
                "format=png;preset=none;fit=fill;size=20x60;no-snap",
                "format=svg;embed=jpeg;flatten=white;quality=50",
                "format=pdf;dpi=72;lossless;resample=box;image-dpi=auto",
                "format=png;height=48;border=3;radius=30;fit=contain;dpi=150;intent=relative;no-auto-orient",
                "format=svg;size=80x60;caption=Figure 1 — ünï;caption-font=italic 9px serif;caption-position=below;caption-color=auto",
                "format=pdf;chrome=macos;chrome-theme=dark;chrome-title=Settings;canvas-color=linear-gradient(135deg, #fdfbfb, #9ab)",
                "format=png;aspect=16:9;background=radial-gradient(circle at 20% 30%, #fff, #000 80%);border-style=double;border=4",
                "format=svg;canvas-size=120x90;inner-border=1px #333;trim=10;annotate=rect 2,2 10x8 radius=2px",
                "format=png;annotate=label \"Hi\" 5,5 -> 20,15 font=\"9px serif\";variant=dark;chrome=windows;chrome-title=x",
                "format=pdf;page=a6;orientation=landscape;bleed=3mm;marks=crop;safe-margin=5mm;pdf-variant=pdf/x-4",
                "format=pdf;size=40mmx30mm;sheet=A6;n-up=auto;gutter=2mm;marks=crop;bleed=1mm",
                "format=png;page=4x6in;orientation=auto;safe-margin=2mm",
                "format=pdf;canvas-image=picture;canvas-blur=4px;margin=8;title=T (x) \\ ü;author=A;rendering-intent=perceptual",
                "format=svg;canvas-image=picture;canvas-blur=0;margin=4;min-ppi=1;strict"]
for (i, line) in settings.enumerated() {
    for (name, picture) in small { write("fuzz-frame", "settings\(i)-\(name)", Array((line + "\n").utf8) + picture) }
}
// MARK: fuzz-svg (documents: sizes in units, references, filters, text, a picture in a data: URL)

let svgs: [String] = [
    ##"<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20"><rect width="20" height="20" fill="red"/><rect x="20" width="20" height="20" fill="blue"/></svg>"##,
    ##"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY w "wide">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"><text x="10" y="40" font-size="30">&w; &#x263A;</text></svg>"##,
    ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="2in" height="1in"><defs><linearGradient id="g"><stop offset="0" stop-color="#fc0"/><stop offset="1" stop-color="#06c"/></linearGradient><g id="a"><circle r="5" fill="url(#g)"/></g></defs><use xlink:href="#a" x="10" y="10"/><use href="#a" x="30" y="10" transform="rotate(20)"/></svg>"##,
    ##"<svg xmlns="http://www.w3.org/2000/svg" width="72pt" height="36pt"><style>rect { fill: #3a3; stroke: black } .c { opacity: .5 }</style><filter id="f"><feGaussianBlur stdDeviation="2"/><feTurbulence baseFrequency="0.1" numOctaves="2"/></filter><rect class="c" width="50" height="20" filter="url(#f)"/><clipPath id="k"><circle cx="20" cy="20" r="10"/></clipPath><rect width="40" height="40" clip-path="url(#k)"/></svg>"##,
    ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image width="20" height="20" href="data:image/png;base64,\##(Data(try! PictureEncoder.png(gradient(4, 4))).base64EncodedString())"/><image href="file:///etc/hostname"/></svg>"##,
]
for (i, text) in svgs.enumerated() { write("fuzz-svg", "svg-\(i)", Array(text.utf8)) }


// MARK: fuzz-config (JSON objects of long options, as `--config FILE` reads them)

let configs: [String] = [##"{"preset": "classic"}"##,
               ##"{"size": "600x400", "border": "6px", "border-color": "white", "background": "#808080", "shadow": "0 0 10px rgba(0,0,0,0.6)"}"##,
               ##"{"preset": "none", "width": 320, "padding": "10px 10px 40px", "margin": 24, "canvas-color": "#e9e4d8", "fit": "contain", "position": "top-left"}"##,
               ##"{"format": "png", "scale": 2, "dpi": 300, "resample": "good", "embed": "png", "quality": 80, "lossless": true, "no-auto-orient": true, "intent": "relative", "max-pixels": 1000000, "min-ppi": 150, "strict": false}"##,
               ##"{"radius": "4mm", "image-dpi": "auto", "flatten": "white", "no-snap": true}"##,
               ##"{"height": "100mm", "shadow": "none", "inner-border": "1px black", "border-style": "double"}"##,
               ##"{"page": "a4", "orientation": "landscape", "bleed": "3mm", "title": "T", "author": "A"}"##,
               ##"{"bogus": 1}"##, ##"[1, 2]"##, ##"{"size": "1x1", "width": 3}"##,
               ##"{"preset": "docs", "caption": "Figure 1: the dialog", "caption-font": "italic 14px \"DejaVu Serif\"", "caption-position": "below", "caption-align": "start", "caption-color": "auto"}"##,
               ##"{"chrome": "macos", "chrome-theme": "dark", "chrome-title": "Settings — ünïcode", "variant": "dark", "border-style": "double", "inner-border": "1px #333"}"##,
               ##"{"background": "linear-gradient(135deg, #fdfbfb 0%, #ebedee 100%)", "canvas-color": "radial-gradient(circle, #fff, #9ab 80%)", "aspect": "16:9", "canvas-blur": "8px"}"##,
               ##"{"canvas-size": "1200x630", "trim": 12, "annotate": "rect 10,10 50x20; badge 1 5%,5%; label \"Here\" 50%,50% -> 10,10"}"##,
               ##"{"annotate": [{"kind": "arrow", "from": {"x": 10, "y": 10}, "to": {"x": "50%", "y": 20}}, {"kind": "pixelate", "rect": {"x": 0, "y": 0, "width": 24, "height": 24}}]}"##,
               ##"{"sheet": "A4", "n-up": "auto", "gutter": "4mm", "marks": "crop", "bleed": "3mm", "safe-margin": "5mm", "pdf-variant": "pdf/x-4", "proof": "proof.png", "gamut-warning": "#0f0"}"##]
for (i, text) in configs.enumerated() { write("fuzz-config", "config-\(i).json", Array(text.utf8)) }

// MARK: fuzz-tiff (uncompressed, byte by byte; make-seeds.sh adds tiffcp's compressions)

func samples(_ count: Int, below limit: Int) -> [UInt16] { (0..<count).map { UInt16($0 * 37 % limit) } }
var tiffPages: [(String, TIFFPage)] = [
    ("rgb", TIFFPage(rgba: gradient(16, 12).pixels, width: 16, height: 12, alpha: false)),
    ("rgba-unassociated", TIFFPage(rgba: gradient(16, 12, alpha: { x, _ in UInt8(x * 16) }).pixels, width: 16, height: 12, alpha: true)),
    ("gray1", TIFFPage(width: 19, height: 5, bitsPerSample: 1, samplesPerPixel: 1, photometric: 1, samples: samples(95, below: 2))),
    ("gray16-white", TIFFPage(width: 9, height: 7, bitsPerSample: 16, samplesPerPixel: 1, photometric: 0, samples: samples(63, below: 65536))),
    ("rgb16", TIFFPage(width: 8, height: 6, bitsPerSample: 16, samplesPerPixel: 3, photometric: 2, samples: samples(144, below: 65536))),
    ("cmyk", TIFFPage(width: 8, height: 8, samplesPerPixel: 4, photometric: 5, samples: samples(256, below: 256))),
]
var palette = TIFFPage(width: 10, height: 4, bitsPerSample: 4, samplesPerPixel: 1, photometric: 3, samples: samples(40, below: 16))
palette.colorMap = (0..<48).map { UInt16($0 * 1361 % 65536) }
tiffPages.append(("palette4", palette))
var associated = TIFFPage(width: 8, height: 8, samplesPerPixel: 2, photometric: 1, samples: samples(128, below: 256))
associated.extraSamples = [1]
tiffPages.append(("gray-associated", associated))
var tiled = TIFFPage(rgba: gradient(20, 18).pixels, width: 20, height: 18, alpha: false)
tiled.tile = (16, 16)
tiled.orientation = 6
tiled.resolution = (300, 2)
tiffPages.append(("tiled-oriented", tiled))
var planar = TIFFPage(rgba: gradient(12, 6).pixels, width: 12, height: 6, alpha: false)
planar.planar = 2
planar.icc = adobeProfile
tiffPages.append(("planar-icc", planar))
for (name, page) in tiffPages { write("fuzz-tiff", name + ".tif", PictureBytes.tiff([page])) }
var reduced = TIFFPage(rgba: gradient(8, 6).pixels, width: 8, height: 6, alpha: false)
reduced.subfileType = 1
write("fuzz-tiff", "pyramid-be.tif", PictureBytes.tiff([tiffPages[0].1, reduced, tiffPages[2].1], bigEndian: true))

// MARK: fuzz-gif (uncompressed LZW; make-seeds.sh adds gifsicle's compressed ones)

let gifPalette: [(UInt8, UInt8, UInt8)] = (0..<16).map { (i: Int) in (UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 5)) }
let gifIndices: [UInt8] = (0..<13 * 9).map { (n: Int) in UInt8(n * 7 % 16) }
write("fuzz-gif", "plain.gif", PictureBytes.gif(width: 13, height: 9, palette: gifPalette, frames: [gifIndices]))
write("fuzz-gif", "transparent-interlaced.gif", PictureBytes.gif(width: 13, height: 9, palette: gifPalette, frames: [gifIndices],
                                                                transparent: 3, interlaced: true))
write("fuzz-gif", "animated.gif", PictureBytes.gif(width: 13, height: 9, palette: gifPalette,
                                                   frames: [gifIndices, gifIndices.reversed()], transparent: 0))

// MARK: fuzz-annotations (the inline form and the JSON form, in the 96x64 picture's pixels)

let annotationTexts: [String] = [
    "rect 10,8 40x20 radius=4px; arrow 80,50 -> 50,30; badge 1 20,40",
    "ellipse 50%,50% 30%x20%; line 0,0 -> 96,64 width=3px color=#0a7; highlight 10,10 30x6",
    ##"label "Save here" 60,12 -> 40,40 font="bold 14px sans-serif"; badge 12 90,60 halo=none"##,
    "arrow 10,60 -> 90,10 via=90,60; spotlight 20,20 30x20 radius=6px; magnify 5,5 10x10 -> 70,40 zoom=2",
    "redact 0,0 20x10 color=white; pixelate 30,30 40x24 block=12; blur 60,0 36x20 sigma=3",
    ##"label 'It\'s' 48,32; badge 2 100%,100%; rect 0%,0% 100%x100%"##,
    ##"[{"kind": "badge", "number": 1, "at": {"x": 30, "y": 20}}, {"kind": "arrow", "from": {"x": 80, "y": 50}, "to": {"x": 40, "y": 20}}]"##,
    ##"[{"kind": "label", "text": "Save", "at": {"x": "50%", "y": 12}, "to": {"x": 10, "y": 50}, "color": "#c00", "font": "12px serif"}]"##,
    ##"[{"kind": "pixelate", "rect": {"x": 10, "y": 30, "width": 40, "height": 24}, "block": 12}, {"kind": "magnify", "rect": {"x": 0, "y": 0, "width": 8, "height": 8}, "at": {"x": 60, "y": 30}, "zoom": 3}]"##,
    ##"[{"kind": "rect", "rect": {"x": 1e2, "y": -0, "width": 1e-3, "height": 5}, "width": "2px", "halo": "none"}]"##,
]
for (i, text) in annotationTexts.enumerated() { write("fuzz-annotations", "annotations-\(i)", Array(text.utf8)) }

print("seeds written to \(root.path)")
