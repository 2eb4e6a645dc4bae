# HotTask: `make run` opens the app, `make test` runs every test. Both install the system
# packages they need first (libncurses-dev; tmux for the end-to-end tests).
SWIFT ?= swift
SWIFTC ?= swiftc
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
ARGS ?=

.PHONY: all deps build debug run test fuzz bench install uninstall clean

all: build

# apt-get only for what is missing; sudo only when not root.
deps:
	@command -v $(SWIFT) >/dev/null || { echo "error: Swift 6 is needed (https://swift.org/install); 'swift' is not on PATH" >&2; exit 1; }
	@missing=""; \
	[ -f /usr/include/ncursesw/curses.h ] || missing="$$missing libncurses-dev"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build -c release

debug: deps
	$(SWIFT) build

# `make run ARGS="--list"` passes options through.
run: build
	.build/release/hottask $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Benchmarks (never part of `make test`): generated stores of 1k, 10k and 100k tasks, the
# release binary timed per operation, the UI per keystroke. The table also goes to bench-out/.
BENCH_SIZES ?= 1000,10000,100000
BENCH_RUNS ?= 5
bench: deps
	$(SWIFT) build -c release --product hottask
	$(SWIFT) build -c release --product hottask-bench
	mkdir -p bench-out
	.build/release/hottask-bench --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --out bench-out/latest.md

# Coverage-guided fuzzing (libFuzzer) of the import parser and store decoder, for
# FUZZ_SECONDS. Seeds: Tests/FuzzCorpus/import; new finds stay in .build/fuzz/corpus and a
# crashing input is written to .build/fuzz/ (add it to the seeds once fixed).
FUZZ_SECONDS ?= 180
fuzz: deps
	mkdir -p .build/fuzz/corpus
	$(SWIFTC) -O -sanitize=fuzzer,address -parse-as-library -module-name HotTaskCore \
		$$(find Sources/HotTaskCore -name '*.swift') Fuzz/ImportFuzzer.swift -o .build/fuzz/import-fuzzer
	.build/fuzz/import-fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		-artifact_prefix=.build/fuzz/ .build/fuzz/corpus Tests/FuzzCorpus/import

install: build
	install -d "$(BINDIR)"
	install -m 755 .build/release/hottask "$(BINDIR)/hottask"

uninstall:
	rm -f "$(BINDIR)/hottask"

clean:
	rm -rf .build
