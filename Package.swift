// swift-tools-version: 6.0
import PackageDescription

/// Two products: the `Framed` library (one import for Swift programs) and the `framed` tool.
/// Every other target is the package's own: the layers the library is built from, the command
/// line's code, tests, the benchmark helper and (with FRAMED_FUZZ=1) the fuzz targets.
var targets: [Target] = [
    // C libraries and shims.
    .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                   providers: [.apt(["libcairo2-dev"])]),
    // Thin, setjmp-safe wrappers over libjpeg-turbo, libpng, libwebp, libexif, lcms2, zlib and
    // giflib, and over libheif and libtiff (read, and written for photo labs), which are opened
    // with dlopen when the first HEIF or TIFF comes (Sources/CCodecs/include/ccodecs_libraries.h).
    .target(name: "CCodecs",
            linkerSettings: ["jpeg", "png", "webp", "webpdemux", "webpmux", "exif", "lcms2", "z", "gif", "dl"]
                .map { .linkedLibrary($0) }),
    // framed's own engines, where a library measured too slow; CCodecs takes them through hook
    // tables and works without them (FRAMED_ENGINES=off).
    .target(name: "CFramedEngines", dependencies: ["CCodecs"],
            linkerSettings: ["jpeg", "png", "z"].map { .linkedLibrary($0) }),
    // librsvg, opened with dlopen when the first SVG picture comes (Sources/CRsvg/include/crsvg.h:
    // linking it would load 27 more libraries into every run).
    .target(name: "CRsvg", dependencies: ["CMessages"], linkerSettings: [.linkedLibrary("dl")]),
    // Pango (text shaping: captions, window titles), opened with dlopen when the first text comes
    // (Sources/CText/include/ctext.h), for the same reason.
    .target(name: "CText", dependencies: ["CMessages"], linkerSettings: [.linkedLibrary("dl")]),
    // What those libraries write on their own (GLib's log, the C library's stderr stream), kept
    // off framed's one-line messages (Sources/CMessages/include/cmessages.h).
    .target(name: "CMessages", linkerSettings: [.linkedLibrary("dl")]),

    // The C library for the Swift modules: printf numbers, whole reads and writes. No Foundation:
    // linking it would load ICU (some 45 shared libraries) at every start.
    .target(name: "FramedSystem"),
    // Pure geometry and style: no Cairo, no C, no I/O.
    .target(name: "FramedLayout", linkerSettings: [.linkedLibrary("m")]),
    // Decoding pictures into value types.
    .target(name: "FramedRaster", dependencies: ["CCodecs", "CFramedEngines", "CMessages", "FramedSystem"]),
    // Drawing with Cairo: shadow, frame, picture (an SVG picture through librsvg); SVG, PDF and PNG
    // backends.
    .target(name: "FramedRender", dependencies: ["FramedLayout", "FramedRaster", "FramedSystem", "CCairo", "CCodecs",
                                                 "CMessages", "CRsvg", "CText"]),
    // The library: the one import for Swift programs.
    .target(name: "Framed", dependencies: ["FramedLayout", "FramedRaster", "FramedRender", "FramedSystem"]),
    // The command line's code: arguments, help, config files, batches, progress.
    .target(name: "FramedCLI", dependencies: ["Framed", "FramedSystem"]),
    // The `framed` executable: main.swift alone.
    .executableTarget(name: "FramedMain", dependencies: ["FramedCLI"]),
    // Makes the benchmark corpus and times stages (Benchmarks/).
    .executableTarget(name: "framed-bench", dependencies: ["FramedLayout", "FramedRaster", "FramedRender", "FramedSystem"],
                      path: "Sources/FramedBench"),

    // Running tools, making folders and building picture bytes, for the tests and the fuzz
    // seeds only (it uses Foundation; framed does not link it).
    .target(name: "FramedTestSupport", dependencies: ["FramedRaster", "FramedSystem", "CCodecs"], path: "Tests/FramedTestSupport"),
    .testTarget(name: "FramedLayoutTests", dependencies: ["FramedLayout"]),
    .testTarget(name: "FramedSystemTests", dependencies: ["FramedSystem"]),
    .testTarget(name: "FramedRasterTests", dependencies: ["FramedRaster", "CCodecs", "CFramedEngines", "FramedTestSupport"]),
    .testTarget(name: "FramedRenderTests", dependencies: ["FramedRender", "FramedLayout", "FramedRaster", "FramedTestSupport"]),
    // The library as its users call it: settings, configurations, framing files and bytes, errors.
    .testTarget(name: "FramedTests", dependencies: ["Framed", "FramedTestSupport"]),
    .testTarget(name: "FramedCLITests", dependencies: ["FramedCLI", "FramedMain", "Framed", "FramedRender", "FramedTestSupport"]),
]

// libFuzzer targets (Fuzz/run.sh sets FRAMED_FUZZ=1 and passes the sanitizer and coverage flags;
// see Fuzz/README.md). Declared only then: their driver needs libFuzzer's library to link.
if Context.environment["FRAMED_FUZZ"] == "1" {
    func fuzzer(_ name: String) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzSupport", "FramedRaster", "FramedCLI"], path: "Fuzz/Sources/\(name)")
    }
    targets += [
        // LLVMFuzzerRunDriver from libFuzzer's no-main library (run.sh links it).
        .target(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
        // The targets' shared code: the driver loop, limits, the decoder and pipeline bodies.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", "Framed", "FramedCLI", "FramedRender", "FramedRaster",
                                                    "FramedLayout", "CCodecs", "CFramedEngines", "FramedTestSupport"],
                path: "Fuzz/Sources/FuzzSupport"),
        fuzzer("fuzz-jpeg"), fuzzer("fuzz-png"), fuzzer("fuzz-webp"), fuzzer("fuzz-exif"), fuzzer("fuzz-icc"),
        fuzzer("fuzz-parsers"), fuzzer("fuzz-frame"), fuzzer("fuzz-config"),
        fuzzer("fuzz-tiff"), fuzzer("fuzz-gif"), fuzzer("fuzz-heif"), fuzzer("fuzz-svg"), fuzzer("fuzz-annotations"),
        // Writes the seed corpora (Fuzz/make-seeds.sh) with the project's own encoders.
        .executableTarget(name: "fuzz-seeds", dependencies: ["FramedRender", "FramedRaster", "FramedTestSupport"],
                          path: "Fuzz/Sources/fuzz-seeds"),
    ]
}

let package = Package(
    name: "framed",
    products: [
        .library(name: "Framed", targets: ["Framed"]),
        .executable(name: "framed", targets: ["FramedMain"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
