#!/usr/bin/env python3
"""Makes the sample pictures in this folder, deterministically, with the standard library only.

    python3 Samples/make-samples.py   # needs cjpeg (Debian: libjpeg-turbo-progs) for the JPEG

landscape.jpg  1200x800 photo-like scene (gradients, noise, hard and soft edges), JPEG quality 90
screenshot.png 800x500 RGBA mock application window with rounded, transparent corners
tiles.png      360x540 portrait test card with fine lines (shows resampling quality)
margin.png     980x630 the screenshot on white, as if saved with an empty margin (for --trim)
"""
import math, os, random, struct, subprocess, zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(path, width, height, rows, alpha):
    """rows: list of bytearrays of RGB or RGBA pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def clamp(v):
    return 0 if v < 0 else 255 if v > 255 else int(v)


def landscape(width=1200, height=800):
    rnd = random.Random(7)
    # Ridge lines: sums of sines with seeded phases.
    def ridge(seed, base, amp):
        r = random.Random(seed)
        waves = [(r.uniform(0.5, 3) * (k + 1), r.uniform(0, 6.28), amp / (k + 1)) for k in range(6)]
        return [base + sum(a * math.sin(f * x / width * 6.28 + p) for f, p, a in waves) for x in range(width)]
    far, near = ridge(1, 0.52 * height, 40), ridge(2, 0.66 * height, 55)
    horizon = 0.74 * height
    sun = (0.72 * width, 0.30 * height, 0.06 * height)
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            n = rnd.uniform(-6, 6)
            yy = y if y < horizon else 2 * horizon - y  # mirror for the lake
            t = yy / horizon
            r, g, b = 255 - 120 * t, 170 + 40 * t, 110 + 120 * t  # warm sky to pale blue
            d = math.hypot(x - sun[0], yy - sun[1])
            glow = math.exp(-(d / (4 * sun[2])) ** 2)
            r, g, b = r + 60 * glow, g + 50 * glow, b + 20 * glow
            if d < sun[2]:
                r, g, b = 255, 244, 214
            if yy > far[x]:
                r, g, b = 96 + 20 * math.sin(x / 37.0), 92, 140
            if yy > near[x]:
                k = (yy - near[x]) / height
                r, g, b = 40 + 60 * k + 8 * math.sin(x / 5.0) , 70 + 40 * k, 60
            if y >= horizon:
                ripple = 10 * math.sin(y * 0.9 + x * 0.02)
                r, g, b = 0.75 * r + ripple, 0.8 * g + ripple, 0.9 * b + 25 + ripple
            row += bytes((clamp(r + n), clamp(g + n), clamp(b + n)))
        rows.append(row)
    return rows


def screenshot(width=800, height=500, radius=14):
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            # Rounded window corners with antialiased alpha.
            cx = min(max(x + 0.5, radius), width - radius)
            cy = min(max(y + 0.5, radius), height - radius)
            a = clamp(255 * (radius + 0.5 - math.hypot(x + 0.5 - cx, y + 0.5 - cy)))
            if y < 44:
                r, g, b = 236, 236, 240                    # title bar
                for i, c in enumerate(((255, 95, 87), (254, 188, 46), (40, 200, 64))):
                    if math.hypot(x - (24 + 22 * i), y - 22) < 7:
                        r, g, b = c
            elif x < 200:
                r, g, b = 246, 246, 250                    # sidebar
                if y >= 64 and (y - 64) % 36 < 14 and 24 < x < 24 + 90 + ((y - 64) // 36 * 37) % 60:
                    r, g, b = 200, 200, 212
            else:
                r, g, b = 255, 255, 255                    # content: lines of "text"
                line = (y - 70) // 22
                if 70 <= y < 286 and (y - 70) % 22 < 10 and 232 < x < 232 + 300 + (line * 97) % 220:
                    r, g, b = (60, 60, 70) if line % 5 else (30, 110, 220)
                if 300 <= y < 470 and 232 <= x < 768:
                    t = (x - 232) / 528
                    r, g, b = 40 + 200 * t, 120, 230 - 180 * t   # a chart-like gradient panel
            row += bytes((clamp(r), clamp(g), clamp(b), a))
        rows.append(row)
    return rows


def tiles(width=360, height=540):
    rows = []
    for y in range(height):
        row = bytearray()
        for x in range(width):
            u, v = x - width / 2, y - height / 2
            zone = 127.5 + 127.5 * math.cos((u * u + v * v) / 2400.0)   # zone plate
            if (x // 60 + y // 60) % 2 == 0:
                r, g, b = zone, zone * 0.6 + 40, 255 - zone * 0.8
            else:
                r, g, b = 250 - zone * 0.3, 240 - zone * 0.5, 90
            if x % 60 == 0 or y % 60 == 0:
                r = g = b = 20
            row += bytes((clamp(r), clamp(g), clamp(b)))
        rows.append(row)
    return rows


def margin(window, left=60, top=40, width=980, height=630):
    """The window (RGBA rows) composited over white at (left, top) of a white RGB picture."""
    rows = [bytearray(b"\xff" * (3 * width)) for _ in range(height)]
    for y, source in enumerate(window):
        row = rows[top + y]
        for x in range(len(source) // 4):
            r, g, b, a = source[4 * x:4 * x + 4]
            row[3 * (left + x):3 * (left + x) + 3] = bytes(clamp((c * a + 255 * (255 - a)) / 255 + 0.5) for c in (r, g, b))
    return rows


if __name__ == "__main__":
    ppm = os.path.join(HERE, "landscape.ppm")
    with open(ppm, "wb") as f:
        f.write(b"P6 1200 800 255\n" + b"".join(bytes(r) for r in landscape()))
    with open(os.path.join(HERE, "landscape.jpg"), "wb") as out:
        subprocess.run(["cjpeg", "-quality", "90", "-optimize", ppm], stdout=out, check=True)
    os.remove(ppm)
    window = screenshot()
    write_png(os.path.join(HERE, "screenshot.png"), 800, 500, window, alpha=True)
    write_png(os.path.join(HERE, "margin.png"), 980, 630, margin(window), alpha=False)
    write_png(os.path.join(HERE, "tiles.png"), 360, 540, tiles(), alpha=False)
