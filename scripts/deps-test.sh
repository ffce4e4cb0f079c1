#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of deps.sh on a simulated machine: dpkg-query, apt-cache, apt-get
# and id are shims on PATH that read and write a fake dpkg database and
# archive in a scratch directory, so nothing is really installed.  Each case
# asserts deps.sh's exit code, its message and what it asked apt-get to do.
# TAP on stdout; exit 1 if any case fails.
#
# usage: deps-test.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# = 0 ] || die "usage: $WP_ME"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wp-deps-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
shims=$tmp/bin
mkdir -p "$shims"

# One shim for all four commands, dispatching on its name.  State:
# db ("package status version"), archive ("package version"), calls (a
# log of apt-get and apt-cache invocations), uid, and the flags
# update-fails and stays-broken.
cat > "$shims/shim" <<'EOF'
#!/bin/bash
set -u
S=$WP_SHIM_STATE
echo "$(basename "$0") $*" >> "$S/calls"
db_get() { awk -v p="$1" '$1 == p { print; f = 1 } END { exit !f }' "$S/db"; }
db_set() {
	awk -v p="$1" '$1 != p' "$S/db" > "$S/db.new"
	echo "$1 $2 $3" >> "$S/db.new"
	mv "$S/db.new" "$S/db"
}
case $(basename "$0") in
id)	[ "${1:-}" = -u ] && cat "$S/uid" ;;
dpkg-query)
	# dpkg-query -W -f=FORMAT PKG...: exit 1 if any package is unknown.
	shift; fmt=${1#-f=}; shift; rc=0
	for p; do
		if l=$(db_get "$p"); then
			set -- $l
			out=${fmt//'${db:Status-Status}'/$2}
			out=${out//'${Version}'/${3:-}}
			printf "${out//%/%%}"
		else
			echo "dpkg-query: no packages found matching $p" >&2; rc=1
		fi
	done
	exit $rc ;;
apt-cache)
	case $1 in
	madison) awk -v p="$2" '$1 == p { printf "%10s | %s | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages\n", p, $2 }' "$S/archive" ;;
	policy)	echo "$2:"
		echo "  Installed: $(db_get "$2" | awk '$2 == "installed" { print $3 }' | grep . || echo '(none)')"
		echo "  Candidate: $(awk -v p="$2" '$1 == p { v = $2 } END { print v ? v : "(none)" }' "$S/archive")" ;;
	esac ;;
apt-get)
	[ "$(cat "$S/uid")" = 0 ] || { echo "E: Could not open lock file - open (13: Permission denied)" >&2; exit 100; }
	case " $* " in
	*" update "*) [ ! -e "$S/update-fails" ] || { echo "E: Failed to fetch" >&2; exit 100; }; exit 0 ;;
	esac
	for a; do
		case $a in -*|install) continue ;; esac
		p=${a%%=*} v=
		[ "$p" = "$a" ] || v=${a#*=}
		awk -v p="$p" -v v="$v" '$1 == p && (v == "" || $2 == v) { f = 1 } END { exit !f }' "$S/archive" ||
			{ echo "E: Version or package not found: $a" >&2; exit 100; }
	done
	for a; do
		case $a in -*|install) continue ;; esac
		p=${a%%=*} v=
		[ "$p" = "$a" ] && v=$(awk -v p="$p" '$1 == p { v = $2 } END { print v }' "$S/archive") || v=${a#*=}
		if [ -e "$S/stays-broken" ] && db_get "$p" | grep -qv ' installed '; then
			continue
		fi
		db_set "$p" installed "$v"
		[ "$p" != "$WP_BASELINE_PKG" ] || : > "$WP_USRSRC/$p.tar.xz"
	done ;;
esac
EOF
chmod +x "$shims/shim"
for c in dpkg-query apt-cache apt-get id; do
	ln -s shim "$shims/$c"
done

export WP_BASELINE_PKG
mapfile -t packages < <("$WP_ROOT/scripts/deps.sh" --list)
[ ${#packages[@]} -gt 5 ] || die "deps.sh --list gave ${#packages[@]} packages"
pin=$WP_BASELINE_VERSION

# A fresh simulated machine: every package in the archive at version 1.0,
# the pinned baseline in the archive, nothing installed, running as root.
machine() {
	local p
	rm -rf "$tmp/state" "$tmp/usrsrc"
	mkdir -p "$tmp/state" "$tmp/usrsrc"
	: > "$tmp/state/db"
	: > "$tmp/state/calls"
	echo 0 > "$tmp/state/uid"
	for p in "${packages[@]}"; do echo "$p 1.0"; done > "$tmp/state/archive"
	echo "$WP_BASELINE_PKG $pin" >> "$tmp/state/archive"
}
installed() {	# package status version
	awk -v p="$1" '$1 != p' "$tmp/state/db" > "$tmp/state/db.new"
	echo "$1 $2 $3" >> "$tmp/state/db.new"
	mv "$tmp/state/db.new" "$tmp/state/db"
	[ "$1" != "$WP_BASELINE_PKG" ] || [ "$2" != installed ] || : > "$tmp/usrsrc/$1.tar.xz"
}
all_installed() {
	local p
	for p in "${packages[@]}"; do installed "$p" installed 1.0; done
	installed "$WP_BASELINE_PKG" installed "$pin"
}

n=0 failed=0
# check NAME WANT_RC MESSAGE_ERE [CALLS_ERE|!CALLS_ERE] -- deps.sh args
check() {
	local name=$1 want=$2 msg=$3 calls=$4 rc=0 why=
	shift 5
	PATH=$shims:$PATH WP_SHIM_STATE=$tmp/state WP_USRSRC=$tmp/usrsrc \
		"$WP_ROOT/scripts/deps.sh" "$@" > "$tmp/out" 2>&1 || rc=$?
	n=$((n + 1))
	if [ "$rc" != "$want" ]; then
		why="exit $rc, want $want"
	elif ! grep -qE -- "$msg" "$tmp/out"; then
		why="no message matching /$msg/"
	elif [ "${calls#!}" != "$calls" ] && grep -qE -- "${calls#!}" "$tmp/state/calls"; then
		why="unexpected call matching /${calls#!}/"
	elif [ "${calls#!}" = "$calls" ] && ! grep -qE -- "$calls" "$tmp/state/calls"; then
		why="no call matching /$calls/"
	fi
	if [ -z "$why" ]; then
		echo "ok $n $name"
	else
		failed=$((failed + 1))
		echo "not ok $n $name: $why"
	fi
	sed 's/^/# /' "$tmp/out"
}

echo "1..9"

machine
check "nothing installed, root: installs everything and the pinned source" 0 \
	"installing: .*rt-tests.* $WP_BASELINE_PKG=$pin" \
	"apt-get install .* $WP_BASELINE_PKG=$pin" --

machine
echo 1000 > "$tmp/state/uid"
check "nothing installed, not root: names the missing packages, changes nothing" 1 \
	"error: missing: .*qemu-system-x86.*$WP_BASELINE_PKG=$pin.*as root" \
	'!apt-get' --

machine
check "nothing installed, --check: names the missing packages, changes nothing" 1 \
	"error: missing: .*busybox-static" '!apt-get' -- --check

machine
all_installed
check "everything installed: nothing to do" 0 "all [0-9]+ packages" '!apt-get' --

machine
sed -i "/^$WP_BASELINE_PKG /d" "$tmp/state/archive"
echo "$WP_BASELINE_PKG 6.12.999-1~deb12u1" >> "$tmp/state/archive"
check "pinned version gone from the archive: rebase needed, changes nothing" 1 \
	"$WP_BASELINE_PKG $pin is not in the archive .*6\.12\.999-1~deb12u1.*make rebase" \
	'!apt-get install' --

machine
all_installed
installed "$WP_BASELINE_PKG" half-installed "$pin"
check "baseline half-installed: reinstalled" 0 \
	"reinstalling: $WP_BASELINE_PKG \(half-installed\)" \
	"apt-get install .*--reinstall $WP_BASELINE_PKG=$pin" --

machine
all_installed
installed flex unpacked 1.0
touch "$tmp/state/stays-broken"
check "package stays unconfigured after apt-get: error names it" 1 \
	"error: still not installed after apt-get: flex \(unpacked\)" \
	"apt-get install .*--reinstall flex" --

machine
all_installed
installed "$WP_BASELINE_PKG" half-configured "$pin"
check "baseline half-configured, --check: names its state" 1 \
	"error: .*not fully installed: $WP_BASELINE_PKG \(half-configured\)" '!apt-get' -- --check

machine
touch "$tmp/state/update-fails"
check "apt-get update fails: says so, installs nothing" 1 \
	"error: apt-get update failed" '!apt-get install' --

[ $failed = 0 ] || { echo "# $failed of $n failed"; exit 1; }
echo "# all $n passed"
