#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A/B runner, on the machine under test (a wakeplace guest, or a host whose
# kernel carries the series): rounds of workloads under each arm, arms in a
# seeded random order per round, raw samples to a CSV.
#
# An arm is a set of sched features switched on; every feature named by
# any arm is switched off in the arms that do not name it, between
# measurements, never during one.  The features (and schedstats) are
# restored on exit, on error and on Ctrl-C; samples written so far stay.
#
# A workload is NAME|DIRECTION|REGEX|COMMAND: COMMAND's output is searched
# for the extended regular expression REGEX, whose first group is the
# sample; DIRECTION is "lower" or "higher" (which is better).  E.g.
#   'perfpipe|lower|([0-9.]+) usecs/op|perf bench sched pipe -l 20000'
#   'hackbench|lower|Time: ([0-9.]+)|hackbench -g 4 -l 500'
#
# usage: ab.sh -o DIR [-r ROUNDS] [-W WARMUP_ROUNDS] [-s SEED]
#              -a NAME=FEAT[,FEAT...] ... -w WORKLOAD ...
set -uo pipefail

FEATURES=/sys/kernel/debug/sched/features
SCHEDSTATS=/proc/sys/kernel/sched_schedstats
me=ab.sh

die() { echo "$me: error: $*" >&2; exit 1; }
log() { echo "$me: $*" >&2; }

out= rounds=5 warmup=1 seed=
arms=() workloads=()
while getopts "o:r:W:s:a:w:h" o; do
	case $o in
	o) out=$OPTARG ;;
	r) rounds=$OPTARG ;;
	W) warmup=$OPTARG ;;
	s) seed=$OPTARG ;;
	a) arms+=("$OPTARG") ;;
	w) workloads+=("$OPTARG") ;;
	h) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "bad option (see -h)" ;;
	esac
done
[ -n "$out" ] || die "-o DIR is required"
[ ${#arms[@]} -ge 1 ] || die "at least one arm (-a)"
[ ${#workloads[@]} -ge 1 ] || die "at least one workload (-w)"
case $rounds$warmup in *[!0-9]*) die "-r and -W take numbers" ;; esac
[ "$rounds" -ge 1 ] || die "-r must be at least 1"
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $seed in ''|*[!0-9]*) die "-s takes a number" ;; esac

# --- validate everything before changing anything ---
[ "$(id -u)" = 0 ] || die "needs root (sched features)"
[ -w "$FEATURES" ] || die "$FEATURES not writable (debugfs, CONFIG_SCHED_DEBUG)"
known=" $(tr ' ' '\n' < "$FEATURES" | sed 's/^NO_//' | tr '\n' ' ') "
declare -A arm_on=() all_feats=()
arm_names=()
for a in "${arms[@]}"; do
	name=${a%%=*}
	feats=${a#*=}
	[ "$name" != "$a" ] || die "arm '$a' is not NAME=FEAT,..."
	case $name in ''|*[!A-Za-z0-9_.+-]*) die "bad arm name '$name'" ;; esac
	[ -z "${arm_on[$name]+x}" ] || die "arm '$name' given twice"
	for f in ${feats//,/ }; do
		case $known in *" $f "*) ;; *) die "arm $name: unknown sched feature '$f'" ;; esac
		all_feats[$f]=1
	done
	arm_on[$name]=" ${feats//,/ } "
	arm_names+=("$name")
done
wl_names=()
for w in "${workloads[@]}"; do
	IFS='|' read -r wn wd wr wc <<<"$w"
	[ -n "$wn" ] && [ -n "$wr" ] && [ -n "$wc" ] ||
		die "workload '$w' is not NAME|DIRECTION|REGEX|COMMAND"
	case $wd in lower|higher) ;; *) die "workload $wn: direction must be lower or higher" ;; esac
	wl_names+=("$wn")
done
mkdir -p "$out" || die "cannot create $out"

# --- save state, restore it whatever happens ---
saved_features=$(cat "$FEATURES")
saved_schedstats=$(cat "$SCHEDSTATS" 2>/dev/null || echo)
restore() {
	local f
	declare -F flush >/dev/null && flush
	if [ -n "${logs:-}" ] && [ -d "$logs" ]; then
		mkdir -p "$out/log" && cp "$logs"/* "$out/log/" 2>/dev/null
		rm -rf "$logs"
	fi
	for f in "${!all_feats[@]}"; do
		case " $saved_features " in
		*" NO_$f "*) echo "NO_$f" ;;
		*) echo "$f" ;;
		esac > "$FEATURES" 2>/dev/null
	done
	[ -z "$saved_schedstats" ] || echo "$saved_schedstats" > "$SCHEDSTATS" 2>/dev/null
	cat "$FEATURES" > "$out/features-after.txt" 2>/dev/null
}
interrupted() {
	log "interrupted: features restored, partial results in $out"
	exit 130
}
trap restore EXIT
trap interrupted INT TERM HUP
[ -w "$SCHEDSTATS" ] && echo 1 > "$SCHEDSTATS"

# Switch to arm $1, writing only the flags that change (each write may
# patch a static key on every CPU).
declare -A cur=()
set_arm() {
	local f want
	for f in "${!all_feats[@]}"; do
		case ${arm_on[$1]} in
		*" $f "*) want=$f ;;
		*) want=NO_$f ;;
		esac
		[ "${cur[$f]:-}" != "$want" ] || continue
		echo "$want" > "$FEATURES" || die "cannot set $f for arm $1"
		cur[$f]=$want
	done
}

# Milliseconds, without forking (bash 5's EPOCHREALTIME): the harness's
# own cost per round is reported and must stay small next to the loads.
now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	NOW=$((t / 1000))
}

# Progress: round i/n, arm, workload, elapsed and ETA (from whole rounds).
progress() {
	local t=${EPOCHREALTIME/[.,]/} el eta= w=
	el=$(( (t / 1000 - t_start) / 1000 ))
	[ "$1" -gt 1 ] && eta=", ETA $(( el * (total - $1 + 1) / ($1 - 1) )) s"
	[ "$1" -le "$warmup" ] && w=" (warm-up)"
	log "round $1/$total$w, arm $2, $3, elapsed ${el} s$eta"
}

# Wakeup counters from /proc/schedstat into array SS, without forking:
# ttwu_count, ttwu_local (cpu lines), then per domain level
# ttwu_wake_remote, ttwu_move_affine (the third and second last fields).
schedstat() {
	local f n l
	SS=(0 0)
	[ -r /proc/schedstat ] || return 0
	while read -r -a f; do
		case ${f[0]:-} in
		cpu*)	SS[0]=$((SS[0] + f[5])); SS[1]=$((SS[1] + f[6])) ;;
		domain*)
			n=${#f[@]} l=${f[0]#domain}
			SS[2 + 2 * l]=$(( ${SS[2 + 2 * l]:-0} + f[n - 3] ))
			SS[3 + 2 * l]=$(( ${SS[3 + 2 * l]:-0} + f[n - 2] )) ;;
		esac
	done < /proc/schedstat
}

perf_bin=
for p in $(command -v perf) /usr/bin/perf_*; do
	[ -x "$p" ] && "$p" stat -e task-clock -x, -o /dev/null true 2>/dev/null && perf_bin=$p && break
done
perf_events=task-clock,context-switches,cpu-migrations
if [ -n "$perf_bin" ]; then
	if "$perf_bin" stat -e cycles -x, -o "$out/.perfprobe" true 2>/dev/null &&
	   ! grep -q "not supported\|not counted" "$out/.perfprobe"; then
		perf_events=$perf_events,cycles,instructions
		log "perf stat: $perf_bin, hardware and software events"
	else
		log "perf stat: $perf_bin; no hardware PMU here: software events only ($perf_events)"
	fi
	rm -f "$out/.perfprobe"
else
	log "perf stat: no usable perf (linux-perf) here; continuing without it"
fi

{
	echo "date: $(date -Is)"
	echo "kernel: $(uname -r)"
	echo "cmdline: $(cat /proc/cmdline)"
	echo "cpus: $(nproc)"
	echo "seed: $seed"
	echo "rounds: $rounds (+$warmup warm-up, discarded)"
	echo "features at start: $saved_features"
	for a in "${arm_names[@]}"; do echo "arm: $a =${arm_on[$a]}"; done
	for w in "${workloads[@]}"; do echo "workload: $w"; done
	echo "perf: ${perf_bin:-none} ($perf_events)"
	g=$(cat /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor 2>/dev/null | sort | uniq -c | tr -s ' ' | tr '\n' ';')
	echo "governor: ${g:-n/a}"
	echo "boost: $(cat /sys/devices/system/cpu/cpufreq/boost 2>/dev/null || echo n/a)" \
	     "no_turbo: $(cat /sys/devices/system/cpu/intel_pstate/no_turbo 2>/dev/null || echo n/a)"
	echo "cpuidle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo n/a)"
	echo "smt: $(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo n/a)"
	echo "loadavg: $(cat /proc/loadavg)"
} > "$out/environment.txt"
g=$(cat /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor 2>/dev/null | sort -u | tr '\n' ' ')
[ -z "$g" ] || [ "$g" = "performance " ] || log "warning: CPU frequency governor '$g'(not performance): expect drift"
[ "$(cat /sys/devices/system/cpu/cpufreq/boost 2>/dev/null)" != 1 ] || log "warning: turbo/boost on: expect drift"
[ "$(cat /sys/devices/system/cpu/intel_pstate/no_turbo 2>/dev/null)" != 0 ] || log "warning: turbo on (intel_pstate): expect drift"
load=$(cut -d' ' -f1 /proc/loadavg)
awk -v l="$load" 'BEGIN { exit !(l > 0.5) }' && log "warning: load average $load: background load"

csv=$out/samples.csv
[ -s "$out/overhead.csv" ] || echo "round,ms,overhead_ms" > "$out/overhead.csv"
[ -s "$csv" ] || echo "round,warmup,order,arm,workload,direction,value,seconds,migrations,ttwu_count,ttwu_local,domain_wake_remote_move_affine,perf_task_clock_ms,perf_ctx_switches,perf_cpu_migrations" > "$csv"
printf '%s\n' "${arm_names[@]}" > "$out/arms.txt"

# perf stat -x, output -> PV="task-clock ms,context switches,cpu migrations"
# (empty fields where perf did not run or could not count).
perf_values() {
	local val unit ev rest tc= cs= cm=
	if [ -n "$perf_bin" ] && [ -r "$1" ]; then
		while IFS=, read -r val unit ev rest; do
			case $val in *[!0-9.]*|"") continue ;; esac
			case $ev in
			task-clock) tc=$val ;;
			context-switches) cs=$val ;;
			cpu-migrations) cm=$val ;;
			esac
		done < "$1"
	fi
	PV="$tc,$cs,$cm"
}

# Seeded permutations of the arms, one line per round (Fisher-Yates in
# awk), computed up front: no forks between measurements.
total=$((rounds + warmup))
mapfile -t perm < <(printf '%s\n' "${arm_names[@]}" | awk -v s="$seed" -v n="$total" '
	{ a[NR] = $0 } END { for (r = 1; r <= n; r++) { srand(s * 1000 + r)
		for (i = 1; i <= NR; i++) b[i] = a[i]
		for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = b[i]; b[i] = b[j]; b[j] = t }
		l = b[1]; for (i = 2; i <= NR; i++) l = l " " b[i]; print l } }')

# Workload logs go to tmpfs during the run (creating files on the results
# share costs more than the rest of the harness) and to $out/log at exit.
# /dev/shm is plain tmpfs; a wakeplace guest's /tmp is an overlay on 9p.
shm=/tmp
[ -w /dev/shm ] && shm=/dev/shm
TMPDIR=$shm	# bash here-strings (not exported: workloads keep theirs)
logs=$(mktemp -d "$shm/ab-log.XXXXXX")
[ -z "$perf_bin" ] || mkdir -p "$out/perf"
# Split the workload specs once.
W_NAME=() W_DIR=() W_RE=() W_CMD=()
for w in "${workloads[@]}"; do
	IFS='|' read -r wn wd wr wc <<<"$w"
	W_NAME+=("$wn") W_DIR+=("$wd") W_RE+=("$wr") W_CMD+=("$wc")
done

# Rows and logs of the current round, written once per round (and by
# flush at exit: partial results stay).
rows= rlog=
flush() {
	[ -z "$rows" ] || printf '%s' "$rows" >> "$csv"
	[ -z "$rlog" ] || printf '%s' "$rlog" >> "$logs/round-$round.txt"
	rows= rlog=
}

now_ms
t_start=$NOW
for ((r = 1; r <= total; r++)); do
	is_warm=$((r <= warmup ? 1 : 0))
	round=$((r - warmup))
	now_ms
	t_round=$NOW
	busy=0
	order=0
	for arm in ${perm[r - 1]}; do
		order=$((order + 1))
		progress "$r" "$arm" "${#W_NAME[@]} workload(s)"
		set_arm "$arm"
		schedstat
		for ((k = 0; k < ${#W_NAME[@]}; k++)); do
			wn=${W_NAME[k]}
			s0=("${SS[@]}")	# the previous snapshot: nothing ran since
			pf=$out/perf/$round-$arm-$wn.csv
			now_ms
			t0=$NOW
			if [ -n "$perf_bin" ]; then
				o=$("$perf_bin" stat -x, -e "$perf_events" -o "$pf" \
					-- sh -c "${W_CMD[k]}" 2>&1)
			else
				o=$(sh -c "${W_CMD[k]}" 2>&1)
			fi
			rc=$?
			now_ms
			t1=$NOW
			schedstat
			busy=$((busy + t1 - t0))
			rlog+="=== round $round, arm $arm, $wn: exit $rc"$'\n'"$o"$'\n'
			if [ $rc = 4 ]; then
				log "$wn skipped (exit 4): ${o##*$'\n'}"
				continue
			fi
			if [ $rc != 0 ] || ! [[ $o =~ ${W_RE[k]} ]]; then
				flush
				[ $rc = 0 ] || die "workload $wn failed (exit $rc) in arm $arm: ${o: -300}"
				die "workload $wn: no match for /${W_RE[k]}/ in its output (see $out/log/round-$round.txt)"
			fi
			v=${BASH_REMATCH[1]}
			m=
			[[ $o =~ \"migrations\":(-?[0-9]+) ]] && m=${BASH_REMATCH[1]}
			d="$((SS[0] - s0[0])),$((SS[1] - s0[1])),"
			for ((i = 2; i < ${#SS[@]}; i++)); do
				[ $i = 2 ] || d+=";"
				d+="$((SS[i] - ${s0[i]:-0}))"
			done
			perf_values "$pf"
			rows+="$round,$is_warm,$order,$arm,$wn,${W_DIR[k]},$v,$((t1 - t0)),$m,$d,$PV"$'\n'
		done
	done
	flush
	now_ms
	t_end=$NOW
	over=$((t_end - t_round - busy))
	pm=$((over * 1000 / (t_end - t_round)))
	log "round $r/$total done in $(( (t_end - t_round) / 1000 )) s; harness overhead $over ms ($((pm / 10)).$((pm % 10))%)"
	echo "$r,$((t_end - t_round)),$over" >> "$out/overhead.csv"
done
log "done: $csv"
