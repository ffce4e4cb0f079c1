#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2b: check the deliverable.
#   1. patches/ is exactly what branch "wakeplace" generates, and the
#      repository's kernel files (scripts/files.map) equal the branch's;
#   2. the series applies to the pristine baseline with git apply (no fuzz,
#      as git am) and with quilt --fuzz=0, giving the branch's tree;
#   3. scripts/checkpatch.pl --strict is clean on every patch, but for the
#      ignore list below.
# Read-only: the kernel tree and its branch are not touched.
#
# usage: check-patches.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

# New files always trigger FILE_PATH_CHANGES ("does MAINTAINERS need
# updating?"): an out-of-tree series has no MAINTAINERS entry to add.
CHECKPATCH_IGNORE=FILE_PATH_CHANGES

[ $# = 0 ] || die "usage: $WP_ME"
require_tree
"$WP_ROOT/scripts/deps.sh" --check

tmp=$(mktemp -d "$WP_BUILD/check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { log "FAIL: $*"; fail=1; }

# 1. Generated output and repository copies match the branch.
export_series "$tmp/gen"
if ! diff -r -q "$tmp/gen" "$WP_PATCHES" >/dev/null 2>&1; then
	diff -r -u "$WP_PATCHES" "$tmp/gen" | head -40 >&2 || true
	bad "patches/ differs from what $WP_BRANCH generates: run 'make patches' (branch newer) or 'make tree' (patches/ newer)"
else
	log "ok: patches/ matches $WP_BRANCH ($(wc -l < "$WP_PATCHES/series") patches)"
fi
while IFS=$'\t' read -r path _; do
	case $path in ''|'#'*) continue ;; esac
	if ! tgit show "$WP_BRANCH:$path" 2>/dev/null | cmp -s - "$WP_ROOT/$path"; then
		bad "$path differs between the repository and $WP_BRANCH: run 'make patches'"
	fi
done < "$WP_FILEMAP"

# 2a. git apply, patch by patch, onto the baseline in a scratch index.
mapfile -t ps < <(series_patches)
export GIT_INDEX_FILE=$tmp/index
tgit read-tree "$WP_BASE_TAG"
applied=1
for p in "${ps[@]}"; do
	if ! tgit apply --cached -- "$p" 2> "$tmp/apply.err"; then
		bad "$(basename "$p") does not apply to $WP_BASE_TAG: $(head -3 "$tmp/apply.err")"
		applied=0
		break
	fi
done
if [ $applied = 1 ]; then
	if [ "$(tgit write-tree)" = "$(tgit rev-parse "$WP_BRANCH^{tree}")" ]; then
		log "ok: git apply of the series on $WP_BASE_TAG gives $WP_BRANCH's tree"
	else
		bad "the series applied on $WP_BASE_TAG does not give $WP_BRANCH's tree"
	fi
fi
unset GIT_INDEX_FILE

# 2b. quilt push -a --fuzz=0 on the baseline versions of the touched files.
if [ ${#ps[@]} -gt 0 ]; then
	mapfile -t touched < <(tgit diff --name-only "$WP_BASE_TAG" "$WP_BRANCH")
	mkdir -p "$tmp/quilt"
	mapfile -t existing < <(tgit ls-tree -r --name-only "$WP_BASE_TAG" -- "${touched[@]}")
	[ ${#existing[@]} = 0 ] ||
		tgit archive "$WP_BASE_TAG" -- "${existing[@]}" | tar -C "$tmp/quilt" -x
	if (cd "$tmp/quilt" && QUILT_PATCHES=$WP_PATCHES QUILT_PC=.pc \
	    quilt push -a -q --fuzz=0 > "$tmp/quilt.log" 2>&1); then
		qbad=
		for f in "${touched[@]}"; do
			if tgit cat-file -e "$WP_BRANCH:$f" 2>/dev/null; then
				tgit show "$WP_BRANCH:$f" | cmp -s - "$tmp/quilt/$f" || qbad="$qbad $f"
			else
				[ ! -e "$tmp/quilt/$f" ] || qbad="$qbad $f"
			fi
		done
		if [ -z "$qbad" ]; then
			log "ok: quilt push -a --fuzz=0 applies the series"
		else
			bad "quilt result differs from $WP_BRANCH in:$qbad"
		fi
	else
		tail -5 "$tmp/quilt.log" >&2
		bad "quilt push -a --fuzz=0 failed"
	fi
fi

# 3. checkpatch, from the top of the kernel tree.
nc=0
for p in "${ps[@]}"; do
	# Debian's python3 (with ply and git) for the SPDX check, not a user one.
	out=$(cd "$WP_TREE" && PATH=/usr/bin:/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore "$CHECKPATCH_IGNORE" "$p" 2>&1) || true
	if [ -n "$out" ]; then
		printf '%s\n' "$out" >&2
		bad "checkpatch --strict: $(basename "$p")"
		nc=$((nc + 1))
	fi
done
[ $nc != 0 ] || log "ok: checkpatch --strict clean on ${#ps[@]} patches (ignored: $CHECKPATCH_IGNORE)"

[ $fail = 0 ] || die "check-patches failed"
