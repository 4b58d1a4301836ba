#!/usr/bin/env python3
"""Renders one page of a PDF with PDFium (Chrome's and Edge's PDF viewer), through pypdfium2.

    pdfium-render.py IN.pdf PAGE DPI OUT.png

PAGE counts from 1. The page is drawn on white at DPI / 72 pixels per point; like pypdfium2,
PDFium fits the page to a bitmap whose sides are rounded up to whole pixels, so the scale of
each axis is the bitmap's side over the page's. Writes an 8-bit RGB PNG (zlib from the standard
library; no Pillow needed). The Makefile's test-deps installs pypdfium2 into .build/judges.
"""
import struct
import sys
import zlib

import pypdfium2


def write_png(path, width, height, stride, data):
    rows = b"".join(b"\x00" + bytes(data[y * stride:y * stride + width * 3]) for y in range(height))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        out.write(chunk(b"IDAT", zlib.compress(rows, 6)))
        out.write(chunk(b"IEND", b""))


def main():
    source, page, dpi, target = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    document = pypdfium2.PdfDocument(source)
    bitmap = document[page - 1].render(scale=dpi / 72, rev_byteorder=True)
    if bitmap.n_channels != 3:
        sys.exit("pdfium-render.py: expected an RGB bitmap")
    write_png(target, bitmap.width, bitmap.height, bitmap.stride, bitmap.buffer)


if __name__ == "__main__":
    main()
