#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability: every commit of the series builds on its own (guest kernel
# bzImage with the project's config, and the sched kselftests with -Werror
# off but warnings shown).  Uses a separate worktree and object directory,
# so the main tree and build/obj are not touched; ccache (shared with
# build.sh, see kbuild_env) makes each step an incremental build.
#
# A result is a function of the commit, the config and the compiler, so it
# is recorded (build/series/verified/) and not rebuilt while those three
# stay the same; the commit 'make build' just built from a clean tree at the
# same config counts as built, and a commit that changes only selftests or
# .rst files keeps its parent's kernel.  --rebuild ignores the records.
#
# usage: check-series.sh [--rebuild]
set -euo pipefail
. "$(dirname "$0")/common.sh"

rebuild=
case $# in
0) ;;
1) [ "$1" = --rebuild ] || die "usage: $WP_ME [--rebuild]"; rebuild=1 ;;
*) die "usage: $WP_ME [--rebuild]" ;;
esac
require_tree
[ -f "$WP_OBJ/.config" ] || die "no $WP_OBJ/.config: run 'make build' first"

# Same relative layout as build/linux and build/obj, so that ccache (with
# CCACHE_BASEDIR) sees the same relative paths and hits.
wt=$WP_BUILD/series/linux
obj=$WP_BUILD/series/obj
kbuild_env

if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	mkdir -p "$(dirname "$wt")"
	tgit worktree prune
	tgit worktree add -q --detach "$wt" "$WP_BASE_TAG"
fi
mkdir -p "$obj"

verified=$WP_BUILD/series/verified
mkdir -p "$verified"
key=$(build_key "$WP_OBJ/.config")

# The options of the project's config that commit $1's build did not get,
# although its Kconfig files define them (an option the commit does not
# know yet is fine).  A commit must be built with the config under test.
config_drift() {
	git -C "$wt" grep -hoE '^(menu)?config [A-Z0-9_]+' -- 'Kconfig*' '*/Kconfig*' |
	awk -v want="$WP_OBJ/.config" -v got="$obj/.config" '
	{ known["CONFIG_" $2] = 1 }
	END {
		while ((getline l < got) > 0) if (l ~ /^CONFIG_/) { split(l, a, "="); have[a[1]] = l }
		while ((getline l < want) > 0) {
			if (l !~ /^CONFIG_/) continue
			split(l, a, "=")
			if (have[a[1]] != l && known[a[1]])
				printf " %s (got: %s)", l, have[a[1]] == "" ? "unset" : have[a[1]]
		}
	}'
}

# True if commit $1 changes nothing a kernel build reads compared with its
# parent: only selftests and .rst documentation.
kernel_unchanged() {
	! tgit diff --name-only "$1^" "$1" |
		grep -qvE '^(tools/testing/selftests/|Documentation/.*\.rst$)'
}

mapfile -t commits < <(tgit rev-list --reverse "$WP_BASE_TAG..$WP_BRANCH")
n=0 failed=0 kernel_ok=
for c in "${commits[@]}"; do
	n=$((n + 1))
	subj=$(tgit log -1 --format=%s "$c")
	stamp=$verified/$c-$key
	if [ -z "$rebuild" ] && [ -f "$stamp" ]; then
		log "ok [$n/${#commits[@]}] verified $(cat "$stamp") (same commit, config, compiler): $subj"
		kernel_ok=$c
		continue
	fi
	if [ -z "$rebuild" ] && [ "$(cat "$WP_OBJ/.wakeplace-built" 2>/dev/null)" = "$c $key" ]; then
		echo "by 'make build' on $(date -u +%Y-%m-%dT%H:%MZ)" > "$stamp"
		log "ok [$n/${#commits[@]}] built by 'make build' in $WP_OBJ (same commit, config, compiler): $subj"
		kernel_ok=$c
		continue
	fi
	git -C "$wt" checkout -q --detach "$c"
	t0=$(date +%s)
	ccache_mark
	# A commit that only touches selftests or .rst files has its parent's
	# kernel, which built: build only the selftests.  Every other commit
	# starts from the project's config: olddefconfig drops what an earlier
	# commit's Kconfig did not know, and carrying that on built the KUnit
	# suites' commits without them.
	kwhat=
	if [ "$kernel_ok" = "$(tgit rev-parse "$c^")" ] && kernel_unchanged "$c"; then
		kwhat="kernel as its parent's (only selftests/.rst changed), "
	elif ! cp "$WP_OBJ/.config" "$obj/.config" ||
	     ! make -s -C "$wt" "${KMAKE_VARS[@]}" -j"$(nproc)" O="$obj" CC="ccache gcc" \
		LOCALVERSION= olddefconfig bzImage > "$obj/build-$n.log" 2>&1; then
		tail -20 "$obj/build-$n.log" >&2
		log "FAIL [$n/${#commits[@]}] kernel: $subj"
		failed=$((failed + 1))
		continue
	fi
	drift=$(config_drift "$c")
	if [ -n "$drift" ]; then
		log "FAIL [$n/${#commits[@]}] built without the project's config:$drift: $subj"
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
	kernel_ok=$c
	echo "on $(date -u +%Y-%m-%dT%H:%MZ)${kwhat:+, ${kwhat%, }}" > "$stamp"
	log "ok [$n/${#commits[@]}] $(($(date +%s) - t0)) s, $kwhat$(ccache_delta): $subj"
done
[ $failed = 0 ] || die "$failed of ${#commits[@]} commits do not build"
log "all ${#commits[@]} commits build"
