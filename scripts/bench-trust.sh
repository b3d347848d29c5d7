# Signed-data benchmarks (docs/security.md, "Speed"). Sourced by scripts/bench.sh,
# which defines BIN, WORK, AT, TOOLS, SMALL, BLOCKS, BLOCK_RUNS, BLOCK_WARMUP and the
# helpers store, hf, rounds, row, paired_median, log and MEDIAN.
#
# - `import` of JWS_COUNT App Store JWS that share one certificate chain (minted by
#   entitlement-bench-jws: P-384 root and intermediate, P-256 leaf, Apple's OIDs), in one
#   run from standard input, verified; beside the same run with --no-verify. JWS/s is
#   JWS_COUNT over the verified run's median; target ≥ 2,000 JWS/s.
# - `check` start-up with libcrypto linked, against the binary built from BASELINE_REF
#   (default main) in the same rounds; `check` never calls the library: target ≤ 1.05x.
#   The baseline is built from `git archive` of that commit into bench/baseline-<commit>
#   (reused while the commit is the same); skipped, with a note, when it cannot be built.

JWS_COUNT=${JWS_COUNT:-10000}
BASELINE_REF=${BASELINE_REF:-main}

trust_benchmarks() {
    local gen dir jstore runs verified commit baseline_src baseline_bin
    runs=5; [ "$MODE" = quick ] && runs=2
    log "signed data: $JWS_COUNT App Store JWS sharing one chain"
    if swift build "${TOOLS[@]}" --product entitlement-bench-jws >&2; then
        gen=$(swift build "${TOOLS[@]}" --show-bin-path)/entitlement-bench-jws
        dir=$WORK/jws
        jstore=$dir/store
        if "$gen" --count "$JWS_COUNT" --out "$dir" >&2 && "$BIN" init --store "$jstore" >/dev/null 2>&1; then
            # Every document must verify: a benchmark of refusals would measure the wrong thing.
            verified=$("$BIN" import - --dry-run --json --trust-root "$dir/root.der" --store "$jstore" <"$dir/signed.jsonl" 2>/dev/null |
                jq -r '"\(.signatures_verified) \(.jws_decoded)"')
            [ "$verified" = "true $JWS_COUNT" ] || echo "bench.sh: the generated JWS did not all verify ($verified)" >&2
            hf jws-verified -w 1 -r "$runs" \
                "$BIN import - --dry-run --json --trust-root $dir/root.der --store $jstore <$dir/signed.jsonl >/dev/null 2>&1"
            hf jws-unverified -w 1 -r "$runs" \
                "$BIN import - --dry-run --json --no-verify --store $jstore <$dir/signed.jsonl >/dev/null 2>&1"
            JWS_RATE=$(awk -v n="$JWS_COUNT" -v ms="${MEDIAN[jws-verified]:-}" 'BEGIN { if (ms > 0) printf "%.0f", n / (ms / 1000) }')
            JWS_COST=$(awk -v a="${MEDIAN[jws-verified]:-}" -v b="${MEDIAN[jws-unverified]:-}" -v n="$JWS_COUNT" \
                'BEGIN { if (a > 0 && b > 0) printf "%.1f", (a - b) * 1000 / n }')
            row "\`import -\` of $JWS_COUNT App Store JWS, one chain, verified (${JWS_RATE:-–} JWS/s; ${JWS_COST:-–} µs each over --no-verify)" \
                "–" "jws-verified" "" "" "" "≥ 2,000 JWS/s" "$(yes_no ge "${JWS_RATE:-}" 2000)"
            row "\`import - --no-verify\`, the same $JWS_COUNT JWS" "–" "jws-unverified" "" "" "" "–" "–"
        else
            echo "bench.sh: generating the signed documents failed" >&2
        fi
    else
        echo "bench.sh: building entitlement-bench-jws failed" >&2
    fi

    commit=$(git rev-parse --verify --quiet "$BASELINE_REF^{commit}") || { echo "bench.sh: no $BASELINE_REF to compare check's start-up with" >&2; return 0; }
    baseline_src=$BENCH/baseline-${commit:0:12}
    baseline_bin=$baseline_src/.build/release/entitlement
    if [ ! -x "$baseline_bin" ]; then
        log "baseline binary from $BASELINE_REF (${commit:0:12})"
        rm -rf "$baseline_src" && mkdir -p "$baseline_src" && git archive "$commit" | tar -x -C "$baseline_src" &&
            (cd "$baseline_src" && make release >&2) || { echo "bench.sh: building the $BASELINE_REF binary failed" >&2; return 0; }
    fi
    local s; s=$(store "$SMALL")
    rounds startup "$BLOCKS" "$BLOCK_RUNS" "$BLOCK_WARMUP" \
        "baseline=$baseline_bin check '$CHECK_USER' premium --store $s --at $AT" \
        "crypto=$BIN check '$CHECK_USER' premium --store $s --at $AT"
    STARTUP_RATIO=$(paired_median startup crypto baseline)
    row "\`check USER\` start-up, libcrypto linked, vs $BASELINE_REF (${commit:0:12}): ${STARTUP_RATIO:-–}x" "$(label "$SMALL")" \
        "startup-crypto" "" "" "" "≤ 1.05x the $BASELINE_REF binary" "$(yes_no le "${STARTUP_RATIO:-}" 1.05)"
    row "\`check USER\`, the $BASELINE_REF binary" "$(label "$SMALL")" "startup-baseline" "" "" "" "–" "–"
}
JWS_RATE=; JWS_COST=; STARTUP_RATIO=
