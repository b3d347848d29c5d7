#!/usr/bin/env bash
# `refresh --stdin` benchmark (docs/performance.md, "refresh"). Sourced by scripts/bench.sh (which
# defines BIN, WORK, row, log); or run alone once the release binary is built (`make release`):
#
#   bash scripts/bench-refresh.sh       # results on stdout
#
# REFRESH_COUNT Stripe customers (cus_1 …) refreshed from standard input against a local fake
# Stripe API: lighttpd on 127.0.0.1 serving one recorded list of subscriptions as a static file
# (the query string is ignored), so the figure is the tool's and curl's, not a vendor's. Each
# customer is one request; --rate is set high so pacing does not wait. Reported: requests a
# second (wall clock) and the CPU (user + system) of the tool with its curl children per request.

REFRESH_COUNT=${REFRESH_COUNT:-1000}

refresh_benchmarks() {
    local dir lighttpd port store secrets start end cpu rps per
    lighttpd=$(command -v lighttpd || ls /usr/sbin/lighttpd 2>/dev/null) || { echo "bench-refresh.sh: no lighttpd" >&2; return 0; }
    command -v curl >/dev/null || { echo "bench-refresh.sh: no curl" >&2; return 0; }
    dir=$PWD/${WORK:-bench}/refresh
    rm -rf "$dir" && mkdir -p "$dir/www/v1" "$dir/store/profiles"
    cp Fixtures/import/stripe/config.json "$dir/store/config.json"
    { printf '{"object": "list", "url": "/v1/subscriptions", "has_more": false, "data": ['
      cat Fixtures/import/stripe/subscription-active.json
      printf ']}\n'; } >"$dir/www/v1/subscriptions"
    port=$(( 20000 + RANDOM % 20000 ))
    printf 'server.bind = "127.0.0.1"\nserver.port = %s\nserver.document-root = "%s"\nserver.errorlog = "%s"\n' \
        "$port" "$dir/www" "$dir/error.log" >"$dir/lighttpd.conf"
    "$lighttpd" -D -f "$dir/lighttpd.conf" & local server=$!
    sleep 0.5
    secrets=$dir/secrets.json
    printf '{"stripe": {"api_key": "rk_test_bench"}}\n' >"$secrets" && chmod 600 "$secrets"
    seq 1 "$REFRESH_COUNT" | sed 's/^/cus_/' >"$dir/customers.txt"
    log "refresh: $REFRESH_COUNT Stripe customers against lighttpd on port $port"
    /usr/bin/time -f '%e %U %S' -o "$dir/time.txt" "$BIN" refresh --stdin --vendor stripe --rate 100000 \
        --api-base "http://127.0.0.1:$port" --store "$dir/store" --secrets "$secrets" <"$dir/customers.txt" >"$dir/out.txt" 2>&1
    kill "$server"; wait "$server" 2>/dev/null
    read -r elapsed user sys <"$dir/time.txt"
    rps=$(awk -v n="$REFRESH_COUNT" -v s="$elapsed" 'BEGIN { if (s > 0) printf "%.0f", n / s }')
    per=$(awk -v n="$REFRESH_COUNT" -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", (u + s) * 1000 / n }')
    head -1 "$dir/out.txt" >&2
    if declare -F row >/dev/null; then
        row "\`refresh --stdin --vendor stripe\` of $REFRESH_COUNT customers against a local fake API (${rps} requests/s; ${per} ms CPU per request, tool and curl)" \
            "–" "" "" "" "" "" ""
    else
        echo "refresh --stdin of $REFRESH_COUNT customers: ${elapsed} s, ${rps} requests/s, ${per} ms CPU (user+sys, tool and curl) per request"
    fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    BIN=${BIN:-.build/release/entitlement}
    log() { echo "$*" >&2; }
    refresh_benchmarks
fi
