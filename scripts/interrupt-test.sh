#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Ctrl-C and SIGTERM in the middle of a guest run: 'make vm' and 'make
# bench' are started in their own process group (as a shell starts a
# foreground job), interrupted once the guest is running, and must then
# stop within STOP_S seconds, say that they were interrupted, keep the
# partial results and leave no qemu process behind.  Ctrl-C is SIGINT to
# the whole process group (what the terminal sends); SIGTERM goes to the
# stage script alone (what 'timeout' or a CI runner sends).
# TAP on stdout; exit 1 if any case fails.
#
# usage: interrupt-test.sh [case...]   (default: all; cases: vm-int vm-term
#                                       bench-int bench-term)
set -euo pipefail
. "$(dirname "$0")/common.sh"


STOP_S=20	# a guest must be gone this long after the signal
BOOT_S=400	# TCG boot + first round, generous

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(vm-int vm-term bench-int bench-term)
tmp=$(mktemp -d "$WP_BUILD/interrupt-test.XXXXXX")
n=0 failed=0
echo "1..${#cases[@]}"

qemus() {	# dir: pids of qemu processes whose command line names dir
	pgrep -f "qemu-system-x86_64 .*$1" || true
}

# Wait until file $1 matches regex $2 or the process $3 is gone.
wait_for() {
	local i
	for ((i = 0; i < BOOT_S; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 1
	done
	return 1
}

# run_case NAME SIGNAL TARGET(group|script) READY_FILE READY_RE CMD...
run_case() {
	local name=$1 sig=$2 target=$3 ready=$4 re=$5 d pid t0 t rc=0 why= left
	shift 5
	n=$((n + 1))
	d=$tmp/$name
	mkdir -p "$d"
	# A background job starts with SIGINT ignored; a terminal's foreground
	# job does not: env gives the command the default back.
	setsid env --default-signal=INT "$@" > "$d.log" 2>&1 < /dev/null &
	pid=$!
	if ! wait_for "$d/$ready" "$re" "$pid"; then
		why="never got ready (no /$re/ in $ready; see $d.log)"
	else
		t0=$(date +%s)
		if [ "$target" = group ]; then
			kill "-$sig" -- "-$pid"
		else
			kill "-$sig" "$(pgrep -P "$pid" | head -1)"
		fi
		while kill -0 "$pid" 2>/dev/null && [ $(($(date +%s) - t0)) -lt $((STOP_S + 10)) ]; do
			sleep 0.5
		done
		t=$(($(date +%s) - t0))
		left=$(qemus "$d" | tr "\n" " ")
		if kill -0 "$pid" 2>/dev/null; then
			why="still running $t s after SIG$sig${left:+ (qemu pids $left)}"
			kill -9 -- "-$pid" $left 2>/dev/null || true
		fi
		wait "$pid" || rc=$?
		if [ -n "$why" ]; then
			:
		elif [ -n "$left" ]; then
			why="qemu still running ${t} s after SIG$sig (pids $left)"
		elif [ "$t" -gt "$STOP_S" ]; then
			why="took $t s to stop after SIG$sig (limit $STOP_S)"
		elif [ "$rc" = 0 ]; then
			why="exit 0 after SIG$sig"
		elif ! grep -q "interrupted" "$d.log"; then
			why="exit $rc after $t s but no 'interrupted' message (see $d.log)"
		elif ! grep -q "partial results" "$d.log"; then
			why="no word on partial results (see $d.log)"
		elif [ "${name#bench}" != "$name" ] && [ "$(wc -l < "$d/series-1/ab/samples.csv" 2>/dev/null || echo 0)" -lt 2 ]; then
			why="no samples kept in $d/series-1/ab/samples.csv"
		fi
	fi
	left=$(qemus "$d" | tr "\n" " ")
	[ -z "$left" ] || kill -9 $left 2>/dev/null || true
	kill -9 -- "-$pid" 2>/dev/null || true
	if [ -z "$why" ]; then
		echo "ok $n $name stopped ${t} s after SIG$sig, exit $rc, no qemu left"
	else
		echo "not ok $n $name $why"
		sed 's/^/# /' "$d.log" | tail -8
		failed=$((failed + 1))
	fi
}

for c in "${cases[@]}"; do
	case $c in
	vm-int|vm-term)
		sig=INT target=group
		[ "$c" = vm-int ] || sig=TERM target=script
		run_case "$c" "$sig" "$target" console.log 'wakeplace-init: running' \
			make -s -C "$WP_ROOT" vm ARGS="-t flat -T 900 -o $tmp/$c -- sleep 800" ;;
	bench-int|bench-term)
		sig=INT target=group
		[ "$c" = bench-int ] || sig=TERM target=script
		run_case "$c" "$sig" "$target" series-1/output.log 'round 2/' \
			make -s -C "$WP_ROOT" bench ARGS="-t flat -l pipe -n 1 -a base,SIS_CACHE -r 50 -d 1 -s 1 -o $tmp/$c" ;;
	*) echo "not ok $((++n)) $c: unknown case"; failed=$((failed + 1)) ;;
	esac
done
if [ "$failed" = 0 ]; then rm -rf "$tmp"; else echo "# kept for inspection: $tmp"; fi
[ "$failed" = 0 ] || { echo "# $failed of $n failed"; exit 1; }
