#!/usr/bin/env bash
# Measures the floor under every `check`: what starting a process costs on this machine
# before the tool runs a line of its own.
#
#   bash scripts/startup-floor.sh [BINARY]    # BINARY: the tool (default: make release's)
#
# Builds three tiny C programs with the Swift toolchain's clang, into bench/startup-floor/:
#   raw     a static program with no C library: its _start calls exit (exec and exit only);
#   libc    an empty main() linked statically with glibc (adds glibc's start-up);
#   cpuid   times the CPUID instruction, which glibc's start-up runs many times to learn
#           the CPU's features and cache sizes; in a virtual machine each one traps to the
#           hypervisor.
# then times them beside /bin/true, a static Swift program that prints one line,
# `BINARY --version` and `BINARY check` of the demo store's active-renewing user (hyperfine, -N).
set -euo pipefail
cd "$(dirname "$0")/.."
sh scripts/ensure-tools.sh hyperfine >/dev/null
bin=${1:-$(swift build -c release --show-bin-path)/entitlement}
[ -x "$bin" ] || { echo "startup-floor.sh: no binary at $bin (run make release)" >&2; exit 2; }
clang=$(dirname "$(readlink -f "$(command -v swiftc)")")/clang
out=bench/startup-floor
mkdir -p "$out"

printf 'void _start(void) { __asm__ volatile("mov $60, %%eax; xor %%edi, %%edi; syscall"); }\n' >"$out/raw.c"
printf 'int main(void) { return 0; }\n' >"$out/libc.c"
cat >"$out/cpuid.c" <<'C'
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
int main(void) {
    unsigned a, b, c, d;
    double start = now();
    for (int i = 0; i < 1000; i++) __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(4), "c"(i & 3));
    printf("%.2f\n", (now() - start) / 1000);
    return 0;
}
C
printf 'print(1)\n' >"$out/one.swift"
"$clang" -O2 -static -nostdlib "$out/raw.c" -o "$out/raw"
"$clang" -O2 -static "$out/libc.c" -o "$out/libc"
"$clang" -O2 "$out/cpuid.c" -o "$out/cpuid"
# The runtime's dlopen warning is expected here (the tool itself links without it).
swiftc -O -static-executable "$out/one.swift" -o "$out/swift-print" 2>/dev/null

echo "one CPUID instruction: $("$out/cpuid") µs"
hyperfine -N -w 20 -r 300 --export-markdown "$out/results.md" \
    "$out/raw" "$out/libc" /bin/true "$out/swift-print" "$bin --version" \
    "$bin check active-renewing premium --store Fixtures/demo-store --at 2026-01-15T12:00:00Z" >/dev/null
cat "$out/results.md"
