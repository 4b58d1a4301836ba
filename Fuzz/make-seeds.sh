#!/usr/bin/env bash
# Writes the seed corpora of the fuzz targets into OUTDIR/<target>/:
#
#   Fuzz/make-seeds.sh OUTDIR [FUZZ_SEEDS_BINARY]
#
# Pictures come from the project's own encoders (fuzz-seeds: JPEG baseline, progressive,
# arithmetic, gray, CMYK, YCCK, EXIF, ICC; PNG of every colour type and depth, interlaced,
# iCCP, gAMA/cHRM, eXIf; WebP lossy, lossless, alpha, ICCP, EXIF), plus, when the tools are
# installed, a JPEG with restart markers (jpegtran) and an animated WebP (img2webp).
# Without a binary, fuzz-seeds is built first (plain debug build, no sanitizers).
set -euo pipefail
cd "$(dirname "$0")"
OUT=${1:?usage: make-seeds.sh OUTDIR [FUZZ_SEEDS_BINARY]}
SEEDS=${2:-}
if [ -z "$SEEDS" ]; then
    scratch=${FUZZ_BUILD:-$PWD/.build}-seeds
    FRAMED_FUZZ=1 ${SWIFT:-swift} build --package-path .. --scratch-path "$scratch" --product fuzz-seeds >/dev/null
    SEEDS=$(FRAMED_FUZZ=1 ${SWIFT:-swift} build --package-path .. --scratch-path "$scratch" --show-bin-path)/fuzz-seeds
fi
mkdir -p "$OUT"
"$SEEDS" "$OUT"

if command -v jpegtran >/dev/null; then
    jpegtran -restart 1 -outfile "$OUT/fuzz-jpeg/restart.jpg" "$OUT/fuzz-jpeg/baseline.jpg"
    jpegtran -progressive -restart 2 -outfile "$OUT/fuzz-jpeg/progressive-restart.jpg" "$OUT/fuzz-jpeg/odd-size.jpg"
fi
if command -v img2webp >/dev/null; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp "$OUT/fuzz-webp/lossless.webp" "$tmp/a.webp"
    cp "$OUT/fuzz-webp/lossless-alpha.webp" "$tmp/b.webp"
    img2webp -loop 0 -d 100 -lossless "$tmp/a.webp" -d 50 -lossy "$tmp/b.webp" -o "$OUT/fuzz-webp/animated.webp" >/dev/null 2>&1 \
        || echo "make-seeds.sh: img2webp failed; no animated seed" >&2
fi
for dir in "$OUT"/*/; do printf '  %-14s %3d seeds\n' "$(basename "$dir")" "$(ls "$dir" | wc -l)"; done
