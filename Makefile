# The two commands the README promises: `make demo` and `make test`.
# Both install what they need first (Debian packages via apt-get, skipping what is present).

SWIFT        ?= swift
FUZZ_SECONDS ?= 600
FUZZ_CORPUS  ?= .build-fuzz/corpus

.PHONY: all deps pydeps build format lint test test-console test-swift62 test-arm64 test-arm64-libraries test-jhe test-bluez test-systemd test-powercut soak soak-queue soak-daemon demo fuzz bench bench-daemon bench-footprint bench-console bench-peer ship deb deb-arm64 install clean

all: build

deps:
	@scripts/install-deps.sh

## pydeps: python3 jsonschema, which the uplink tests validate OMH output with (only if missing).
pydeps:
	@python3 -c "import jsonschema, referencing" 2>/dev/null || python3 -m pip install --quiet jsonschema \
		|| python3 -m pip install --quiet --break-system-packages jsonschema

build: deps
	$(SWIFT) build

## format: rewrite the sources in the house style (.swift-format; swift-format ships with the toolchain).
## lint: check it without rewriting, warnings as errors, and every package or public declaration
## documented (scripts/lint-docs; .ci/run runs it).
FORMAT_PATHS = Sources Tests Fuzz Package.swift
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	scripts/lint-docs

## test: every test — the public surface against its pinned list (scripts/public-surface), a
## short fuzz run, then the Swift tests (unit and real-process).
test: deps pydeps
	$(SWIFT) build --build-tests
	scripts/public-surface
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20
	scripts/run-tests.sh

## test-console: the console in a real browser (Debian's chromium through Playwright) against the
## daemon on the simulated bluetoothd: live heart rate, chart, link drop, hostile names, headers
## (scripts/test-console/run.sh; installs chromium and Playwright if missing; about 1 min).
test-console: deps
	scripts/test-console/run.sh

## test-swift62: every Swift test built and run with Debian's Swift 6.2.3, the toolchain that
## cross-builds the Pi's binary, in the Debian sid root that holds it (scripts/arm64/test-swift62;
## root; the first run makes the root, about 2 minutes). Ends with "N passed, N failed, N skipped".
test-swift62:
	scripts/arm64/test-swift62

## test-arm64: the arm64 .deb (make deb-arm64) under qemu-aarch64 as a Cortex-A53: the daemon's
## whole job against the lab's simulators (enrol, pair, outage, SIGKILL, stop; exactly once),
## decode byte for byte as on amd64, and the .deb installed into arm64 bookworm and trixie roots
## (scripts/arm64/test-arm64; root).
test-arm64: deps
	scripts/arm64/test-arm64

## test-arm64-libraries: the architecture-sensitive libraries' tests (frame and record coding,
## the queue with its kill -9 test, Uplink, DBus, the C shims) cross-built with Swift 6.2.3 and
## run under qemu-aarch64 (scripts/arm64/test-libraries; root; the test bundle takes about 13
## minutes to build, so CI leaves it out). Their CI-sized form; EGW_ARM64_TESTS=full runs every
## suite in full.
test-arm64-libraries: deps
	scripts/arm64/test-libraries

## test-jhe: the shipped gateway against a real JupyterHealth Exchange on loopback: a throwaway
## PostgreSQL 15 and JHE from the vendored sources (scripts/test-jhe/vendor, `uv sync`), simulated
## straps; enrolment, kill -9, token refreshes, revoked tokens, withdrawn consent, a server outage,
## then every accepted sample checked in JHE's database (scripts/test-jhe/run.sh; installs its own
## Debian packages and uv). Separate from `test`: see docs/testing.md, "make test-jhe".
test-jhe: deps
	scripts/test-jhe/run.sh

## test-bluez: the shipped gateway against the real bluetoothd, in a qemu VM with five virtual
## LE controllers (scripts/test-bluez/run.sh; installs its own Debian packages). Separate from
## `test`: see docs/testing.md, "make test-bluez".
test-bluez: deps
	scripts/test-bluez/run.sh

## test-systemd: the .deb (static Swift stdlib, as shipped) under a real systemd as PID 1, in the
## same kind of VM: dpkg -i, pair, enrol, the service run, killed, hung past its watchdog,
## stopped, upgraded, removed and purged (scripts/test-systemd/run.sh). See docs/testing.md,
## "make test-systemd".
test-systemd: deps
	scripts/test-systemd/run.sh

## test-powercut: power cuts in a qemu VM: the daemon's state directory on an ext4 virtio disk,
## qemu killed at a random moment while it ingests and uploads, booted again, POWERCUT_CYCLES
## times (CI: 20), then every sample it had logged as accepted found queued or at the server
## (scripts/test-powercut/run.sh). POWERCUT_CYCLES=100 make test-powercut for a longer run.
POWERCUT_CYCLES ?= 20
test-powercut: deps
	EGW_POWERCUT_CYCLES=$(POWERCUT_CYCLES) scripts/test-powercut/run.sh

## soak: both soaks below (SOAK_SECONDS=600 make soak for a short one).
soak: soak-queue soak-daemon

## soak-queue: the queue's kill -9 crash-consistency test with many more cycles (SOAK_CYCLES).
SOAK_CYCLES ?= 1000
soak-queue: deps
	QUEUE_KILL_CYCLES=$(SOAK_CYCLES) $(SWIFT) test --filter OfflineQueueCrashConsistency

## soak-daemon: the release daemon for SOAK_SECONDS (default an hour) with 10 simulated straps,
## link drops, an outage and a bluetoothd restart; prints memory and open files over time, checks
## that anonymous memory and descriptors stay flat and that nothing is lost (edge-gateway-lab
## soak; docs/PERFORMANCE.md).
SOAK_SECONDS ?= 3600
SOAK_ARGS    ?= --sensors 10 --sample-every 30
soak-daemon: deps
	$(SWIFT) build -c release --product edge-gateway
	$(SWIFT) build -c release --product edge-gateway-lab
	"$$($(SWIFT) build -c release --show-bin-path)/edge-gateway-lab" soak --duration $(SOAK_SECONDS) $(SOAK_ARGS)

## demo: the real daemon between simulated straps and a simulated JHE, with an outage
## (edge-gateway-lab demo, which runs the sibling edge-gateway; DEMO_ARGS="--sensors 10 --duration 120").
DEMO_ARGS ?= --sensors 3 --duration 60
demo: deps
	$(SWIFT) build --product edge-gateway
	$(SWIFT) build --product edge-gateway-lab
	"$$($(SWIFT) build --show-bin-path)/edge-gateway-lab" demo $(DEMO_ARGS)

## fuzz: libFuzzer on the frame decoders and the queue record decoder (seeds in Fuzz/seeds), then
## on the readers of server replies (batch and token), then on the configuration's TOML reader
## (seeded with the toml-test files too), each for FUZZ_SECONDS (default 600).
fuzz:
	scripts/build-fuzzer.sh
	mkdir -p $(FUZZ_CORPUS) $(FUZZ_CORPUS)-uplink
	.build-fuzz/heart-rate-frame-fuzzer -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-rss_limit_mb=4096 -artifact_prefix=.build-fuzz/ $(FUZZ_CORPUS) Fuzz/seeds
	.build-fuzz/uplink-reply-fuzzer -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-rss_limit_mb=4096 -artifact_prefix=.build-fuzz/uplink- $(FUZZ_CORPUS)-uplink Fuzz/uplink-seeds
	mkdir -p $(FUZZ_CORPUS)-toml
	.build-fuzz/toml-fuzzer -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-rss_limit_mb=4096 -artifact_prefix=.build-fuzz/toml- $(FUZZ_CORPUS)-toml Fuzz/toml-seeds \
		Tests/GatewayConfigurationTests/Fixtures/toml-test/tests

## bench: release-build benchmarks (edge-gateway-bench: decode, notify, dbus, uplink, queue),
## then the daemon's footprint as shipped (bench-footprint) and end to end (bench-daemon). Figures and methods: docs/PERFORMANCE.md.
## The queue bench is shortened (QUEUE_BENCH_SECONDS simulated seconds, QUEUE_BENCH_BACKLOGS).
QUEUE_BENCH_SECONDS  ?= 600
QUEUE_BENCH_BACKLOGS ?= 1000,100000,1000000
bench: deps
	$(SWIFT) build -c release --product edge-gateway-bench
	QUEUE_BENCH_SECONDS=$(QUEUE_BENCH_SECONDS) QUEUE_BENCH_BACKLOGS=$(QUEUE_BENCH_BACKLOGS) \
		"$$($(SWIFT) build -c release --show-bin-path)/edge-gateway-bench"
	$(MAKE) --no-print-directory bench-footprint
	$(MAKE) --no-print-directory bench-daemon

## bench-daemon: the release daemon between simulated straps and JHE (edge-gateway-lab demo): CPU per
## sample and RSS at 1, 10 and 50 straps for BENCH_SECONDS each, then the backlog drain rate after
## a BENCH_OUTAGE-second outage at 10 and 50 straps, and at 50 straps notifying at 5 Hz.
BENCH_SECONDS ?= 120
BENCH_OUTAGE  ?= 60
bench-daemon: deps
	$(SWIFT) build -c release --product edge-gateway
	$(SWIFT) build -c release --product edge-gateway-lab
	@bin="$$($(SWIFT) build -c release --show-bin-path)/edge-gateway-lab"; \
	run() { echo "== edge-gateway-lab demo $$*"; out="$$("$$bin" demo --token-lifetime 3600 "$$@")" \
		|| { echo "$$out"; exit 1; }; echo "$$out" | grep -E "$$pattern"; }; \
	pattern='daemon cost|exactly once'; \
	for n in 1 10 50; do run --sensors $$n --duration $(BENCH_SECONDS) --outage 0 || exit 1; done; \
	pattern='backlog drain|exactly once'; \
	run --sensors 10 --duration $(BENCH_SECONDS) --outage $(BENCH_OUTAGE) || exit 1; \
	run --sensors 50 --duration $(BENCH_SECONDS) --outage $(BENCH_OUTAGE) || exit 1; \
	run --sensors 50 --interval-ms 200 --duration $(BENCH_SECONDS) --outage $(BENCH_OUTAGE)

## bench-footprint: the daemon as the .deb ships it (release, static Swift stdlib, stripped), under
## the loads of issue 16 (1 strap at 10/s and ~200/s, PropertiesChanged and AcquireNotify, 10 and
## 50 straps at 1 Hz, idle): CPU per sample, RSS, bytes written, wake-ups; FOOTPRINT_SECONDS windows,
## medians of FOOTPRINT_RUNS (edge-gateway-lab footprint); idle again once the reconnect backoff has
## reached its ceiling (130 s warm-up), over FOOTPRINT_IDLE_SECONDS windows (its events are 30-60 s
## apart, so a 60 s window holds one or two of them); then the floor (scripts/bench-floor: a minimal C libdbus
## client on the same simulated strap). Figures: docs/PERFORMANCE.md.
FOOTPRINT_SECONDS ?= 60
FOOTPRINT_RUNS    ?= 3
FOOTPRINT_IDLE_SECONDS ?= 300
SHIP_BIN = $$($(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-ship --show-bin-path)
bench-footprint: ship
	@bin="$(SHIP_BIN)"; \
	"$$bin/edge-gateway-lab" footprint --seconds $(FOOTPRINT_SECONDS) --runs $(FOOTPRINT_RUNS) --gateway .build-ship/edge-gateway && \
	"$$bin/edge-gateway-lab" footprint --scenario idle --warm-up 130 --seconds $(FOOTPRINT_IDLE_SECONDS) --runs $(FOOTPRINT_RUNS) \
		--gateway .build-ship/edge-gateway && \
	FLOOR_SECONDS=$(FOOTPRINT_SECONDS) scripts/bench-floor/run.sh "$$bin/edge-gateway-lab"

## bench-console: what one open console page costs the shipped daemon, measured inside one
## daemon's life (scripts/bench-console/page-cost.py): CONSOLE_PAIRS pairs of CONSOLE_SLICE-second
## slices without and with a page reading /api/events, at 1 strap × 10/s; prints each pair's
## ratio and their median (about 8 minutes); then the floor, what one event a second costs any
## server here (scripts/bench-console/event-floor.c, 30 s). Figures: docs/PERFORMANCE.md.
CONSOLE_PAIRS ?= 10
CONSOLE_SLICE ?= 20
bench-console: ship
	scripts/bench-console/page-cost.py "$(SHIP_BIN)/edge-gateway-lab" .build-ship/edge-gateway --pairs $(CONSOLE_PAIRS) --slice $(CONSOLE_SLICE)
	cc -O2 -Wall -o .build-ship/event-floor scripts/bench-console/event-floor.c -lpthread && .build-ship/event-floor 30 225

## bench-peer: issue 34's comparison: the shipped daemon beside the floor and, with PEER=DIR (a
## directory holding peer_gateway.py and sink.py), a peer gateway, each alone and in turns, at
## 1 strap × 10/s and 10 straps × 1/s, with straps offering StartNotify alone and AcquireNotify
## too (PEER_TRANSPORTS); PEER_ROUNDS rounds of PEER_SECONDS windows, then medians, ratios and
## the targets (scripts/bench-peer/run.sh; about 30 minutes a round with the peer and both
## transports). Figures: docs/PERFORMANCE.md.
PEER ?=
PEER_ROUNDS ?= 3
PEER_SECONDS ?= 120
PEER_TRANSPORTS ?= properties acquire
bench-peer: ship
	PEER_ROUNDS=$(PEER_ROUNDS) PEER_SECONDS=$(PEER_SECONDS) PEER_TRANSPORTS="$(PEER_TRANSPORTS)" \
		scripts/bench-peer/run.sh "$(SHIP_BIN)/edge-gateway-lab" .build-ship/edge-gateway $(PEER)

## ship: the daemon as the .deb ships it (release, static Swift stdlib, stripped) in
## .build-ship/edge-gateway, and the lab program built the same way, for the benchmarks.
ship: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-ship --product edge-gateway
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-ship --product edge-gateway-lab
	strip --strip-unneeded -o .build-ship/edge-gateway "$(SHIP_BIN)/edge-gateway" && ls -l .build-ship/edge-gateway

## deb: the .deb of a release build with the static Swift runtime, in .build-ship/deb
## (scripts/build-deb.sh; the release build takes 10-20 minutes on 2 cores).
deb: deps
	scripts/build-deb.sh

## deb-arm64: the arm64 .deb for the Raspberry Pi (Raspberry Pi OS bookworm and trixie), in
## .build-arm64/deb: cross-built with Debian sid's Swift 6.2.3 against bookworm's arm64 libraries,
## then checked (aarch64, glibc <= 2.36, static Swift runtime, stripped, <= 30 MB, Depends: installable
## on bookworm and trixie). Root; the first run makes a sid root, a sysroot and a Swift SDK in
## ~/.cache/edge-gateway-arm64, about 5 minutes (scripts/arm64/deb).
## scripts/arm64/run BINARY runs an arm64 program here under qemu as a Pi 3's Cortex-A53.
deb-arm64:
	scripts/arm64/deb

## install: installs the release build `make deb` made (or BINARY=FILE) with its systemd unit,
## user and example config (deploy/install.sh); PREFIX=/usr, DESTDIR= to stage elsewhere.
PREFIX ?= /usr
install:
	deploy/install.sh --prefix $(PREFIX) $(if $(BINARY),--binary $(BINARY)) $(if $(DESTDIR),--destdir $(DESTDIR))

clean:
	rm -rf .build .build-fuzz .build-release .build-ship .build-swift62 .build-arm64 .build-arm64-tests
