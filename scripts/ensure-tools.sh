#!/usr/bin/env bash
# Installs the system programs the tests need (git, for team-store tests) from Debian
# when they are missing. Idempotent: does nothing when they are there.
set -euo pipefail
missing=()
for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}"
