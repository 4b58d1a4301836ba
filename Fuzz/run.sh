#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs each for a bounded time.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]     (default: 60 seconds each, every target)
#
# Fails (exit 1) on any crash, leak, timeout (-timeout=10 s per input) or out-of-memory
# (-malloc_limit_mb=200 for any single allocation, -rss_limit_mb=512 for the process). Prints, per target:
# seconds, executions, crashes (saved inputs under $FUZZ_WORK/artifacts/TARGET/).
#
# Environment:
#   FUZZ_WORK   corpora, seeds, artifacts and logs (default: Fuzz/.work, git-ignored); the
#               corpora grow from run to run
#   FUZZ_BUILD  SwiftPM scratch path (default: Fuzz/.build)
#   SWIFT       the swift driver (default: swift)
#
# Everything is built in release mode with AddressSanitizer (Swift and C), UndefinedBehavior-
# Sanitizer on the C shim (errors abort), and libFuzzer's coverage; libFuzzer's driver comes from
# the toolchain's libclang_rt.fuzzer_no_main (the targets are Swift executables with a main of
# their own that calls LLVMFuzzerRunDriver). No Debian package is needed beyond the project's.
set -uo pipefail
cd "$(dirname "$0")"
FUZZ=$PWD
SECONDS_EACH=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
ALL_TARGETS=(fuzz-jpeg fuzz-png fuzz-webp fuzz-exif fuzz-icc fuzz-parsers fuzz-frame fuzz-config
             fuzz-tiff fuzz-gif fuzz-heif fuzz-svg fuzz-annotations)
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL_TARGETS[@]}"); fi
SWIFT=${SWIFT:-swift}
WORK=${FUZZ_WORK:-$FUZZ/.work}
BUILD=${FUZZ_BUILD:-$FUZZ/.build}
mkdir -p "$WORK"

runtime_dir=$(clang --print-runtime-dir 2>/dev/null || true)
FUZZER_LIB=""
for dir in "$runtime_dir" "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux; do
    for name in libclang_rt.fuzzer_no_main.a libclang_rt.fuzzer_no_main-x86_64.a libclang_rt.fuzzer_no_main-aarch64.a; do
        [ -f "$dir/$name" ] && FUZZER_LIB="$dir/$name" && break 2
    done
done
if [ -z "$FUZZER_LIB" ]; then
    echo "run.sh: libFuzzer (libclang_rt.fuzzer_no_main) not found in the Swift toolchain" >&2
    exit 1
fi

echo "building the fuzz targets (release, ASan, UBSan on C, libFuzzer coverage)..."
build_log="$WORK/build.log"
# SwiftPM keeps the main package's list of source files from the last build of this one and
# does not notice a file added there since ("cannot find ... in scope"); planning anew does.
rm -f "$BUILD"/release/description.json "$BUILD"/*/release/description.json
# The targets are the main package's, declared when FRAMED_FUZZ=1 (see Package.swift).
export FRAMED_FUZZ=1
if ! "$SWIFT" build --package-path "$FUZZ/.." --scratch-path "$BUILD" -c release \
        --sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xcc -fsanitize=fuzzer-no-link,undefined -Xcc -fno-sanitize-recover=undefined \
        -Xlinker "$FUZZER_LIB" -Xlinker -lstdc++ -Xswiftc -use-ld=lld >"$build_log" 2>&1; then
    tail -40 "$build_log"
    echo "run.sh: build failed (log: $build_log)" >&2
    exit 1
fi
BIN=$("$SWIFT" build --package-path "$FUZZ/.." --scratch-path "$BUILD" -c release --show-bin-path)

# Seeds: generated once into $WORK/seeds (delete the folder to regenerate).
if [ ! -d "$WORK/seeds" ]; then
    "$FUZZ/make-seeds.sh" "$WORK/seeds" "$BIN/fuzz-seeds" || { echo "run.sh: seeds failed" >&2; exit 1; }
fi

# ASan keeps freed memory in a quarantine (256 MB by default) that counts towards the RSS
# limit: keep it small so that -rss_limit_mb measures the program. UBSan aborts with a stack.
# The RSS limit is well above the allocation limit: over minutes ASan's allocator keeps the pages of
# freed memory: fuzz-config and fuzz-frame passed 200 MB of RSS with 27 and 39 MB live
# (libFuzzer's own 24 MB included) and no leak, and fuzz-config reached 309 MB in 300 s.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1:allocator_may_return_null=0:handle_abort=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks inside system libraries that are not ours to fix (see the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$FUZZ/lsan.supp:print_suppressions=0}
# The Swift runtime's own crash handler would catch a trap first (and trip ASan while it
# reads memory): leave crashes to libFuzzer, which saves the input and prints the stack.
export SWIFT_BACKTRACE=enable=no

status=0
summary=()

# First the regression fixtures (Tests/Fixtures/hostile/PREFIX-*: through fuzz-PREFIX), each
# once, under the same limits.
for target in "${TARGETS[@]}"; do
    fixtures=("$FUZZ/../Tests/Fixtures/hostile/${target#fuzz-}"-*)
    [ -e "${fixtures[0]}" ] || continue
    log="$WORK/logs/$target.fixtures.log"
    mkdir -p "$(dirname "$log")"
    if "$BIN/$target" -malloc_limit_mb=200 -rss_limit_mb=512 -timeout=10 "${fixtures[@]}" >"$log" 2>&1; then
        echo "$target: ${#fixtures[@]} regression fixture(s) pass"
    else
        status=1
        line="$target: a regression fixture FAILED: $(grep -m1 -E 'Fatal error|runtime error|ERROR|SUMMARY' "$log" | cut -c1-160); log: $log"
        echo "$line"
        summary+=("$line")
    fi
done

for target in "${TARGETS[@]}"; do
    corpus="$WORK/corpus/$target" artifacts="$WORK/artifacts/$target" log="$WORK/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    start=$(date +%s)
    "$BIN/$target" "$corpus" "$WORK/seeds/$target" \
        -max_total_time="$SECONDS_EACH" -malloc_limit_mb=200 -rss_limit_mb=512 -timeout=10 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    line=$(printf '%-14s %5ss %12s executions  %d crash(es)' "$target" "$elapsed" "${execs:-?}" "$(( rc == 0 ? 0 : 1 ))")
    if [ "$rc" -ne 0 ]; then
        status=1
        line="$line  FAILED: $(grep -m1 -E 'Fatal error|runtime error|ERROR|SUMMARY' "$log" | cut -c1-160)"
        line="$line"$'\n'"      log: $log; reproduce: $BIN/$target $(ls -t "$artifacts"/* 2>/dev/null | head -1)"
    fi
    echo "$line"
    summary+=("$line")
done

echo
echo "fuzzing summary ($SECONDS_EACH s per target; corpora in $WORK/corpus):"
printf '  %s\n' "${summary[@]}"
[ "$status" -eq 0 ] && echo "no crash, leak, timeout or out-of-memory" || echo "FAILED: see the logs and artifacts above"
exit "$status"
