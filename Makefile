# Two commands for a fresh clone: `make run` (podcast-watch on the bundled sample feeds) and
# `make test` (the whole suite). Both install missing Debian packages first: `make run` only what
# building podcast-watch needs (PKGS_RUN), `make test` everything the tests need too.
SWIFT ?= swift
DOCC ?= docc
SWIFT_FORMAT ?= swift-format
# The modules with a DocC catalog (Sources/<module>/<module>.docc).
DOC_MODULES := LoopScheduler ViewModelKit ViewModelKitSchedulers LoopSchedulerFoundation ViewModelKitFoundation GLibLoop \
  PodcastFeeds PodcastStore PodcastEngine PodcastWeb PodcastCommandLine
# What `make run` needs: building and running podcast-watch (pkg-config module:Debian package).
PKGS_RUN := libevent_pthreads:libevent-dev libcurl:libcurl4-openssl-dev libxml-2.0:libxml2-dev sqlite3:libsqlite3-dev \
  libsystemd:libsystemd-dev
# What the whole build (GLibLoop, the GTK example) and the tests need beyond that.
PKGS_TEST := glib-2.0:libglib2.0-dev gtk4:libgtk-4-dev
# Commands the GTK example's test needs (an X server, a screenshot, window lookup): command:package.
TOOLS := Xvfb:xvfb import:imagemagick convert:imagemagick xwininfo:x11-utils xauth:xauth curl:curl
# The dashboard's browser test (test-browser): headless Chromium, driven from a stdlib Python script.
TOOLS += chromium:chromium python3:python3
# Packaging and its tests (test-install, test-deb, test-manual): the Debian package tools, the
# man page and completion checkers, the shells the completions are loaded in, systemd-analyze.
TOOLS += dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev dh:debhelper fakeroot:fakeroot lintian:lintian mandoc:mandoc \
  zsh:zsh fish:fish systemd-analyze:systemd
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps deps-run deps-bench test-deps-lists test-venv build run test mutate test-tsan test-asan test-gtk test-browser docs examples lint format bench bench-quick bench-callgrind fuzz fuzz-smoke clean

# Installs only what pkg-config (for $(1), module:package pairs) or the PATH (for $(2),
# command:package pairs) cannot find, so a prepared machine is left alone; no recommended
# packages (they pulled in daemons such as avahi-daemon).
define install_missing
@missing=""; \
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
for pair in $(1); do \
  mod=$${pair%%:*}; deb=$${pair#*:}; \
  pkg-config --exists $$mod 2>/dev/null || missing="$$missing $$deb"; \
done; \
for pair in $(2); do \
  cmd=$${pair%%:*}; deb=$${pair#*:}; \
  command -v $$cmd >/dev/null 2>&1 || case " $$missing " in *" $$deb "*) ;; *) missing="$$missing $$deb";; esac; \
done; \
if [ -n "$$missing" ]; then \
  echo "deps: installing$$missing"; \
  $(SUDO) apt-get update -qq && \
  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
else echo "deps: all present"; fi
endef

# `make run`'s packages: the five -dev libraries podcast-watch links, and pkg-config.
deps-run:
	$(call install_missing,$(PKGS_RUN),)

# `make bench` and `make bench-callgrind` also need valgrind and Debian's nginx (case 12 serves a
# downloaded file beside it; the bench starts the binary itself on loopback with a config of its
# own, so the package's own service is not used). Not part of `make test`: bench-quick's case 12
# says so and skips the nginx row where it is missing.
BENCH_TOOLS := nginx:nginx-light valgrind:valgrind
deps-bench:
	$(call install_missing,,$(BENCH_TOOLS))

# Everything the build and `make test` need (a superset of deps-run).
deps:
	$(call install_missing,$(PKGS_RUN) $(PKGS_TEST),$(TOOLS))

# The test venv (.build/test-venv): feedparser and podcastparser from PyPI, which the local
# podcast feed's test (LocalFeedProcessTests) reads the feed with. Debian's python3-venv gives
# `python3 -m venv`; installed only when missing.
TEST_VENV := .build/test-venv
test-venv: $(TEST_VENV)/.installed
$(TEST_VENV)/.installed: Tests/LocalFeed/requirements.txt
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends python3-venv; }
	python3 -m venv $(TEST_VENV)
	$(TEST_VENV)/bin/pip install -q -r Tests/LocalFeed/requirements.txt
	touch $@

# PKGS_RUN is exactly the system libraries podcast-watch's targets name in Package.swift.
test-deps-lists:
	SWIFT=$(SWIFT) Scripts/check-deps-lists.sh

build: deps
	$(SWIFT) build

run: deps-run
	$(SWIFT) build --product podcast-watch
	$(SWIFT) run podcast-watch demo

# The whole suite, the documentation (warnings are errors) and the examples, then the loop and
# ViewModelKit again under ThreadSanitizer and under AddressSanitizer with LeakSanitizer, the GTK
# example under Xvfb, every benchmark at its quick size (so they never rot; nothing is asserted
# about speed), every fuzz target on its seeds and regressions plus a fixed number of mutations
# from a fixed seed, the install, man page, completion and Debian package tests, and the
# README's quick starts run as written.
test: deps
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-venv
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@if [ "$$LOOPMVVM_SKIP_CORPUS" = 1 ]; then \
	  echo "test: LOOPMVVM_SKIP_CORPUS=1: the shared-corpus suites were SKIPPED"; fi
	$(MAKE) --no-print-directory docs
	$(MAKE) --no-print-directory examples
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-gtk
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory bench-quick
	$(MAKE) --no-print-directory fuzz-smoke
	$(MAKE) --no-print-directory test-deps-lists
	$(MAKE) --no-print-directory test-install
	$(MAKE) --no-print-directory test-manual
	$(MAKE) --no-print-directory test-deb
	$(MAKE) --no-print-directory test-readme

# The core promises as source mutations (Scripts/mutants.tsv), each applied alone to a scratch
# copy of the package, rebuilt incrementally and run against the test(s) it names: prints a
# table and fails if any mutant survives. Not part of `make test` (it rebuilds per mutant). The
# scratch copy is kept in $$TMPDIR between runs; `make mutate MUTATE_ARGS="--only Database"` runs
# a subset.
mutate: deps
	SWIFT=$(SWIFT) python3 Scripts/mutate.py $(MUTATE_ARGS)

# The loop, the reactive core and the MVVM layer under ThreadSanitizer (separate scratch dir: a
# TSan build does not mix with the plain one).
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
	  --filter 'LoopSchedulerTests|ViewModelKitTests|MainActorIdiomTests|CombineViewModelTests'

# DocC for each module in DOC_MODULES, as a static site under .build/docs (see README,
# "Documentation"). Fails on any docc warning (broken symbol links, bad doc-comment markup), on a
# public declaration without a doc comment of its own, and on an article code block that no
# compiled file contains (Scripts/docs-check.swift, which first proves on a fixture that it
# catches each of its cases).
docs: deps
	python3 Scripts/check-architecture.py docs/ARCHITECTURE.md  # its dependency table is Package.swift's
	$(SWIFT) build --build-tests  # dump-symbol-graph also loads the test modules
	@set -e; graphs=$$(dirname "$$($(SWIFT) build --show-bin-path)")/symbolgraph; \
	rm -rf "$$graphs" .build/docs; mkdir -p .build/docs; \
	if (cd Scripts/docs-check-fixture && $(SWIFT) ../docs-check.swift graphs Fixture) >.build/docs/self-test.out; \
	then echo "docs: docs-check passed its fixture, which has errors"; exit 1; fi; \
	diff -u Scripts/docs-check-fixture/expected-output.txt .build/docs/self-test.out \
	  || { echo "docs: docs-check no longer reports its fixture's errors as expected"; exit 1; }; \
	$(SWIFT) package dump-symbol-graph --minimum-access-level public \
	  --skip-synthesized-members --skip-inherited-docs >/dev/null; \
	$(SWIFT) Scripts/docs-check.swift "$$graphs" $(DOC_MODULES); \
	for module in $(DOC_MODULES); do \
	  mkdir -p .build/docs/symbol-graphs/$$module; \
	  cp "$$graphs/$$module".symbols.json .build/docs/symbol-graphs/$$module/; \
	  for extra in "$$graphs/$$module"@*.symbols.json; do \
	    if [ -e "$$extra" ]; then cp "$$extra" .build/docs/symbol-graphs/$$module/; fi; \
	  done; \
	  $(DOCC) convert Sources/$$module/$$module.docc \
	    --additional-symbol-graph-dir .build/docs/symbol-graphs/$$module \
	    --output-dir .build/docs/$$module --hosting-base-path $$module \
	    --transform-for-static-hosting --warnings-as-errors >.build/docs/$$module.log 2>&1 \
	    || { cat .build/docs/$$module.log; echo "docs: docc failed for $$module"; exit 1; }; \
	  echo "docs: $$module -> .build/docs/$$module/documentation/$$(echo $$module | tr A-Z a-z)/"; \
	done; \
	cp docs/docs-index.html .build/docs/index.html

# The runnable examples, each run and compared with its expected output (Examples/*/expected-output.txt),
# then Examples/FeedReader, the package that uses PodcastFeeds and nothing else.
EXAMPLES := getting-started-example:Examples/GettingStarted c-hosted-loop:Examples/CHostedLoop \
  poll-host-example:Examples/PollHost add-on-names-example:Examples/AddOnNames \
  readme-pattern-example:Examples/ReadmePattern
examples: deps
	$(SWIFT) build
	@bin=$$($(SWIFT) build --show-bin-path); mkdir -p .build/examples; \
	for pair in $(EXAMPLES); do \
	  name=$${pair%%:*}; dir=$${pair#*:}; \
	  "$$bin/$$name" >.build/examples/$$name.out 2>&1 || { cat .build/examples/$$name.out; echo "examples: $$name failed"; exit 1; }; \
	  diff -u "$$dir/expected-output.txt" .build/examples/$$name.out || { echo "examples: $$name printed something else"; exit 1; }; \
	  echo "examples: $$name ok"; \
	done
	@# The feed library alone: a package of its own that depends only on the PodcastFeeds product
	@# parses a sample feed; its binary must link none of libevent, SQLite or libcurl.
	cd Examples/FeedReader && $(SWIFT) build
	@bin=$$(cd Examples/FeedReader && $(SWIFT) build --show-bin-path)/feed-reader; \
	"$$bin" Sources/podcast-watch/SampleFeeds/tidepool-radio.xml >.build/examples/feed-reader.out 2>&1 \
	  || { cat .build/examples/feed-reader.out; echo "examples: feed-reader failed"; exit 1; }; \
	diff -u Examples/FeedReader/expected-output.txt .build/examples/feed-reader.out \
	  || { echo "examples: feed-reader printed something else"; exit 1; }; \
	if ldd "$$bin" | grep -E 'libevent|libsqlite3|libcurl'; then \
	  echo "examples: feed-reader links a library PodcastFeeds must not need"; exit 1; fi; \
	echo "examples: feed-reader ok (PodcastFeeds alone)"

# swift-format with the repository's .swift-format (see README, "Code style"). `make lint` fails
# on any finding (`make test` runs it first); `make format` rewrites the files in place.
# It also checks the layout of the podcast side and of ViewModelKit: no file over 600 lines and no
# function over 80 (Scripts/source-lengths.py), and each module's folders using each other one way
# only (Scripts/folder-dependencies.py).
FORMATTED := Package.swift Sources Tests Examples Scripts
PODCAST_MODULES := Sources/PodcastFeeds Sources/PodcastStore Sources/PodcastEngine Sources/PodcastWeb \
  Sources/PodcastCommandLine
lint:
	$(SWIFT_FORMAT) lint --strict --recursive --parallel $(FORMATTED)
	python3 Scripts/source-lengths.py --max-file 600 --max-function 80 $(PODCAST_MODULES) Sources/podcast-watch \
	  Sources/ViewModelKit
	python3 Scripts/folder-dependencies.py $(PODCAST_MODULES) Sources/ViewModelKit >/dev/null \
	  || python3 Scripts/folder-dependencies.py $(PODCAST_MODULES) Sources/ViewModelKit

format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel $(FORMATTED)
# The GTK 4 example (its own package, so the root build needs no GTK) under Xvfb: a screenshot
# must show its window, and its report one redraw per loop iteration at most. Skips only when no
# X server can start.
test-gtk: deps
	cd Examples/GTKCounter && $(SWIFT) build
	Examples/GTKCounter/xvfb-test.sh

# The web dashboard (run --http) in headless Chromium over the DevTools protocol: the page
# shows the feeds, updates live, adds a feed from its form, and a hostile title runs no script.
# Its screenshot lands in .build/browser/ (docs/dashboard.png is a copy). Skips only when the
# browser cannot start.
test-browser: deps
	$(SWIFT) build --product podcast-watch
	python3 Tests/Browser/dashboard_test.py --binary "$$($(SWIFT) build --show-bin-path)/podcast-watch" \
	  --screenshot .build/browser/dashboard.png

# The loop, the reactive core and the MVVM layer under AddressSanitizer (the Swift toolchain ships
# the ASan/LeakSanitizer runtime; no Debian package is needed), in a scratch dir of its own.
# 1. Every LoopSchedulerTests and ViewModelKitTests test under ASan: use-after-free, overflows.
# 2. LeakSanitizer over the Swift Testing suites: tests shut down the loops they make, so a leaked
#    loop, base, job or handler fails the run. Not over XCTest: its harness allocates its test
#    cases beneath XCTMain, which also runs every test, so no suppression could name only the
#    harness (those suites are the main-loop ones; EventLoop.main lives for the process anyway).
#    ASAN_SKIP_LEAKS lists suites whose tests end with a Combine-style subscriber<->subscription
#    cycle (a stream neither cancelled nor completed, which leaks in Combine too) not yet
#    detached: ThrottleTests (its `burst` helper returns the recorder's values) and
#    PassthroughSubjectTests (subscribers other than Recorder). As in Combine, most operators
#    keep their downstream while their subscription lives (ReleaseOnEndTests), so Recorder lets
#    its subscription go at the completion and at a cancel, as Sink does, and the suites detach their
#    never-ending streams at each test's end (Recorder.detachIfRunning()) and are leak-checked.
#    ASAN_SKIP_LEAKS_RUNTIME: triaged, not ours. TaskListExitTests: Foundation's Process.run
#    allocates a weak reference it never frees. NonFiniteStrideTests: schedules Dispatch work at
#    "never" on purpose; the pending libdispatch timer and its block live until exit.
#    FoundationSchedulerTests, FoundationPublisherTests: swift-corelibs-foundation's `Timer`
#    (RunLoop's scheduler) is never freed, even created, fired and invalidated with nothing of
#    ours around it (a five-line program leaks it under LeakSanitizer).
ASAN_SKIP_LEAKS_RUNTIME := TaskListExitTests|NonFiniteStrideTests|FoundationSchedulerTests|FoundationPublisherTests
ASAN_SKIP_LEAKS := ThrottleTests|PassthroughSubjectTests|$(ASAN_SKIP_LEAKS_RUNTIME)
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan \
	  --filter 'LoopSchedulerTests|ViewModelKitTests'
	ASAN_OPTIONS=detect_leaks=1 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan \
	  --disable-xctest --filter 'LoopSchedulerTests|ViewModelKitTests' --skip '$(ASAN_SKIP_LEAKS)'

# Release-built benchmarks, each beside its baseline measured in the same run (see
# docs/PERFORMANCE.md). `make bench` builds the runner as a user's package builds us (Benchmarks/, a
# path dependency, release, no flags) and runs every case; then the chain and memory cases again
# with the opt-in cross-module optimisation (LOOPMVVM_CMO=1), for the no-flag/CMO comparison.
# It takes several minutes; bench-quick runs every case at a small size (no flags either).
bench: deps deps-bench
	cd Benchmarks && LOOPMVVM_TOOLS=1 $(SWIFT) run -c release loop-bench-user --json ../.build/loop-bench.json
	LOOPMVVM_CMO=1 $(SWIFT) run -c release loop-bench --json .build/loop-bench-cmo.json chain memory
	cd Benchmarks && LOOPMVVM_TOOLS=1 $(SWIFT) run -c release loop-bench-user \
		--compare-cmo ../.build/loop-bench.json ../.build/loop-bench-cmo.json --json ../.build/loop-bench-compare.json

# The same comparison in callgrind instructions per value (no load moves them): case 5's chain
# and @Published set, no-flag build against LOOPMVVM_CMO=1 (built in .build-cmo); then case 4's
# instructions per updateView(), ours against the DispatchSource handler in the same run (the
# no-flag build). Needs valgrind.
bench-callgrind: deps deps-bench
	SWIFT=$(SWIFT) Scripts/callgrind-chain.sh
	SWIFT=$(SWIFT) Scripts/callgrind-coalescing.sh

# bench-quick is built with the flags `make release` uses, so test-install/test-manual/test-deb
# (which run after it in `make test`) reuse its release objects instead of compiling them again.
bench-quick: deps
	$(SWIFT) build -c release --static-swift-stdlib --product loop-bench
	"$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/loop-bench" --quick --json .build/loop-bench-quick.json

# Coverage-guided fuzzing (libFuzzer + AddressSanitizer, a separate package under Fuzz/) of the
# date, duration, feed and OPML parsers and the HTML sanitiser: `make fuzz` explores each for 60 s
# at random (a finding becomes a file in Fuzz/Regressions/); `make fuzz-smoke` (part of `make test`)
# replays every seed and regression and a fixed number of mutations from a fixed seed, the same
# inputs on every run. A crash fails the target and leaves its input in Fuzz/crashes/.
fuzz: deps
	SWIFT=$(SWIFT) Fuzz/run.sh 60

fuzz-smoke: deps
	SWIFT=$(SWIFT) Fuzz/run.sh smoke

clean:
	rm -rf .build .build-cmo .build-tsan .build-asan Examples/GTKCounter/.build Examples/FeedReader/.build Benchmarks/.build Fuzz/.build

# ==== Installing podcast-watch and its Debian package (docs/INSTALL.md, docs/PACKAGING.md) ====
# `make release`: podcast-watch built for release with the Swift runtime linked statically, so
# it runs where no Swift toolchain is installed (it needs only Debian's shared C libraries).
# Built in the default scratch folder, whose release objects bench-quick shares.
# `make install` / `make uninstall` (PREFIX, DESTDIR; Scripts/install.sh lists the files).
# `make test-install` (part of `make test`): the binary's libraries all come from Debian
# packages, it runs with the toolchain hidden, and install then uninstall leave nothing behind.
PREFIX ?= /usr/local
DESTDIR ?=
RELEASE_FLAGS := -c release --static-swift-stdlib
RELEASE_BIN = $$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)
MANUAL_DIR := .build/manual
.PHONY: release manual install uninstall test-install test-manual

release: deps-run
	$(SWIFT) build $(RELEASE_FLAGS) --product podcast-watch

# `make manual`: podcast-watch(1), podcast-watch.conf(5) and the bash, zsh and fish completions
# in .build/manual, generated from the CLI's command table and help texts (podcast-watch-manual,
# built with the release flags so it shares the release build's objects), dated by the last commit.
manual: release
	$(SWIFT) build $(RELEASE_FLAGS) --product podcast-watch-manual
	"$(RELEASE_BIN)/podcast-watch-manual" $(MANUAL_DIR) "$$(git log -1 --format=%cs 2>/dev/null || date +%F)"

# `make test-manual` (part of `make test`): mandoc -T lint clean, and each completion loaded in
# its shell and asked for commands, options, values and feed numbers (Scripts/test-manual.sh).
test-manual: manual
	MANUAL=$(MANUAL_DIR) BIN="$(RELEASE_BIN)" Scripts/test-manual.sh

install: manual
	BINARY="$(RELEASE_BIN)/podcast-watch" MANUAL=$(MANUAL_DIR) \
	  DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" Scripts/install.sh install

uninstall:
	DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" Scripts/install.sh uninstall

test-install: manual
	BINARY="$(RELEASE_BIN)/podcast-watch" MANUAL=$(MANUAL_DIR) Scripts/test-install.sh

# `make deb`: the Debian package (.build/deb/podcast-watch_VERSION_ARCH.deb), built by debhelper
# from contrib/debian around the release binary (Scripts/build-deb.sh; docs/PACKAGING.md).
# `make test-deb` (part of `make test`): inspects it (dpkg-deb -I/-c, lintian), then installs,
# uses and purges it in a throwaway overlay of / (Scripts/test-deb.sh).
.PHONY: deps-deb deb test-deb

# What building the package needs, and no more: podcast-watch's libraries and Debian's packaging
# tools (`make deb` on a build machine need not install the test tools).
DEB_TOOLS := dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev dh:debhelper fakeroot:fakeroot
deps-deb:
	$(call install_missing,$(PKGS_RUN),$(DEB_TOOLS))

deb: deps-deb manual
	BINARY="$(RELEASE_BIN)/podcast-watch" MANUAL=$(MANUAL_DIR) Scripts/build-deb.sh

test-deb: deb
	DEB="$$(ls .build/deb/podcast-watch_*.deb)" REQUIRE_INSTALL="$${CI:+1}" Scripts/test-deb.sh

# `make test-readme` (part of `make test`): the README's quick starts run as written
# (Scripts/test-readme.py): its Package.swift lines and program in a scratch package depending
# on this repository by path, and its from-source commands in a scratch HOME. Its Debian
# commands run inside test-deb's throwaway system.
.PHONY: test-readme
test-readme: deps
	SWIFT=$(SWIFT) python3 Scripts/test-readme.py
# ==== end of installing and packaging ====
