#!/usr/bin/env bash
# Runs the suites whose code starts threads in-process under ThreadSanitizer, in its own build
# folder: the PNG reader's inflating thread, the JPEG chroma decoder's, the resize that follows
# a decode, and the deflate and resample bands.
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
SUITES='PNGDataTests|ResizeWhileDecodingTests|FileInputTests|ProgressiveScanTests|JPEGCodingTests|ThreadsTests'

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'print("ok")' >"$probe/probe.swift"
if ! (cd "$probe" && swiftc -sanitize=thread probe.swift -o probe >/dev/null 2>&1 && ./probe >/dev/null 2>&1); then
    echo "tsan.sh: this Swift toolchain cannot build with -sanitize=thread; skipping the ThreadSanitizer run"
    exit 0
fi

export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
export SWIFT_BACKTRACE=enable=no
log="$BUILD.log"
mkdir -p "$(dirname "$log")"
start=$(date +%s)
"$SWIFT" test --scratch-path "$BUILD" --sanitize=thread --filter "$SUITES" "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    echo "tsan.sh: FAILED after ${elapsed}s (exit $status, $reports ThreadSanitizer report(s); log: $log)" >&2
    grep -E -A3 'WARNING: ThreadSanitizer|✘ Test .* (failed|recorded)' "$log" | head -20 >&2
    exit 1
fi
echo "tsan.sh: the threaded suites passed under ThreadSanitizer in ${elapsed}s"
