# Two commands for a fresh clone: `make run` (podcast-watch on the bundled sample feeds) and
# `make test` (the whole suite). Both install missing Debian packages first.
SWIFT ?= swift
PKGS := libevent_pthreads:libevent-dev libcurl:libcurl4-openssl-dev libxml-2.0:libxml2-dev sqlite3:libsqlite3-dev libsystemd:libsystemd-dev
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test test-tsan bench bench-quick clean

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

# The whole suite, then the loop and ViewModelKit again under ThreadSanitizer, then every
# benchmark at its quick size (so they never rot; nothing is asserted about speed).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) --no-print-directory test-tsan
	$(MAKE) --no-print-directory bench-quick

# The loop, the reactive core and the MVVM layer under ThreadSanitizer (separate scratch dir: a
# TSan build does not mix with the plain one).
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
	  --filter 'LoopSchedulerTests|ViewModelKitTests'

# Release-built benchmarks, each beside its baseline measured in the same run (see README,
# "Performance"). `make bench` takes a few minutes; bench-quick runs every case at a small size.
bench: deps
	LOOPMVVM_CMO=1 $(SWIFT) run -c release loop-bench --json .build/loop-bench.json

bench-quick: deps
	LOOPMVVM_CMO=1 $(SWIFT) run -c release loop-bench --quick --json .build/loop-bench-quick.json

clean:
	rm -rf .build .build-tsan
