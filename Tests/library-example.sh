#!/usr/bin/env bash
# The README's library example, compiled and run as a user would: the first ```swift block of its
# "Library" section becomes the main.swift of a package of its own that depends on this one by
# path (product Framed), and runs with Samples/ at hand, as from the repository's root. Fails when
# the block is missing or longer than 15 lines, when it does not build or run, or when it writes
# no framed PDF or PNG.
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

mkdir -p "$WORK/example/Sources/example"
cp "$WORK/main.swift" "$WORK/example/Sources/example/main.swift"
cat >"$WORK/example/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "example",
    dependencies: [.package(path: "$ROOT")],
    targets: [.executableTarget(name: "example", dependencies: [.product(name: "Framed", package: "$(basename "$ROOT")")])]
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
