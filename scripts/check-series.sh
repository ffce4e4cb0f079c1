#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability: every commit of the series builds on its own (guest kernel
# bzImage with the project's config, and the sched kselftests with -Werror
# off but warnings shown).  Uses a separate worktree and object directory,
# so the main tree and build/obj are not touched; ccache makes each step
# an incremental build.
#
# usage: check-series.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# = 0 ] || die "usage: $WP_ME"
require_tree
[ -f "$WP_OBJ/.config" ] || die "no $WP_OBJ/.config: run 'make build' first"

# Same relative layout as build/linux and build/obj, so that ccache (with
# CCACHE_BASEDIR) sees the same relative paths and hits.
wt=$WP_BUILD/series/linux
obj=$WP_BUILD/series/obj
export CCACHE_DEPEND=1 CCACHE_BASEDIR=$WP_BUILD CCACHE_NOHASHDIR=1
export KBUILD_BUILD_USER=wakeplace KBUILD_BUILD_HOST=wakeplace
export KBUILD_BUILD_TIMESTAMP="$WP_BASE_DATE"

if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	mkdir -p "$(dirname "$wt")"
	tgit worktree prune
	tgit worktree add -q --detach "$wt" "$WP_BASE_TAG"
fi
mkdir -p "$obj"
cp "$WP_OBJ/.config" "$obj/.config"

mapfile -t commits < <(tgit rev-list --reverse "$WP_BASE_TAG..$WP_BRANCH")
n=0 failed=0
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	t0=$(date +%s)
	ccache_mark
	if ! make -s -C "$wt" ARCH=x86_64 -j"$(nproc)" O="$obj" CC="ccache gcc" \
		LOCALVERSION= olddefconfig bzImage > "$obj/build-$n.log" 2>&1; then
		tail -20 "$obj/build-$n.log" >&2
		log "FAIL [$n/${#commits[@]}] kernel: $subj"
		failed=$((failed + 1))
		continue
	fi
	if ! make -s -C "$wt/tools/testing/selftests" TARGETS=sched \
		O="$obj/kselftest" > "$obj/selftests-$n.log" 2>&1; then
		tail -20 "$obj/selftests-$n.log" >&2
		log "FAIL [$n/${#commits[@]}] selftests: $subj"
		failed=$((failed + 1))
		continue
	fi
	log "ok [$n/${#commits[@]}] $(($(date +%s) - t0)) s, $(ccache_delta): $subj"
done
[ $failed = 0 ] || die "$failed of ${#commits[@]} commits do not build"
log "all ${#commits[@]} commits build"
