#!/usr/bin/env bash
# framed against ImageMagick, libvips and Pillow on the same job (issue 6). `make bench` runs it.
#
#   Benchmarks/bench.sh [--bin DIR] [--keep] [--runs N] [--warmup N] [--rss-runs N]
#                       [--quick] [--only NAMES] [--peer-zlib LEVEL] [--no-batch] [--no-vector]
#                       [--no-engines] [--no-svg] [--no-sheets] [--engines-only] [--svg-only]
#                       [--sheets-only]
#
#   --bin DIR         directory holding framed and framed-bench (default: .build/release)
#   --keep            keep the work folder (corpus, every tool's output, hyperfine JSON, results.tsv)
#   --runs N          timed rounds (default 5): each command runs once per round, interleaved
#   --warmup N        untimed runs first (default 2)
#   --rss-runs N      runs under /usr/bin/time for peak RSS (default 3; median)
#   --quick           two pictures only (12 MP JPEG, RGBA PNG), 3 runs, 1 warm-up: a smoke test
#   --only NAMES      these pictures only, comma-separated: jpeg12 jpeg24 jpeg48 prog12 gray12
#                     png-rgba png-16bit heic12 tiff20
#   --no-batch, --no-vector, --no-engines   skip the batch, the SVG and PDF runs, or the engines table
#   --no-svg          skip the SVG-picture row (a diagram, framed against rsvg-convert)
#   --svg-only        that row alone
#   --no-sheets       skip the sheets row (100 12 MP photos ganged on A4 against a PDF each)
#   --sheets-only     that row alone
#   --no-backdrops    skip the backdrops table (--canvas-color auto, a blurred 4K --canvas-image)
#   --backdrops-only  that table alone
#   --no-annotations  skip the callouts table (ten callouts and a redaction on the screenshot)
#   --annotations-only  that table alone
#   --engines-only    the engines table alone (with the pictures it needs, or those of --only)
#   --peer-zlib L     make the peers write PNG at zlib level L too (default: each tool's own default:
#                     IM 7, vips 6, Pillow 6; framed writes level 1 with adaptive filters)
#
# The corpus is generated deterministically into a temporary folder (on /dev/shm when it exists,
# so that no tool waits for a disk). framed-bench makes the pixels (as Netpbm); cjpeg and
# ImageMagick encode them, so the files do not change when framed's own encoders are tuned:
# photo-like JPEGs (gradients, hard edges, noise; cjpeg -quality 90, 4:2:0) of 12, 24 and 48
# megapixels (3:2: 4242x2828, 6000x4000, 8484x5656), the 12 MP one again as progressive and as
# grayscale, a 3000x2000 RGBA screenshot-like PNG (a window with transparent rounded corners and
# a soft alpha shadow), and a 3000x2000 16-bit RGB PNG (the photo pixels made 16-bit and blurred
# by ImageMagick so that the low bytes carry information). PNGs are written with -strip: no
# gAMA/cHRM (no colour conversion) and no time stamps. heic12: a 4032x3024 photo (an iPhone's
# size) as an 8-bit 4:2:0 HEIC by heif-enc (x265 at quality 90, preset ultrafast: the slow default
# takes a minute to encode it); tiff20: a 5472x3648 photo (a 20-megapixel camera's) as an 8-bit
# RGB TIFF by ImageMagick, LZW with the horizontal predictor, in strips. Pillow reads no HEIC and
# is left out of that job.
#
# The reference job: preset classic on a 600x400 frame, white 6px border, #808080 mat, shadow
# 0 0 10px rgba(0,0,0,0.6) (sigma 5px), the picture fitted without enlarging and centred, as an
# 8-bit RGBA PNG at scale 1 (canvas 630x430) and scale 2 (1260x860). The peers do the same job:
#   ImageMagick  /usr/bin/convert: -define jpeg:size (shrink-on-load), -resize WxH> (Lanczos),
#                -extent on the mat colour, -border, ( +clone -shadow 60x5+0+0 ) +swap
#                -layers merge, then -extent to the canvas (IM's shadow reaches only 2 sigma).
#   libvips      Benchmarks/peers/vips_frame.sh: vips thumbnail (shrink-on-load, Lanczos-3),
#                gravity (mat, border), a gaussblur shadow, composite2; one vips process per
#                step (about 40 ms of start-up each) with .v temporaries on tmpfs.
#   Pillow       Benchmarks/peers/pillow_frame.py: Image.draft (shrink-on-load), thumbnail
#                (Lanczos), ImageOps.expand (mat, border), GaussianBlur shadow, alpha composite.
# Each tool's output is checked once per picture and scale: canvas size, 8-bit RGBA, and its mean
# absolute difference to framed's output. A peer that fails the check is left out of the ratios.
#
# Measures (every ratio from figures taken in the same run of this script):
#   wall time   hyperfine -N (no shell): 2 warm-up runs, then 5 rounds in which every command
#               of the job runs once in turn (interleaved, so that load from elsewhere on this
#               noisy 2-core machine hits all tools alike); the median of the 5;
#   peak RSS    /usr/bin/time -f %M, median of 3 runs (a vips pipeline: its largest step);
#   floor       decoding cannot be faster, and framed must write its PNG:
#                 JPEG: djpeg -scale S -outfile /dev/null (S: the DCT scale framed picks,
#                       the smallest of 1/8, 1/4, 3/8, 1/2 with ceil(W*S) >= need_w and
#                       ceil(H*S) >= need_h, else 1/1);
#                 HEIC, TIFF: Benchmarks/library_decode.c, built here: libheif decoding the
#                       primary image to its decoder's own planes (no RGB conversion), libtiff
#                       decoding every strip (TIFFReadEncodedStrip, nothing converted);
#                 PNG:  `framed-bench decode IN 1 0`: a process that reads the file and decodes it
#                       to RGBA8 as framed does (its own reader on two cores where it can, else
#                       libpng), nothing else. PNG has no
#                       shrink-on-load, so a full decode is the least any tool must do; ImageMagick
#                       or vips would add their own start-up (40 ms for vips) and Python 20-30 ms,
#                       and no pngtopam is installed.
#               plus framed's own PNG encode of its output, timed in-process (framed-bench encode:
#               PictureEncoder.png, the encoder framed's PNG backend calls; median of 3 once in
#               each round, the median of those).
#   stages      framed-bench stages: in-process decode at that DCT scale, Lanczos-3 resample to
#               the needed size; the rest of framed's wall time is Cairo drawing, start-up and I/O
#               (framed-bench links FramedRaster only, so Cairo drawing is not timed apart).
#   SVG, PDF    the same command line with .svg / .pdf output, timed in the x1 job's rounds (the
#               ratio to PNG x2, from the x2 job's rounds, is for information).
#   engines     what each of framed's own engines buys: a job of the corpus that leans on it (its
#               picture must be in the run), with every engine on and with that one off
#               (FRAMED_ENGINES=-name; the last row: FRAMED_ENGINES=off), timed in interleaved
#               rounds as above; peak RSS and output size of both. Skipped by a framed without the
#               switch.
#   backdrops   the reference job on jpeg12 at scale 1, alone and with --canvas-color auto, with a
#               blurred 4K --canvas-image (--canvas-blur 20px) that is a wallpaper (framed-bench
#               wallpaper 3840x2160: soft colour blobs on a gradient with a fine grain, cjpeg -quality
#               90, about 1 MB, as desktop wallpapers are) and one that is the corpus's photo-like
#               picture at 4K (3.4 MB: its noise makes every JPEG coefficient count), timed in
#               interleaved rounds; the ratio to the job alone, and the CPU time (user + system).
#   annotations the reference job on png-rgba (the 3000x2000 screenshot) at scale 1 to PNG, SVG
#               and PDF, alone and with ten callouts (two outlines, a line, two arrows, one curved,
#               three badges, a highlighter, a label) and one pixelated region, in interleaved
#               rounds; the ratio to the same format without them, and the CPU time's (user + system).
#   batch       100 pictures with -j 1 and -j 2, only when this framed takes several inputs.
#   sheets      100 photos of 11.8 MP (4240x2774: a 4400x2934 photo from framed-bench, encoded
#               once by cjpeg, cropped losslessly by jpegtran at 100 offsets, so that every
#               picture differs and none is stored twice) as 89 x 127 mm prints with 3 mm bleed
#               and crop marks, preset print: ganged on A4 sheets (--sheet A4 --n-up auto: four
#               a sheet, turned) against framed one by one (a PDF each, an output template),
#               both with -j 2, in interleaved rounds (3, after a warm-up); peak RSS of both.
#               Only when this framed has --sheet.
#   svg diagram an SVG picture (800 boxes, 800 labels, 40 paths) framed to PNG and PDF, against
#               rsvg-convert drawing the same diagram alone, in interleaved rounds; and whether
#               framed's PDF holds any raster image (it must not); peak RSS beside that of
#               Benchmarks/library_draw.c, built here: Debian's shared librsvg drawing the
#               diagram alone, which no program loading that library can go below.
# Targets (issue 6): framed <= 0.5 x the fastest peer (or, where half of it is below the floor,
# <= 1.5 x the floor: issue 21); framed peak RSS <= the smallest peer's; framed <= 1.5 x the floor; SVG and PDF <= 1.3 x PNG; -j 2 >= 1.8 x the throughput of -j 1.
# Issue 31: --canvas-color auto and the blurred 4K wallpaper as --canvas-image each <= 1.2 x the reference job; the
# photo-like 4K canvas image is for information (decoding it at 1/8 is itself most of the job's time).
# Issue 30: sheets <= 1.2 x one by one.
# Issue 35: ten callouts and one redaction <= 1.1 x the same job without them, in PNG, SVG and PDF.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BIN=$ROOT/.build/release
KEEP=0 RUNS=5 WARMUP=2 RSS_RUNS=3 QUICK=0 PEER_ZLIB="" DO_BATCH=1 DO_VECTOR=1 DO_ENGINES=1 DO_JOBS=1 DO_SVG=1 SVG_ONLY=0 ONLY=""
DO_BACKDROPS=1 BACKDROPS_ONLY=0 DO_SHEETS=1 DO_ANNOTATIONS=1 ANNOTATIONS_ONLY=0
while [ $# -gt 0 ]; do
    case $1 in
        --bin) BIN=$2; shift ;;
        --keep) KEEP=1 ;;
        --runs) RUNS=$2; shift ;;
        --warmup) WARMUP=$2; shift ;;
        --rss-runs) RSS_RUNS=$2; shift ;;
        --quick) QUICK=1; RUNS=3; WARMUP=1 ;;
        --peer-zlib) PEER_ZLIB=$2; shift ;;
        --no-batch) DO_BATCH=0 ;;
        --no-vector) DO_VECTOR=0 ;;
        --no-engines) DO_ENGINES=0 ;;
        --no-svg) DO_SVG=0 ;;
        --no-sheets) DO_SHEETS=0 ;;
        --engines-only) DO_JOBS=0 DO_BATCH=0 DO_SVG=0 DO_ENGINES=1 DO_BACKDROPS=0 DO_SHEETS=0 DO_ANNOTATIONS=0 ;;
        --svg-only) DO_JOBS=0 DO_BATCH=0 DO_ENGINES=0 DO_SVG=1 SVG_ONLY=1 DO_BACKDROPS=0 DO_SHEETS=0 DO_ANNOTATIONS=0 ;;
        --no-backdrops) DO_BACKDROPS=0 ;;
        --backdrops-only) DO_JOBS=0 DO_BATCH=0 DO_ENGINES=0 DO_SVG=0 DO_BACKDROPS=1 BACKDROPS_ONLY=1 DO_SHEETS=0 DO_ANNOTATIONS=0 ;;
        --sheets-only) DO_JOBS=0 DO_BATCH=0 DO_ENGINES=0 DO_SVG=0 DO_BACKDROPS=0 DO_SHEETS=1 SVG_ONLY=1 DO_ANNOTATIONS=0 ;;
        --no-annotations) DO_ANNOTATIONS=0 ;;
        --annotations-only) DO_JOBS=0 DO_BATCH=0 DO_ENGINES=0 DO_SVG=0 DO_BACKDROPS=0 DO_SHEETS=0 DO_ANNOTATIONS=1 ANNOTATIONS_ONLY=1 ;;
        --only) ONLY=$2; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
BIN=$(cd "$BIN" && pwd)
FRAMED=$BIN/framed FBENCH=$BIN/framed-bench
PY=/usr/bin/python3                 # Debian's python3 with python3-pil (not a pyenv one)
CONVERT=/usr/bin/convert COMPARE=/usr/bin/compare
HELPER="$PY $HERE/bench_helper.py"

missing=""
for tool in "$FRAMED" "$FBENCH" "$CONVERT" "$COMPARE" "$PY" /usr/bin/time; do [ -x "$tool" ] || missing="$missing $tool"; done
for tool in hyperfine djpeg cjpeg jpegtran vips bc heif-enc cc; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
"$PY" -c 'import PIL' 2>/dev/null || missing="$missing python3-pil"
if [ -n "$missing" ]; then
    echo "bench.sh: missing:$missing (make bench installs them and builds framed as make build does)" >&2
    exit 2
fi

START=$(date +%s.%N)
LOAD_START=$(cut -d ' ' -f 1-3 /proc/loadavg)
elapsed() { printf '%.0f' "$(echo "$(date +%s.%N) - $START" | bc)"; }
if [ -d /dev/shm ] && [ -w /dev/shm ]; then WORK=$(mktemp -d /dev/shm/framed-bench.XXXXXX); else WORK=$(mktemp -d); fi
cleanup() { if [ "$KEEP" = 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
CORPUS=$WORK/corpus OUT=$WORK/out JSON=$WORK/json VT=$WORK/vips-tmp
mkdir -p "$CORPUS" "$OUT" "$JSON" "$VT"
RESULTS=$WORK/results.tsv
: > "$RESULTS"
record() { local IFS=$'\t'; echo "$*" >> "$RESULTS"; }
q() { printf "'%s'" "${1//\'/\'\\\'\'}"; }     # single-quoted: the same words for bash eval and hyperfine -N
log() { printf '[%4ss] %s\n' "$(elapsed)" "$*"; }
# hyperfine, quiet (its outlier warnings are expected on a busy 2-core machine). When a command
# fails, each one is run again to show which and why, and the measurement is retried once (a
# binary rebuilt under our feet, a full /tmp); a second failure stops the benchmark.
bench() {
    local attempt
    for attempt in 1 2; do
        hyperfine -N --style none "$@" > "$WORK/hyperfine.log" 2>&1 && return 0
        echo "hyperfine failed (attempt $attempt): $(tail -n 1 "$WORK/hyperfine.log")" >&2
        local args=("$@") i
        for ((i = 0; i < ${#args[@]}; i++)); do
            if [ "${args[$i]}" = -n ]; then
                eval "${args[$((i + 2))]}" > "$WORK/diagnose.log" 2>&1 ||
                    echo "  ${args[$((i + 1))]} exits $?: ${args[$((i + 2))]}: $(head -c 400 "$WORK/diagnose.log")" >&2
                i=$((i + 2))
            fi
        done
    done
    exit 1
}
# Interleaved measurement: ROUNDS hyperfine runs of every command in turn (the first after
# WARMUP warm-up runs of each), so that a burst of load from elsewhere hits all tools alike
# rather than the one that happened to be running. Prints the median per command, in order.
ROUND_HOOK=""      # a command run once per round too (framed's in-process PNG encode)
measure() { # rounds warmup json-prefix, then hyperfine arguments (-n NAME COMMAND ...)
    local rounds=$1 warmup=$2 prefix=$3 r
    shift 3
    rm -f "$prefix".*.json
    for ((r = 0; r < rounds; r++)); do
        bench --warmup "$([ $r = 0 ] && echo "$warmup" || echo 0)" --runs 1 --export-json "$prefix.$r.json" "$@"
        if [ -n "$ROUND_HOOK" ]; then eval "$ROUND_HOOK"; fi
    done
    $HELPER medians "$prefix".*.json
}

# ---------------------------------------------------------------------------------------------
# Corpus: name, kind (for the vips recipe), width, height, how to make it.
NAMES=(jpeg12 jpeg24 jpeg48 prog12 gray12 png-rgba png-16bit heic12 tiff20)
declare -A KIND=([jpeg12]=rgb [jpeg24]=rgb [jpeg48]=rgb [prog12]=rgb [gray12]=gray [png-rgba]=rgba [png-16bit]=rgb16
                 [heic12]=rgb [tiff20]=rgb)
declare -A FILE=([jpeg12]=jpeg12.jpg [jpeg24]=jpeg24.jpg [jpeg48]=jpeg48.jpg [prog12]=prog12.jpg
                 [gray12]=gray12.jpg [png-rgba]=screenshot.png [png-16bit]=photo16.png [heic12]=photo12.heic
                 [tiff20]=photo20.tif)
# The peers that read each picture, where not all do (Pillow 9.4 reads no HEIC).
declare -A PEERS=([heic12]="IM vips")
[ "$QUICK" = 1 ] && NAMES=(jpeg12 png-rgba)
[ "$DO_JOBS" = 0 ] && NAMES=(jpeg12 jpeg24 prog12 png-rgba png-16bit)   # the engines table's
[ "$SVG_ONLY" = 1 ] && NAMES=()
[ "$BACKDROPS_ONLY" = 1 ] && NAMES=(jpeg12)
[ "$ANNOTATIONS_ONLY" = 1 ] && NAMES=(png-rgba)
if [ -n "$ONLY" ]; then
    IFS=, read -r -a NAMES <<< "$ONLY"
    for name in "${NAMES[@]}"; do
        [ -n "${FILE[$name]:-}" ] || { echo "bench.sh: --only: unknown picture $name (jpeg12 jpeg24 jpeg48 prog12 gray12 png-rgba png-16bit heic12 tiff20)" >&2; exit 2; }
    done
fi

# The HEIC and TIFF floor: the libraries' own decode (Benchmarks/library_decode.c).
LIBDECODE=$WORK/library_decode
cc -O2 -o "$LIBDECODE" "$HERE/library_decode.c" -lheif -ltiff || { echo "bench.sh: cannot build library_decode.c" >&2; exit 1; }
# The SVG diagram's memory floor: Debian's shared librsvg drawing it alone (Benchmarks/library_draw.c).
LIBDRAW=$WORK/library_draw
# shellcheck disable=SC2046
cc -O2 -o "$LIBDRAW" "$HERE/library_draw.c" $(pkg-config --cflags --libs librsvg-2.0 cairo-pdf) \
    || { echo "bench.sh: cannot build library_draw.c" >&2; exit 1; }

log "corpus into $CORPUS"
# Pixels come from framed-bench as Netpbm; cjpeg and ImageMagick encode them, so the corpus does
# not change when framed's own encoders are tuned.
make_picture() {
    local ppm=$CORPUS/$1.ppm
    case $1 in
        jpeg12|prog12|gray12) "$FBENCH" jpeg 4242 2828 "$ppm" ;;
        jpeg24) "$FBENCH" jpeg 6000 4000 "$ppm" ;;
        jpeg48) "$FBENCH" jpeg 8484 5656 "$ppm" ;;
        heic12) "$FBENCH" jpeg 4032 3024 "$ppm" ;;
        tiff20) "$FBENCH" jpeg 5472 3648 "$ppm" ;;
    esac
    case $1 in
        jpeg12|jpeg24|jpeg48) cjpeg -quality 90 -outfile "$CORPUS/${FILE[$1]}" "$ppm" ;;
        prog12) cjpeg -quality 90 -progressive -outfile "$CORPUS/${FILE[$1]}" "$ppm" ;;
        gray12) cjpeg -quality 90 -grayscale -outfile "$CORPUS/${FILE[$1]}" "$ppm" ;;
        png-rgba) "$FBENCH" screenshot 3000 2000 "$CORPUS/screenshot.pam" &&
                  "$CONVERT" "$CORPUS/screenshot.pam" -strip -define png:compression-level=6 \
                      -define png:compression-filter=5 PNG32:"$CORPUS/screenshot.png" &&
                  rm "$CORPUS/screenshot.pam" ;;
        png-16bit) "$FBENCH" png 3000 2000 "$ppm" &&
                   "$CONVERT" "$ppm" -depth 16 -blur 0x0.8 -strip -define png:compression-level=6 \
                       -define png:compression-filter=5 PNG48:"$CORPUS/photo16.png" ;;
        heic12) "$CONVERT" "$ppm" -strip PNG24:"$CORPUS/photo12.png" &&
                heif-enc -q 90 -p preset=ultrafast -o "$CORPUS/photo12.heic" "$CORPUS/photo12.png" >/dev/null &&
                rm "$CORPUS/photo12.png" ;;
        tiff20) "$CONVERT" "$ppm" -strip -compress lzw -define tiff:predictor=2 "$CORPUS/photo20.tif" ;;
    esac
    rm -f "$ppm"
}
pids=()
for name in "${NAMES[@]}"; do
    make_picture "$name" & pids+=($!)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
declare -A WIDTH HEIGHT
for name in "${NAMES[@]}"; do
    f=$CORPUS/${FILE[$name]}
    case $f in
        *.png) read -r w h _ _ < <($HELPER pnginfo "$f") ;;
        *) read -r w h < <("$CONVERT" -ping "$f" -format '%w %h\n' info:) ;;
    esac
    WIDTH[$name]=$w HEIGHT[$name]=$h
    log "  $name: ${w}x${h}, $(( $(stat -c %s "$f") / 1024 )) KB"
done

# ---------------------------------------------------------------------------------------------
# The reference job, per tool. Each prints a command line (single-quoted words) that bash eval
# and hyperfine -N split alike.
SHADOW='0 0 10px rgba(0,0,0,0.6)'
# Builds that refuse to replace an existing output need --overwrite (every timed run rewrites it).
FRAMED_HELP=$("$FRAMED" --help 2>&1 || true)
FRAMED_FLAGS=""
case $FRAMED_HELP in *--overwrite*) FRAMED_FLAGS=" --overwrite" ;; esac
cmd_framed() { # in out scale
    local extra=""; [ "$3" != 1 ] && extra=" --scale $3"
    echo "$(q "$FRAMED") $(q "$1") -o $(q "$2") --size 600x400 --border 6 --border-color white --background '#808080' --shadow $(q "$SHADOW")$extra$FRAMED_FLAGS"
}
cmd_im() { # in out scale need_w need_h
    local s=$3 zlib=""
    [ -n "$PEER_ZLIB" ] && zlib=" -define png:compression-level=$PEER_ZLIB"
    echo "$CONVERT -define jpeg:size=$4x$5 $(q "$1") -resize $((588 * s))x$((388 * s))'>' -background '#808080' -gravity center -extent $((588 * s))x$((388 * s)) -bordercolor white -border $((6 * s)) '(' +clone -background black -shadow 60x$((5 * s))+0+0 ')' +swap -background none -layers merge +repage -gravity center -extent $((630 * s))x$((430 * s))$zlib PNG32:$(q "$2")"
}
cmd_vips() { # in out scale kind
    echo "bash $(q "$HERE/peers/vips_frame.sh") $(q "$1") $(q "$2") $3 $4 $(q "$VT") $PEER_ZLIB"
}
cmd_pillow() { # in out scale
    echo "$PY $(q "$HERE/peers/pillow_frame.py") $(q "$1") $(q "$2") $3 $PEER_ZLIB"
}
cmd_floor() { # in scale (N/8 in lowest terms)
    case $1 in
        *.jpg) echo "djpeg -scale $2 -outfile /dev/null $(q "$1")" ;;
        *.heic) echo "$(q "$LIBDECODE") heic $(q "$1")" ;;
        *.tif) echo "$(q "$LIBDECODE") tiff $(q "$1")" ;;
        *) echo "$(q "$FBENCH") decode $(q "$1") 1 0" ;;
    esac
}

median_rss() { # command: median peak RSS in KB over RSS_RUNS runs
    local values=() i
    for ((i = 0; i < RSS_RUNS; i++)); do
        eval "/usr/bin/time -f %M -o $(q "$WORK/rss") $1" >/dev/null 2>&1
        values+=("$(tail -n 1 "$WORK/rss")")
    done
    printf '%s\n' "${values[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

TOOLS=(framed IM vips Pillow)
SCALES=(1 2)
record meta rss_runs "$RSS_RUNS"
record meta runs "$RUNS"
record meta warmup "$WARMUP"
job_count=$(( ${#NAMES[@]} * ${#SCALES[@]} )) job_index=0
JOB_NAMES=("${NAMES[@]}")
[ "$DO_JOBS" = 1 ] || JOB_NAMES=()
for name in "${JOB_NAMES[@]}"; do
    in=$CORPUS/${FILE[$name]}
    for s in "${SCALES[@]}"; do
        job_index=$((job_index + 1))
        read -r nw nh dct_scale < <($HELPER need "${WIDTH[$name]}" "${HEIGHT[$name]}" "$s")
        job="$name@$s"
        dct=""; case $in in *.jpg) dct=", DCT scale $dct_scale" ;; esac
        log "job $job_index/$job_count: $name x$s (picture ${nw}x${nh}$dct)"
        declare -A CMD=(
            [framed]=$(cmd_framed "$in" "$OUT/$name-x$s-framed.png" "$s")
            [IM]=$(cmd_im "$in" "$OUT/$name-x$s-IM.png" "$s" "$nw" "$nh")
            [vips]=$(cmd_vips "$in" "$OUT/$name-x$s-vips.png" "$s" "${KIND[$name]}")
            [Pillow]=$(cmd_pillow "$in" "$OUT/$name-x$s-Pillow.png" "$s")
            [floor]=$(cmd_floor "$in" "$dct_scale")
        )
        # Check each tool once: it runs, and writes the canvas size as 8-bit RGBA.
        expect="$((630 * s))x$((430 * s))"
        declare -A OK=() RAN=([floor]=1)
        for tool in "${TOOLS[@]}"; do
            if [ "$tool" != framed ] && [ -n "${PEERS[$name]:-}" ] && [[ " ${PEERS[$name]} " != *" $tool "* ]]; then
                record canvas "$job:$tool" "n/a" "-" "-" "-" "-"
                OK[$tool]=0 RAN[$tool]=0; continue
            fi
            png=$OUT/$name-x$s-$tool.png
            if ! eval "${CMD[$tool]}" > "$WORK/check.log" 2>&1; then
                log "  $tool failed: $(head -c 300 "$WORK/check.log")"
                record canvas "$job:$tool" "failed" "-" "-" "-" "-"
                OK[$tool]=0 RAN[$tool]=0; continue
            fi
            read -r w h depth colour < <($HELPER pnginfo "$png")
            mae="-"
            if [ "$tool" != framed ] && [ "$w" = "$((630 * s))" ] && [ "$h" = "$((430 * s))" ]; then
                raw=$("$COMPARE" -metric MAE "$OUT/$name-x$s-framed.png" "$png" null: 2>&1 || true)
                mae=$(echo "$raw" | sed -n 's/.*(\([0-9.e+-]*\)).*/\1/p')
                [ -n "$mae" ] && mae=$(printf '%.2f' "$(echo "$mae * 255" | sed 's/e/*10^/' | bc -l)")
            fi
            status=ok
            [ "${w}x${h}" = "$expect" ] || status="size ${w}x${h}, expected $expect"
            [ "$depth/$colour" = "8/6" ] || status="$status; not 8-bit RGBA (depth $depth, colour type $colour)"
            [ "$status" = ok ] || log "  $tool: $status"
            record canvas "$job:$tool" "$status" "${w}x${h}" "$depth-bit type $colour" "$(stat -c %s "$png")" "$mae"
            OK[$tool]=$([ "$status" = ok ] && echo 1 || echo 0) RAN[$tool]=1
            [ "$tool" = framed ] && [ "$status" != ok ] && log "  WARNING: framed's own output fails the check"
        done
        eval "${CMD[floor]}" >/dev/null 2>&1 || { log "  floor command failed: ${CMD[floor]}"; RAN[floor]=0; }
        # The same job (the same command line) written as SVG and PDF, timed with the PNG job at x1.
        vector=()
        if [ "$DO_VECTOR" = 1 ] && [ "$s" = 1 ]; then
            vector=(svg pdf)
            for v in "${vector[@]}"; do
                CMD[$v]=$(cmd_framed "$in" "$OUT/$name.$v" 1)
                if eval "${CMD[$v]}" >/dev/null 2>&1; then RAN[$v]=1; else RAN[$v]=0; log "  framed could not write $v"; fi
            done
        fi

        # Wall times: interleaved hyperfine runs of every tool that ran, the floor's decode (and
        # framed's SVG and PDF at x1).
        args=() names=()
        for tool in "${TOOLS[@]}" floor "${vector[@]}"; do
            [ "${RAN[$tool]}" = 1 ] && { args+=(-n "$tool" "${CMD[$tool]}"); names+=("$tool"); }
        done
        # framed's PNG encode of its own output (in-process, median of 3) once per round as well.
        : > "$WORK/encode.txt"
        ROUND_HOOK="$(q "$FBENCH") encode $(q "$OUT/$name-x$s-framed.png") 3 >> $(q "$WORK/encode.txt")"
        measure "$RUNS" "$WARMUP" "$JSON/$job" "${args[@]}" > "$WORK/medians"
        ROUND_HOOK=""
        read -r -a meds < "$WORK/medians"
        read -r -a cpus < <($HELPER cpu "$JSON/$job".*.json)
        encode=$(sed -n 's/.*encode_s=\([0-9.]*\).*/\1/p' "$WORK/encode.txt" | sort -n |
                 awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
        record encode "$job" "$encode"
        declare -A MED=() CPU=()
        for i in "${!names[@]}"; do MED[${names[$i]}]=${meds[$i]} CPU[${names[$i]}]=${cpus[$i]}; done
        record cpu "$job" "${CPU[framed]:--}" "${CPU[IM]:--}" "${CPU[vips]:--}" "${CPU[Pillow]:--}"
        record time "$job" "${MED[framed]:--}" "${MED[IM]:--}" "${MED[vips]:--}" "${MED[Pillow]:--}" "${MED[floor]:--}"
        if [ ${#vector[@]} -gt 0 ]; then
            record vector "$name" "${MED[svg]:--}" "${MED[pdf]:--}"
            record vectorsize "$name" "$(( $(stat -c %s "$OUT/$name.svg" 2>/dev/null || echo 0) / 1024 ))" \
                "$(( $(stat -c %s "$OUT/$name.pdf" 2>/dev/null || echo 0) / 1024 ))"
        fi
        for tool in "${TOOLS[@]}"; do [ "${OK[$tool]}" = 1 ] || MED[$tool]=""; done

        # Peak RSS.
        rss=()
        for tool in "${TOOLS[@]}"; do
            if [ -n "${MED[$tool]:-}" ]; then rss+=("$(median_rss "${CMD[$tool]}")"); else rss+=("-"); fi
        done
        record rss "$job" "${rss[@]}"

        # framed's decode and resample stages, in-process.
        read -r stage_line < <("$FBENCH" stages "$in" "$nw" "$nh" "$RUNS")
        field() { echo "$stage_line" | sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
        record stages "$job" "$(field scale)" "$(field decoded)" "$(field decode_s)" "$(field resample_s)"
        log "  framed ${MED[framed]:--} s, IM ${MED[IM]:--}, vips ${MED[vips]:--}, Pillow ${MED[Pillow]:--}, floor decode ${MED[floor]:--}${MED[svg]:+, SVG ${MED[svg]}}${MED[pdf]:+, PDF ${MED[pdf]}}; RSS KB ${rss[*]}"
        unset CMD OK RAN MED CPU
    done
done

# ---------------------------------------------------------------------------------------------
# What each engine buys: "engine picture output [extra options]" (the reference job's command
# line, at scale 1), timed with every engine on and with that engine off.
ENGINE_JOBS=(
    "jpegreduced jpeg24 png"                  # decoded at 1/8: entropy decoding on two cores
    "jpegscans prog12 png --size 300x200"     # a thumbnail decodes at 1/8: luma's AC scans unread
    "jpegsplit prog12 png"                    # decoded at 1/4: chroma beside luma
    "jpegparts jpeg24 pdf"                    # the PDF's 1819x1213 JPEG encoded in two parts
    "pngdata png-16bit png"                   # 3000x2000 16-bit PNG read on two cores
    "fastdeflate png-rgba pdf"                # the PDF's flat 1819x1213 picture deflated
    "avx2rows png-rgba pdf"                   # 3000x2000 resampled to 1819x1213
    "off jpeg12 png"                          # every engine off: the reference job
)
if [ "$DO_ENGINES" = 1 ]; then
    probe=$(printf '%s\n' "${NAMES[@]}" | head -n 1)
    if ! FRAMED_ENGINES=-probe "$FRAMED" "$CORPUS/${FILE[$probe]}" -o "$OUT/engine-probe.png"$FRAMED_FLAGS 2>&1 |
            grep -q FRAMED_ENGINES; then
        record engine unsupported "this framed has no FRAMED_ENGINES"
        log "engines: this framed has no FRAMED_ENGINES switch"
    else
        for row in "${ENGINE_JOBS[@]}"; do
            read -r engine name ext extra <<< "$row"
            [ -n "${WIDTH[$name]:-}" ] || continue
            in=$CORPUS/${FILE[$name]}
            off=$([ "$engine" = off ] && echo off || echo "-$engine")
            job="$name $ext${extra:+ $extra}"
            log "engine $engine: $job"
            base_on=$(cmd_framed "$in" "$OUT/engine-$engine-on.$ext" 1) base_off=$(cmd_framed "$in" "$OUT/engine-$engine-off.$ext" 1)
            on="env FRAMED_ENGINES=on $base_on${extra:+ $extra}" offcmd="env FRAMED_ENGINES=$off $base_off${extra:+ $extra}"
            if ! eval "$on" >/dev/null 2>&1 || ! eval "$offcmd" >/dev/null 2>&1; then
                log "  framed failed"; continue
            fi
            measure "$RUNS" "$WARMUP" "$JSON/engine-$engine" -n on "$on" -n off "$offcmd" > "$WORK/medians"
            read -r t_on t_off < "$WORK/medians"
            record engine "$engine" "$job" "$t_on" "$t_off" "$(median_rss "$on")" "$(median_rss "$offcmd")" \
                "$(stat -c %s "$OUT/engine-$engine-on.$ext")" "$(stat -c %s "$OUT/engine-$engine-off.$ext")"
        done
    fi
fi

# ---------------------------------------------------------------------------------------------
# Backdrops: what --canvas-color auto and a blurred 4K --canvas-image add to the reference job.
if [ "$DO_BACKDROPS" = 1 ] && [ -n "${WIDTH[jpeg12]:-}" ]; then
    case $FRAMED_HELP in
        *--canvas-image*)
            log "backdrops: jpeg12 x1, with --canvas-color auto and a blurred 4K --canvas-image"
            "$FBENCH" wallpaper 3840 2160 "$CORPUS/wallpaper4k.ppm" &&
                cjpeg -quality 90 -outfile "$CORPUS/wallpaper4k.jpg" "$CORPUS/wallpaper4k.ppm" && rm "$CORPUS/wallpaper4k.ppm"
            "$FBENCH" jpeg 3840 2160 "$CORPUS/photo4k.ppm" &&
                cjpeg -quality 90 -outfile "$CORPUS/photo4k.jpg" "$CORPUS/photo4k.ppm" && rm "$CORPUS/photo4k.ppm"
            in=$CORPUS/${FILE[jpeg12]}
            plain=$(cmd_framed "$in" "$OUT/backdrop-plain.png" 1)
            auto="$(cmd_framed "$in" "$OUT/backdrop-auto.png" 1) --canvas-color auto"
            wall="$(cmd_framed "$in" "$OUT/backdrop-wallpaper.png" 1) --canvas-image $(q "$CORPUS/wallpaper4k.jpg") --canvas-blur 20px"
            photo="$(cmd_framed "$in" "$OUT/backdrop-photo.png" 1) --canvas-image $(q "$CORPUS/photo4k.jpg") --canvas-blur 20px"
            ok=1
            for c in "$plain" "$auto" "$wall" "$photo"; do eval "$c" >/dev/null 2>&1 || ok=0; done
            if [ "$ok" = 1 ]; then
                measure "$RUNS" "$WARMUP" "$JSON/backdrops" -n plain "$plain" -n auto "$auto" -n wallpaper "$wall" \
                    -n photo "$photo" > "$WORK/medians"
                read -r t_plain t_auto t_wall t_photo < "$WORK/medians"
                read -r c_plain c_auto c_wall c_photo < <($HELPER cpu "$JSON"/backdrops.*.json)
                record backdrop result "$t_plain" "$t_auto" "$t_wall" "$t_photo" "$c_plain" "$c_auto" "$c_wall" "$c_photo" \
                    "$(stat -c %s "$CORPUS/wallpaper4k.jpg")" "$(stat -c %s "$CORPUS/photo4k.jpg")"
            else
                record backdrop failed "framed could not make a backdrop"
            fi ;;
        *) record backdrop failed "this framed has no --canvas-image" ;;
    esac
fi

# ---------------------------------------------------------------------------------------------
# Annotations: what ten callouts and one redaction add to the reference job on the screenshot.
if [ "$DO_ANNOTATIONS" = 1 ] && [ -n "${WIDTH[png-rgba]:-}" ]; then
    case $FRAMED_HELP in
        *--annotate*)
            log "annotations: png-rgba x1, ten callouts and a pixelated region, to PNG, SVG and PDF"
            # In the 3000x2000 picture's pixels.
            CALLOUTS='rect 200,150 600x300 radius=8px; ellipse 1000,200 400x200; line 100,1800 -> 900,1800;'
            CALLOUTS+=' arrow 1500,1200 -> 1100,800; arrow 2500,1500 -> 2000,1000 via=2500,1000; badge 1 150,150;'
            CALLOUTS+=' badge 2 1050,150; badge 3 1950,150; highlight 400,900 800x60; label "Settings" 2400,400 -> 2200,600;'
            CALLOUTS+=' pixelate 300,1300 900x90'
            # The same ten with no text: discs and a box where the badges and the label are, so
            # that the table also shows what the text (Pango's set-up, once per process) costs.
            SHAPES='rect 200,150 600x300 radius=8px; ellipse 1000,200 400x200; line 100,1800 -> 900,1800;'
            SHAPES+=' arrow 1500,1200 -> 1100,800; arrow 2500,1500 -> 2000,1000 via=2500,1000; ellipse 130,130 40x40;'
            SHAPES+=' ellipse 1030,130 40x40; ellipse 1930,130 40x40; highlight 400,900 800x60; rect 2300,360 200x80;'
            SHAPES+=' pixelate 300,1300 900x90'
            in=$CORPUS/${FILE[png-rgba]}
            args=() ok=1
            for ext in png svg pdf; do
                plain=$(cmd_framed "$in" "$OUT/annotations-plain.$ext" 1)
                annotated="$(cmd_framed "$in" "$OUT/annotations.$ext" 1) --annotate $(q "$CALLOUTS")"
                shapes="$(cmd_framed "$in" "$OUT/annotations-shapes.$ext" 1) --annotate $(q "$SHAPES")"
                eval "$plain" >/dev/null 2>&1 && eval "$annotated" >/dev/null 2>&1 && eval "$shapes" >/dev/null 2>&1 || ok=0
                args+=(-n "$ext" "$plain" -n "$ext-annotated" "$annotated" -n "$ext-shapes" "$shapes")
            done
            if [ "$ok" = 1 ]; then
                measure "$RUNS" "$WARMUP" "$JSON/annotations" "${args[@]}" > "$WORK/medians"
                read -r -a t < "$WORK/medians"
                read -r -a c < <($HELPER cpu "$JSON"/annotations.*.json)
                record annotation result "${t[@]}" "${c[@]}"
            else
                record annotation failed "framed could not draw the callouts"
            fi ;;
        *) record annotation failed "this framed has no --annotate" ;;
    esac
fi

# ---------------------------------------------------------------------------------------------
# Batch: 100 pictures with -j 1 and -j 2, if this framed takes several inputs.
if [ "$DO_BATCH" = 1 ]; then
    BATCH=$WORK/batch BOUT=$WORK/batch-out
    mkdir -p "$BATCH"
    # Does it take two inputs? Try an output template, then an output folder.
    "$FBENCH" jpeg 300 200 "$BATCH/probe-a.jpg" && "$FBENCH" jpeg 320 200 "$BATCH/probe-b.jpg"
    mode="" reason=""
    for form in template folder; do
        rm -rf "$BOUT"; mkdir -p "$BOUT"
        if [ $form = template ]; then target="$BOUT/{stem}.png"; extra=(); else target="$BOUT/"; extra=(--format png); fi
        if "$FRAMED" "$BATCH/probe-a.jpg" "$BATCH/probe-b.jpg" -o "$target" "${extra[@]}" -j 1 \
                > "$WORK/batch.log" 2>&1 && [ "$(find "$BOUT" -type f | wc -l)" = 2 ]; then
            mode=$form; break
        fi
        reason=$(head -n 1 "$WORK/batch.log")
    done
    rm -f "$BATCH"/probe-*.jpg
    if [ -z "$mode" ]; then
        record batch result unsupported "${reason:-no outputs}"
        log "batch: not supported by this build"
    else
        count=100
        [ "$QUICK" = 1 ] && count=20
        log "batch: $count pictures ($mode output)"
        # 100 different photo-like 1.7-megapixel JPEGs (1600x1067 and a little larger).
        seq 0 $((count - 1)) | xargs -P 2 -I{} sh -c \
            "$(q "$FBENCH") jpeg \$((1600 + 2 * {})) \$((1067 + {})) $(q "$BATCH")/b\$(printf %03d {}).jpg 90"
        inputs=$(for f in "$BATCH"/b*.jpg; do printf '%s ' "$(q "$f")"; done)
        if [ $mode = template ]; then target=$(q "$BOUT/{stem}.png"); else target="$(q "$BOUT/") --format png"; fi
        quiet=""; case $FRAMED_HELP in *--quiet*) quiet=" --quiet" ;; esac
        job="$inputs-o $target --size 600x400 --border 6 --border-color white --background '#808080' --shadow $(q "$SHADOW")$FRAMED_FLAGS$quiet"
        prepare="bash -c 'rm -rf $BOUT && mkdir -p $BOUT'"      # framed may refuse to overwrite
        rm -rf "$BOUT"; mkdir -p "$BOUT"
        eval "$(q "$FRAMED") $job -j 2" >/dev/null 2>&1 || true
        produced=$(find "$BOUT" -type f | wc -l)
        if [ "$produced" != "$count" ]; then
            record batch result failed "-j 2 wrote $produced of $count outputs"
            log "batch: -j 2 wrote $produced of $count outputs"
        else
            # A control in the same rounds: what two workers of plain djpeg gain on this machine
            # right now (if they gain little, the machine is shared and -j 2 cannot show more).
            control() { echo "bash -c $(q "ls $(q "$BATCH")/b*.jpg | xargs -P $1 -n 1 djpeg -scale 1/4 -outfile /dev/null")"; }
            measure 3 1 "$JSON/batch" --prepare "$prepare" \
                -n j1 "$(q "$FRAMED") $job -j 1" -n j2 "$(q "$FRAMED") $job -j 2" \
                -n control1 "$(control 1)" -n control2 "$(control 2)" > "$WORK/medians"
            read -r j1 j2 k1 k2 < "$WORK/medians"
            read -r c1 c2 _ _ < <($HELPER cpu "$JSON"/batch.*.json)
            record batch result "$count" "$j1" "$j2" "1.7 MP JPEGs to PNG, $mode output" "$c1" "$c2" "$k1" "$k2"
        fi
    fi
fi

# ---------------------------------------------------------------------------------------------
# Sheets (issue 30): 100 photos ganged on A4 sheets against a PDF each, both with -j 2.
if [ "$DO_SHEETS" = 1 ] && [[ $FRAMED_HELP == *--sheet* ]]; then
    SHEETS=$WORK/sheets SOUT=$WORK/sheets-out
    mkdir -p "$SHEETS"
    count=100
    [ "$QUICK" = 1 ] && count=10
    log "sheets: $count photos of 11.8 MP, ganged on A4 and one by one"
    "$FBENCH" jpeg 4400 2934 "$SHEETS/source.ppm" && cjpeg -quality 90 -outfile "$SHEETS/source.jpg" "$SHEETS/source.ppm"
    rm -f "$SHEETS/source.ppm"
    # 4240x2774 windows at 16-pixel steps (whole 4:2:0 blocks, so the crops are lossless).
    seq 0 $((count - 1)) | xargs -P 2 -I{} sh -c "jpegtran -copy none -crop 4240x2774+\$(( ({} % 10) * 16 ))+\$(( ({} / 10) * 16 )) \
        -outfile $(q "$SHEETS")/s\$(printf %03d {}).jpg $(q "$SHEETS/source.jpg")"
    rm -f "$SHEETS/source.jpg"
    inputs=$(for f in "$SHEETS"/s*.jpg; do printf '%s ' "$(q "$f")"; done)
    print="--preset print --page 89mmx127mm --bleed 3mm --marks crop --quiet -j 2$FRAMED_FLAGS"
    single="$(q "$FRAMED") $inputs-o $(q "$SOUT/one-{stem}.pdf") $print"
    ganged="$(q "$FRAMED") $inputs-o $(q "$SOUT/sheets.pdf") --sheet A4 --n-up auto $print"
    prepare="bash -c 'rm -rf $SOUT && mkdir -p $SOUT'"
    rm -rf "$SOUT"; mkdir -p "$SOUT"
    if eval "$ganged" > "$WORK/sheets.log" 2>&1 && eval "$single" >> "$WORK/sheets.log" 2>&1 \
            && [ "$(find "$SOUT" -name 'one-*.pdf' | wc -l)" = "$count" ] && [ -s "$SOUT/sheets.pdf" ]; then
        pages=$(eval "$(q "$FRAMED") layout $inputs--sheet A4 --n-up auto $print" | sed -n 's/.*"number": \([0-9]*\).*/\1/p' | sort -n | tail -n 1)
        measure 3 1 "$JSON/sheets" --prepare "$prepare" -n single "$single" -n sheets "$ganged" > "$WORK/medians"
        read -r ts tg < "$WORK/medians"
        rm -rf "$SOUT"; mkdir -p "$SOUT"
        record sheets result "$count" "$ts" "$tg" "${pages:-?}" "$(median_rss "$single -f")" "$(median_rss "$ganged -f")"
    else
        record sheets result failed "$(head -c 300 "$WORK/sheets.log")"
    fi
fi

# ---------------------------------------------------------------------------------------------
# An SVG diagram (issue 21): framed against librsvg's own rsvg-convert on the same drawing, as
# PNG (600x400, scale 1) and as PDF. rsvg-convert draws the diagram alone; framed adds the
# frame, mat and shadow around it: framed's figure includes that work. rsvg-convert is librsvg's
# own drawing, so it is also the floor: the time target is 1.5x it; the memory target is its
# peak RSS (with each tool's --version beside, for the part that is start-up alone). Beside it,
# the memory floor: Benchmarks/library_draw.c, librsvg as Debian ships it (a shared object, as
# framed loads it) drawing the diagram alone; rsvg-convert links librsvg into its own binary.
if [ "$DO_SVG" = 1 ] && command -v rsvg-convert >/dev/null; then
    SVG=$CORPUS/diagram.svg
    # 40 rows of 20 boxes with labels, joined by paths: 800 rects, 800 texts, 40 paths.
    "$PY" - "$SVG" <<'PYEOF'
import sys
parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="160mm" height="100mm" viewBox="0 0 800 500">']
for row in range(40):
    y = 5 + row * 12
    parts.append(f'<path d="M5 {y + 5} ' + ' '.join(f'L{10 + c * 39} {y + 5 + (c % 3)}' for c in range(20))
                 + '" fill="none" stroke="#345" stroke-width="0.6"/>')
    for col in range(20):
        x = 5 + col * 39
        parts.append(f'<rect x="{x}" y="{y}" width="34" height="10" rx="2" fill="hsl({(row * 20 + col) % 360},60%,70%)" stroke="#223"/>')
        parts.append(f'<text x="{x + 3}" y="{y + 8}" font-family="sans-serif" font-size="7">n{row * 20 + col}</text>')
parts.append('</svg>')
open(sys.argv[1], 'w').write('\n'.join(parts))
PYEOF
    log "svg: a diagram of 1640 elements, framed and rsvg-convert, PNG and PDF"
    ROUND_HOOK=""
    job="--size 600x400 --border 6 --border-color white --background '#808080' --shadow $(q "$SHADOW")$FRAMED_FLAGS"
    if eval "$(q "$FRAMED") $(q "$SVG") -o $(q "$OUT/svg-framed.png") $job" >/dev/null 2>&1 \
            && rsvg-convert -w 600 -h 375 -o "$OUT/svg-rsvg.png" "$SVG"; then
        measure "$RUNS" "$WARMUP" "$JSON/svg" \
            -n framed-png "$(q "$FRAMED") $(q "$SVG") -o $(q "$OUT/svg-framed.png") $job" \
            -n rsvg-png "rsvg-convert -w 600 -h 375 -o $(q "$OUT/svg-rsvg.png") $(q "$SVG")" \
            -n framed-pdf "$(q "$FRAMED") $(q "$SVG") -o $(q "$OUT/svg-framed.pdf") $job" \
            -n rsvg-pdf "rsvg-convert -f pdf -o $(q "$OUT/svg-rsvg.pdf") $(q "$SVG")" > "$WORK/medians"
        read -r fp rp fd rd < "$WORK/medians"
        images=$(grep -c '/Subtype */Image' "$OUT/svg-framed.pdf" || true)
        record svg result "$fp" "$rp" "$fd" "$rd" "$images" "$(stat -c %s "$OUT/svg-framed.pdf")" "$(stat -c %s "$OUT/svg-rsvg.pdf")"
        # Peak RSS of the four, of each tool doing nothing (--version), and of each drawing a
        # 10x10 SVG to PNG as above: everything loaded, almost nothing drawn, so that the
        # diagram's own memory is the difference.
        printf '%s\n' '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' \
            '<rect width="10" height="10" fill="#7ab"/><text x="1" y="8" font-size="7">n</text></svg>' > "$CORPUS/tiny.svg"
        record svg rss "$(median_rss "$(q "$FRAMED") $(q "$SVG") -o $(q "$OUT/svg-framed.png") -f $job")" \
            "$(median_rss "rsvg-convert -w 600 -h 375 -o $(q "$OUT/svg-rsvg.png") $(q "$SVG")")" \
            "$(median_rss "$(q "$FRAMED") $(q "$SVG") -o $(q "$OUT/svg-framed.pdf") -f $job")" \
            "$(median_rss "rsvg-convert -f pdf -o $(q "$OUT/svg-rsvg.pdf") $(q "$SVG")")" \
            "$(median_rss "$(q "$FRAMED") --version")" "$(median_rss "rsvg-convert --version")" \
            "$(median_rss "$(q "$FRAMED") $(q "$CORPUS/tiny.svg") -o $(q "$OUT/svg-tiny.png") -f $job")" \
            "$(median_rss "rsvg-convert -w 600 -h 375 -o $(q "$OUT/svg-tiny-rsvg.png") $(q "$CORPUS/tiny.svg")")" \
            "$(median_rss "$(q "$LIBDRAW") png $(q "$SVG") $(q "$OUT/svg-library.png") 600 375")" \
            "$(median_rss "$(q "$LIBDRAW") pdf $(q "$SVG") $(q "$OUT/svg-library.pdf") 453.54 283.46")"
    else
        record svg result failed "framed or rsvg-convert could not draw the diagram"
    fi
fi

# ---------------------------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
record meta machine "$(nproc) cores, $cpu, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), $(uname -sr); work folder on $(df --output=fstype "$WORK" | tail -n 1)"
record meta load "load average at the start $LOAD_START, at the end $(cut -d ' ' -f 1-3 /proc/loadavg)"
record meta versions "framed $("$FRAMED" --version 2>&1 | head -n 1 | sed 's/^framed //'); $("$CONVERT" -version | sed -n 's/^Version: \(ImageMagick [^ ]*\).*/\1/p'); $(vips --version); Pillow $("$PY" -c 'import PIL; print(PIL.__version__)'); $(hyperfine --version); runs $RUNS after $WARMUP warm-up"
$HELPER table "$RESULTS"
echo
echo "elapsed: $(elapsed) s"
