# entitlement: build, test, demo, install, benchmark.
# Everything here needs only the Swift toolchain, except `test`, which installs git
# (for the team-store tests), and `bench*`, which installs hyperfine (and jq, the
# peer), from Debian's packages when they are missing.

SWIFT   ?= swift
PREFIX  ?= /usr/local
DEMO_AT := 2026-01-15T12:00:00Z
DEMO    := Fixtures/demo-store
BIN_DIR  = $(shell $(SWIFT) build --show-bin-path)
SIZE    ?= 1000

.PHONY: build test demo install release bench bench-quick bench-store bench-team stress clean

build:
	$(SWIFT) build

## The whole suite: unit, in-process CLI, end-to-end (built binary), concurrency and crash tests.
## The team-store tests run real git: scripts/ensure-tools.sh installs it when missing.
test: build
	@bash scripts/ensure-tools.sh git
	ENTITLEMENT_BIN="$(BIN_DIR)/entitlement" $(SWIFT) test

## Long team-store runs: more convergence seeds and operations (CI runs it too).
stress: build
	@bash scripts/ensure-tools.sh git
	ENTITLEMENT_BIN="$(BIN_DIR)/entitlement" ENTITLEMENT_STRESS=1 $(SWIFT) test --filter 'TeamStoreConvergenceTests|TeamStoreCrashTests'

## Team-store benchmarks: grant with its commit, check, sync (installs git and hyperfine).
bench-team:
	bash scripts/bench-team.sh

## Runs status and check on the bundled demo store at a fixed date, so the output never changes.
demo: build
	@echo "\$$ entitlement status multi-entitlement --store $(DEMO) --at $(DEMO_AT)"
	@"$(BIN_DIR)/entitlement" status multi-entitlement --store $(DEMO) --at $(DEMO_AT)
	@echo
	@echo "\$$ entitlement status grace-period --store $(DEMO) --at $(DEMO_AT) --explain"
	@"$(BIN_DIR)/entitlement" status grace-period --store $(DEMO) --at $(DEMO_AT) --explain
	@echo
	@echo "\$$ entitlement check USER premium --store $(DEMO) --at $(DEMO_AT)   (exit code after each line)"
	@for file in $(DEMO)/profiles/*.json; do \
		user=$$(basename "$$file" .json); \
		"$(BIN_DIR)/entitlement" check "$$user" premium --store $(DEMO) --at $(DEMO_AT); \
		echo "  -> exit $$?"; \
	done

## A release build with the Swift standard library linked statically (faster start).
release:
	$(SWIFT) build -c release --static-swift-stdlib --product entitlement

install: release
	install -d "$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/entitlement" "$(PREFIX)/bin/entitlement"

## Generates a synthetic store of SIZE profiles under bench/ (ignored by git).
bench-store:
	$(SWIFT) build -c release --static-swift-stdlib --product entitlement-bench-store
	"$$($(SWIFT) build -c release --show-bin-path)/entitlement-bench-store" --profiles $(SIZE) --out bench/store-$(SIZE)

## Every benchmark at 1k, 100k and 1M profiles; writes docs/performance.md.
bench:
	bash scripts/bench.sh full

## The same at 1k and 100k only (a CI smoke test; timings are not asserted).
bench-quick:
	bash scripts/bench.sh quick

clean:
	rm -rf .build bench
