#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: which branch of select_task_rq_fair() chose the CPU of
# each wakeup, under a wakebench load, from wakestat (the series'
# tracepoint), with the series' features off where the kernel has them.
# For the A/A comparison of make cost ARGS=aa: the kernel with only the
# tracepoint patch, booted twice, gives the band the series kernel with
# its features off has to stay in.  The feature states are restored on
# exit.
#
# usage: branches.sh DIR [REPS [LOAD...]]   (DIR holds wakebench, wakestat)
# prints per run: "branches LOAD rep R: decided N scan_mean X BRANCH N ..."
set -u
die() { echo "branches.sh: $*" >&2; exit 1; }
dir=${1:?usage: branches.sh DIR [REPS [LOAD...]]}
reps=${2:-3}
shift; [ $# -gt 0 ] && shift
loads=${*:-pipe tcp_rr udp_rr}
wb=$dir/wakebench ws=$dir/wakestat
F=/sys/kernel/debug/sched/features
[ -x "$wb" ] && [ -x "$ws" ] || die "no wakebench or wakestat in $dir"
[ -w "$F" ] || die "no $F (debugfs, SCHED_DEBUG, root)"
. "$(dirname "$0")/features.sh"
features_save
tmp=$(mktemp -d) || exit 1
trap 'features_restore; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
case " $features_saved " in
*SIS_CACHE*) echo NO_SIS_CACHE > "$F"; echo NO_SIS_SYNC_CORE > "$F" ;;
esac
echo "# kernel $(uname -r), topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}"

for load in $loads; do
	r=1
	while [ "$r" -le "$reps" ]; do
		"$ws" -j -o "$tmp/ws.json" -- "$wb" -q -l "$load" -n 1 -d 1 -w 0.2 \
			> /dev/null 2> "$tmp/err" || die "$load run $r: $(tail -n 3 "$tmp/err")"
		grep -q '"source":"sched_select_task_rq_fair_tp"' "$tmp/ws.json" ||
			die "wakestat did not use the series' tracepoint: $(sed -n 's/.*"source":"\([^"]*\)".*/\1/p' "$tmp/ws.json")"
		# "name":{"count":N,...} for each branch, in wakestat's order.
		br=$(sed 's/.*"branches":{//; s/}},.*//' "$tmp/ws.json" | tr '}' '\n' |
			sed -n 's/^,\{0,1\}"\([a-z-]*\)":{"count":\([0-9]*\).*/\1 \2/p' | tr '\n' ' ')
		echo "branches $load rep $r:" \
			"decided $(sed -n 's/.*"decided":\([0-9]*\).*/\1/p' "$tmp/ws.json")" \
			"scan_mean $(sed -n 's/.*"scan_mean":\([0-9.e+-]*\).*/\1/p' "$tmp/ws.json")" \
			"$br"
		r=$((r + 1))
	done
done
