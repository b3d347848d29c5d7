#!/usr/bin/env bash
# Makes sure the system programs the tests need are installed: installs each missing
# one from Debian's packages, and says nothing when all are present.
#
#   scripts/ensure-tools.sh git [other commands...]
#
# A plain store needs none of these; the team-store tests run real git.
set -euo pipefail

missing=()
for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null 2>&1 || { echo "ensure-tools.sh: ${missing[*]} missing and no apt-get to install them" >&2; exit 1; }
SUDO=
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
echo "ensure-tools.sh: installing ${missing[*]}" >&2
# Install first; update the package lists only when that fails (they may be missing or stale).
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2 ||
    { DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq >&2 &&
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2; } ||
    { echo "ensure-tools.sh: could not install ${missing[*]}" >&2; exit 1; }
