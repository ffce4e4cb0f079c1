#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make fresh-check': CI's job on a machine that has nothing installed.
# Builds a Debian 12 root with mmdebstrap (bookworm main, -updates and
# -security, where the pinned linux-source-6.12 lives; git and
# ca-certificates added), mounts /proc, /sys, /dev, /dev/pts and /dev/shm in
# it, copies resolv.conf, clones this repository's committed HEAD into it,
# runs .ci/run there as root and reports the time of each stage.  Not part
# of 'make test': it downloads a system and runs the whole of CI again.
#
# Everything lives in build/fresh/; the root is unmounted and removed at
# the end, also on error or Ctrl-C (--keep leaves it, unmounted, for a look).
# The host's apt settings that let it read this archive (Check-Valid-Until,
# Check-Date) are passed on to the root.
#
# usage: fresh-check.sh [--keep]
set -euo pipefail
. "$(dirname "$0")/common.sh"

keep=
case $# in
0) ;;
1) [ "$1" = --keep ] || die "usage: $WP_ME [--keep]"; keep=1 ;;
*) die "usage: $WP_ME [--keep]" ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot, mounts)"
[ -z "$(git -C "$WP_ROOT" status --porcelain --untracked-files=no)" ] ||
	log "warning: uncommitted changes are not part of the check (it clones HEAD)"

dir=$WP_BUILD/fresh
root=$dir/root
mirror=http://deb.debian.org
WP_STAGE_HINT="logs in $dir"
t_all=$(date +%s)

mounts_under() { awk -v r="$root/" 'index($2 "/", r) == 1 { print $2 }' /proc/mounts | sort -r; }
cleanup() {
	local m
	for m in $(mounts_under); do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	if [ -n "$(mounts_under)" ]; then
		log "still mounted under $root; not removing it:"
		mounts_under >&2
	elif [ -z "$keep" ]; then
		rm -rf "$root"
	fi
}
interrupted() { log "interrupted: unmounting and removing $root"; exit 130; }
trap cleanup EXIT
trap interrupted INT TERM HUP


need_mmdebstrap() {
	command -v mmdebstrap >/dev/null && return 0
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
}

bootstrap() {
	local aptopts=() o
	for o in Acquire::Check-Valid-Until Acquire::Check-Date; do
		[ "$(apt-config dump "$o" | awk '{ print $2 }')" != '"false";' ] ||
			aptopts+=(--aptopt="$o \"false\"")
	done
	rm -rf "$root"
	mmdebstrap --mode=root --variant=important --include=git,ca-certificates \
		"${aptopts[@]}" bookworm "$root" \
		"deb $mirror/debian bookworm main" \
		"deb $mirror/debian bookworm-updates main" \
		"deb $mirror/debian-security bookworm-security main" \
		> "$dir/mmdebstrap.log" 2>&1
}

mount_fs() {
	mount -t proc proc "$root/proc"
	mount -t sysfs sysfs "$root/sys"
	mount --bind /dev "$root/dev"
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts"
	mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
	cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}

clone() {
	git clone -q --no-local --branch "$(git -C "$WP_ROOT" symbolic-ref --short HEAD)" \
		"$WP_ROOT" "$root/srv/wakeplace"
	git -C "$root/srv/wakeplace" log -1 --format='%h %s'
}

ci_run() {
	local rc=0
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c 'cd /srv/wakeplace && .ci/run' > "$dir/ci.log" 2>&1 || rc=$?
	rm -rf "$dir/results"
	cp -r "$root/srv/wakeplace/build/results" "$dir/results" 2>/dev/null || true
	[ $rc = 0 ] || { tail -n 30 "$dir/ci.log" | sed 's/^/  /' >&2; return "$rc"; }
}

mkdir -p "$dir"
stage mmdebstrap need_mmdebstrap
stage bootstrap bootstrap
log "root: $(du -sh "$root" | cut -f1), $(chroot "$root" dpkg-query -W | wc -l) packages, $(chroot "$root" sh -c '. /etc/os-release; echo "$PRETTY_NAME"')"
stage mount mount_fs
stage clone clone
stage ci-run ci_run
echo "fresh-check: ${WP_TIMES[*]}; total $(($(date +%s) - t_all)) s" | tee "$dir/times.txt"
grep -E '^(stage times|[a-z0-9]+ +[0-9]+ passed|[0-9]+ passed)' "$dir/ci.log" | tee -a "$dir/times.txt" || true
log ".ci/run passed in a bare Debian 12 root; log in $dir/ci.log, results in $dir/results"
