#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 0: make sure the host has every Debian package the project uses, and
# the pinned baseline source.  As root, installs what is missing and
# reinstalls what dpkg left half-done, then checks again; otherwise (or with
# --check) names what is missing and changes nothing.  A pinned baseline
# that the archive no longer offers stops before anything is installed.
# Tested by deps-test.sh against shimmed dpkg-query/apt-cache/apt-get.
#
# usage: deps.sh [--check | --list]
set -euo pipefail
. "$(dirname "$0")/common.sh"

# Build and boot: kernel build deps, ccache, qemu, busybox (guest shell),
# quilt, python3-ply and python3-git (series checks: quilt, checkpatch.pl's
# SPDX check).  Measure: perf, rt-tests (hackbench), gnuplot, librsvg2-bin
# (rsvg-convert: PNG plots, and the check that every plot renders).  Trace: clang,
# llvm, libbpf-dev and bpftool build wakestat (BPF objects and skeletons).
# Cost: linux-config-6.12 (Debian's own kernel config: struct layouts),
# dbench (tbench, a regression load of SIS_CACHE v1).  Build matrix:
# gcc-aarch64-linux-gnu (SCHED_SMT off with SMP, which x86 cannot build).
WP_PACKAGES="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
dwarves ccache git perl python3-ply python3-git rsync kmod qemu-system-x86 busybox-static quilt
linux-perf rt-tests gnuplot-nox librsvg2-bin clang llvm libbpf-dev bpftool
linux-config-6.12 dbench gcc-aarch64-linux-gnu"

check_only=0
case ${1:-} in
--check) check_only=1 ;;
--list) printf '%s\n' $WP_PACKAGES; exit 0 ;;
'') ;;
*) die "usage: $WP_ME [--check | --list]" ;;
esac

# "STATUS VERSION" from dpkg's database; "not-installed" for a package dpkg
# has never heard of (dpkg-query exits 1 for those).
pkg_state() {
	local s
	s=$(dpkg-query -W -f='${db:Status-Status} ${Version}\n' "$1" 2>/dev/null) || s=
	echo "${s:-not-installed}"
}

# Sort every package into missing (to install), broken (dpkg stopped half
# way: half-installed, unpacked, half-configured, triggers-*: reinstall)
# or fine.  The baseline counts as missing unless it is installed at the
# pinned version with its tarball present.
survey() {
	local p st ver
	missing= broken= broken_why= want_base=
	for p in $WP_PACKAGES $WP_BASELINE_PKG; do
		read -r st ver <<<"$(pkg_state "$p")"
		case $st in
		installed)
			[ "$p" = "$WP_BASELINE_PKG" ] || continue
			if [ "$ver" != "$WP_BASELINE_VERSION" ]; then
				want_base="$p=$WP_BASELINE_VERSION (have $ver)"
			elif [ ! -f "$WP_USRSRC/$p.tar.xz" ]; then
				broken="$broken $p=$WP_BASELINE_VERSION"
				broken_why="$broken_why $p (installed, but $WP_USRSRC/$p.tar.xz is missing)"
			fi ;;
		not-installed|config-files)
			if [ "$p" = "$WP_BASELINE_PKG" ]; then
				want_base="$p=$WP_BASELINE_VERSION"
			else
				missing="$missing $p"
			fi ;;
		*)
			[ "$p" != "$WP_BASELINE_PKG" ] || p="$p=$WP_BASELINE_VERSION"
			broken="$broken $p"
			broken_why="$broken_why ${p%%=*} ($st)" ;;
		esac
	done
}

what() {
	local parts=()
	[ -z "$missing$want_base" ] || parts+=("missing:$missing${want_base:+ $want_base}")
	[ -z "$broken" ] || parts+=("not fully installed:$broken_why")
	local IFS=';'
	printf '%s' "${parts[*]}"
}

survey
if [ -z "$missing$broken$want_base" ]; then
	log "all $(($(wc -w <<<"$WP_PACKAGES") + 1)) packages present ($WP_BASELINE_PKG $WP_BASELINE_VERSION)"
	exit 0
fi
if [ $check_only = 1 ] || [ "$(id -u)" != 0 ]; then
	die "$(what); run 'make deps' as root (apt-get install)"
fi

log "installing: $(what)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed (network or /etc/apt/sources.list*?)"

# Never fall back to another 6.12.y silently: the baseline is pinned.
if [ -n "$want_base" ]; then
	avail=$(apt-cache madison "$WP_BASELINE_PKG" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }')
	if ! grep -qxF "$WP_BASELINE_VERSION" <<<"$avail"; then
		cand=$(apt-cache policy "$WP_BASELINE_PKG" | awk '/Candidate:/ { print $2 }')
		die "$WP_BASELINE_PKG $WP_BASELINE_VERSION is not in the archive (it offers: $(echo $avail); candidate ${cand:-none}): the pin must move, see 'make rebase' in README; nothing installed"
	fi
fi

apt_install() {
	# shellcheck disable=SC2068
	apt-get install -y -qq --no-install-recommends --allow-downgrades $@ >/dev/null ||
		die "apt-get install failed for: $*"
}
[ -z "$missing$want_base" ] || apt_install $missing ${want_base%% *}
if [ -n "$broken" ]; then
	log "reinstalling:$broken_why"
	apt_install --reinstall $broken
fi

survey
[ -z "$missing$broken$want_base" ] ||
	die "still not installed after apt-get:$missing${want_base:+ $want_base}$broken_why (see 'dpkg --audit')"
log "installed; all $(($(wc -w <<<"$WP_PACKAGES") + 1)) packages present"
