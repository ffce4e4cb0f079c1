#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2: regenerate patches/ from branch "wakeplace" in build/linux.
#
# First folds the repository's copies of the files listed in scripts/files.map
# into the commits that carry them (rebuilding the branch from the first such
# commit), then writes git format-patch output, the cover letter from
# cover-letter.txt and a quilt series file.  The output is deterministic.
#
# usage: patches.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# = 0 ] || die "usage: $WP_ME"
require_clean_tree

blob_of() {	# rev path -> blob id or "none"
	tgit rev-parse -q --verify "$1:$2" 2>/dev/null || echo none
}

repo_blob() {	# path -> blob id of the repository copy or "none"
	if [ -f "$WP_ROOT/$1" ]; then
		git hash-object --no-filters "$WP_ROOT/$1"
	else
		echo none
	fi
}

# Collect files whose repository copy differs from the branch.
declare -A target	# path -> subject
pending=()
while IFS=$'\t' read -r path subject; do
	case $path in ''|'#'*) continue ;; esac
	[ -n "$subject" ] || die "scripts/files.map: no subject for $path"
	target[$path]=$subject
done < "$WP_FILEMAP"

for path in "${!target[@]}"; do
	r=$(repo_blob "$path")
	b=$(blob_of "$WP_BRANCH" "$path")
	[ "$r" = "$b" ] && continue
	e=$(blob_of "$WP_EXPORTED_TAG" "$path")
	[ "$b" = "$e" ] ||
		die "$path was changed on branch $WP_BRANCH, but its canonical copy is $WP_ROOT/$path: move the change there (git -C $WP_TREE show $WP_BRANCH:$path > $path) and drop it from the branch"
	pending+=("$path")
done

fold_files() {	# subject: copy the repository files mapped to it into the index
	local path
	for path in "${pending[@]}"; do
		[ "${target[$path]}" = "$1" ] || continue
		if [ -f "$WP_ROOT/$path" ]; then
			mkdir -p "$WP_TREE/$(dirname "$path")"
			cp "$WP_ROOT/$path" "$WP_TREE/$path"
			tgit add -f -- "$path"
		else
			tgit rm -q --ignore-unmatch -- "$path"
		fi
	done
}

sync_branch() {
	local commits=() first= c subj adate path i
	mapfile -t commits < <(tgit rev-list --reverse "$WP_BASE_TAG..$WP_BRANCH")

	# Each target must be exactly one commit, and the last to touch its files.
	for path in "${pending[@]}"; do
		subj=${target[$path]}
		c=$(tgit log --format='%H %s' "$WP_BASE_TAG..$WP_BRANCH" |
		    awk -v s="$subj" 'substr($0, 42) == s { print $1 }')
		[ -n "$c" ] ||
			die "no commit '$subj' on $WP_BRANCH for $path: create it in $WP_TREE (git commit --allow-empty) first"
		[ "$(printf '%s\n' "$c" | wc -l)" = 1 ] ||
			die "several commits are named '$subj'"
		[ -z "$(tgit rev-list "$c..$WP_BRANCH" -- "$path")" ] ||
			die "$path is changed after '$subj': map it to the last patch that changes it"
		for i in "${!commits[@]}"; do
			if [ "${commits[$i]}" = "$c" ]; then
				if [ -z "$first" ] || [ "$i" -lt "$first" ]; then
					first=$i
				fi
			fi
		done
	done

	log "folding ${#pending[@]} file(s) into the series: ${pending[*]}"
	tgit checkout -q -B wakeplace-sync "${commits[$first]}^"
	for c in "${commits[@]:$first}"; do
		subj=$(tgit log -1 --format=%s "$c")
		adate=$(tgit log -1 --format=%aI "$c")
		if ! GIT_COMMITTER_DATE=$adate tgit cherry-pick --allow-empty \
				--keep-redundant-commits "$c" >/dev/null; then
			tgit cherry-pick --abort || true
			tgit checkout -q -f "$WP_BRANCH"
			tgit branch -q -D wakeplace-sync
			die "replaying '$subj' failed; branch $WP_BRANCH left unchanged"
		fi
		fold_files "$subj"
		if ! tgit diff --cached --quiet; then
			GIT_COMMITTER_DATE=$adate tgit commit -q --amend --no-edit \
				--allow-empty
		fi
	done
	tgit branch -q -f "$WP_BRANCH" wakeplace-sync
	tgit checkout -q "$WP_BRANCH"
	tgit branch -q -D wakeplace-sync
}

[ ${#pending[@]} = 0 ] || sync_branch

tmp=$(mktemp -d "$WP_BUILD/patches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export_series "$tmp"
rm -f "$WP_PATCHES"/*.patch "$WP_PATCHES/series"
mkdir -p "$WP_PATCHES"
cp "$tmp"/* "$WP_PATCHES"/
tgit tag -f "$WP_EXPORTED_TAG" "$WP_BRANCH" >/dev/null
record_patches_sum
log "patches/: $(wc -l < "$WP_PATCHES/series") patch(es) from $WP_BRANCH ($(tgit rev-parse --short=12 "$WP_BRANCH"))"
