internal import CCodecs
import Dispatch
import FramedRaster

/// zlib streams (RFC 1950) for PDF's FlateDecode, made by zlib itself (`ccodecs_deflate` and
/// `ccodecs_deflate_rows`; libpng links zlib anyway).
enum Zlib {
    /// `data` compressed at zlib `level` (default 9: the PDF object stream is small and written
    /// once), or nil when zlib cannot (out of memory).
    static func compress(_ data: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var out = ccodecs_buffer()
        defer { ccodecs_free(out.data) }
        let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CCODECS_MESSAGE_SIZE)) { message in
            data.withUnsafeBufferPointer { ccodecs_deflate($0.baseAddress, $0.count, level, &out, message.baseAddress!) }
        }
        guard status == CCODECS_OK else { return nil }
        return Array(UnsafeBufferPointer(start: out.data, count: out.size))
    }

    /// The samples of a picture that a PDF image holds.
    enum Plane {
        /// R, G and B (`/DeviceRGB`).
        case rgb
        /// R alone, for a picture whose pixels all have R = G = B (`/DeviceGray`).
        case gray
        /// Alpha alone (the `/SMask`).
        case alpha

        var shim: Int32 {
            switch self {
            case .rgb: return Int32(CCODECS_PLANE_RGB)
            case .gray: return Int32(CCODECS_PLANE_GRAY)
            case .alpha: return Int32(CCODECS_PLANE_ALPHA)
            }
        }

        /// Samples a pixel (PDF's `/Colors`).
        var samples: Int { self == .rgb ? 3 : 1 }
    }

    /// Planes of `image`, each as a zlib stream of PNG-predicted rows (Paeth), what FlateDecode
    /// with `/Predictor 15` reads back: `ccodecs_deflate_rows` at zlib level 1.
    ///
    /// Cairo compresses an image's raw samples at zlib's default level, which it does not let a
    /// caller change; on photographs that is slow and barely compresses (the bench's 16-bit
    /// photo: 96 % of its raw size). Predicted rows at level 1 are several times faster and
    /// smaller. Each plane is cut into bands of rows, about a megabyte or more each, and all the
    /// bands of all the planes are compressed at once, on every core, as pigz does: each band
    /// but a plane's last ends with a sync flush, so a plane's bands join into one deflate
    /// stream, and their Adler-32 checksums combine. `bands` fixes the bands per plane (tests).
    /// Nil when zlib fails (out of memory).
    static func compress(_ image: RasterImage, planes: [Plane], level: Int32 = 1, bands: Int? = nil) -> [[UInt8]]? {
        guard image.width > 0, image.height > 0, let width = UInt32(exactly: image.width),
              UInt32(exactly: image.height) != nil else { return nil }
        let cores = Resampler.processorCount
        return image.pixels.withUnsafeBufferPointer { pixels in
            let jobs = planes.map { plane in
                let rowBytes = image.width * plane.samples + 1
                let chosen = cores == 1 ? 1 : min(4 * cores, rowBytes * image.height / (1 << 20))
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
    static func compress(_ image: RasterImage, plane: Plane, level: Int32 = 1, bands: Int? = nil) -> [UInt8]? {
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
