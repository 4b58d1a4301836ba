# framed: two commands on a fresh Debian 12 machine with the Swift toolchain.
#   make demo   installs what is missing, builds in release, frames Samples/ into out/
#   make test   installs what is missing, runs every test, again with framed's own engines off, then
#               all of them again under the sanitizers (and the threaded suites under ThreadSanitizer)

SWIFT    ?= swift
PREFIX   ?= /usr/local
BIN      := .build/release/framed
OUT      := out

# Libraries framed builds against, and the tools its tests rasterise output with.
BUILD_PACKAGES := pkg-config libcairo2-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libexif-dev liblcms2-dev libgs-common
TEST_PACKAGES  := poppler-utils librsvg2-bin ghostscript liblcms2-utils imagemagick webp qpdf mupdf-tools chromium

.PHONY: all build demo test test-engines-off install deps test-deps samples clean bench bench-deflate bench-memory fuzz sanitize tsan

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

# The suite, then the suite again with every one of framed's own engines off (the plain libraries
# do all the work; the tests about an engine turn it on themselves), then the whole suite once
# more under the sanitizers (Tests/sanitize.sh, its own build in .build/sanitize), then the suites
# that start threads under ThreadSanitizer (Tests/tsan.sh, .build/tsan): a failure, a leak, a race
# or a sanitizer error fails the target.
test: test-deps
	$(SWIFT) test
	FRAMED_ENGINES=off $(SWIFT) test
	SWIFT='$(SWIFT)' Tests/sanitize.sh
	SWIFT='$(SWIFT)' Tests/tsan.sh

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

# libFuzzer: every target for FUZZ_SECONDS (default 60) each; fails on a crash, leak or timeout.
FUZZ_SECONDS ?= 60
fuzz: test-deps
	Fuzz/run.sh $(FUZZ_SECONDS)

# Tools the benchmark compares framed with and measures with.
BENCH_PACKAGES := imagemagick libvips-tools python3-pil hyperfine libjpeg-turbo-progs time bc

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

install: build
	install -m 0755 $(BIN) $(PREFIX)/bin/framed

# Regenerates the sample pictures (needs cjpeg from libjpeg-turbo-progs).
samples:
	$(call apt_install,libjpeg-turbo-progs)
	python3 Samples/make-samples.py

clean:
	rm -rf .build $(OUT) Fuzz/.build Fuzz/.build-seeds Fuzz/.work
