#!/usr/bin/env bash
# Fuzzing: builds one libFuzzer binary (AddressSanitizer on) from the library's sources
# and the harnesses, then runs each harness for a bounded time.
#
#   scripts/fuzz.sh [SECONDS]      seconds per harness (default $FUZZ_SECONDS, else 60)
#   FUZZ_TARGETS="json dates"      harnesses to run (default: all)
#
# Seeds come from Fuzz/corpus/<harness>/ (committed); what the fuzzer learns goes to
# .fuzz/corpus/<harness>/ (ignored). A crash, timeout or out-of-memory input is copied to
# Fuzz/regressions/<harness>/ to be committed (the tests replay it) and the run fails.
# Needs only the Swift toolchain: its clang runtime ships libFuzzer and ASan.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-${FUZZ_SECONDS:-60}}
targets=${FUZZ_TARGETS:-"json dates import splitter profile jws appstore revenuecat adapty qonversion stripe googleplay"}
swiftc=${SWIFTC:-swiftc}
work=.fuzz
binary=$work/bin/fuzz

toolchain_lib=$(dirname "$(command -v "$swiftc")")/../lib
if ! find -L "$toolchain_lib" -name 'libclang_rt.fuzzer-*.a' 2>/dev/null | grep -q .; then
    echo "error: this Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer-*.a under $toolchain_lib)." >&2
    echo "hint: install a swift.org toolchain for Linux; it ships the runtime." >&2
    exit 2
fi

mkdir -p "$work/bin"
# Every library module's sources, compiled as one module (the harnesses reach package and
# internal API); the imports of the package's own modules are dropped from a copy, since
# they are all one module here. EntitlementTrust is among them; its libcrypto comes from
# the system through COpenSSL's module map (-I Sources/COpenSSL), not instrumented.
library=$(find Sources -maxdepth 1 -type d -name 'Entitlement*' | sort)
rm -rf "$work/src" && mkdir -p "$work/src"
for file in $(find $library -name '*.swift' | sort); do
    sed -E '/^(@testable )?import Entitlement[A-Za-z]*$/d' "$file" > "$work/src/$(echo "${file#Sources/}" | tr '/' '_')"
done
sources=$(find "$work/src" -name '*.swift' | sort)
stamp=$work/bin/sources.sha
# The CLI tests' harnesses, and the store's (the ProfileDecoder suites share its check).
harnesses="$(find Tests/EntitlementCLITests/Fuzz -name 'FuzzTargets*.swift' | sort) Tests/EntitlementStoreTests/ProfileDecoder/ProfileFuzzTarget.swift"
# shellcheck disable=SC2086
digest=$(cat $sources Sources/COpenSSL/* Sources/CSystemShims/* $harnesses Fuzz/FuzzMain.swift | sha256sum | cut -d' ' -f1)
if [[ ! -x $binary || ! -f $stamp || $(cat "$stamp") != "$digest" ]]; then
    echo "== building $binary"
    # One module: the harnesses reach internal API; FUZZING drops the tests' @testable imports.
    # shellcheck disable=SC2086
    # Swift 6 mode, as the package; lld, since gold warns about the sanitizer runtime's symbols.
    "$swiftc" -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -use-ld=lld \
        -module-name EntitlementFuzz -package-name entitlement -D FUZZING -I Sources/COpenSSL -I Sources/CSystemShims \
        $sources $harnesses Fuzz/FuzzMain.swift -o "$binary"
    echo "$digest" > "$stamp"
fi

# Swift's runtime keeps caches alive until exit: leak reports would be noise.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
failed=()
summary=$work/summary.txt
printf '%-10s %8s %12s %10s %8s\n' harness seconds runs runs/s corpus > "$summary"
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target" "Fuzz/corpus/$target"
    log=$work/$target.log
    echo "== fuzzing $target for $seconds s"
    status=0
    FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$target/" \
        "$work/corpus/$target" "Fuzz/corpus/$target" > "$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    corpus=$(find "$work/corpus/$target" -type f | wc -l)
    printf '%-10s %8s %12s %10s %8s\n' "$target" "$seconds" "$runs" "$((runs / (seconds > 0 ? seconds : 1)))" "$corpus" >> "$summary"
    if [[ $status -ne 0 ]]; then
        failed+=("$target")
        mkdir -p "Fuzz/regressions/$target"
        for artifact in "$work/artifacts/$target"/*; do
            [[ -f $artifact ]] && cp "$artifact" "Fuzz/regressions/$target/$(basename "$artifact")"
        done
        echo "!! $target failed (exit $status); input(s) copied to Fuzz/regressions/$target/; log: $log" >&2
        grep -m5 -E 'Fatal error|ERROR|SUMMARY' "$log" >&2 || tail -20 "$log" >&2
    fi
done
cat "$summary"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzzing found failures in: ${failed[*]}" >&2
    exit 1
fi
