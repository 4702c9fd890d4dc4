# OpenMapKit — the two set-up commands are `make run` and `make test` (see README.md).
# Each target installs what is missing first, so a fresh Debian 12 machine with the Swift
# toolchain needs nothing else.

SWIFT        ?= swift
# Debian packages building and running need (what `make run` installs): compression and SQLite
# libraries, libcrypto, Cairo, HarfBuzz and FreeType with the Noto, DejaVu and Open Sans fonts
# (drawing and text; Open Sans also labels the render conformance suite's pictures), SDL2
# (`openmapkit view`'s window), and Mesa (EGL, GLES, llvmpipe), which draws Look Around scenes
# off-screen on the CPU, with GLU to tessellate their polygons; and pip, which fetches the web
# map's MapLibre GL JS from PyPI.
APT_BUILD    := zlib1g-dev libbz2-dev libssl-dev libdeflate-dev liblz4-dev libzstd-dev libsqlite3-dev libcairo2-dev libharfbuzz-dev libfreetype-dev \
                fonts-noto-core fonts-dejavu-core fonts-open-sans pkg-config libsdl2-dev \
                libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri libglu1-mesa-dev python3-pip
# What the tests add (`make test`): GDAL and osmium (the tests check our tiles with GDAL's MVT
# reader, our PBF reader against libosmium, and derive change files with osmium), Chromium (the
# web map's and MapKit JS's browser tests), Xvfb, xdotool and xwd (x11-apps) for the window's
# test, GeographicLib's GeodSolve (geographiclib-tools), which the geodesic tests hold ours to
# within 15 nm, and the openssl command, which makes the Maps keys and signatures the key tests check.
APT_TEST     := gdal-bin osmium-tool chromium xvfb xdotool x11-apps geographiclib-tools openssl
# Debian packages the benchmarks compare against (beside GeodSolve and libosmium above): PROJ and
# tilemaker; wrk drives the server's load benchmark and nginx serves the same tiles beside it.
APT_BENCH    := proj-bin tilemaker wrk nginx
RELEASE_BIN   = $(shell $(SWIFT) build -c release --show-bin-path)

# The main job: import an OSM extract (the Monaco sample unless PBF= names another) into
# NAME.omk, once, then serve it with the web map at http://$(HOST):$(PORT)/.
SAMPLE       ?= ../shared/data/osm/monaco.osm.pbf
PBF          ?= $(SAMPLE)
BUNDLE       ?= $(basename $(basename $(notdir $(PBF)))).omk
HOST         ?= 127.0.0.1
PORT         ?= 8080

.PHONY: all build test docs run bench deps test-deps bench-deps clean

all: build

# Installs the Debian packages in $(1) that are not installed yet (apt-get, as root or via sudo).
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

# Python packages the tests use as independent readers: the PMTiles reference reader, and pyosmium,
# which Scripts/sample-addresses.py reads an extract's addresses with for the geocoding tests (and
# the benchmarks' make-large-extract.py makes their large inputs with); and two Apple Maps client
# libraries, which AppleClientsTests points at our server instead of Apple's. Debian 12 marks its
# Python as managed by apt (PEP 668), and apt has none of these: PIP_BREAK_SYSTEM_PACKAGES lets pip
# put them beside it (in /usr/local when run as root), where the tests' python3 finds them.
PIP_TEST     := pmtiles osmium apple-maps-api==0.2.1 mapsnap==1.0.1
# MapLibre GL JS for the web map: not in Debian; PyPI's `maplibre` package carries it
# (maplibre/srcjs/maplibre-gl.js and .css; its 0.3.6 carries MapLibre GL JS 5.3.0, BSD-3-Clause).
# Installed into .build/web, where `openmapkit serve` finds it (or $OPENMAPKIT_WEB_LIBRARIES);
# never committed, never fetched at run time.
WEB_LIBRARIES := .build/web
PIP_MAPLIBRE  := maplibre==0.3.6

# What building and running need (`make run`, `make build`, `make docs`).
deps:
	@command -v $(SWIFT) >/dev/null || { echo "The Swift toolchain (6.0 or later) is required: https://www.swift.org/install/linux/"; exit 1; }
	$(call apt_install,$(APT_BUILD))
	@[ -f $(WEB_LIBRARIES)/maplibre/srcjs/maplibre-gl.js ] || python3 -m pip install --quiet --no-deps --target $(WEB_LIBRARIES) $(PIP_MAPLIBRE)

# What the tests add (`make test`, and the benchmarks, which use the same readers).
test-deps: deps
	$(call apt_install,$(APT_TEST))
	@python3 -c "import pmtiles, osmium, apple_maps_api, mapsnap" 2>/dev/null || PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet $(PIP_TEST)

bench-deps: test-deps
	$(call apt_install,$(APT_BENCH))

build: deps
	$(SWIFT) build -c release --product openmapkit

run: build
	@[ $(BUNDLE)/manifest.json -nt $(PBF) ] || $(RELEASE_BIN)/openmapkit import $(PBF) -o $(BUNDLE)
	$(RELEASE_BIN)/openmapkit serve $(BUNDLE) --host $(HOST) --port $(PORT)

# Package.swift must say exactly what each target imports (Scripts/check-manifest.py; SwiftPM's own
# check is passed too, though on this toolchain it reports nothing), and the docs must build.
test: test-deps
	python3 Scripts/check-manifest.py
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(DOCS)
	$(SWIFT) test --skip-build

# The OpenMapKit DocC catalog (Sources/OpenMapKit/OpenMapKit.docc) and its symbols' doc comments,
# built into .build/docs with warnings as errors after checking every public type has a doc comment
# (Scripts/check-doc-comments.py), so an undocumented type, a broken link or a symbol reference fails
# `make test`. The plugin reuses the debug build in .build (it builds nothing new after
# `swift build`), extracts OpenMapKit's symbol graph and runs docc: about 30 s on two cores.
DOCS          = python3 Scripts/check-doc-comments.py && $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target OpenMapKit \
                --output-path .build/docs --warnings-as-errors

docs: deps
	$(DOCS)

bench: bench-deps
	$(SWIFT) build -c release --product OpenMapKitBenchmarks
	$(SWIFT) build -c release --product openmapkit
	$(RELEASE_BIN)/OpenMapKitBenchmarks
	python3 Benchmarks/compare-peers.py $(RELEASE_BIN)/openmapkit
	python3 Benchmarks/compare-import.py $(RELEASE_BIN)/openmapkit --scale
	python3 Benchmarks/compare-update.py $(RELEASE_BIN)/openmapkit --scale
	python3 Benchmarks/compare-render.py $(RELEASE_BIN)/openmapkit
	python3 Benchmarks/compare-mapview.py $(RELEASE_BIN)/openmapkit
	python3 Benchmarks/compare-search.py $(RELEASE_BIN)/openmapkit
	$(RELEASE_BIN)/OpenMapKitBenchmarks roadgraph ../shared/data/osm/andorra.osm.pbf
	$(RELEASE_BIN)/OpenMapKitBenchmarks lookaround
	$(RELEASE_BIN)/OpenMapKitBenchmarks lookaround-render
	python3 Benchmarks/compare-routing.py $(RELEASE_BIN)/OpenMapKitBenchmarks
	python3 Benchmarks/compare-server.py $(RELEASE_BIN)/openmapkit

clean:
	rm -rf .build
