#!/usr/bin/env bash
# Benchmarks (see docs/performance.md).
#
#   bash scripts/bench.sh full    # `make bench`: 1k, 100k and 1M profiles; writes docs/performance.md
#   bash scripts/bench.sh quick   # `make bench-quick`: 1k and 100k; writes bench/results-quick.md
#
# It installs what it needs (hyperfine, jq, sqlite3, GNU time, perl) with apt-get,
# builds the release binary (`make release`), generates the synthetic stores under
# bench/ (reused when a complete one is there) and the SQLite peer of the largest,
# times every operation with hyperfine at a fixed --at beside its peers (/bin/true, an
# indexed sqlite3 lookup, jq), measures peak memory with /usr/bin/time, and writes
# markdown tables: the targets as ratios measured in this run, then every figure.
# Timings are reported, never asserted: the exit status is non-zero only when the
# script itself cannot run (build, generation or tool installation failed).
set -uo pipefail

MODE=${1:-quick}
case "$MODE" in
    full | quick) ;;
    *) echo "usage: bash scripts/bench.sh full|quick" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

AT=2026-01-15T12:00:00Z
BENCH=bench
WORK=$BENCH/work-$MODE
rm -rf "$WORK"
mkdir -p "$WORK"
if [ "$MODE" = full ]; then
    SIZES=(1000 100000 1000000)
    SLOW_RUNS=10; PEER_RUNS=5; PEER_WARMUP=1; BATCH_RUNS=5; BATCH_WARMUP=2; GRANT_RUNS=3
    BLOCKS=12; BLOCK_RUNS=10; BLOCK_WARMUP=3
    HEAVY_ROUNDS=5; HEAVY_RUNS=6; FIRST_RUNS=15
    OUTPUT=docs/performance.md
else
    SIZES=(1000 100000)
    SLOW_RUNS=5; PEER_RUNS=2; PEER_WARMUP=0; BATCH_RUNS=2; BATCH_WARMUP=1; GRANT_RUNS=1
    BLOCKS=3; BLOCK_RUNS=8; BLOCK_WARMUP=2
    HEAVY_ROUNDS=2; HEAVY_RUNS=3; FIRST_RUNS=3
    OUTPUT=$BENCH/results-quick.md
fi
BATCH_IDS=100000        # ids checked for the throughput figure
BATCH_SMALL=10000       # the smaller batch of the memory-flatness pair

log() { printf '\n== %s\n' "$*" >&2; }
die() { echo "bench.sh: $*" >&2; exit 1; }

# ---------------------------------------------------------------- tools

command -v swift >/dev/null 2>&1 || die "swift is not on PATH (the Makefile needs it too)"

SUDO=
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
apt_install() {
    log "installing $*"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >&2 && return 0
    # Only when the install fails: the package lists may be missing or stale.
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq >&2 &&
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >&2
}
missing=()
command -v hyperfine >/dev/null 2>&1 || missing+=(hyperfine)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
perl -MTime::HiRes -MIPC::Open2 -e 1 >/dev/null 2>&1 || missing+=(perl)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
    apt_install "${missing[@]}" || die "could not install ${missing[*]}"
fi

# ---------------------------------------------------------------- build

log "make release"
make release >&2 || die "make release failed"
BIN_DIR=$(swift build -c release --show-bin-path)
BIN=$BIN_DIR/entitlement
log "building entitlement-bench-store"
# Built apart from the release binary, with the flags of `make bench-store` (Makefile,
# TOOLS_FLAGS): it uses Foundation, linked dynamically, and a link warning fails the build.
TOOLS=(-c release --scratch-path .build-tools -Xlinker --fatal-warnings)
swift build "${TOOLS[@]}" --product entitlement-bench-store >&2 || die "building the store generator failed"
GEN=$(swift build "${TOOLS[@]}" --show-bin-path)/entitlement-bench-store

# ---------------------------------------------------------------- stores

for size in "${SIZES[@]}"; do
    log "store of $size profiles"
    "$GEN" --profiles "$size" --out "$BENCH/store-$size" >&2 || die "generating the $size-profile store failed"
done
store() { echo "$BENCH/store-$1"; }
manifest() { jq -r "$2" "$(store "$1")/bench-manifest.json"; }

SMALL=${SIZES[0]}
LARGEST=${SIZES[${#SIZES[@]}-1]}
PEER_SIZE=100000
# Profile i is the same in every store (the generator seeds each profile by its
# index), so these users have identical profiles at every size.
CHECK_USER=$(manifest "$SMALL" .sample_users.active_renewing)
STATUS_USER=$(manifest "$SMALL" .sample_users.multi_entitlement)
GRANT_USER=$(manifest "$SMALL" .sample_users.expired)
HEAVY_USER=$(manifest "$SMALL" .heavy_user)

# ---------------------------------------------------------------- measuring

ROWS=$WORK/rows.txt  # fields separated by \x1f (a tab would merge empty fields)
: >"$ROWS"
declare -A MEDIAN CHECK_KIB STATUS_KIB PEER_KIB BATCH_KIB BATCH_RATE GRANT_PROFILE

# hf KEY [hyperfine options...] COMMAND: runs hyperfine, keeps its JSON as $WORK/KEY.json.
hf() {
    local key=$1; shift
    log "$key"
    if ! hyperfine --style basic --export-json "$WORK/$key.json" "$@" >&2; then
        echo "bench.sh: hyperfine failed for $key" >&2
        rm -f "$WORK/$key.json"
        return 1
    fi
    MEDIAN[$key]=$(stat_ms "$key" median)
}
stat_ms() { [ -f "$WORK/$1.json" ] && jq -r ".results[0].$2 * 1000" "$WORK/$1.json" || echo ""; }

# peak_kib COMMAND...: the largest maximum RSS (KiB) of three runs.
peak_kib() {
    local best=0 kib
    for _ in 1 2 3; do
        /usr/bin/time -f %M -o "$WORK/time.out" "$@" >/dev/null 2>&1
        kib=$(tail -1 "$WORK/time.out")
        [[ "$kib" =~ ^[0-9]+$ ]] && [ "$kib" -gt "$best" ] && best=$kib
    done
    echo "$best"
}
peak_kib_stdin() {  # peak_kib_stdin FILE COMMAND...
    local input=$1 best=0 kib; shift
    for _ in 1 2; do
        /usr/bin/time -f %M -o "$WORK/time.out" "$@" <"$input" >/dev/null 2>&1
        kib=$(tail -1 "$WORK/time.out")
        [[ "$kib" =~ ^[0-9]+$ ]] && [ "$kib" -gt "$best" ] && best=$kib
    done
    echo "$best"
}

# row OPERATION SIZE KEY VS_PEER VS_1K PEAK_KIB TARGET MET
row() { printf '%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\n' "$@" >>"$ROWS"; }

# paired_ratio KEY SIZE: the median over blocks of (this size's block median / the
# same round's 1k block median). Pairing each block with its neighbour cancels the
# slow swings of other load that pooling alone leaves in.
paired_ratio() {
    local round values=()
    for round in $(seq "$BLOCKS"); do
        local a="$WORK/$1-$2-$round.json" b="$WORK/$1-$SMALL-$round.json"
        [ -f "$a" ] && [ -f "$b" ] || continue
        values+=("$(jq -n --slurpfile a "$a" --slurpfile b "$b" '$a[0].results[0].median / $b[0].results[0].median')")
    done
    [ ${#values[@]} -gt 0 ] || return 0
    printf '%s\n' "${values[@]}" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a <= b) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a >= b) }'; }
yes_no() { if "$@"; then echo yes; else echo no; fi; }
mib() { awk -v k="$1" 'BEGIN { if (k == "" || k == 0) print ""; else printf "%.1f MiB", k / 1024 }'; }
label() { case $1 in 1000) echo 1k ;; 100000) echo 100k ;; 1000000) echo 1M ;; *) echo "$1" ;; esac; }

# -------- check, status --json, grant (durable) at every size
#
# The sizes are measured in alternating blocks (1k, 100k, 1M, 1k, 100k, …) and the
# blocks' times pooled, so that load from other processes on the machine falls on
# every size alike and the "vs 1k" ratios compare like with like.

# merge KEY FILES...: pools the times of several hyperfine exports into $WORK/KEY.json.
merge() {
    local key=$1; shift
    jq -s '[.[].results[0].times[]] | sort as $t | {results: [{times: $t, min: $t[0], max: $t[-1], mean: (add / length),
        median: (if ($t | length) % 2 == 1 then $t[($t | length - 1) / 2] else ($t[($t | length) / 2 - 1] + $t[($t | length) / 2]) / 2 end)}]}' \
        "$@" >"$WORK/$key.json" && MEDIAN[$key]=$(stat_ms "$key" median)
}

# fill TEXT SIZE: TEXT with {store}, {size} and {profile} (the grant user's file) filled in.
fill() {
    local text=${1//\{store\}/$(store "$2")}
    text=${text//\{size\}/$2}
    echo "${text//\{profile\}/${GRANT_PROFILE[$2]:-}}"
}

# interleaved KEY COMMAND [hyperfine options...]: placeholders as in `fill`.
interleaved() {
    local key=$1 template=$2; shift 2
    local round size option options
    log "$key at ${SIZES[*]} ($BLOCKS blocks of $BLOCK_RUNS runs each)"
    for round in $(seq "$BLOCKS"); do
        for size in "${SIZES[@]}"; do
            options=()
            for option in "$@"; do options+=("$(fill "$option" "$size")"); done
            hyperfine --style none -N -w "$BLOCK_WARMUP" -r "$BLOCK_RUNS" --export-json "$WORK/$key-$size-$round.json" \
                "${options[@]}" "$(fill "$template" "$size")" >&2 || echo "bench.sh: hyperfine failed for $key at $size" >&2
        done
    done
    for size in "${SIZES[@]}"; do
        merge "$key-$size" "$WORK/$key-$size"-*.json
        printf '   %s %s: median %.2f ms\n' "$key" "$(label "$size")" "${MEDIAN[$key-$size]:-0}" >&2
    done
}

# -------- the targets: each command beside its peer, in the same rounds
#
# rounds KEY NAME=COMMAND...: ROUNDS rounds, each one hyperfine call that runs every
# command RUNS times in turn; the times of each NAME are pooled into $WORK/KEY-NAME.json
# and each round's medians kept, so that ratios pair commands measured minutes apart
# at most (see paired_median).
rounds() {
    local key=$1 count=$2 runs=$3 warmup=$4; shift 4
    local round names=() commands=() pair index
    for pair in "$@"; do names+=("${pair%%=*}"); commands+=("${pair#*=}"); done
    log "$key: ${names[*]} ($count rounds of $runs runs each)"
    for round in $(seq "$count"); do
        hyperfine --style none -N -i -w "$warmup" -r "$runs" --export-json "$WORK/$key-$round.json" "${commands[@]}" >&2 ||
            echo "bench.sh: hyperfine failed for $key" >&2
        for index in "${!names[@]}"; do
            jq "{results: [.results[$index]]}" "$WORK/$key-$round.json" >"$WORK/$key-${names[$index]}-r$round.json"
        done
    done
    for index in "${!names[@]}"; do
        merge "$key-${names[$index]}" "$WORK/$key-${names[$index]}"-r*.json
        printf '   %s: median %.2f ms\n' "${names[$index]}" "${MEDIAN[$key-${names[$index]}]:-0}" >&2
    done
}
# paired_median KEY A B: the median over rounds of (A's median / B's median) in that round.
paired_median() {
    local round values=()
    for round in $(seq 100); do
        local a="$WORK/$1-$2-r$round.json" b="$WORK/$1-$3-r$round.json"
        [ -f "$a" ] && [ -f "$b" ] || break
        values+=("$(jq -n --slurpfile a "$a" --slurpfile b "$b" '$a[0].results[0].median / $b[0].results[0].median')")
    done
    [ ${#values[@]} -gt 0 ] || return 0
    printf '%s\n' "${values[@]}" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m }'
}

s=$(store "$LARGEST")
log "SQLite peer of the $(label "$LARGEST") store"
bash scripts/bench-sqlite.sh "$s" >&2 || die "building the SQLite peer failed"
SQL_LOOKUP="SELECT * FROM transactions WHERE user_id = '$CHECK_USER'"
[ "$(sqlite3 -readonly "$s/bench-peer.sqlite" "EXPLAIN QUERY PLAN $SQL_LOOKUP")" = "$(printf 'QUERY PLAN\n`--SEARCH transactions USING INDEX transactions_user_id (user_id=?)')" ] ||
    echo "bench.sh: the sqlite3 lookup does not use the user index" >&2
SQL_ROWS=$(sqlite3 -readonly "$s/bench-peer.sqlite" "SELECT count(*) FROM transactions WHERE user_id = '$CHECK_USER'")
rounds start "$BLOCKS" "$BLOCK_RUNS" "$BLOCK_WARMUP" \
    "true=/bin/true" \
    "sqlite=sqlite3 -readonly $s/bench-peer.sqlite \"$SQL_LOOKUP\"" \
    "check=$BIN check '$CHECK_USER' premium --store $s --at $AT"
HEAVY_FILE=$("$BIN" path "$HEAVY_USER" --store "$s")
HEAVY_MB=$(awk -v b="$(wc -c <"$HEAVY_FILE")" 'BEGIN { printf "%.1f", b / 1e6 }')
rounds heavy "$HEAVY_ROUNDS" "$HEAVY_RUNS" 2 \
    "jq=jq empty $HEAVY_FILE" \
    "status=$BIN status $HEAVY_USER --json --store $s --at $AT"
log "first answer of check --stdin"
perl scripts/first-answer.pl "$FIRST_RUNS" "$CHECK_USER" "$BIN" check --stdin premium --store "$s" --at "$AT" \
    >"$WORK/first-answer.txt" || echo "bench.sh: first-answer.pl failed" >&2
FIRST_MS=$(sort -g "$WORK/first-answer.txt" | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
FIRST_MAX=$(sort -g "$WORK/first-answer.txt" | tail -1)

# -------- the same commands at every size

interleaved check "$BIN check '$CHECK_USER' premium --store {store} --at $AT" -i
interleaved status "$BIN status '$STATUS_USER' --json --store {store} --at $AT"
# grant writes into the scratch store; every timed run starts from the generated
# profile again (--prepare restores it), so each run does the same work.
for size in "${SIZES[@]}"; do
    s=$(store "$size")
    GRANT_PROFILE[$size]=$("$BIN" path "$GRANT_USER" --store "$s")
    original=$BENCH/grant-original-$size.json
    [ -f "$original" ] || cp "${GRANT_PROFILE[$size]}" "$original"
done
interleaved grant "$BIN grant '$GRANT_USER' premium --duration 1m --store {store}" \
    --prepare "cp '$BENCH/grant-original-{size}.json' '{profile}'"
for size in "${SIZES[@]}"; do
    cp "$BENCH/grant-original-$size.json" "${GRANT_PROFILE[$size]}"
    s=$(store "$size")
    CHECK_KIB[$size]=$(peak_kib "$BIN" check "$CHECK_USER" premium --store "$s" --at "$AT")
    STATUS_KIB[$size]=$(peak_kib "$BIN" status "$STATUS_USER" --json --store "$s" --at "$AT")
done

# -------- the jq peer: the same verdict from the store exported as one JSON file

JQ_VERDICT='
  (.entitlements[$e] // []) as $products
  | (.profiles[$u] // {}) as $p
  | [ ($p.transactions // [])[]
      | select(if .type == "manual_grant" then .entitlement == $e
               else (.product_id as $id | any($products[]; . == $id)) end) ] as $c
  | any($c[];
      .type != "consumable_purchase"
      and (.revoked_at == null or .revoked_at > $t)
      and ((.starts_at // .purchased_at) <= $t)
      and (.expires_at == null or .expires_at > $t
           or ((.original_transaction_id // .transaction_id) as $o
               | ($p.renewal_info[$o].grace_period_expires_at // null) as $g
               | $g != null and $g > $t
                 and .expires_at == ([$c[] | select((.original_transaction_id // .transaction_id) == $o)
                                      | .expires_at | select(. != null)] | max))))'
printf '%s\n' "$JQ_VERDICT" >"$WORK/verdict.jq"

# Agreement: every user of the smallest store, premium, check --stdin against jq.
log "peer agreement at $(label "$SMALL")"
s=$(store "$SMALL")
jq -r --arg e premium --arg t "$AT" \
    "def verdict(\$u): $JQ_VERDICT; . as \$d | .profiles | keys[] as \$u | \"\(\$u)\t\(\$d | verdict(\$u))\"" \
    "$s/bench-peer.json" | sort >"$WORK/agree-jq.tsv"
{ cat "$s/bench-users.txt"; echo "$HEAVY_USER"; } | "$BIN" check --stdin premium --store "$s" --at "$AT" |
    jq -r '"\(.customer_user_id)\t\(.is_active)"' | sort >"$WORK/agree-tool.tsv"
AGREE_TOTAL=$(wc -l <"$WORK/agree-tool.tsv")
AGREE_DIFF=$(diff "$WORK/agree-jq.tsv" "$WORK/agree-tool.tsv" | grep -c '^[<>]')

for size in "$SMALL" "$PEER_SIZE"; do
    s=$(store "$size")
    [ -f "$s/bench-peer.json" ] || continue
    # /usr/bin/time inside the timed command (a millisecond on seconds) gives the peak memory.
    hf "peer-$size" -N -w "$PEER_WARMUP" -r "$PEER_RUNS" -i \
        "/usr/bin/time -f %M -o $WORK/peer-$size.rss jq -e --arg u '$CHECK_USER' --arg e premium --arg t $AT -f $WORK/verdict.jq $s/bench-peer.json"
    PEER_KIB[$size]=$(tail -1 "$WORK/peer-$size.rss" 2>/dev/null)
done

# -------- status of the profile with 10,000 transactions

s=$(store "$LARGEST")
hf "heavy-text" -N -w 3 -r "$SLOW_RUNS" "$BIN status $HEAVY_USER --store $s --at $AT"
HEAVY_KIB=$(peak_kib "$BIN" status "$HEAVY_USER" --store "$s" --at "$AT")
hf "heavy-json" -N -w 3 -r "$SLOW_RUNS" "$BIN status $HEAVY_USER --json --store $s --at $AT"

# -------- long renewal chain: check and status --json, mid-chain and at its end

# One subscription renewed N times in 5-minute sandbox periods; mid-chain, half the renewals
# were recorded after --at (the case that was quadratic). Each store holds only that profile.
if [ "$MODE" = full ]; then CHAIN_SIZES=(5000 20000 40000); else CHAIN_SIZES=(5000 20000); fi
for n in "${CHAIN_SIZES[@]}"; do
    c="$BENCH/store-chain-$n"
    log "long chain of $n renewals"
    "$GEN" --profiles 0 --heavy-transactions 0 --chain-renewals "$n" --no-peer --out "$c" >&2 || die "generating the $n-renewal chain failed"
    mid=$(jq -r .chain_middle_at "$c/bench-manifest.json")
    hf "chain-$n-check-mid" -N -w 2 -r "$SLOW_RUNS" "$BIN check long-chain premium --store $c --at $mid"
    hf "chain-$n-status-mid" -N -w 2 -r "$SLOW_RUNS" "$BIN status long-chain --json --store $c --at $mid"
    hf "chain-$n-check-end" -N -w 2 -r "$SLOW_RUNS" "$BIN check long-chain premium --store $c --at $AT"
    hf "chain-$n-status-end" -N -w 2 -r "$SLOW_RUNS" "$BIN status long-chain --json --store $c --at $AT"
done

# -------- batch check: throughput, streaming, memory at two batch sizes

for size in "${SIZES[@]}"; do
    [ "$size" -ge "$BATCH_IDS" ] || continue
    s=$(store "$size")
    head -n "$BATCH_IDS" "$s/bench-users.txt" >"$WORK/ids-$size.txt"
    hf "batch-$size" -w "$BATCH_WARMUP" -r "$BATCH_RUNS" -i \
        "/usr/bin/time -f %M -o $WORK/batch-$size.rss $BIN check --stdin premium --store $s --at $AT < $WORK/ids-$size.txt > /dev/null"
    BATCH_KIB[$size]=$(tail -1 "$WORK/batch-$size.rss" 2>/dev/null)
done
s=$(store "$LARGEST")
head -n "$BATCH_SMALL" "$s/bench-users.txt" >"$WORK/ids-small.txt"
BATCH_SMALL_KIB=$(peak_kib_stdin "$WORK/ids-small.txt" "$BIN" check --stdin premium --store "$s" --at "$AT")
BATCH_LARGE_IDS=$(wc -l <"$s/bench-users.txt")
if [ "$BATCH_LARGE_IDS" -eq "$BATCH_IDS" ] && [ -n "${BATCH_KIB[$LARGEST]:-}" ]; then
    BATCH_LARGE_KIB=${BATCH_KIB[$LARGEST]}
else
    log "batch memory, $BATCH_LARGE_IDS ids"
    BATCH_LARGE_KIB=$(peak_kib_stdin "$s/bench-users.txt" "$BIN" check --stdin premium --store "$s" --at "$AT")
fi

# ---------------------------------------------------------------- support workflows
# find, summary and bulk grant: store-wide commands, measured at 100k profiles and up
# (kept in this one function so that other benchmark sections merge cleanly around it).
#
# find --state grace_period, find over every profile (no prefilter possible) and summary
# run in rounds, side by side, so that the summary/find ratios pair runs minutes apart
# at most. The bulk grant writes 100,000 ids (the first 50,000 of the store's users,
# interleaved with 50,000 new ones) into a fresh hard-link clone of the 100k store per
# run (`cp -al`: the tool renames new files over old ones, so the generated store is
# never written). Each run gets its own clone, all removed after the last run: freeing
# many inodes just before a run slows the file system's next allocations, which would
# be charged to the grant.
declare -A SWEEP_ROUNDS_FOR=([100000]=2 [1000000]=3)
support_benchmarks() {
    local size store rounds_count warmup ids source run clone start end kib times=() peaks=()
    for size in "${SIZES[@]}"; do
        [ "$size" -ge 100000 ] || continue
        store=$(store "$size")
        rounds_count=${SWEEP_ROUNDS_FOR[$size]:-2}
        warmup=1; [ "$size" -ge 1000000 ] && warmup=0  # a 1M sweep is its own warm-up: minutes per run
        rounds "sweep-$size" "$rounds_count" 1 "$warmup" \
            "grace=/usr/bin/time -f %M -o $WORK/sweep-grace-$size.rss $BIN find --store $store --state grace_period --json --at $AT" \
            "all=$BIN find --store $store --state active --entitlement premium --json --at $AT" \
            "summary=/usr/bin/time -f %M -o $WORK/sweep-summary-$size.rss $BIN summary --store $store --json --at $AT"
        # Peak memory of the last timed run (/usr/bin/time inside the command costs a millisecond).
        SWEEP_KIB[$size]=$(tail -1 "$WORK/sweep-grace-$size.rss" 2>/dev/null)
        SUMMARY_KIB[$size]=$(tail -1 "$WORK/sweep-summary-$size.rss" 2>/dev/null)
        row "\`find --state grace_period --json\`" "$(label "$size")" "sweep-$size-grace" "" "" "${SWEEP_KIB[$size]}" "≤ 10 s at 1M" \
            "$([ "$size" -eq 1000000 ] && yes_no le "${MEDIAN[sweep-$size-grace]:-}" 10000 || echo "–")"
        row "\`find --state active --entitlement premium --json\` (every profile decoded)" "$(label "$size")" "sweep-$size-all" "" "" "" "–" "–"
        row "\`summary --json\` (every profile evaluated)" "$(label "$size")" "sweep-$size-summary" "" "" "${SUMMARY_KIB[$size]}" \
            "≤ 1.1x \`find\` over every profile" "$(yes_no le "$(paired_median "sweep-$size" summary all)" 1.1)"
    done

    source=$(store 100000)
    [ -d "$source" ] || return 0
    ids=$WORK/grant-ids.txt
    head -n 50000 "$source/bench-users.txt" >"$WORK/grant-old.txt"
    seq -f 'bulk-new-%.0f' 1 50000 >"$WORK/grant-new.txt"
    paste -d '\n' "$WORK/grant-old.txt" "$WORK/grant-new.txt" | grep -v '^$' >"$ids"
    GRANT_IDS=$(wc -l <"$ids")
    log "grant --stdin of $GRANT_IDS ids into a hard-link clone of the 100k store ($GRANT_RUNS runs)"
    for run in $(seq "$GRANT_RUNS"); do
        clone=$WORK/grant-clone-$run
        # The folder's contents, so that a store reached through a symbolic link is copied, not the link.
        mkdir -p "$clone" && cp -al "$source/." "$clone" || { echo "bench.sh: cannot clone $source" >&2; return 0; }
        sync  # the clone's new directories are not the grant's to write back
        start=$(date +%s.%N)
        /usr/bin/time -f %M -o "$WORK/grant-stdin.rss" "$BIN" grant --stdin premium --duration 7d --reason "bench outage" \
            --store "$clone" --json <"$ids" >"$WORK/grant-stdin.out" 2>"$WORK/grant-stdin.err" ||
            echo "bench.sh: grant --stdin failed (exit $?): $(head -c 300 "$WORK/grant-stdin.err")" >&2
        end=$(date +%s.%N)
        times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
        kib=$(tail -1 "$WORK/grant-stdin.rss"); [[ "$kib" =~ ^[0-9]+$ ]] && peaks+=("$kib")
        GRANT_GRANTED=$(grep -c '"result":"granted"' "$WORK/grant-stdin.out")
        printf '   run %s: %s s, %s granted\n' "$run" "${times[-1]}" "$GRANT_GRANTED" >&2
    done
    rm -rf "$WORK"/grant-clone-*
    # The same JSON shape as hyperfine's export, so the table reads it like the others.
    printf '%s\n' "${times[@]}" | jq -s '{results: [{times: (sort), min: min, max: max, mean: (add / length),
        median: (sort | if length % 2 == 1 then .[(length - 1) / 2] else (.[length / 2 - 1] + .[length / 2]) / 2 end)}]}' \
        >"$WORK/grant-stdin.json"
    MEDIAN[grant-stdin]=$(stat_ms grant-stdin median)
    GRANT_KIB=$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1)
    row "\`grant --stdin premium --duration 7d\`, $GRANT_IDS ids (half new), durable" "100k" "grant-stdin" "" "" "$GRANT_KIB" "≤ 30 s" \
        "$(yes_no le "${MEDIAN[grant-stdin]:-}" 30000)"
}
declare -A SWEEP_KIB SUMMARY_KIB
GRANT_IDS=0; GRANT_GRANTED=0; GRANT_KIB=
support_benchmarks

# shellcheck source=scripts/bench-trust.sh
source scripts/bench-trust.sh
trust_benchmarks

# shellcheck source=scripts/bench-ingest.sh
source scripts/bench-ingest.sh
ingest_benchmarks

# shellcheck source=scripts/bench-refresh.sh
source scripts/bench-refresh.sh
refresh_benchmarks

# shellcheck source=scripts/bench-near.sh
source scripts/bench-near.sh
near_benchmarks

# ---------------------------------------------------------------- the table

for size in "${SIZES[@]}"; do
    l=$(label "$size")
    vs1k=$([ "$size" = "$SMALL" ] || paired_ratio check "$size")
    vspeer=$(ratio "${MEDIAN[peer-$size]:-}" "${MEDIAN[check-$size]:-}")
    met=""
    if [ "$size" = "$LARGEST" ]; then
        met=$(yes_no eval 'le "${MEDIAN[check-$size]:-}" 5 && le "$vs1k" 1.2 && le "${CHECK_KIB[$size]}" 20480')
    fi
    row "\`check USER\`" "$l" "check-$size" "${vspeer:+${vspeer}x faster}" "${vs1k:+${vs1k}x}" "${CHECK_KIB[$size]}" \
        "≤ 5 ms at 1M, ≤ 1.2x the 1k figure; ≤ 20 MiB" "$met"
done
for size in "$SMALL" "$PEER_SIZE"; do
    [ -n "${MEDIAN[peer-$size]:-}" ] || continue
    met=""
    [ "$size" = "$PEER_SIZE" ] && met=$(yes_no ge "$(ratio "${MEDIAN[peer-$size]}" "${MEDIAN[check-$size]:-}")" 10)
    row "peer: \`jq -e\` on the one-file export" "$(label "$size")" "peer-$size" "1x" "" "${PEER_KIB[$size]}" \
        "check ≥ 10x faster at 100k" "$met"
done
for size in "${SIZES[@]}"; do
    met=""; [ "$size" = "$LARGEST" ] && met=$(yes_no le "${MEDIAN[status-$size]:-}" 8)
    vs1k=$([ "$size" = "$SMALL" ] || paired_ratio status "$size")
    row "\`status USER --json\`" "$(label "$size")" "status-$size" "" "${vs1k:+${vs1k}x}" \
        "${STATUS_KIB[$size]}" "≤ 8 ms" "$met"
done
for size in "${SIZES[@]}"; do
    vs1k=$([ "$size" = "$SMALL" ] || paired_ratio grant "$size")
    met=""; [ "$size" = "$LARGEST" ] && met=$(yes_no eval 'le "${MEDIAN[grant-$size]:-}" 10 && le "$vs1k" 1.2')
    row "\`grant USER premium --duration 1m\` (durable)" "$(label "$size")" "grant-$size" "" "${vs1k:+${vs1k}x}" "" \
        "≤ 10 ms at 1M, flat (≤ 1.2x the 1k figure)" "$met"
done
row "\`status\`, 10,000 transactions" "$(label "$LARGEST")" "heavy-text" "" "" "$HEAVY_KIB" "≤ 50 ms" \
    "$(yes_no le "${MEDIAN[heavy-text]:-}" 50)"
row "\`status --json\`, 10,000 transactions" "$(label "$LARGEST")" "heavy-json" "" "" "" "(≤ 50 ms, same profile)" \
    "$(yes_no le "${MEDIAN[heavy-json]:-}" 50)"
for size in "${SIZES[@]}"; do
    [ -n "${MEDIAN[batch-$size]:-}" ] || continue
    rate=$(awk -v n="$BATCH_IDS" -v ms="${MEDIAN[batch-$size]}" 'BEGIN { printf "%.0f", n / (ms / 1000) }')
    BATCH_RATE[$size]=$rate
    row "\`check --stdin premium\`, $BATCH_IDS ids ($rate users/s)" "$(label "$size")" "batch-$size" "" "" "${BATCH_KIB[$size]}" \
        "≥ 20,000 users/s" "$(yes_no ge "$rate" 20000)"
done
# Flat: 100 times the users (10,000 to all the store's ids in a full run) may cost at
# most a quarter more memory; a leak of even 100 bytes a user would add 95 MiB at 1M.
FLAT=$(awk -v a="$BATCH_SMALL_KIB" -v b="$BATCH_LARGE_KIB" 'BEGIN { exit !(a > 0 && b > 0 && b <= 1.25 * a) }' && echo yes || echo no)
BATCH_MID_KIB=${BATCH_KIB[$LARGEST]:-}

fmt_ms() { awk -v v="$1" 'BEGIN { if (v == "") print "–"; else if (v >= 1000) printf "%.2f s", v / 1000; else if (v >= 100) printf "%.0f ms", v; else printf "%.2f ms", v }'; }

{
    echo "| operation | store | median | min | max | vs peer | vs 1k | peak memory | target | met? |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    while IFS=$'\x1f' read -r op size key vspeer vs1k kib target met; do
        echo "| $op | $size | $(fmt_ms "$(stat_ms "$key" median)") | $(fmt_ms "$(stat_ms "$key" min)") | $(fmt_ms "$(stat_ms "$key" max)") | ${vspeer:-} | ${vs1k:-} | $(mib "$kib") | $target | ${met:-} |"
    done <"$ROWS"
    mid=""; [ "$BATCH_LARGE_IDS" -ne "$BATCH_IDS" ] && [ -n "$BATCH_MID_KIB" ] && mid=" → $(mib "$BATCH_MID_KIB")"
    mids=""; [ -n "$mid" ] && mids=" → $BATCH_IDS"
    echo "| batch peak memory, $BATCH_SMALL$mids → $BATCH_LARGE_IDS ids | $(label "$LARGEST") | | | | | | $(mib "$BATCH_SMALL_KIB")$mid → $(mib "$BATCH_LARGE_KIB") | flat in the number of users (≤ 1.25x) | $FLAT |"
    echo "| batch streaming: first answer, input still open | $(label "$LARGEST") | $(fmt_ms "$FIRST_MS") | | $(fmt_ms "$FIRST_MAX") | | | | streaming | $(yes_no le "$FIRST_MS" 1000) |"
} >"$WORK/table.md"

# The targets, each a ratio or figure from the rounds above.
L=$(label "$LARGEST")
T_TRUE=$(paired_median start check true)
T_SQL=$(paired_median start check sqlite)
T_JQ=$(paired_median heavy status jq)
T_RATE=${BATCH_RATE[$LARGEST]:-}
T_SUMMARY=$(paired_median "sweep-$LARGEST" summary all)
T_SUMMARY_GRACE=$(paired_median "sweep-$LARGEST" summary grace)
{
    echo "| operation | figure | peer or limit | ratio | target | met? |"
    echo "| --- | ---: | --- | ---: | --- | --- |"
    echo "| \`check USER\` at $L profiles | $(fmt_ms "${MEDIAN[start-check]:-}") | \`/bin/true\`: $(fmt_ms "${MEDIAN[start-true]:-}") | ${T_TRUE}x | ≤ 2x \`/bin/true\` | $(yes_no le "$T_TRUE" 2) |"
    echo "| \`check USER\` at $L profiles | $(fmt_ms "${MEDIAN[start-check]:-}") | indexed \`sqlite3\` lookup of the user's $SQL_ROWS transactions: $(fmt_ms "${MEDIAN[start-sqlite]:-}") | ${T_SQL}x | ≤ 0.7x the sqlite3 lookup | $(yes_no le "$T_SQL" 0.7) |"
    echo "| \`status $HEAVY_USER --json\`, $(manifest "$LARGEST" .heavy_transactions) transactions ($HEAVY_MB MB) | $(fmt_ms "${MEDIAN[heavy-status]:-}") | | | ≤ 15 ms | $(yes_no le "${MEDIAN[heavy-status]:-}" 15) |"
    echo "| \`status $HEAVY_USER --json\`, $(manifest "$LARGEST" .heavy_transactions) transactions ($HEAVY_MB MB) | $(fmt_ms "${MEDIAN[heavy-status]:-}") | \`jq empty\` parsing the same file: $(fmt_ms "${MEDIAN[heavy-jq]:-}") | ${T_JQ}x | ≤ 0.2x jq | $(yes_no le "$T_JQ" 0.2) |"
    echo "| \`check --stdin premium\` at $L profiles, $BATCH_IDS ids | ${T_RATE:-–} users/s | $(nproc) CPUs | | ≥ 100,000 users/s | $(yes_no ge "$T_RATE" 100000) |"
    echo "| peak memory of \`check USER\` at $L profiles | $(mib "${CHECK_KIB[$LARGEST]:-}") | | | ≤ 8 MiB | $(yes_no le "${CHECK_KIB[$LARGEST]:-}" 8192) |"
    echo "| first answer of \`check --stdin\` after the first id arrives (median of $FIRST_RUNS) | $(fmt_ms "$FIRST_MS") | | | ≤ 5 ms | $(yes_no le "$FIRST_MS" 5) |"
    if [ -n "${MEDIAN[sweep-$LARGEST-grace]:-}" ]; then
        echo "| \`find --state grace_period --json\` at $L profiles | $(fmt_ms "${MEDIAN[sweep-$LARGEST-grace]}") | peak memory $(mib "${SWEEP_KIB[$LARGEST]:-}"); $(nproc) CPUs | | ≤ 10 s at 1M$([ "$LARGEST" -lt 1000000 ] && echo " (checked at $L)") | $(yes_no le "${MEDIAN[sweep-$LARGEST-grace]}" 10000) |"
        echo "| \`summary --json\` at $L profiles | $(fmt_ms "${MEDIAN[sweep-$LARGEST-summary]:-}") | \`find\` over every profile (\`--state active --entitlement premium\`): $(fmt_ms "${MEDIAN[sweep-$LARGEST-all]:-}") | ${T_SUMMARY}x | as fast as \`find\`: ≤ 1.1x when both decode every profile | $(yes_no le "$T_SUMMARY" 1.1) |"
        echo "| \`summary --json\` at $L profiles | $(fmt_ms "${MEDIAN[sweep-$LARGEST-summary]:-}") | \`find --state grace_period\` (prefilter: few profiles decoded): $(fmt_ms "${MEDIAN[sweep-$LARGEST-grace]}") | ${T_SUMMARY_GRACE}x | (reported: summary evaluates every profile) | |"
    fi
    if [ -n "${INGEST_FRESH_RATE:-}" ]; then
        echo "| \`ingest --stdin\` of $FRESH_COUNT signed App Store notifications (two JWS each) into a fresh store | ${INGEST_FRESH_RATE} events/s; ${INGEST_FRESH_CPU} ms of CPU (user + sys) per event | | | ≥ 1,000 events/s, ≤ 0.5 ms of CPU per event | $(yes_no eval 'ge "$INGEST_FRESH_RATE" 1000 && le "$INGEST_FRESH_CPU" 0.5') |"
    fi
    if [ -n "${WEBHOOK_MEDIAN:-}" ]; then
        echo "| one \`webhook\` post through lighttpd and curl, median of $WEBHOOK_POSTS ($WEBHOOK_APPLIED applied) | $(fmt_ms "$WEBHOOK_MEDIAN") | the floor in the same run, interleaved (a CGI that execs the same binary for \`--version\`): $(fmt_ms "$WEBHOOK_FLOOR") | ${WEBHOOK_RATIO}x | ≤ 1.5x the floor | $(yes_no le "$WEBHOOK_RATIO" 1.5) |"
        echo "| the same, p99 | $(fmt_ms "$WEBHOOK_P99") | the floor's median: $(fmt_ms "$WEBHOOK_FLOOR") (its p99: $(fmt_ms "$WEBHOOK_FLOOR_P99")) | ${WEBHOOK_P99_RATIO}x | ≤ 3x the floor's median | $(yes_no le "$WEBHOOK_P99_RATIO" 3) |"
    fi
    if [ -n "${NEAR_RATIO:-}" ]; then
        echo "| \`grant\` to a new customer at 100k profiles | $(fmt_ms "$NEAR_NEW") | the same grant to an existing customer: $(fmt_ms "$NEAR_OLD") | ${NEAR_RATIO}x | ≤ 2x the existing-customer grant | $(yes_no le "$NEAR_RATIO" 2) |"
    fi
    if [ -n "${MEDIAN[grant-stdin]:-}" ]; then
        echo "| \`grant --stdin\` of $GRANT_IDS ids (half new) into a hard-link clone of the 100k store, durable (median of $GRANT_RUNS) | $(fmt_ms "${MEDIAN[grant-stdin]}") | peak memory $(mib "$GRANT_KIB"); $GRANT_GRANTED granted | | ≤ 30 s | $(yes_no le "${MEDIAN[grant-stdin]}" 30000) |"
    fi
} >"$WORK/targets.md"

# ---------------------------------------------------------------- the report

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
mem=$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
stores=$(for size in "${SIZES[@]}"; do
    s=$(store "$size")
    printf -- '  - %s: %s profiles + `%s`, %s transactions, %s of profile files (`%s`)\n' "$(label "$size")" \
        "$(manifest "$size" .profiles)" "$(manifest "$size" .heavy_user)" "$(manifest "$size" .transactions)" \
        "$(awk -v b="$(manifest "$size" .profile_bytes)" 'BEGIN { printf "%.0f MB", b / 1e6 }')" "$s"
done)
{
    echo "<!-- bench:results:start (written by scripts/bench.sh $MODE; edit outside these markers) -->"
    echo "## Results ($MODE)"
    echo
    echo "- date: $(date -u)"
    echo "- machine: $(nproc) CPUs ($cpu), $mem RAM, $(uname -sr)"
    echo "- toolchain: $(swift --version 2>&1 | head -1); $(hyperfine --version); $(jq --version); sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
    echo "- binary: \`make release\`, $(file -b "$BIN" | cut -d, -f1,4 | sed 's/ *$//'), $(awk -v b="$(wc -c <"$BIN")" 'BEGIN { printf "%.1f MB", b / 1e6 }')"
    echo "- command: \`make bench$([ "$MODE" = quick ] && echo -quick)\` (\`bash scripts/bench.sh $MODE\`), release binary from \`make release\`"
    [ "$MODE" = quick ] && echo "- quick mode: no 1M store; the targets stated at 1M are checked at 100k"
    echo "- every command at \`--at $AT\`; hyperfine with warm-up, \`-N\` (no shell) except the batch runs (stdin redirect); check, status and grant in $BLOCKS rounds of alternating blocks of $BLOCK_RUNS runs ($BLOCK_WARMUP warm-up) per size; $SLOW_RUNS runs for the heavy profile, $PEER_RUNS for jq, $BATCH_RUNS for the batch"
    echo "- users (same profile at every size): check \`$CHECK_USER\` (active renewing), status \`$STATUS_USER\` (three subscriptions), grant \`$GRANT_USER\` (expired; restored before each run), heavy \`$HEAVY_USER\`"
    echo "- peer agreement: jq and \`check --stdin\` give the same premium verdict for $((AGREE_TOTAL - AGREE_DIFF)) of $AGREE_TOTAL users of the $(label "$SMALL") store"
    echo "- stores:"
    echo "$stores"
    echo
    echo "### Targets"
    echo
    cat "$WORK/targets.md"
    echo
    echo "The store-wide commands (\`find\`, \`summary\`) run side by side in rounds (${SWEEP_ROUNDS_FOR[$LARGEST]:-2} at $L), and their ratio is the median of the per-round ratios. The bulk grant is timed from start to exit, each run into its own fresh \`cp -al\` clone of the 100k store (synced before the run), with ids from \`bench-users.txt\` interleaved with as many new ones."
    echo
    echo "Each ratio is the median, over the rounds, of the two commands' medians in the same round ($BLOCKS rounds of $BLOCK_RUNS runs each for \`check\`, \`/bin/true\` and \`sqlite3\`; $HEAVY_ROUNDS rounds of $HEAVY_RUNS for the heavy \`status\` and jq). The figures pool all rounds. \`sqlite3\` runs \`$SQL_LOOKUP\` on \`bench-peer.sqlite\` (every transaction of the store in one table, indexed on \`user_id\`, built by \`scripts/bench-sqlite.sh\`). The first answer is timed by \`scripts/first-answer.pl\` from writing the id to reading the answer line, with the process started 300 ms before."
    echo
    echo "### Every figure"
    echo
    cat "$WORK/table.md"
    echo
    echo "### Long renewal chain"
    echo
    echo "| renewals | \`check\`, mid-chain | \`status --json\`, mid-chain | \`check\`, at the end | \`status --json\`, at the end |"
    echo "| --- | --- | --- | --- | --- |"
    for n in "${CHAIN_SIZES[@]}"; do
        echo "| $n | $(fmt_ms "${MEDIAN[chain-$n-check-mid]:-}") | $(fmt_ms "${MEDIAN[chain-$n-status-mid]:-}") | $(fmt_ms "${MEDIAN[chain-$n-check-end]:-}") | $(fmt_ms "${MEDIAN[chain-$n-status-end]:-}") |"
    done
    echo
    echo "One subscription renewed N times in 5-minute sandbox periods (\`entitlement-bench-store --chain-renewals N\`), alone in its store; mid-chain, half the renewals were recorded after \`--at\`. The engine's work is O(n log n) (counted, not timed, by \`EngineWorkTests\`), so each 4x in renewals should cost about 4x in time, not the 11-12x the quadratic engine took. $SLOW_RUNS runs each."
    echo
    echo "Ratios: \"vs peer\" is the jq time divided by the \`check\` time on the same store. \"vs 1k\" for \`check\`, \`status\` and \`grant\` is the median, over the $BLOCKS rounds of alternating blocks, of each block's median divided by the same round's 1k block median (the median, min and max columns pool all blocks). Peak memory is the largest maximum RSS of three runs (\`/usr/bin/time -f %M\`), or of the timed runs for jq and the batch."
    echo "<!-- bench:results:end -->"
} >"$WORK/results.md"

mkdir -p "$(dirname "$OUTPUT")"
if [ "$MODE" = full ] && [ -f "$OUTPUT" ] && grep -q 'bench:results:start' "$OUTPUT" && grep -q 'bench:results:end' "$OUTPUT"; then
    # Replace the results block, keep the hand-written sections around it.
    awk -v results="$WORK/results.md" '
        /bench:results:start/ { while ((getline line < results) > 0) print line; skip = 1; next }
        /bench:results:end/ { skip = 0; next }
        !skip { print }' "$OUTPUT" >"$WORK/output.md" && mv "$WORK/output.md" "$OUTPUT"
elif [ "$MODE" = full ]; then
    { echo "# Performance"; echo; cat "$WORK/results.md"; } >"$OUTPUT"
else
    { echo "# Benchmark results (quick)"; echo; cat "$WORK/results.md"; } >"$OUTPUT"
fi
log "wrote $OUTPUT"
cat "$WORK/targets.md"
echo
cat "$WORK/table.md"
exit 0
