# Two commands for a fresh clone: `make run` (podcast-watch on the bundled sample feeds) and
# `make test` (the whole suite). Both install missing Debian packages first.
SWIFT ?= swift
PKGS := libevent_pthreads:libevent-dev libcurl:libcurl4-openssl-dev libxml-2.0:libxml2-dev sqlite3:libsqlite3-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test test-tsan test-asan bench bench-quick clean

# Installs only what pkg-config cannot find, so a prepared machine is left alone.
deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	for pair in $(PKGS); do \
	  mod=$${pair%%:*}; deb=$${pair#*:}; \
	  pkg-config --exists $$mod 2>/dev/null || missing="$$missing $$deb"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	else echo "deps: all present"; fi

build: deps
	$(SWIFT) build

run: deps
	$(SWIFT) build --product podcast-watch
	$(SWIFT) run podcast-watch demo

# The whole suite, then the loop and ViewModelKit again under ThreadSanitizer and under
# AddressSanitizer with LeakSanitizer, then every benchmark at its quick size (so they never
# rot; nothing is asserted about speed).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory bench-quick

# The loop, the reactive core and the MVVM layer under ThreadSanitizer (separate scratch dir: a
# TSan build does not mix with the plain one).
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
	  --filter 'LoopSchedulerTests|ViewModelKitTests'

# The loop, the reactive core and the MVVM layer under AddressSanitizer (the Swift toolchain ships
# the ASan/LeakSanitizer runtime; no Debian package is needed), in a scratch dir of its own.
# 1. Every LoopSchedulerTests and ViewModelKitTests test under ASan: use-after-free, overflows.
# 2. LeakSanitizer over the Swift Testing suites: tests shut down the loops they make, so a leaked
#    loop, base, job or handler fails the run. Not over XCTest: its harness allocates its test
#    cases beneath XCTMain, which also runs every test, so no suppression could name only the
#    harness (those suites are the main-loop ones; EventLoop.main lives for the process anyway).
#    ASAN_SKIP_LEAKS lists operator suites whose tests end with a Combine-style
#    subscriber<->subscription cycle (neither cancelled nor completed, which leaks in Combine too).
ASAN_SKIP_LEAKS := TransformOverloadTests|CombineLatestTests|ShareTests|TimerPublisherTests|FlatMapTests|ThrottleTests|DebounceTests|TimeoutTests|DelayTests|MergeTests|ConcatenateTests|DebuggingOperatorTests|SwitchToLatestTests|MakeConnectableTests|MapFamilyTests|SlicingTests|MulticastTests|ErasureTests|PublishedTests|CurrentValueSubjectTests|PassthroughSubjectTests|SequencePublisherTests
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan \
	  --filter 'LoopSchedulerTests|ViewModelKitTests'
	ASAN_OPTIONS=detect_leaks=1 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan \
	  --disable-xctest --filter 'LoopSchedulerTests|ViewModelKitTests' --skip '$(ASAN_SKIP_LEAKS)'

# Release-built benchmarks, each beside its baseline measured in the same run (see README,
# "Performance"). `make bench` takes a few minutes; bench-quick runs every case at a small size.
bench: deps
	LOOPMVVM_CMO=1 $(SWIFT) run -c release loop-bench --json .build/loop-bench.json

bench-quick: deps
	LOOPMVVM_CMO=1 $(SWIFT) run -c release loop-bench --quick --json .build/loop-bench-quick.json

clean:
	rm -rf .build .build-tsan .build-asan
