#!/usr/bin/env bash
# Writes the seed corpora of the fuzz targets into OUTDIR/<target>/:
#
#   Fuzz/make-seeds.sh OUTDIR [FUZZ_SEEDS_BINARY]
#
# Pictures come from the project's own encoders (fuzz-seeds: JPEG baseline, progressive,
# arithmetic, gray, CMYK, YCCK, EXIF, ICC; PNG of every colour type and depth, interlaced,
# iCCP, gAMA/cHRM, eXIf; WebP lossy, lossless, alpha, ICCP, EXIF), plus, when the tools are
# installed, a JPEG with restart markers (jpegtran), an animated WebP (img2webp), HEIC and AVIF
# (heif-enc, avifenc), compressed TIFFs (tiffcp) and an optimised GIF (gifsicle); TIFF and GIF
# seeds are also built byte by byte (FramedTestSupport).
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
# HEIC and AVIF (fuzz-heif) need encoders: heif-enc (libheif-examples) and avifenc (libavif-bin).
mkdir -p "$OUT/fuzz-heif"
png=$OUT/fuzz-png/compressed.png
if command -v heif-enc >/dev/null; then
    heif-enc -q 50 -o "$OUT/fuzz-heif/lossy.heic" "$png" >/dev/null 2>&1 || echo "make-seeds.sh: heif-enc failed" >&2
    heif-enc -q 50 -t 8 -b 10 -o "$OUT/fuzz-heif/thumbnail-10bit.heic" "$png" >/dev/null 2>&1 || echo "make-seeds.sh: heif-enc -t failed" >&2
    heif-enc -A -q 50 -o "$OUT/fuzz-heif/lossy.avif" "$png" >/dev/null 2>&1 || echo "make-seeds.sh: heif-enc -A failed" >&2
else
    echo "make-seeds.sh: no heif-enc; fuzz-heif starts without HEIC seeds" >&2
fi
if command -v avifenc >/dev/null; then
    avifenc -s 10 "$png" "$OUT/fuzz-heif/avifenc.avif" >/dev/null 2>&1 || echo "make-seeds.sh: avifenc failed" >&2
fi
# TIFF compressions and GIF LZW as the usual tools write them.
if command -v tiffcp >/dev/null; then
    for c in lzw:2 zip packbits jpeg; do
        # JPEG in TIFF needs strips of a multiple of 16 rows.
        tiffcp -c "$c" -r 16 "$OUT/fuzz-tiff/rgb.tif" "$OUT/fuzz-tiff/rgb-${c%%:*}.tif" 2>/dev/null \
            || { echo "make-seeds.sh: tiffcp -c $c failed" >&2; rm -f "$OUT/fuzz-tiff/rgb-${c%%:*}.tif"; }
    done
fi
if command -v gifsicle >/dev/null; then
    gifsicle -O2 "$OUT/fuzz-gif/transparent-interlaced.gif" -o "$OUT/fuzz-gif/optimized.gif" 2>/dev/null || echo "make-seeds.sh: gifsicle failed" >&2
fi
for dir in "$OUT"/*/; do printf '  %-14s %3d seeds\n' "$(basename "$dir")" "$(ls "$dir" | wc -l)"; done
