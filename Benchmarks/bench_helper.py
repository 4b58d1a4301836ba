#!/usr/bin/env python3
"""Helper for Benchmarks/bench.sh (standard library only).

    bench_helper.py need W H SCALE          -> "NEED_W NEED_H N/D" (the DCT scale) for the reference job
    bench_helper.py pnginfo FILE            -> "WIDTH HEIGHT BIT_DEPTH COLOR_TYPE" from the IHDR
    bench_helper.py medians JSON...         -> one median (seconds) per hyperfine command, in order,
                                               over the runs of all the files
    bench_helper.py cpu JSON...             -> mean user+system CPU seconds per command, in order
    bench_helper.py table RESULTS.tsv       -> the report tables

RESULTS.tsv holds lines "section<TAB>key<TAB>value..." written by bench.sh.
"""
import json
import statistics
import struct
import sys
from collections import defaultdict

# The reference job at scale 1, in CSS px: frame 600x400, border 6, shadow blur 10px = 2 sigma,
# the canvas grows by 3 sigma = 15px on each side.
FRAME_W, FRAME_H, BORDER, SIGMA = 600, 400, 6, 5


def need(width, height, scale):
    """The picture pixels the job places: scale-down fit into the content box (never enlarged),
    and the JPEG shrink-on-load scale framed picks for it, as "N/D" (Framer.shrinkOnLoadScale:
    the smallest of 1/8, 1/4, 3/8, 1/2 that keeps ceil(W*N/D) >= need_w and ceil(H*N/D) >= need_h,
    else 1/1)."""
    box_w, box_h = (FRAME_W - 2 * BORDER) * scale, (FRAME_H - 2 * BORDER) * scale
    fit = min(box_w / width, box_h / height, 1.0)
    need_w, need_h = max(1, round(width * fit)), max(1, round(height * fit))
    scale = "1/1"
    for n, d in ((1, 8), (1, 4), (3, 8), (1, 2)):
        if -(-width * n // d) >= need_w and -(-height * n // d) >= need_h:
            scale = f"{n}/{d}"
            break
    return need_w, need_h, scale


def pnginfo(path):
    with open(path, "rb") as f:
        head = f.read(33)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise SystemExit(f"{path}: not a PNG")
    width, height, depth, colour = struct.unpack(">IIBB", head[16:26])
    return width, height, depth, colour


def medians(paths):
    """Median per command over the runs in one or more hyperfine JSON files (same commands)."""
    times = []
    for path in paths:
        with open(path) as f:
            for i, result in enumerate(json.load(f)["results"]):
                if i == len(times):
                    times.append([])
                times[i].extend(result["times"])
    return [statistics.median(t) for t in times]


def cpu(paths):
    """Mean user + system CPU seconds per command over the files (hyperfine's per-file means)."""
    sums, counts = [], []
    for path in paths:
        with open(path) as f:
            for i, result in enumerate(json.load(f)["results"]):
                if i == len(sums):
                    sums.append(0.0)
                    counts.append(0)
                sums[i] += (result["user"] + result["system"]) * len(result["times"])
                counts[i] += len(result["times"])
    return [s / c for s, c in zip(sums, counts)]


# ---------------------------------------------------------------------------------------------
# Report

def fmt_s(value):
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_ratio(value):
    return "-" if value is None else f"{value:.2f}"


def fmt_mb(kb):
    return "-" if kb is None else f"{kb / 1024:.0f}"


def verdict(ok):
    return "-" if ok is None else ("PASS" if ok else "MISS")


def print_table(title, header, rows, notes=()):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
              for i, h in enumerate(header)]
    print()
    print(title)
    line = "  ".join(str(h).rjust(w) if i else str(h).ljust(w) for i, (h, w) in enumerate(zip(header, widths)))
    print(line)
    print("-" * len(line))
    for r in rows:
        print("  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    for n in notes:
        print(n)


def table(path):
    data = defaultdict(dict)   # (section, key) -> fields
    order = []
    with open(path) as f:
        for raw in f:
            parts = raw.rstrip("\n").split("\t")
            if len(parts) < 3:
                continue
            section, key, *values = parts
            if (section, key) not in data:
                order.append((section, key))
            data[(section, key)] = values

    def get(section, key, index=0, cast=float):
        values = data.get((section, key))
        if not values or index >= len(values) or values[index] in ("", "-"):
            return None
        return cast(values[index])

    peers = ["IM", "vips", "Pillow"]
    jobs = [key for section, key in order if section == "time"]
    rows = []
    counts = defaultdict(lambda: [0, 0])
    for job in jobs:
        picture, scale = job.split("@")
        t = {tool: get("time", job, i) for i, tool in enumerate(["framed"] + peers + ["floordecode"])}
        rss = {tool: get("rss", job, i) for i, tool in enumerate(["framed"] + peers)}
        encode = get("encode", job)
        canvas_ok = {tool: data.get(("canvas", f"{job}:{tool}"), ["?"])[0] == "ok" for tool in ["framed"] + peers}
        valid_peers = [p for p in peers if t[p] is not None and canvas_ok[p]]
        fastest = min((t[p] for p in valid_peers), default=None)
        smallest = min((rss[p] for p in valid_peers if rss[p] is not None), default=None)
        floor = t["floordecode"] + encode if t["floordecode"] is not None and encode is not None else None
        ratio_peer = t["framed"] / fastest if fastest and t["framed"] else None
        ratio_floor = t["framed"] / floor if floor and t["framed"] else None
        # At most half the fastest peer's time; where half of it is below the floor (a decode that
        # every tool must do dominates, as HEIC's), within 1.5x the floor instead.
        pass_speed = None if ratio_peer is None else ratio_peer <= 0.5
        if pass_speed is False and floor and fastest and 0.5 * fastest < floor and ratio_floor is not None:
            pass_speed = ratio_floor <= 1.5
        pass_rss = None if smallest is None or rss["framed"] is None else rss["framed"] <= smallest
        pass_floor = None if ratio_floor is None else ratio_floor <= 1.5
        for name, ok in (("speed", pass_speed), ("rss", pass_rss), ("floor", pass_floor)):
            if ok is not None:
                counts[name][0 if ok else 1] += 1

        def peer_cell(p):
            if data.get(("canvas", f"{job}:{p}"), ["?"])[0] == "n/a":
                return "n/a"
            cell = fmt_s(t[p])
            return cell if canvas_ok[p] else cell + "!"

        rows.append([picture, f"x{scale}", fmt_s(t["framed"]), peer_cell("IM"), peer_cell("vips"),
                     peer_cell("Pillow"), fmt_ratio(ratio_peer), fmt_mb(rss["framed"]), fmt_mb(smallest),
                     fmt_s(floor), fmt_ratio(ratio_floor),
                     verdict(pass_speed), verdict(pass_rss), verdict(pass_floor)])
    header = ["picture", "scale", "framed s", "IM s", "vips s", "Pillow s", "framed/fastest",
              "framed MB", "min peer MB", "floor s", "framed/floor",
              "<=0.5x peer", "RSS<=peer", "<=1.5x floor"]
    notes = ["s: median wall seconds of " + data.get(("meta", "runs"), ["?"])[0] + " interleaved hyperfine rounds"
             " (after " + data.get(("meta", "warmup"), ["?"])[0] + " warm-up runs); MB: median peak RSS"
             " (/usr/bin/time %M) of " + data.get(("meta", "rss_runs"), ["3"])[0] + " runs",
             "floor = decode (djpeg -scale N/D; PNG: framed-bench decode, framed's reader) + framed's in-process PNG encode"
             " of its own output; ratios use figures from the same rounds",
             "a peer time marked '!' failed the canvas check and is left out of the ratios; n/a: the peer does not"
             " read that format",
             "<=0.5x peer: where half the fastest peer's time is below the floor, within 1.5x the floor instead"
             " (HEIC, TIFF: floor = Benchmarks/library_decode.c, the library's own decode)",
             "targets met: " + ", ".join(f"{n} {c[0]}/{c[0] + c[1]}" for n, c in counts.items())]
    if rows:
        print_table("Reference job: classic look, 600x400 frame, 8-bit RGBA PNG", header, rows, notes)

    # CPU seconds: less disturbed than wall time when other work shares the machine.
    rows = []
    for job in jobs:
        c = {tool: get("cpu", job, i) for i, tool in enumerate(["framed"] + peers)}
        valid = [c[p] for p in peers if c[p] is not None]
        fastest = min(valid, default=None)
        rows.append([job.replace("@", " x"), fmt_s(c["framed"]), fmt_s(c["IM"]), fmt_s(c["vips"]), fmt_s(c["Pillow"]),
                     fmt_ratio(c["framed"] / fastest if fastest and c["framed"] else None)])
    if any(r[1] != "-" for r in rows):
        print_table("CPU seconds (user + system, mean of the same runs; all cores summed), for diagnosis",
                    ["job", "framed", "IM", "vips", "Pillow", "framed/least"], rows)

    # Canvas check: one row per job.
    rows, failures = [], 0
    for job in jobs:
        row = [job.replace("@", " x")]
        for tool in ["framed"] + peers:
            values = data.get(("canvas", f"{job}:{tool}"))
            if not values:
                row.append("-")
                continue
            status, size, depth, nbytes, mae = (values + ["-"] * 5)[:5]
            if status == "n/a":
                row.append("n/a")
            elif status != "ok":
                failures += 1
                row.append(status)
            elif tool == "framed":
                row.append(f"{size}, {int(nbytes) // 1024} KB")
            else:
                row.append(f"ok, {int(nbytes) // 1024} KB, MAE {mae}")
        rows.append(row)
    if rows:
        print_table("Canvas check: each tool's output once (size, 8-bit RGBA), PNG size, difference to framed",
                    ["job", "framed", "IM", "vips", "Pillow"], rows,
                    ["MAE: mean absolute difference to framed's output over R, G, B and A, in 1/255 (ImageMagick compare)",
                     f"checks failed: {failures}"])

    # Stage times
    rows = []
    for job in jobs:
        values = data.get(("stages", job))
        if not values:
            continue
        scale, decoded, decode, resample = values[:4]
        decode, resample = float(decode), float(resample)
        encode = get("encode", job)
        wall = get("time", job, 0)
        total = decode + resample + (encode or 0)
        rest = wall - total if wall is not None else None
        rows.append([job.replace("@", " x"), scale, decoded, f"{decode * 1000:.1f}",
                     f"{resample * 1000:.1f}", "-" if encode is None else f"{encode * 1000:.1f}",
                     f"{total * 1000:.1f}", "-" if wall is None else f"{wall * 1000:.1f}",
                     "-" if rest is None else f"{rest * 1000:.1f}"])
    if rows:
        print_table("framed stage times, ms (in-process medians, framed-bench; same FramedRaster code)",
                    ["job", "DCT", "decoded", "decode", "resample", "PNG encode", "sum", "framed wall", "rest"],
                    rows, ["rest = framed wall - sum: Cairo drawing (mat, border, shadow, picture),"
                           " process start-up, file reading and writing"])

    # SVG / PDF (timed in the x1 job's rounds)
    rows = []
    for section, key in order:
        if section != "vector":
            continue
        svg, pdf = get("vector", key, 0), get("vector", key, 1)
        png1, png2 = get("time", f"{key}@1", 0), get("time", f"{key}@2", 0)
        sizes = data.get(("vectorsize", key), ["-", "-"])

        def ratio(a, b):
            return a / b if a is not None and b else None
        r_svg, r_pdf = ratio(svg, png1), ratio(pdf, png1)
        rows.append([key, fmt_s(png1), fmt_s(svg), fmt_s(pdf), fmt_ratio(r_svg), fmt_ratio(r_pdf),
                     verdict(None if r_svg is None else r_svg <= 1.3), verdict(None if r_pdf is None else r_pdf <= 1.3),
                     fmt_s(png2), fmt_ratio(ratio(svg, png2)), fmt_ratio(ratio(pdf, png2)), sizes[0], sizes[1]])
    if rows:
        print_table("The same job as SVG and PDF (framed's defaults: the picture at 192 dpi in SVG, 300 dpi in PDF)",
                    ["picture", "PNG x1 s", "SVG s", "PDF s", "SVG/PNG", "PDF/PNG", "SVG<=1.3", "PDF<=1.3",
                     "PNG x2 s", "SVG/PNGx2", "PDF/PNGx2", "SVG KB", "PDF KB"], rows,
                    ["target: SVG and PDF at most 1.3x the PNG job (x1: the same command line, timed in the same"
                     " rounds); PNG x2 (from the x2 job's rounds) needs as many picture pixels as the SVG: for information"])

    # Engines: every engine on, and one off
    rows = []
    for section, key in order:
        if section != "engine" or key == "unsupported":
            continue
        job = data[(section, key)][0]
        t_on, t_off = get("engine", key, 1), get("engine", key, 2)
        rss_on, rss_off = get("engine", key, 3), get("engine", key, 4)
        size_on, size_off = get("engine", key, 5, int), get("engine", key, 6, int)
        rows.append([key, job, fmt_s(t_on), fmt_s(t_off), fmt_ratio(t_off / t_on if t_on and t_off else None),
                     fmt_mb(rss_on), fmt_mb(rss_off),
                     "-" if size_on is None else str(size_on // 1024), "-" if size_off is None else str(size_off // 1024),
                     "same" if size_on == size_off else "differ"])
    if rows:
        print_table("What each of framed's own engines buys: a job that leans on it (at scale 1), every engine on,"
                    " and that one off",
                    ["engine", "job", "on s", "off s", "off/on", "on MB", "off MB", "on KB", "off KB", "bytes"], rows,
                    ["off: FRAMED_ENGINES=-ENGINE (the last row: FRAMED_ENGINES=off, every engine); s: median wall"
                     " seconds of the same interleaved rounds; MB: median peak RSS; KB: the output file"])
    elif data.get(("engine", "unsupported")):
        print()
        print("engines: " + data[("engine", "unsupported")][0])

    # Backdrops: --canvas-color auto and a blurred 4K --canvas-image on the reference job
    backdrop = data.get(("backdrop", "result"))
    if backdrop:
        print()
        if backdrop[0] == "failed":
            print("backdrops: FAILED: " + backdrop[1])
        else:
            t = [float(v) for v in backdrop[:4]]
            c = [float(v) for v in backdrop[4:8]]
            sizes = [int(v) // 1024 for v in backdrop[8:10]]
            print(f"Backdrops on the reference job, jpeg12 x1 ({t[0]:.3f} s, CPU {c[0]:.3f} s); x: median wall time"
                  " over the job's, same interleaved rounds:")
            print(f"  --canvas-color auto                        {t[1]:.3f} s  x{t[1] / t[0]:.2f}  CPU x{c[1] / c[0]:.2f}"
                  f"  [<= 1.2x: {verdict(t[1] / t[0] <= 1.2)}]")
            print(f"  --canvas-image 4K wallpaper, blur 20px     {t[2]:.3f} s  x{t[2] / t[0]:.2f}  CPU x{c[2] / c[0]:.2f}"
                  f"  [<= 1.2x: {verdict(t[2] / t[0] <= 1.2)}]  ({sizes[0]} KB JPEG)")
            print(f"  --canvas-image 4K photo-like, blur 20px    {t[3]:.3f} s  x{t[3] / t[0]:.2f}  CPU x{c[3] / c[0]:.2f}"
                  f"  (for information: {sizes[1]} KB of noisy JPEG, whose entropy decoding even at 1/8 is half the job)")

    # Annotations: ten callouts and a redaction on the screenshot
    annotation = data.get(("annotation", "result"))
    if annotation:
        print()
        if annotation[0] == "failed":
            print("annotations: FAILED: " + annotation[1])
        else:
            t = [float(v) for v in annotation[:9]]
            c = [float(v) for v in annotation[9:18]]
            print("Ten callouts (three numbered badges and a label among them) and one pixelated region on the reference"
                  " job, png-rgba (3000x2000) x1; x: median wall time over the same format's without them, same"
                  " interleaved rounds; then the same ten with no text (discs and a box in place of the badges and"
                  " the label), for what the text costs:")
            for i, name in enumerate(["PNG", "SVG", "PDF"]):
                plain, annotated, shapes = t[3 * i], t[3 * i + 1], t[3 * i + 2]
                print(f"  {name}  {plain:.3f} s -> {annotated:.3f} s  x{annotated / plain:.2f}"
                      f"  CPU {c[3 * i]:.3f} s -> {c[3 * i + 1]:.3f} s  x{c[3 * i + 1] / c[3 * i]:.2f}"
                      f"  [<= 1.1x: {verdict(annotated / plain <= 1.1)}]"
                      f"   no text: {shapes:.3f} s  x{shapes / plain:.2f}  CPU x{c[3 * i + 2] / c[3 * i]:.2f}")

    # Batch
    batch = data.get(("batch", "result"))
    if batch:
        print()
        if batch[0] == "unsupported":
            print("batch: not supported by this build (" + batch[1] + ")")
        elif batch[0] == "failed":
            print("batch: FAILED: " + batch[1])
        else:
            count, j1, j2 = int(batch[0]), float(batch[1]), float(batch[2])
            ratio = j1 / j2
            print(f"Batch of {count} pictures ({batch[3]}): -j 1 {j1:.2f} s ({count / j1:.1f}/s), "
                  f"-j 2 {j2:.2f} s ({count / j2:.1f}/s): throughput x{ratio:.2f}  "
                  f"[target >= 1.8: {verdict(ratio >= 1.8)}]")
            if len(batch) > 5:
                c1, c2 = float(batch[4]), float(batch[5])
                print(f"  CPU: -j 1 {c1:.2f} s ({c1 / j1:.2f} cores busy), -j 2 {c2:.2f} s ({c2 / j2:.2f} cores busy)")
            if len(batch) > 7:
                k1, k2 = float(batch[6]), float(batch[7])
                print(f"  control in the same rounds, {count} djpeg processes with xargs -P 1 / -P 2: {k1:.2f} s / {k2:.2f} s,"
                      f" x{k1 / k2:.2f}" + ("  (the machine itself gave little to a second worker: the -j 2"
                                              " figure says more about the machine than about framed)" if k1 / k2 < 1.6 else ""))

    # Sheets: prints ganged on A4 against a PDF each
    sheets = data.get(("sheets", "result"))
    if sheets:
        print()
        if sheets[0] == "failed":
            print("sheets: FAILED: " + sheets[1])
        else:
            count, single, ganged = int(sheets[0]), float(sheets[1]), float(sheets[2])
            ratio = ganged / single
            print(f"Sheets: {count} photos of 11.8 MP as 89 x 127 mm prints, -j 2: one by one (a PDF each) {single:.2f} s,"
                  f" ganged on {sheets[3]} A4 sheets (--n-up auto) {ganged:.2f} s: x{ratio:.2f}"
                  f"  [target <= 1.2: {verdict(ratio <= 1.2)}]")
            if len(sheets) > 5 and "-" not in sheets[4:6]:
                print(f"  peak RSS: one by one {int(sheets[4]) / 1024:.0f} MB, ganged {int(sheets[5]) / 1024:.0f} MB")

    # An SVG diagram against rsvg-convert
    svg = data.get(("svg", "result"))
    if svg:
        print()
        if svg[0] == "failed":
            print("svg diagram: FAILED: " + svg[1])
        else:
            fp, rp, fd, rd = (float(v) for v in svg[:4])
            print(f"SVG diagram (1640 elements): PNG framed {fp * 1000:.0f} ms, rsvg-convert {rp * 1000:.0f} ms"
                  f" (x{fp / rp:.2f}); PDF framed {fd * 1000:.0f} ms, rsvg-convert {rd * 1000:.0f} ms (x{fd / rd:.2f});"
                  f" framed's PDF {int(svg[5]) // 1024} KB with {svg[4]} raster images"
                  f" [vector: {verdict(svg[4] == '0')}] (rsvg-convert's {int(svg[6]) // 1024} KB; framed also"
                  " draws the frame, mat and shadow)")
            print(f"  time: rsvg-convert is librsvg's own drawing, the floor [<= 1.5x floor: PNG {verdict(fp / rp <= 1.5)},"
                  f" PDF {verdict(fd / rd <= 1.5)}]")
            rss = data.get(("svg", "rss"))
            if rss and "-" not in rss:
                mb = [int(v) / 1024 for v in rss]
                print(f"  peak RSS: PNG framed {mb[0]:.1f} MB, rsvg-convert {mb[1]:.1f} MB [<= peer: {verdict(mb[0] <= mb[1])}];"
                      f" PDF framed {mb[2]:.1f} MB, rsvg-convert {mb[3]:.1f} MB [<= peer: {verdict(mb[2] <= mb[3])}];"
                      f" --version alone: framed {mb[4]:.1f} MB, rsvg-convert {mb[5]:.1f} MB")
                if len(mb) > 7:
                    print(f"  the diagram's own, PNG (peak RSS less that of a 10x10 SVG drawn the same way: {mb[6]:.1f} MB and"
                          f" {mb[7]:.1f} MB, the code each tool maps): framed {mb[0] - mb[6]:.1f} MB, rsvg-convert"
                          f" {mb[1] - mb[7]:.1f} MB")
                if len(mb) > 9:
                    print(f"  the memory floor, librsvg as Debian ships it drawing the diagram alone (Benchmarks/library_draw.c):"
                          f" PNG {mb[8]:.1f} MB, PDF {mb[9]:.1f} MB; framed x{mb[0] / mb[8]:.2f} and x{mb[2] / mb[9]:.2f} of it;"
                          f" rsvg-convert, which links librsvg into its own binary, x{mb[1] / mb[8]:.2f} and x{mb[3] / mb[9]:.2f}")

    meta = data.get(("meta", "machine"))
    if meta:
        print()
        print("machine: " + meta[0])
    if data.get(("meta", "load")):
        print(data[("meta", "load")][0])
    if data.get(("meta", "versions")):
        print("tools: " + data[("meta", "versions")][0])


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    command = argv[1]
    if command == "need":
        print(*need(int(argv[2]), int(argv[3]), int(argv[4])))
    elif command == "pnginfo":
        print(*pnginfo(argv[2]))
    elif command == "medians":
        print(*(f"{m:.6f}" for m in medians(argv[2:])))
    elif command == "cpu":
        print(*(f"{m:.6f}" for m in cpu(argv[2:])))
    elif command == "table":
        table(argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
