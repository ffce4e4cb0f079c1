#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# wakebench on a user's own machine, in TAP:
#
#  stacked_without_schedstat: with /proc/schedstat hidden (or absent:
#    kernels without CONFIG_SCHEDSTATS), a stacked run takes the topology
#    from sysfs and says so in its JSON ("topology":"sysfs").
#  pinned_without_schedstat: likewise cross-smt, cross-core and cross-llc
#    either run from sysfs or exit 4 naming what is missing (the SMT
#    siblings, the LLC) or what the machine lacks.
#  window_counters: the JSON carries counters taken around the measured
#    window ("counters":"window"): perf task clock, context switches and
#    migrations (or "perf_error"), /proc/schedstat ttwu deltas where it is
#    readable, consistent with the ops counted (a pipe pair: two context
#    switches and two wakeups per round trip, local ones when stacked).
#    kernel.sched_schedstats is turned on for this and the next case, and
#    back off afterwards.
#  window_independent_of_warmup: context switches per round trip agree
#    within 25% between a 0.1 s and a 2 s warm-up (counting around the
#    whole command would scale with warm-up + duration).
#  fork_failure_clean: under RLIMIT_NPROC, as an unprivileged uid, a fork
#    or thread creation that fails partway gives a prompt error naming the
#    cause, a non-zero exit and no leftover process.
#  list_and_bad_values: --list prints the loads, levels and placements;
#    each listed value is accepted, bad values exit 2 at once.
#  sleepers: --sleepers runs one short sleeper pinned to each allowed CPU,
#    counts their sleeps in the window and leaves none behind.
#  help_options: -h and --help of every tool next to this script print
#    the usage on stdout and exit 0.
#
# Runs as root for the namespace and uid cases (each skips with the reason
# otherwise).  wakebench and the other tools are looked up next to this
# script.
# usage: wakebench_test.sh [-h | --help]
set -u

case ${1:-} in
-h|--help)
	sed -n '3,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0"
	exit 0 ;;
esac

dir=$(cd "$(dirname "$0")" && pwd)
wb=$dir/wakebench
KSFT_SKIP=4
n=0 npass=0 nfail=0 nskip=0
tmp=$(mktemp -d /tmp/wakebench_test.XXXXXX) || exit 1
schedstats=/proc/sys/kernel/sched_schedstats
schedstats_was=
cleanup() {
	[ -z "$schedstats_was" ] || echo "$schedstats_was" >"$schedstats"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
trap 'exit 141' PIPE

msg() { printf '%s\n' "$*" | sed 's/^/# /'; }
pass() { n=$((n + 1)) npass=$((npass + 1)); echo "ok $n $1"; }
fail() { n=$((n + 1)) nfail=$((nfail + 1)); echo "not ok $n $1"; }
skip() { n=$((n + 1)) nskip=$((nskip + 1)); echo "ok $n $1 # SKIP $2"; }
ms() { date +%s%3N; }

# Value of "$2" in the wakebench JSON line of file $1 (quotes stripped),
# empty when absent.
jget() {
	sed -n 's/^wakebench-json: //p' "$1" |
		grep -o "\"$2\":[^,}]*" | head -n 1 |
		sed 's/^"[^"]*"://; s/^"//; s/"$//'
}
jhas() { sed -n 's/^wakebench-json: //p' "$1" | grep -q "\"$2\":"; }

# awk -v ... 'BEGIN { exit !(COND) }'
check() { awk "BEGIN { exit !($1) }"; }

is_root() { [ "$(id -u)" = 0 ]; }

# Run wakebench with /proc/schedstat hidden; $tmp/out, $tmp/err, $rc.
# Returns 125 (with $why) when it cannot be hidden here.
run_hidden() {
	why=
	if [ ! -e /proc/schedstat ]; then
		"$wb" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		return 0
	fi
	if ! is_root || ! command -v unshare >/dev/null; then
		why="/proc/schedstat exists and hiding it needs root and unshare(1)"
		return 125
	fi
	unshare -m --propagation private sh -c \
		'mount --bind /dev/null /proc/schedstat || exit 125; exec "$@"' \
		sh "$wb" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 125 ]; then
		why="cannot bind-mount over /proc/schedstat: $(cat "$tmp/err")"
		return 125
	fi
	return 0
}

show() {
	[ -s "$tmp/out" ] && msg "stdout: $(cat "$tmp/out")"
	[ -s "$tmp/err" ] && msg "stderr: $(cat "$tmp/err")"
	msg "exit $rc"
}

test_stacked_without_schedstat() {
	name=stacked_without_schedstat

	if ! run_hidden -q -l pipe -n 1 -p stacked -d 0.2 -w 0.1; then
		skip $name "$why"
		return
	fi
	if [ $rc = 0 ] && [ "$(jget "$tmp/out" topology)" = sysfs ]; then
		msg "$name: ran, topology from sysfs"
		pass $name
	else
		show
		fail $name
	fi
}

test_pinned_without_schedstat() {
	name=pinned_without_schedstat ok=1

	for p in cross-smt cross-core cross-llc; do
		if ! run_hidden -q -l pipe -n 1 -p $p -d 0.2 -w 0.1; then
			skip $name "$why"
			return
		fi
		re="placement $p(: this machine has (no|one)| needs the (SMT|LLC))"
		if [ $rc = 0 ] && [ "$(jget "$tmp/out" topology)" = sysfs ]; then
			msg "$p: ran, topology from sysfs"
		elif [ $rc = 4 ] && grep -Eq "$re" "$tmp/err"; then
			msg "$p: exit 4: $(cat "$tmp/err")"
		else
			msg "$p: neither a run from sysfs nor a precise reason:"
			show
			ok=0
		fi
	done
	[ $ok = 1 ] && pass $name || fail $name
}

# Run a pipe pair with warm-up $1 and duration $2 into $tmp/out, stacked
# (unbound where wakebench cannot stack it, $place says which); sets $cs_op
# (context switches per round trip), empty when not reported.
window_run() {
	cs_op=
	for place in stacked unbound; do
		"$wb" -q -l pipe -n 1 -p $place -d "$2" -w "$1" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc = 4 ] || break
		msg "stacked: exit 4 ($(cat "$tmp/err")): unbound instead"
	done
	[ $rc = 0 ] || return 1
	ops=$(jget "$tmp/out" ops)
	cs=$(jget "$tmp/out" ctx_switches)
	[ -n "$cs" ] && [ -n "$ops" ] &&
		cs_op=$(awk -v c="$cs" -v o="$ops" 'BEGIN { printf "%.3f", c / o }')
	return 0
}

test_window_counters() {
	name=window_counters ok=1

	if ! window_run 0.1 0.5; then
		show
		fail $name
		return
	fi
	msg "$(sed -n 's/^wakebench-json: //p' "$tmp/out")"
	ops=$(jget "$tmp/out" ops)
	d=$(jget "$tmp/out" duration_s)
	if [ "$(jget "$tmp/out" counters)" != window ]; then
		msg "no \"counters\":\"window\""
		ok=0
	fi
	tc=$(jget "$tmp/out" task_clock_ms)
	cs=$(jget "$tmp/out" ctx_switches)
	cm=$(jget "$tmp/out" cpu_migrations)
	if jhas "$tmp/out" perf_error; then
		msg "perf unavailable: $(jget "$tmp/out" perf_error)"
		if [ -n "$tc$cs$cm" ]; then
			msg "perf_error given, yet perf keys present"
			ok=0
		fi
	elif [ -z "$tc" ] || [ -z "$cs" ] || [ -z "$cm" ]; then
		msg "perf keys missing (task_clock_ms, ctx_switches," \
		    "cpu_migrations) and no perf_error"
		ok=0
	else
		# One round trip: each side blocks once.  A stacked pair
		# shares one CPU: at most the window's length of CPU time (an
		# unbound one two CPUs), plus the time switching the counters
		# on and off took.
		edge=$(jget "$tmp/out" counters_edge_ms)
		msg "$place: per round trip $cs_op context switches;" \
		    "task clock $tc ms in $d s" \
		    "(+ ${edge:-?} ms switching the counters)"
		ncpu=1
		[ $place = stacked ] || ncpu=2
		check "$cs_op >= 1.5 && $cs_op <= 3" ||
			{ msg "context switches per round trip $cs_op, not ~2"; ok=0; }
		check "$tc > 0 && $tc <= ($d * 1000 + ${edge:-0}) * $ncpu * 1.1 + 10" ||
			{ msg "task clock $tc ms outside" \
			      "(0, 1.1 x $ncpu x (window + switching)]"; ok=0; }
		check "$cm >= 0" || { msg "bad cpu_migrations '$cm'"; ok=0; }
	fi
	tw=$(jget "$tmp/out" ttwu_count)
	tl=$(jget "$tmp/out" ttwu_local)
	dom=$(jget "$tmp/out" domain_wake_remote_move_affine)
	st=$(cat /proc/sys/kernel/sched_schedstats 2>/dev/null)
	# (procfs files have size 0: read one.)
	if [ "$st" != 0 ] && [ -n "$(head -c 1 /proc/schedstat 2>/dev/null)" ]; then
		if [ -z "$tw" ] || [ -z "$tl" ] ||
		   ! jhas "$tmp/out" domain_wake_remote_move_affine; then
			msg "schedstat readable, yet" \
			    "ttwu_count/ttwu_local/domain_wake_remote_move_affine missing"
			ok=0
		else
			# System-wide counts.  A round trip wakes one or both
			# sides: a wakee preempted before it blocks again
			# needs no wakeup (a stacked pair in a guest: 1.13
			# per round trip).  Stacked, nearly all are local.
			msg "ttwu_count $tw, ttwu_local $tl for $ops round trips; domains $dom"
			check "$tw >= 0.5 * $ops" ||
				{ msg "fewer wakeups than the round trips imply"; ok=0; }
			[ $place = unbound ] || check "$tl >= 0.9 * $tw" ||
				{ msg "stacked, yet under 90% of wakeups local"; ok=0; }
			echo "$dom" | grep -Eq '^([0-9]+;[0-9]+(;[0-9]+;[0-9]+)*)?$' ||
				{ msg "bad domain_wake_remote_move_affine '$dom'"; ok=0; }
		fi
	else
		msg "schedstat not readable here (absent, empty or kernel.sched_schedstats=0)"
		if [ -n "$tw$tl" ]; then
			msg "schedstat keys present without a readable schedstat"
			ok=0
		fi
	fi
	[ $ok = 1 ] && pass $name || fail $name
}

test_window_independent_of_warmup() {
	name=window_independent_of_warmup

	if ! window_run 0.1 1; then
		show
		fail $name
		return
	fi
	if jhas "$tmp/out" perf_error; then
		skip $name "perf events unavailable: $(jget "$tmp/out" perf_error)"
		return
	fi
	a=$cs_op
	window_run 2 1 || { show; fail $name; return; }
	b=$cs_op
	msg "$place: context switches per round trip:" \
	    "warm-up 0.1 s: ${a:-missing}, warm-up 2 s: ${b:-missing}"
	if [ -n "$a" ] && [ -n "$b" ] &&
	   check "$b <= $a * 1.25 && $a <= $b * 1.25"; then
		pass $name
	else
		fail $name
	fi
}

# A uid that owns no process, for RLIMIT_NPROC.
free_uid() {
	for u in 65534 65533 65532 65531; do
		if [ -z "$(pgrep -u $u)" ]; then
			echo $u
			return 0
		fi
	done
	return 1
}

test_fork_failure_clean() {
	name=fork_failure_clean ok=1

	if ! is_root; then
		skip $name "needs root to run as another uid under RLIMIT_NPROC"
		return
	fi
	for c in setpriv prlimit timeout pgrep; do
		if ! command -v $c >/dev/null; then
			skip $name "no $c(1)"
			return
		fi
	done
	if ! u=$(free_uid); then
		skip $name "no free uid among 65531-65534"
		return
	fi
	mkdir "$tmp/bin" && cp "$wb" "$tmp/bin/" && chmod 755 "$tmp" "$tmp/bin" ||
		{ fail $name; return; }
	bin=$tmp/bin/wakebench
	if ! setpriv --reuid=$u --regid=$u --clear-groups "$bin" -h >/dev/null 2>"$tmp/err"; then
		skip $name "uid $u cannot run a copy of wakebench in $tmp/bin: $(cat "$tmp/err")"
		return
	fi
	# load, pairs, process limit: where the first failure hits
	while read -r load pairs lim what; do
		t0=$(ms)
		timeout 30 setpriv --reuid=$u --regid=$u --clear-groups \
			prlimit --nproc=$lim "$bin" -l $load -n $pairs -d 0.3 -w 0.1 \
			>"$tmp/out" 2>"$tmp/err"
		rc=$?
		t=$(($(ms) - t0))
		left=$(pgrep -u $u)
		msg "$load -n $pairs, nproc $lim ($what): exit $rc after $t ms: $(cat "$tmp/err")"
		if [ $rc = 124 ]; then
			msg "hung (killed by timeout after 30 s)"
			ok=0
		elif [ $rc = 0 ] || [ $rc = 4 ]; then
			msg "expected an error exit"
			ok=0
		fi
		if [ $t -gt 5000 ]; then
			msg "took more than 5 s to fail"
			ok=0
		fi
		if ! grep -q "Resource temporarily unavailable" "$tmp/err"; then
			msg "the error does not name the cause (EAGAIN)"
			ok=0
		fi
		if [ -n "$left" ]; then
			msg "leftover processes of uid $u: $(echo $left)"
			kill -9 $left 2>/dev/null
			ok=0
		fi
	done <<EOF
pipe 3 3 second pair's first fork
pipe 3 4 second pair's second fork
pipe-thread 1 2 first pair's thread
pipe-thread 2 3 second pair's fork or first pair's thread (racing)
EOF
	[ $ok = 1 ] && pass $name || fail $name
}

test_list_and_bad_values() {
	name=list_and_bad_values ok=1

	"$wb" --list >"$tmp/out" 2>"$tmp/err"
	rc=$?
	loads=$(sed -n 's/^loads: //p' "$tmp/out")
	levels=$(sed -n 's/^levels: //p' "$tmp/out")
	places=$(sed -n 's/^placements: //p' "$tmp/out")
	if [ $rc != 0 ] || [ -z "$loads" ] || [ -z "$levels" ] || [ -z "$places" ]; then
		msg "--list: exit $rc, no loads/levels/placements lines"
		show
		ok=0
	else
		msg "$(cat "$tmp/out")"
	fi
	# Every listed value is accepted by the parser (-h ends before running).
	for v in $loads; do
		"$wb" -l "$v" -h >/dev/null 2>&1 || { msg "listed load $v refused"; ok=0; }
	done
	for v in $places; do
		"$wb" -p "$v" -h >/dev/null 2>&1 || { msg "listed placement $v refused"; ok=0; }
	done
	for v in $levels; do
		case $v in *-*) v=${v%-*} ;; esac
		"$wb" -n "$v" -h >/dev/null 2>&1 || { msg "listed level $v refused"; ok=0; }
	done
	while read -r opt val; do
		t0=$(ms)
		"$wb" -q "$opt" "$val" -d 0.2 -w 0 >"$tmp/out" 2>"$tmp/err"
		rc=$?
		t=$(($(ms) - t0))
		if [ $rc != 2 ] || [ $t -gt 1000 ] || ! grep -qF -- "$val" "$tmp/err"; then
			msg "$opt '$val': exit $rc after $t ms" \
			    "(want 2 at once, naming the value):" \
			    "$(head -n 2 "$tmp/err")"
			ok=0
		fi
	done <<EOF
-l nosuchload
-p nosuchplacement
-n 0
-n many
-n 100000
-d 1x
-w -1
-s 12k
--sleep-us x
--spin-ns x
--spin-ns -5
--cpus 0
--cpus 0,1,2
--cpus a,b
--cpus 0,-1
--cpus 0,99999
--sleepers 0
--sleepers x
--sleepers 50,-1
--sleepers 50,20,3
EOF
	[ $ok = 1 ] && pass $name || fail $name
}

# --spin-ns: the rr loads only; the busy loop is calibrated and reported
# (the added time is printed, not asserted: guests' clocks drift).
test_spin_ns() {
	name=spin_ns ok=1

	"$wb" -q -l tcp_stream --spin-ns 1000 -d 0.2 -w 0 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ] || ! grep -q -- "--spin-ns is for the rr loads" "$tmp/err"; then
		msg "--spin-ns with tcp_stream: exit $rc, want 2: $(head -n 1 "$tmp/err")"
		ok=0
	fi
	for s in 0 20000; do
		"$wb" -l pipe -p stacked --spin-ns $s -d 0.3 -w 0.1 >"$tmp/out.$s" 2>"$tmp/err"
		rc=$?
		[ $rc = 4 ] && { skip $name "$(tail -n 1 "$tmp/err")"; return; }
		if [ $rc != 0 ]; then
			msg "--spin-ns $s: exit $rc: $(head -n 2 "$tmp/err")"
			ok=0
		fi
	done
	if [ $ok = 1 ]; then
		loops=$(jget "$tmp/out.20000" spin_loops)
		if [ "$(jget "$tmp/out.20000" spin_ns)" != 20000 ] || ! check "${loops:-0} > 0" ||
		   jhas "$tmp/out.0" spin_ns; then
			jhas "$tmp/out.0" spin_ns && extra=yes || extra=no
			msg "JSON: spin_ns $(jget "$tmp/out.20000" spin_ns), spin_loops $loops;" \
			    "spin_ns without --spin-ns: $extra"
			ok=0
		else
			msg "pipe stacked: $(jget "$tmp/out.0" value) us/op, with 20 us spun" \
			    "($loops loops) $(jget "$tmp/out.20000" value) us/op"
		fi
	fi
	[ $ok = 1 ] && pass $name || fail $name
}

# --sleepers: one sleeper per allowed CPU (two here: taskset 0,1 when the
# machine has them), their sleeps in the window counted and reported; the
# pairs still run, no sleeper is left behind.
test_sleepers() {
	name=sleepers ok=1 cpus=0

	[ "$(nproc)" -lt 2 ] || cpus=0,1
	want=$(echo "$cpus" | tr , '\n' | wc -l)
	taskset -c "$cpus" "$wb" -l pipe --sleepers 200,20 -d 0.5 -w 0.1 \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	ns=$(jget "$tmp/out" sleepers)
	cy=$(jget "$tmp/out" sleeper_cycles)
	left=$(pgrep -x wb-sleeper | wc -l)
	if [ $rc != 0 ] || [ "$ns" != "$want" ] || ! check "${cy:-0} > 0" ||
	   [ "$(jget "$tmp/out" sleeper_sleep_us)" != 200 ] || [ "$left" != 0 ]; then
		msg "--sleepers 200,20 on cpus $cpus: exit $rc, sleepers $ns (want $want)," \
		    "sleeps $cy (want > 0), $left left running: $(head -n 1 "$tmp/err")"
		ok=0
	else
		msg "--sleepers 200,20 on cpus $cpus: $ns sleepers, $cy sleeps in" \
		    "$(jget "$tmp/out" duration_s) s; pipe $(jget "$tmp/out" value) us/op"
	fi
	[ $ok = 1 ] && pass $name || fail $name
}

# --cpus A,B pins each side; both orders run, a CPU that is not online
# skips (4), and --cpus with a placement is a usage error.
test_cpus() {
	name=cpus ok=1 last=$(($(nproc) - 1))

	if [ "$last" -lt 1 ]; then
		skip $name "one CPU: --cpus needs two"
		return
	fi
	for o in "0 $last" "$last 0"; do
		set -- $o
		o=$1,$2 want=cpus:$1/$2
		"$wb" -l pipe --cpus "$o" -d 0.3 -w 0.1 >"$tmp/out" 2>"$tmp/err"
		rc=$?
		p=$(jget "$tmp/out" placement)
		m=$(jget "$tmp/out" migrations)
		if [ $rc != 0 ] || [ "$p" != "$want" ] || [ "$m" != 0 ]; then
			msg "--cpus $o: exit $rc, placement '$p' (want $want)," \
			    "migrations $m (want 0): $(head -n 1 "$tmp/err")"
			ok=0
		else
			msg "--cpus $o: $(jget "$tmp/out" value) us/op, migrations 0"
		fi
	done
	"$wb" -q --cpus "0,$((last + 1))" -d 0.2 -w 0 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 4 ] || ! grep -q "not both online" "$tmp/err"; then
		msg "--cpus 0,$((last + 1)) (offline): exit $rc, want 4: $(head -n 1 "$tmp/err")"
		ok=0
	fi
	"$wb" -q --cpus 0,0 -p stacked -d 0.2 -w 0 >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ] || ! grep -q "exclude each other" "$tmp/err"; then
		msg "--cpus with -p stacked: exit $rc, want 2: $(head -n 1 "$tmp/err")"
		ok=0
	fi
	[ $ok = 1 ] && pass $name || fail $name
}

test_help_options() {
	name=help_options ok=1 found=

	for t in wakebench topology_test features_test sis_sync_core_test \
		 sis_cache_test pingpong_test; do
		[ -x "$dir/$t" ] || continue
		found="$found $t"
		for h in -h --help; do
			timeout 10 "$dir/$t" $h >"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ $rc != 0 ] || ! grep -qi "usage" "$tmp/out" || [ -s "$tmp/err" ]; then
				msg "$t $h: exit $rc," \
				    "usage on stdout: $(grep -ci usage "$tmp/out")," \
				    "stderr: $(head -c 200 "$tmp/err")"
				ok=0
			fi
		done
	done
	msg "checked:$found"
	[ $ok = 1 ] && pass $name || fail $name
}

echo "TAP version 13"
if [ ! -x "$wb" ]; then
	echo "1..0 # SKIP no wakebench next to $0"
	exit $KSFT_SKIP
fi
echo "1..10"
msg "kernel $(uname -r), $(nproc) CPUs," \
    "/proc/schedstat $([ -e /proc/schedstat ] && echo present || echo absent)"
test_stacked_without_schedstat
test_pinned_without_schedstat
# The schedstat counters count only with kernel.sched_schedstats on.
if [ -w $schedstats ] && [ "$(cat $schedstats)" = 0 ] && echo 1 >$schedstats; then
	schedstats_was=0
	msg "kernel.sched_schedstats set to 1 for the window cases"
fi
test_window_counters
test_window_independent_of_warmup
if [ -n "$schedstats_was" ]; then
	echo "$schedstats_was" >$schedstats
	schedstats_was=
fi
test_fork_failure_clean
test_list_and_bad_values
test_spin_ns
test_sleepers
test_cpus
test_help_options
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ $nfail = 0 ] || exit 1
[ $npass = 0 ] && exit $KSFT_SKIP
exit 0
