#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 7: what the series costs, measured against the unpatched baseline.
#
#   layout   struct task_struct and struct rq, baseline against series:
#            pahole on kernel/sched/core.o built with DWARF debug info, for
#            the guest config and for Debian's own (linux-config-6.12,
#            amd64_none_amd64); only that object is built, in
#            build/cost/layout/<config>-<kernel>.
#   clocks   sched_clock_cpu() calls per wakeup (guest/clock-reads.sh:
#            kprobe events), baseline kernel against the series with its
#            features off and with SIS_CACHE on, one boot per arm.
#   worst    SIS_CACHE's worst case (guest/sis-worst.sh): a short sleeper on
#            every CPU keeps every idle CPU reserved while pipe pairs wake;
#            scan length, CPUs passed over, branches, wake->run p99 and time
#            per op, features off against SIS_CACHE on.
#   scale    the worst case on one-LLC guests of 4, 8, 16 and 32 CPUs (raw
#            -smp, no SMT): scan length and time per op against LLC size,
#            a table and a plot (scale.svg).
#   keys     where the features' static keys sit in kernel/sched/fair.o and
#            what the code holds there with them off (NOPs), and the clock
#            reads the series adds per function against the baseline.
#   v1       SIS_CACHE v1's regression loads (tbench, a hackbench group
#            sweep, wakelat p99), features off against SIS_CACHE on, with
#            bench.sh's verdicts; REPS: measured rounds.
#   aa       the A/A reference: the kernel with only the tracepoint patch
#            (build.sh --tracepoint), booted twice, against the series with
#            both features off: clock reads per wakeup, CPUs examined and
#            each branch's share (wakestat), series median inside the band
#            of the reference's runs or not.
#
# Options: -I, --icount  instruction-time guests (vm.sh -I): repeatable, path
#          length only (scale always runs so); -t TOPO  the guest topology
#          (clocks, worst, v1, aa; default smt); -s SLEEP_US,WORK_US  the
#          sleepers of worst and scale (default 100,20); -m NS
#          migration_cost_ns in the guest for worst and scale, what counts
#          as a short sleep (default 0.5 ms): plain TCG stretches a 300 us
#          sleep to about 1.4 ms, so that no reservation forms; there use
#          -s 300,60 -m 5000000.  REPS runs per arm (default 3).
# Builds what is missing (the baseline kernel with build.sh --baseline).
# Results go to build/cost/<what>-<date>/ and are printed; every table says
# which accelerator ran.
#
# usage: cost.sh layout|keys | clocks|worst|scale|v1|aa [-I] [-t TOPO] [-s S,W] [-m NS] [REPS]
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage="usage: $WP_ME layout|keys | clocks|worst|scale|v1|aa [-I] [-t TOPO] [-s S,W] [-m NS] [REPS]"
[ $# -ge 1 ] || die "$usage"
what=$1; shift
icount= topo=smt reps=3
# sis-worst.sh's sleepers: 100 us asleep, 20 us busy (-s)
WORST_SLEEPERS=100,20
# migration_cost_ns in the guest while it runs (-m; empty: the default)
WORST_COST=
case $what in
layout|keys) [ $# = 0 ] || die "$usage" ;;
clocks|worst|scale|v1|aa)
	while [ $# -gt 0 ]; do
		case $1 in
		-I|--icount) icount=1; shift ;;
		-s) [[ ${2:-} =~ ^[1-9][0-9]*,[0-9]+$ ]] ||
			die "-s wants SLEEP_US,WORK_US (the sleepers of worst and scale)"
		    WORST_SLEEPERS=$2; shift 2 ;;
		-m) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] ||
			die "-m wants nanoseconds (migration_cost_ns for worst and scale)"
		    WORST_COST=$2; shift 2 ;;
		-t) [ $what != scale ] || die "scale: the topologies are fixed (one LLC of 4 ... 32 CPUs)"
		    topo=${2:?"$usage"}; shift 2 ;;
		-*) die "$usage" ;;
		*) [ $# = 1 ] || die "$usage"
		   [[ $1 =~ ^[1-9][0-9]*$ ]] || die "$what: REPS must be a positive number, not '$1'"
		   reps=$1; shift ;;
		esac
	done ;;
-h|--help) wp_help; exit 0 ;;
*) die "$usage" ;;
esac
[ $what != scale ] || icount=1

require_tree
"$WP_ROOT/scripts/deps.sh" --check
COST=$WP_BUILD/cost

# Make @obj's .config from @base (a .config file, or "debian") with DWARF
# debug info, then build only kernel/sched/core.o from @src.
layout_build() {	# src obj base
	local src=$1 obj=$2 base=$3
	local kmake=(make -C "$src" "${KMAKE_VARS[@]}" -j"$(nproc)" -s O="$obj" CC="ccache gcc")
	mkdir -p "$obj"
	if [ "$base" = debian ]; then
		debian_config "$src" "$obj/.config.new"
	else
		cp "$base" "$obj/.config.new"
		"$src/scripts/config" --file "$obj/.config.new" \
			-d DEBUG_INFO_NONE -e DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT
	fi
	cmp -s "$obj/.config.new" "$obj/.config.in" 2>/dev/null ||
		{ cp "$obj/.config.new" "$obj/.config.in"; cp "$obj/.config.new" "$obj/.config"; }
	rm -f "$obj/.config.new"
	"${kmake[@]}" olddefconfig >/dev/null
	grep -q '^CONFIG_DEBUG_INFO=y' "$obj/.config" ||
		die "$obj: no CONFIG_DEBUG_INFO after olddefconfig"
	"${kmake[@]}" prepare >/dev/null || die "$obj: make prepare failed"
	"${kmake[@]}" kernel/sched/core.o || die "$obj: kernel/sched/core.o failed"
}

# "size: N, cachelines: M" of @struct in @obj's core.o, then the series'
# own members with their offsets (none in the baseline).
layout_summary() {	# obj struct
	local o=$1/kernel/sched/core.o
	pahole -C "$2" "$o" > "$1/$2.txt" || die "pahole -C $2 $o failed"
	awk -v s="$2" '/\/\* size:/ { gsub(/[\/*,]/, ""); print s ": size " $2 " bytes, " $4 " cachelines" }' "$1/$2.txt" | tail -1
	grep -E 'short_sleep|sis_reserved' "$1/$2.txt" |
		sed -e 's/^[[:space:]]*/    /' -e 's/[[:space:]]\{2,\}/ /g' || :
}

# Members of @struct that the series moves to another cache line by other
# than whole lines (they leave their neighbours), top-level members only:
# "name +delta (line a -> b)".
layout_moved() {	# struct baseline-obj series-obj
	local m='s|^\t[^\t/].*[^a-z_0-9]\([a-z_][a-z_0-9]*\)\(\[[^]]*\]\)*\( __attribute__.*\)*;[[:space:]]*/\*[[:space:]]*\([0-9]*\)[[:space:]].*|\1 \4|p'

	awk 'NR == FNR { b[$1] = $2; next }
	     ($1 in b) && ($2 - b[$1]) % 64 && int(b[$1] / 64) != int($2 / 64) {
		printf "%s %+d (line %d -> %d)\n", $1, $2 - b[$1], b[$1] / 64, $2 / 64 }' \
		<(sed -n "$m" "$2/$1.txt") <(sed -n "$m" "$3/$1.txt")
}

do_layout() {
	local cfg k src base obj s
	[ -d "$WP_BUILD/baseline/linux" ] || "$WP_ROOT/scripts/build.sh" --baseline
	[ -f "$WP_OBJ/.config" ] || die "no $WP_OBJ/.config: run make build first"
	mkdir -p "$COST/layout"
	for cfg in guest debian; do
		for k in baseline series; do
			if [ $k = baseline ]; then
				src=$WP_BUILD/baseline/linux base=$WP_BUILD/baseline/obj/.config
			else
				src=$WP_TREE base=$WP_OBJ/.config
			fi
			[ $cfg = guest ] || base=debian
			obj=$COST/layout/$cfg-$k
			log "building $cfg-$k core.o with debug info ($(git -C "$src" describe --always))"
			layout_build "$src" "$obj" "$base"
		done
	done
	{
		echo "# pahole -C task_struct,rq kernel/sched/core.o (DWARF), $(date -u +%FT%TZ)"
		echo "# series at $(tgit rev-parse --short=12 HEAD), baseline $WP_BASE_TAG"
		for cfg in guest debian; do
			for k in baseline series; do
				echo "$cfg config, $k:"
				layout_summary "$COST/layout/$cfg-$k" task_struct | sed 's/^/  /'
				layout_summary "$COST/layout/$cfg-$k" rq | sed 's/^/  /'
			done
			echo "  moved to another cache line by the series ($cfg config):"
			for s in task_struct rq; do
				layout_moved $s "$COST/layout/$cfg-baseline" "$COST/layout/$cfg-series" |
					sed "s/^/    $s./"
			done
		done
	} | tee "$COST/layout/summary.txt"
	log "full pahole output: $COST/layout/*/{task_struct,rq}.txt"
}

# awk functions the tables share: sort a[1..n] numerically in place, and
# the median of a sorted a[1..n].
AWK_MEDIAN='
function sort_n(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i] + 0
		for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function median_sorted(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
'

# The rows of guest/clock-reads.sh in @logs: median per-wakeup count per
# load and arm, against the baseline's.
clocks_table() {	# logs...
	awk "$AWK_MEDIAN"'
	/^clock-reads / { k = $2 " " $3; v[k] = v[k] " " $NF; n[k]++; w[k] += $9
		if (!(k in seen)) { seen[k] = 1; ord[++m] = k } }
	END {
		printf "%-8s %-10s %4s %10s %14s %10s\n", "load", "arm", "n", "wakeups", "sclk/wakeup", "vs base"
		for (i = 1; i <= m; i++) {
			k = ord[i]; c = split(substr(v[k], 2), a, " ")
			sort_n(a, c); med = median_sorted(a, c)
			split(k, lk, " "); if (lk[2] == "base") b[lk[1]] = med
			d = (lk[1] in b) ? sprintf("%+.3f", med - b[lk[1]]) : "-"
			printf "%-8s %-10s %4d %10d %14.3f %10s   (min %.3f max %.3f)\n", lk[1], lk[2], c, w[k], med, d, a[1], a[c]
		}
	}' "$@"
}

do_clocks() {
	local k kernel out arm
	local base_k=$WP_BUILD/baseline/obj/arch/x86/boot/bzImage
	[ -f "$base_k" ] || "$WP_ROOT/scripts/build.sh" --baseline
	[ -f "$WP_OBJ/arch/x86/boot/bzImage" ] || "$WP_ROOT/scripts/build.sh"
	[ -x "$WP_BUILD/kselftest/sched/wakebench" ] || "$WP_ROOT/scripts/build.sh" --selftests
	out=$COST/clocks-$(date -u +%Y%m%d-%H%M%S)
	mkdir -p "$out"
	# One boot per arm: what one arm leaves behind does not meet the next.
	for k in baseline off SIS_CACHE; do
		kernel=$WP_OBJ/arch/x86/boot/bzImage arm=(-a "$k")
		[ $k != baseline ] || kernel=$base_k arm=()
		log "$k: booting $topo${icount:+ (icount)} with guest/clock-reads.sh ($reps runs per load)"
		wp_child "$WP_ROOT/scripts/vm.sh" ${icount:+-I} -t "$topo" -k "$kernel" -o "$out/$k" -- \
			"$WP_ROOT/guest/clock-reads.sh" "${arm[@]}" "$WP_BUILD/kselftest/sched/wakebench" "$reps" ||
			die "$k: the guest failed (see $out/$k/output.log)"
	done
	clocks_table "$out"/{baseline,off,SIS_CACHE}/output.log | tee "$out/summary.txt"
	log "sched_clock_cpu() hits per try_to_wake_up() hit, median of $reps runs of 1 s (${icount:+icount, }$topo); raw: $out/*/output.log"
}


# The rows of guest/sis-worst.sh in @logs, summarised per label (the file's
# directory name) and arm, medians over the runs: time per op, wakeups
# decided, the share that scanned (chosen by the idle-core, idle-CPU or
# reserved branch, or by none), CPUs examined and passed over per scanning
# wakeup, the reserved fallback's share of them, wake->run p99; "max": the
# longest scan and most passes of any one wakeup in any run.
worst_table() {	# logs...
	awk "$AWK_MEDIAN"'
	FNR == 1 { lab = FILENAME; sub(/\/output\.log$/, "", lab); sub(/.*\//, "", lab) }
	/^worst [^ ]+ run [0-9]+:/ {
		k = lab " " $2
		if (!(k in seen)) { seen[k] = 1; ord[++m] = k }
		n[k]++
		for (i = 5; i < NF; i += 2) v[k, $i, n[k]] = $(i + 1)
	}
	function med(k, f,   c, i, a) {
		c = n[k]
		for (i = 1; i <= c; i++) a[i] = v[k, f, i] + 0
		sort_n(a, c)
		return median_sorted(a, c)
	}
	function least(k, f,   i, x) {
		x = v[k, f, 1] + 0
		for (i = 2; i <= n[k]; i++) if (v[k, f, i] + 0 < x) x = v[k, f, i] + 0
		return x
	}
	function most(k, f,   i, x) {
		x = -1
		for (i = 1; i <= n[k]; i++) if (v[k, f, i] + 0 > x) x = v[k, f, i] + 0
		return x
	}
	END {
		printf "%-8s %-9s %2s %10s %6s %7s %8s %8s %6s %4s %6s %4s %8s %7s\n", "guest", "arm", "n",
		       "us/op", "spread", "vs off", "wakeups", "scanned", "CPUs", "max", "passed", "max", "reserved", "p99 us"
		for (o = 1; o <= m; o++) {
			k = ord[o]; split(k, lk, " ")
			u = med(k, "us_per_op"); if (lk[2] == "off") off[lk[1]] = u
			d = med(k, "decided")
			s = med(k, "idle_cpu") + med(k, "idle_core") + med(k, "reserved") + med(k, "none")
			printf "%-8s %-9s %2d %10.3f %5.2f%% %7s %8d %7.1f%% %6.2f %4d %6.2f %4d %7.1f%% %7.1f\n",
			       lk[1], lk[2], n[k], u, u ? 100 * (most(k, "us_per_op") - least(k, "us_per_op")) / u : 0,
			       (lk[1] in off) ? sprintf("%+.2f%%", 100 * (u / off[lk[1]] - 1)) : "-",
			       d, d ? 100 * s / d : 0, s ? med(k, "scan_mean") * d / s : 0,
			       most(k, "scan_max"), s ? med(k, "passed_sum") / s : 0,
			       most(k, "passed_max"), s ? 100 * med(k, "reserved") / s : 0,
			       med(k, "lat_p99_us")
		}
	}' "$@"
}

# Boot the series kernel on @topo with guest/sis-worst.sh into @dir.
worst_boot() {	# topo dir pairs
	log "worst case on $1 (${icount:+icount, }$reps runs per arm, $3 pipe pairs)"
	wp_child "$WP_ROOT/scripts/vm.sh" ${icount:+-I} -t "$1" -T 3600 -o "$2" -- \
		"$WP_ROOT/guest/sis-worst.sh" "$WP_BUILD/kselftest/sched" "$reps" pipe "$3" \
		"$WORST_SLEEPERS" 1 $WORST_COST || die "$1: the guest failed (see $2/output.log)"
}

do_worst() {
	local out m
	worst_need
	out=$COST/worst-$(date -u +%Y%m%d-%H%M%S)
	worst_boot "$topo" "$out/$topo" 2
	{
		echo "# SIS_CACHE's worst case: a sleeper on every CPU ($WORST_SLEEPERS us asleep,busy), 2 pipe pairs, 1 s runs${WORST_COST:+, migration_cost_ns $WORST_COST}"
		if [ -n "$icount" ]; then m="instruction-time (path length, not caches)"; else m="wall time under that accelerator"; fi
		echo "# accelerator: $(worst_accel "$out/$topo"); us/op is $m"
		worst_table "$out/$topo/output.log"
	} | tee "$out/summary.txt"
	log "raw: $out/$topo/output.log (worst-json: wakestat's report of each run)"
}

# The A/A reference for "features off changes nothing": the kernel with
# only the tracepoint patch (build.sh --tracepoint), booted twice, and the
# series kernel with both features off, once, each running
# guest/clock-reads.sh and guest/branches.sh.  Per load: the band the
# reference's runs span (both boots) for clock reads per wakeup, CPUs
# examined per wakeup and each branch's share of the decisions, and the
# series' median with its range, inside the band or not.
do_aa() {
	local b kernel out cmd
	local tp_k=$WP_BUILD/tracepoint/obj/arch/x86/boot/bzImage
	[ -f "$tp_k" ] || "$WP_ROOT/scripts/build.sh" --tracepoint
	worst_need
	out=$COST/aa-$(date -u +%Y%m%d-%H%M%S)${icount:+-icount}-$topo
	mkdir -p "$out"
	for b in tracepoint-A tracepoint-B series-off; do
		kernel=$tp_k
		[ $b != series-off ] || kernel=$WP_OBJ/arch/x86/boot/bzImage
		printf -v cmd '%q %s %q %s && %q %q %s' "$WP_ROOT/guest/clock-reads.sh" \
			"$([ $b != series-off ] || echo '-a off')" "$WP_BUILD/kselftest/sched/wakebench" "$reps" \
			"$WP_ROOT/guest/branches.sh" "$WP_BUILD/kselftest/sched" "$reps"
		log "$b: booting $topo${icount:+ (icount)}: clock reads and branches, $reps runs per load"
		wp_child "$WP_ROOT/scripts/vm.sh" ${icount:+-I} -t "$topo" -T 3600 -k "$kernel" -o "$out/$b" -- \
			sh -c "$cmd" || die "$b: the guest failed (see $out/$b/output.log)"
	done
	{
		echo "# A/A: tracepoint-only kernel, 2 boots x $reps runs per load, against the series with both features off (1 boot)"
		echo "# accelerator: $(worst_accel "$out/series-off"), topology $topo; branch rows: % of the wakeups decided"
		aa_table "$out"/{tracepoint-A,tracepoint-B,series-off}/output.log
	} | tee "$out/summary.txt"
	log "raw: $out/*/output.log"
}

aa_table() {	# logs...
	awk "$AWK_MEDIAN"'
	function note(l, m) { if (!((l, m) in seen)) { seen[l, m] = 1; ord[++no] = l SUBSEP m } }
	FNR == 1 { g = FILENAME ~ /series-off\/output\.log$/ ? "S" : "A" }
	/^clock-reads / { r = ++nr; L[r] = $2; G[r] = g; T[r] = "c"; V[r, "sclk/wakeup"] = $NF; note($2, "sclk/wakeup") }
	/^branches / {
		r = ++nr; L[r] = $2; G[r] = g; T[r] = "b"; d = $6
		V[r, "scan/wakeup"] = $8; note($2, "scan/wakeup")
		for (i = 9; i < NF; i += 2) { m = $i " %"; V[r, m] = d ? 100 * $(i + 1) / d : 0; note($2, m) }
	}
	END {
		printf "%-8s %-16s %19s %4s %9s %19s %4s  %s\n", "load", "metric", "A/A band", "n", "series", "series range", "n", "verdict (by)"
		out = 0; far = 0
		for (o = 1; o <= no; o++) {
			split(ord[o], lm, SUBSEP); l = lm[1]; m = lm[2]; t = m == "sclk/wakeup" ? "c" : "b"
			na = ns = 0; lo = 1e18; hi = -1e18
			for (r = 1; r <= nr; r++) {
				if (L[r] != l || T[r] != t) continue
				v = ((r, m) in V) ? V[r, m] : 0
				if (G[r] == "A") { na++; if (v < lo) lo = v; if (v > hi) hi = v }
				else s[++ns] = v
			}
			if (!ns || !na) continue
			sort_n(s, ns); med = median_sorted(s, ns)
			by = med < lo ? med - lo : med > hi ? med - hi : 0
			if (by) { out++; if (by * by > far * far) { far = by; farm = l " " m } }
			printf "%-8s %-16s %8.3f .. %8.3f %4d %9.3f %8.3f .. %8.3f %4d  %s\n", l, m, lo, hi, na, med, s[1], s[ns], ns, by ? sprintf("OUTSIDE (%+.3g)", by) : "inside"
		}
		printf "%d of %d medians outside the A/A band", out, no
		if (out) printf "; farthest: %s, %+.3g", farm, far
		printf "\n"
	}' "$@"
}

# SIS_CACHE v1's regression loads, features off against SIS_CACHE on, by
# the series' A/B runner (bench.sh, ab.sh): tbench at 2 and 8 clients,
# hackbench (pipes, 100 loops) at 1, 4 and 16 groups (16: twice the
# guest's CPUs), and wakebench wakelat p99 at 2 and 8 pairs.
do_v1() {
	local out=$COST/v1-$(date -u +%Y%m%d-%H%M%S)${icount:+-icount}-$topo
	local c g w=()
	for c in 2 8; do
		w+=(-w "tbench$c|higher|Throughput ([0-9.]+)|$WP_ROOT/guest/tbench.sh $c 2")
	done
	for g in 1 4 16; do
		w+=(-w "hackbench-g$g|lower|Time: ([0-9.]+)|hackbench -p -g $g -l 100")
	done
	log "v1 loads on $topo${icount:+ (icount)}, $reps measured rounds; results in $out"
	wp_child "$WP_ROOT/scripts/bench.sh" ${icount:+--icount} -t "$topo" -a base,SIS_CACHE \
		-l wakelat -n 2,8 -d 1 "${w[@]}" -r "$reps" -o "$out" ||
		die "v1: bench.sh failed (see $out)"
}

# @o's jump-label sites keyed on the series' features: "function feature
# instruction" per site, the instruction as compiled (a NOP while the key is
# off, patched to a jump when it is switched on).
keys_sites() {	# object features.h
	local feats
	feats=$(gcc -E -P -include "$WP_OBJ/include/generated/autoconf.h" \
		-D'SCHED_FEAT(name, enabled)=name' -x c "$2" | tr -s ' \n' '  ')
	awk -v feats="$feats" '
	function hex(s,   i, v) {
		sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { nf = split(feats, F, " ") }
	FILENAME ~ /\.sym$/ {		# objdump -t: value flags section size name
		if ($3 == "F" && $4 ~ /^\./) { n = ++ns; sv[n] = hex($1); ss[n] = hex($5); sc[n] = $4; sn[n] = $6 }
		next }
	FILENAME ~ /\.dis$/ {
		if (/^Disassembly of section /) { sec = $4; sub(/:$/, "", sec); next }
		if (match($0, /^ *[0-9a-f]+:\t/)) { a0 = substr($0, 1, RLENGTH - 2); gsub(/ /, "", a0); ins = substr($0, RLENGTH + 1); gsub(/\t/, " ", ins); I[sec ":" hex(a0)] = ins }
		next }
	$2 ~ /^R_X86_64_PC/ {		# __jump_table relocations: code, target, key
		e = int(hex($1) / 16); f = hex($1) % 16
		if (f == 0) { split($3, a, "+"); code[e] = a[1] ":" hex(a[2]) }
		else if (f == 8 && $3 ~ /^sched_feat_keys/) { split($3, a, "+"); key[e] = int(hex(a[2]) / 16) }
	}
	END {
		for (e in key) {
			name = F[key[e] + 1]
			if (name != "SIS_CACHE" && name != "SIS_SYNC_CORE") continue
			split(code[e], c, ":"); fn = "?"
			for (n = 1; n <= ns; n++)
				if (sc[n] == c[1] && c[2] >= sv[n] && c[2] < sv[n] + ss[n]) fn = sn[n]
			print fn, name, I[code[e]]
		}
	}' "$TMPK.sym" "$TMPK.dis" <(objdump -r -j __jump_table "$1")
}

# Calls to the scheduler's clocks in @o, per function: "function callee count".
keys_clock_calls() {	# object
	objdump -dr "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
		/R_X86_64_PLT32\t(local_clock|sched_clock_cpu|sched_clock|sched_clock_noinstr)-0x4/ {
			cal = $3; sub(/-0x4$/, "", cal); n[fn " " cal]++ }
		END { for (k in n) print k, n[k] }' | sort
}

# The features' static keys in the series' fair.o: where they sit and what
# the code holds there with the features off; the clock reads that the
# series adds, per function, against the baseline's fair.o.
do_keys() {
	local o=$WP_OBJ/kernel/sched/fair.o b=$WP_BUILD/baseline/obj/kernel/sched/fair.o
	[ -f "$o" ] || "$WP_ROOT/scripts/build.sh"
	[ -f "$b" ] || "$WP_ROOT/scripts/build.sh" --baseline
	grep -q '^CONFIG_JUMP_LABEL=y' "$WP_OBJ/.config" ||
		die "the guest config has no CONFIG_JUMP_LABEL: sched_feat() is not a static key there"
	mkdir -p "$COST"
	TMPK=$COST/keys.fair
	objdump -t "$o" > "$TMPK.sym"
	objdump -d --no-show-raw-insn "$o" > "$TMPK.dis"
	{
		echo "# static-key sites of SIS_CACHE and SIS_SYNC_CORE in kernel/sched/fair.o (guest config, $(tgit rev-parse --short=12 HEAD)):"
		echo "# function, feature, the instruction there while the feature is off"
		keys_sites "$o" "$WP_TREE/kernel/sched/features.h" | sort | uniq -c | sed 's/^ */  /'
		echo "# calls to local_clock()/sched_clock_cpu() per function: baseline -> series (changed ones only)"
		join -a1 -a2 -e0 -o 0,1.2,2.2 <(keys_clock_calls "$b" | awk '{ print $1 "/" $2, $3 }') \
			<(keys_clock_calls "$o" | awk '{ print $1 "/" $2, $3 }') |
			awk '$2 != $3 { printf "  %-40s %s -> %s\n", $1, $2, $3 }'
	} | tee "$COST/keys.txt"
	rm -f "$TMPK.sym" "$TMPK.dis"
}

do_scale() {
	local out n rows=()
	worst_need
	out=$COST/scale-$(date -u +%Y%m%d-%H%M%S)
	for n in 4 8 16 32; do
		worst_boot "$n,sockets=1,cores=$n,threads=1" "$out/smp$n" $((n / 4))
		rows+=("$out/smp$n/output.log")
	done
	{
		echo "# SIS_CACHE's worst case against LLC size: one-LLC guests, no SMT, a sleeper on every CPU ($WORST_SLEEPERS), CPUs/4 pipe pairs, 1 s runs"
		echo "# accelerator: icount; us/op is instruction-time (path length, not caches)"
		worst_table "${rows[@]}"
	} | tee "$out/summary.txt"
	awk 'NR > 3 { n = $1; sub(/smp/, "", n); if ($2 == "off") { o[n] = $9; u[n] = $4 } else print n, o[n], $9, $11, 100 * ($4 / u[n] - 1), $10 }' \
		"$out/summary.txt" > "$out/scale.dat"
	gnuplot -e "set terminal svg size 800,480 noenhanced; set output '$out/scale.svg';
		set title \"SIS_CACHE worst case: every idle CPU reserved (icount)\";
		set xlabel 'CPUs in the LLC'; set logscale x 2; set xtics (4, 8, 16, 32);
		set ylabel 'CPUs per scanning wakeup (mean)'; set y2label 'time per op, on vs off (%)'; set y2tics; set ytics nomirror;
		set key top left;
		plot '$out/scale.dat' using 1:2 with linespoints title 'scan length, off',
		     '' using 1:3 with linespoints title 'scan length, SIS_CACHE',
		     '' using 1:4 with linespoints title 'passed over, SIS_CACHE',
		     '' using 1:5 axes x1y2 with linespoints title 'time per op (right)'" ||
		die "gnuplot failed"
	log "table: $out/summary.txt; plot: $out/scale.svg; raw: $out/smp*/output.log"
}

worst_need() {
	[ -f "$WP_OBJ/arch/x86/boot/bzImage" ] || "$WP_ROOT/scripts/build.sh"
	[ -x "$WP_BUILD/kselftest/sched/wakestat" ] || "$WP_ROOT/scripts/build.sh" --selftests
}

# "icount", "tcg" or "kvm", from vm.sh's run record in @dir.
worst_accel() {
	sed -n 's/^accelerator: \([a-z]*\).*/\1/p' "$1/run.txt" 2>/dev/null | head -n 1
}

case $what in
layout) do_layout ;;
clocks) do_clocks ;;
worst) do_worst ;;
scale) do_scale ;;
v1) do_v1 ;;
aa) do_aa ;;
keys) do_keys ;;
esac
