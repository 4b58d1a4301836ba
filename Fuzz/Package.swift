// swift-tools-version: 6.0
// libFuzzer targets for framed (issue 7). Built and run by Fuzz/run.sh, which passes the
// sanitizer and coverage flags; see Fuzz/README.md. Depends on the main package by path.
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let main = root.lastPathComponent

func fuzzer(_ name: String) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"])
}

let package = Package(
    name: "framed-fuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        // LLVMFuzzerRunDriver from libFuzzer's no-main library (run.sh links it).
        .target(name: "CLibFuzzer"),
        // The targets' shared code: the driver loop, limits, the decoder and pipeline bodies.
        .target(name: "FuzzSupport", dependencies: [
            "CLibFuzzer",
            .product(name: "FramedRender", package: main),
            .product(name: "FramedLayout", package: main),
        ]),
        fuzzer("fuzz-jpeg"),
        fuzzer("fuzz-png"),
        fuzzer("fuzz-webp"),
        fuzzer("fuzz-exif"),
        fuzzer("fuzz-icc"),
        fuzzer("fuzz-parsers"),
        fuzzer("fuzz-frame"),
        // The command line's own code (the executable target's sources but main.swift, through a
        // symbolic link), for the config-file reader, which lives there.
        .target(name: "FramedCLI", dependencies: [
            .product(name: "FramedRender", package: main),
            .product(name: "FramedLayout", package: main),
            .product(name: "FramedSystem", package: main),
        ], exclude: ["main.swift"], swiftSettings: [.unsafeFlags(["-enable-testing"])]),
        .executableTarget(name: "fuzz-config", dependencies: ["FuzzSupport", "FramedCLI"]),
        // Writes the seed corpora (Fuzz/make-seeds.sh) with the project's own encoders.
        .executableTarget(name: "fuzz-seeds", dependencies: [.product(name: "FramedRender", package: main),
                                                         .product(name: "FramedTestSupport", package: main)]),
    ],
    swiftLanguageModes: [.v6]
)
