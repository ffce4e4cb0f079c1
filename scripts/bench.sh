#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make bench': A/B verdict on the series' features in a guest.
#
# Boots the guest kernel on a topology preset, runs scripts/ab.sh inside
# (rounds of workloads x feature arms, arms in a seeded random order per
# round), then prints abstat's table: per arm n, median, CV; per
# comparison with the base arm the change of the median with a bootstrap
# 95% CI, the Mann-Whitney p-value, Holm-adjusted across the table, the
# verdict and the runs needed; and the placement evidence per arm.
#
# usage: bench.sh [options]
#   -t PRESET     topology preset (default smt; see scripts/vm.sh)
#   -l LOADS      comma list (default pipe,tcp_rr,udp_rr,tcp_stream,hackbench):
#                 pipe pipe-thread tcp_rr udp_rr tcp_stream udp_stream
#                 wakelat hackbench perfpipe
#   -n LEVELS     pairs per wakebench load, comma list of 1, half, cpus,
#                 2cpus or numbers (default 1,cpus)
#   -p PLACEMENTS wakebench placements, comma list (default unbound):
#                 unbound stacked cross-smt cross-core cross-llc; pinned
#                 placements leave the scheduler no choice: use them once,
#                 as a reference table, not to compare arms
#   --reference   the per-machine reference table: every pinned placement
#                 the topology has, base arm only (same as
#                 -p stacked,cross-smt,cross-core,cross-llc -a base)
#   -a ARMS       comma list of base, SIS_SYNC_CORE, SIS_CACHE, both, or
#                 NAME=FEAT+FEAT (default base,SIS_SYNC_CORE,SIS_CACHE,both);
#                 the first is the base of the comparisons
#   --aa          A/A run: two arms with identical (no) features
#   -r ROUNDS     measured rounds (default 5)
#   -W ROUNDS     warm-up rounds, discarded (default 1)
#   -d SECONDS    duration of one wakebench run (default 2)
#   -s SEED       permutation and bootstrap seed (default random, recorded)
#   -w SPEC       extra workload NAME|lower-or-higher|REGEX|COMMAND (repeatable)
#   -o DIR        results directory (default build/results/bench-<date>)
#   -T SECONDS    guest timeout per boot (default 3600)
#   -k KERNELS    comma list of series (the built series kernel) and baseline
#                 (the unpatched 6.12 baseline, built on first use), e.g.
#                 baseline,series: each kernel is booted in turn, in a seeded
#                 order, -b times; arms with features run on the series
#                 only, "base" on both; comparisons are against
#                 baseline:base, and the between-boot spread is reported
#   -b BOOTS      boots per kernel with -k (default 2)
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage() { sed -n '/^# usage:/,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

preset=smt loads=pipe,tcp_rr,udp_rr,tcp_stream,hackbench levels=1,cpus
placement=unbound arms=base,SIS_SYNC_CORE,SIS_CACHE,both rounds=5 warmup=1
duration=2 seed= out= timeout=3600 extra=() kernels=series boots=1
while [ $# -gt 0 ]; do
	case $1 in
	-t) preset=${2:?}; shift 2 ;;
	-l) loads=${2:?}; shift 2 ;;
	-n) levels=${2:?}; shift 2 ;;
	-p) placement=${2:?}; shift 2 ;;
	-a) arms=${2:?}; shift 2 ;;
	--aa) arms=A=,B=; shift ;;
	--reference) placement=stacked,cross-smt,cross-core,cross-llc arms=base; shift ;;
	-r) rounds=${2:?}; shift 2 ;;
	-W) warmup=${2:?}; shift 2 ;;
	-d) duration=${2:?}; shift 2 ;;
	-s) seed=${2:?}; shift 2 ;;
	-w) extra+=("${2:?}"); shift 2 ;;
	-o) out=${2:?}; shift 2 ;;
	-T) timeout=${2:?}; shift 2 ;;
	-k) kernels=${2:?}; shift 2 ;;
	-b) boots=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "bench.sh: unknown option '$1'" >&2; usage ;;
	esac
done
case $rounds$warmup$timeout$boots in *[!0-9]*) die "-r, -W and -T take numbers" ;; esac
[[ $duration =~ ^[0-9]+([.][0-9]+)?$ ]] || die "-d takes seconds"
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $seed in *[!0-9]*) die "-s takes a number" ;; esac

ks=$WP_BUILD/kselftest/sched
wb=$ks/wakebench

# Arms -> ab.sh -a NAME=FEAT,FEAT; feature-less arms also run on baseline.
arm_args=() plain_args=()
for a in ${arms//,/ }; do
	case $a in
	base) a=base= ;;
	both) a=both=SIS_SYNC_CORE+SIS_CACHE ;;
	*=*) ;;
	*) a=$a=$a ;;
	esac
	arm_args+=(-a "${a//+/,}")
	[ -n "${a#*=}" ] || plain_args+=(-a "$a")
done
base=${arm_args[1]%%=*}

# Loads x levels -> ab.sh -w specs.
wl_args=()
value='"value":([0-9.eE+-]+)'
for l in ${loads//,/ }; do
	case $l in
	pipe|pipe-thread|tcp_rr|udp_rr|tcp_stream|udp_stream|wakelat)
		case $l in *stream) dir=higher ;; *) dir=lower ;; esac
		for n in ${levels//,/ }; do
			for p in ${placement//,/ }; do
				name=$l@$n
				[ "$placement" = unbound ] || name=$name:$p
				wl_args+=(-w "$name|$dir|$value|$wb -q -l $l -n $n -p $p -d $duration -w 0.5")
			done
		done ;;
	hackbench)
		command -v hackbench >/dev/null || die "hackbench missing: run 'make deps' (rt-tests)"
		wl_args+=(-w "hackbench|lower|Time: ([0-9.]+)|hackbench -p -g 2 -l 100") ;;
	perfpipe)
		wl_args+=(-w "perfpipe|lower|([0-9.]+) usecs/op|perf bench sched pipe -l 5000") ;;
	*) die "unknown load '$l'" ;;
	esac
done
for w in "${extra[@]}"; do
	wl_args+=(-w "$w")
done

klist=()
for k in ${kernels//,/ }; do
	case $k in
	series|baseline) klist+=("$k") ;;
	*) die "unknown kernel '$k' (series, baseline)" ;;
	esac
done
[ ${#klist[@]} -ge 1 ] || die "-k: no kernel"
if [ ${#klist[@]} -gt 1 ]; then
	[ "$boots" -gt 1 ] || boots=2
	[ ${#plain_args[@]} -gt 0 ] || die "-k with baseline needs an arm without features (e.g. base)"
	base=baseline:${plain_args[1]%%=*}
fi

# Build what is missing (the first run from a fresh clone).
if [ ! -f "$WP_OBJ/arch/x86/boot/bzImage" ] || [ ! -x "$wb" ] || [ ! -x "$ks/abstat" ]; then
	log "no guest kernel or bench tools yet: building them (make build)"
	"$WP_ROOT/scripts/deps.sh"
	"$WP_ROOT/scripts/tree.sh"
	"$WP_ROOT/scripts/build.sh"
fi
case " ${klist[*]} " in
*" baseline "*)
	[ -f "$WP_BUILD/baseline/obj/arch/x86/boot/bzImage" ] ||
		"$WP_ROOT/scripts/build.sh" --baseline ;;
esac
command -v gnuplot >/dev/null || log "gnuplot missing: no plots (make deps installs it)"

[ -n "$out" ] || out=$WP_BUILD/results/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
out=$(cd "$out" && pwd)
{
	printf 'scripts/bench.sh'
	printf ' %q' "$@"
	printf '\n'
} > "$out/command.txt"
log "bench: preset $preset, kernels ${klist[*]} x $boots boot(s), arms ${arms}, loads $loads x levels $levels ($placement), $rounds rounds + $warmup warm-up, seed $seed; results in $out"

# One boot of kernel $1 (boot number $2): ab.sh inside, samples in $out/$1-$2.
rc=0
run_boot() {
	local k=$1 b=$2 img=$WP_OBJ/arch/x86/boot/bzImage arms_k=("${arm_args[@]}") r=0
	local ab=("$WP_ROOT/scripts/ab.sh" -o /run/wakeplace/ab -r "$rounds" -W "$warmup" -s "$((seed + b))")
	if [ "$k" = baseline ]; then
		img=$WP_BUILD/baseline/obj/arch/x86/boot/bzImage
		arms_k=("${plain_args[@]}")
	fi
	log "boot $b/$boots: $k kernel"
	# Progress from the guest (ab.sh writes it to output.log on the share).
	mkdir -p "$out/$k-$b"
	( tail -F -n +1 --pid=$$ "$out/$k-$b/output.log" 2>/dev/null |
		grep --line-buffered "^ab.sh:" >&2 ) &
	local tailer=$!
	"$WP_ROOT/scripts/vm.sh" -t "$preset" -T "$timeout" -k "$img" -o "$out/$k-$b" -- \
		"${ab[@]}" "${arms_k[@]}" "${wl_args[@]}" || r=$?
	pkill -P $tailer 2>/dev/null || true
	kill $tailer 2>/dev/null || true
	wait $tailer 2>/dev/null || true
	printf '# boot %s of %s:' "$b" "$k" >> "$out/command.txt"
	printf ' %q' "${ab[@]}" "${arms_k[@]}" "${wl_args[@]}" >> "$out/command.txt"
	echo >> "$out/command.txt"
	[ $r = 0 ] || { log "$k boot $b: guest exit $r (partial results; see $out/$k-$b/output.log)"; rc=$r; }
}

interrupted() { log "interrupted: partial results in $out"; exit 130; }
trap interrupted INT TERM
for ((b = 1; b <= boots; b++)); do
	for k in $(printf '%s\n' "${klist[@]}" | awk -v s="$seed" -v b="$b" '
		{ a[NR] = $0 } END { srand(s + b)
		for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = a[i]; a[i] = a[j]; a[j] = t }
		for (i = 1; i <= NR; i++) print a[i] }'); do
		run_boot "$k" "$b"
	done
done

# Merge the boots' samples: rounds numbered across boots, arms named
# kernel:arm when kernels are compared.
csv=$out/samples.csv
multi=$([ ${#klist[@]} -gt 1 ] && echo 1 || echo 0)
for f in "$out"/*-*/ab/samples.csv; do
	[ -s "$f" ] || continue
	d=${f%/ab/samples.csv}
	d=${d##*/}
	awk -F, -v OFS=, -v k="${d%-*}" -v b="${d##*-}" -v r="$rounds" -v m="$multi" \
		-v hdr="$([ -s "$csv" ] && echo 0 || echo 1)" '
		NR == 1 { if (hdr) print "boot," $0; next }
		{ $1 = (b - 1) * r + $1; if (m) $4 = k ":" $4; print b, $0 }' "$f" >> "$csv"
done
[ -s "$csv" ] || die "no samples (see $out/*/output.log)"

accel=$(sed -n 's/^accelerator: //p' "$out"/*-1/run.txt 2>/dev/null | head -1)
case $accel in
kvm*)	label="accelerator: kvm"
	short=kvm ;;
*)	label="EMULATED (TCG): these verdicts check the harness, not the effect of the features on real hardware"
	short="EMULATED, TCG" ;;
esac
order=
for ((i = 1; i < ${#arm_args[@]}; i += 2)); do
	a=${arm_args[i]%%=*}
	if [ ${#klist[@]} -gt 1 ]; then
		case " ${plain_args[*]} " in *" ${arm_args[i]} "*) order+="baseline:$a," ;; esac
		a=series:$a
	fi
	order+="$a,"
done
"$ks/abstat" -b "$base" -o "${order%,}" -s "$seed" -l "$label" -j "$out/comparisons.json" \
	"$csv" > "$out/table.txt"
if [ "$boots" -gt 1 ]; then
	# Between-boot spread: the median of each boot, per workload and arm.
	awk -F, 'NR > 1 && !$3 { k = $6 SUBSEP $5; v[k, $1, ++n[k, $1]] = $8; arms[k] = 1; boots[$1] = 1 }
		function med(k, b,   m, i, j, t, a) { m = n[k, b]; for (i = 1; i <= m; i++) a[i] = v[k, b, i]
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
		END { print "\nbetween-boot spread (median of each boot; spread = max/min - 1)"
		for (k in arms) { split(k, p, SUBSEP); lo = ""; hi = ""; s = ""
			for (b in boots) if (n[k, b]) { x = med(k, b); s = s sprintf(" %.4g", x)
				if (lo == "" || x < lo) lo = x; if (hi == "" || x > hi) hi = x }
			printf "%-20s %-24s boots:%s  spread %.2f%%\n", p[1], p[2], s, (lo > 0 ? 100 * (hi / lo - 1) : 0) } }' \
		"$csv" | sort >> "$out/table.txt"
fi
cp "$out"/*-1/ab/environment.txt "$out/" 2>/dev/null || true

# Plots: per-arm distributions and per-round drift, one page per workload.
if command -v gnuplot >/dev/null; then
	mkdir -p "$out/plots"
	for w in $(awk -F, 'NR > 1 && !$3 { print $6 }' "$csv" | sort -u); do
		f=$out/plots/${w//[^A-Za-z0-9_.@-]/_}
		awk -F, -v w="$w" 'NR > 1 && $6 == w && !$3 { print $5, $2, $8 }' "$csv" > "$f.dat"
		gnuplot 2>/dev/null <<-EOF || log "gnuplot failed for $w"
			set terminal svg size 1000,420 dynamic
			set output '$f.svg'
			set multiplot layout 1,2 title '$w ($short)' noenhanced
			arms = system("cut -d' ' -f1 '$f.dat' | awk '!s[\$0]++'")
			set title 'distribution per arm' noenhanced
			set xtics rotate by -30 noenhanced
			set ylabel 'value'
			plot for [i=1:words(arms)] '$f.dat' using (i + 0.15 * (rand(0) - 0.5)):(strcol(1) eq word(arms, i) ? \$3 : 1/0):xtic(word(arms, i)) with points pt 7 ps 0.5 title word(arms, i) noenhanced
			set title 'per round (drift)' noenhanced
			set xlabel 'round'
			set xtics norotate
			plot for [i=1:words(arms)] '$f.dat' using (strcol(1) eq word(arms, i) ? \$2 : 1/0):3 with linespoints title word(arms, i) noenhanced
			unset multiplot
		EOF
	done
fi

cat "$out/table.txt"
over=$(awk -F, 'FNR > 1 { o += $3; t += $2 } END { if (t) printf "%.2f%% (%d ms of %d ms)", 100 * o / t, o, t }' "$out"/*-*/ab/overhead.csv 2>/dev/null || true)
echo
echo "harness overhead: ${over:-n/a}; seed $seed"
echo "results: $out (table.txt, comparisons.json, samples.csv, plots/, command.txt; per boot: <kernel>-<boot>/)"
[ "$rc" = 0 ] || log "exit $rc: a guest run failed (its boot is named above); the table holds what was measured"
exit $rc
