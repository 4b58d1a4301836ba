#!/usr/bin/env bash
# Proves that a change left framed's behaviour alone: runs the same corpus of command lines with
# two builds of framed and compares everything they produce, byte for byte: the output files,
# standard output, standard error and the exit code of every run.
#
#   Tests/same-outputs.sh OLD_FRAMED NEW_FRAMED [WORK_DIR]
#
# The pictures are Samples/ and pictures made here (by the OLD build's framed-bench, found next to
# it, and by ImageMagick and cwebp when they are installed): baseline, progressive, gray, EXIF-turned
# and CMYK JPEGs, RGBA, 16-bit, gray, palette and interlaced PNGs, lossy, lossless and alpha WebPs.
# The runs cover every format, every preset, shadows, pages and bleed, --pages, framed layout,
# --print-config, framed presets, --help and a set of mistakes (their messages and exit codes).
# Prints the number of runs and exits 1 on the first difference, naming it.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_FRAMED NEW_FRAMED [WORK_DIR]" >&2; exit 2; }
OLD=$(readlink -f "$1"); NEW=$(readlink -f "$2")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${3:-$(mktemp -d)}
mkdir -p "$WORK/in"
IN=$WORK/in
BENCH=$(dirname "$OLD")/framed-bench

# Inputs: made once, shared by both runs.
cp "$ROOT"/Samples/*.jpg "$ROOT"/Samples/*.png "$IN/"
if [ -x "$BENCH" ]; then
    "$BENCH" jpeg 1200 800 "$IN/photo.jpg" 90 baseline
    "$BENCH" jpeg 1000 700 "$IN/prog.jpg" 85 progressive
    "$BENCH" jpeg 640 480 "$IN/gray.jpg" 90 grayscale
    "$BENCH" png 500 300 "$IN/alpha.png"
    "$BENCH" screenshot 900 600 "$IN/shot.png"
fi
if command -v convert >/dev/null; then
    convert "$IN/landscape.jpg" -orient right-top "$IN/turned.jpg"
    convert "$IN/landscape.jpg" -colorspace CMYK -quality 90 "$IN/cmyk.jpg"
    convert "$IN/tiles.png" -depth 16 "$IN/deep.png"
    convert "$IN/tiles.png" -colorspace Gray "$IN/grayscale.png"
    convert "$IN/tiles.png" -colors 64 "PNG8:$IN/palette.png"
    convert "$IN/tiles.png" -interlace PNG "$IN/interlaced.png"
fi
if command -v cwebp >/dev/null; then
    cwebp -quiet -q 80 "$IN/tiles.png" -o "$IN/lossy.webp"
    cwebp -quiet -lossless "$IN/screenshot.png" -o "$IN/lossless.webp"
    [ -f "$IN/alpha.png" ] && cwebp -quiet -q 70 -alpha_q 100 "$IN/alpha.png" -o "$IN/alpha.webp"
fi
printf 'not a picture\n' >"$IN/text.png"
head -c 3000 "$IN/landscape.jpg" >"$IN/cut.jpg"
printf '{"preset": "docs", "border": "2px", "shadow": "0 2px 6px rgba(0,0,0,.4)", "dpi": 150}\n' >"$WORK/look.json"
printf '{"border": "-1px"}\n' >"$WORK/bad.json"
printf '{"bordr": 1}\n' >"$WORK/unknown.json"
printf '{"lossless": "yes", "help": true}\n' >"$WORK/types.json"
printf '{"size": "1x1", "width": 3}\n' >"$WORK/both.json"

# The runs: one per line, words split by the shell; OUT is the run's output folder.
RUNS=$(cat <<'EOF'
--help
--version
presets
layout IN/landscape.jpg
layout IN/landscape.jpg --page A4 --bleed 3mm --preset print
layout IN/shot.png --format png --scale 2 --size 600x400 --fit contain
--print-config --preset polaroid --border 1mm --shadow none
--print-config --config WORK/look.json --radius 4
IN/landscape.jpg -o OUT/classic.svg
IN/landscape.jpg -o OUT/classic.pdf
IN/landscape.jpg -o OUT/classic.png
IN/landscape.jpg -o OUT/print.pdf --size 150mmx100mm --border 2mm --padding 8mm --background white --border-color #222 --shadow 0_1mm_4mm_rgba(0,0,0,.5)
IN/screenshot.png -o OUT/shot.png --size 600x400 --border 1 --border-color #d0d0d0 --radius 8 --background white --fit contain --shadow 0_4px_16px_rgba(0,0,0,.35) --scale 2
IN/tiles.png -o OUT/tiles.svg --fit cover --size 400x300 --position top --border 6 --shadow 0_0_0_1px_#c8c8c8,_12px_16px_24px_rgba(30,60,200,.45),_-8px_-6px_20px_rgba(255,140,0,.35)
IN/landscape.jpg -o OUT/instant.pdf --width 320 --border 0 --padding 10px_10px_40px --background #fbfaf7 --shadow 0_2px_6px_rgba(0,0,0,.35),_0_10px_24px_-6px_rgba(0,0,0,.25) --margin 24 --canvas-color #e9e4d8
IN/landscape.jpg -o OUT/docs.png --preset docs
IN/landscape.jpg -o OUT/docs.svg --preset docs --radius 20 --shadow inset_0_0_12px_#0008,_0_6px_20px_#0006
IN/landscape.jpg -o OUT/print.svg --preset print
IN/landscape.jpg -o OUT/polaroid.pdf --preset polaroid
IN/landscape.jpg -o OUT/none.png --preset none --scale 0.5
IN/tiles.png -o OUT/double.png --border 12 --border-style double --inner-border 1px_#333 --padding 20 --background white
IN/tiles.png -o OUT/double.pdf --border 12 --border-style double --inner-border 1px_#333 --padding 20 --background white --radius 30
IN/tiles.png -o OUT/fill.svg --fit fill --size 300x300
IN/tiles.png -o OUT/none.svg --fit none --size 200x200 --position bottom-right
IN/landscape.jpg -o OUT/a4.pdf --page A4 --bleed 3mm --canvas-color #eee
IN/landscape.jpg -o OUT/letter.png --page Letter --orientation portrait --dpi 50
IN/landscape.jpg -o OUT/page.svg --page 100mmx150mm --size 80mmx50mm
IN/landscape.jpg -o OUT/embed-png.pdf --embed png
IN/landscape.jpg -o OUT/q50.pdf --quality 50 --size 300x200
IN/landscape.jpg -o OUT/lossless.svg --lossless --size 300x200
IN/landscape.jpg -o OUT/box.png --resample box --size 300x200
IN/landscape.jpg -o OUT/good.pdf --resample good --dpi 72
IN/landscape.jpg -o OUT/nosnap.png --no-snap --scale 1.5 --border 1.3
IN/landscape.jpg -o OUT/meta.pdf --title Title --author Author
IN/screenshot.png -o OUT/flatten.pdf --flatten white --embed jpeg
IN/screenshot.png -o OUT/imgdpi.svg --image-dpi 192
IN/screenshot.png -o OUT/imgdpi-auto.svg --image-dpi auto
IN/photo.jpg -o OUT/photo.pdf
IN/photo.jpg -o OUT/photo-small.pdf --size 300x200
IN/photo.jpg -o OUT/photo.svg --size 400x300 --radius 12
IN/photo.jpg -o OUT/photo.png --size 400x300 --radius 12 --shadow 4px_4px_8px_2px_red
IN/prog.jpg -o OUT/prog.pdf --size 200x150
IN/prog.jpg -o OUT/prog.png
IN/gray.jpg -o OUT/gray.pdf --size 300x200
IN/gray.jpg -o OUT/gray.svg
IN/alpha.png -o OUT/alpha.pdf
IN/alpha.png -o OUT/alpha.svg --radius 10
IN/alpha.png -o OUT/alpha.png --canvas-color white
IN/shot.png -o OUT/shot.pdf --preset docs
IN/shot.png -o OUT/shot-small.pdf --size 300x200 --preset docs
IN/turned.jpg -o OUT/turned.pdf
IN/turned.jpg -o OUT/turned-stored.png --no-auto-orient
IN/cmyk.jpg -o OUT/cmyk.pdf
IN/cmyk.jpg -o OUT/cmyk-rel.png --intent relative
IN/deep.png -o OUT/deep.png
IN/grayscale.png -o OUT/grayscale.pdf
IN/palette.png -o OUT/palette.svg
IN/interlaced.png -o OUT/interlaced.png
IN/lossy.webp -o OUT/lossy.pdf
IN/lossless.webp -o OUT/lossless-webp.svg
IN/alpha.webp -o OUT/alpha-webp.png
IN/landscape.jpg IN/tiles.png IN/screenshot.png -o OUT/book.pdf --pages --page A5
IN/landscape.jpg IN/landscape.jpg IN/tiles.png -o OUT/repeat.pdf --pages
IN/landscape.jpg IN/tiles.png IN/screenshot.png -o OUT/batch/ --format png -j 1
IN/landscape.jpg IN/tiles.png IN/screenshot.png -o OUT/batch2/ --format svg -j 2
IN/landscape.jpg IN/tiles.png -o OUT/t/{stem}-{index}.{ext}.pdf
IN/landscape.jpg -o OUT/cfg.png --config WORK/look.json
IN/landscape.jpg -o OUT/x.png --config WORK/bad.json
IN/landscape.jpg -o OUT/bad.png --config WORK/unknown.json
IN/landscape.jpg -o OUT/bad.png --config WORK/types.json
IN/landscape.jpg -o OUT/bad.png --config WORK/both.json
IN/landscape.jpg -o OUT/bad.png --config WORK/missing.json
IN/tiles.png -o OUT/bad.png --max-pixels 2000000 --size 2000x2000
--print-config --preset docs --page A4 --orientation landscape --bleed 3mm --min-ppi 150 --strict --flatten red
IN/missing.jpg -o OUT/missing.png
IN/text.png -o OUT/text.png
IN/cut.jpg -o OUT/cut.png
IN/landscape.jpg -o OUT/bad.png --border -1px
IN/landscape.jpg -o OUT/bad.png --border 12qq
IN/landscape.jpg -o OUT/bad.png --size 10x10 --border 6
IN/landscape.jpg -o OUT/bad.png --scale 70
IN/landscape.jpg -o OUT/bad.png --dpi 5000 --size 100inx100in
IN/landscape.jpg -o OUT/bad.png --max-pixels 1000
IN/landscape.jpg -o OUT/bad.pdf --page A5 --size 300mmx200mm
IN/screenshot.png -o OUT/bad.pdf --embed jpeg
IN/landscape.jpg -o OUT/bad.pdf --min-ppi 5000
IN/landscape.jpg -o OUT/bad.pdf --min-ppi 5000 --strict
IN/landscape.jpg -o OUT/bad.xyz
IN/landscape.jpg --bleed 3mm -o OUT/bad.pdf
IN/landscape.jpg -o OUT/bad.pdf --frobnicate
IN/landscape.jpg -o OUT/bad.pdf --fit sideways
IN/landscape.jpg -o OUT/bad.pdf --quality 0
IN/landscape.jpg -o OUT/bad.pdf --shadow 1px
IN/landscape.jpg IN/tiles.png -o OUT/one.pdf
-o OUT/none.pdf
IN/landscape.jpg -o OUT/classic.svg
EOF
)

run_all() { # BIN OUTDIR
    local bin=$1 out=$2 n=0 line
    rm -rf "$out"; mkdir -p "$out/files"
    while IFS= read -r line; do
        n=$((n + 1))
        local words=() word
        for word in $line; do
            # Each mistake writes (or would write) a file of its own: OUT/bad.png is OUT/bad42.png.
            word=${word//OUT\/bad./OUT/bad$n.}
            word=${word//IN\//$IN/}; word=${word//WORK\//$WORK/}; word=${word//OUT\//$out/files/}
            words+=("${word//_/ }")
        done
        (cd "$WORK" && SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000} "$bin" "${words[@]}" \
            >"$out/run$n.stdout" 2>"$out/run$n.stderr"; echo $? >"$out/run$n.status")
        # Names of files differ by folder only, and a batch summary says how long it took.
        sed -i -E "s|$out/files|OUT|g; s|$bin|FRAMED|g; s/ in [0-9]+[.][0-9] s/ in T s/" "$out/run$n.stderr" "$out/run$n.stdout"
    done <<<"$RUNS"
    echo "$n"
}

count=$(run_all "$OLD" "$WORK/old")
run_all "$NEW" "$WORK/new" >/dev/null
if diff -r "$WORK/old" "$WORK/new" >"$WORK/diff.txt"; then
    echo "same-outputs: $count runs, $(find "$WORK/old/files" -type f | wc -l) files: identical"
else
    echo "same-outputs: differences (of $count runs):" >&2
    head -40 "$WORK/diff.txt" >&2
    exit 1
fi
