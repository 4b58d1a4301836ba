internal import CCodecs
import Dispatch

/// A picture's rows, PNG-filtered and deflated: the IDAT data of framed's PNGs
/// (`PictureEncoder.png`) and the FlateDecode `/Predictor 15` streams of its PDF pictures.
///
/// Paeth on every row and zlib level 1: measured on a framed photo and a framed screenshot,
/// level 1 is 3.7 times faster than zlib's default for files 12 % larger, and Paeth alone
/// compresses within 0.5 % of choosing among all five filters for each row, in half the time.
package enum FlateRows {
    /// The samples of each pixel that go into the rows.
    package enum Plane: Sendable {
        /// R, G, B and A (a PNG of colour type 6).
        case rgba
        /// R, G and B (a PNG of colour type 2; PDF `/DeviceRGB`).
        case rgb
        /// R alone, for a picture whose pixels all have R = G = B (PDF `/DeviceGray`).
        case gray
        /// Alpha alone (a PDF `/SMask`).
        case alpha

        var shim: Int32 {
            switch self {
            case .rgba: return Int32(CCODECS_PLANE_RGBA)
            case .rgb: return Int32(CCODECS_PLANE_RGB)
            case .gray: return Int32(CCODECS_PLANE_GRAY)
            case .alpha: return Int32(CCODECS_PLANE_ALPHA)
            }
        }

        /// Samples a pixel (PDF's `/Colors`).
        package var samples: Int {
            switch self {
            case .rgba: return 4
            case .rgb: return 3
            case .gray, .alpha: return 1
            }
        }
    }

    /// Planes of `image`, each as a zlib stream of PNG-filtered rows (Paeth on every row) at
    /// zlib level 1, through `ccodecs_deflate_rows`.
    ///
    /// Each plane is cut into bands of rows, a megabyte or more each (at most 16), and all the
    /// bands of all the planes are compressed at once, on every core, as pigz does: each band
    /// but a plane's last ends with a sync flush, so a plane's bands join into one deflate
    /// stream, and their Adler-32 checksums combine. The bands depend on the size alone, so
    /// the bytes do not depend on the machine. `bands` fixes the bands per plane (tests).
    /// Nil when zlib fails (out of memory) or the picture is empty.
    package static func compress(_ image: RasterImage, planes: [Plane], level: Int32 = 1, bands: Int? = nil) -> [[UInt8]]? {
        guard image.width > 0, image.height > 0, let width = UInt32(exactly: image.width),
              UInt32(exactly: image.height) != nil else { return nil }
        return image.pixels.withUnsafeBufferPointer { pixels in
            let jobs = planes.map { plane in
                let rowBytes = image.width * plane.samples + 1
                let chosen = min(16, rowBytes * image.height / (1 << 20))
                return PlaneJob(rgba: pixels.baseAddress!, width: width, height: image.height,
                                bands: max(1, min(bands ?? chosen, image.height)),
                                rowBytes: rowBytes, plane: plane.shim, level: level)
            }
            let work = jobs.flatMap { job in (0..<job.bands).map { (job, $0) } }
            if work.count == 1 {
                work[0].0.run(band: 0)
            } else {
                DispatchQueue.concurrentPerform(iterations: work.count) { work[$0].0.run(band: work[$0].1) }
            }
            var streams: [[UInt8]] = []
            for job in jobs {
                guard let stream = job.zlibStream() else { return nil }
                streams.append(stream)
            }
            return streams
        }
    }

    /// `compress(_:planes:level:bands:)` for one plane.
    package static func compress(_ image: RasterImage, plane: Plane, level: Int32 = 1, bands: Int? = nil) -> [UInt8]? {
        compress(image, planes: [plane], level: level, bands: bands)?.first
    }

    /// Compresses bands of a plane's rows; each band is written by one thread into its own slot
    /// (hence `@unchecked Sendable`), and the pixels outlive the job.
    private final class PlaneJob: @unchecked Sendable {
        let rgba: UnsafePointer<UInt8>, width: UInt32, height: Int, bands: Int, rowBytes: Int
        let plane: Int32, level: Int32
        private var data: [[UInt8]?], adlers: [UInt32]

        init(rgba: UnsafePointer<UInt8>, width: UInt32, height: Int, bands: Int, rowBytes: Int, plane: Int32, level: Int32) {
            self.rgba = rgba; self.width = width; self.height = height; self.bands = bands
            self.rowBytes = rowBytes; self.plane = plane; self.level = level
            data = Array(repeating: nil, count: bands)
            adlers = Array(repeating: 1, count: bands)
        }

        func rows(of band: Int) -> Range<Int> { height * band / bands ..< height * (band + 1) / bands }

        /// `ccodecs_deflate_rows` for one band; a failed band leaves its slot empty.
        func run(band: Int) {
            let rows = rows(of: band)
            var out = ccodecs_buffer(), adler: UInt32 = 1
            defer { ccodecs_free(out.data) }
            let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CCODECS_MESSAGE_SIZE)) { message in
                ccodecs_deflate_rows(rgba, width, UInt32(rows.lowerBound), UInt32(rows.count), plane, level,
                                     band == bands - 1 ? 1 : 0, &out, &adler, message.baseAddress!)
            }
            guard status == CCODECS_OK else { return }
            data[band] = Array(UnsafeBufferPointer(start: out.data, count: out.size))
            adlers[band] = adler
        }

        /// The zlib header (deflate, 32 KB window, the level's hint), the bands, then the
        /// Adler-32 of all the uncompressed bytes, big-endian; nil if a band failed.
        func zlibStream() -> [UInt8]? {
            var stream: [UInt8] = [0x78, level <= 1 ? 0x01 : level >= 7 ? 0xDA : 0x9C]
            var adler = UInt32(1)
            for (band, bytes) in data.enumerated() {
                guard let bytes else { return nil }
                stream += bytes
                adler = band == 0 ? adlers[0]
                    : ccodecs_adler32_combine(adler, adlers[band], UInt64(rows(of: band).count * rowBytes))
            }
            for shift: UInt32 in [24, 16, 8, 0] { stream.append(UInt8(truncatingIfNeeded: adler >> shift)) }
            return stream
        }
    }
}
