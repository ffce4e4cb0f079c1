#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make bench': A/B verdict on the series' features, by the series' own
# runner, ab.sh (tools/testing/selftests/sched/ab.sh, installed with the
# sched kselftests): in a guest booted on a topology preset (default), or on
# the running kernel (HOST=1).  Same options, table, plots and result
# layout either way; ab.sh -h explains the table.
#
# usage: bench.sh [options] [ab.sh options]
#   --host        run on the running kernel, as root, no guest (make bench
#                 HOST=1); its sched/features must be writable for arms that
#                 switch features (A/A runs, --aa, need none)
#  guest only:
#   -t PRESET     topology preset (default smt; see scripts/vm.sh)
#   -T SECONDS    guest timeout per boot (default 3600)
#   -k KERNELS    comma list of series (the built series kernel) and baseline
#                 (the unpatched 6.12 baseline, built on first use): each is
#                 booted in turn, in a seeded order, -b times; arms with
#                 features run on the series only, arms without on both;
#                 comparisons are against baseline's first such arm, with
#                 the boot as the unit (each boot's median, paired by boot
#                 number: the kernels of boot N run one after the other);
#                 a kernel named twice (series,series) boots the same image
#                 under two labels (series, series.2): a kernel A/A
#   -b BOOTS      boots per kernel with -k (default 2; else 1)
#   --budget S    with --ci-target: host seconds per boot, from its start,
#                 after which the guest adds no round (default 1800)
#   --icount      instruction-time guests (scripts/vm.sh -I): qemu -icount
#                 shift=0,sleep=off, single-threaded TCG even where KVM works;
#                 guest seconds are 10^9 instructions, so -d is virtual
#                 (default 0.5 here); tables, plots and JSON say
#                 "instruction-time (icount)", and such runs are never
#                 merged with wall-clock ones
#  results (default -o build/results/bench-<date>): as ab.sh; -o DIR must be
#  empty unless --append; --recheck DIR recomputes a table, boots nothing.
#  Every run records what a rerun needs in DIR/source.txt (the project's
#  git HEAD, status and diff, the kernel tree's, the command line).
#
# Exit: 0; 1 on an error (said why); 2 on a usage error; a failed guest's
# exit code (see scripts/vm.sh); 128+N on signal N.
set -euo pipefail
WP_USAGE=own
. "$(dirname "$0")/common.sh"

AB_SRC=$WP_ROOT/tools/testing/selftests/sched/ab.sh
KS=$WP_BUILD/kselftest/sched

usage() {
	sed -n '/^# usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//'
	echo
	echo "ab.sh's options and table ($AB_SRC -h):"
	echo
	"$AB_SRC" -h | sed -n '/^usage:/,$p' | sed 1d
	exit 0
}
bad() { log "$*"; log "see 'make bench ARGS=-h'"; exit 2; }

argv=("$@")
host=${HOST:-} preset=smt timeout=3600 kernels=series boots= out= seed=
append= recheck= icount= budget=1800 ab_args=() report_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--host) host=1; shift ;;
	-t|-T|-k|-b|-o|-s|--recheck)
		[ $# -ge 2 ] || bad "option $1 needs a value"
		case $1 in
		-t) preset=$2 ;; -T) timeout=$2 ;; -k) kernels=$2 ;; -b) boots=$2 ;;
		-o) out=$2 ;; -s) seed=$2 ;; --recheck) recheck=$2 ;;
		esac
		shift 2 ;;
	--append) append=1; shift ;;
	--icount) icount=1; shift ;;
	-h|--help) usage ;;
	-l|-n|-p|-a|-w|-r|-W|-d|--base|--margin|--power|--blocks|--kernel-aa|--ci-target)
		[ $# -ge 2 ] || bad "option $1 needs a value"
		case $1 in --margin|--blocks|--kernel-aa) report_args+=("$1" "$2") ;; esac
		ab_args+=("$1" "$2"); shift 2 ;;
	--budget)
		[ $# -ge 2 ] || bad "option $1 needs a value"
		budget=$2; shift 2 ;;
	--aa|--reference|--no-trace|--trace-cost) ab_args+=("$1"); shift ;;
	*) bad "unknown option '$1'" ;;
	esac
done
case $host in ''|0) host= ;; 1) ;; *) bad "HOST must be 1 or empty" ;; esac
[ -z "$host" ] || [ -z "$icount" ] ||
	bad "--icount boots an instruction-time guest: not with HOST=1"
# Instruction-time: guest seconds are 10^9 instructions; 0.5 s runs keep a
# round of the default matrix near the host time of a wall-clock round.
if [ -n "$icount" ]; then
	case " ${ab_args[*]} " in *" -d "*) ;; *) ab_args+=(-d 0.5) ;; esac
fi

if [ -n "$recheck" ]; then
	exec "$KS/ab.sh" --recheck "$recheck" "${ab_args[@]}"
fi

# Every option checked before anything is built or booted.
case $timeout in ''|*[!0-9]*) bad "-T takes seconds" ;; esac
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
case $seed in *[!0-9]*) bad "-s takes a number" ;; esac
plan=$("$AB_SRC" --dry-run -s "$seed" "${ab_args[@]}" 2>&1) ||
	bad "$(head -1 <<<"$plan" | sed "s/^ab.sh: //")"
# Every boot runs the rounds the plan resolved for the whole matrix.
rounds=$(sed -n 's/^rounds: \([0-9]*\) .*/\1/p' <<<"$plan")
case " ${ab_args[*]} " in *" -r "*) ;; *) ab_args+=(-r "$rounds") ;; esac
klist=()
for k in ${kernels//,/ }; do
	case $k in
	series|baseline)
		# the same kernel again (a kernel A/A): labels k.2, k.3, ...
		lab=$k n=1
		while [[ " ${klist[*]} " == *" $lab "* ]]; do n=$((n + 1)) lab=$k.$n; done
		klist+=("$lab") ;;
	*) bad "unknown kernel '$k' (series, baseline)" ;;
	esac
done
[ ${#klist[@]} -ge 1 ] || bad "-k: no kernel"
case ${boots:-1} in *[!0-9]*|0) bad "-b takes a number of boots" ;; esac
# Arms that switch no feature (they also run on the baseline kernel), and
# the features the arms name (known to the series' kernel?).
plain=$(awk '/^arms:/ { a = 1; next } /^[a-z]/ { a = 0 } a && $2 == "" { sub(":", "", $1); print $1 }' <<<"$plan")
feats=$(awk '/^arms:/ { a = 1; next } /^[a-z]/ { a = 0 } a { for (i = 2; i <= NF; i++) print $i }' <<<"$plan" | sort -u)
if [ -n "$host" ]; then
	[ "$kernels" = series ] && [ -z "$boots" ] && [ "$preset" = smt ] ||
		bad "-t, -k and -b choose guests: not with HOST=1 (the running kernel is the one measured)"
else
	for f in $feats; do
		[ ! -f "$WP_TREE/kernel/sched/features.h" ] ||
			grep -q "^SCHED_FEAT($f," "$WP_TREE/kernel/sched/features.h" ||
			bad "sched feature '$f' is not in the series' kernel/sched/features.h"
	done
	case $preset in smt|llc2|flat|[0-9]*) ;; *) bad "unknown topology preset '$preset' (smt, llc2, flat or a raw -smp string)" ;; esac
	if [ ${#klist[@]} -gt 1 ]; then
		[ -n "$plain" ] || bad "-k with baseline needs an arm without features (e.g. base)"
		boots=${boots:-2}
	fi
fi
boots=${boots:-1}
case $budget in ''|*[!0-9]*|0) bad "--budget takes seconds" ;; esac
if [[ " ${ab_args[*]} " == *" --ci-target "* ]]; then
	[ ${#klist[@]} = 1 ] ||
		bad "--ci-target adds rounds within a boot; across kernels the boot is the unit (add boots with -b)"
	ab_args+=(--budget "$budget")
fi
[ -z "$host" ] || [ "$(id -u)" = 0 ] || die "HOST=1 needs root (sched features, schedstats, pinned loads)"

[ -n "$out" ] || out=$WP_BUILD/results/bench-$(date +%Y%m%d-%H%M%S)
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ] && [ -z "$append" ]; then
	die "$out is not empty: its samples would be merged into this verdict (use another -o, or --append to add runs to it)"
fi
# One table, one clock: instruction-time runs are not added to wall-clock
# ones, nor the other way round.
if [ -n "$append" ] && [ -d "$out" ]; then
	want=wall-clock
	[ -z "$icount" ] || want=icount
	for f in "$out"/*/run.txt; do
		[ -f "$f" ] || continue
		have=wall-clock
		! grep -q '^accelerator: icount' "$f" || have=icount
		[ "$have" = "$want" ] ||
			bad "--append: $out holds $have runs (${f%/run.txt}); this run is $want: one table holds one clock"
	done
fi

# The tools (and for guests, the kernel) from a fresh clone: built on first use.
if [ ! -x "$KS/ab.sh" ] || [ ! -x "$KS/wakebench" ] || [ ! -x "$KS/abstat" ] ||
   { [ -z "$host" ] && [ ! -f "$WP_OBJ/arch/x86/boot/bzImage" ]; }; then
	log "no guest kernel or bench tools yet: building them (make build)"
	"$WP_ROOT/scripts/deps.sh"
	"$WP_ROOT/scripts/tree.sh"
	"$WP_ROOT/scripts/build.sh"
fi
[ -n "$host" ] || case " ${klist[*]} " in
*" baseline "*)
	[ -f "$WP_BUILD/baseline/obj/arch/x86/boot/bzImage" ] ||
		"$WP_ROOT/scripts/build.sh" --baseline ;;
esac

mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
# What a rerun needs.
source=$(mktemp "${TMPDIR:-/tmp}/wp-source.XXXXXX")
{
	printf '# %s\ncommand: scripts/bench.sh' "$(date -Is)"
	printf ' %q' "${argv[@]}"
	printf '\n'
	[ -z "$host" ] || echo "HOST=1"
	echo "seed: $seed"
	echo "wakeplace: $(git -C "$WP_ROOT" rev-parse HEAD 2>/dev/null || echo 'not a git checkout')"
	echo "kernel tree: $(tgit rev-parse HEAD 2>/dev/null || echo none) ($(tgit describe --always --dirty 2>/dev/null || echo -))"
	echo "git status --short:"
	git -C "$WP_ROOT" status --short 2>/dev/null | sed 's/^/  /'
	echo "git diff HEAD:"
	git -C "$WP_ROOT" diff HEAD 2>/dev/null
} > "$source"

if [ -n "$host" ]; then
	log "bench on the running kernel $(uname -r) (HOST=1): no guest; results in $out"
	# ab.sh checks the machine before it creates anything in $out.
	rc=0
	wp_child "$KS/ab.sh" -o "$out" --source "$source" ${append:+--append} -s "$seed" "${ab_args[@]}" || rc=$?
	rm -f "$source"
	exit $rc
fi
mkdir -p "$out"
cat "$source" >> "$out/source.txt"
rm -f "$source"

log "bench: ${icount:+instruction-time (icount) }preset $preset, kernels ${klist[*]} x $boots boot(s), seed $seed; results in $out"
first=1
while [ -e "$out/series-$first" ] || [ -e "$out/baseline-$first" ]; do first=$((first + 1)); done

# One boot of kernel $1 (boot number $2): ab.sh inside, raw samples in
# $out/$1-$2/ab.
rc=0
run_boot() {
	local k=$1 b=$2 img=$WP_OBJ/arch/x86/boot/bzImage args=("${ab_args[@]}") r=0 tailer timer
	if [ "${k%.*}" = baseline ]; then
		img=$WP_BUILD/baseline/obj/arch/x86/boot/bzImage
		args+=(-a "$(tr '\n' , <<<"$plain" | sed 's/,$//; s/\([^,]*\)/\1=/g')")
	fi
	log "boot $b: $k kernel"
	mkdir -p "$out/$k-$b"
	# Progress from the guest (ab.sh's messages land in output.log).
	( tail -F -n +1 --pid=$$ "$out/$k-$b/output.log" 2>/dev/null |
		grep --line-buffered "^ab.sh:" >&2 ) &
	tailer=$!
	# --ci-target: the host's budget for this boot; the guest adds no
	# round once the stop file exists (its own clock may be virtual).
	timer=
	if [[ " ${args[*]} " == *" --ci-target "* ]]; then
		args+=(--stop-file /run/wakeplace/stop-rounds)
		( sleep "$budget" && : > "$out/$k-$b/stop-rounds" ) &
		timer=$!
	fi
	wp_child "$WP_ROOT/scripts/vm.sh" ${icount:+-I} -t "$preset" -T "$timeout" -k "$img" -o "$out/$k-$b" -- \
		"$KS/ab.sh" --raw /run/wakeplace/ab --label "$k" -s "$((seed + b))" "${args[@]}" || r=$?
	[ -z "$timer" ] || { pkill -P "$timer" 2>/dev/null; kill "$timer" 2>/dev/null; wait "$timer" 2>/dev/null; } || true
	pkill -P $tailer 2>/dev/null || true
	kill $tailer 2>/dev/null || true
	wait $tailer 2>/dev/null || true
	[ $r = 0 ] || { log "$k boot $b: guest exit $r (partial results; see $out/$k-$b/output.log)"; rc=$r; }
}
bench_kept() { echo "partial results in $out ('make bench ARGS=\"--recheck $out\"' reports them)"; }
WP_ON_SIGNAL=bench_kept

for ((b = first; b < first + boots; b++)); do
	for k in $(printf '%s\n' "${klist[@]}" | awk -v s="$seed" -v b="$b" '
		{ a[NR] = $0 } END { srand(s + b)
		for (i = NR; i > 1; i--) { j = int(rand() * i) + 1; t = a[i]; a[i] = a[j]; a[j] = t }
		for (i = 1; i <= NR; i++) print a[i] }'); do
		run_boot "$k" "$b"
	done
done
WP_ON_SIGNAL=

base=()
if [ ${#klist[@]} -gt 1 ]; then
	k=${klist[0]}
	case " ${klist[*]} " in *" baseline "*) k=baseline ;; esac
	base=(--base "$k:$(head -1 <<<"$plain")")
fi
"$KS/ab.sh" --recheck "$out" "${base[@]}" "${report_args[@]}" || die "no report (see $out/*/output.log)"
[ "$rc" = 0 ] || log "exit $rc: a guest run failed (its boot is named above); the table holds what was measured"
exit $rc
