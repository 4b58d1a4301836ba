#!/usr/bin/env bash
# Peak resident memory of framing big pictures into a 600x400 frame, next to the size of the
# decoded picture, and a regression check (issue 6): what a PNG job holds beyond the process
# itself must stay within one decoded picture at the size it is decoded at (JPEG: shrunk on
# load; PNG: full size), plus a quarter and 4 MB. Reading the file whole, or a second full-size
# copy of the pixels, breaks it. Exits 1 when a line is over its budget. The PDF and SVG lines
# have no budget: they hold the picture as placed (at 300 or 192 dpi) and Cairo's copy of it
# besides.
#
#   Benchmarks/memory.sh [--bin DIR]     (make bench-memory builds first)
#
# Pictures: a 50-megapixel JPEG (framed-bench), a 3000x2000 RGBA PNG (a screenshot, framed-bench)
# and a 3000x2000 16-bit PNG (needs ImageMagick, as in bench.sh; left out without it).
# "process" is the peak of the same command on a 64x43 picture: the process itself (Swift,
# Foundation, Cairo) and the canvas; "held" is the decoded picture at the size it is decoded at.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=.build/release
while [ $# -gt 0 ]; do
    case $1 in
        --bin) DIR=$2; shift ;;
        *) echo "memory.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
BIN=$DIR/framed
BENCH=$DIR/framed-bench
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

W=8660; H=5774   # 50.0 megapixels
"$BENCH" jpeg $W $H "$WORK/big.jpg" 90
"$BENCH" jpeg 64 43 "$WORK/tiny.jpg" 90
"$BENCH" screenshot 3000 2000 "$WORK/screenshot.png"
if [ -x /usr/bin/convert ]; then
    "$BENCH" png 3000 2000 "$WORK/photo.ppm"
    /usr/bin/convert "$WORK/photo.ppm" -depth 16 -blur 0x0.8 -strip PNG48:"$WORK/photo16.png"
    rm "$WORK/photo.ppm"
fi

mb() { echo "scale=1; $1 / 1024" | bc; }
peak() { # framed arguments: peak RSS in KB (and seconds in $WORK/seconds)
    /usr/bin/time -f '%M %e' -o "$WORK/time" "$BIN" "$@" >/dev/null
    read -r kb seconds < "$WORK/time"
    echo "$seconds" > "$WORK/seconds"
    echo "$kb"
}
# Bytes of the picture as framed decodes it: the header's size, shrunk on load for a JPEG as
# Framer.shrinkOnLoadScale does for the pixels the layout needs (framed --dry-run): the smallest
# of 1/8, 2/8 (1/4), 3/8 and 4/8 (1/2) that keeps them, else full size.
held() { # picture, then the output options
    local picture=$1; shift
    local json sw sh nw nh e=8 k
    json=$("$BIN" "$picture" "$@" --dry-run)
    read -r sw sh < <(echo "$json" | sed -n 's/.*"sourcePixels": {"width": \([0-9]*\), "height": \([0-9]*\)}.*/\1 \2/p')
    read -r nw nh < <(echo "$json" | sed -n 's/.*"rasterPixels": {"width": \([0-9]*\), "height": \([0-9]*\)}.*/\1 \2/p')
    case $picture in
        *.jpg) for k in 1 2 3 4; do
                   if [ $(( (sw * k + 7) / 8 )) -ge "$nw" ] && [ $(( (sh * k + 7) / 8 )) -ge "$nh" ]; then e=$k; break; fi
               done ;;
    esac
    echo $(( ((sw * e + 7) / 8) * ((sh * e + 7) / 8) * 4 ))
}

failed=0
measure() { # label, picture, output, then framed options
    local label=$1 picture=$2 output=$3; shift 3
    local kb base bytes budget seconds verdict
    kb=$(peak "$picture" -o "$WORK/$output" --overwrite "$@")
    seconds=$(cat "$WORK/seconds")
    base=$(peak "$WORK/tiny.jpg" -o "$WORK/tiny-$output" --overwrite "$@")
    bytes=$(held "$picture" -o "$WORK/$output" "$@")
    budget=$(( base + bytes * 5 / 4 / 1024 + 4096 ))
    case $output in
        *.png) verdict="budget $(mb "$budget") MB: ok"
               if [ "$kb" -gt "$budget" ]; then verdict="budget $(mb "$budget") MB: OVER"; failed=1; fi ;;
        *) verdict="(no budget)" ;;
    esac
    printf '%-34s %6s MB peak RSS %5s s  process %5s + held %5s MB; %5s MB over the process, %s\n' \
        "$label" "$(mb "$kb")" "$seconds" "$(mb "$base")" "$(mb $((bytes / 1024)))" "$(mb $((kb - base)))" "$verdict"
}

printf 'picture: %dx%d JPEG, %.1f MB on disk, %.1f MB decoded as RGBA\n' $W $H \
    "$(echo "$(stat -c %s "$WORK/big.jpg") / 1048576" | bc -l)" "$(echo "$W * $H * 4 / 1048576" | bc -l)"
measure "600x400 PNG (classic)" "$WORK/big.jpg" out.png --size 600x400
measure "600x400 PNG at --scale 2" "$WORK/big.jpg" out2.png --size 600x400 --scale 2
measure "600x400 PDF (picture at 300 dpi)" "$WORK/big.jpg" out.pdf --size 600x400
measure "600x400 SVG (picture at 192 dpi)" "$WORK/big.jpg" out.svg --size 600x400
for png in screenshot.png photo16.png; do
    [ -f "$WORK/$png" ] || { echo "$png: left out (needs ImageMagick: make test-deps)"; continue; }
    printf '%s: 3000x2000 PNG, %.1f MB on disk, 22.9 MB decoded as RGBA\n' "$png" \
        "$(echo "$(stat -c %s "$WORK/$png") / 1048576" | bc -l)"
    measure "600x400 PNG (classic)" "$WORK/$png" out.png --size 600x400
    measure "600x400 PNG at --scale 2" "$WORK/$png" out2.png --size 600x400 --scale 2
done
exit $failed
