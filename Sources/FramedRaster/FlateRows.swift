internal import CCodecs
internal import FramedSystem

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

    /// One plane of `image` as a zlib stream of PNG-filtered rows (Paeth on every row) at zlib
    /// level 1 (see above), through `ccodecs_deflate_rows`, after `leading` bytes (a PNG's chunks up to its
    /// IDAT), in an array with room for `trailing` more bytes.
    ///
    /// The plane is cut into bands of rows, half a megabyte or more each (at most 16), compressed at
    /// once on every core, as pigz does: each band but the last ends with a sync flush, so the
    /// bands join into one deflate stream, and their Adler-32 checksums combine. The bands
    /// depend on the size alone, so the bytes do not depend on the machine; `bands` fixes them
    /// (tests). The bands are compressed one after another with `threads` 1. Each band writes
    /// into its own part of the one output array, sized for the
    /// worst case (pages that are never written take no memory), and the parts are then moved
    /// together: no band is copied out and joined. Nil when zlib fails (out of memory) or the
    /// picture is empty. Flat bands (mostly zeros once filtered) are deflated by framed's own
    /// writer where `engines` has `fastDeflate`, else by zlib's level 1.
    package static func compress(_ image: RasterImage, plane: Plane, bands: Int? = nil,
                                 threads: Int? = nil, leading: [UInt8] = [], trailing: Int = 0,
                                 engines: Engines = .configured) -> [UInt8]? {
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return nil }
            return compress(RGBARows(base: base, width: image.width, height: image.height), plane: plane, bands: bands,
                            threads: threads, leading: leading, trailing: trailing, engines: engines)
        }
    }

    /// `compress(_:plane:bands:threads:leading:trailing:engines:)` for pixels that are not in a
    /// `RasterImage` (a PNG output's own drawing surface, read where it lies).
    package static func compress(_ image: RGBARows, plane: Plane, bands: Int? = nil,
                                 threads: Int? = nil, leading: [UInt8] = [], trailing: Int = 0,
                                 engines: Engines = .configured) -> [UInt8]? {
        guard image.width > 0, image.height > 0, let width = UInt32(exactly: image.width),
              UInt32(exactly: image.height) != nil else { return nil }
        let rowBytes = image.width * plane.samples + 1
        let count = max(1, min(bands ?? min(16, rowBytes * image.height / (1 << 19)), image.height))
        let rows = (0..<count).map { image.height * $0 / count ..< image.height * ($0 + 1) / count }
        let bounds = rows.map { ccodecs_deflate_rows_bound(width, UInt32($0.count), plane.shim) }
        let header = leading.count + 2
        var starts = [header]
        for bound in bounds { starts.append(starts[starts.count - 1] + bound) }
        let capacity = starts[count] + 4 + trailing
        var failed = false
        guard Memory.available(capacity) else { return nil }
        let stream = [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
            written = 0
            let base = out.baseAddress!
            leading.withUnsafeBufferPointer { if let l = $0.baseAddress { base.update(from: l, count: $0.count) } }
            base[leading.count] = 0x78
            base[leading.count + 1] = 0x01  // deflate, 32 KB window, the fastest level's hint
            let job = BandJob(rgba: image.base, width: width, rows: rows, rowBytes: rowBytes, plane: plane.shim,
                              writer: engines.deflateWriter, output: base, starts: starts, bounds: bounds)
            WorkerThread.concurrentPerform(iterations: count, threads: threads ?? Resampler.processorCount, job.run)
            guard let adler = job.join() else { failed = true; return }
            var end = job.end
            for shift: UInt32 in [24, 16, 8, 0] {
                base[end] = UInt8(truncatingIfNeeded: adler >> shift)
                end += 1
            }
            written = end
        }
        return failed ? nil : stream
    }

    /// Compresses bands of a plane's rows into their parts of one output buffer; each band is
    /// written by one thread, into its own part and its own slots (hence `@unchecked Sendable`),
    /// and the pixels and the buffer outlive the job. The slots are raw memory, not Swift arrays: threads
    /// storing into different elements of one array property would each make a modifying
    /// access to the whole array, a race (ThreadSanitizer reported it).
    private final class BandJob: @unchecked Sendable {
        let rgba: UnsafePointer<UInt8>, width: UInt32, rows: [Range<Int>], rowBytes: Int, plane: Int32
        /// The deflate engine's table (`ccodecs_deflate_rows`), nil for zlib; immutable C data.
        let writer: OpaquePointer?
        let output: UnsafeMutablePointer<UInt8>, starts: [Int], bounds: [Int]
        /// Each band's compressed size, -1 until it succeeds; and its Adler-32.
        private let written: UnsafeMutableBufferPointer<Int>, adlers: UnsafeMutableBufferPointer<UInt32>
        private(set) var end = 0

        init(rgba: UnsafePointer<UInt8>, width: UInt32, rows: [Range<Int>], rowBytes: Int, plane: Int32, writer: OpaquePointer?,
             output: UnsafeMutablePointer<UInt8>, starts: [Int], bounds: [Int]) {
            self.rgba = rgba; self.width = width; self.rows = rows; self.rowBytes = rowBytes
            self.plane = plane; self.writer = writer
            self.output = output; self.starts = starts; self.bounds = bounds
            written = .allocate(capacity: rows.count)
            written.initialize(repeating: -1)
            adlers = .allocate(capacity: rows.count)
            adlers.initialize(repeating: 1)
        }

        deinit {
            written.deallocate()
            adlers.deallocate()
        }

        /// `ccodecs_deflate_rows` for one band; a failed band leaves its slot empty.
        func run(band: Int) {
            let rows = rows[band]
            var size = 0, adler: UInt32 = 1
            let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CCODECS_MESSAGE_SIZE)) { message in
                ccodecs_deflate_rows(rgba, width, UInt32(rows.lowerBound), UInt32(rows.count), plane, 1,
                                     band == self.rows.count - 1 ? 1 : 0, writer, output + starts[band], bounds[band],
                                     &size, &adler, message.baseAddress!)
            }
            guard status == CCODECS_OK else { return }
            written[band] = size
            adlers[band] = adler
        }

        /// Moves the bands' bytes together after the first and returns the Adler-32 of all the
        /// filtered rows; `end` is then just past the last band. Nil if a band failed.
        func join() -> UInt32? {
            var adler = UInt32(1)
            end = starts[0]
            for band in rows.indices {
                let size = written[band]
                guard size >= 0 else { return nil }
                // The parts may overlap once moved: copyMemory is memmove.
                if end != starts[band] { UnsafeMutableRawPointer(output + end).copyMemory(from: output + starts[band], byteCount: size) }
                end += size
                adler = band == 0 ? adlers[0]
                    : ccodecs_adler32_combine(adler, adlers[band], UInt64(rows[band].count * rowBytes))
            }
            return adler
        }
    }
}
