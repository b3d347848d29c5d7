#!/usr/bin/env bash
# Builds the SQLite peer of a generated store: its transactions in one table, indexed
# on the user column, from the store's bench-transactions.tsv.
#
#   bash scripts/bench-sqlite.sh STORE_DIR    # writes STORE_DIR/bench-peer.sqlite
#
# A database newer than the store's manifest is kept. It is built under a temporary
# name and renamed, so an interrupted build never looks complete.
set -euo pipefail
store=$1
db=$store/bench-peer.sqlite
tsv=$store/bench-transactions.tsv
manifest=$store/bench-manifest.json
[ -f "$tsv" ] && [ -f "$manifest" ] || { echo "bench-sqlite.sh: $store is not a complete generated store" >&2; exit 1; }
if [ -f "$db" ] && [ "$db" -nt "$manifest" ]; then exit 0; fi
columns=$(jq -r '.transaction_columns | map(. + " TEXT") | join(", ")' "$manifest")
rm -f "$db.tmp"
sqlite3 "$db.tmp" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE transactions ($columns);
.mode tabs
.import '$tsv' transactions
CREATE INDEX transactions_user_id ON transactions (user_id);
ANALYZE;
SQL
mv "$db.tmp" "$db"
