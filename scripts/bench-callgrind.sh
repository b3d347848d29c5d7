#!/bin/sh
# The instruction-count gate (docs/performance.md, "Layered modules"): runs the
# three workloads under callgrind for each binary given and prints each count, and its change
# against the first binary. Instruction counts do not move with the load of a shared machine.
#
#   scripts/bench-callgrind.sh STORE BEFORE_BIN [AFTER_BIN ...]
#
# STORE is a store from `entitlement-bench-store --profiles 5000 --out STORE` (it has
# bench-users.txt and the profile `heavy-user`). The callgrind files stay in $CG_OUT
# (default: a new temporary directory) for `callgrind_annotate`. Needs valgrind
# (scripts/ensure-tools.sh valgrind installs it).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 STORE BEFORE_BIN [AFTER_BIN ...]" >&2; exit 2; }
store=$1; shift
at=2026-01-15T12:00:00Z
out=${CG_OUT:-$(mktemp -d)}
user=$(head -n 1 "$store/bench-users.txt")
head -n 2000 "$store/bench-users.txt" > "$out/ids.txt"
count() {  # NAME BIN ARGS... < input
    name=$1; shift
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.cg" "$@" >"$out/$name.stdout" 2>"$out/$name.log" || true
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/$name.log"
}
index=0
for bin in "$@"; do
    index=$((index + 1))
    c=$(count "check-$index" "$bin" check "$user" premium --quiet --store "$store" --at $at </dev/null)
    s=$(count "stdin-$index" "$bin" check --stdin premium --store "$store" --at $at <"$out/ids.txt")
    j=$(count "status-$index" "$bin" status heavy-user --json --store "$store" --at $at </dev/null)
    if [ $index -eq 1 ]; then c1=$c; s1=$s; j1=$j; fi
    awk -v b="$bin" -v c="$c" -v s="$s" -v j="$j" -v c1="$c1" -v s1="$s1" -v j1="$j1" 'BEGIN {
        printf "%s\n  check USER      %12d  %+6.1f%%\n  check --stdin   %12d  %+6.1f%%\n  status --json   %12d  %+6.1f%%\n",
            b, c, (c / c1 - 1) * 100, s, (s / s1 - 1) * 100, j, (j / j1 - 1) * 100 }'
done
echo "callgrind files: $out"
