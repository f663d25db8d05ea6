# The two commands the README promises: `make demo` and `make test`.
# Both install what they need first (Debian packages via apt-get, skipping what is present).

SWIFT        ?= swift
FUZZ_SECONDS ?= 600
FUZZ_CORPUS  ?= .build-fuzz/corpus

.PHONY: all deps pydeps build test test-bluez soak demo fuzz fuzz-smoke bench clean

all: build

deps:
	@scripts/install-deps.sh

## pydeps: python3 jsonschema, which the uplink tests validate OMH output with (only if missing).
pydeps:
	@python3 -c "import jsonschema, referencing" 2>/dev/null || python3 -m pip install --quiet jsonschema \
		|| python3 -m pip install --quiet --break-system-packages jsonschema

build: deps
	$(SWIFT) build

## test: every test — Swift tests (unit and real-process) plus a short fuzz run.
test: deps pydeps
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20
	scripts/run-tests.sh

## test-bluez: the release gateway against the real bluetoothd, in a qemu VM with two virtual
## LE controllers (scripts/test-bluez/run.sh; installs its own Debian packages). Separate from
## `test`: see README, "Real BlueZ test tier".
test-bluez: deps
	scripts/test-bluez/run.sh

## soak: the queue's kill -9 crash-consistency test with many more cycles (SOAK_CYCLES).
SOAK_CYCLES ?= 1000
soak: deps
	QUEUE_KILL_CYCLES=$(SOAK_CYCLES) $(SWIFT) test --filter OfflineQueueCrashConsistency

## demo: the real daemon between simulated straps and a simulated JHE, with an outage
## (edge-gateway demo; DEMO_ARGS="--sensors 10 --duration 120" to change it).
DEMO_ARGS ?= --sensors 3 --duration 60
demo: deps
	$(SWIFT) build --product edge-gateway
	"$$($(SWIFT) build --show-bin-path)/edge-gateway" demo $(DEMO_ARGS)

## fuzz: libFuzzer on the frame decoders for FUZZ_SECONDS (default 600).
fuzz:
	scripts/build-fuzzer.sh
	mkdir -p $(FUZZ_CORPUS)
	.build-fuzz/heart-rate-frame-fuzzer -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-rss_limit_mb=4096 -artifact_prefix=.build-fuzz/ $(FUZZ_CORPUS) Fuzz/seeds

## bench: release-build benchmarks.
bench: deps
	$(SWIFT) run -c release edge-gateway-bench

clean:
	rm -rf .build .build-fuzz
