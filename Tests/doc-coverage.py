#!/usr/bin/env python3
"""Fails when a public symbol of the package has no doc comment.

    Tests/doc-coverage.py [--max-listed N]

Runs `swift package dump-symbol-graph` (public symbols only, its default), then counts, per
module, the public symbols that have a source location (declared in this package's sources,
not synthesized by the compiler) and no doc comment. A member that implements a protocol
requirement counts as documented when the requirement is (the graph carries that comment, and
DocC shows it). Prints a line per module and the total; exits 1 when the total is not 0,
listing the first offenders as file:line, and 2 when the graphs cannot be made.

Not counted: the test runner's graphs (framedPackage*, which dump-symbol-graph also fails to
make until the tests are built: those errors alone are not a failure) and the targets that
exist for tests and fuzzing only. A graph `A@B.symbols.json` (A's extensions of B's types)
counts under A.

Environment: SWIFT (default swift).
"""

import glob
import json
import os
import re
import subprocess
import sys

# Graphs not counted: the test runner, and the test and fuzz support targets.
IGNORED = re.compile(r"^(framedPackage|FramedTestSupport$|FuzzSupport$|CLibFuzzer$|fuzz-)")
# The library's modules: their graphs must be there, or the check proves nothing.
REQUIRED = ["Framed", "FramedLayout", "FramedRaster", "FramedRender"]


def dump_symbol_graphs(swift, root):
    """Runs dump-symbol-graph; returns the folder it wrote, or exits 2."""
    result = subprocess.run([swift, "package", "dump-symbol-graph"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = result.stdout
    errors = [line for line in output.splitlines() if "error:" in line]
    # The test runner's modules (framedPackageTests...) cannot be loaded before the tests are
    # built; any other error is real.
    real = [line for line in errors if "framedPackage" not in line]
    written = re.search(r"Files written to (.+)", output)
    if real or not written or (result.returncode != 0 and not errors):
        sys.stderr.write(output)
        sys.stderr.write("doc-coverage: swift package dump-symbol-graph failed\n")
        sys.exit(2)
    return written.group(1).strip()


def undocumented(graph):
    """(symbols counted, [(path, line, kind, name)] of those without a doc comment)."""
    counted, missing = 0, []
    for symbol in graph["symbols"]:
        location = symbol.get("location")
        if not location or symbol.get("accessLevel") not in ("public", "open"):
            continue
        counted += 1
        lines = (symbol.get("docComment") or {}).get("lines", [])
        if any(line.get("text", "").strip() for line in lines):
            continue
        path = re.sub(r"^file://", "", location["uri"])
        missing.append((path, location["position"]["line"] + 1,
                        symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])))
    return counted, missing


def main():
    max_listed = 20
    if len(sys.argv) == 3 and sys.argv[1] == "--max-listed":
        max_listed = int(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit(__doc__)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = dump_symbol_graphs(os.environ.get("SWIFT", "swift"), root)

    modules = {}
    for file in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
        module = os.path.basename(file)[:-len(".symbols.json")].split("@")[0]
        if IGNORED.match(module):
            continue
        with open(file) as f:
            counted, missing = undocumented(json.load(f))
        total = modules.setdefault(module, [0, []])
        total[0] += counted
        total[1] += missing

    absent = [name for name in REQUIRED if name not in modules]
    if absent:
        sys.exit("doc-coverage: no symbol graph for " + ", ".join(absent) + " in " + folder)

    offenders = []
    for module, (counted, missing) in sorted(modules.items()):
        print(f"{module}: {len(missing)} of {counted} public symbols without a doc comment")
        offenders += missing
    print(f"total: {len(offenders)} without a doc comment")
    if not offenders:
        return 0
    offenders.sort()
    for path, line, kind, name in offenders[:max_listed]:
        print(f"  {os.path.relpath(path, root)}:{line}: {kind} {name}")
    if len(offenders) > max_listed:
        print(f"  ... and {len(offenders) - max_listed} more")
    return 1


if __name__ == "__main__":
    sys.exit(main())
