#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh: A/B verdicts on sched features, on the running kernel.
#
# Runs rounds of wakeup-heavy loads (wakebench, hackbench, perf bench) under
# each arm, an arm being a set of sched features switched on, in a seeded
# random order of the arms per round; then abstat prints, per load, each arm
# against the base arm, paired by round (the arms of a round share its
# drift): n, median, CV, the change (Hodges-Lehmann estimate of the ratio
# arm/base) with its exact 95% CI, the Wilcoxon signed-rank p-value,
# Holm-adjusted across the table, the verdict ("better"/"worse": Holm p below
# 0.05 and the CI excluding no change, by the load's direction; "equivalent":
# the CI within +-margin; "too-few": no p-value these rounds can give would
# pass Holm; "~": neither) and the rounds needed; the smallest attainable p;
# the unpaired comparison beside it; the variance between and within rounds
# and any effect of position in the round; the placement evidence per arm.
# Plots (SVG, PNG) and report.html (table and plots in one file).  Features and
# schedstats are restored on exit, on error and on Ctrl-C; samples written
# so far stay.  Runs from the kselftest install directory (wakebench and
# abstat next to it) or a kernel tree's tools/testing/selftests/sched.
#
# usage: ab.sh [options]
#  what runs:
#   -l LOADS      comma list (default pipe,tcp_rr,udp_rr,tcp_stream,hackbench):
#                 pipe pipe-thread tcp_rr udp_rr tcp_stream udp_stream wakelat
#                 (wakebench), hackbench (rt-tests), perfpipe (perf bench)
#   -n LEVELS     pairs per wakebench load: comma list of 1, half, cpus, 2cpus
#                 or numbers (default 1,cpus)
#   -p PLACEMENTS comma list (default unbound): unbound stacked cross-smt
#                 cross-core cross-llc; pinned placements leave the scheduler
#                 no choice (a reference, not a comparison of arms); those the
#                 machine lacks are skipped, with the reason
#   --reference   every pinned placement, base arm only
#   -a ARMS       comma list of base, SIS_SYNC_CORE, SIS_CACHE, both, or
#                 NAME=FEAT+FEAT (default base,SIS_SYNC_CORE,SIS_CACHE,both);
#                 the first is the base of the comparisons
#   --aa          A/A run: two arms that switch no feature (needs no
#                 writable sched/features)
#   --power K,... power check: arms base and work+Kpct (K percent, e.g.
#                 1,2,5,10,20), no feature switched: wakebench's rr loads
#                 with a busy loop per round trip of K% of base's median op
#                 time, measured in this boot before the rounds; no traced run
#   -w SPEC       extra workload NAME|lower-or-higher|REGEX|COMMAND: the first
#                 group of the extended REGEX in COMMAND's output is the
#                 sample (repeatable)
#   -r ROUNDS     measured rounds (default: the fewest with which a paired
#                 verdict can reach "different" after Holm over all the
#                 comparisons, plus one: 12 for the default matrix's 27)
#   -W ROUNDS     warm-up rounds, discarded (default 1)
#   -d SECONDS    duration of one wakebench run (default 2)
#   -s SEED       arm order and bootstrap seed (default random, recorded)
#   --margin M    "equivalent" when the paired 95% CI of the change lies
#                 within +-M percent (default 1)
#   --ci-target X adaptive length: after the -r rounds (at least 6), add
#                 rounds until every comparison's paired 95% CI half-width
#                 is at most X percent, or the budget runs out (the report
#                 says which); stops on CI width only, never on a p-value
#   --budget S    seconds of this machine's clock for the rounds with
#                 --ci-target (default 1800; in an icount guest, virtual)
#   --no-trace    no traced run: by default each workload runs once more per
#                 arm under wakestat (next to ab.sh), outside the samples, and
#                 the report shows the kernel's placement decisions per arm
#   --trace-cost  wakestat's own cost: arms "untraced" and "traced" (each run
#                 under wakestat), no feature switched; implies --no-trace
#  where results go:
#   -o DIR        results directory (default ./ab-<date>); refused if it is
#                 not empty, unless --append
#   --append      add a run to DIR (reported together with the runs in it)
#   --recheck DIR recompute DIR's table and plots; runs nothing
#   --base ARM    base arm of the report (default: the first arm)
#   --blocks N    calibration and power: also test each block of N rounds
#                 (boots across kernels) on its own, as abstat --blocks
#   --kernel-aa K kernel A/A from the boots of one kernel (bench.sh -b): 100
#                 random splits into two kernels of K boots, as abstat -A
#   --dry-run     check the options, print what would run, run nothing
#   -h, --help    this text
#  for scripts/bench.sh (guest runs):
#   --raw DIR     run the rounds only: raw samples to DIR, no report
#   --label NAME  kernel label of this run (default host)
#   --source FILE what a rerun needs (git state), appended to DIR/source.txt
#   --stop-file F with --ci-target: add no round once F exists (the host's
#                 budget, for guests whose clock is virtual)
#
# Layout of DIR: LABEL-N/ab/ holds each run's raw samples.csv, environment,
# logs and perf data (LABEL-N/run.txt says where it ran); DIR/samples.csv
# merges the runs (a "boot" column, arms prefixed LABEL: when several
# kernels ran); table.txt, comparisons.json and plots/ are the report;
# command.txt the command lines.
#
# Exit: 0; 1 on an error (said why); 2 on a usage error; 128+N on signal N.
set -uo pipefail

me=ab.sh
FEATURES=/sys/kernel/debug/sched/features
SCHEDSTATS=/proc/sys/kernel/sched_schedstats
cpus=/sys/devices/system/cpu
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)

die() { echo "$me: error: $*" >&2; exit 1; }
log() { echo "$me: $*" >&2; }
usage() { sed -n '/^# usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
bad() { echo "$me: $*" >&2; echo "$me: see '$me -h'" >&2; exit 2; }

WB_LOADS="pipe pipe-thread tcp_rr udp_rr tcp_stream udp_stream wakelat"
PLACEMENTS="unbound stacked cross-smt cross-core cross-llc"
loads=pipe,tcp_rr,udp_rr,tcp_stream,hackbench levels=1,cpus placement=unbound
arms=base,SIS_SYNC_CORE,SIS_CACHE,both rounds=auto warmup=1 duration=1 seed= margin=1 power=
blocks= kernel_aa= ci_target= budget=1800 stop_file=
out= append= recheck= base_arm= dry= raw= label=host source= extra=() trace=1 trace_cost=
cmdline=$(printf ' %q' "$0" "$@")
while [ $# -gt 0 ]; do
	case $1 in
	-l|-n|-p|-a|-w|-r|-W|-d|-s|-o|--recheck|--base|--raw|--label|--source|\
	--margin|--power|--blocks|--kernel-aa|--ci-target|--budget|--stop-file)
		[ $# -ge 2 ] || bad "option $1 needs a value"
		case $1 in
		-l) loads=$2 ;; -n) levels=$2 ;; -p) placement=$2 ;;
		-a) arms=$2 ;; -w) extra+=("$2") ;; -r) rounds=$2 ;;
		-W) warmup=$2 ;; -d) duration=$2 ;; -s) seed=$2 ;; -o) out=$2 ;;
		--recheck) recheck=$2 ;; --base) base_arm=$2 ;; --raw) raw=$2 ;;
		--label) label=$2 ;; --source) source=$2 ;;
		--margin) margin=$2 ;; --power) power=$2 arms= trace= ;;
		--blocks) blocks=$2 ;;
		--kernel-aa) kernel_aa=$2 ;;
		--ci-target) ci_target=$2 ;; --budget) budget=$2 ;;
		--stop-file) stop_file=$2 ;;
		esac
		shift 2 ;;
	--aa) arms=A=,B=; shift ;;
	--reference) placement=stacked,cross-smt,cross-core,cross-llc arms=base; shift ;;
	--append) append=1; shift ;;
	--no-trace) trace=; shift ;;
	--trace-cost) arms=untraced=,traced= trace= trace_cost=1; shift ;;
	--dry-run) dry=1; shift ;;
	-h|--help) usage 0 ;;
	*) bad "unknown option '$1'" ;;
	esac
done

# ---------------------------------------------------------------- report
# The report of results directory $1: merge the runs' raw samples, abstat,
# skipped placements, plots.
report() {
	local dir=$1 csv=$1/samples.csv f d k runs=() labels=() nk base order
	local seed_r accel label_t short clock abstat=$here/abstat
	local ct=$ci_target
	[ -x "$abstat" ] || die "abstat missing next to $me ($abstat): build the sched kselftests"
	for f in "$dir"/*/ab/samples.csv; do
		[ -f "$f" ] && runs+=("${f%/ab/samples.csv}")
	done
	[ ${#runs[@]} -gt 0 ] || die "$dir holds no run (no */ab/samples.csv)"
	for d in "${runs[@]}"; do
		k=${d##*/}
		k=${k%-*}
		case " ${labels[*]} " in *" $k "*) ;; *) labels+=("$k") ;; esac
	done
	nk=${#labels[@]}
	# Merge (abstat -M): a boot column, rounds numbered across runs, arms
	# LABEL:ARM with several kernels; one clock per table.
	"$abstat" -M "$csv" "${runs[@]}" || die "cannot merge the runs of $dir (said why above)"

	# Base and order: the arms in the order the first run lists them; with
	# several kernels, each arm on "baseline" (if it ran) first.
	order=
	while read -r a; do
		if [ "$nk" -gt 1 ]; then
			for k in baseline "${labels[@]}"; do
				grep -qx "$a" "$dir/$k"-*/ab/arms.txt 2>/dev/null || continue
				case ",$order," in *",$k:$a,"*) ;; *) order+="$k:$a," ;; esac
			done
		else
			order+="$a,"
		fi
	done < <(cat "${runs[@]/%//ab/arms.txt}" 2>/dev/null | awk '!s[$0]++')
	order=${order%,}
	base=${base_arm:-${order%%,*}}
	seed_r=$(sed -n 's/^seed: //p' "${runs[0]}/ab/environment.txt" 2>/dev/null | head -1)
	[ -n "$ct" ] || ct=$(sed -n 's/^ci-target: \([0-9.]*\).*/\1/p' \
		"${runs[0]}/ab/environment.txt" 2>/dev/null | head -1)
	accel=$(sed -n 's/^accelerator: //p' "${runs[0]}/run.txt" 2>/dev/null | head -1)
	clock="wall-clock"
	case $accel in
	icount*)
		label_t="INSTRUCTION-TIME (icount): path length; no cache/SMT model,"
		label_t+=" no parallel speed-up; values are virtual (1 ns = 1 instruction)"
		short="instruction-time (icount)"
		clock="instruction-time (icount): path length; no cache/SMT model,"
		clock+=" no parallel speed-up" ;;
	kvm*)	label_t="accelerator: kvm" short="KVM, wall-clock" ;;
	tcg*)	label_t="EMULATED (TCG): these verdicts check the harness,"
		label_t+=" not the effect of the features on real hardware"
		short="TCG (emulated), wall-clock" ;;
	*)	label_t=$(sed -n 's/^where: //p' "${runs[0]}/run.txt" 2>/dev/null | head -1)
		label_t=${label_t:-"accelerator: ${accel:-unknown}"} short="host, wall-clock" ;;
	esac
	"$abstat" -b "$base" -o "$order" -s "${seed_r:-1}" -l "$label_t" -m "$margin" -C "$clock" \
		${blocks:+-k "$blocks"} ${kernel_aa:+-A "$kernel_aa"} ${ct:+-T "$ct"} \
		-j "$dir/comparisons.json" -p "$dir/pairs.txt" "$csv" > "$dir/table.txt" ||
		die "abstat failed on $csv"
	if cat "${runs[@]/%//ab/skipped.txt}" 2>/dev/null | grep -q .; then
		{
			echo
			echo "skipped (the machine lacks them):"
			cat "${runs[@]/%//ab/skipped.txt}" 2>/dev/null | sort -u | sed 's/^/  /'
		} >> "$dir/table.txt"
	fi
	for d in "${runs[@]}"; do
		[ -s "$d/ab/adaptive.txt" ] || continue
		printf '\n%s: %s\n' "${d##*/}" "$(cat "$d/ab/adaptive.txt")"
	done >> "$dir/table.txt"
	evidence "$dir" "${runs[@]}" >> "$dir/table.txt"
	cp "${runs[0]}/ab/environment.txt" "$dir/environment.txt" 2>/dev/null

	if command -v gnuplot >/dev/null; then
		plots "$dir" "$short" "$order"
		evidence_plots "$dir" "$short"
		render "$dir"
	else
		log "gnuplot missing: no plots (Debian: apt-get install gnuplot-nox)"
	fi
	cat "$dir/table.txt"
	local over
	over=$(awk -F, 'FNR > 1 { o += $3; t += $2 } END { if (t)
		printf "%.2f%% (%d ms of %d ms)", 100 * o / t, o, t }' \
		"${runs[@]/%//ab/overhead.csv}" 2>/dev/null)
	echo
	echo "harness overhead: ${over:-n/a}; seed ${seed_r:-?}; runs: ${#runs[@]} (${runs[*]##*/})"
	echo "results: $dir (table.txt, comparisons.json, samples.csv, plots/," \
	     "command.txt; per run: LABEL-N/)"
}

# The kernel's placement decisions per arm, from the runs' traced runs
# (wakestat -j): a table, and wake->run latency CDFs in plots/.
evidence() {	# dir run-dir...
	local dir=$1 d f j name arm wn b top n src pre lat
	local files=()
	shift
	# In the order of the arms, then sorted by workload (stable).
	for d in "$@"; do
		while read -r arm; do
			for f in "$d/ab/wakestat/$arm@"*.json; do
				[ -s "$f" ] && files+=("$f")
			done
		done < "$d/ab/arms.txt"
	done
	echo
	if [ ${#files[@]} = 0 ]; then
		f=$(cat "$1/ab/wakestat.txt" 2>/dev/null) || f="wakestat: no record"
		echo "kernel's placement decisions: not traced ($f)"
		return 0
	fi
	echo "kernel's placement decisions (wakestat: one traced run per arm and workload,"
	echo "not in the samples;"
	echo "wakees: wakebench's own (pp-wakee), every wakee for other workloads):"
	printf '  %-24s %-18s %8s %6s %6s %7s %9s  %s\n' \
		workload arm placed migr% scan passed p99-us \
		"top branches (% of placed)"
	: > "$dir/wakestat.dat"
	for f in "${files[@]}"; do
		name=${f##*/}
		name=${name%.json}
		arm=${name%%@*} wn=${name#*@}
		pre=
		[ $# -le 1 ] || { pre=${f%/ab/wakestat/*}; pre=${pre##*/}:; }
		j=$(tail -n 1 "$f")
		declare -A v=()
		for k in decided wakeups migrations scan_mean passed_sum lat_p99_us; do
			[[ $j =~ \"$k\":([0-9.eE+-]+) ]] && v[$k]=${BASH_REMATCH[1]}
		done
		src=
		[[ $j =~ \"missing\" ]] && src=" (fallback: no branches)"
		n=${v[wakeups]:-0}
		b=${j#*\"branches\":\{}
		top=
		while [[ $b =~ ^[,]?\"([a-z0-9-]+)\":\{\"count\":([0-9]+)[^}]*\} ]]; do
			top+="${BASH_REMATCH[1]} ${BASH_REMATCH[2]};"
			b=${b#"${BASH_REMATCH[0]}"}
		done
		top=$(tr ';' '\n' <<<"$top" | sort -k2,2nr | head -3 |
			awk -v n="$n" 'NF { printf "%s%s %.0f", s, $1,
				n ? 100 * $2 / n : 0; s = ", " }')
		printf '  %-24s %-18s %8s %6s %6s %7s %9s  %s\n' "$wn" "$pre$arm" "$n" \
			"$(awk -v m="${v[migrations]:-0}" -v n="$n" \
				'BEGIN { printf "%.1f", n ? 100 * m / n : 0 }')" \
			"$(printf '%.2f' "${v[scan_mean]:-0}")" "${v[passed_sum]:-0}" \
			"$(printf '%.1f' "${v[lat_p99_us]:-0}")" "${top:--}$src"
		unset v
		[[ $j =~ \"lat_buckets\":\[([0-9,]*)\] ]] || continue
		lat=${BASH_REMATCH[1]}
		# bucket s: [lo(s), lo(s+1)) ns, 8 per power of 2 from 8 ns
		awk -v w="$wn" -v a="$pre$arm" -v l="$lat" 'BEGIN {
			n = split(l, c, ","); for (s = 1; s <= n; s++) t += c[s]
			if (!t) exit
			for (s = 1; s <= n; s++) { if (!c[s]) continue; cum += c[s]
				i = s; if (i < 8) hi = i; else { m = int(i / 8) + 2
					hi = (8 + i % 8) * 2 ^ (m - 3) }
				print w, a, hi / 1000, cum / t } }' >> "$dir/wakestat.dat"
	done | sort -s -k1,1
}

# wake->run latency CDF per arm, one plot per workload.
evidence_plots() {	# dir short-label
	local dir=$1 w f
	[ -s "$dir/wakestat.dat" ] || return 0
	for w in $(cut -d' ' -f1 "$dir/wakestat.dat" | sort -u); do
		f=$dir/plots/${w//[^A-Za-z0-9_.@-]/_}-latency
		awk -v w="$w" '$1 == w { print $2, $3, $4 }' "$dir/wakestat.dat" > "$f.dat"
		gnuplot 2>/dev/null <<-EOF || log "gnuplot failed for $w latency"
			set terminal svg size 800,420 dynamic
			set output '$f.svg'
			set title '$w: wake->run latency, traced run per arm ($2)' noenhanced
			set logscale x
			set xlabel 'microseconds (bucket upper bound)'
			set ylabel 'fraction of wakeups'
			set key bottom right noenhanced
			arms = system("cut -d' ' -f1 '$f.dat' | awk '!s[\$0]++'")
			plot for [i=1:words(arms)] '$f.dat' \\
				using (strcol(1) eq word(arms, i) ? \$2 : 1/0):3 \\
				with steps title word(arms, i)
		EOF
	done
}

# The metric and unit of workload $1, for axis labels.
unit_of() {
	case $1 in
	*stream*) echo "throughput (MB/s)" ;;
	wakelat*) echo "p99 wake-up latency (us)" ;;
	pipe*|tcp_rr*|udp_rr*) echo "round trip (us)" ;;
	hackbench*) echo "hackbench time (s)" ;;
	perfpipe*) echo "perf bench sched pipe (us/op)" ;;
	*) echo "value" ;;
	esac
}

# Per workload, three panels in the arms' order (base first, one colour
# per arm everywhere): each arm's samples as points over a box (median,
# quartiles); each arm's paired ratio to base with its 95% CI, the "no
# change" line and the +-margin band; the per-round (per-slot) ratios.
# SVG, and PNG beside it (rsvg-convert, which also checks that it renders).
plots() {	# dir short-label order
	local dir=$1 w f csv=$1/samples.csv order=$3 kern topo n dirn inc
	local arms_s=${order//,/ }
	mkdir -p "$dir/plots"
	kern=$(cut -d, -f1 "$csv" | sed 1d | sed 's/-[0-9]*$//' | sort -u | tr '\n' ' ')
	topo=$(sed -n 's/^topology: \([^ ]*\).*/\1/p' "$dir"/*/run.txt 2>/dev/null |
		sort -u | tr '\n' ' ')
	for w in $(awk -F, 'NR > 1 && !$3 { print $6 }' "$csv" | sort -u); do
		f=$dir/plots/${w//[^A-Za-z0-9_.@-]/_}
		# samples: arm index, value; pairs: arm index, unit, ratio
		awk -F, -v w="$w" -v o="$order" 'BEGIN { n = split(o, a, ",")
			for (i = 1; i <= n; i++) idx[a[i]] = i }
			NR > 1 && $6 == w && !$3 && ($5 in idx) { print idx[$5], $8 }' \
			"$csv" > "$f.dat"
		awk -v w="$w" -v o="$order" 'BEGIN { n = split(o, a, ",")
			for (i = 1; i <= n; i++) idx[a[i]] = i }
			$1 == "pair" && $2 == w { print idx[$3], $4, $5 > "'"$f"'.pairs" }
			$1 == "ci" && $2 == w { print idx[$3], $4, $5, $6, $7 > "'"$f"'.ci" }' \
			"$dir/pairs.txt"
		[ -s "$f.dat" ] || continue
		n=$(awk '$1 == 1' "$f.dat" | wc -l)
		# integer round ticks, at most about 20
		inc=$(awk '{ if ($2 > m) m = $2 } END { print int(m / 12) + 1 }' \
			"$f.pairs" 2>/dev/null)
		dirn=$(awk -F, -v w="$w" 'NR > 1 && $6 == w { print $7; exit }' "$csv")
		touch "$f.pairs" "$f.ci"
		gnuplot 2>"$f.err" <<-EOF || log "gnuplot failed for $w (see $f.err)"
			set terminal svg size 1260,460 dynamic font 'sans,11'
			set output '$f.svg'
			arms = '$arms_s'
			A = words(arms)
			set multiplot layout 1,3 title sprintf( \\
				'%s: kernel %s, preset %s, %s, n = %d per arm', \\
				'$w', '${kern% }', '${topo% }', '$2', $n) noenhanced
			set xrange [0.4:A + 0.6]
			set xtics () rotate by -25 noenhanced
			do for [i=1:A] { set xtics add (word(arms, i) i) }
			set grid ytics
			set key off
			set title 'samples per arm (box: quartiles, line: median)' noenhanced
			set ylabel '$(unit_of "$w"), $dirn is better' noenhanced
			set style fill transparent solid 0.25
			set style boxplot nooutliers
			set boxwidth 0.5
			plot for [i=1:A] '$f.dat' using (i):(\$1 == i ? \$2 : 1/0) \\
					with boxplot lc i, \\
				'$f.dat' using (\$1 + 0.3 * (rand(0) - 0.5)):2:1 \\
					with points pt 7 ps 0.45 lc variable
			set title 'paired change vs base: estimate, 95% CI' noenhanced
			set ylabel 'arm / base (1: no change)' noenhanced
			set yrange [*:*]
			set label 1 'band: +-$margin% (equivalent)' at graph 0.02, graph 0.04 \\
				noenhanced
			m = $margin / 100.0
			plot '+' using 1:(1 - m):(1 + m) with filledcurves \\
					fc rgb '#e4e4e4' fs solid 1.0, \\
				1 with lines lc rgb 'black', \\
				'$f.ci' using 1:2:3:4:1 with yerrorbars pt 7 ps 0.8 lc variable, \\
				'$f.ci' using 1:4:5 with labels offset 0,0.8 noenhanced
			unset label 1
			set title 'paired ratio per round (per boot slot: kernels)' noenhanced
			set xlabel 'round' noenhanced
			set xrange [*:*]
			set xtics norotate $inc format '%.0f'
			set logscale y 2
			set key outside bottom center horizontal noenhanced
			plot 1 with lines lc rgb 'black' notitle, \\
				for [i=2:A] '$f.pairs' using (\$1 == i ? \$2 : 1/0):3 \\
				with linespoints pt 7 ps 0.5 lc i title word(arms, i)
			unset multiplot
		EOF
		[ -s "$f.err" ] || rm -f "$f.err"
	done
}

# PNG beside each SVG (rsvg-convert: a plot that does not render is an
# error), and report.html: the table and every plot inline, no external
# file.
render() {	# dir
	local dir=$1 f bad=0 title
	if command -v rsvg-convert >/dev/null; then
		for f in "$dir"/plots/*.svg; do
			[ -f "$f" ] || continue
			rsvg-convert -f png -o "${f%.svg}.png" "$f" 2>"${f%.svg}.err" || {
				log "plot $f does not render (see ${f%.svg}.err)"
				bad=$((bad + 1))
				continue
			}
			rm -f "${f%.svg}.err"
		done
	else
		log "rsvg-convert missing: no PNG plots (Debian: apt-get install librsvg2-bin)"
	fi
	title="wakeplace A/B report: ${dir##*/}"
	{
		printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
		printf '<title>%s</title>\n' "$title"
		printf '<style>body{font-family:sans-serif;margin:1em}pre{font-size:12px}</style>\n'
		printf '</head><body>\n<h1>%s</h1>\n<pre>\n' "$title"
		sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g' "$dir/table.txt"
		printf '</pre>\n'
		for f in "$dir"/plots/*.svg; do
			[ -f "$f" ] || continue
			printf '<h2>%s</h2>\n' "${f##*/}"
			sed '/^<?xml/d; /^<!DOCTYPE/,/>$/d' "$f"
		done
		printf '</body></html>\n'
	} > "$dir/report.html"
	[ "$bad" = 0 ] || die "$bad plot(s) do not render"
}

if [ -n "$recheck" ]; then
	[ -d "$recheck" ] || die "--recheck: no directory $recheck"
	recheck=$(cd "$recheck" && pwd)
	report "$recheck"
	echo "# recheck:$cmdline" >> "$recheck/command.txt"
	exit 0
fi

# ------------------------------------------------------- check the options
case $rounds in auto) ;; ''|*[!0-9]*) bad "-r takes a number of rounds" ;; esac
case $warmup in ''|*[!0-9]*) bad "-W takes a number of rounds" ;; esac
[ "$rounds" = auto ] || [ "$rounds" -ge 1 ] || bad "-r must be at least 1"
[[ $duration =~ ^[0-9]+([.][0-9]+)?$ ]] || bad "-d takes seconds"
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $seed in ''|*[!0-9]*) bad "-s takes a number" ;; esac
case $label in ''|*[!A-Za-z0-9_.+]*) bad "--label: letters, digits, _ . + only" ;; esac
[ -z "$raw" ] || [ -z "$out" ] || bad "--raw and -o exclude each other"
[ -z "$raw" ] || [ -z "$append" ] || bad "--append is for -o"

# --power: base and one arm per K that adds K% of base's op time as work.
declare -A arm_pct=()
if [ -n "$power" ]; then
	[ -z "$trace_cost" ] || bad "--power and --trace-cost exclude each other"
	arms=base=
	for k in ${power//,/ }; do
		[[ $k =~ ^[0-9]+([.][0-9]+)?$ ]] &&
			awk -v k="$k" 'BEGIN { exit !(k > 0 && k <= 100) }' ||
			bad "--power: '$k' is not a percentage in (0, 100]"
		arms+=",work+${k}pct="
		arm_pct[work+${k}pct]=$k
	done
fi
# Arms -> NAME and " FEAT FEAT ".
declare -A arm_on=() all_feats=()
arm_names=()
for a in ${arms//,/ }; do
	case $a in
	base) a=base= ;;
	both) a=both=SIS_SYNC_CORE+SIS_CACHE ;;
	*=*) ;;
	*) a=$a=$a ;;
	esac
	name=${a%%=*} feats=${a#*=}
	case $name in ''|*[!A-Za-z0-9_.+-]*) bad "bad arm name '$name'" ;; esac
	[ -z "${arm_on[$name]+x}" ] || bad "arm '$name' given twice"
	for f in ${feats//+/ }; do
		case $f in *[!A-Z0-9_]*) bad "arm $name: '$f' is not a sched feature name" ;; esac
		all_feats[$f]=1
	done
	arm_on[$name]=" ${feats//+/ } "
	arm_names+=("$name")
done
[ ${#arm_names[@]} -ge 1 ] || bad "-a: no arm"
[ -z "$base_arm" ] || [ -n "${arm_on[$base_arm]+x}" ] || bad "--base: no arm '$base_arm'"

# Loads x levels x placements -> workloads NAME|DIR|REGEX|COMMAND; W_WB
# marks wakebench's (evidence counters taken over its measured window).
wb=$here/wakebench
W_NAME=() W_DIR=() W_RE=() W_CMD=() W_WB=()
add_wl() {	# name dir regex command is-wakebench
	local i
	for i in "${W_NAME[@]}"; do [ "$i" != "$1" ] || bad "workload '$1' given twice"; done
	W_NAME+=("$1") W_DIR+=("$2") W_RE+=("$3") W_CMD+=("$4") W_WB+=("$5")
}
for p in ${placement//,/ }; do
	case " $PLACEMENTS " in *" $p "*) ;; *) bad "unknown placement '$p' ($PLACEMENTS)" ;; esac
done
for n in ${levels//,/ }; do
	case $n in
	1|half|cpus|2cpus) ;;
	*[!0-9]*|0) bad "unknown level '$n' (1, half, cpus, 2cpus or a number)" ;;
	esac
done
for l in ${loads//,/ }; do
	case " $WB_LOADS " in
	*" $l "*)
		case $l in *stream) dir=higher ;; *) dir=lower ;; esac
		for n in ${levels//,/ }; do
			for p in ${placement//,/ }; do
				name=$l@$n
				[ "$placement" = unbound ] || name=$name:$p
				add_wl "$name" "$dir" '"value":([0-9.eE+-]+)' \
					"$wb -q -l $l -n $n -p $p -d $duration -w 0.5" 1
			done
		done
		continue ;;
	esac
	case $l in
	hackbench) add_wl hackbench lower 'Time: ([0-9.]+)' "hackbench -p -g 2 -l 100" 0 ;;
	perfpipe) add_wl perfpipe lower '([0-9.]+) usecs/op' "perf bench sched pipe -l 5000" 0 ;;
	*) bad "unknown load '$l' ($WB_LOADS hackbench perfpipe)" ;;
	esac
done
for w in "${extra[@]}"; do
	IFS='|' read -r wn wd wr wc <<<"$w"
	[ -n "$wn" ] && [ -n "$wr" ] && [ -n "$wc" ] ||
		bad "workload '$w' is not NAME|DIRECTION|REGEX|COMMAND"
	case $wd in
	lower|higher) ;;
	*) bad "workload $wn: direction must be lower or higher" ;;
	esac
	case $wn in
	*[!A-Za-z0-9_.+-]*) bad "workload name '$wn': letters, digits, _ . @ : + - only" ;;
	esac
	add_wl "$wn" "$wd" "$wr" "$wc" 0
done
[ ${#W_NAME[@]} -ge 1 ] || bad "nothing to run (-l, -w)"
if [ -n "$power" ]; then
	for ((k = 0; k < ${#W_NAME[@]}; k++)); do
		case ${W_WB[k]}:${W_NAME[k]} in
		1:pipe@*|1:pipe-thread@*|1:tcp_rr@*|1:udp_rr@*) ;;
		*) bad "--power: ${W_NAME[k]} is not a wakebench rr load" \
			"(pipe, pipe-thread, tcp_rr, udp_rr)" ;;
		esac
	done
fi
[[ $margin =~ ^[0-9]+([.][0-9]+)?$ ]] || bad "--margin takes a percentage (e.g. 1 or 0.5)"
[ -z "$blocks" ] || [[ $blocks =~ ^[1-9][0-9]*$ ]] || bad "--blocks takes a number of rounds"
[ -z "$kernel_aa" ] || [[ $kernel_aa =~ ^[1-9][0-9]*$ ]] ||
	bad "--kernel-aa takes a number of boots"
if [ -n "$ci_target" ]; then
	[[ $ci_target =~ ^[0-9]+([.][0-9]+)?$ ]] &&
		awk -v x="$ci_target" 'BEGIN { exit !(x > 0 && x < 100) }' ||
		bad "--ci-target takes a percentage in (0, 100), e.g. 0.5"
	[[ $budget =~ ^[1-9][0-9]*$ ]] || bad "--budget takes seconds"
	[ ${#arm_names[@]} -ge 2 ] || bad "--ci-target needs a comparison (two arms or more)"
fi
# Default rounds: the fewest n with which the smallest exact signed-rank
# p-value, 2 / 2^n, times the comparisons (Holm's first step) is below
# 0.05, plus one for a tie or a zero difference; at least 5.
ncmp=$(( ${#W_NAME[@]} * (${#arm_names[@]} - 1) ))
if [ "$rounds" = auto ]; then
	rounds=1
	while (( (1 << rounds) <= 40 * ncmp )); do rounds=$((rounds + 1)); done
	rounds=$((rounds + 1))
	[ "$rounds" -ge 5 ] || rounds=5
fi
# --ci-target: at least 6 rounds (the fewest pairs with an exact 95% CI;
# 5 give 93.75%), at most MAX_ROUNDS.
MAX_ROUNDS=200
if [ -n "$ci_target" ]; then
	[ "$rounds" -ge 6 ] || rounds=6
	[ "$rounds" -le $MAX_ROUNDS ] || bad "-r: at most $MAX_ROUNDS rounds with --ci-target"
fi

if [ -n "$dry" ]; then
	echo "arms:"
	for a in "${arm_names[@]}"; do echo "  $a:${arm_on[$a]:- }"; done
	echo "workloads:"
	for ((k = 0; k < ${#W_NAME[@]}; k++)); do
		echo "  ${W_NAME[k]} (${W_DIR[k]} is better): ${W_CMD[k]}"
	done
	echo "rounds: $rounds (+$warmup warm-up), seed $seed"
	[ -z "$ci_target" ] ||
		echo "adaptive: rounds added until every CI half-width <= $ci_target%," \
		     "within $budget s${stop_file:+ or until $stop_file exists} (at most $MAX_ROUNDS)"
	awk -v m="$ncmp" -v n="$rounds" 'BEGIN { if (!m) exit
		p = m * 2 / 2 ^ n; if (p > 1) p = 1
		printf "comparisons: %d; smallest attainable paired p after Holm: %.3g", m, p
		s = "\"different\" NOT attainable: more rounds"
		if (p < 0.05) s = "\"different\" attainable"
		printf " (%s)\n", s }'
	[ -z "$power" ] ||
		echo "power: arms ${arms//=/}; each work+Kpct adds K% of base's median op time"
	if [ -n "$trace_cost" ]; then
		echo "trace: arm traced runs each workload under wakestat (its cost)"
	else
		t="none (--no-trace)"
		[ -z "$trace" ] || t="one traced run per arm and workload, after the rounds"
		echo "trace: $t"
	fi
	exit 0
fi

# ------------------------------------- check the machine, before changing it
[ "$(id -u)" = 0 ] || die "needs root (sched features, schedstats, pinned loads)"
for ((k = 0; k < ${#W_NAME[@]}; k++)); do
	c=${W_CMD[k]%% *}
	command -v "$c" >/dev/null || [ -x "$c" ] || case $c in
		"$wb") die "wakebench missing next to $me ($wb): build the sched kselftests" ;;
		hackbench) die "hackbench missing (Debian: apt-get install rt-tests)" ;;
		perf) die "perf missing (Debian: apt-get install linux-perf)" ;;
		*) die "workload ${W_NAME[k]}: '$c' not found" ;;
	esac
done
if [ -n "$trace_cost" ]; then
	[ -x "$here/wakestat" ] ||
		die "--trace-cost: no wakestat next to $me" \
		    "(its build needs clang, bpftool, libbpf-dev)"
	w=$("$here/wakestat" -- true 2>&1 >/dev/null) ||
		die "--trace-cost: wakestat cannot run here: ${w#wakestat: }"
fi
if [ ${#all_feats[@]} -gt 0 ]; then
	need=
	for a in "${arm_names[@]}"; do
		[ -z "${arm_on[$a]// /}" ] || need+="$a "
	done
	[ -w "$FEATURES" ] ||
		die "arms ${need}switch sched features, but $FEATURES is not writable" \
		    "(mount debugfs; needs CONFIG_SCHED_DEBUG); A/A runs (--aa) need no features"
	known=" $(tr ' ' '\n' < "$FEATURES" | sed 's/^NO_//' | tr '\n' ' ') "
	for f in "${!all_feats[@]}"; do
		case $known in
		*" $f "*) ;;
		*) die "sched feature '$f' unknown to this kernel (it has:$known)" ;;
		esac
	done
fi

# The results: -o DIR gets LABEL-N/ab (N: the next free run number).
if [ -n "$raw" ]; then
	mkdir -p "$raw" || die "cannot create $raw"
	[ -z "$(ls -A "$raw")" ] || die "$raw is not empty"
	rawdir=$(cd "$raw" && pwd)
	out=
else
	[ -n "$out" ] || out=ab-$(date +%Y%m%d-%H%M%S)
	if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ -z "$append" ]; then
		die "$out is not empty: its samples would be merged into this verdict" \
		    "(use another -o, or --append to add a run to it)"
	fi
	mkdir -p "$out" || die "cannot create $out"
	out=$(cd "$out" && pwd)
	i=1
	while [ -e "$out/$label-$i" ]; do i=$((i + 1)); done
	mkdir -p "$out/$label-$i/ab"
	rawdir=$out/$label-$i/ab
	echo "#$cmdline" >> "$out/command.txt"
	[ -z "$source" ] || cat "$source" >> "$out/source.txt"
	virt=$(systemd-detect-virt 2>/dev/null)
	{
		echo "host: $(uname -r) $(uname -m), $(nproc) CPUs"
		echo "accelerator: none"
		echo "where: running kernel $(uname -r), no guest" \
		     "(virtualization: ${virt:-unknown})"
		echo "command:$cmdline"
	} > "$out/$label-$i/run.txt"
fi

# Placements the machine lacks: wakebench exits 4 with the reason.
skipped=()
probe_placements() {
	local k o rc keep=() at
	# One probe per level and placement (NAME is LOAD@LEVEL:PLACEMENT):
	# whether the machine has a placement does not depend on the load.
	local -A lacks=()
	for ((k = 0; k < ${#W_NAME[@]}; k++)); do
		keep+=("$k")
		[ "${W_WB[k]}" = 1 ] || continue
		case ${W_CMD[k]} in *" -p unbound "*) continue ;; esac
		at=${W_NAME[k]#*@}
		if [ -z "${lacks[$at]+x}" ]; then
			o=$(${W_CMD[k]/ -d $duration -w 0.5/ -d 0.05 -w 0} 2>&1)
			rc=$?
			lacks[$at]=
			[ $rc != 4 ] || lacks[$at]=${o##*$'\n'}
			[ $rc != 4 ] || [ -n "${lacks[$at]}" ] || lacks[$at]="exit 4"
		fi
		if [ -n "${lacks[$at]}" ]; then
			unset 'keep[-1]'
			skipped+=("${W_NAME[k]}: ${lacks[$at]}")
			log "skipping ${W_NAME[k]}: ${lacks[$at]}"
		fi
	done
	local n=() d=() r=() c=() w=()
	for k in "${keep[@]}"; do
		n+=("${W_NAME[k]}") d+=("${W_DIR[k]}") r+=("${W_RE[k]}")
		c+=("${W_CMD[k]}") w+=("${W_WB[k]}")
	done
	W_NAME=("${n[@]}") W_DIR=("${d[@]}") W_RE=("${r[@]}") W_CMD=("${c[@]}") W_WB=("${w[@]}")
}
probe_placements
printf '%s\n' "${skipped[@]}" > "$rawdir/skipped.txt"
[ ${#W_NAME[@]} -ge 1 ] || die "every workload was skipped (see above)"

# ------------------------------------ save state, restore it whatever happens
saved_features=$(cat "$FEATURES" 2>/dev/null)
saved_schedstats=$(cat "$SCHEDSTATS" 2>/dev/null)
wl_pid= logs= stopping=
restore() {
	local f
	[ -z "$wl_pid" ] || stop_workload
	declare -F flush >/dev/null && flush
	declare -F schedstat_fill >/dev/null && schedstat_fill
	if [ -n "$logs" ] && [ -d "$logs" ]; then
		mkdir -p "$rawdir/log" &&
			cp "$logs"/round-* "$logs"/traced.txt "$rawdir/log/" 2>/dev/null
		rm -rf "$logs"
	fi
	for f in "${!all_feats[@]}"; do
		case " $saved_features " in
		*" NO_$f "*) echo "NO_$f" ;;
		*) echo "$f" ;;
		esac > "$FEATURES" 2>/dev/null
	done
	[ -z "$saved_schedstats" ] || echo "$saved_schedstats" > "$SCHEDSTATS" 2>/dev/null
	cat "$FEATURES" > "$rawdir/features-after.txt" 2>/dev/null
}
# The running workload is a session of its own (setsid): all of it stops.
stop_workload() {
	local i
	kill -TERM -- "-$wl_pid" 2>/dev/null
	for ((i = 0; i < 20; i++)); do
		kill -0 "$wl_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$wl_pid" 2>/dev/null
	wait "$wl_pid" 2>/dev/null
	wl_pid=
}
interrupted() {	# signal
	[ -z "$stopping" ] || return
	stopping=1
	trap '' INT TERM HUP
	restore
	trap - EXIT
	log "interrupted (SIG$1): workload stopped, features restored," \
	    "partial results in ${out:-$rawdir} (rounds completed so far)"
	trap - "$1"
	kill "-$1" $$
	exit $((128 + $(kill -l "$1")))
}
trap restore EXIT
trap 'interrupted INT' INT
trap 'interrupted TERM' TERM
trap 'interrupted HUP' HUP
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

# Progress: round i/n, arm, elapsed and ETA (from whole rounds).
progress() {
	local t=${EPOCHREALTIME/[.,]/} el eta= w=
	el=$(( (t / 1000 - t_start) / 1000 ))
	[ "$1" -gt 1 ] && eta=", ETA $(( el * (total - $1 + 1) / ($1 - 1) )) s"
	[ "$1" -le "$warmup" ] && w=" (warm-up)"
	log "round $1/$total$w, arm $2, $3, elapsed ${el} s$eta"
}

# Wakeup counters from /proc/schedstat, for loads other than wakebench
# (which takes them over its measured window): a raw snapshot before and
# after the command, appended to a tmpfs file without forking; parsed once
# after the rounds (schedstat_fill), not in bash between runs.
snap() {	# tag before|after
	local s=
	IFS= read -r -d '' s < /proc/schedstat
	printf '=== %s %s\n%s' "$1" "$2" "$s" >> "$logs/schedstat.raw"
}

# The rows' "@TAG" placeholders -> ttwu_count, ttwu_local (cpu lines), and
# per domain level ttwu_wake_remote;ttwu_move_affine (the third and second
# last fields), each the difference after - before.
schedstat_fill() {
	[ -n "${logs:-}" ] && [ -s "$logs/schedstat.raw" ] && grep -q ',@' "$csv" || return 0
	awk -F, -v OFS=, '
		FNR == NR {
			if ($0 ~ /^=== /) {
				split($0, t, " ")
				tag = t[2]; sd = t[3] == "after" ? 1 : -1
				next
			}
			split($0, f, " ")
			n = length(f)
			if (f[1] ~ /^cpu/) { c[tag, 0] += sd * f[6]; c[tag, 1] += sd * f[7] }
			else if (f[1] ~ /^domain/) {
				l = substr(f[1], 7) + 0
				c[tag, 2 + 2 * l] += sd * f[n - 2]
				c[tag, 3 + 2 * l] += sd * f[n - 1]
				if (3 + 2 * l > hi[tag]) hi[tag] = 3 + 2 * l
			}
			next
		}
		FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
		{
			i = col["ttwu_count"]
			if ($i ~ /^@/) {
				tag = substr($i, 2)
				$i = c[tag, 0] + 0; $(col["ttwu_local"]) = c[tag, 1] + 0
				d = ""
				for (k = 2; k <= hi[tag]; k++)
					d = d (k > 2 ? ";" : "") c[tag, k] + 0
				$(col["domain_wake_remote_move_affine"]) = d
			}
			print
		}' FS=' ' "$logs/schedstat.raw" FS=, "$csv" > "$csv.new" && mv "$csv.new" "$csv"
}

perf_bin=
for p in $(command -v perf) /usr/bin/perf_*; do
	[ -x "$p" ] && "$p" stat -e task-clock -x, -o /dev/null true 2>/dev/null &&
		perf_bin=$p && break
done
perf_events=task-clock,context-switches,cpu-migrations
if [ -n "$perf_bin" ]; then
	log "perf stat (loads other than wakebench): $perf_bin ($perf_events)"
else
	log "perf stat: no usable perf here; loads other than wakebench run without it"
fi

{
	echo "date: $(date -Is)"
	echo "kernel: $(uname -r)"
	echo "cmdline: $(cat /proc/cmdline)"
	echo "cpus: $(nproc)"
	echo "label: $label"
	echo "seed: $seed"
	echo "rounds: $rounds (+$warmup warm-up, discarded)"
	[ -z "$ci_target" ] ||
		echo "ci-target: $ci_target% (budget $budget s${stop_file:+, stop file $stop_file})"
	echo "features at start: ${saved_features:-n/a (no $FEATURES)}"
	for a in "${arm_names[@]}"; do echo "arm: $a =${arm_on[$a]}"; done
	for ((k = 0; k < ${#W_NAME[@]}; k++)); do
		echo "workload: ${W_NAME[k]}|${W_DIR[k]}|${W_RE[k]}|${W_CMD[k]}"
	done
	sum() { sha256sum < "$1" 2>/dev/null | cut -c1-16; }
	echo "ab.sh: $(sum "$0"), wakebench: $(sum "$wb"), abstat: $(sum "$here/abstat")"
	echo "perf: ${perf_bin:-none} ($perf_events)"
	g=$(cat $cpus/cpu*/cpufreq/scaling_governor 2>/dev/null | sort | uniq -c |
		tr -s ' ' | tr '\n' ';')
	echo "governor: ${g:-n/a}"
	echo "boost: $(cat $cpus/cpufreq/boost 2>/dev/null || echo n/a)" \
	     "no_turbo: $(cat $cpus/intel_pstate/no_turbo 2>/dev/null || echo n/a)"
	echo "cpuidle: $(cat $cpus/cpuidle/current_driver 2>/dev/null || echo n/a)"
	echo "smt: $(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo n/a)"
	echo "loadavg: $(cat /proc/loadavg)"
} > "$rawdir/environment.txt"
g=$(cat $cpus/cpu*/cpufreq/scaling_governor 2>/dev/null | sort -u | tr "\n" " ")
[ -z "$g" ] || [ "$g" = "performance " ] ||
	log "warning: CPU frequency governor '$g'(not performance): expect drift"
[ "$(cat $cpus/cpufreq/boost 2>/dev/null)" != 1 ] ||
	log "warning: turbo/boost on: expect drift"
[ "$(cat $cpus/intel_pstate/no_turbo 2>/dev/null)" != 0 ] ||
	log "warning: turbo on (intel_pstate): expect drift"
load=$(cut -d' ' -f1 /proc/loadavg)
awk -v l="$load" 'BEGIN { exit !(l > 0.5) }' && log "warning: load average $load: background load"

csv=$rawdir/samples.csv
echo "round,ms,overhead_ms" > "$rawdir/overhead.csv"
{
	printf 'round,warmup,order,arm,workload,direction,value,seconds,migrations,'
	printf 'ttwu_count,ttwu_local,domain_wake_remote_move_affine,'
	printf 'perf_task_clock_ms,perf_ctx_switches,perf_cpu_migrations,counters\n'
} > "$csv"
printf '%s\n' "${arm_names[@]}" > "$rawdir/arms.txt"

# perf stat -x, output -> PV="task-clock ms,context switches,cpu migrations"
# (empty fields where perf did not run or could not count).
perf_values() {
	local val unit ev rest tc= cs= cm=
	if [ -r "$1" ]; then
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

# wakebench's JSON -> the same columns, over its measured window.
json_values() {	# output
	local o=$1 tt= tl= dom= tc= cs= cm=
	[[ $o =~ \"ttwu_count\":([0-9]+) ]] && tt=${BASH_REMATCH[1]}
	[[ $o =~ \"ttwu_local\":([0-9]+) ]] && tl=${BASH_REMATCH[1]}
	[[ $o =~ \"domain_wake_remote_move_affine\":\"([0-9\;]*)\" ]] && dom=${BASH_REMATCH[1]}
	[[ $o =~ \"task_clock_ms\":([0-9.eE+-]+) ]] && tc=${BASH_REMATCH[1]}
	[[ $o =~ \"ctx_switches\":([0-9]+) ]] && cs=${BASH_REMATCH[1]}
	[[ $o =~ \"cpu_migrations\":([0-9]+) ]] && cm=${BASH_REMATCH[1]}
	JV="$tt,$tl,$dom,$tc,$cs,$cm"
}

# Seeded permutations of the arms, one line per round (Fisher-Yates in
# awk), computed up front: no forks between measurements.
total=$((rounds + warmup))
nperm=$total
[ -z "$ci_target" ] || nperm=$((MAX_ROUNDS + warmup))
mapfile -t perm < <(printf '%s\n' "${arm_names[@]}" | awk -v s="$seed" -v n="$nperm" '
	{ a[NR] = $0 } END { for (r = 1; r <= n; r++) { srand(s * 1000 + r)
		for (i = 1; i <= NR; i++) b[i] = a[i]
		for (i = NR; i > 1; i--) {
			j = int(rand() * i) + 1; t = b[i]; b[i] = b[j]; b[j] = t
		}
		l = b[1]; for (i = 2; i <= NR; i++) l = l " " b[i]; print l } }')

have_ss=
[ -r /proc/schedstat ] && have_ss=1

# Workload output and logs go to tmpfs during the run (creating files on a
# guest's results share costs more than the rest of the harness) and to
# $rawdir/log at exit.
shm=/tmp
[ -w /dev/shm ] && shm=/dev/shm
TMPDIR=$shm	# bash here-strings (not exported: workloads keep theirs)
logs=$(mktemp -d "$shm/ab-log.XXXXXX") || die "cannot create a directory in $shm"
[ -z "$perf_bin" ] || mkdir -p "$rawdir/perf"

# Rows and logs of the current round, written once per round (and by
# flush at exit: partial results stay).
rows= rlog=
flush() {
	[ -z "$rows" ] || printf '%s' "$rows" >> "$csv"
	[ -z "$rlog" ] || printf '%s' "$rlog" >> "$logs/round-$round.txt"
	rows= rlog=
}

# Run workload $1 in a session of its own, in the background: a signal to
# ab.sh is handled at once, and stop_workload reaches all of its tasks.
run_workload() {	# index perf-file [arm]
	local k=$1 cmd=${W_CMD[$1]}
	[ -z "${spin[$k,${3:-}]:-}" ] || cmd+=" --spin-ns ${spin[$k,$3]}"
	if [ -n "$trace_cost" ] && [ "${3:-}" = traced ]; then
		cmd="$here/wakestat -o /dev/null"
		[ "${W_WB[k]}" = 0 ] || cmd+=" -c pp-wakee"
		cmd+=" -- ${W_CMD[k]}"
	fi
	if [ "${W_WB[k]}" = 0 ] && [ -n "$perf_bin" ]; then
		setsid "$perf_bin" stat -x, -e "$perf_events" -o "$2" \
			-- sh -c "$cmd" > "$logs/cur" 2>&1 < /dev/null &
	else
		setsid sh -c "$cmd" > "$logs/cur" 2>&1 < /dev/null &
	fi
	wl_pid=$!
	wait "$wl_pid"
	RC=$?
	wl_pid=
	O=
	IFS= read -r -d '' O < "$logs/cur"
	O=${O%$'\n'}
}

# The kernel's side, after the measured rounds: each workload once more per
# arm under wakestat (if it is next to ab.sh and BPF runs here), outside the
# samples: the tracer's cost stays out of the verdicts.  wakebench's wakees
# are named pp-wakee; other workloads' wakees are not filtered.
trace_arms() {
	local ws=$here/wakestat arm k wn f filt why
	if [ -z "$trace" ]; then
		echo "wakestat: not run (${trace_cost:+--trace-cost: }--no-trace)" \
			> "$rawdir/wakestat.txt"
		return 0
	fi
	if [ ! -x "$ws" ]; then
		log "no wakestat next to $me: no placement evidence" \
		    "(its build needs clang, bpftool, libbpf-dev)"
		echo "wakestat: not built (clang, bpftool or libbpf-dev missing)" \
			> "$rawdir/wakestat.txt"
		return 0
	fi
	why=$("$ws" -- true 2>&1 >/dev/null)
	case $? in
	0) ;;
	4)	log "wakestat cannot run here: ${why#wakestat: skip: }"
		echo "wakestat: ${why#wakestat: }" > "$rawdir/wakestat.txt"
		return 0 ;;
	*)	die "wakestat failed: $why" ;;
	esac
	mkdir -p "$rawdir/wakestat"
	for arm in "${arm_names[@]}"; do
		set_arm "$arm"
		for ((k = 0; k < ${#W_NAME[@]}; k++)); do
			wn=${W_NAME[k]}
			log "traced run: arm $arm, $wn under wakestat"
			f=$rawdir/wakestat/${arm}@${wn//[^A-Za-z0-9_.@-]/_}.json
			filt=
			[ "${W_WB[k]}" = 0 ] || filt="-c pp-wakee"
			setsid "$ws" -j $filt -o "$f" -- sh -c "${W_CMD[k]}" \
				> "$logs/cur" 2>&1 < /dev/null &
			wl_pid=$!
			wait "$wl_pid"
			RC=$?
			wl_pid=
			[ $RC = 0 ] || log "traced run of $wn, arm $arm: exit $RC (see $rawdir/log)"
			{ echo "=== traced, arm $arm, $wn: exit $RC"; cat "$logs/cur"; } \
				>> "$logs/traced.txt"
		done
	done
	echo "wakestat: one traced run per arm and workload, not in the samples" \
		> "$rawdir/wakestat.txt"
}

# --power: base's median op time per workload from three runs in this
# boot, before the rounds; each work+Kpct arm then adds K% of it per op.
declare -A spin=()
if [ -n "$power" ]; then
	set_arm base
	for ((k = 0; k < ${#W_NAME[@]}; k++)); do
		cal=()
		for i in 1 2 3; do
			log "power: calibration run $i/3 of ${W_NAME[k]}"
			run_workload "$k" /dev/null base
			[ $RC = 0 ] && [[ $O =~ ${W_RE[k]} ]] ||
				die "power: calibration run of ${W_NAME[k]} failed (exit $RC)"
			cal+=("${BASH_REMATCH[1]}")
		done
		med=$(printf '%s\n' "${cal[@]}" | sort -g | sed -n 2p)
		for a in "${arm_names[@]}"; do
			[ -n "${arm_pct[$a]:-}" ] || continue
			spin[$k,$a]=$(awk -v m="$med" -v p="${arm_pct[$a]}" \
				'BEGIN { printf "%d", m * p * 10 + 0.5 }')
			echo "power: ${W_NAME[k]} base median $med us/op (of ${cal[*]}):" \
			     "arm $a spins ${spin[$k,$a]} ns per op" >> "$rawdir/environment.txt"
		done
	done
fi

# --ci-target: after each measured round from the -r-th on, abstat checks
# every comparison's CI half-width (paired by round) on the samples so far;
# one more round unless it is met, the budget is spent, the stop file
# exists or MAX_ROUNDS ran.  The outcome goes to adaptive.txt (the report).
adapt() {
	local why= line el
	schedstat_fill
	line=$("$here/abstat" -c "$ci_target" -b "${base_arm:-${arm_names[0]}}" "$csv" 2>&1)
	case $? in
	0) why="met" ;;
	3) ;;
	*) die "--ci-target: abstat failed on $csv: $line" ;;
	esac
	now_ms
	el=$(( (NOW - t_start) / 1000 ))
	if [ -z "$why" ]; then
		if [ "$el" -ge "$budget" ]; then
			why="budget of $budget s spent"
		elif [ -n "$stop_file" ] && [ -e "$stop_file" ]; then
			why="host's budget spent (stop file $stop_file)"
		elif [ "$round" -ge $MAX_ROUNDS ]; then
			why="$MAX_ROUNDS rounds, the most"
		else
			total=$((r + 1))
			log "round $round: $line: one more round"
			return 0
		fi
	fi
	echo "adaptive length (--ci-target $ci_target%): stopped after $round rounds," \
	     "$el s: $why; $line" > "$rawdir/adaptive.txt"
	log "$(cat "$rawdir/adaptive.txt")"
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
		for ((k = 0; k < ${#W_NAME[@]}; k++)); do
			wn=${W_NAME[k]}
			pf=$rawdir/perf/$round-$arm-$wn.csv
			tag=$r/$arm/$wn
			[ "${W_WB[k]}" = 1 ] || [ -z "$have_ss" ] || snap "$tag" before
			now_ms
			t0=$NOW
			run_workload "$k" "$pf" "$arm"
			now_ms
			t1=$NOW
			[ "${W_WB[k]}" = 1 ] || [ -z "$have_ss" ] || snap "$tag" after
			busy=$((busy + t1 - t0))
			rlog+="=== round $round, arm $arm, $wn: exit $RC"$'\n'"$O"$'\n'
			if [ $RC = 4 ]; then
				log "$wn skipped (exit 4): ${O##*$'\n'}"
				continue
			fi
			if [ $RC != 0 ] || ! [[ $O =~ ${W_RE[k]} ]]; then
				flush
				[ $RC = 0 ] ||
					die "workload $wn failed (exit $RC) in arm $arm: ${O: -300}"
				die "workload $wn: no match for /${W_RE[k]}/ in its output" \
				    "(see $rawdir/log/round-$round.txt)"
			fi
			v=${BASH_REMATCH[1]}
			m=
			[[ $O =~ \"migrations\":(-?[0-9]+) ]] && m=${BASH_REMATCH[1]}
			if [ "${W_WB[k]}" = 1 ]; then
				json_values "$O"
				rows+="$round,$is_warm,$order,$arm,$wn,${W_DIR[k]},$v,"
				rows+="$((t1 - t0)),$m,$JV,window"$'\n'
				continue
			fi
			d=,,
			[ -z "$have_ss" ] || d="@$tag,,"
			perf_values "$pf"
			rows+="$round,$is_warm,$order,$arm,$wn,${W_DIR[k]},$v,"
			rows+="$((t1 - t0)),$m,$d,$PV,command"$'\n'
		done
	done
	flush
	now_ms
	t_end=$NOW
	over=$((t_end - t_round - busy))
	pm=$((over * 1000 / (t_end - t_round + 1)))
	log "round $r/$total done in $(( (t_end - t_round) / 1000 )) s;" \
	    "harness overhead $over ms ($((pm / 10)).$((pm % 10))%)"
	echo "$r,$((t_end - t_round)),$over" >> "$rawdir/overhead.csv"
	[ -z "$ci_target" ] || [ "$round" -lt "$rounds" ] || adapt
done
trace_arms
restore
trap - EXIT
log "done: $csv"
[ -n "$out" ] || exit 0
report "$out"
