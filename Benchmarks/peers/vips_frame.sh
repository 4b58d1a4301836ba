#!/usr/bin/env bash
# The reference job with the libvips command line (vips 8.14), as a user would script it.
#
#   vips_frame.sh IN OUT.png SCALE KIND TMPDIR [ZLIB_LEVEL]
#
# KIND: rgb (8-bit colour, no alpha), gray (one band), rgba (alpha: flattened on the mat),
# rgb16 (16 bits a sample: converted to 8-bit sRGB). The benchmark passes it so that the recipe
# needs no extra vipsheader call (each vips process costs some 40 ms to start). TMPDIR holds the
# .v temporaries (use a tmpfs). Same job as framed: 600x400 frame (times SCALE), white 6px
# border, #808080 mat, the picture shrunk to fit 588x388 (never enlarged), centred; shadow
# 0 0 10px rgba(0,0,0,0.6) = sigma 5px at 60 %; canvas 630x430 (1260x860 at scale 2), RGBA PNG.
set -euo pipefail
in=$1 out=$2 s=$3 kind=$4 t=$5 level=${6:-}
bw=$((588 * s)) bh=$((388 * s)) b=$((6 * s)) sigma=$((5 * s)) pad=$((15 * s))
fw=$((bw + 2 * b)) fh=$((bh + 2 * b)) cw=$((bw + 2 * b + 2 * pad)) ch=$((bh + 2 * b + 2 * pad))

# Shrink-on-load (JPEG DCT scaling) and Lanczos-3 to fit the content box, never enlarging.
vips thumbnail "$in" "$t/thumb.v" "$bw" --height "$bh" --size down
case $kind in
    rgb)   pic=$t/thumb.v ;;
    gray|rgb16) vips colourspace "$t/thumb.v" "$t/pic.v" srgb; pic=$t/pic.v ;;
    rgba)  vips flatten "$t/thumb.v" "$t/pic.v" --background "128 128 128"; pic=$t/pic.v ;;
    *) echo "vips_frame.sh: unknown kind $kind" >&2; exit 2 ;;
esac
# Mat, then border: centred embeds with a background colour.
vips gravity "$pic" "$t/mat.v" centre "$bw" "$bh" --extend background --background "128 128 128"
vips gravity "$t/mat.v" "$t/frame3.v" centre "$fw" "$fh" --extend background --background "255 255 255"
vips bandjoin_const "$t/frame3.v" "$t/frame.v" 255
# Shadow: the frame's rectangle as black at alpha 153 (0.6), on the transparent canvas, blurred
# (min-ampl 0.005: the kernel reaches 3.3 sigma, like the canvas).
vips linear "$t/frame.v" "$t/solid.v" "0 0 0 0" "0 0 0 153" --uchar
vips gravity "$t/solid.v" "$t/canvas.v" centre "$cw" "$ch"
vips gaussblur "$t/canvas.v" "$t/shadow.v" "$sigma" --min-ampl 0.005
# Frame over shadow, written as PNG (vips picks the saver from the extension).
if [ -n "$level" ]; then
    vips composite2 "$t/shadow.v" "$t/frame.v" "$out[compression=$level]" over --x "$pad" --y "$pad"
else
    vips composite2 "$t/shadow.v" "$t/frame.v" "$out" over --x "$pad" --y "$pad"
fi
