#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 0: make sure the host has every Debian package the project uses, and
# the pinned baseline source.  Installs with apt-get when run as root; refuses
# with the list of missing packages otherwise.
#
# usage: deps.sh [--check]
set -euo pipefail
. "$(dirname "$0")/common.sh"

# Build and boot: kernel build deps, ccache, qemu, busybox (guest shell),
# quilt, python3-ply and python3-git (series checks: quilt, checkpatch.pl's
# SPDX check).  Measure: perf, rt-tests (hackbench), gnuplot.
WP_PACKAGES="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
dwarves ccache git perl python3-ply python3-git rsync kmod qemu-system-x86 busybox-static quilt
linux-perf rt-tests gnuplot-nox"

check_only=0
case ${1:-} in
--check) check_only=1 ;;
--list) printf '%s\n' $WP_PACKAGES; exit 0 ;;
'') ;;
*) die "usage: $WP_ME [--check]" ;;
esac

installed_version() {
	dpkg-query -W -f='${db:Status-Status} ${Version}\n' "$1" 2>/dev/null |
		awk '$1 == "installed" { print $2 }'
}

missing=
for p in $WP_PACKAGES; do
	[ -n "$(installed_version "$p")" ] || missing="$missing $p"
done

have=$(installed_version "$WP_BASELINE_PKG")
want_base=
if [ "$have" != "$WP_BASELINE_VERSION" ] || [ ! -f "$WP_USRSRC/$WP_BASELINE_PKG.tar.xz" ]; then
	want_base="$WP_BASELINE_PKG=$WP_BASELINE_VERSION"
fi

[ -z "$missing" ] && [ -z "$want_base" ] && exit 0

if [ $check_only = 1 ] || [ "$(id -u)" != 0 ]; then
	die "missing packages:${missing}${want_base:+ $want_base}; run 'make deps' as root (apt-get install)"
fi

log "installing:${missing}${want_base:+ $want_base}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed"

if [ -n "$want_base" ]; then
	# Never fall back to another 6.12.y silently: the baseline is pinned.
	avail=$(apt-cache madison "$WP_BASELINE_PKG" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }')
	if ! printf '%s\n' "$avail" | grep -qxF "$WP_BASELINE_VERSION"; then
		cand=$(apt-cache policy "$WP_BASELINE_PKG" | awk '/Candidate:/ { print $2 }')
		die "pinned $WP_BASELINE_PKG $WP_BASELINE_VERSION gone, candidate ${cand:-none}: rebase needed (see 'make rebase' in README)"
	fi
fi

# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends --allow-downgrades $missing $want_base >/dev/null ||
	die "apt-get install failed for:${missing}${want_base:+ $want_base}"
