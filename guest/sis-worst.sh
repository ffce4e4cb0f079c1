#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: SIS_CACHE's worst case.  A short sleeper pinned to every
# CPU (wakebench --sleepers) keeps each CPU idle most of the time and
# reserved while it is, so that every idle CPU of the LLC is reserved when
# the pairs of LOAD wake.  For each run, with both features off and with
# SIS_CACHE on (arms interleaved, their order alternating by run), wakestat
# reports from the kernel's own decisions: wakeups decided, CPUs examined
# per wakeup (mean, longest), reserved idle CPUs passed over (mean, most),
# the branches that chose, and wake->run p99; wakebench reports the load's
# time per op (instruction-time under icount, wall time under TCG or KVM)
# and the sleepers' sleeps.  Feature states are restored on exit.
#
# usage: sis-worst.sh DIR REPS LOAD PAIRS SLEEP_US,WORK_US SECONDS [COST_NS]
#   DIR holds wakebench and wakestat; COST_NS: migration_cost_ns for the
#   runs (what counts as a short sleep; restored on exit), for emulators
#   whose guest sleeps last far longer than asked
# prints per run: "worst ARM run R: key value ...", then wakestat's JSON
# report as "worst-json ARM run R: {...}"
set -u
die() { echo "sis-worst.sh: $*" >&2; exit 1; }
[ $# = 6 ] || [ $# = 7 ] || die "usage: sis-worst.sh DIR REPS LOAD PAIRS SLEEP_US,WORK_US SECONDS [COST_NS]"
dir=$1 reps=$2 load=$3 pairs=$4 sleepers=$5 secs=$6 cost=${7:-}
MC=/sys/kernel/debug/sched/migration_cost_ns
wb=$dir/wakebench ws=$dir/wakestat
F=/sys/kernel/debug/sched/features
[ -x "$wb" ] && [ -x "$ws" ] || die "no wakebench or wakestat in $dir"
[ -w "$F" ] || die "no $F (debugfs, SCHED_DEBUG, root)"
case " $(cat "$F") " in
*SIS_CACHE*) ;;
*) die "this kernel has no SIS_CACHE feature" ;;
esac
. "$(dirname "$0")/features.sh"
features_save
cost0=$(cat "$MC") || die "no $MC"
tmp=$(mktemp -d) || exit 1
cleanup() {
	features_restore
	echo "$cost0" > "$MC"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ -n "$cost" ]; then
	echo "$cost" > "$MC" || die "cannot set $MC to $cost"
fi

# First "KEY":number of a JSON line.
jnum() { sed -n "s/.*\"$1\":\(-\{0,1\}[0-9][0-9.e+-]*\).*/\1/p" "$2" | head -n 1; }
# Count of branch B in wakestat's JSON.
jbranch() {
	v=$(sed -n "s/.*\"$1\":{\"count\":\([0-9]*\).*/\1/p" "$2")
	echo "${v:-0}"
}

echo "# kernel $(uname -r), $(nproc) CPUs, topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}"
echo "# load $load, pairs $pairs, sleepers $sleepers (one per CPU), $secs s per run, migration_cost_ns $(cat "$MC")"
r=1
while [ "$r" -le "$reps" ]; do
	arms="off SIS_CACHE"
	[ $((r % 2)) = 1 ] || arms="SIS_CACHE off"
	for arm in $arms; do
		echo NO_SIS_SYNC_CORE > "$F"
		if [ "$arm" = off ]; then
			echo NO_SIS_CACHE > "$F"
		else
			echo SIS_CACHE > "$F"
		fi
		# The sleepers' averages warm up in their first cycles (0.2 s).
		"$ws" -j -o "$tmp/ws.json" -- "$wb" -q -l "$load" -n "$pairs" \
			--sleepers "$sleepers" -d "$secs" -w 0.2 > "$tmp/wb.json" 2> "$tmp/err" ||
			die "$arm run $r: $(tail -n 3 "$tmp/err")"
		n=$(jnum decided "$tmp/ws.json")
		echo "worst $arm run $r:" \
			"us_per_op $(jnum value "$tmp/wb.json")" \
			"ops $(jnum ops "$tmp/wb.json")" \
			"sleeps $(jnum sleeper_cycles "$tmp/wb.json")" \
			"decided $n" \
			"scan_mean $(jnum scan_mean "$tmp/ws.json")" \
			"scan_max $(jnum scan_max "$tmp/ws.json")" \
			"passed_sum $(jnum passed_sum "$tmp/ws.json")" \
			"passed_max $(jnum passed_max "$tmp/ws.json")" \
			"idle_cpu $(jbranch idle-cpu "$tmp/ws.json")" \
			"idle_core $(jbranch idle-core "$tmp/ws.json")" \
			"reserved $(jbranch reserved "$tmp/ws.json")" \
			"target $(jbranch target "$tmp/ws.json")" \
			"prev $(jbranch prev "$tmp/ws.json")" \
			"none $(jbranch none "$tmp/ws.json")" \
			"lat_p99_us $(jnum lat_p99_us "$tmp/ws.json")"
		echo "worst-json $arm run $r: $(cat "$tmp/ws.json")"
	done
	r=$((r + 1))
done
