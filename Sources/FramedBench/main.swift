import Foundation
import FramedRaster

/// Benchmark helper: makes the benchmark corpus deterministically.
///
///     framed-bench jpeg WIDTH HEIGHT OUT.jpg [quality]   photo-like JPEG (gradients, edges, noise)
///     framed-bench png  WIDTH HEIGHT OUT.png             screenshot-like RGBA PNG

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

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("framed-bench: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, let width = Int(arguments[1]), let height = Int(arguments[2]) else {
    fail("usage: framed-bench jpeg|png WIDTH HEIGHT OUT [quality]")
}
do {
    let bytes: [UInt8]
    switch arguments[0] {
    case "jpeg": bytes = try PictureEncoder.jpeg(photo(width: width, height: height, alpha: false),
                                                 quality: arguments.count > 4 ? Int(arguments[4]) ?? 90 : 90)
    case "png": bytes = try PictureEncoder.png(photo(width: width, height: height, alpha: true))
    default: fail("unknown kind \(arguments[0])")
    }
    try Data(bytes).write(to: URL(fileURLWithPath: arguments[3]))
} catch {
    fail("\(error)")
}
