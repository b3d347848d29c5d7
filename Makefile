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
# The shipped binary: one static executable (no dynamic loader, no shared libraries),
# and any linker warning fails the build. ENTITLEMENT_STATIC_EXECUTABLE compiles the
# executable's stand-in for glibc's dlopen (Sources/entitlement/StaticExecutable.swift).
# Generic types' metadata is fetched with accessor calls rather than by demangling a
# type name at run time: a fifth fewer instructions in `check` (docs/performance.md).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -static-executable \
	-Xswiftc -DENTITLEMENT_STATIC_EXECUTABLE -Xlinker --fatal-warnings \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# The store generator uses Foundation; it is built apart so that it never shares (and
# rebuilds) the release build directory.
TOOLS_FLAGS   := -c release --static-swift-stdlib --scratch-path .build-tools

.PHONY: build test demo install release bench bench-quick bench-store bench-team stress fuzz clean

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

## The shipped binary: fully static, linked with no warnings (see docs/performance.md).
release:
	$(SWIFT) build $(RELEASE_FLAGS) --product entitlement

install: release
	install -d "$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/entitlement" "$(PREFIX)/bin/entitlement"

## Generates a synthetic store of SIZE profiles under bench/ (ignored by git).
bench-store:
	$(SWIFT) build $(TOOLS_FLAGS) --product entitlement-bench-store
	"$$($(SWIFT) build $(TOOLS_FLAGS) --show-bin-path)/entitlement-bench-store" --profiles $(SIZE) --out bench/store-$(SIZE)

## Every benchmark at 1k, 100k and 1M profiles; writes docs/performance.md.
bench:
	bash scripts/bench.sh full

## The same at 1k and 100k only (a CI smoke test; timings are not asserted).
bench-quick:
	bash scripts/bench.sh quick

## Fuzzes each harness (JSON, dates, import, stdin splitters) for FUZZ_SECONDS (default 60)
## with libFuzzer and AddressSanitizer; a crash input lands in Fuzz/regressions/ and fails the run.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

clean:
	rm -rf .build .build-tools bench .fuzz
