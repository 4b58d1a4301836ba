#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLibFuzzer

/// The test that `fuzzMain` hands to libFuzzer; set once, before the driver starts.
nonisolated(unsafe) private var currentTest: (([UInt8]) -> Void)?

/// Runs libFuzzer (`LLVMFuzzerRunDriver`) with the process's arguments, calling `test` with
/// every input; exits with libFuzzer's status (non-zero after a crash, leak, timeout or
/// out-of-memory). A crash is anything that traps: a failed precondition in `test` included.
package func fuzzMain(_ test: @escaping ([UInt8]) -> Void) -> Never {
    currentTest = test
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentTest!(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
    exit(status)
}

/// Limits the targets run under: small enough that every input stays well inside libFuzzer's
/// `-malloc_limit_mb=200` (and the process inside `-rss_limit_mb=512`), large enough for the
/// limit checks themselves to be exercised (a header may claim anything).
package enum FuzzLimits {
    /// Pictures over this many pixels are refused from their header (16 MB as RGBA8); PNG
    /// canvases over it are refused before any surface exists.
    package static let maxPixels = 4_000_000
}

/// Choices that an input makes for itself (scale, orientation, intent...): a hash of its bytes,
/// so that the same input always takes the same path, and mutations explore the others.
package struct Knobs {
    package let bits: UInt64

    package init(_ data: [UInt8]) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        bits = hash
    }

    /// Bit `index` of the hash.
    package func flag(_ index: Int) -> Bool { bits >> UInt64(index) & 1 == 1 }

    /// One of `choices`, from the bits starting at `index`.
    package func pick<T>(_ choices: [T], at index: Int) -> T {
        choices[Int(bits >> UInt64(index) % UInt64(choices.count))]
    }
}

/// A failed check: the message on standard error, then a trap that libFuzzer reports as a
/// crash (unlike `precondition`, whose message release builds drop).
package func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
