#!/usr/bin/env bash
# Runs the suites whose code starts threads in-process under ThreadSanitizer, in its own build
# folder: the PNG reader's inflating thread, the JPEG chroma decoder's, the resize that follows
# a decode (on a WorkerThread), the deflate and resample bands, a JPEG encoded in parts, and
# librsvg loading an SVG on a thread of its own with a deadline (SVGLibraryTests), TIFF bands
# decoded on a second thread as the resize follows (TIFFTests), and libheif's decoders (HEIFTests).
#
# Not the batch workers (BatchTests, through a framed binary built with the same sanitizer):
# they share a Synchronization.Mutex that two threads contend for, and ThreadSanitizer does not
# see that Mutex's contended path (its futex waits), so it reports races that are not there.
# Twelve lines reproduce it: two threads adding to a Mutex-held count 200,000 times each, with
# the right sum. (The resize that follows a decode used such a Mutex for its rows; it takes
# them with an atomic compare-and-swap now, which ThreadSanitizer sees.)
#
#   Tests/tsan.sh [extra swift test arguments]
#
# Fails (non-zero) on a failed test and on any ThreadSanitizer report (a data race or a Swift
# access race). Environment: TSAN_BUILD (scratch path, default .build/tsan), SWIFT (default
# swift). Exits 0 with a notice when the toolchain has no ThreadSanitizer runtime (check: a small
# program built with -sanitize=thread).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
BUILD=${TSAN_BUILD:-$ROOT/.build/tsan}
SUITES='WorkerThreadTests|SVGLibraryTests|TIFFTests|HEIFTests|JPEGPartsTests|PNGDataTests|ResizeWhileDecodingTests|FileInputTests|ProgressiveScanTests|ReducedScaleTests|JPEGCodingTests|ThreadsTests'
. "$ROOT/Tests/Sanitizers/run.sh"

require_sanitizer thread tsan.sh ThreadSanitizer

export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
export SWIFT_BACKTRACE=enable=no
run_checked tsan.sh "$BUILD.log" 'WARNING: ThreadSanitizer' 'WARNING: ThreadSanitizer|✘ Test .* (failed|recorded)' 3 \
    "the threaded suites passed under ThreadSanitizer" \
    "$SWIFT" test --scratch-path "$BUILD" --sanitize=thread --filter "$SUITES" "$@"
