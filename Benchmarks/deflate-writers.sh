#!/usr/bin/env bash
# framed's own deflate writer (CFramedEngines' fastdeflate.c) against zlib's level 1 (default
# strategy and Z_RLE) and libdeflate, on the same filtered rows, on this machine: the figures in
# fastdeflate.c's opening comment. `make bench-deflate` runs it (and installs libdeflate-dev,
# poppler-utils and ImageMagick when they are missing).
#
#   Benchmarks/deflate-writers.sh [--bin DIR]     (default: .build/release, framed and framed-bench)
#
# The inputs are the benchmark's own (bench.sh): the 3000x2000 RGBA screenshot, framed by the
# reference job to PDF (its 1819x1213 picture at 300 dpi, RGB plane and alpha plane, taken back
# out with pdfimages) and to a PNG at scale 2 (a 1260x860 canvas).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BIN=$ROOT/.build/release
[ "${1:-}" = --bin ] && BIN=$2
for tool in "$BIN/framed" "$BIN/framed-bench"; do [ -x "$tool" ] || { echo "deflate-writers.sh: no $tool (make build)" >&2; exit 2; }; done
for tool in convert pdfimages; do command -v $tool >/dev/null || { echo "deflate-writers.sh: $tool is missing" >&2; exit 2; }; done
[ -f /usr/include/libdeflate.h ] || { echo "deflate-writers.sh: libdeflate-dev is missing" >&2; exit 2; }
CC=$(command -v clang || command -v cc)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
"$BIN/framed-bench" screenshot 3000 2000 shot.pam
convert shot.pam -strip -define png:compression-level=6 -define png:compression-filter=5 PNG32:screenshot.png
job=(--size 600x400 --border 6 --border-color white --background '#808080' --shadow '0 0 10px rgba(0,0,0,0.6)')
"$BIN/framed" screenshot.png -o shot.pdf "${job[@]}"
"$BIN/framed" screenshot.png -o canvas.png "${job[@]}" --scale 2
pdfimages -png shot.pdf picture
S=$ROOT/Sources
"$CC" -O2 -o writers "$HERE/deflate_writers.c" "$S/CCodecs/deflate.c" "$S/CCodecs/common.c" \
    "$S/CFramedEngines/fastdeflate.c" -I"$S/CCodecs/include" -I"$S/CFramedEngines/include" -lpng -lz -ldeflate
echo "$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); load $(cut -d ' ' -f 1-3 /proc/loadavg)"
./writers picture-000.png picture-001.png canvas.png
