# The parts of Tests/sanitize.sh and Tests/tsan.sh that are the same, sourced by both (after
# they set SWIFT and cd to the package).

# Ends the calling script (exit 0) with a notice when this Swift toolchain cannot build and run
# a small program with -sanitize=$1 (no runtime for it). $2 names the script, $3 the run skipped.
require_sanitizer() {
    local probe
    probe=$(mktemp -d)
    echo 'print("ok")' >"$probe/probe.swift"
    if ! (cd "$probe" && swiftc -sanitize="$1" probe.swift -o probe >/dev/null 2>&1 && ./probe >/dev/null 2>&1); then
        rm -rf "$probe"
        echo "$2: this Swift toolchain cannot build with -sanitize=$1; skipping the $3 run"
        exit 0
    fi
    rm -rf "$probe"
}

# run_checked NAME LOG REPORTS SHOWN CONTEXT PASSED COMMAND...: runs COMMAND with its output
# also in LOG; exits 1 when it fails or when a line of LOG matches REPORTS (an extended regex: a
# sanitizer's report, which the test runner alone does not always fail on), showing the lines
# that match SHOWN with CONTEXT lines after each; else prints "NAME: PASSED in Ns".
run_checked() {
    local name=$1 log=$2 pattern=$3 shown=$4 context=$5 passed=$6 start status elapsed reports
    shift 6
    mkdir -p "$(dirname "$log")"
    start=$(date +%s)
    "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    elapsed=$(( $(date +%s) - start ))
    reports=$(grep -cE "$pattern" "$log")
    if [ "$status" -ne 0 ] || [ "$reports" -ne 0 ]; then
        echo "$name: FAILED after ${elapsed}s (exit $status, $reports report(s); log: $log)" >&2
        grep -E -A"$context" "$shown" "$log" | head -20 >&2
        exit 1
    fi
    echo "$name: $passed in ${elapsed}s"
}
