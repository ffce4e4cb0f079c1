#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: how often the kernel reads a CPU's sched_clock_cpu() per
# wakeup, under a wakebench load, for each state of the series' features
# the kernel has (the baseline kernel has none: one arm, "base"), or only
# the one -a names.  Arms measured in one boot share its state (what one
# arm leaves behind meets the next: interleaved with SIS_CACHE on, the
# features-off arm of TCP_RR read up to 4.77 clocks per wakeup under
# icount, against 4.06 alone in its boot), so make cost ARGS=clocks boots
# once per arm.
#
# sched_clock_cpu() is notrace, so neither the function profiler nor fentry
# sees it: a kprobe event counts it (its hits in kprobe_profile), and a
# second one counts try_to_wake_up(), the wakeups.  The events are enabled
# with tracing off: the probes count, nothing is recorded.  Every load runs
# REPS times per arm, the arms interleaved; the feature states are
# restored and the probes removed on exit.
#
# usage: clock-reads.sh [-a off|SIS_CACHE] WAKEBENCH [REPS [LOAD...]]
# prints per run: "clock-reads LOAD ARM rep R: sclk N ttwu N ops N per-wakeup X"
set -u
only=
if [ "${1:-}" = -a ]; then
	only=${2:?-a needs off or SIS_CACHE}
	shift 2
fi
wb=${1:?usage: clock-reads.sh [-a off|SIS_CACHE] WAKEBENCH [REPS [LOAD...]]}
reps=${2:-3}
shift; [ $# -gt 0 ] && shift
loads=${*:-pipe tcp_rr udp_rr}
T=/sys/kernel/tracing
F=/sys/kernel/debug/sched/features
die() { echo "clock-reads.sh: $*" >&2; exit 1; }

[ -x "$wb" ] || die "no wakebench at $wb"
[ -w "$T/kprobe_events" ] || die "no kprobe events ($T/kprobe_events): CONFIG_KPROBE_EVENTS and tracefs needed"
[ -r "$F" ] || die "no $F (debugfs, SCHED_DEBUG)"

. "$(dirname "$0")/features.sh"
features_save
on0=$(cat "$T/tracing_on")
cleanup() {
	features_restore
	echo 0 > "$T/events/kprobes/enable" 2>/dev/null
	echo "-:wp_sclk" >> "$T/kprobe_events" 2>/dev/null
	echo "-:wp_ttwu" >> "$T/kprobe_events" 2>/dev/null
	echo "$on0" > "$T/tracing_on"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo 'p:wp_sclk sched_clock_cpu' >> "$T/kprobe_events" || die "cannot probe sched_clock_cpu"
echo 'p:wp_ttwu try_to_wake_up' >> "$T/kprobe_events" || die "cannot probe try_to_wake_up"
echo 0 > "$T/tracing_on"
echo 1 > "$T/events/kprobes/wp_sclk/enable"
echo 1 > "$T/events/kprobes/wp_ttwu/enable"

hits() { awk -v e="$1" '$1 == e { print $2 }' "$T/kprobe_profile"; }

# The arms this kernel has: features off, and SIS_CACHE on where it exists.
case " $features_saved " in
*SIS_CACHE*) arms="off SIS_CACHE" ;;
*) arms="base" ;;
esac
if [ -n "$only" ]; then
	case " $arms " in
	*" $only "*) arms=$only ;;
	*) die "-a $only: this kernel's arms are: $arms" ;;
	esac
fi
echo "# kernel $(uname -r), topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}, arms: $arms"

set_arm() {
	case $1 in
	base) ;;
	off) echo NO_SIS_CACHE > "$F"; echo NO_SIS_SYNC_CORE > "$F" ;;
	SIS_CACHE) echo NO_SIS_SYNC_CORE > "$F"; echo SIS_CACHE > "$F" ;;
	esac
}

for load in $loads; do
	r=1
	while [ "$r" -le "$reps" ]; do
		for arm in $arms; do
			set_arm "$arm"
			# Warm the short-sleep averages the feature now keeps.
			"$wb" -q -l "$load" -n 1 -d 0.3 -w 0 > /dev/null || die "wakebench -l $load failed"
			s0=$(hits wp_sclk) t0=$(hits wp_ttwu)
			json=$("$wb" -q -l "$load" -n 1 -d 1 -w 0) || die "wakebench -l $load failed"
			s1=$(hits wp_sclk) t1=$(hits wp_ttwu)
			ops=$(echo "$json" | sed -n 's/.*"ops": *\([0-9]*\).*/\1/p')
			awk -v l="$load" -v a="$arm" -v r="$r" -v s=$((s1 - s0)) \
				-v t=$((t1 - t0)) -v o="${ops:-0}" 'BEGIN {
				printf "clock-reads %s %s rep %d: sclk %d ttwu %d ops %d per-wakeup %.3f\n",
					l, a, r, s, t, o, t ? s / t : 0 }'
		done
		r=$((r + 1))
	done
done
