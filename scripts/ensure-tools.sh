#!/bin/sh
# Installs the programs the test suite runs beside the tool, from Debian's packages, when
# they are missing: bash, zsh and fish (completion scripts are syntax-checked and run) and
# groff (the man page is rendered), git (the team-store tests run real git; a plain store
# needs none of these), lighttpd, curl and busybox (the webhook's web-server tests), bash-completion
# (completion in an interactive bash). Extra commands to ensure may be named as arguments
# (scripts/bench-team.sh: hyperfine jq); each is installed from the package of its name.
# `--build` ensures only what building needs: libssl-dev (libcrypto's headers and libcrypto.a,
# which the release build links statically); the Makefile's build, release and test targets run
# that first, so a bare machine with only the Swift toolchain can build.
# Idempotent: does nothing when all are present.
# Tests that need a program still missing afterwards (no network, no root) say so and skip.
set -u

missing=""
has_libcrypto() {
    [ -f /usr/include/openssl/evp.h ] || return 1
    for archive in /usr/lib/*/libcrypto.a /usr/lib/libcrypto.a; do
        [ -f "$archive" ] && return 0
    done
    return 1
}
has_libcrypto || missing=" libssl-dev"
build_only=false
if [ "${1:-}" = "--build" ]; then
    build_only=true
    shift
fi
$build_only || {
command -v bash >/dev/null 2>&1 || missing="$missing bash"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
command -v fish >/dev/null 2>&1 || missing="$missing fish"
command -v groff >/dev/null 2>&1 || missing="$missing groff"
command -v man >/dev/null 2>&1 || missing="$missing man-db"
command -v git >/dev/null 2>&1 || missing="$missing git"
# The team store's permission hooks and the hostile-remote tests use find and cp.
command -v find >/dev/null 2>&1 || missing="$missing findutils"
command -v cp >/dev/null 2>&1 || missing="$missing coreutils"
# The live-store tests run the webhook behind real web servers and post with curl;
# `refresh` itself runs curl to read RevenueCat's API, so a deployment needs it too.
command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || missing="$missing lighttpd"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
command -v busybox >/dev/null 2>&1 || missing="$missing busybox"
# The completion test types into an interactive bash with Debian's bash-completion loaded.
[ -f /usr/share/bash-completion/bash_completion ] || missing="$missing bash-completion"
for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
}

[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tools: missing:$missing (no apt-get here; the tests that need them will skip)" >&2
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
        echo "ensure-tools: missing:$missing (not root; the tests that need them will skip)" >&2
        exit 0
    fi
fi
echo "ensure-tools: installing$missing" >&2
# shellcheck disable=SC2086
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; } >/dev/null; then
    echo "ensure-tools: could not install$missing; the tests that need them will skip" >&2
fi
exit 0
