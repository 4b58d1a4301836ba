internal import CCodecs
internal import CFramedEngines
internal import FramedSystem
internal import Glibc

/// framed's own engines (the C target CFramedEngines): code written where a library measured too
/// slow, each of which can be turned off so that the plain library does that work instead.
///
/// Every decode, encode and resize takes its engines from its options or an `engines:`
/// argument, by default `configured`: what the `FRAMED_ENGINES` environment variable says, read
/// once. Tests that compare an engine with the library name both explicitly, whatever the
/// environment says.
package struct Engines: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Baseline JPEGs at 1/8, 1/4, 3/8 and 1/2: the entropy-coded data decoded by framed, on
    /// two cores (jpegreduced.c). Off: libjpeg decodes them.
    package static let jpegReduced = Engines(rawValue: 1 << 0)
    /// Progressive JPEGs below full size: chroma decoded on a second thread beside luma
    /// (jpegsplit.c). Off: one libjpeg decompressor reads every scan.
    package static let jpegSplit = Engines(rawValue: 1 << 1)
    /// Progressive JPEGs at 1/8: the AC scans whose coefficients that scale never uses are not
    /// read (jpegscans.c). Off: libjpeg reads every scan.
    package static let jpegScans = Engines(rawValue: 1 << 2)
    /// The JPEGs that SVG and PDF embed, encoded in parts on two threads and joined with a
    /// restart marker (jpegparts.c). Off: libjpeg encodes them whole, without restart markers
    /// (so the files differ by those markers).
    package static let jpegParts = Engines(rawValue: 1 << 3)
    /// Most PNGs' image data read by framed, inflated on a second thread while the calling one
    /// unfilters (pngdata.c). Off: libpng's rows.
    package static let pngData = Engines(rawValue: 1 << 4)
    /// Flat pictures' filtered rows deflated by framed's own writer (fastdeflate.c). Off: zlib's
    /// level 1 (a smaller stream, so the files differ).
    package static let fastDeflate = Engines(rawValue: 1 << 5)
    /// The resampler's loops built for AVX2 (avx2rows.c), on processors that have it. Off: the
    /// loops built for any x86-64, with the same bits.
    package static let avx2Rows = Engines(rawValue: 1 << 6)

    /// Every engine: the default.
    package static let all: Engines = [.jpegReduced, .jpegSplit, .jpegScans, .jpegParts, .pngData, .fastDeflate,
                                       .avx2Rows]

    /// For tests and fuzzing, which use small files: with `jpegReduced`, its entropy decoding
    /// on two threads splits the data however small, and always takes the second thread's part.
    /// Not an engine of its own, not in `all`, and never read from the environment.
    package static let jpegReducedAlwaysSplit = Engines(rawValue: 1 << 16)

    /// The engines by the names `FRAMED_ENGINES` takes: each one's C file.
    package static let names: [(name: String, engine: Engines)] = [
        ("jpegreduced", .jpegReduced), ("jpegsplit", .jpegSplit), ("jpegscans", .jpegScans),
        ("jpegparts", .jpegParts), ("pngdata", .pngData), ("fastdeflate", .fastDeflate), ("avx2rows", .avx2Rows),
    ]

    /// The engines `FRAMED_ENGINES` turns on, read once, at the first use: every engine when
    /// it is unset or empty. A word it does not know is reported on standard error, once.
    package static let configured: Engines = {
        guard let value = getenv("FRAMED_ENGINES") else { return .all }
        let (engines, unknown) = parse(String(cString: value))
        if !unknown.isEmpty {
            let known = names.map(\.name).joined(separator: ", ")
            // Quoted as every value is: cut at 80 characters.
            let words = unknown.joined(separator: ", ")
            let shown = words.count <= 80 ? words : String(words.prefix(79)) + "…"
            try? FileDescriptor.standardError.write("framed: FRAMED_ENGINES: \(shown) "
                                                    + "unknown (engines: \(known); or on, off), left out\n")
        }
        return engines
    }()

    /// Reads a value of `FRAMED_ENGINES`: words separated by commas (or spaces), applied in
    /// order. `on` (or `all`) turns every engine on, `off` (or `none`) every one off; `-name`
    /// turns one off and `+name` one on. A bare `name` first means only the engines named (as
    /// `off,+name`), elsewhere it is `+name`. Empty: every engine. So `off` is the plain
    /// libraries alone, `-pngdata,-jpegreduced` every engine but two, `pngdata` that one alone.
    /// Returns the engines and the words not understood (left out).
    package static func parse(_ text: String) -> (engines: Engines, unknown: [String]) {
        var engines = Engines.all, unknown: [String] = []
        let words = text.split { $0 == "," || $0 == " " }.map { $0.lowercased() }
        for (index, word) in words.enumerated() {
            switch word {
            case "on", "all": engines = .all
            case "off", "none": engines = []
            default:
                let sign = word.first == "-" || word.first == "+" ? word.first : nil
                let name = sign == nil ? Substring(word) : word.dropFirst()
                guard let engine = names.first(where: { $0.name == name })?.engine else {
                    unknown.append(word)
                    continue
                }
                if sign == "-" {
                    engines.remove(engine)
                } else {
                    if sign == nil && index == 0 { engines = [] }
                    engines.insert(engine)
                }
            }
        }
        return (engines, unknown)
    }

    /// The names of the engines in the set, as `FRAMED_ENGINES` takes them ("off" for none).
    package var description: String {
        let on = Self.names.filter { contains($0.engine) }.map(\.name)
        return on.isEmpty ? "off" : on.joined(separator: ",")
    }
}

// MARK: - The C tables the wrappers take

extension Engines {
    /// The JPEG reader's engines (`ccodecs_jpeg_open`).
    var jpegDecoding: ccodecs_jpeg_engines {
        ccodecs_jpeg_engines(scans: contains(.jpegScans) ? framed_engine_jpegscans() : nil,
                             split: contains(.jpegSplit) ? framed_engine_jpegsplit() : nil,
                             reduced: contains(.jpegReduced) ? framed_engine_jpegreduced() : nil,
                             reduced_always_split: contains(.jpegReducedAlwaysSplit) ? 1 : 0)
    }

    /// The PNG reader's engine (`ccodecs_png_open`), nil for libpng's rows.
    var pngDataEngine: OpaquePointer? { contains(.pngData) ? framed_engine_pngdata() : nil }

    /// The deflate writer for flat rows (`ccodecs_deflate_rows`), nil for zlib.
    var deflateWriter: OpaquePointer? { contains(.fastDeflate) ? framed_engine_fastdeflate() : nil }

    /// The resampler's loops: the AVX2 build where it is on and the processor has AVX2, else
    /// the portable one.
    var sampleLoops: UnsafePointer<ccodecs_sample_loops> {
        (contains(.avx2Rows) ? framed_engine_avx2rows() : nil) ?? ccodecs_sample_loops_portable()
    }
}
