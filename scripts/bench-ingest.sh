#!/usr/bin/env bash
# Live-store benchmarks (docs/performance.md, "Live store"). Sourced by scripts/bench.sh
# (which defines BIN, WORK, AT, TOOLS, MODE and the helpers hf, row, log, stat_ms, le, ge,
# yes_no, store, manifest); or run alone once the release binary is built (`make release`):
#
#   bash scripts/bench-ingest.sh        # 100k-profile store under bench/, results on stdout
#
# - `ingest` of INGEST_COUNT App Store notifications (SUBSCRIBED, two JWS each: the signed
#   payload and its signedTransactionInfo, fully verified against a minted chain) from JSON
#   Lines on standard input into a copy of the 100k-profile store: events/s; target ≥ 500.
# - The first FRESH_COUNT of them into a fresh (empty) store: events/s and CPU (user + sys) per
#   event, from hyperfine; targets ≥ 1,000 events/s and ≤ 0.5 ms of CPU per event.
# - The same into a team store (fan-out layout, git), one commit per batch of 500: ≥ 300/s.
# - WEBHOOK_POSTS sequential RevenueCat webhook posts through lighttpd (mod_cgi) and curl into
#   the 100k store, each answered once spooled and applied after the answer, each followed by a
#   post to the floor (a CGI that execs the same binary for `--version`: a process start through
#   the same server), so that load falls on both alike: median ≤ 1.5x the floor's median, p99
#   ≤ 3x it (curl's time_total); every post must be applied by the end. WEBHOOK_ONLY=1 runs this
#   part alone.
# - `check USER premium` on a profile an event just changed, beside the same check before it.
# Every copy of the store is made with `cp -al` (the tool replaces files by rename, never in
# place, so the generated store is never changed) in hyperfine's --prepare, which is not timed.

INGEST_COUNT=${INGEST_COUNT:-10000}
FRESH_COUNT=${FRESH_COUNT:-2000}
WEBHOOK_POSTS=${WEBHOOK_POSTS:-1000}

ingest_benchmarks() {
    local size=100000 base dir secrets runs=1 user ms rate team
    [ "$MODE" = full ] && runs=3
    base=$(store "$size")
    dir=$WORK/ingest
    mkdir -p "$dir"
    if [ "${WEBHOOK_ONLY:-0}" = 1 ]; then
        webhook_benchmark "$base" "$dir"
        return 0
    fi
    log "ingest: minting $INGEST_COUNT App Store notifications"
    local gen
    gen=$(swift build "${TOOLS[@]}" --show-bin-path)/entitlement-bench-jws
    swift build "${TOOLS[@]}" --product entitlement-bench-jws >&2 && "$gen" --count "$INGEST_COUNT" --out "$dir" --notifications >&2 ||
        { echo "bench-ingest.sh: minting the notifications failed" >&2; return 0; }
    secrets=$PWD/$dir/secrets.json
    printf '{"appstore": {"trust_roots": ["%s"]}, "revenuecat": {"authorization": "Bearer bench"}}\n' "$PWD/$dir/root.der" >"$secrets"
    chmod 600 "$secrets"

    hf ingest-plain -r "$runs" --prepare "rm -rf $dir/plain && mkdir -p $dir/plain && cp -al $base/. $dir/plain" \
        "$BIN ingest --stdin --vendor appstore --store $dir/plain --secrets $secrets <$dir/notifications.jsonl >/dev/null 2>&1"
    ms=$(stat_ms ingest-plain median)
    rate=$(awk -v n="$INGEST_COUNT" -v ms="$ms" 'BEGIN { if (ms > 0) printf "%.0f", n / (ms / 1000) }')
    # Every event must have been applied: a benchmark of refusals would measure the wrong thing.
    [ "$(find "$dir/plain/ingest/events/appstore" -name '*.json' | wc -l)" = "$INGEST_COUNT" ] ||
        echo "bench-ingest.sh: not every notification was applied" >&2
    row "\`ingest --stdin\` of $INGEST_COUNT App Store notifications, 2 JWS each, verified (${rate:-–} events/s)" "100k" "ingest-plain" \
        "" "" "" "≥ 500 events/s" "$(yes_no ge "${rate:-}" 500)"

    fresh_benchmark "$dir" "$secrets" "$runs"

    team=$dir/team-template
    if [ ! -d "$team/.git" ]; then
        log "ingest: team store of $size profiles"
        rm -rf "$team" && mkdir -p "$team" && cp -al "$base/." "$team"
        rm -f "$team"/bench-peer.* "$team"/bench-users.txt "$team"/bench-manifest.json "$team"/bench-transactions.tsv
        # One grant after `init --git`, as any store in use has had: its first write builds the
        # kept name list (.profile-names), which each timed run would otherwise rebuild.
        "$BIN" migrate --layout fanout --store "$team" >&2 && "$BIN" init --git --store "$team" --actor "Bench <bench@localhost>" >&2 &&
            "$BIN" grant bench-template premium --duration 1d --store "$team" --actor "Bench <bench@localhost>" >&2 ||
            { echo "bench-ingest.sh: making the team store failed" >&2; return 0; }
    fi
    # As for the fresh store: the last run's copy is moved aside, not deleted, until the end.
    rm -rf "$dir"/old-team.*
    hf ingest-team -r "$runs" --prepare "if [ -d $dir/team ]; then mv $dir/team \$(mktemp -d $dir/old-team.XXXXXX)/; fi; cp -a $team $dir/team" \
        "$BIN ingest --stdin --vendor appstore --store $dir/team --secrets $secrets <$dir/notifications.jsonl >/dev/null 2>&1"
    rm -rf "$dir"/old-team.*
    ms=$(stat_ms ingest-team median)
    rate=$(awk -v n="$INGEST_COUNT" -v ms="$ms" 'BEGIN { if (ms > 0) printf "%.0f", n / (ms / 1000) }')
    row "the same into a team store, one commit per 500 events (${rate:-–} events/s; \`cp -a\` of the repository untimed)" "100k" "ingest-team" \
        "" "" "" "≥ 300 events/s" "$(yes_no ge "${rate:-}" 300)"

    webhook_benchmark "$base" "$dir"

    user=$(manifest "$SMALL" .sample_users.active_renewing)
    rm -rf "$dir/check" && mkdir -p "$dir/check" && cp -al "$base/." "$dir/check"
    hf check-before-event -N -w 3 -r 30 "$BIN check $user premium --store $dir/check --at $AT"
    printf '{"api_version": "1.0", "event": {"type": "RENEWAL", "id": "bench-check", "app_user_id": "%s", "event_timestamp_ms": 1768478400000, "product_id": "com.example.premium.monthly", "entitlement_ids": ["premium"], "purchased_at_ms": 1768478400000, "expiration_at_ms": 1771156800000, "store": "APP_STORE", "environment": "PRODUCTION", "transaction_id": "bench-check-t", "original_transaction_id": "bench-check-t"}}\n' "$user" |
        "$BIN" ingest --stdin --store "$dir/check" --secrets "$secrets" >/dev/null 2>&1
    hf check-after-event -N -w 3 -r 30 "$BIN check $user premium --store $dir/check --at $AT"
    row "\`check USER premium\` right after an event changed the profile" "100k" "check-after-event" "" \
        "$(ratio "$(stat_ms check-after-event median)" "$(stat_ms check-before-event median)")x before" "" "no slower than before" \
        "$(yes_no le "$(ratio "$(stat_ms check-after-event median)" "$(stat_ms check-before-event median)")" 1.05)"
}

# fresh_benchmark DIR SECRETS RUNS: the first FRESH_COUNT notifications into a new, empty store;
# wall time gives events/s, hyperfine's user + system time the CPU per event.
fresh_benchmark() {
    local dir=$1 secrets=$2 runs=$3 ms cpu rate
    head -n "$FRESH_COUNT" "$dir/notifications.jsonl" >"$dir/fresh.jsonl"
    # The last run's store is moved aside, not deleted, until the end: thousands of files freed
    # just before a run make the file system's choice of new inodes slow (ext4 passes over
    # recently freed ones), and that system time would be charged to the run.
    rm -rf "$dir/fresh" "$dir"/old.*
    hf ingest-fresh -r "$runs" --prepare "if [ -d $dir/fresh ]; then mv $dir/fresh \$(mktemp -d $dir/old.XXXXXX)/; fi; $BIN init --store $dir/fresh >/dev/null" \
        "$BIN ingest --stdin --vendor appstore --store $dir/fresh --secrets $secrets <$dir/fresh.jsonl >/dev/null 2>&1"
    [ "$(find "$dir/fresh/ingest/events/appstore" -name '*.json' | wc -l)" = "$FRESH_COUNT" ] ||
        echo "bench-ingest.sh: not every notification was applied to the fresh store" >&2
    ms=$(stat_ms ingest-fresh median)
    rate=$(awk -v n="$FRESH_COUNT" -v ms="$ms" 'BEGIN { if (ms > 0) printf "%.0f", n / (ms / 1000) }')
    cpu=$( [ -f "$WORK/ingest-fresh.json" ] && jq -r --arg n "$FRESH_COUNT" '(.results[0].user + .results[0].system) * 1000 / ($n | tonumber) | . * 1000 | round / 1000' "$WORK/ingest-fresh.json")
    INGEST_FRESH_RATE=$rate; INGEST_FRESH_CPU=$cpu
    rm -rf "$dir"/old.*
    row "\`ingest --stdin\` of $FRESH_COUNT App Store notifications, 2 JWS each, verified, into a fresh store (${rate:-–} events/s, ${cpu:-–} ms of CPU per event, user + sys)" "fresh" "ingest-fresh" \
        "" "" "" "≥ 1,000 events/s, ≤ 0.5 ms of CPU per event" "$(yes_no eval 'ge "${rate:-}" 1000 && le "${cpu:-}" 0.5')"
}
INGEST_FRESH_RATE=; INGEST_FRESH_CPU=

# webhook_benchmark STORE DIR: WEBHOOK_POSTS sequential posts through lighttpd and curl, each
# followed by a post to the floor: a CGI that execs the same binary for `--version` (the cost of
# a process start through the server), so load falls on both alike. The secrets file is a
# production one: RevenueCat's header, an App Store identity, no test roots (which would be
# parsed by every request, as a configured root is).
webhook_benchmark() {
    local base=$1 dir=$2 secrets port times floor stats bin applied
    secrets=$PWD/$dir/hook-secrets.json
    printf '{"revenuecat": {"authorization": "Bearer bench"}, "appstore": {"bundle_id": "com.example.app"}}\n' >"$secrets" && chmod 600 "$secrets"
    case $BIN in /*) bin=$BIN ;; *) bin=$PWD/$BIN ;; esac
    command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || { echo "bench-ingest.sh: no lighttpd" >&2; return 0; }
    rm -rf "$dir/hook" && mkdir -p "$dir/hook/store" "$dir/hook/cgi" "$dir/hook/www" && cp -al "$base/." "$dir/hook/store"
    printf '#!/bin/sh\nexec %s webhook --store %s --secrets %s\n' "$bin" "$PWD/$dir/hook/store" "$secrets" >"$dir/hook/cgi/entitlement"
    printf '#!/bin/sh\nexec %s --version\n' "$bin" >"$dir/hook/cgi/floor"
    chmod 755 "$dir/hook/cgi/entitlement" "$dir/hook/cgi/floor"
    port=$(( 20000 + RANDOM % 20000 ))
    cat >"$dir/hook/lighttpd.conf" <<CONF
server.modules = ("mod_cgi", "mod_alias")
server.bind = "127.0.0.1"
server.port = $port
server.document-root = "$PWD/$dir/hook/www"
server.errorlog = "$PWD/$dir/hook/error.log"
alias.url = ("/hooks/" => "$PWD/$dir/hook/cgi/")
\$HTTP["url"] =~ "^/hooks/" { cgi.assign = ("" => "") }
CONF
    local lighttpd; lighttpd=$(command -v lighttpd || echo /usr/sbin/lighttpd)
    "$lighttpd" -D -f "$dir/hook/lighttpd.conf" &
    local server=$!
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.05; done
    log "webhook: $WEBHOOK_POSTS sequential posts through lighttpd, each followed by a post to the floor"
    times=$dir/hook/times.txt; floor=$dir/hook/floor.txt; : >"$times"; : >"$floor"
    for i in $(seq "$WEBHOOK_POSTS"); do
        printf '{"api_version": "1.0", "event": {"type": "INITIAL_PURCHASE", "id": "hook-%d", "app_user_id": "hook-user-%d", "event_timestamp_ms": 1768478400000, "product_id": "com.example.premium.monthly", "entitlement_ids": ["premium"], "purchased_at_ms": 1768478400000, "expiration_at_ms": 1771156800000, "store": "APP_STORE", "environment": "PRODUCTION", "transaction_id": "hook-t%d", "original_transaction_id": "hook-t%d"}}' "$i" "$((i % 500))" "$i" "$i" >"$dir/hook/body.json"
        curl -s -o "$dir/hook/answer.json" -w '%{http_code} %{time_total}\n' -H 'Authorization: Bearer bench' -H 'Content-Type: application/json' \
            --data-binary @"$dir/hook/body.json" "http://127.0.0.1:$port/hooks/entitlement/revenuecat" >>"$times"
        curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --data-binary @"$dir/hook/body.json" "http://127.0.0.1:$port/hooks/floor" >>"$floor"
    done
    # Each request is applied after its answer: wait (at most 30 s) for the last ones.
    for _ in $(seq 300); do [ -z "$(ls -A "$dir/hook/store/ingest/spool" 2>/dev/null)" ] && break; sleep 0.1; done
    kill "$server"; wait "$server" 2>/dev/null
    [ "$(grep -vc '^200 ' "$times")" = 0 ] || echo "bench-ingest.sh: $(grep -vc '^200 ' "$times") posts were not answered 200" >&2
    applied=$(find "$dir/hook/store/ingest/events/revenuecat" -name '*.json' 2>/dev/null | wc -l)
    [ "$applied" = "$WEBHOOK_POSTS" ] || echo "bench-ingest.sh: $applied of $WEBHOOK_POSTS posts applied" >&2
    stats=$(percentiles "$times"); WEBHOOK_MEDIAN=${stats% *}; WEBHOOK_P99=${stats#* }
    stats=$(percentiles "$floor"); WEBHOOK_FLOOR=${stats% *}; WEBHOOK_FLOOR_P99=${stats#* }
    WEBHOOK_RATIO=$(ratio "$WEBHOOK_MEDIAN" "$WEBHOOK_FLOOR"); WEBHOOK_P99_RATIO=$(ratio "$WEBHOOK_P99" "$WEBHOOK_FLOOR")
    WEBHOOK_APPLIED=$applied
    row "one \`webhook\` request through lighttpd and curl, answered once spooled, applied after (median ${WEBHOOK_MEDIAN} ms, p99 ${WEBHOOK_P99} ms over $WEBHOOK_POSTS posts, $applied applied); the floor in the same run, a CGI exec of the same binary for \`--version\`: median ${WEBHOOK_FLOOR} ms, p99 ${WEBHOOK_FLOOR_P99} ms" \
        "100k" "" "${WEBHOOK_RATIO}x / ${WEBHOOK_P99_RATIO}x the floor's median" "" "" "median ≤ 1.5x the floor, p99 ≤ 3x the floor's median" \
        "$(yes_no eval 'le "$WEBHOOK_RATIO" 1.5 && le "$WEBHOOK_P99_RATIO" 3 && [ "$WEBHOOK_APPLIED" = "$WEBHOOK_POSTS" ]')"
}
WEBHOOK_MEDIAN=; WEBHOOK_P99=; WEBHOOK_FLOOR=; WEBHOOK_FLOOR_P99=; WEBHOOK_RATIO=; WEBHOOK_P99_RATIO=; WEBHOOK_APPLIED=

# percentiles FILE: the median and the 99th percentile (ms) of curl's "STATUS SECONDS" lines.
percentiles() {
    awk '{ print $2 * 1000 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f %.1f", v[int((NR + 1) / 2)], v[int(NR * 0.99 + 0.5)] }'
}

# Alone: the release binary, a 100k store under bench/, and the rows printed as a table.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -uo pipefail
    cd "$(dirname "$0")/.."
    MODE=quick; AT=2026-01-15T12:00:00Z; WORK=bench/work-ingest; SMALL=100000
    TOOLS=(${BENCH_TOOLS:--c release --scratch-path .build-tools -Xlinker --fatal-warnings})
    BIN=${BIN:-$(swift build -c release --show-bin-path)/entitlement}
    rm -rf "$WORK"; mkdir -p "$WORK"
    ROWS=$WORK/rows
    log() { printf '\n== %s\n' "$*" >&2; }
    hf() { local key=$1; shift; log "$key"; hyperfine --style basic --export-json "$WORK/$key.json" "$@" >&2; }
    stat_ms() { [ -f "$WORK/$1.json" ] && jq -r ".results[0].$2 * 1000" "$WORK/$1.json" || echo ""; }
    row() { printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$(stat_ms "$3" median)" "$4$5" "$7" "$8" >>"$ROWS"; }
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print ""; else printf "%.2f", a / b }'; }
    le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a <= b) }'; }
    ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a >= b) }'; }
    yes_no() { if "$@"; then echo yes; else echo no; fi; }
    store() { echo "bench/store-$1"; }
    manifest() { jq -r "$2" "$(store "$1")/bench-manifest.json"; }
    [ -f "$(store 100000)/bench-manifest.json" ] || make bench-store SIZE=100000 >&2 || exit 1
    ingest_benchmarks
    echo "| operation | profiles | median (ms) | vs | target | met |"
    echo "| --- | --- | --- | --- | --- | --- |"
    cat "$ROWS"
fi
