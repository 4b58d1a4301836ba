// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "framed",
    products: [
        .executable(name: "framed", targets: ["framed"]),
        .executable(name: "framed-bench", targets: ["framed-bench"]),
        .library(name: "FramedLayout", targets: ["FramedLayout"]),
        .library(name: "FramedRender", targets: ["FramedRender"]),
        .library(name: "FramedSystem", targets: ["FramedSystem"]),
        // Fixture builders and tool running for the tests, and for the fuzzers' seeds (Fuzz/).
        .library(name: "FramedTestSupport", targets: ["FramedTestSupport"]),
    ],
    targets: [
        // C libraries and shims.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .target(name: "CCodecs",
                linkerSettings: ["jpeg", "png", "webp", "webpdemux", "webpmux", "exif", "lcms2", "z"].map { .linkedLibrary($0) }),

        // The C library for the Swift modules: printf numbers, whole reads and writes. No Foundation:
        // linking it would load ICU (some 45 shared libraries) at every start.
        .target(name: "FramedSystem"),
        // Pure geometry and style: no Cairo, no C, no I/O.
        .target(name: "FramedLayout", linkerSettings: [.linkedLibrary("m")]),
        // Decoding pictures into value types.
        .target(name: "FramedRaster", dependencies: ["CCodecs", "FramedSystem"]),
        // Drawing with Cairo: shadow, frame, picture; SVG, PDF and PNG backends.
        .target(name: "FramedRender", dependencies: ["FramedLayout", "FramedRaster", "FramedSystem", "CCairo", "CCodecs"]),
        // The command-line tool.
        .executableTarget(name: "framed", dependencies: ["FramedLayout", "FramedRaster", "FramedRender", "FramedSystem"]),
        // Makes the benchmark corpus (Benchmarks/).
        .executableTarget(name: "framed-bench", dependencies: ["FramedLayout", "FramedRaster", "FramedRender", "FramedSystem"],
                         path: "Sources/FramedBench"),

        // Running tools, making folders and building picture bytes, for the tests and the fuzz
        // seeds only (it uses Foundation; framed does not link it).
        .target(name: "FramedTestSupport", path: "Tests/FramedTestSupport"),
        .testTarget(name: "FramedLayoutTests", dependencies: ["FramedLayout"]),
        .testTarget(name: "FramedSystemTests", dependencies: ["FramedSystem"]),
        .testTarget(name: "FramedRasterTests", dependencies: ["FramedRaster", "CCodecs", "FramedTestSupport"]),
        .testTarget(name: "FramedRenderTests", dependencies: ["FramedRender", "FramedLayout", "FramedRaster", "FramedTestSupport"]),
        .testTarget(name: "FramedCLITests", dependencies: ["framed", "FramedRaster", "FramedTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
