#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 8: the build matrix.  The series at its head (branch wakeplace)
# under configs other than the guest's; that every patch builds with the
# guest config is check-series.sh's job.
#
#   nosmp nosched-debug noschedstats notrace sched-core i386
#       scripts/build.sh --variant NAME (guest.config, then guest/NAME.config
#       over it; i386 starts from ARCH=i386 tinyconfig).  The objects of
#       kernel/sched/ and of every .c file the series touches are removed
#       first, so that their warnings are printed again (ccache replays
#       them): any warning in those fails the config.  Then one boot with
#       scripts/vm.sh --kunit-only: the built-in KUnit suites pass (nosmp
#       has none: SMP-only) and the console shows no kernel problem.
#   nosmt
#       x86 cannot build SCHED_SMT off with SMP (arch/x86/Kconfig: "def_bool
#       y if SMP"), so kernel/sched/ (every .c file the series touches) is
#       built for arm64 (gcc-aarch64-linux-gnu), defconfig with SCHED_SMT
#       off and the series' KUnit suite on, W=1, for the baseline and the
#       series, compared as debian's are.  Built only: nothing boots it.
#   debian
#       kernel/sched/ built with Debian's own config (linux-config-6.12)
#       and W=1, for the baseline and for the series: a warning the
#       series' build prints and the baseline's does not (file and message;
#       line numbers aside) fails it.
#
# Logs in build/matrix/<config>.log; one line per check in
# build/matrix/results.txt ("matrix pass|fail NAME detail", as test.sh
# writes them); the last line is "N passed, N failed".  Exit 1 if any
# check failed.
#
# usage: matrix.sh [CONFIG...]    (default: all; CONFIG as above)
set -euo pipefail
. "$(dirname "$0")/common.sh"

ALL=(nosmp nosmt nosched-debug noschedstats notrace sched-core i386 debian)
M=$WP_BUILD/matrix
RESULTS=$M/results.txt

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=("${ALL[@]}")
for c in "${configs[@]}"; do
	[[ " ${ALL[*]} " = *" $c "* ]] ||
		die "unknown config '$c' (configs: ${ALL[*]})"
done
require_tree
"$WP_ROOT/scripts/deps.sh" --check
mkdir -p "$M"
: > "$RESULTS"

result() {	# pass|fail name detail...
	local st=$1 name=$2
	shift 2
	echo "matrix $st $name $*" | tee -a "$RESULTS"
}

# The objects built from what the series changes, relative to an object
# directory: kernel/sched/ and each .c file the series touches.
series_objects() {
	echo "kernel/sched/*.o"
	tgit diff --name-only "$WP_BASE_TAG..$WP_BRANCH" -- '*.c' |
		grep -v '^tools/' | sed 's/\.c$/.o/' || :
}

variant() {	# name
	local name=$1 obj=$WP_BUILD/variants/$1/obj log=$M/$1.log t0 rc=0 o w topo
	t0=$(date +%s)
	for o in $(series_objects); do
		# shellcheck disable=SC2086 # the glob in kernel/sched/*.o
		rm -f "$obj"/$o
	done
	wp_child "$WP_ROOT/scripts/build.sh" --variant "$name" > "$log" 2>&1 || rc=$?
	if [ $rc != 0 ]; then
		result fail "build:$name" "build.sh exit $rc: $(grep -m1 -E 'error:' "$log" || tail -n 1 "$log")"
		return 0
	fi
	w=$(grep -c 'warning:' "$log" || true)
	if [ "$w" = 0 ]; then
		result pass "build:$name" "$(($(date +%s) - t0)) s, no warnings"
	else
		result fail "build:$name" "$w warning(s): $(grep -m1 'warning:' "$log")"
	fi
	# A uniprocessor kernel gets one CPU; the others the smt preset's 8
	# (i386's NR_CPUS).
	topo=smt
	[ "$name" != nosmp ] || topo=1
	rc=0
	wp_child "$WP_ROOT/scripts/vm.sh" --kunit-only -t "$topo" -T 900 \
		-k "$obj/arch/x86/boot/bzImage" -o "$M/$name-boot" >> "$log" 2>&1 || rc=$?
	# Only nosmp may have no suite: the series' KUnit suites need SMP.
	if [ $rc = 0 ] && [ "$name" != nosmp ] &&
	   grep -q '^kunit: 0 of 0 ' "$M/$name-boot/run.txt"; then
		result fail "kunit:$name" "no KUnit suite ran (see $M/$name-boot)"
	elif [ $rc = 0 ]; then
		result pass "kunit:$name" "$(grep '^kunit:' "$M/$name-boot/run.txt" | tail -n 1), clean console"
	else
		result fail "kunit:$name" "vm.sh exit $rc: $(grep -E '^(kunit|console):' "$M/$name-boot/run.txt" | tr '\n' ' ')(see $M/$name-boot)"
	fi
}

# The configs of the kernel/sched/-only builds, into @out.
sched_config() {	# debian|nosmt src out
	case $1 in
	debian) debian_config "$2" "$3" ;;
	nosmt)
		make -C "$2" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -s O="$3.d" defconfig
		mv "$3.d/.config" "$3"
		rm -rf "$3.d"
		"$2/scripts/config" --file "$3" --disable SCHED_SMT --enable SCHED_DEBUG \
			--enable SCHEDSTATS --enable KUNIT --enable SCHED_FAIR_KUNIT_TEST ;;
	esac
}

# kernel/sched/ of @src with @what's config and W=1; warnings, line
# numbers and paths up to the source tree dropped, sorted, on stdout.
sched_w1() {	# debian|nosmt src obj log
	local what=$1 src=$2 obj=$3 log=$4 kv=("${KMAKE_VARS[@]}") cc="ccache gcc"
	[ "$what" != nosmt ] || { kv=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-); cc="ccache aarch64-linux-gnu-gcc"; }
	local kmake=(make -C "$src" "${kv[@]}" -j"$(nproc)" -s O="$obj" CC="$cc")
	mkdir -p "$obj"
	: > "$log"
	sched_config "$what" "$src" "$obj/.config.new" >> "$log" 2>&1 ||
		{ log "$src: no $what config (see $log)"; return 1; }
	cmp -s "$obj/.config.new" "$obj/.config.in" 2>/dev/null ||
		{ cp "$obj/.config.new" "$obj/.config.in"; cp "$obj/.config.new" "$obj/.config"; }
	rm -f "$obj/.config.new" "$obj"/kernel/sched/*.o
	{ "${kmake[@]}" olddefconfig && "${kmake[@]}" prepare &&
	  "${kmake[@]}" W=1 kernel/sched/; } >> "$log" 2>&1 ||
		{ log "$src: kernel/sched/ with the $what config failed (see $log)"; return 1; }
	[ "$what" != nosmt ] || ! grep -q '^CONFIG_SCHED_SMT=y' "$obj/.config" ||
		{ log "$src: arm64 config still has SCHED_SMT"; return 1; }
	# No warning at all is the usual case for arm64 (grep exits 1).
	{ grep 'warning:' "$log" || :; } | sed -e "s|^$src/||" -e 's|^[^ ]*/\(kernel\|include\|arch\)/|\1/|' \
		-e 's|^\([^:]*\):[0-9]*:[0-9]*:|\1:|' | sort -u
}

# debian or nosmt: kernel/sched/ of the baseline and of the series.
sched_only() {	# debian|nosmt
	local w=$1 log=$M/$1.log t0 new nb ns
	t0=$(date +%s)
	[ -d "$WP_BUILD/baseline/linux" ] || wp_child "$WP_ROOT/scripts/build.sh" --baseline
	: > "$log"
	kbuild_env
	if ! sched_w1 "$w" "$WP_BUILD/baseline/linux" "$M/$w-baseline" "$M/$w-baseline.log" \
		> "$M/$w-baseline.warnings" ||
	   ! sched_w1 "$w" "$WP_TREE" "$M/$w-series" "$M/$w-series.log" \
		> "$M/$w-series.warnings"; then
		result fail "w1:$w" "kernel/sched/ did not build (see $M/$w-*.log)"
		return 0
	fi
	nb=$(wc -l < "$M/$w-baseline.warnings")
	ns=$(wc -l < "$M/$w-series.warnings")
	new=$(comm -13 "$M/$w-baseline.warnings" "$M/$w-series.warnings")
	{
		echo "baseline: $nb distinct W=1 warning(s) in kernel/sched/"
		echo "series:   $ns distinct W=1 warning(s) in kernel/sched/"
		echo "new with the series:"
		printf '%s\n' "${new:-  none}"
	} > "$log"
	if [ -z "$new" ]; then
		result pass "w1:$w" "$(($(date +%s) - t0)) s, kernel/sched/ W=1: $ns warning(s), the baseline's $nb, none new"
	else
		result fail "w1:$w" "$(grep -c . <<<"$new") new W=1 warning(s): $(head -n 1 <<<"$new") (see $log)"
	fi
}

t_start=$(date +%s)
for c in "${configs[@]}"; do
	log "== $c"
	case $c in
	debian|nosmt) sched_only "$c" ;;
	*) variant "$c" ;;
	esac
done
pass=$(grep -c ' pass ' "$RESULTS" || true)
fail=$(grep -c ' fail ' "$RESULTS" || true)
log "matrix: ${configs[*]} in $(($(date +%s) - t_start)) s; logs in $M"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ] || exit 1
