#!/usr/bin/env bash
# The library's examples, compiled and run as a user would, from a package of its own that
# depends on this one by path (product Framed), with Samples/ at hand as from the repository's root:
#
# - the README's: the first ```swift block of its "Library" section becomes the main.swift of one
#   executable. Fails when the block is missing or longer than 15 lines, when it does not build or
#   run, or when it writes no framed PDF, PNG or SVG.
# - every ```swift block of docs/library.md and the DocC catalog (Sources/Framed/Framed.docc), but
#   a Package.swift (`// swift-tools-version`): the blocks under one heading make the body of one
#   async throwing function (their imports go to the file's top, with `import Framed`; #sourceLocation points a compiler
#   error at the doc's line), run in turn, each in a folder of its own. Fails when one does not
#   build, or throws.
#
#   Tests/library-example.sh        (make test runs it; the build is kept in .build/library-example)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The block: from the line after the first ```swift that follows "## Library", to its closing ```.
awk '/^## Library/ { inside = 1 } inside && /^```swift$/ { keep = 1; next } keep && /^```$/ { exit } keep { print }' \
    README.md >"$WORK/main.swift"
lines=$(wc -l <"$WORK/main.swift")
if [ "$lines" -eq 0 ]; then echo "library-example.sh: README.md has no \`\`\`swift block under ## Library" >&2; exit 1; fi
if [ "$lines" -gt 15 ]; then echo "library-example.sh: the README's example is $lines lines (at most 15)" >&2; exit 1; fi

mkdir -p "$WORK/example/Sources/example" "$WORK/example/Sources/doc-examples"
cp "$WORK/main.swift" "$WORK/example/Sources/example/main.swift"
python3 - "$WORK/example/Sources/doc-examples" docs/library.md Sources/Framed/Framed.docc/*.md <<'PYTHON'
import re, sys
folder, docs = sys.argv[1], sys.argv[2:]
sections = []   # (doc, heading, [(first line number, lines)])
for doc in docs:
    heading, block, start = None, None, 0
    for number, line in enumerate(open(doc, encoding="utf-8").read().split("\n"), 1):
        if block is None and line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif block is None and line.strip() == "```swift":
            block, start = [], number + 1
        elif block is not None and line.strip() == "```":
            if block and not block[0].startswith("// swift-tools-version"):
                if not sections or sections[-1][:2] != (doc, heading):
                    sections.append((doc, heading, []))
                sections[-1][2].append((start, block))
            block = None
        elif block is not None:
            block.append(line)
if not any(doc == "docs/library.md" for doc, _, _ in sections):
    sys.exit("library-example.sh: docs/library.md has no ```swift example")
calls = []
for index, (doc, heading, blocks) in enumerate(sections):
    # A block may leave out `import Framed` (the DocC article's later ones do), not another import.
    imports = sorted({"import Framed"} | {line.strip() for _, lines in blocks for line in lines
                                          if re.match(r"\s*import \w+\s*$", line)})
    body = []
    for start, lines in blocks:
        body.append(f'#sourceLocation(file: "{doc}", line: {start})')
        body += ["" if re.match(r"\s*import \w+\s*$", line) else line for line in lines]
        body.append("#sourceLocation()")
    with open(f"{folder}/example{index}.swift", "w", encoding="utf-8") as out:
        out.write("\n".join(imports + ["", f"func example{index}() async throws {{"] + body + ["}", ""]))
    calls.append(f'    ({repr(doc + ": " + heading)[1:-1]!r}, example{index}),'.replace("'", '"'))
with open(f"{folder}/main.swift", "w", encoding="utf-8") as out:
    out.write("\n".join([
        "import Foundation", "",
        "let examples: [(String, () async throws -> Void)] = [", *calls, "]",
        "let root = FileManager.default.currentDirectoryPath",
        "for (number, (name, example)) in examples.enumerated() {",
        '    let folder = root + "/example\\(number)"',
        "    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)",
        '    try FileManager.default.createSymbolicLink(atPath: folder + "/Samples", withDestinationPath: root + "/Samples")',
        "    FileManager.default.changeCurrentDirectoryPath(folder)",
        '    do { try await example() } catch { print("\\(name): \\(error)"); exit(1) }',
        '    print("ran \\(name)")',
        "}", ""]))
print(len(sections), file=open(folder + "/count", "w"))
PYTHON
sections=$(cat "$WORK/example/Sources/doc-examples/count"); rm "$WORK/example/Sources/doc-examples/count"
cat >"$WORK/example/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "example",
    dependencies: [.package(path: "$ROOT")],
    targets: [
        .executableTarget(name: "example", dependencies: [.product(name: "Framed", package: "$(basename "$ROOT")")]),
        .executableTarget(name: "doc-examples", dependencies: [.product(name: "Framed", package: "$(basename "$ROOT")")]),
    ]
)
EOF
"$SWIFT" build --package-path "$WORK/example" --scratch-path "$ROOT/.build/library-example" >"$WORK/build.log" 2>&1 \
    || { tail -30 "$WORK/build.log" >&2; echo "library-example.sh: the README's example does not build" >&2; exit 1; }
bin=$("$SWIFT" build --package-path "$WORK/example" --scratch-path "$ROOT/.build/library-example" --show-bin-path)

# Run where Samples/ is, writing into a folder of its own.
mkdir -p "$WORK/run"
ln -s "$ROOT/Samples" "$WORK/run/Samples"
(cd "$WORK/run" && "$bin/example") || { echo "library-example.sh: the README's example failed" >&2; exit 1; }
outputs=$(find "$WORK/run" -maxdepth 1 -type f \( -name '*.pdf' -o -name '*.png' -o -name '*.svg' \))
[ -n "$outputs" ] || { echo "library-example.sh: the README's example wrote no picture" >&2; exit 1; }
for file in $outputs; do
    head -c 5 "$file" | grep -qE '^(%PDF-|.PNG|<\?xml)' \
        || { echo "library-example.sh: $(basename "$file") is not a PDF, PNG or SVG" >&2; exit 1; }
done
echo "library-example.sh: the README's $lines-line example builds against Framed and writes $(basename $outputs)"

# The docs' examples, each in a folder of its own under one where Samples/ is.
mkdir -p "$WORK/docs-run"
ln -s "$ROOT/Samples" "$WORK/docs-run/Samples"
(cd "$WORK/docs-run" && "$bin/doc-examples") >"$WORK/docs-run.log" 2>&1 \
    || { cat "$WORK/docs-run.log" >&2; echo "library-example.sh: an example of the docs failed" >&2; exit 1; }
ran=$(grep -c '^ran ' "$WORK/docs-run.log")
[ "$ran" -eq "$sections" ] || { cat "$WORK/docs-run.log" >&2; echo "library-example.sh: $ran of $sections examples ran" >&2; exit 1; }
echo "library-example.sh: the $sections examples of docs/library.md and the DocC catalog build and run"
