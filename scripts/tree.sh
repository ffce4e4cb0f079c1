#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 1: the kernel tree.  Extracts the pinned linux-source-6.12 into
# build/linux, commits it as the baseline (fixed identity and date, so the
# commit id is the same on every machine), tags it, and applies patches/ on
# branch "wakeplace" with git am.
#
# An existing tree is reused: the branch is rebuilt from patches/ only when it
# holds no unexported commits and no uncommitted changes.  A series that does
# not apply is aborted and leaves the tree exactly as it was.
#
# usage: tree.sh [--check-exported]
#   --check-exported  only check that the tree holds no unexported work
set -euo pipefail
. "$(dirname "$0")/common.sh"

check_only=0
case $# in
0) ;;
1) [ "$1" = --check-exported ] || die "usage: $WP_ME [--check-exported]"
   check_only=1 ;;
*) die "usage: $WP_ME [--check-exported]" ;;
esac

extract_baseline() {
	local tmp=$WP_TREE.tmp

	make_baseline_repo "$WP_BASELINE_VERSION" "$tmp"
	git -C "$tmp" tag "$WP_BASE_TAG"
	git -C "$tmp" tag "$WP_EXPORTED_TAG"
	mv "$tmp" "$WP_TREE"
}

# Refuse to throw away work: uncommitted changes, or branch commits that
# 'make patches' has not exported yet.
check_no_unexported_work() {
	local n
	require_clean_tree
	tgit rev-parse -q --verify "refs/tags/$WP_EXPORTED_TAG" >/dev/null ||
		die "tag $WP_EXPORTED_TAG missing in $WP_TREE: cannot tell exported work from new work"
	n=$(tgit rev-list --count "$WP_EXPORTED_TAG..$WP_BRANCH")
	[ "$n" = 0 ] ||
		die "branch $WP_BRANCH has $n commit(s) not exported to patches/: run 'make patches' first (or drop them with git reset)"
}

# Apply patches/ on a scratch branch; move $WP_BRANCH only on success.
# Nothing to do when the branch is the exported one and patches/ is what
# was applied or exported last: checking out the baseline and back would
# only touch every patched file (include/linux/sched.h among them) and
# make the next build recompile most of the kernel.
apply_series() {
	local old new
	old=$(tgit rev-parse "$WP_BRANCH")
	if [ "$old" = "$(tgit rev-parse "$WP_EXPORTED_TAG")" ] &&
	   [ "$(tgit config --get wakeplace.patchesSum || true)" = "$(patches_sum)" ]; then
		log "branch $WP_BRANCH already holds patches/ (unchanged since it was applied or exported)"
		return 0
	fi
	tgit checkout -q -B wakeplace-apply "$WP_BASE_TAG"
	mapfile -t ps < <(series_patches)
	if [ ${#ps[@]} -gt 0 ] &&
	   ! tgit am -q --committer-date-is-author-date "${ps[@]}" > "$WP_BUILD/am.log" 2>&1; then
		grep -E '^(Patch failed|error:)' "$WP_BUILD/am.log" >&2 || cat "$WP_BUILD/am.log" >&2
		tgit am --abort 2>/dev/null || true
		tgit checkout -q -f "$WP_BRANCH"
		tgit branch -q -D wakeplace-apply
		die "patches/ does not apply to $WP_BASE_TAG; tree left unchanged on $WP_BRANCH ($old)"
	fi
	new=$(tgit rev-parse HEAD)
	tgit checkout -q "$WP_BRANCH"
	if [ "$new" != "$old" ]; then
		tgit reset -q --hard "$new"
		log "branch $WP_BRANCH rebuilt from patches/ (${#ps[@]} patches)"
	fi
	tgit branch -q -D wakeplace-apply
	tgit tag -f "$WP_EXPORTED_TAG" "$WP_BRANCH" >/dev/null
	record_patches_sum
}

if [ $check_only = 1 ]; then
	[ ! -e "$WP_TREE" ] || check_no_unexported_work
	exit 0
fi

"$WP_ROOT/scripts/deps.sh"
mkdir -p "$WP_BUILD"
if [ -e "$WP_TREE" ]; then
	require_tree
	check_no_unexported_work
else
	extract_baseline
fi
apply_series
log "tree ready: $WP_TREE, branch $WP_BRANCH on $WP_BASE_TAG ($(tgit rev-parse --short=12 "$WP_BASE_TAG"))"
