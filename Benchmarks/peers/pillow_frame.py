#!/usr/bin/env python3
"""The reference job with Pillow, as a user would script it.

    /usr/bin/python3 pillow_frame.py IN OUT.png SCALE [ZLIB_LEVEL]

Frame 600x400 CSS px (times SCALE): white 6px border, #808080 mat, the picture shrunk to fit the
588x388 content box (never enlarged) and centred, shadow 0 0 10px rgba(0,0,0,0.6) (sigma 5px),
canvas grown by 3 sigma on each side: 630x430 (1260x860 at scale 2), 8-bit RGBA PNG.
"""
import sys

from PIL import Image, ImageFilter, ImageOps

src, dst, scale = sys.argv[1], sys.argv[2], int(sys.argv[3])
level = int(sys.argv[4]) if len(sys.argv) > 4 else None        # None: Pillow's default (6)
box_w, box_h = 588 * scale, 388 * scale
border, sigma, pad = 6 * scale, 5 * scale, 15 * scale
frame_w, frame_h = box_w + 2 * border, box_h + 2 * border

im = Image.open(src)
fit = min(box_w / im.width, box_h / im.height, 1.0)
# Shrink-on-load (JPEG only; a no-op for PNG): libjpeg DCT scaling to the largest 1/8, 1/4, 1/2
# that still leaves at least the pixels needed.
im.draft(None, (max(1, round(im.width * fit)), max(1, round(im.height * fit))))
if im.mode not in ("RGB", "RGBA"):                              # L (grayscale JPEG), I;16, P, LA
    im = im.convert("RGBA" if "A" in im.mode or "transparency" in im.info else "RGB")
im.thumbnail((box_w, box_h), Image.Resampling.LANCZOS)          # fit, never enlarge (RGBA: premultiplied)
if im.mode == "RGBA":                                           # transparent parts show the mat
    im = Image.alpha_composite(Image.new("RGBA", im.size, (128, 128, 128, 255)), im).convert("RGB")

left, top = (box_w - im.width) // 2, (box_h - im.height) // 2
matted = ImageOps.expand(im, border=(left, top, box_w - im.width - left, box_h - im.height - top),
                         fill=(128, 128, 128))
framed = ImageOps.expand(matted, border=border, fill=(255, 255, 255))

alpha = Image.new("L", (frame_w + 2 * pad, frame_h + 2 * pad), 0)
alpha.paste(153, (pad, pad, pad + frame_w, pad + frame_h))      # 0.6 opacity
alpha = alpha.filter(ImageFilter.GaussianBlur(sigma))           # Pillow's radius is the sigma
out = Image.new("RGBA", alpha.size, (0, 0, 0, 0))
out.putalpha(alpha)
out.paste(framed, (pad, pad))
if level is None:
    out.save(dst, "PNG")
else:
    out.save(dst, "PNG", compress_level=level)
