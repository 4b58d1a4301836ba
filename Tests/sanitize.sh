#!/usr/bin/env bash
# Runs the whole test suite once under AddressSanitizer (Swift and C; LeakSanitizer included)
# with UndefinedBehaviorSanitizer on the C shim (CCodecs), in its own build folder:
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

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'print("ok")' >"$probe/probe.swift"
if ! (cd "$probe" && swiftc -sanitize=address probe.swift -o probe >/dev/null 2>&1 && ./probe >/dev/null 2>&1); then
    echo "sanitize.sh: this Swift toolchain cannot build with -sanitize=address; skipping the sanitizer run"
    exit 0
fi

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

log="$BUILD.log"
mkdir -p "$(dirname "$log")"
start=$(date +%s)
"$SWIFT" test --scratch-path "$BUILD" --sanitize=address \
    -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

reports=$(grep -cE '^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log")
if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
    echo "sanitize.sh: FAILED after ${elapsed}s (exit $status, $reports sanitizer report(s); log: $log)" >&2
    grep -E '^==[0-9]+==ERROR|runtime error:|^SUMMARY:|✘ Test .* (failed|recorded)' "$log" | head -20 >&2
    exit 1
fi
echo "sanitize.sh: the whole suite passed under ASan, LSan and UBSan (C) in ${elapsed}s"
