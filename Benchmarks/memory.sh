#!/usr/bin/env bash
# Peak resident memory of framing a 50-megapixel JPEG to a 600x400 PNG, next to the size of the
# decoded full-size picture. Shrink-on-load should keep the peak a small fraction of it.
#
#   Benchmarks/memory.sh            (make bench-memory builds first)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/framed
BENCH=.build/release/framed-bench
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

W=8660; H=5774   # 50.0 megapixels
"$BENCH" jpeg $W $H "$WORK/big.jpg" 90
decoded=$(( W * H * 4 ))

measure() { # label, then framed arguments
    local label=$1; shift
    /usr/bin/time -f '%M %e' -o "$WORK/time" "$BIN" "$@"
    read -r kb seconds < "$WORK/time"
    printf '%-34s %8.1f MB peak RSS  %6.2f s  (%4.1f %% of the decoded picture)\n' \
        "$label" "$(echo "$kb / 1024" | bc -l)" "$seconds" "$(echo "100 * $kb * 1024 / $decoded" | bc -l)"
}

printf 'picture: %dx%d JPEG, %.1f MB on disk, %.1f MB decoded as RGBA\n' $W $H \
    "$(echo "$(stat -c %s "$WORK/big.jpg") / 1048576" | bc -l)" "$(echo "$decoded / 1048576" | bc -l)"
measure "600x400 PNG (classic)" "$WORK/big.jpg" -o "$WORK/out.png" --size 600x400
measure "600x400 PNG at --scale 2" "$WORK/big.jpg" -o "$WORK/out2.png" --size 600x400 --scale 2
measure "600x400 PDF (picture at 300 dpi)" "$WORK/big.jpg" -o "$WORK/out.pdf" --size 600x400
measure "600x400 SVG (picture at 192 dpi)" "$WORK/big.jpg" -o "$WORK/out.svg" --size 600x400
