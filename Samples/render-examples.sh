#!/usr/bin/env bash
# Renders the example pictures shown in README.md and docs/examples.md into Samples/examples/.
#
#   Samples/render-examples.sh [path/to/framed]     (default: .build/release/framed)
#
# Each example runs framed on a sample picture. The SVG, PDF and PNG files framed writes go to a
# temporary folder (they are outputs, not sources); what lands in Samples/examples/ is a PNG
# render of each: SVGs rasterised by rsvg-convert (librsvg), PDFs by pdftoppm (poppler), and
# framed's own PNG output copied as it is. Needs librsvg2-bin and poppler-utils.
set -euo pipefail

# The binary is resolved against the caller's folder; everything else against the repository.
framed=${1:-.build/release/framed}
[[ $framed == /* ]] || framed="$PWD/$framed"
cd "$(dirname "$0")/.."
[[ -x $framed ]] || { echo "render-examples: no framed binary at $framed (build it: swift build -c release)" >&2; exit 1; }
for tool in rsvg-convert pdftoppm; do
    command -v "$tool" >/dev/null || { echo "render-examples: $tool is missing (apt-get install librsvg2-bin poppler-utils)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=Samples/examples
mkdir -p "$out"

# Runs framed, first echoing the command (arguments with spaces or # quoted as in the docs).
run() {
    local line="+ framed" a
    for a in "$@"; do
        if [[ $a =~ [^A-Za-z0-9_./:=+-] ]]; then line+=" '$a'"; else line+=" $a"; fi
    done
    echo "$line"
    "$framed" "$@"
}

# 1. The default look (preset classic: white 3px border, soft black shadow), as SVG.
run Samples/landscape.jpg -o "$work/classic.svg"
rsvg-convert --zoom 0.4 -o "$out/classic.png" "$work/classic.svg"

# 2. A print: a PDF of exactly 150 x 100 mm (plus its shadow) with a white mat and a dark border.
run Samples/landscape.jpg -o "$work/print.pdf" --size 150mmx100mm --border 2mm --padding 8mm \
    --background white --border-color '#222' --shadow '0 1mm 4mm rgba(0,0,0,.5)'
pdftoppm -png -singlefile -r 100 "$work/print.pdf" "$out/print"

# 3. A documentation figure: a screenshot with a hairline border, rounded corners and an offset
#    shadow, as a 2x PNG on a transparent canvas.
run Samples/screenshot.png -o "$work/screenshot.png" --size 600x400 --border 1 --border-color '#d0d0d0' \
    --radius 8 --background white --fit contain --shadow '0 4px 16px rgba(0,0,0,.35)' --scale 2
cp "$work/screenshot.png" "$out/screenshot.png"

# 4. A portrait picture cropped to a landscape frame from the top, with three shadows.
run Samples/tiles.png -o "$work/tiles.svg" --fit cover --size 400x300 --position top --border 6 \
    --shadow '0 0 0 1px #c8c8c8, 12px 16px 24px rgba(30,60,200,.45), -8px -6px 20px rgba(255,140,0,.35)'
rsvg-convert -o "$out/tiles.png" "$work/tiles.svg"

# 5. An instant-photo look: a deeper bottom mat, a margin and a coloured canvas, as PDF.
run Samples/landscape.jpg -o "$work/instant.pdf" --width 320 --border 0 --padding '10px 10px 40px' \
    --background '#fbfaf7' --shadow '0 2px 6px rgba(0,0,0,.35), 0 10px 24px -6px rgba(0,0,0,.25)' \
    --margin 24 --canvas-color '#e9e4d8'
pdftoppm -png -singlefile -r 96 "$work/instant.pdf" "$out/instant"

# 6. For a print shop: PDF/X-4 on a 150 x 100 mm page with 3 mm bleed and crop marks; the canvas
#    colour shows where the bleed ends.
run Samples/landscape.jpg -o "$work/shop.pdf" --page 150mmx100mm --bleed 3mm --marks crop --pdf-variant pdf/x-4 \
    --canvas-color '#e9e4d8' --title Landscape
pdftoppm -png -singlefile -r 120 "$work/shop.pdf" "$out/shop"

# 7. A social card: the screenshot with rounded corners and a shadow on a gradient backdrop,
#    grown to 1200x630's ratio, as SVG (the gradient stays vector).
run Samples/screenshot.png -o "$work/card.svg" --width 480 --border 0 --radius 10 \
    --shadow '0 12px 32px rgba(20,10,60,.45)' --margin 40 \
    --canvas-color 'linear-gradient(135deg, #6a11cb, #2575fc)' --aspect 1200x630
rsvg-convert -o "$out/card.png" "$work/card.svg"

# 8. Trimming: the screenshot as if saved with a wide white margin (Samples/margin.png, made by
#    make-samples.py), trimmed back to the window and framed as a figure, as PNG.
run Samples/margin.png -o "$work/trimmed.png" --trim --width 400 --border 1 --border-color '#d0d0d0' \
    --shadow '0 6px 18px rgba(0,0,0,.3)' --margin 16 --canvas-color '#f3f4f6'
cp "$work/trimmed.png" "$out/trimmed.png"

# 9. Window chrome: the landscape under a macOS title bar with a title, rounded by the frame's
#    corners, with a window's shadow on a light backdrop, as SVG (the bar and its buttons stay vector).
run Samples/landscape.jpg -o "$work/chrome.svg" --width 480 --border 0 --radius 10 --chrome macos \
    --chrome-title landscape.jpg \
    --shadow '0 0 0 1px rgba(0,0,0,.12), 0 12px 28px rgba(0,0,0,.3)' --margin 32 --canvas-color '#dfe6ee'
rsvg-convert -o "$out/chrome.png" "$work/chrome.svg"

# 10. A set: the screenshot as a docs figure for light and dark pages, at 1x and 2x, in one run
#    (set.png, set@2x.png, set-dark.png, set-dark@2x.png); docs/examples.md shows the 1x pair.
run Samples/screenshot.png -o "$work/set.png" --preset docs --width 360 --margin 8 --variant light,dark --scale 1,2
cp "$work/set.png" "$out/set.png"
cp "$work/set-dark.png" "$out/set-dark.png"

# 11. A caption in the mat under the picture, as on an instant photo: shaped by Pango, kept as text
#    in the PDF (its font embedded and subset), rasterised by pdftoppm.
run Samples/landscape.jpg -o "$work/caption.pdf" --width 360 --border 0 --padding '16px 16px 10px' \
    --background '#fbfaf7' --shadow '0 4px 14px rgba(0,0,0,.35)' --margin 24 --canvas-color '#e9e4d8' \
    --caption 'Lac d’Annecy at dawn, July 1998' --caption-font 'italic 17px "DejaVu Serif"'
pdftoppm -png -singlefile -r 96 "$work/caption.pdf" "$out/caption"

# 12. Callouts from the file beside the screenshot (Samples/screenshot.annotations.json): three
#    numbered steps, an outline, a highlighter, a curved arrow, and two lines pixelated (in the
#    picture's pixels, before it is embedded), as SVG (the callouts stay vector).
run Samples/screenshot.png -o "$work/callouts.svg" --preset docs --width 560 --margin 16 \
    --annotate Samples/screenshot.annotations.json
rsvg-convert -o "$out/callouts.png" "$work/callouts.svg"

ls -l "$out"
