# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers for wakeplace's stage scripts; sourced, never run.
# shellcheck shell=bash

# The one place where the baseline is pinned.  Changing it is a rebase: see
# "Rebasing onto a new 6.12.y" in README (make rebase).
WP_BASELINE_PKG=linux-source-6.12
WP_BASELINE_VERSION=6.12.118-1~deb12u1

WP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WP_BUILD=${WP_BUILD:-$WP_ROOT/build}
WP_TREE=$WP_BUILD/linux
WP_OBJ=$WP_BUILD/obj
WP_PATCHES=$WP_ROOT/patches
WP_FILEMAP=$WP_ROOT/scripts/files.map
# Where Debian's linux-source package puts its tarball (tests point it elsewhere).
WP_USRSRC=${WP_USRSRC:-/usr/src}

# Git names inside the kernel tree.
WP_BRANCH=wakeplace
WP_BASE_TAG=baseline/$(printf '%s' "$WP_BASELINE_VERSION" | tr '~' '_')
WP_EXPORTED_TAG=wakeplace-exported

# Fixed identity and date: the baseline commit (and so base-commit:) must be
# byte-identical on every machine.
WP_GIT_IDENT=(-c user.name=wakeplace -c user.email=wakeplace@invalid
	      -c core.autocrlf=false -c core.filemode=true)
WP_BASE_DATE="2000-01-01T00:00:00Z"
# Sender of the cover letter.
WP_COVER_NAME="wakeplace developers"
WP_COVER_EMAIL=wakeplace@invalid

WP_ME=$(basename "$0")

# -h or --help as the first argument of any stage script: its header
# comment (from line 3 to the code), on stdout, exit 0.  A script with more
# to say sets WP_USAGE=own before sourcing this file.
wp_help() { sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
case ${1:-}/${WP_USAGE:-} in -h/|--help/) wp_help; exit 0 ;; esac

log()  { printf '%s: %s\n' "$WP_ME" "$*" >&2; }
die()  { printf '%s: error: %s\n' "$WP_ME" "$*" >&2; exit 1; }

# Every failure that ends a script names itself: script, line, function and
# command.  set -E carries the trap into functions, subshells and command
# substitutions; where errexit is off (inside $(...), bash's default) a
# failure does not end anything, so only the command that used its output
# reports.  Deliberate exits (die, usage, a code passed on on purpose) do
# not come here: they print their own reason.
wp_on_err() {	# rc line command
	case $- in *e*) ;; *) return 0 ;; esac
	printf '%s: error: %s:%s%s: exit %s from: %s\n' "$WP_ME" \
		"$(basename "${BASH_SOURCE[1]:-$0}")" "$2" \
		"$(f=${FUNCNAME[1]:-main}; [ "$f" = main ] || echo " (in $f())")" "$1" "$3" >&2
}
set -E
trap 'wp_on_err $? $LINENO "$BASH_COMMAND"' ERR

# Ctrl-C and SIGTERM.  bash runs a trap only once the foreground command it
# waits for has ended (a guest run: up to an hour), but 'wait' returns at
# once.  So long-running commands run through wp_child: in the background,
# waited for; on SIGINT, SIGTERM or SIGHUP the child gets SIGTERM and is
# waited for, WP_ON_SIGNAL (a command, if set) says what was kept, and the
# script ends by the same signal, so that its caller stops too.  (A
# background child starts with SIGINT ignored: it hears SIGTERM from here.)
WP_CHILD= WP_ON_SIGNAL= WP_SIGNALLED=
# The script's stderr, for messages from a trap that may run while a
# redirection of a wp_child call is in effect.
exec {WP_STDERR}>&2
wp_signal() {	# signal
	[ -z "$WP_SIGNALLED" ] || return 0
	WP_SIGNALLED=$1
	trap '' INT TERM HUP
	if [ -n "$WP_CHILD" ]; then
		kill -TERM "$WP_CHILD" 2>/dev/null || true
		wait "$WP_CHILD" 2>/dev/null || true
	fi
	# Background jobs (parallel guest lanes: subshells, which do not keep
	# the traps) and their children.
	for p in $(jobs -p); do
		pkill -TERM -P "$p" 2>/dev/null || true
		kill -TERM "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	log "interrupted (SIG$1)${WP_ON_SIGNAL:+: $($WP_ON_SIGNAL)}" 2>&"$WP_STDERR"
	trap - ERR "$1"
	kill "-$1" $$
	exit $((128 + $(kill -l "$1")))
}
trap 'wp_signal INT' INT
trap 'wp_signal TERM' TERM
trap 'wp_signal HUP' HUP
wp_child() {	# command...: its exit code
	local rc=0
	"$@" &
	WP_CHILD=$!
	wait "$WP_CHILD" || rc=$?
	WP_CHILD=
	return $rc
}

# Environment of every kernel build (build.sh, check-series.sh): one ccache
# shared by all trees and paths (CCACHE_BASEDIR makes the paths under
# build/ relative; ccache drops the path of Kbuild's -fmacro-prefix-map
# itself), and reproducible build stamps.
#
# KMAKE_VARS go on every kernel make's command line (the top Makefile's
# own assignments beat the environment).  RUSTC=false: Kconfig records the
# version of whatever rustc is on PATH (CONFIG_RUSTC_VERSION), so a rustup
# install changed autoconf.h and every object's ccache key; the guest
# kernel has no Rust.
KMAKE_VARS=(ARCH=x86_64 RUSTC=false)
kbuild_env() {
	export CCACHE_DEPEND=1 CCACHE_BASEDIR=$WP_BUILD CCACHE_NOHASHDIR=1
	export KBUILD_BUILD_USER=wakeplace KBUILD_BUILD_HOST=wakeplace
	export KBUILD_BUILD_TIMESTAMP="$WP_BASE_DATE"
}

# Debian's own amd64 kernel config (package linux-config-6.12) into @out,
# with its signing keys blanked (they are not here; no object that cost.sh
# or matrix.sh builds needs them).  @src's scripts/config edits it.
WP_DEBIAN_CONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
debian_config() {	# src out
	[ -r "$WP_DEBIAN_CONFIG" ] || die "no $WP_DEBIAN_CONFIG: install linux-config-6.12 (make deps)"
	xzcat "$WP_DEBIAN_CONFIG" > "$2"
	"$1/scripts/config" --file "$2" \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY "certs/signing_key.pem"
}

# What a build's result depends on besides the sources: the config and
# the compiler (a short hash).
build_key() {	# .config
	{ cat "$1"; gcc --version; } | sha256sum | cut -c1-16
}

# ccache's counters since ccache_mark: "ccache: H hits (D direct, P
# preprocessed), M misses".
ccache_mark() { ccache --print-stats > "$WP_BUILD/.ccache-mark" 2>/dev/null || :; }
ccache_delta() {
	ccache --print-stats 2>/dev/null | awk -v f="$WP_BUILD/.ccache-mark" '
	BEGIN { FS = "\t"; while ((getline l < f) > 0) { split(l, a, "\t"); o[a[1]] = a[2] } }
	{ d[$1] = $2 - o[$1] }
	END {
		printf "ccache: %d hits (%d direct, %d preprocessed), %d misses\n",
			d["direct_cache_hit"] + d["preprocessed_cache_hit"],
			d["direct_cache_hit"], d["preprocessed_cache_hit"], d["cache_miss"]
	}'
}

# Run one stage of a multi-stage script (test.sh, fresh-check.sh): log
# its name, add "name Ns" to WP_TIMES, stop on failure (WP_STAGE_HINT, if
# set, is added to the error).
WP_TIMES=()
stage() {	# name command...
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	log "== $name"
	# Programs run through wp_child (a signal stops them at once); shell
	# functions in this shell (they may set variables).
	if [ "$(type -t "$1")" = file ]; then
		wp_child "$@" || rc=$?
	else
		"$@" || rc=$?
	fi
	WP_TIMES+=("$name $(($(date +%s) - t0))s")
	[ $rc = 0 ] || die "stage '$name' failed (exit $rc)${WP_STAGE_HINT:+; $WP_STAGE_HINT}"
}

# git in the kernel tree, with the fixed identity.
tgit() { git -C "$WP_TREE" "${WP_GIT_IDENT[@]}" "$@"; }

# The patch files listed in series, in order, as absolute paths.
series_patches() {
	local p
	[ -f "$WP_PATCHES/series" ] || return 0
	while read -r p _; do
		case $p in ''|'#'*) continue ;; esac
		printf '%s\n' "$WP_PATCHES/$p"
	done < "$WP_PATCHES/series"
}

# A checksum of patches/ (series file and patches), recorded in the tree's
# git config whenever the branch and patches/ are known to match.
patches_sum() {
	cat "$WP_PATCHES/series" $(series_patches) 2>/dev/null | sha256sum | cut -c1-16
}
record_patches_sum() { tgit config wakeplace.patchesSum "$(patches_sum)"; }

# Fail unless the tree is ours: a git repository with the baseline tag.
require_tree() {
	[ -e "$WP_TREE" ] || die "no kernel tree at $WP_TREE: run 'make tree' first"
	[ -d "$WP_TREE/.git" ] ||
		die "$WP_TREE is not a wakeplace tree (no git repository): move it away and run 'make tree'"
	tgit rev-parse -q --verify "refs/tags/$WP_BASE_TAG" >/dev/null ||
		die "$WP_TREE is not a $WP_BASELINE_VERSION wakeplace tree (no tag $WP_BASE_TAG): remove it or run 'make rebase'"
}

require_clean_tree() {
	require_tree
	[ -z "$(tgit status --porcelain --untracked-files=no)" ] ||
		die "$WP_TREE has uncommitted changes: commit them to branch $WP_BRANCH (or stash) first"
	[ "$(tgit symbolic-ref -q --short HEAD)" = "$WP_BRANCH" ] ||
		die "$WP_TREE is not on branch $WP_BRANCH"
	[ ! -d "$WP_TREE/.git/rebase-apply" ] && [ ! -d "$WP_TREE/.git/rebase-merge" ] ||
		die "$WP_TREE has a git am/rebase in progress: finish or abort it first"
}

# Extract the installed $WP_BASELINE_PKG tarball, which must be version $1,
# into a new git repository $2 as one root commit on $WP_BRANCH.  Fixed
# identity, date and message make the commit id depend on the sources only.
make_baseline_repo() {
	local version=$1 dir=$2 have
	have=$(dpkg-query -W -f='${Version}' "$WP_BASELINE_PKG" 2>/dev/null || true)
	[ "$have" = "$version" ] ||
		die "$WP_BASELINE_PKG $version is not installed (have: ${have:-none})"
	rm -rf "$dir"
	mkdir -p "$dir"
	log "extracting $WP_USRSRC/$WP_BASELINE_PKG.tar.xz ($version)"
	tar -C "$dir" --strip-components=1 -xJf "$WP_USRSRC/$WP_BASELINE_PKG.tar.xz"
	[ -f "$dir/Makefile" ] && grep -q '^PATCHLEVEL = 12$' "$dir/Makefile" ||
		die "$WP_BASELINE_PKG tarball is not a 6.12 tree"
	log "committing the baseline (takes a minute)"
	git -C "$dir" init -q -b "$WP_BRANCH"
	git -C "$dir" config core.looseCompression 1
	git -C "$dir" config gc.auto 0
	git -C "$dir" add -A -f .
	GIT_AUTHOR_DATE=$WP_BASE_DATE GIT_COMMITTER_DATE=$WP_BASE_DATE \
		git -C "$dir" "${WP_GIT_IDENT[@]}" commit -q \
		-m "Debian $WP_BASELINE_PKG $version" \
		-m "Pristine $WP_USRSRC/$WP_BASELINE_PKG.tar.xz, the wakeplace baseline."
}

# Write the series on $WP_BRANCH as git format-patch files plus a quilt
# series file into directory $1.  Deterministic: fixed identity, zeroed
# From lines, full index lines, no version signature, stable base-commit.
export_series() {
	local out=$1 n date cover
	n=$(tgit rev-list --count "$WP_BASE_TAG..$WP_BRANCH")
	mkdir -p "$out"
	: > "$out/series"
	[ "$n" -gt 0 ] || return 0
	# The cover letter's Date: is the newest patch's author date.
	date=$(tgit log -1 --format=%aI "$WP_BRANCH")
	GIT_COMMITTER_DATE=$date GIT_AUTHOR_DATE=$date \
	tgit -c diff.algorithm=myers -c diff.renames=true -c diff.noprefix=false \
		-c diff.mnemonicPrefix=false -c format.signOff=false \
		-c format.coverLetter=false -c "user.name=$WP_COVER_NAME" \
		-c "user.email=$WP_COVER_EMAIL" \
		format-patch -q --zero-commit --no-signature --full-index \
		--no-notes --no-thread \
		--cover-letter --base="$WP_BASE_TAG" -o "$out" \
		"$WP_BASE_TAG..$WP_BRANCH" >/dev/null
	cover=$(ls "$out"/0000-*.patch)
	awk -v src="$WP_ROOT/cover-letter.txt" '
		BEGIN {
			getline subject < src
			getline blank < src
			while ((getline l < src) > 0)
				body = body l "\n"
		}
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ { printf "%s", body; next }
		{ print }
	' "$cover" > "$cover.new" && mv "$cover.new" "$cover"
	(cd "$out" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') > "$out/series"
}

# The KUnit results on a guest's serial console (KTAP; the console ends
# its lines with CR LF, printk prefixes a timestamp).  One line per case,
# "pass|fail|skip kunit:SUITE:CASE [why]"; then one per suite,
# "pass|fail|skip kunit-suite:SUITE [why]": every suite that reported, and
# every suite scripts/expected-kunit says the kernel's .config builds in,
# which fails when it did not report (a suite lost from the build counts
# as a failure, not as fewer passes).  "fail kunit-plan ..." when the
# top-level plan disagrees with the suites that reported, or is missing
# while a suite is expected.  Sorted, so that runs compare.
wp_kunit_results() {	# console.log kernel.config
	sed 's/\r$//; s/^\[[ 0-9.]*\] //' "$1" 2>/dev/null | awk \
		-v expfile="$WP_ROOT/scripts/expected-kunit" -v cfgfile="$2" '
	BEGIN {
		if ((r = (getline l < cfgfile)) < 0)
			nocfg = 1
		while (r > 0) {
			if (l ~ /^CONFIG_[A-Za-z0-9_]+=y$/) { sub(/=y$/, "", l); y[l] = 1 }
			r = getline l < cfgfile
		}
		while ((getline l < expfile) > 0) {
			if (l ~ /^#/ || l == "") continue
			n = split(l, f, /[ \t]+/)
			need = 1
			for (i = 2; i <= n; i++) if (!y[f[i]]) need = 0
			if (need && !nocfg) want[f[1]] = 1
		}
	}
	/^1\.\.[0-9]+/ && plan == "" { plan = substr($1, 4) + 0; next }
	/^    # Subtest: / { suite = $3; next }
	/^    (not )?ok [0-9]+ / {
		st = ($1 == "not") ? "fail" : "pass"; line = $0; why = ""
		sub(/^ *(not )?ok [0-9]+ /, "", line)
		if (line ~ /# SKIP/) { st = "skip"; why = line; sub(/.*# SKIP */, "", why); sub(/ *# SKIP.*/, "", line) }
		printf "%s kunit:%s:%s%s\n", st, suite, line, why == "" ? "" : " " why
		next
	}
	/^(not )?ok [0-9]+ / {
		name = $0; sub(/^(not )?ok [0-9]+ /, "", name); sub(/ .*/, "", name)
		top[name] = ($1 == "not") ? "fail" : ($0 ~ /# SKIP/) ? "skip" : "pass"
		ran++
	}
	END {
		if (nocfg)
			print "skip kunit-suite:expected no kernel .config: which suites must run is unknown"
		for (s in want)
			if (!(s in top))
				printf "fail kunit-suite:%s did not report (the .config builds it in: %s)\n", s, "scripts/expected-kunit"
		for (s in top)
			printf "%s kunit-suite:%s%s\n", top[s], s, (s in want) ? "" : " (not in scripts/expected-kunit)"
		if (plan == "" && length(want))
			print "fail kunit-plan no KTAP plan on the console"
		else if (plan != "" && plan != ran + 0)
			printf "fail kunit-plan the plan announced %d suites, %d reported\n", plan, ran
	}' | sort
}
