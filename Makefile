# framed: two commands on a fresh Debian 12 machine with the Swift toolchain.
#   make demo   installs what is missing, builds in release, frames Samples/ into out/
#   make test   installs what is missing, runs every test, again with framed's own engines off, checks
#               that every public symbol has a doc comment and that make docs builds, then runs all the
#               tests again under the sanitizers (and the threaded suites under ThreadSanitizer)
#   make docs   builds the library's DocC documentation into .build/docs
#   make mutants puts small mistakes into the code one at a time and says which the tests let through

SWIFT    ?= swift
PREFIX   ?= /usr/local
BIN      := .build/release/framed
OUT      := out

# Libraries framed builds against, and the tools its tests judge output with (a test whose tool is
# missing fails: none passes for want of one).
BUILD_PACKAGES := pkg-config libcairo2-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libexif-dev liblcms2-dev libgs-common \
                  libheif-dev libtiff-dev libgif-dev
# SVG pictures: librsvg, loaded when the first one comes (its headers check crsvg's declarations).
BUILD_PACKAGES += librsvg2-dev
# Window titles and captions: Pango, loaded when the first text is drawn (its headers check
# ctext's declarations), and one free font family so that text looks the same on
# every machine.
BUILD_PACKAGES += libpango1.0-dev fonts-dejavu-core
TEST_PACKAGES  := poppler-utils librsvg2-bin ghostscript liblcms2-utils imagemagick webp qpdf mupdf-tools chromium \
                  groff-base zsh fish time strace python3 libheif-examples libavif-bin libtiff-tools gifsicle \
                  libimage-exiftool-perl libjpeg-turbo-progs python3-venv fonts-dejavu-core
# The programs figures are placed in, run headless as judges: LibreOffice (Draw), Inkscape,
# pdfLaTeX and Firefox.
TEST_PACKAGES  += libreoffice-draw inkscape texlive-latex-base firefox-esr
# Judges from PyPI, in a virtual environment of their own (never the system Python's packages):
# PDFium (Chrome's and Edge's PDF viewer) through pypdfium2, and pikepdf (qpdf's object model)
# to read page boxes, layers and resources back.
JUDGES_VENV   := .build/judges
JUDGES_PYPI   := pypdfium2==5.15.2 pikepdf==10.18.0

.PHONY: all build demo test test-engines-off install manual deps test-deps samples clean bench bench-deflate \
        bench-memory fuzz sanitize tsan doc-coverage docs mutants

all: build

# Installs the Debian packages that are missing (apt-get update once, then install).
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps:
	$(call apt_install,$(BUILD_PACKAGES) $(TEST_PACKAGES))
	@$(JUDGES_VENV)/bin/python -c 'import pypdfium2, pikepdf' 2>/dev/null || \
	  { python3 -m venv $(JUDGES_VENV) && $(JUDGES_VENV)/bin/pip install -q --disable-pip-version-check $(JUDGES_PYPI); }

# The Swift runtime linked in (--static-swift-stdlib): the binary runs without the toolchain's
# libraries, loads 31 shared libraries instead of 41, and starts 2 ms sooner.
build: deps
	$(SWIFT) build -c release --static-swift-stdlib

demo: build
	@mkdir -p $(OUT)
	$(BIN) Samples/landscape.jpg -o $(OUT)/landscape.svg -f
	$(BIN) Samples/landscape.jpg -o $(OUT)/landscape.pdf -f --size 150mmx100mm --border 2mm --padding 8mm \
	    --background white --border-color '#222' --shadow '0 1mm 4mm rgba(0,0,0,.5)'
	$(BIN) Samples/screenshot.png -o $(OUT)/screenshot.png -f --size 600x400 --border 1 --border-color '#d0d0d0' \
	    --radius 8 --background white --fit contain --shadow '0 4px 16px rgba(0,0,0,.35)' --scale 2
	@ls -l $(OUT)

# The build the suite runs, which fails on any warning from the package's own code (a warning
# once stood beside a crash: a `case` guard that covered one pattern of two); then the suite, then
# the suite again with every one of framed's own engines off (the plain libraries
# do all the work; the tests about an engine turn it on themselves), the library examples of the
# README, docs/library.md and DocC built from outside (Tests/library-example.sh), the doc comments (Tests/doc-coverage.py), the
# DocC site (make docs, so that the documented command cannot break unseen), then the
# whole suite once more under the sanitizers (Tests/sanitize.sh, its own build in
# .build/sanitize), then the suites that start threads under ThreadSanitizer (Tests/tsan.sh,
# .build/tsan): a failure, a leak, a race or a sanitizer error fails the target.
test: test-deps
	@mkdir -p .build
	@$(SWIFT) build --build-tests > .build/test-build.log 2>&1 || { cat .build/test-build.log; exit 1; }
	@if grep -E '^$(CURDIR)/.*: warning: ' .build/test-build.log; then \
	  echo "make test: the build has warnings (above); mend them first" >&2; exit 1; fi
	$(SWIFT) test
	FRAMED_ENGINES=off $(SWIFT) test
	SWIFT='$(SWIFT)' Tests/library-example.sh
	SWIFT='$(SWIFT)' Tests/doc-coverage.py
	$(MAKE) --no-print-directory docs SWIFT='$(SWIFT)'
	SWIFT='$(SWIFT)' Tests/sanitize.sh
	SWIFT='$(SWIFT)' Tests/tsan.sh

# Fails when a public symbol has no doc comment: counts them per module from the symbol graphs
# of swift package dump-symbol-graph, and lists the first by file and line.
doc-coverage: deps
	$(call apt_install,python3)
	SWIFT='$(SWIFT)' Tests/doc-coverage.py

# DocC documentation of the Framed library for static hosting, from its catalog
# Sources/Framed/Framed.docc; any DocC warning fails the target. Three steps:
#   1. swift build --target Framed: the debug build's modules (.swiftmodule files).
#   2. swift-symbolgraph-extract writes Framed's symbol graph. Framed re-exports FramedLayout,
#      FramedRaster and FramedRender (@_exported import, Sources/Framed/Exports.swift), and
#      -experimental-allowed-reexported-modules names them: their public symbols go into
#      Framed's own graph, under the names `import Framed` gives (FrameStyle, Length, RGBAColor,
#      FrameLayout...), so the catalog documents them and links to them as the library's. Without
#      it the graph holds only what Sources/Framed declares. The -Xcc flags give every C module's
#      map (the ones in Sources/ and the ones SwiftPM writes for targets with an include folder)
#      and every C target's include folder, as swift package dump-symbol-graph does: a C target
#      added later needs no change here.
#   3. docc convert, for static hosting under the base path /framed: GitHub Pages serves a
#      repository named framed at https://OWNER.github.io/framed/. That address itself would
#      show DocC's "not found" (the pages are under documentation/framed/), so its index.html
#      is replaced by a redirect there.
# The site is $(DOCS_SITE) (publish its contents at /framed/). To preview it:
#   python3 -m http.server -d $(DOCS) 8000
# and open http://localhost:8000/framed/documentation/framed/
DOCS       := .build/docs
DOCS_BASE  := framed
DOCS_SITE  := $(DOCS)/$(DOCS_BASE)
DOCS_GRAPH := .build/docs-symbolgraph
docs: deps
	$(SWIFT) build --target Framed
	rm -rf $(DOCS) $(DOCS_GRAPH)
	mkdir -p $(DOCS) $(DOCS_GRAPH)
	bin=$$($(SWIFT) build --show-bin-path) && \
	tools=$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")") && \
	"$$tools/swift-symbolgraph-extract" -module-name Framed -minimum-access-level public \
	    -experimental-allowed-reexported-modules=FramedLayout,FramedRaster,FramedRender \
	    -I "$$bin/Modules" -module-cache-path "$$bin/ModuleCache" \
	    $$(for m in Sources/*/module.modulemap Sources/*/include/module.modulemap "$$bin"/*.build/module.modulemap; do \
	         echo "-Xcc -fmodule-map-file=$$m"; done) \
	    $$(for d in Sources/*/include; do echo "-Xcc -I$$d"; done) $$(pkg-config --cflags-only-I cairo) \
	    -output-dir $(DOCS_GRAPH) && \
	"$$tools/docc" convert Sources/Framed/Framed.docc --additional-symbol-graph-dir $(DOCS_GRAPH) \
	    --fallback-display-name Framed --fallback-bundle-identifier framed.Framed \
	    --fallback-default-module-kind Library \
	    --transform-for-static-hosting --hosting-base-path $(DOCS_BASE) \
	    --warnings-as-errors --output-path $(DOCS_SITE)
	printf '<!doctype html><meta http-equiv="refresh" content="0; url=documentation/framed/">\n' \
	    > $(DOCS_SITE)/index.html
	@echo "documentation in $(DOCS_SITE); preview: python3 -m http.server -d $(DOCS) 8000, then" \
	    "http://localhost:8000/$(DOCS_BASE)/documentation/framed/"

# The suite alone with framed's own engines off (FRAMED_ENGINES=off).
test-engines-off: test-deps
	FRAMED_ENGINES=off $(SWIFT) test

# The whole suite once more under AddressSanitizer/LeakSanitizer (UBSan on the C shim); skipped
# with a notice when the toolchain has no sanitizer runtime.
sanitize: test-deps
	SWIFT='$(SWIFT)' Tests/sanitize.sh

# The suites whose code starts threads in-process, under ThreadSanitizer alone (Tests/tsan.sh).
tsan: test-deps
	SWIFT='$(SWIFT)' Tests/tsan.sh

# Mutation testing (Tests/mutants.py): small, realistic mistakes put into the product's code one at
# a time (geometry, colour, options, limits, file handling), in a scratch copy of the package with a
# build of its own (.build/mutants/package, so that each is an incremental build); the plain suite
# (swift test, no sanitizers) runs against each, and the mutants it let through are printed. Fails
# when one survives. MUTANTS='quality-ignored shadow-black' runs only those (Tests/mutants.py
# --list names them all).
mutants: test-deps
	SWIFT='$(SWIFT)' python3 Tests/mutants.py $(MUTANTS)

# libFuzzer: every target for FUZZ_SECONDS (default 60) each; fails on a crash, leak or timeout.
FUZZ_SECONDS ?= 60
fuzz: test-deps
	Fuzz/run.sh $(FUZZ_SECONDS)

# Tools the benchmark compares framed with and measures with.
BENCH_PACKAGES := imagemagick libvips-tools python3-pil hyperfine libjpeg-turbo-progs time bc libheif-examples librsvg2-bin

# framed against ImageMagick, libvips and Pillow on the same job: one table, under 10 minutes.
bench: build
	$(call apt_install,$(BENCH_PACKAGES))
	Benchmarks/bench.sh --bin .build/release $(BENCH_FLAGS)

# framed's own deflate writer against zlib and libdeflate on the same rows (the figures in
# CFramedEngines' fastdeflate.c).
bench-deflate: build
	$(call apt_install,libdeflate-dev poppler-utils imagemagick)
	Benchmarks/deflate-writers.sh --bin .build/release

# Peak memory of framing a 50-megapixel JPEG and 3000x2000 PNGs (ImageMagick makes the 16-bit
# one); fails when a PNG job goes over its budget.
bench-memory: build
	$(call apt_install,time bc imagemagick)
	Benchmarks/memory.sh

# The binary, its manual page and its bash, zsh and fish completions, the last four made by the
# binary itself from its option table, so that they always match it.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/framed
	$(BIN) --generate-manual > $(DESTDIR)$(PREFIX)/share/man/man1/framed.1
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/framed
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_framed
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/framed.fish
	chmod 0644 $(DESTDIR)$(PREFIX)/share/man/man1/framed.1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/framed \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_framed $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/framed.fish

# Writes docs/framed.1 and completions/ anew from the option table (after changing an option; a
# test fails until they are in step).
manual: build
	$(BIN) --generate-manual > docs/framed.1
	$(BIN) --generate-completion-script bash > completions/framed.bash
	$(BIN) --generate-completion-script zsh > completions/_framed
	$(BIN) --generate-completion-script fish > completions/framed.fish

# Regenerates the sample pictures (needs cjpeg from libjpeg-turbo-progs).
samples:
	$(call apt_install,libjpeg-turbo-progs)
	python3 Samples/make-samples.py

clean:
	rm -rf .build $(OUT) Fuzz/.build Fuzz/.build-seeds Fuzz/.work
