internal import CCodecs
internal import FramedSystem
internal import Glibc
import Synchronization

/// TIFF through libtiff, from memory or from a file where libtiff seeks (never read whole):
/// `ccodecs_tiff_info` reads the first directory, `ccodecs_tiff_open` and `ccodecs_reader_read`
/// decode the first page strip by strip or tile by tile straight into the picture (1, 2, 4, 8 and
/// 16-bit gray, palette, RGB, RGBA with associated or unassociated alpha, CMYK for colour
/// management, planar or not, every compression Debian's libtiff reads; other kinds through
/// libtiff's RGBA interface). The Orientation tag turns it upright as EXIF does for the other
/// formats; the resolution tags give its resolution; the ICC profile tag converts it to sRGB.
/// A file of several pages gives its first and a warning naming how many were left out. When
/// `DecodeOptions.neededWidth`/`neededHeight` say how many pixels are needed, a
/// reduced-resolution version of the page (a pyramid level) that has them all is read instead.
package struct TIFFDecoder: PictureDecoder {
    package static let format = PictureFormat.tiff
    package init() {}

    package func info(_ input: borrowing PictureInput) throws(RasterError) -> PictureInfo {
        try shimInfo(.tiff, input) { ccodecs_tiff_info($0, $1, $2) }
    }

    package func decode(_ input: borrowing PictureInput, options: DecodeOptions) throws(RasterError) -> DecodedPicture {
        let limit = max(0, options.maxPixels)
        let needWidth = UInt32(clamping: max(0, options.neededWidth))
        let needHeight = UInt32(clamping: max(0, options.neededHeight))
        return try shimDecode(.tiff, input, limit: limit, options: options, resized: { reader, out, resize throws(RasterError) in
            try Self.resizeByRows(reader, out, resize, options: options)
        }) {
            ccodecs_tiff_open($0, needWidth, needHeight, limit, $1, $2, $3)
        }
    }

    /// The picture resized while its rows are decoded, a band (a strip, a row of tiles) at a
    /// time (`ccodecs_tiff_band`), on a second thread while the calling one resamples the rows
    /// already decoded (`TIFFBands`): it is never held whole, only a few bands and a ring of
    /// filtered rows, so that a 20-megapixel TIFF framed small takes a few megabytes beyond the
    /// small picture. nil (read as usual) when the rows are to be turned by the Orientation tag
    /// or colour-converted (a profile, CMYK), which work on the whole picture.
    static func resizeByRows(_ reader: OpaquePointer?, _ out: UnsafeMutablePointer<ccodecs_decoded>,
                             _ resize: ResizeRequest, options: DecodeOptions) throws(RasterError)
        -> (RasterImage, (converted: Bool, warning: String?))? {
        let header = out.pointee, (width, height) = (Int(header.width), Int(header.height))
        guard !ColorManagement.needsConversion(header), !options.autoOrient || storedOrientation(header) == .up else {
            return nil
        }
        let bandRows = Int(ccodecs_tiff_band_rows(reader))
        let bands = TIFFBands.slots, bandBytes = bandRows.multipliedReportingOverflow(by: width * 4)
        guard bandRows > 0, !bandBytes.overflow else { return nil }
        guard Memory.available(resize.width * resize.height * 4 + bands * bandBytes.partialValue) else { throw .outOfMemory }
        guard let pipeline = TIFFBands(reader: reader, width: width, height: height, bandRows: bandRows) else {
            throw .outOfMemory
        }
        let hasAlpha = header.has_alpha != 0
        let follower = options.threadCount > 1 ? try? WorkerThread { pipeline.produce() } : nil
        let resized = Resampler.resize(rows: { y in pipeline.row(y, decodingHere: follower == nil) },
                                       sourceWidth: width, sourceHeight: height, hasAlpha: hasAlpha,
                                       width: resize.width, height: resize.height, filter: resize.filter,
                                       engines: options.engines)
        pipeline.stop()
        follower?.join()
        guard let resized else { throw .corrupt(.tiff, pipeline.failure ?? "cannot decode the TIFF's data") }
        let dpi = header.dpi_x > 0 ? header.dpi_x : nil
        let resolution = Resampler.scaledResolution(dpi, from: (width, height), to: (resize.width, resize.height))
        return (RasterImage(width: resize.width, height: resize.height, pixels: resized, hasAlpha: hasAlpha,
                            resolution: resolution), (false, nil))
    }
}

/// The bands of a TIFF being decoded on one thread (`produce`) while another takes their rows in
/// order (`row`): `slots` band buffers in a ring; the producer decodes band b into slot b % slots
/// once the consumer has moved past band b - slots, the consumer waits for the band that holds
/// the row it wants. The reader is touched by the producer alone (or, without a second thread,
/// by the consumer alone). Counters are atomic; what they guard is written before the release
/// and read after the acquire that see them change.
final class TIFFBands: @unchecked Sendable {
    static let slots = 3
    private let reader: OpaquePointer?
    private let width: Int, height: Int, bandRows: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    /// Each slot's first row and row count (raw memory: the two threads use different slots at
    /// once, which a Swift array's exclusive access checks would take for a conflict).
    private let firsts = UnsafeMutablePointer<Int>.allocate(capacity: TIFFBands.slots)
    private let counts = UnsafeMutablePointer<Int>.allocate(capacity: TIFFBands.slots)
    /// Bands decoded so far; the consumer's current band; set when the consumer is done.
    private let produced = Atomic<Int>(0), consumed = Atomic<Int>(0), stopped = Atomic<Bool>(false)
    /// Set (before `failed`) when decoding a band failed: the codec's message.
    private(set) var failure: String?
    private let failed = Atomic<Bool>(false)

    init?(reader: OpaquePointer?, width: Int, height: Int, bandRows: Int) {
        self.reader = reader; self.width = width; self.height = height; self.bandRows = bandRows
        guard let memory = ccodecs_huge_alloc(Self.slots * bandRows * width * 4) else { return nil }
        buffer = memory.bindMemory(to: UInt8.self, capacity: Self.slots * bandRows * width * 4)
        firsts.initialize(repeating: 0, count: Self.slots)
        counts.initialize(repeating: 0, count: Self.slots)
    }

    deinit {
        ccodecs_huge_free(buffer, Self.slots * bandRows * width * 4)
        firsts.deallocate()
        counts.deallocate()
    }

    /// Decodes band `band` into its slot; false when decoding failed (`failure` set) or no band is left.
    private func decode(_ band: Int) -> Bool {
        var first: UInt32 = 0, count: UInt32 = 0
        var message = [CChar](repeating: 0, count: Int(CCODECS_MESSAGE_SIZE))
        let slot = band % Self.slots
        let status = ccodecs_tiff_band(reader, buffer + slot * bandRows * width * 4, &first, &count, &message)
        guard status == CCODECS_OK, count > 0 else {
            failure = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            failed.store(true, ordering: .releasing)
            return false
        }
        firsts[slot] = Int(first)
        counts[slot] = Int(count)
        produced.store(band + 1, ordering: .releasing)
        return Int(first) + Int(count) < height
    }

    /// The producer's loop: every band, each once a slot is free, until the last or a failure
    /// (or until the consumer stops).
    func produce() {
        var band = 0
        while true {
            var tries = 0
            while band - consumed.load(ordering: .acquiring) >= Self.slots {
                if stopped.load(ordering: .acquiring) { return }
                tries += 1
                if tries < 16 { sched_yield() } else { usleep(50) }
            }
            guard decode(band) else { return }
            band += 1
        }
    }

    /// Row `y` (asked for in increasing order): waits for the band that holds it (or decodes it
    /// here, `decodingHere`); nil when decoding failed.
    func row(_ y: Int, decodingHere: Bool) -> UnsafePointer<UInt8>? {
        var band = consumed.load(ordering: .relaxed)
        while true {
            if produced.load(ordering: .acquiring) <= band {
                if decodingHere {
                    if !decode(band) && failed.load(ordering: .acquiring) { return nil }
                } else {
                    var tries = 0
                    while produced.load(ordering: .acquiring) <= band {
                        if failed.load(ordering: .acquiring) { return nil }
                        tries += 1
                        if tries < 16 { sched_yield() } else { usleep(50) }
                    }
                }
            }
            let slot = band % Self.slots
            if y < firsts[slot] + counts[slot] {
                return UnsafePointer(buffer + slot * bandRows * width * 4 + (y - firsts[slot]) * width * 4)
            }
            band += 1
            consumed.store(band, ordering: .releasing)
        }
    }

    /// The consumer is done: a producer waiting for a free slot ends.
    func stop() { stopped.store(true, ordering: .releasing) }
}
