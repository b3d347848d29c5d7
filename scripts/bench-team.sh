#!/usr/bin/env bash
# Team-store benchmarks (docs/performance.md, "Team store"):
#
#   bash scripts/bench-team.sh          # `make bench-team`: 100k profiles
#   bash scripts/bench-team.sh full     # also 1M profiles (long: the first commit of 2M files)
#   TEAM_SIZES="1000000" bash scripts/bench-team.sh   # any sizes
#
# For each size it reuses (or generates) the plain synthetic store bench/store-N, makes
# a team copy bench/team-N (a hard-link copy: the tool never writes a file in place;
# fan-out layout, `entitlement init --git`, timed: a bulk load into one pack, so no
# `git gc` is needed after it), dates that first commit two months back (a store converted
# long ago, so that a month's `log` does not start with it), then makes a bare remote and
# a second clone. Then it times with hyperfine: grant including its commit (the plain store
# beside it; `git status --porcelain` must print nothing after it), check in both stores,
# and `sync --pull-only` bringing 1,000 changed profiles (1,000 commits, one per grant)
# into the clone, its fetch included: as a fast-forward, and as a real merge (one local
# commit, so git merges and the merge driver runs where both sides changed a file). Last,
# `log` over the month: those 1,000 grants and one `grant --stdin` of 9,000 more, 10,000
# events. Medians go to bench/results-team.md and, with `full` or UPDATE_DOC=1, into
# docs/performance.md between the team-store markers. Timings are never asserted.
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-quick}
SIZES=(100000)
[ "$MODE" = full ] && SIZES=(100000 1000000)
[ -n "${TEAM_SIZES:-}" ] && read -r -a SIZES <<<"$TEAM_SIZES"
AT=2026-01-15T12:00:00Z
CHANGED=${TEAM_CHANGED:-1000}
OUT=bench/results-team.md
die() { echo "bench-team.sh: $*" >&2; exit 1; }
log() { printf '\n== %s\n' "$*" >&2; }

sh scripts/ensure-tools.sh hyperfine jq; for tool in git hyperfine jq; do command -v "$tool" >/dev/null || die "cannot install $tool"; done
make release >&2 || die "release build failed"
BIN="$(swift build -c release --show-bin-path)/entitlement"
mkdir -p bench
# Git identity and settings of this benchmark only, never the user's own.
export GIT_CONFIG_GLOBAL="$PWD/bench/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Bench Agent"
git config --global user.email "bench@example.com"
git config --global init.defaultBranch main
unset ENTITLEMENT_ACTOR ENTITLEMENT_STORE

median_ms() { jq -r '.results[0].median * 1000 | . * 100 | round / 100' "$1"; }
git_version=$(git --version | awk '{print $3}')
{
    echo "| profiles | operation | plain store (median) | team store (median) | target |"
    echo "| --- | --- | --- | --- | --- |"
} >"$OUT.rows"

for N in "${SIZES[@]}"; do
    PLAIN=bench/store-$N TEAM=bench/team-$N REMOTE=bench/team-$N-remote.git CLONE=bench/team-$N-clone
    [ -f "$PLAIN/bench-manifest.json" ] || make bench-store SIZE=$N >&2 || die "cannot generate $PLAIN"
    if [ ! -f "$TEAM/.git/bench-complete" ]; then
        log "team store of $N profiles"
        rm -rf "$TEAM" "$REMOTE" "$CLONE"
        # The folder's contents, so that a store reached through a symbolic link is copied, not the link.
        mkdir -p "$TEAM" && cp -al "$PLAIN/." "$TEAM"
        rm -f "$TEAM"/bench-peer.* "$TEAM"/bench-users.txt "$TEAM"/bench-manifest.json "$TEAM"/bench-transactions.tsv
        start=$(date +%s.%N)
        "$BIN" migrate --layout fanout --store "$TEAM" >&2 || die "migrate failed"
        mid=$(date +%s.%N)
        "$BIN" init --git --store "$TEAM" >&2 || die "init --git failed"
        end=$(date +%s.%N)
        echo "migrate --layout fanout: $(awk "BEGIN{print $mid - $start}") s; init --git (convert, first commit): $(awk "BEGIN{print $end - $mid}") s; $(git -C "$TEAM" count-objects -vH | tr '\n' ' ')" >"$TEAM/.git/bench-setup.txt"
        # The same first commit, dated two months back (the store was converted long ago).
        old=$(date -u -d '-60 days' +%s)
        first=$(GIT_AUTHOR_DATE="@$old" GIT_COMMITTER_DATE="@$old" git -C "$TEAM" commit-tree "HEAD^{tree}" -m "make the store a team store") || die "cannot date the first commit"
        git -C "$TEAM" update-ref HEAD "$first"
        git clone -q --bare "$TEAM" "$REMOTE" || die "bare clone failed"
        git -C "$TEAM" remote add origin "$PWD/$REMOTE"
        git -C "$TEAM" fetch -q origin
        "$BIN" clone "$PWD/$REMOTE" --store "$CLONE" >&2 || die "entitlement clone failed"
        touch "$TEAM/.git/bench-complete"
    fi
    cat "$TEAM/.git/bench-setup.txt" >&2
    user=$(sed -n "$((N / 2))p" "$PLAIN/bench-users.txt")
    W="bench/work-team-$N"; rm -rf "$W"; mkdir -p "$W"

    log "grant at $N profiles"
    hyperfine --style basic -N -w 3 -r 30 --export-json "$W/grant-plain.json" \
        "$BIN grant bench-grant-user premium --duration 1d --reason bench --actor bench --store $PLAIN" >&2
    hyperfine --style basic -N -w 3 -r 30 --export-json "$W/grant-team.json" \
        "$BIN grant bench-grant-user premium --duration 1d --reason bench --store $TEAM" >&2
    dirty=$(git -C "$TEAM" status --porcelain | wc -l)
    echo "git status --porcelain after the grants: $dirty lines" >&2

    log "check at $N profiles"
    hyperfine --style basic -N -i -w 10 -r 200 --export-json "$W/check-plain.json" "$BIN check $user premium --at $AT --store $PLAIN" >&2
    hyperfine --style basic -N -i -w 10 -r 200 --export-json "$W/check-team.json" "$BIN check $user premium --at $AT --store $TEAM" >&2

    log "sync: $CHANGED changed profiles into the clone"
    branch=$(git -C "$CLONE" symbolic-ref --short HEAD)
    # Everything the team store has so far (the grants above, a rerun's earlier log grants)
    # reaches the clone first, so that the timed sync brings exactly the grants below.
    "$BIN" sync --store "$TEAM" >&2 || die "push of the earlier commits failed"
    "$BIN" sync --store "$CLONE" >&2 || die "first sync of the clone failed"
    old=$(git -C "$CLONE" rev-parse HEAD)
    sed -n "1,${CHANGED}p" "$PLAIN/bench-users.txt" >"$W/users"
    echo "$CHANGED grants in the team store, one commit each" >&2
    while read -r id; do "$BIN" grant "$id" premium --duration 1d --reason "bench sync" --store "$TEAM" >/dev/null || die "grant $id failed"; done <"$W/users"
    "$BIN" sync --store "$TEAM" >&2 || die "push failed"
    # Pack what the grants and the push left, as git's automatic gc would, before timing.
    git -C "$TEAM" gc --quiet; git -C "$REMOTE" gc --quiet
    # Each run starts where the clone was before those commits, remote-tracking ref included,
    # so the timed sync fetches them too.
    # The reset writes every path it changed into the split index's small file; folding it
    # (as sync does after a big merge) keeps that cost out of the timed run.
    rewind="git -C $CLONE update-ref refs/remotes/origin/$branch $old && git -C $CLONE reset -q --hard $old && git -C $CLONE -c splitIndex.maxPercentChange=0 -c splitIndex.sharedIndexExpire=now update-index --split-index"
    hyperfine --style basic -r 5 --export-json "$W/sync-ff.json" \
        --prepare "$rewind" "$BIN sync --pull-only --store $CLONE" >&2
    # A local commit on a profile that also changed remotely: git merges, the driver merges that file.
    both=$(sed -n 1p "$W/users")
    hyperfine --style basic -r 5 --export-json "$W/sync-merge.json" \
        --prepare "$rewind && $BIN grant $both premium --lifetime --reason 'bench local' --store $CLONE >/dev/null && $BIN grant bench-local premium --lifetime --store $CLONE >/dev/null" \
        "$BIN sync --pull-only --store $CLONE" >&2
    git -C "$CLONE" log -1 --format='merge check: %p (two parents = a merge commit)' >&2
    git -C "$CLONE" update-ref "refs/remotes/origin/$branch" "$old"
    git -C "$CLONE" reset -q --hard "$old"

    log "log over a month: the $CHANGED grants above and one grant --stdin of $((10000 - CHANGED)) more"
    since=$(date -u -d '-30 days' +%Y-%m-%dT%H:%M:%SZ)
    if [ ! -f "$TEAM/.git/bench-log-ready" ]; then
        sed -n "$((CHANGED + 1)),10000p" "$PLAIN/bench-users.txt" |
            "$BIN" grant --stdin premium --duration 1d --reason "bench log" --store "$TEAM" --quiet || die "bulk grant failed"
        touch "$TEAM/.git/bench-log-ready"
    fi
    events=$("$BIN" log --since "$since" --output jsonl --store "$TEAM" | wc -l)
    echo "log --since $since: $events events" >&2
    hyperfine --style basic -N -w 1 -r 5 --export-json "$W/log.json" "$BIN log --since $since --output jsonl --store $TEAM" >&2

    {
        echo "| $N | \`grant\` (with its commit in the team store) | $(median_ms "$W/grant-plain.json") ms | $(median_ms "$W/grant-team.json") ms | ≤ $([ "$N" -ge 1000000 ] && echo 100 || echo 50) ms |"
        echo "| $N | \`check\` | $(median_ms "$W/check-plain.json") ms | $(median_ms "$W/check-team.json") ms | ≤ 1.1× plain |"
        echo "| $N | \`sync --pull-only\`, $CHANGED changed profiles ($CHANGED commits, fetch included), fast-forward | - | $(median_ms "$W/sync-ff.json") ms | ≤ 10 s |"
        echo "| $N | the same with local commits, one on a profile that also changed (a merge, the driver runs) | - | $(median_ms "$W/sync-merge.json") ms | ≤ 10 s |"
        echo "| $N | \`git status --porcelain\` right after those grants | - | $dirty lines | empty |"
        echo "| $N | \`log --since\` a month: $events events ($CHANGED commits of one grant, one of $((10000 - CHANGED))) | - | $(median_ms "$W/log.json") ms | ≤ 5 s |"
    } >>"$OUT.rows"
    echo "| $N | setup: $(cat "$TEAM/.git/bench-setup.txt") | | | |" >>"$OUT.rows.setup"
done
{
    echo "Measured $(date -u +%Y-%m-%d) with git $git_version, $(nproc) cores; release build; hyperfine medians."
    echo
    cat "$OUT.rows"
    echo
    [ -f "$OUT.rows.setup" ] && sed 's/^| \([0-9]*\) | setup: \(.*\) | | | |$/- \1 profiles, one-time setup: \2/' "$OUT.rows.setup"
} >"$OUT"
rm -f "$OUT.rows" "$OUT.rows.setup"
cat "$OUT"
if [ "$MODE" = full ] || [ "${UPDATE_DOC:-0}" = 1 ]; then
    awk -v file="$OUT" '
        /<!-- team-store-results:start -->/ { print; while ((getline line < file) > 0) print line; skip = 1; next }
        /<!-- team-store-results:end -->/ { skip = 0 }
        !skip' docs/performance.md >docs/performance.md.new && mv docs/performance.md.new docs/performance.md
fi
