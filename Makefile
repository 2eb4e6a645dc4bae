# HotTask: `make run` opens the app, `make test` runs every test. Both install the system
# packages they need first (libncurses-dev; tmux, procps and strace for the end-to-end tests too).
# `make deb` and `make dist` package the release build.
SWIFT ?= swift
SWIFTC ?= swiftc
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
ARGS ?=
# The version is written once, in the binary's source; the packages are named after it.
VERSION := $(shell sed -n 's/^ *static let current = "\(.*\)"$$/\1/p' Sources/hottask/CLI/HotTaskVersion.swift)
DEB ?= hottask_$(VERSION)_amd64.deb
DIST ?= hottask-$(VERSION)-linux-x86_64.tar.gz
# Release builds link the Swift runtime and Foundation's essentials into the binary, so that the
# installed hottask needs nothing from the toolchain (/opt/swift) and starts faster. One product
# at a time: the test-support targets need Swift Testing, which has no static build. No $ORIGIN
# in the binary's search path: a hottask run from /tmp must not load a libcurl or libncursesw
# another user put beside it.
RELEASE_BUILD = $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --product
# The binary `make install` copies. Given on the command line (BIN=.build/debug/hottask), it
# is used as it is and nothing is built.
BIN ?= .build/release/hottask
ifeq ($(origin BIN),command line)
INSTALL_NEEDS =
else
INSTALL_NEEDS = build
endif

.PHONY: all deps test-deps package-deps install-missing build debug run demo test stress sync-crash-points fuzz bench bench-peers bench-sync profile install uninstall deb dist clean format lint

all: build

# apt-get only for what is missing; sudo only when not root. Building needs libncurses-dev;
# the end-to-end tests also need tmux, procps (pgrep, kill), strace (crash-point tests),
# Taskwarrior, todo.txt-cli and todoman (the real peers the interop tests drive), ical (the
# strict iCalendar parser the tests check HotTask's bodies with), the
# CalDAV servers Radicale, Xandikos, sabre/dav (PHP), Cyrus, DAViCal (Apache, PostgreSQL) and
# SOGo (memcached, PostgreSQL), zsh and fish (the completion tests), and Python's caldav library
# (the test's phone, from PyPI).
deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="libncurses-dev:/usr/include/ncursesw/curses.h libcurl4-openssl-dev:curl-config"

# dpkg-dev (dpkg-shlibdeps) and lintian build and check the Debian package.
package-deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="dpkg-dev:dpkg-shlibdeps lintian:lintian"

# The tests also need the package tools: they build, check, install and remove the package.
test-deps:
	@$(MAKE) --no-print-directory install-missing \
		PACKAGES="dpkg-dev:dpkg-shlibdeps lintian:lintian util-linux:setpriv libncurses-dev:/usr/include/ncursesw/curses.h libcurl4-openssl-dev:curl-config tmux:tmux procps:pgrep strace:strace radicale:radicale xandikos:xandikos openssl:openssl python3-pip:pip3 taskwarrior:task todotxt-cli:todo-txt jq:jq php-cli:php php-sabre-dav:/usr/share/php/Sabre/autoload.php php-sqlite3:/usr/lib/php/*/pdo_sqlite.so php-xml:/usr/lib/php/*/dom.so php-mbstring:/usr/lib/php/*/mbstring.so cyrus-imapd:/usr/lib/cyrus/bin/master cyrus-caldav:/usr/lib/cyrus/bin/httpd sasl2-bin:saslpasswd2 davical:/usr/share/davical/dba/create-database.sh apache2:/usr/sbin/apache2 libapache2-mod-php:/usr/lib/apache2/modules/libphp*.so postgresql:/usr/lib/postgresql/*/bin/postgres sogo:/usr/sbin/sogod memcached:memcached faketime:faketime groff-base:groff bsdextrautils:col zsh:zsh fish:fish time:/usr/bin/time"
	@python3 -c "import caldav, icalendar, ical, vobject" 2>/dev/null || python3 -m pip install -q caldav icalendar ical vobject || python3 -m pip install -q --break-system-packages caldav icalendar ical vobject
	@command -v todo >/dev/null || python3 -m pip install -q todoman || python3 -m pip install -q --break-system-packages todoman

# PACKAGES is a list of package:file-or-command pairs; each whose file or command is missing
# is installed. A file may be a glob (PHP's modules live in a folder named by its API date).
# While apt-get runs, a policy-rc.d (when there is none) keeps it from starting the packages'
# system services: the tests start their own servers on 127.0.0.1, and Cyrus's or Radicale's
# service would listen on every address.
install-missing:
	@command -v $(SWIFT) >/dev/null || { echo "error: Swift 6 is needed (https://swift.org/install); 'swift' is not on PATH" >&2; exit 1; }
	@missing=""; \
	for pair in $(PACKAGES); do \
		package=$${pair%%:*}; needed=$${pair#*:}; \
		case "$$needed" in /*) ls -d $$needed >/dev/null 2>&1 ;; *) command -v "$$needed" >/dev/null ;; esac || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		policy=""; if [ ! -e /usr/sbin/policy-rc.d ]; then \
			printf '#!/bin/sh\nexit 101\n' | $$sudo tee /usr/sbin/policy-rc.d >/dev/null && $$sudo chmod 755 /usr/sbin/policy-rc.d && policy=made; \
		fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; status=$$?; \
		if [ -n "$$policy" ]; then $$sudo rm -f /usr/sbin/policy-rc.d; fi; \
		exit $$status; \
	fi

build: deps
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-sync

debug: deps
	$(SWIFT) build

# `make run ARGS="--list"` passes options through.
run: build
	.build/release/hottask $(ARGS)

# The tests run with their own temp folder (TMPDIR, and TMUX_TMPDIR for tmux's sockets), so
# that afterwards any process or socket they left can be found by its path: one fails the run.
# The end-to-end tests run the binary as people get it: `make install` into the run's folder
# (the stripped release build and its hottask-sync link), named by HOTTASK_BIN; it is also run
# there with the toolchain hidden (InstalledBinaryTests), and the packages are built there from
# the same release build (PackageTests: lintian, then dpkg -i, a few commands, dpkg -r). The
# suites run in three processes at once (Tests/Scripts/run-tests.py), the slowest first.
test: test-deps
	$(SWIFT) build --build-tests
	$(RELEASE_BUILD) hottask
	@run=$$(mktemp -d "$${TMPDIR:-/tmp}/hottask-test-run.XXXXXX") && \
	$(MAKE) --no-print-directory install DESTDIR="$$run/installed" PREFIX=/usr BIN=.build/release/hottask >/dev/null && \
	Packaging/build-deb.sh $(VERSION) .build/release "$$run/$(DEB)" >/dev/null && \
	Packaging/build-dist.sh $(VERSION) .build/release "$$run/$(DIST)" && \
	TMPDIR="$$run" TMUX_TMPDIR="$$run" HOTTASK_INSTALLED="$$run/installed/usr" HOTTASK_BIN="$$run/installed/usr/bin/hottask" \
		HOTTASK_DEB="$$run/$(DEB)" \
		HOTTASK_DIST="$$run/$(DIST)" python3 Tests/Scripts/run-tests.py "$$($(SWIFT) build --show-bin-path)/HotTaskPackageTests.xctest"; \
		status=$$?; \
	RUN_FOLDER="$$run" Tests/Scripts/check-leftovers.sh || status=1; \
	rm -rf "$$run"; exit $$status

# Many writers at once (issue 38; never part of `make test`, which runs a 100 s form in
# StressTests): three CLI loops, an import every 30 s, a sync every 20 s cut short by SIGKILL or
# Ctrl-C, a phone (Python's caldav) and two UIs in tmux, against one store and one Radicale on
# 127.0.0.1 for STRESS_SECONDS; then a checker (Tests/Scripts/stress.py). STRESS_SEED repeats a
# run's choices; STRESS_ARGS passes more (--syncing-ui uiA: UI A syncs by itself too; --keep).
STRESS_SECONDS ?= 300
STRESS_SEED ?=
STRESS_ARGS ?=
STRESS_PACKAGES = libncurses-dev:/usr/include/ncursesw/curses.h libcurl4-openssl-dev:curl-config radicale:radicale tmux:tmux procps:pgrep strace:strace python3-pip:pip3
stress:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(STRESS_PACKAGES)"
	@python3 -c "import caldav, icalendar" 2>/dev/null || python3 -m pip install -q caldav icalendar || python3 -m pip install -q --break-system-packages caldav icalendar
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-sync
	python3 Tests/Scripts/stress.py --seconds $(STRESS_SECONDS) $(if $(STRESS_SEED),--seed $(STRESS_SEED)) --binary .build/release/hottask $(STRESS_ARGS)

# hottask-sync killed before every file system call and every request of a sync (StressTests
# runs a sample in `make test`); SYNC_CRASH_SAMPLE=N runs N points per scenario and kind.
SYNC_CRASH_SAMPLE ?=
sync-crash-points:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(STRESS_PACKAGES)"
	@python3 -c "import caldav, icalendar" 2>/dev/null || python3 -m pip install -q caldav icalendar || python3 -m pip install -q --break-system-packages caldav icalendar
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-sync
	python3 Tests/Scripts/sync_crash_points.py --binary .build/release/hottask $(if $(SYNC_CRASH_SAMPLE),--sample $(SYNC_CRASH_SAMPLE))

# Benchmarks (never part of `make test`): generated stores of 1k, 10k and 100k tasks, the
# release binary timed per operation, the UI per keystroke. The table also goes to bench-out/.
BENCH_SIZES ?= 1000,10000,100000
BENCH_RUNS ?= 5
bench: deps
	@$(MAKE) --no-print-directory install-missing PACKAGES="time:/usr/bin/time"
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-bench
	mkdir -p bench-out
	.build/release/hottask-bench --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --out bench-out/latest.md

# The same tasks in Taskwarrior and todo.txt-cli, timed the same way, with HotTask/peer ratios.
bench-peers: deps
	@command -v task >/dev/null && command -v todo-txt >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq taskwarrior todotxt-cli; }
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-bench
	mkdir -p bench-out
	.build/release/hottask-bench --peers --sizes $(BENCH_SIZES) --runs $(BENCH_RUNS) --out bench-out/peers.md

# Sync through a slow link (never part of `make test`): Radicale on 127.0.0.1 behind the project's
# latency proxy (Tests/Scripts/latency_proxy.py: 25 ms each way, 50 ms per new connection; again
# behind its keep-alive HTTP/1.1 front, since Radicale closes every connection; then with no added
# latency), HotTask's --sync, vdirsyncer (PyPI) and a floor client (the same PUTs
# over 8 kept-alive connections) uploading, changing, quietly syncing and pulling the same tasks,
# interleaved in one run; wall and CPU time, connections, requests and issue 31's ratios. The
# table also goes to bench-out/sync.md. HOTTASK_BIN=path benchmarks that binary (hottask-sync
# beside it) and builds nothing. BENCH_SYNC_BIG=2000,10000 adds, for each size, a first upload
# of that many tasks, one changed task and a quiet sync at that size (issue 49's rows; slow on
# Radicale: vdirsyncer takes minutes per thousand, so BENCH_SYNC_BIG_CLIENTS=HotTask,floor leaves
# it out of them); BENCH_SYNC_LATENCIES=25:50 runs only the first round.
BENCH_SYNC_TASKS ?= 200
BENCH_SYNC_BIG ?= 0
BENCH_SYNC_BIG_CLIENTS ?= HotTask,vdirsyncer,floor
BENCH_SYNC_REPEATS ?= 1
BENCH_SYNC_LATENCIES ?= 25:50,25:50:keepalive,0:0
# radicale (writes one at a time) or cyrus (in parallel; Fastmail's engine).
BENCH_SYNC_SERVER ?= radicale
HOTTASK_BIN ?=
bench-sync:
	@$(MAKE) --no-print-directory install-missing PACKAGES="radicale:radicale python3-pip:pip3 $(if $(HOTTASK_BIN),,libncurses-dev:/usr/include/ncursesw/curses.h libcurl4-openssl-dev:curl-config) $(if $(filter cyrus,$(BENCH_SYNC_SERVER)),cyrus-imapd:/usr/lib/cyrus/bin/master cyrus-caldav:/usr/lib/cyrus/bin/httpd sasl2-bin:saslpasswd2)"
	@python3 -c "import caldav, icalendar" 2>/dev/null || python3 -m pip install -q caldav icalendar || python3 -m pip install -q --break-system-packages caldav icalendar
	@command -v todo >/dev/null || python3 -m pip install -q todoman || python3 -m pip install -q --break-system-packages todoman
	@command -v vdirsyncer >/dev/null || python3 -c "import vdirsyncer" 2>/dev/null || python3 -m pip install -q vdirsyncer || python3 -m pip install -q --break-system-packages vdirsyncer
ifeq ($(HOTTASK_BIN),)
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-sync
endif
	mkdir -p bench-out
	BENCH_SYNC_TASKS=$(BENCH_SYNC_TASKS) BENCH_SYNC_BIG=$(BENCH_SYNC_BIG) BENCH_SYNC_BIG_CLIENTS=$(BENCH_SYNC_BIG_CLIENTS) BENCH_SYNC_REPEATS=$(BENCH_SYNC_REPEATS) \
		BENCH_SYNC_LATENCIES=$(BENCH_SYNC_LATENCIES) BENCH_SYNC_SERVER=$(BENCH_SYNC_SERVER) HOTTASK_BIN=$(if $(HOTTASK_BIN),$(HOTTASK_BIN),.build/release/hottask) \
		python3 Tests/Scripts/bench_sync.py --out bench-out/sync.md

# Where the time and memory go: --list, --export - and --import (a Taskwarrior export, and
# HotTask's own format) on a generated store of PROFILE_SIZE tasks, under /usr/bin/time, perf stat
# and perf record (PROFILE_TOOL=callgrind counts instructions instead: repeatable on a noisy
# machine, but slow; use PROFILE_SIZE=10000). Everything is kept in bench-out/profile.
PROFILE_SIZE ?= 100000
PROFILE_TOOL ?= perf
profile: deps
	@$(MAKE) --no-print-directory install-missing PACKAGES="linux-perf:perf valgrind:valgrind time:/usr/bin/time"
	$(RELEASE_BUILD) hottask
	$(RELEASE_BUILD) hottask-bench
	Tests/Scripts/profile.sh .build/release/hottask .build/release/hottask-bench $(PROFILE_SIZE) $(PROFILE_TOOL) bench-out/profile

# Coverage-guided fuzzing (libFuzzer) of the import parser, the store decoder and the change-log
# reader, for FUZZ_SECONDS. Seeds: Tests/FuzzCorpus/import (files that must import) and
# Tests/FuzzCorpus/log; new finds stay in .build/fuzz/corpus and a crashing input is written to
# .build/fuzz/ (add it to the seeds once fixed).
FUZZ_SECONDS ?= 180
fuzz: deps
	mkdir -p .build/fuzz/corpus
	$(SWIFTC) -O -sanitize=fuzzer,address -parse-as-library -module-name HotTaskCore \
		$$(find Sources/HotTaskCore -name '*.swift') Fuzz/ImportFuzzer.swift -o .build/fuzz/import-fuzzer
	.build/fuzz/import-fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		-artifact_prefix=.build/fuzz/ .build/fuzz/corpus Tests/FuzzCorpus/import Tests/FuzzCorpus/log

# The sample list (Assets/sample-tasks.json) in a throwaway copy: nothing touches your tasks.
demo: build
	@tmp=$$(mktemp -d) && cp Assets/sample-tasks.json "$$tmp/tasks.json" && \
	.build/release/hottask --file "$$tmp/tasks.json" $(ARGS); status=$$?; rm -rf "$$tmp"; exit $$status

# hottask_VERSION_amd64.deb, laid out as Debian policy asks (Packaging/build-deb.sh), from the
# release build; lintian must find no error in it.
deb: deps package-deps build
	Packaging/build-deb.sh $(VERSION) .build/release $(DEB)
	lintian --fail-on error $(DEB)

# hottask-VERSION-linux-x86_64.tar.gz: the static binaries, man pages and completions with an
# install script (install.sh --prefix DIR), for any x86-64 Linux with ncurses and libcurl.
dist: deps build
	Packaging/build-dist.sh $(VERSION) .build/release $(DIST)

# The binary (hottask, and hottask-sync beside it, a link to it: --sync and the app run it), stripped, the
# man pages and the bash/zsh/fish completions (Assets/completions: they complete file names after
# --file, --import, --export and --config, and offer nothing that fails).
install: $(INSTALL_NEEDS)
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -s -m 755 "$(BIN)" "$(BINDIR)/hottask"
	ln -sf hottask "$(BINDIR)/hottask-sync"
	install -m 644 Assets/hottask.1 "$(MANDIR)/hottask.1"
	install -m 644 Assets/hottask-sync.1 "$(MANDIR)/hottask-sync.1"
	install -m 644 Assets/completions/hottask.bash "$(BASHDIR)/hottask"
	install -m 644 Assets/completions/_hottask "$(ZSHDIR)/_hottask"
	install -m 644 Assets/completions/hottask.fish "$(FISHDIR)/hottask.fish"

uninstall:
	rm -f "$(BINDIR)/hottask" "$(BINDIR)/hottask-sync" "$(MANDIR)/hottask.1" "$(MANDIR)/hottask-sync.1" "$(BASHDIR)/hottask" \
		"$(ZSHDIR)/_hottask" "$(FISHDIR)/hottask.fish"

# swift-format (in the toolchain), with the settings in .swift-format: `make format` rewrites the
# sources, `make lint` only checks them and fails on any difference (CI runs it before the tests).
FORMAT_PATHS = Package.swift Sources Tests
format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

clean:
	rm -rf .build
