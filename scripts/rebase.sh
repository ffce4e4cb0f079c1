#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Move the series to another linux-source-6.12 version (the pinned one is gone
# from the archive, or a new 6.12.y is wanted).
#
#   1. refuses if build/linux holds uncommitted or unexported work;
#   2. installs $WP_BASELINE_PKG=VERSION (default: apt's candidate) and
#      commits it as baseline/VERSION inside build/linux;
#   3. git rebase --onto baseline/VERSION of branch wakeplace;
#   4. on success, moves the pin in scripts/common.sh and regenerates
#      patches/; on conflicts, stops inside the rebase with instructions.
#
# Afterwards: make check-patches && make test, then commit patches/ and
# scripts/common.sh together.
#
# usage: rebase.sh [VERSION]
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -le 1 ] || die "usage: $WP_ME [VERSION]"
require_clean_tree
"$WP_ROOT/scripts/tree.sh" --check-exported
[ "$(id -u)" = 0 ] || die "needs root (apt-get install)"

apt-get update -qq || die "apt-get update failed"
new=${1:-$(apt-cache policy "$WP_BASELINE_PKG" | awk '/Candidate:/ { print $2 }')}
[ -n "$new" ] && [ "$new" != "(none)" ] || die "no $WP_BASELINE_PKG candidate in apt"
[ "$new" != "$WP_BASELINE_VERSION" ] || die "already on $new"
apt-cache madison "$WP_BASELINE_PKG" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
	grep -qxF "$new" || die "$WP_BASELINE_PKG $new is not in the archive"

old_tag=$WP_BASE_TAG
new_tag=baseline/$(printf '%s' "$new" | tr '~' '_')
log "rebasing $WP_BRANCH from $WP_BASELINE_VERSION to $new"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --allow-downgrades "$WP_BASELINE_PKG=$new" >/dev/null ||
	die "apt-get install $WP_BASELINE_PKG=$new failed"

if ! tgit rev-parse -q --verify "refs/tags/$new_tag" >/dev/null; then
	tmp=$WP_BUILD/baseline-$new.tmp
	make_baseline_repo "$new" "$tmp"
	tgit fetch -q "$tmp" "$WP_BRANCH"
	tgit tag "$new_tag" FETCH_HEAD
	rm -rf "$tmp"
fi

# The pin moves now: from here on, the tree's baseline is the new one.
sed -i "s|^WP_BASELINE_VERSION=.*|WP_BASELINE_VERSION=$new|" "$WP_ROOT/scripts/common.sh"
if ! tgit rebase -q --committer-date-is-author-date --onto "$new_tag" "$old_tag" "$WP_BRANCH"; then
	cat >&2 <<MSG
$WP_ME: the series does not apply cleanly to $new; the rebase is stopped in
$WP_TREE.  Resolve each conflict there (git status), then
  git -C $WP_TREE rebase --continue
and finish with: make patches && make check-patches && make test.
To give up instead: git -C $WP_TREE rebase --abort, and
  git -C $WP_ROOT checkout scripts/common.sh
MSG
	exit 1
fi
tgit tag -f "$WP_EXPORTED_TAG" "$new_tag" >/dev/null
"$WP_ROOT/scripts/patches.sh"
log "rebased onto $new; now run: make check-patches && make test"
