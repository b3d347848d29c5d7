#!/usr/bin/env bash
# "Did you mean": a `grant` that creates a customer beside the same grant to an existing one
# (docs/performance.md, "Did you mean"). Sourced by scripts/bench.sh (which defines BIN, WORK,
# BENCH, MODE and the helpers log, row, ratio, le, yes_no, store); or run alone once the release
# binary is built (`make release`):
#
#   bash scripts/bench-near.sh          # the 100k-profile store under bench/, results on stdout
#
# Both grants write into a hard-link copy of the 100k store (the tool replaces files by
# rename, never in place). Each timed run starts from the same state: the existing customer's
# generated profile is put back, the new customer's profile removed (hyperfine's --prepare,
# untimed). The two run side by side in NEAR_ROUNDS rounds (one hyperfine call each, both
# commands), and the ratio is the median over rounds of new / existing. Target: ≤ 2x.

NEAR_ROUNDS=${NEAR_ROUNDS:-5}

near_benchmarks() {
    local size=100000 base dir user file original new_file round ratios=() new_ms=() old_ms=()
    base=$(store "$size")
    dir=$WORK/near
    rm -rf "$dir" && mkdir -p "$dir/store" && cp -al "$base/." "$dir/store"
    user=$(sed -n 2p "$base/bench-users.txt")
    file=$("$BIN" path "$user" --store "$dir/store" 2>/dev/null) || { echo "bench-near.sh: no path for $user" >&2; return 0; }
    original=$dir/original.json
    cp "$file" "$original"
    new_file=$("$BIN" path bench-new-customer --store "$dir/store" 2>/dev/null) || { echo "bench-near.sh: no path for the new customer" >&2; return 0; }
    log "grant to a new customer beside an existing one, $NEAR_ROUNDS rounds at 100k"
    for round in $(seq "$NEAR_ROUNDS"); do
        hyperfine --style basic -N -w 3 -r 10 --export-json "$dir/round-$round.json" \
            --prepare "cp $original $file" --prepare "rm -f $new_file" \
            "$BIN grant $user premium --duration 1m --store $dir/store" \
            "$BIN grant bench-new-customer premium --duration 1m --store $dir/store" >&2 2>&1 || return 0
        old_ms+=("$(jq -r '.results[0].median * 1000' "$dir/round-$round.json")")
        new_ms+=("$(jq -r '.results[1].median * 1000' "$dir/round-$round.json")")
        ratios+=("$(ratio "${new_ms[-1]}" "${old_ms[-1]}")")
    done
    NEAR_NEW=$(printf '%s\n' "${new_ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
    NEAR_OLD=$(printf '%s\n' "${old_ms[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
    NEAR_RATIO=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }')
    row "\`grant\` that creates a customer (\"did you mean\" from the kept name list): median ${NEAR_NEW} ms; the same grant to an existing customer: ${NEAR_OLD} ms" \
        "100k" "" "${NEAR_RATIO}x the existing-customer grant" "" "" "≤ 2x the existing-customer grant" "$(yes_no le "$NEAR_RATIO" 2)"
}
NEAR_NEW=; NEAR_OLD=; NEAR_RATIO=

# Alone: the release binary, the 100k store under bench/, and the row printed as a table.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    cd "$(dirname "$0")/.."
    MODE=quick; WORK=bench/work-near
    BIN=${BIN:-$(swift build -c release --show-bin-path)/entitlement}
    rm -rf "$WORK"; mkdir -p "$WORK"
    ROWS=$WORK/rows
    log() { printf '\n== %s\n' "$*" >&2; }
    row() { printf '| %s | %s | %s | %s | %s |\n' "$1" "$2" "$4" "$7" "$8" >>"$ROWS"; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'; }
    le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a <= b) }'; }
    yes_no() { if "$@"; then echo yes; else echo no; fi; }
    store() { echo "bench/store-$1"; }
    [ -f "$(store 100000)/bench-manifest.json" ] || make bench-store SIZE=100000 >&2 || exit 1
    near_benchmarks
    echo "| operation | profiles | vs | target | met |"
    echo "| --- | --- | --- | --- | --- |"
    cat "$ROWS"
fi
