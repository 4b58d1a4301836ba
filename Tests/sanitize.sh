#!/usr/bin/env bash
# Runs the whole test suite once under AddressSanitizer (Swift and C; LeakSanitizer included)
# with UndefinedBehaviorSanitizer on the C targets (CCodecs, CFramedEngines), in its own build folder:
#
#   Tests/sanitize.sh [extra swift test arguments, e.g. --filter CLITests]
#
# Fails (non-zero) on a failed test, on any ASan or UBSan report, and on a leak: the test
# processes (and the framed binaries the CLI tests start, built with the same sanitizers)
# exit non-zero when LeakSanitizer finds one. Leaks inside the toolchain's libraries
# (Foundation's Process, XCTest, Cairo's SVG backend) are suppressed by Tests/Sanitizers/lsan.supp.
#
# Environment: SANITIZE_BUILD (scratch path, default .build/sanitize), SWIFT (default swift).
# Exits 0 with a notice when the toolchain has no AddressSanitizer runtime (check: a small
# program built with -sanitize=address).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
BUILD=${SANITIZE_BUILD:-$ROOT/.build/sanitize}
. "$ROOT/Tests/Sanitizers/run.sh"

require_sanitizer address sanitize.sh sanitizer

# SANITIZE_PRECISE=1: whole stacks for every allocation (fast_unwind_on_malloc=0), so that a
# leak inside Cairo can be told from Cairo's own (lsan-precise.supp); about 15 times slower.
if [ "${SANITIZE_PRECISE:-0}" = 1 ]; then
    unwind=0 supp=$ROOT/Tests/Sanitizers/lsan-precise.supp
else
    unwind=1 supp=$ROOT/Tests/Sanitizers/lsan.supp
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:fast_unwind_on_malloc=$unwind}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The Swift runtime's crash handler reads memory that ASan does not know about; let the
# sanitizers report instead.
export SWIFT_BACKTRACE=enable=no

# Left out: the tests that run framed under `ulimit -v` (running out of memory, for any picture, and
# peaks of memory measured within a limit; AddressSanitizer reserves terabytes of address space for
# its shadow and cannot start within such a limit).
run_checked sanitize.sh "$BUILD.log" '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' \
    '^==[0-9]+==ERROR|runtime error:|^SUMMARY:|✘ Test .* (failed|recorded)' 0 \
    "the whole suite passed under ASan, LSan and UBSan (C)" \
    "$SWIFT" test --scratch-path "$BUILD" --sanitize=address \
    -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined --skip 'runningOutOfMemoryIsAnError|decodingAHEICShortOfMemoryIsAnError|aHEICAsksForItsMemoryBeforeDecoding|aStreamWithoutAnEndTakesNoMoreThanItsBound|aWebPIsReadAsFarAsItsChunksSay|aHEIFIsOverTheLimitForWhatItCodesEvenInLayout|textAndSVGShortOfMemoryEndWithOneLine|aThreadTheTextLibraryCannotStartEndsWithOneLine' "$@"
