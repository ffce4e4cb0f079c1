#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make test': every stage from a bare Debian machine to a verdict.
#   script checks (deps.sh against shims) -> deps -> tree -> host checks -> check-patches -> build -> every commit
#   of the series builds (check-series) -> one boot per
#   topology preset running the sched kselftests (and the KUnit suites built
#   into the kernel; stats_test checks the bench statistics) -> with smt, a
#   core-scheduling kernel (guest/sched-core.config) running the tests that
#   need it, and the series' kernel booted with thread_backlog_napi and a
#   virtio NIC running sis_sync_core_test's kthread_waker and nic_waker -> a short
#   make bench in the smt guest (bench-smoke) -> an instruction-time (icount)
#   make bench with --ci-target on flat (bench-icount) -> summary.
# Skips not listed in scripts/expected-skips count as failures.  The last
# line is "N passed, N failed, N skipped"; the exit code is non-zero on any
# failure.
#
#
# 'make test-full' (--full): the stress tests to their long goals (10,000
# feature writes, 100 hotplug cycles, 10^6 wakeups checked; WP_STRESS_ARGS
# replaces them, e.g. "-d 60") on smt and llc2, on the series' kernel
# ("series-PRESET") and on the kernel of the tracepoint patch alone
# ("base-PRESET"), both guests of a preset at once.  A failure of the base
# kernel, or one both kernels show, is listed as a baseline issue and not
# counted against the series.  How often the stock branches chose a CPU
# outside the mask or an inactive one is compared between the two,
# chunk by chunk (stockcmp), and gates.  Then
# the debug kernel (guest/debug.config: lockdep, atomic-sleep checks, UBSAN,
# KASAN) boots smt running the whole suite ("debug-smt"): its console must
# stay clean and invariants gate, placement thresholds are printed and
# reported as skips (placement.h); the tracepoint-only kernel built with the
# same config runs the stress tests as its reference ("base-debug-smt"),
# at the same time.
# Last, the build matrix
# (scripts/matrix.sh: seven configs built and booted for their KUnit
# suites, kernel/sched/ with Debian's config and W=1).
#
# usage: test.sh [--full] [preset...]     (default: smt llc2 flat; --full: smt llc2)
set -euo pipefail
. "$(dirname "$0")/common.sh"

full= boot_timeout=
# The long goals take about 25 min per boot under TCG (toggle storm ~12
# writes/s): vm.sh's default 30 min timeout is too close.
[ "${1:-}" != --full ] || { full=1 boot_timeout=5400; shift; }
presets=("$@")
if [ -n "$full" ]; then
	[ ${#presets[@]} -gt 0 ] || presets=(smt llc2)
	boots=()
	for p in "${presets[@]}"; do boots+=("series-$p" "base-$p"); done
else
	[ ${#presets[@]} -gt 0 ] || presets=(smt llc2 flat)
	# With smt, two more boots: the core-scheduling kernel ("core",
	# core_sched_boot) and network wakers, loopback in kthreads and a
	# NIC ("napi", napi_boot).
	boots=("${presets[@]}")
	for p in "${presets[@]}"; do [ "$p" != smt ] || boots+=(core napi); done
fi
# Guests booted at once (BOOT_JOBS; make test BOOT_JOBS=N).
boot_jobs=${BOOT_JOBS:-1}
case $boot_jobs in ''|*[!0-9]*|0) die "BOOT_JOBS must be a positive number" ;; esac
S=$WP_ROOT/scripts
run=$WP_BUILD/results/test-$(date +%Y%m%d-%H%M%S)
t_start=$(date +%s)

# A host-side TAP test script's results as "host" lines (a "# SKIP" case
# is a skip, a missing or short plan a failure).
tap_results() {	# group name tap-file
	awk -v g="$1" -v name="$2" -v tap="$3" '
	/^(not )?ok [0-9]+ / {
		st = ($1 == "not") ? "fail" : "pass"; n = ($1 == "not") ? $3 : $2
		line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
		if (st == "pass" && line ~ /# SKIP/) st = "skip"
		printf "%s %s %s:%s %s\n", g, st, name, n, line; seen++
	}
	/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
	END { if (!plan || seen != plan) printf "%s fail %s:plan %d of %d results (see %s)\n", g, name, seen, plan, tap }
	' "$3"
}

# Checks of the scripts themselves, before anything is installed: deps.sh
# against shimmed apt/dpkg (deps-test.sh, TAP), and the ERR trap that makes
# every unhandled failure name its script, line and command.
script_checks() {
	local out=$run/host.result f msg
	"$S/deps-test.sh" > "$run/deps-test.tap" 2>&1 || true
	tap_results host deps-test "$run/deps-test.tap" > "$out"
	printf '%s\n' 'set -euo pipefail' ". '$S/common.sh'" 'f() { false; }' f > "$run/trap-check.sh"
	msg=$(bash "$run/trap-check.sh" 2>&1) || true
	if grep -qxF 'trap-check.sh: error: trap-check.sh:3 (in f()): exit 1 from: false' <<<"$msg"; then
		echo "host pass err-trap says script, line, function and command" >> "$out"
	else
		echo "host fail err-trap got: ${msg:-nothing}" >> "$out"
	fi
	# Every bash stage script gets the trap through common.sh; ab.sh runs
	# alone on machines without the repository (no set -e; each exit
	# path says why).
	for f in "$S"/*.sh; do
		case ${f##*/} in common.sh|ab.sh) continue ;; esac
		grep -q '^\. "$(dirname "$0")/common.sh"' "$f" ||
			echo "host fail err-trap:${f##*/} does not source common.sh" >> "$out"
	done
	log "$(awk '$2 == "pass"' "$out" | wc -l) passed, $(awk '$2 == "fail"' "$out" | wc -l) failed (deps-test: $run/deps-test.tap)"
}

host_checks() {
	local f st=$WP_BUILD/selftests-repo
	for f in "$S"/*.sh "$WP_ROOT"/guest/init "$WP_ROOT"/guest/*.sh "$WP_ROOT"/.ci/run; do
		bash -n "$f" || die "syntax error in $f"
	done
	# The repository's selftests build against the baseline's lib.mk and
	# kselftest.h (needs the tree; the unchanged cs_prctl_test.c comes
	# from there through VPATH).
	if [ -d "$WP_TREE/.git" ]; then
		local ks=$WP_TREE/tools/testing/selftests/sched
		rm -rf "$st" && mkdir -p "$st"
		make -s -C "$WP_ROOT/tools/testing/selftests/sched" -I "$ks" \
			VPATH="$ks" CPPFLAGS="-I$ks" OUTPUT="$st" >/dev/null ||
			die "selftests do not build from the repository copy"
	fi
}

# The bench tools and the scripts' command lines on this machine's own
# kernel (tools-test.sh), once the tools are built.
tools_checks() {
	"$S/tools-test.sh" > "$run/tools-test.tap" 2>&1 || true
	tap_results host tools-test "$run/tools-test.tap" >> "$run/host.result"
	log "$(grep -c "^ok" "$run/tools-test.tap" || true) passed, $(grep -c "^not ok" "$run/tools-test.tap" || true) failed ($run/tools-test.tap)"
}

# The guests run the kselftests from kselftest's standard archive, unpacked
# as a test fleet (LAVA, KernelCI) would: run_kselftest.sh, unchanged.
unpack_tar() {
	local tar=$WP_BUILD/kselftest/kselftest-packages/kselftest.tar.gz
	[ -f "$tar" ] || die "no kselftest archive $tar (make build)"
	mkdir -p "$run/kselftest"
	tar -C "$run/kselftest" -xzf "$tar"
	grep -q "^sched:sis_cache_test$" "$run/kselftest/kselftest-list.txt" ||
		die "$tar lists no sched:sis_cache_test"
	log "unpacked $tar: $(wc -l < "$run/kselftest/kselftest-list.txt") tests"
}

# Ctrl-C and SIGTERM in the middle of make vm and make bench
# (interrupt-test.sh: four short guest runs).
interrupt_checks() {
	"$S/interrupt-test.sh" > "$run/interrupt-test.tap" 2>&1 || true
	tap_results bench interrupt-test "$run/interrupt-test.tap" > "$run/interrupt.result"
	log "$(grep -c "^ok" "$run/interrupt-test.tap" || true) passed, $(grep -c "^not ok" "$run/interrupt-test.tap" || true) failed ($run/interrupt-test.tap)"
}

# One guest: results in $run/NAME; KERNEL empty for the series' kernel,
# APPEND extra kernel command line (or empty), NET "net" for a NIC (vm.sh
# --net) or empty; ARGS after the kselftest directory go to run-selftests.sh.
boot_guest() {	# name preset kernel append net [args...]
	local name=$1 preset=$2 kernel=$3 append=$4 net=$5 rc=0
	shift 5
	local cmd=("$S/vm.sh" -t "$preset" ${kernel:+-k "$kernel"} ${append:+-a "$append"}
		   ${boot_timeout:+-T "$boot_timeout"}
		   ${net:+--net}
		   -o "$run/$name" --
		   "$WP_ROOT/guest/run-selftests.sh" "$run/kselftest" "$@")
	wp_child "${cmd[@]}" || rc=$?
	# A TCG guest has been seen to oops once in ~25 boots while patching
	# a static key at boot (int3 in sched_clock_cpu), before init ran.
	# Boot once more in that case only, and say so in the summary; a
	# crash after the command started is never retried.
	if [ $rc = 125 ] && ! grep -q 'wakeplace-init: running' "$run/$name/console.log"; then
		mv "$run/$name" "$run/$name.boot-crash"
		echo "$name: guest crashed before the command ran; booted again (console in $run/$name.boot-crash)" >> "$run/retries.txt"
		log "guest crashed before the command ran; booting $name once more"
		rc=0
		wp_child "${cmd[@]}" || rc=$?
	fi
	echo "$rc" > "$run/$name/vm-exit"
	return 0
}

boot_preset() {	# preset
	boot_guest "$1" "$1" "" "" ""
}

# Core scheduling ("core" in the summary): the kernel of
# guest/sched-core.config, built here (ccache shares most objects with the
# series' kernel), on smt, running only the tests that need it.
core_sched_boot() {
	"$S/build.sh" --variant sched-core
	boot_guest core smt "$WP_BUILD/variants/sched-core/obj/arch/x86/boot/bzImage" "" "" \
		--core-sched
}

# Network wakers ("napi" in the summary): the series' kernel on smt booted
# with thread_backlog_napi, so that loopback's receive path runs in per-CPU
# backlog kthreads, and with a virtio NIC (vm.sh --net): sis_sync_core_test's
# kthread_waker and nic_waker cases.
napi_boot() {
	boot_guest napi smt "" thread_backlog_napi net --net-wakers
}

# The presets in $boot_jobs lanes, longest first (each guest is one
# single-threaded TCG process); every boot keeps its own results
# directory and its wall time is reported.
boot_parallel() {
	local p t0
	for p in "${presets[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$boot_jobs" ]; do wait -n || true; done
		t0=$(date +%s)
		( boot_preset "$p"; echo "boot-$p $(($(date +%s) - t0))s" > "$run/$p.boot-time" ) &
	done
	wait
	for p in "${presets[@]}"; do
		WP_TIMES+=("$(cat "$run/$p.boot-time" 2>/dev/null || echo "boot-$p ?")")
	done
}

# A short make bench in the smt guest: the harness end to end (two arms,
# two loads, 4 rounds: the paired path, too few to reach "different"),
# checked for a complete table with paired rows, restored features, and
# plots that render (a PNG per SVG) inside report.html.
bench_smoke() {
	local d=$run/bench-smoke rc=0 n why=
	wp_child "$S/bench.sh" -t smt -l pipe,hackbench -n 1 -a base,SIS_CACHE -r 4 -W 1 \
		-d 0.5 -s 1 -o "$d" > "$d.log" 2>&1 || rc=$?
	n=$(grep -o '"verdict"' "$d/comparisons.json" 2>/dev/null | wc -l)
	if [ $rc != 0 ]; then
		why="bench.sh exit $rc (see $d.log)"
	elif [ "$n" != 2 ]; then
		why="$n comparisons in comparisons.json, want 2"
	elif [ "$(grep -c '"unit":"round","pairs":4' "$d/comparisons.json")" != 2 ]; then
		why="comparisons not paired by round with 4 pairs (see $d/comparisons.json)"
	elif ! grep -q "^smallest attainable p: " "$d/table.txt"; then
		why="no smallest attainable p beside the table"
	elif [ "$(ls "$d"/plots/*.svg 2>/dev/null | wc -l)" -lt 2 ]; then
		why="fewer than 2 plots in $d/plots"
	elif [ "$(ls "$d"/plots/*.png | wc -l)" != "$(ls "$d"/plots/*.svg | wc -l)" ]; then
		why="a plot did not render to PNG (see $d.log)"
	elif [ "$(grep -c "<svg" "$d/report.html")" != "$(ls "$d"/plots/*.svg | wc -l)" ]; then
		why="report.html lacks a plot"
	elif ! grep -q "^features at start: $(cat "$d"/series-1/ab/features-after.txt)\$" "$d/environment.txt"; then
		why="sched features not restored after the run"
	fi
	if [ -z "$why" ]; then
		echo "bench pass bench:smoke 2 paired comparisons, $(ls "$d"/plots/*.png | wc -l) plots rendered, features restored; $(grep -o 'harness overhead: [0-9.]*%' "$d.log" | tail -1)"
	else
		echo "bench fail bench:smoke $why"
	fi > "$run/bench-smoke.result"
}

# A short instruction-time bench (--icount) on flat with --ci-target: the
# tables, plots and JSON say instruction-time and never wall-clock, the
# adaptive length says why it stopped, the schedstat counters of command
# loads are parsed after the run, and pipe's CV is that of instruction
# counts (below 1%; plain TCG gives 3-11%).
bench_icount_smoke() {
	local d=$run/bench-icount rc=0 why= cv
	wp_child "$S/bench.sh" --icount -t flat -l pipe,hackbench -n 1 -a base,SIS_CACHE -r 6 -W 0 \
		-d 0.2 -s 1 --ci-target 50 --budget 900 --no-trace -o "$d" > "$d.log" 2>&1 || rc=$?
	cv=$(sed -n 's/.*"workload":"pipe@1","arm":"SIS_CACHE"[^}]*"cv":\([0-9.e+-]*\).*/\1/p' \
		"$d/comparisons.json" 2>/dev/null | head -1)
	if [ $rc != 0 ]; then
		why="bench.sh --icount exit $rc (see $d.log)"
	elif ! head -1 "$d/table.txt" | grep -q "^INSTRUCTION-TIME (icount)"; then
		why="table.txt does not start with the instruction-time label"
	elif grep -qi "wall-clock" "$d/table.txt" "$d/comparisons.json" "$d"/plots/*.svg; then
		why="a wall-clock label in an instruction-time report"
	elif [ "$(grep -o '"clock":"instruction-time (icount)' "$d/comparisons.json" | wc -l)" != 2 ]; then
		why="comparisons.json lacks the clock of its 2 comparisons"
	elif ! grep -q "instruction-time (icount)" "$d"/plots/pipe@1.svg; then
		why="the pipe plot does not say instruction-time"
	elif ! grep -q "adaptive length (--ci-target 50%): stopped after [0-9]* rounds, .*: \(met\|.*budget\)" "$d/table.txt"; then
		why="no adaptive-length line in table.txt"
	elif grep -q ',@' "$d/samples.csv" ||
	     ! awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$(c["workload"]) == "hackbench" && $(c["ttwu_count"]) + 0 > 0 { n++ }
			END { exit !(n >= 12) }' "$d/samples.csv"; then
		why="hackbench rows without schedstat wakeups (see $d/samples.csv)"
	elif ! awk -v c="${cv:-x}" 'BEGIN { exit !(c + 0 == c && c < 0.01) }'; then
		why="pipe's CV under icount is ${cv:-missing} (want below 0.01)"
	fi
	if [ -z "$why" ]; then
		echo "bench pass bench:icount-smoke instruction-time labels, pipe CV $cv, $(grep -o 'stopped after [0-9]* rounds[^;]*' "$d/table.txt"); $(grep -o 'harness overhead: [0-9.]*%' "$d.log" | tail -1)"
	else
		echo "bench fail bench:icount-smoke $why"
	fi > "$run/bench-icount.result"
}

# One line per result: "<preset> <pass|fail|skip> <name> <detail>".
parse_results() {	# preset
	local p=$1 dir=$run/$1
	awk -v p="$p" '
	function emit(st, name, why) { printf "%s %s %s %s\n", p, st, name, why }
	# kselftest runner: "# selftests: sched: X" starts the output of X.
	/^# selftests: / { prog = $4; nested = 0; plan = -1; next }
	/^# 1\.\.[0-9]+/ { plan = substr($2, 4) + 0; if ($0 ~ /# SKIP/) plan = -2; next }
	/^# (not )?ok [0-9]+ / {
		line = substr($0, 3); st = "pass"; why = ""
		if (line ~ /^not ok/) { st = "fail"; sub(/^not ok [0-9]+ /, "", line) }
		else sub(/^ok [0-9]+ /, "", line)
		if (line ~ /# SKIP/) { st = "skip"; why = line; sub(/.*# SKIP */, "", why); sub(/ *# SKIP.*/, "", line) }
		# "ok N # SKIP name: why" (ksft_test_result_skip): the case is named first.
		if (st == "skip" && line == "" && why ~ /^[A-Za-z0-9_]+: /) {
			line = why; sub(/:.*/, "", line); sub(/^[^:]*: */, "", why)
		}
		emit(st, "kselftest:" prog ":" line, why); nested++; next
	}
	/^(not )?ok [0-9]+ selftests: / {
		name = $0; sub(/.*selftests: [^:]*: /, "", name); sub(/ .*/, "", name)
		st = ($1 == "not") ? "fail" : "pass"; why = $0
		if ($0 ~ /# SKIP/) st = "skip"
		sub(/^[^#]*#? */, "", why)
		if (!nested) emit(st, "kselftest:" name, why)
		else if (st == "fail") emit("fail", "kselftest:" name ":exit", why)
		else if (plan >= 0 && nested < plan) emit("fail", "kselftest:" name ":incomplete", nested "/" plan)
		next
	}' "$dir/kselftest.tap" 2>/dev/null || true
	# KUnit suites built into the kernel report on the console at boot;
	# each suite the kernel's .config builds in must report.
	wp_kunit_results "$dir/console.log" "$dir/kernel.config" | sed "s/^/$p /" || true
	local vrc
	vrc=$(cat "$dir/vm-exit" 2>/dev/null || echo 125)
	case $vrc in
	0) echo "$p pass boot:$p clean console, guest exit 0" ;;
	*) echo "$p fail boot:$p vm.sh exit $vrc (see $dir)" ;;
	esac
	grep -q . "$dir/kselftest.tap" 2>/dev/null ||
		echo "$p fail kselftest:output no TAP output in $dir"
}

# make test-full: each preset on the series' kernel and on the kernel of
# the tracepoint patch alone, running only the stress tests.  The two
# guests of a preset run at the same time (one TCG thread each, a core
# each here): the host's load and drift fall on both kernels alike, which
# their comparison (compare_stock) wants, and the pair takes the time of
# the longer boot.
stress_boots() {
	local p
	for p in "${presets[@]}"; do
		stage "stress-$p" boot_pair "series-$p" "$p" "" --stress "base-$p" \
			"$WP_BUILD/tracepoint/obj/arch/x86/boot/bzImage" --stress \
			${WP_STRESS_ARGS:+"$WP_STRESS_ARGS"}
	done
}

# The debug kernel (the whole suite) and the tracepoint-only kernel with
# the same config (the stress tests, 60 s each, as inside that suite), at
# the same time.
debug_pair() {
	boot_guest debug-smt smt "$WP_BUILD/variants/debug/obj/arch/x86/boot/bzImage" "" "" \
		--debug &
	boot_guest base-debug-smt smt \
		"$WP_BUILD/tracepoint/variants/debug/obj/arch/x86/boot/bzImage" "" "" \
		--stress "-d 60" &
	wait
}

# Two guests at once on the same preset, each with its own run-selftests.sh
# mode, the same extra arguments.
boot_pair() {	# name preset kernel mode ref-name ref-kernel ref-mode [args...]
	local a=$1 p=$2 k=$3 m=$4 b=$5 kb=$6 mb=$7
	shift 7
	boot_guest "$a" "$p" "$k" "" "" "$m" "$@" &
	boot_guest "$b" "$p" "$kb" "" "" "$mb" "$@" &
	wait
}

# make test-full: the build matrix's result lines join the summary.
matrix_checks() {
	rm -f "$WP_BUILD/matrix/results.txt"
	wp_child "$S/matrix.sh" || true
	if [ -s "$WP_BUILD/matrix/results.txt" ]; then
		cp "$WP_BUILD/matrix/results.txt" "$run/matrix.result"
	else
		echo "matrix fail matrix.sh no results (see the log above)" > "$run/matrix.result"
	fi
}

# make test-full: a failure of the base kernel, or of the series' kernel
# in a check the base kernel fails too, is a baseline issue.
mark_baseline() {	# results-file
	awk '
	# series-P is compared with base-P, debug-P with base-debug-P.
	{ line[NR] = $0; p[NR] = $1; st[NR] = $2; t[NR] = $3
	  if ($1 ~ /^base-/ && $2 == "fail") basefail[substr($1, 6) " " $3] = 1 }
	END {
		for (i = 1; i <= NR; i++) {
			l = line[i]; k = p[i]; sub(/^series-/, "", k)
			if (st[i] == "fail" && (p[i] ~ /^base-/ || basefail[k " " t[i]]))
				sub(/ fail /, " baseline ", l)
			print l
		}
	}' "$1"
}

# make test-full: the stock branches (not the series') of the series'
# kernel against the tracepoint-only kernel's: how often each chose a CPU
# outside the wakee's mask or an inactive one, in hotplug_test and
# affinity_churn_test, chunk by chunk (stockcmp: a rank test over 5 s
# chunks, Holm-adjusted; a branch differs at p < 0.01 and a factor of 2
# between the pooled rates, in either direction; a branch seen in too few
# chunks for any p below 0.01 is a skip saying so).  These choices come in
# bursts (a CPU going offline draws many wakeups at once): two pairs of
# boots of the same two kernels had summed counts 4 to 9 binomial standard
# errors apart, in both directions; ranks over chunks are not moved by one
# burst.  Its lines join the results as the series boot's.
compare_stock() {	# boot reference-boot
	local p=$1 ref=$2 rc=0
	if [ ! -s "$run/$p/kselftest.tap" ] || [ ! -s "$run/$ref/kselftest.tap" ]; then
		echo "$p fail stock:output no stress test output from $p or $ref"
		return 0
	fi
	"$WP_BUILD/kselftest/sched/stockcmp" "$run/$p/kselftest.tap" "$run/$ref/kselftest.tap" \
		> "$run/$p/stockcmp.txt" 2>&1 || rc=$?
	case $rc in
	0|1) sed "s/^/$p /" "$run/$p/stockcmp.txt" ;;
	*) echo "$p fail stock:stockcmp exit $rc: $(tail -1 "$run/$p/stockcmp.txt")" ;;
	esac
}

summarise() {
	local results=$run/results.txt pass fail skip f
	{
		[ ! -f "$run/host.result" ] || cat "$run/host.result"
		for p in "${boots[@]}"; do parse_results "$p"; done
		for f in bench-smoke bench-icount interrupt stock matrix; do
			[ ! -f "$run/$f.result" ] || cat "$run/$f.result"
		done
	} > "$results"
	# An unexpected skip is a failure.  test-full's boots ("series-smt",
	# "debug-smt") expect their preset's skips; on the debug kernel a
	# placement threshold missed is reported as a skip (placement.h).
	awk -v expected="$S/expected-skips" '
	BEGIN { while ((getline l < expected) > 0) if (l !~ /^#/ && l != "") { split(l, f, "\t"); ok[f[1] " " f[2]] = 1 } }
	{ p = $1; sub(/^((series|base|debug)-)+/, "", p) }
	$2 == "skip" && $1 ~ /^debug-/ && /printed, not gated/ { print; next }
	# stockcmp: a stock branch used in too few chunks for any verdict.
	$2 == "skip" && $3 ~ /^stock:/ && /no verdict/ { print; next }
	$2 == "skip" && !ok[p " " $3] { $2 = "fail"; $0 = $0 " (unexpected skip)" }
	{ print }' "$results" > "$results.new" && mv "$results.new" "$results"
	if [ -n "$full" ]; then
		mark_baseline "$results" > "$results.new" && mv "$results.new" "$results"
		echo "baseline issues (the tracepoint-only kernel fails them too): $(grep -c ' baseline ' "$results" || true)"
		grep ' baseline ' "$results" | sed 's/^/  /' || true
	fi
	awk '$2 != "pass" && $2 != "baseline" { print "  " $0 }' "$results" >&2
	for p in $([ -n "$full" ] || echo host) "${boots[@]}"; do
		printf '%-6s %3d passed, %d failed, %d skipped\n' "$p" \
			"$(grep -c "^$p pass " "$results" || true)" \
			"$(grep -c "^$p fail " "$results" || true)" \
			"$(grep -c "^$p skip " "$results" || true)"
	done
	if [ -f "$run/retries.txt" ]; then
		echo "boot retries:" >&2
		sed 's/^/  /' "$run/retries.txt" >&2
	fi
	if [ -f "$run/bench-smoke.result" ]; then
		printf '%-6s %3d passed, %d failed\n' bench \
			"$(grep -c "^bench pass " "$results" || true)" \
			"$(grep -c "^bench fail " "$results" || true)"
	fi
	if [ -f "$run/matrix.result" ]; then
		printf '%-6s %3d passed, %d failed\n' matrix \
			"$(grep -c "^matrix pass " "$results" || true)" \
			"$(grep -c "^matrix fail " "$results" || true)"
	fi
	printf 'stage times: %s; total %d s\n' "${WP_TIMES[*]}" "$(($(date +%s) - t_start))"
	echo "results: $run"
	# The status is the second field: a detail may quote a tool's own
	# "fail" (tools-test's stockcmp cases do).
	pass=$(awk '$2 == "pass"' "$results" | wc -l)
	fail=$(awk '$2 == "fail"' "$results" | wc -l)
	skip=$(awk '$2 == "skip"' "$results" | wc -l)
	echo "$pass passed, $fail failed, $skip skipped" | tee "$run/summary.txt"
	[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
}

test_kept() { echo "partial results in $run"; }
WP_ON_SIGNAL=test_kept
mkdir -p "$run"
if [ -n "$full" ]; then
	stage deps "$S/deps.sh"
	stage tree "$S/tree.sh"
	stage build "$S/build.sh"
	stage build-tracepoint "$S/build.sh" --tracepoint
	stage kselftest-tar unpack_tar
	stress_boots
	stage build-debug "$S/build.sh" --variant debug
	stage build-tracepoint-debug "$S/build.sh" --tracepoint --variant debug
	boots+=(debug-smt base-debug-smt)
	stage debug-pair debug_pair
	{
		for p in "${presets[@]}"; do compare_stock "series-$p" "base-$p"; done
		compare_stock debug-smt base-debug-smt
	} > "$run/stock.result"
	stage matrix matrix_checks
	summarise
	exit
fi
stage script-checks script_checks
stage deps "$S/deps.sh"
stage tree "$S/tree.sh"
stage host-checks host_checks
stage check-patches "$S/check-patches.sh"
stage build "$S/build.sh"
stage tools tools_checks
stage kselftest-tar unpack_tar
stage check-series "$S/check-series.sh"
if [ "$boot_jobs" = 1 ]; then
	for p in "${presets[@]}"; do
		stage "boot-$p" boot_preset "$p"
	done
else
	stage "boots(x$boot_jobs)" boot_parallel
fi
case " ${boots[*]} " in *" core "*) stage boot-core core_sched_boot ;; esac
case " ${boots[*]} " in *" napi "*) stage boot-napi napi_boot ;; esac
stage bench-smoke bench_smoke
stage bench-icount bench_icount_smoke
stage interrupt interrupt_checks
summarise
