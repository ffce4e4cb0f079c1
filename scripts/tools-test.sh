#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of the bench tools and the scripts' command lines, on the
# running kernel (no guest): -h of every script and tool, options checked
# before anything boots (qemu is a shim that records being called), results
# directories that are not empty refused, an A/A run of ab.sh on this
# machine (no writable sched/features needed) and --recheck reproducing its
# table, and the kselftest config fragment giving the loads what they need.
# Needs the built sched kselftests (make build).  TAP on stdout; exit 1 if
# any case fails.
#
# usage: tools-test.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"


[ $# = 0 ] || die "usage: $WP_ME"
KS=$WP_BUILD/kselftest/sched
[ -x "$KS/ab.sh" ] || die "no built tools in $KS: run 'make build'"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wp-tools-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# A qemu that must not run: options are checked before any boot.
printf '#!/bin/sh\necho "$0 $*" >> %q/qemu-calls\nexit 1\n' "$tmp" > "$tmp/bin/qemu-system-x86_64"
chmod +x "$tmp/bin/qemu-system-x86_64"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }

# --- -h and --help: full usage on stdout, exit 0.
help_case() {	# name command...
	local name=$1 o rc=0
	shift
	o=$("$@" 2>/dev/null) || rc=$?
	if [ $rc != 0 ]; then
		not_ok "help:$name exit $rc"
	elif ! grep -qi "usage" <<<"$o"; then
		not_ok "help:$name no usage on stdout"
	else
		ok "help:$name exit 0, $(wc -l <<<"$o") lines"
	fi
}
for f in "$WP_ROOT"/scripts/*.sh; do
	case ${f##*/} in common.sh) continue ;; esac
	for h in -h --help; do help_case "${f##*/}$h" "$f" "$h"; done
done
for t in "$KS"/*; do
	[ -x "$t" ] && [ -f "$t" ] || continue
	# cs_prctl_test is upstream's, with its own conventions (-h only).
	case ${t##*/} in cs_prctl_test) continue ;; esac
	for h in -h --help; do help_case "${t##*/}$h" "$t" "$h"; done
done
help_case "make-bench-ARGS=-h" make -s -C "$WP_ROOT" bench ARGS=-h
help_case "make-vm-ARGS=-h" make -s -C "$WP_ROOT" vm ARGS=-h
help_case "make-help" make -s -C "$WP_ROOT" help

# --- bad options: a clear error, exit 2, no boot, nothing created.
reject() {	# name expected-regex command...
	local name=$1 re=$2 o rc=0 out=$tmp/out-reject
	shift 2
	rm -f "$tmp/qemu-calls"
	o=$(PATH=$tmp/bin:$PATH timeout 60 "$@" -o "$out" 2>&1) || rc=$?
	if [ $rc != 2 ]; then
		not_ok "reject:$name exit $rc, want 2: $(tail -1 <<<"$o")"
	elif [ -e "$tmp/qemu-calls" ]; then
		not_ok "reject:$name qemu was started"
	elif [ -e "$out" ]; then
		not_ok "reject:$name created $out"
	elif ! grep -qE -- "$re" <<<"$o"; then
		not_ok "reject:$name message does not match /$re/: $o"
	else
		ok "reject:$name exit 2: $(head -1 <<<"$o")"
	fi
}
reject bench-load "unknown load 'pipz'" "$WP_ROOT/scripts/bench.sh" -l pipz
reject bench-level "unknown level '0'" "$WP_ROOT/scripts/bench.sh" -n 0
reject bench-placement "unknown placement 'cross-moon'" "$WP_ROOT/scripts/bench.sh" -p cross-moon
reject bench-feature "'SIS_CACH'" "$WP_ROOT/scripts/bench.sh" -a base,SIS_CACH
reject bench-preset "unknown topology preset 'smp'" "$WP_ROOT/scripts/bench.sh" -t smp
reject bench-rounds "-r takes" "$WP_ROOT/scripts/bench.sh" -r five
reject ab-load "unknown load 'pipz'" "$KS/ab.sh" -l pipz
reject ab-arm "not a sched feature name" "$KS/ab.sh" -a 'base,x=sis_cache'
reject ab-margin "--margin takes a percentage" "$KS/ab.sh" --margin 1%
reject ab-power "not a percentage in" "$KS/ab.sh" --power 1,0
reject ab-power-load "not a wakebench rr load" "$KS/ab.sh" --power 5 -l tcp_stream
reject bench-kernel "unknown kernel 'seires'" "$WP_ROOT/scripts/bench.sh" -k series,seires
reject bench-icount-host "not with HOST=1" env HOST=1 "$WP_ROOT/scripts/bench.sh" --icount
reject bench-ci-target "--ci-target takes a percentage" "$WP_ROOT/scripts/bench.sh" --ci-target 0
reject bench-ci-kernels "across kernels the boot is the unit" "$WP_ROOT/scripts/bench.sh" \
	--ci-target 1 -k series,baseline
reject bench-budget "--budget takes seconds" "$WP_ROOT/scripts/bench.sh" --ci-target 1 --budget 1h
reject ab-ci-target "--ci-target takes a percentage" "$KS/ab.sh" --aa --ci-target 100

# --- one table, one clock: instruction-time (icount) runs are not merged
# with wall-clock ones, by bench.sh --append (before booting) or --recheck.
clock_case() {
	local d=$tmp/clock rc=0 o before
	rm -rf "$d" && mkdir -p "$d/series-1/ab"
	printf 'round,warmup,order,arm,workload,direction,value\n1,0,1,base,pipe@1,lower,9\n1,0,2,SIS_CACHE,pipe@1,lower,8\n' \
		> "$d/series-1/ab/samples.csv"
	printf 'base\nSIS_CACHE\n' > "$d/series-1/ab/arms.txt"
	echo "accelerator: icount (--icount)" > "$d/series-1/run.txt"
	before=$(cd "$d" && find . -exec stat -c '%n %s %Y' {} + | sort)
	rm -f "$tmp/qemu-calls"
	o=$(PATH=$tmp/bin:$PATH timeout 60 "$WP_ROOT/scripts/bench.sh" --append -l pipe -n 1 \
		-a base,SIS_CACHE -r 1 -W 0 -d 0.2 -o "$d" 2>&1) || rc=$?
	if [ $rc != 2 ] || [ -e "$tmp/qemu-calls" ] || ! grep -q "one table holds one clock" <<<"$o" ||
	   [ "$(cd "$d" && find . -exec stat -c '%n %s %Y' {} + | sort)" != "$before" ]; then
		not_ok "clock-append: exit $rc (want 2), qemu $([ -e "$tmp/qemu-calls" ] && echo started || echo 'not started'): $(tail -1 <<<"$o")"
	else
		ok "clock-append: exit 2, nothing booted or changed: $(grep -m1 'one clock' <<<"$o")"
	fi
	cp -r "$d/series-1" "$d/series-2"
	echo "accelerator: tcg (no usable /dev/kvm)" > "$d/series-2/run.txt"
	rc=0
	o=$("$KS/ab.sh" --recheck "$d" 2>&1) || rc=$?
	if [ $rc != 1 ] || [ -e "$d/samples.csv" ] || [ -e "$d/table.txt" ] ||
	   ! grep -q "one table holds one clock" <<<"$o"; then
		not_ok "clock-recheck: exit $rc (want 1), samples.csv $([ -e "$d/samples.csv" ] && echo written || echo 'not written'): $o"
	else
		ok "clock-recheck: exit 1, no table: $(grep -m1 'one clock' <<<"$o")"
	fi
}
clock_case
if [ -x "$KS/wakestat" ]; then
	reject wakestat-pid "-p: want a PID" "$KS/wakestat" -p abc
	reject wakestat-interval "interval: want seconds" "$KS/wakestat" 0
	reject wakestat-comm "at most 15 characters" "$KS/wakestat" -c a-very-long-command-name
else
	ok "reject:wakestat # SKIP wakestat not built (clang, bpftool, libbpf-dev)"
fi

# --- a results directory that is not empty is refused, unchanged.
refuse() {	# name command...
	local name=$1 o rc=0 d=$tmp/used before
	shift
	rm -rf "$d" && mkdir -p "$d/host-1/ab"
	echo "round,warmup,order,arm,workload,direction,value" > "$d/host-1/ab/samples.csv"
	echo "1,0,1,A,pipe@1,lower,99" >> "$d/host-1/ab/samples.csv"
	before=$(cd "$d" && find . -exec stat -c '%n %s %Y' {} + | sort)
	rm -f "$tmp/qemu-calls"
	o=$(PATH=$tmp/bin:$PATH timeout 120 "$@" -o "$d" 2>&1) || rc=$?
	if [ $rc = 0 ]; then
		not_ok "refuse-used-dir:$name exit 0 (old samples merged)"
	elif [ "$(cd "$d" && find . -exec stat -c '%n %s %Y' {} + | sort)" != "$before" ]; then
		not_ok "refuse-used-dir:$name exit $rc but $d changed"
	elif [ -e "$tmp/qemu-calls" ]; then
		not_ok "refuse-used-dir:$name qemu was started"
	elif ! grep -q "not empty" <<<"$o"; then
		not_ok "refuse-used-dir:$name exit $rc without saying why: $o"
	else
		ok "refuse-used-dir:$name exit $rc: $(grep -m1 'not empty' <<<"$o")"
	fi
}
refuse bench "$WP_ROOT/scripts/bench.sh" -l pipe -n 1 -a base,SIS_CACHE -r 1 -W 0 -d 0.2
refuse ab "$KS/ab.sh" --aa -l pipe -n 1 -r 1 -W 0 -d 0.2

# --- arms that need sched features, on a machine without a writable
# features file: stop before anything runs, naming what is missing.
if [ -w /sys/kernel/debug/sched/features ]; then
	ok "no-features # SKIP this machine has a writable sched/features"
else
	rc=0
	o=$("$KS/ab.sh" -l pipe -n 1 -a base,SIS_CACHE -r 1 -W 0 -d 0.2 -o "$tmp/nofeat" 2>&1) || rc=$?
	if [ $rc = 1 ] && [ ! -e "$tmp/nofeat" ] && grep -q "SIS_CACHE.*not writable" <<<"$o"; then
		ok "no-features: exit 1 before anything ran: $o"
	else
		not_ok "no-features: exit $rc, $( [ -e "$tmp/nofeat" ] && echo "created the results directory, ")$o"
	fi
fi

# --- an A/A run on the running kernel, then --recheck from its results.
if [ "$(id -u)" != 0 ]; then
	ok "host-aa # SKIP needs root"
else
	rc=0
	"$KS/ab.sh" --aa -l pipe,pipe-thread -n 1 -p unbound,cross-smt -r 3 -W 1 -d 0.3 -s 7 \
		-o "$tmp/aa" > "$tmp/aa.out" 2> "$tmp/aa.err" || rc=$?
	rows=$(awk -F, 'NR > 1 && !$3' "$tmp/aa/samples.csv" 2>/dev/null | wc -l)
	if [ $rc != 0 ]; then
		not_ok "host-aa: ab.sh exit $rc: $(tail -2 "$tmp/aa.err")"
	elif ! grep -q '"verdict"' "$tmp/aa/comparisons.json"; then
		not_ok "host-aa: no verdict in comparisons.json"
	elif [ "$rows" -lt 12 ]; then
		not_ok "host-aa: $rows measured samples, want >= 12 (2 loads x 2 arms x 3 rounds)"
	elif [ "$(ls "$tmp"/aa/plots/*.png 2>/dev/null | wc -l)" != "$(ls "$tmp"/aa/plots/*.svg | wc -l)" ] ||
	     [ "$(grep -c "<svg" "$tmp/aa/report.html")" != "$(ls "$tmp"/aa/plots/*.svg | wc -l)" ]; then
		not_ok "host-aa: plots not all rendered to PNG and in report.html"
	else
		ok "host-aa: $rows samples, $(grep -c '"verdict"' "$tmp/aa/comparisons.json") comparisons; skipped: $(cat "$tmp"/aa/host-1/ab/skipped.txt | tr '\n' ';')"
	fi
	if [ $rc = 0 ]; then
		cp "$tmp/aa/table.txt" "$tmp/table.first"
		rm -rf "$tmp/aa/table.txt" "$tmp/aa/comparisons.json" "$tmp/aa/plots" "$tmp/aa/samples.csv"
		rc=0
		"$KS/ab.sh" --recheck "$tmp/aa" > /dev/null 2>&1 || rc=$?
		if [ $rc = 0 ] && cmp -s "$tmp/table.first" "$tmp/aa/table.txt"; then
			ok "recheck: same table from the results directory, nothing run"
		else
			not_ok "recheck: exit $rc; $(diff "$tmp/table.first" "$tmp/aa/table.txt" 2>&1 | head -5)"
		fi
		# --append: a second run merged with the first (boots host-1, host-2)
		rc=0
		"$KS/ab.sh" --aa -l pipe -n 1 -r 2 -W 0 -d 0.2 -s 8 --no-trace --append \
			-o "$tmp/aa" > "$tmp/aa2.out" 2>&1 || rc=$?
		b1=$(grep -c "^host-1," "$tmp/aa/samples.csv" || true)
		b2=$(grep -c "^host-2," "$tmp/aa/samples.csv" || true)
		if [ $rc = 0 ] && [ "$(head -c 11 "$tmp/aa/samples.csv")" = "boot,round," ] &&
		   [ "$b1" -ge 12 ] && [ "$b2" -ge 4 ]; then
			ok "append: the second run merged with the first ($b1 + $b2 rows)"
		else
			not_ok "append: exit $rc, header $(head -c 11 "$tmp/aa/samples.csv"), rows $b1 of host-1, $b2 of host-2: $(tail -1 "$tmp/aa2.out")"
		fi
	fi
fi

# --- make bench HOST=1: ab.sh on this kernel through bench.sh, and what a
# rerun needs recorded in source.txt.
if [ "$(id -u)" != 0 ]; then
	ok "bench-host # SKIP needs root"
else
	rc=0
	HOST=1 "$WP_ROOT/scripts/bench.sh" --aa -l pipe -n 1 -r 2 -W 0 -d 0.2 -s 5 -o "$tmp/hb" \
		> "$tmp/hb.out" 2>&1 || rc=$?
	src=$tmp/hb/source.txt
	if [ $rc != 0 ]; then
		not_ok "bench-host: exit $rc: $(tail -2 "$tmp/hb.out")"
	elif ! grep -qx "command: scripts/bench.sh --aa -l pipe -n 1 -r 2 -W 0 -d 0.2 -s 5 -o $tmp/hb" "$src" ||
	     ! grep -qx "HOST=1" "$src" ||
	     ! grep -qx "wakeplace: $(git -C "$WP_ROOT" rev-parse HEAD)" "$src" ||
	     ! grep -q "^git diff HEAD:" "$src"; then
		not_ok "bench-host: source.txt lacks the command, HOST=1, HEAD or the diff: $(head -4 "$src" | tr '\n' ';')"
	elif ! grep -q "^running kernel $(uname -r), no guest" "$tmp/hb/table.txt"; then
		not_ok "bench-host: the table does not say it ran on the running kernel"
	else
		ok "bench-host: table on the running kernel, source.txt with command, HEAD, status and diff"
	fi
fi

# --- wakestat on the running kernel, in a mount namespace of its own (the
# host's mounts stay as they are): with tracefs mounted there it must
# report (from the series' tracepoint, or the fallback naming what it
# lacks); with an empty directory over tracefs and debugfs it must exit 4
# and say why.
if [ ! -x "$KS/wakestat" ]; then
	ok "host-wakestat # SKIP wakestat not built (clang, bpftool, libbpf-dev)"
	ok "host-wakestat-no-tracefs # SKIP wakestat not built (clang, bpftool, libbpf-dev)"
elif [ "$(id -u)" != 0 ]; then
	ok "host-wakestat # SKIP needs root"
	ok "host-wakestat-no-tracefs # SKIP needs root"
else
	T=/sys/kernel/tracing
	rc=0
	unshare -m sh -c "mountpoint -q $T || mount -t tracefs nodev $T || exit 99
		exec \"\$0\" -j -o \"\$1\" -- sh -c \
			'i=0; while [ \$i -lt 200 ]; do echo x | cat > /dev/null; i=\$((i + 1)); done'" \
		"$KS/wakestat" "$tmp/ws.json" 2> "$tmp/ws.err" || rc=$?
	# no JSON when wakestat did not run: say so below, do not stop here
	src=$(sed -n 's/.*"source":"\([^"]*\)".*/\1/p' "$tmp/ws.json" 2>/dev/null || true)
	w=$(sed -n 's/.*"wakeups":\([0-9]*\).*/\1/p' "$tmp/ws.json" 2>/dev/null || true)
	if [ $rc = 99 ]; then
		ok "host-wakestat # SKIP cannot mount tracefs here (a chroot?): $(tail -1 "$tmp/ws.err")"
	elif [ $rc != 0 ]; then
		not_ok "host-wakestat: exit $rc: $(tail -2 "$tmp/ws.err")"
	elif [ "${w:-0}" -gt 0 ] && [ -n "$src" ]; then
		ok "host-wakestat: $w wakeups traced from $src"
	else
		not_ok "host-wakestat: no wakeup counted: $(head -c 300 "$tmp/ws.json")"
	fi
	rc=0
	mkdir -p "$tmp/empty"
	unshare -m sh -c "mount --bind \"\$1\" $T && mount --bind \"\$1\" /sys/kernel/debug || exit 99
		exec \"\$0\" -- true" "$KS/wakestat" "$tmp/empty" 2> "$tmp/ws2.err" || rc=$?
	if [ $rc = 4 ] && grep -q "wakestat: skip: .*tracefs" "$tmp/ws2.err"; then
		ok "host-wakestat-no-tracefs: exit 4, $(grep -m1 'skip: ' "$tmp/ws2.err" | sed 's/.*skip: //')"
	else
		not_ok "host-wakestat-no-tracefs: exit $rc, want 4 with the reason: $(tail -2 "$tmp/ws2.err")"
	fi
fi

# --- stockcmp (make test-full's verdict on the stock branches): a rate
# that is higher in every chunk differs; one burst in one chunk, the case
# that made summed counts useless, does not; too few chunks of a test
# fails, too few of a branch is a skip saying so.
chunks() {	# test count n outside inactive
	local j
	for ((j = 0; j < $2; j++)); do
		echo "# # $1 chunk $j: 5000 decided; prev 900/0/0; idle-cpu $3/$4/$5"
	done
}
stock_case() {	# name want-rc want-regex file-a file-b
	local rc=0 o
	o=$("$KS/stockcmp" "$4" "$5" 2>&1) || rc=$?
	if [ "$rc" = "$2" ] && grep -q -- "$3" <<<"$o"; then
		ok "stockcmp:$1 exit $rc: $(grep -m1 -- "$3" <<<"$o")"
	else
		not_ok "stockcmp:$1 exit $rc (want $2 and /$3/): $(tr '\n' ';' <<<"$o")"
	fi
}
chunks hotplug 12 1000 0 10 > "$tmp/st-high"
chunks hotplug 12 1000 0 2 > "$tmp/st-low"
{ chunks hotplug 11 1000 0 1; echo "# # hotplug chunk 11: 5000 decided; idle-cpu 1000/0/200"; } > "$tmp/st-burst"
chunks hotplug 12 1000 0 1 > "$tmp/st-base"
chunks hotplug 3 1000 0 1 > "$tmp/st-short"
stock_case higher-every-chunk 1 "^fail stock:hotplug:idle-cpu:inactive .*differs, higher" "$tmp/st-high" "$tmp/st-low"
stock_case lower-every-chunk 1 "^fail stock:hotplug:idle-cpu:inactive .*differs, lower" "$tmp/st-low" "$tmp/st-high"
stock_case one-burst 0 "^pass stock:hotplug:idle-cpu:inactive .*ratio 17.58" "$tmp/st-burst" "$tmp/st-base"
stock_case too-few-chunks 1 "^fail stock:hotplug:chunks .*too few" "$tmp/st-short" "$tmp/st-base"
# A branch seen in 2 chunks against 1: no p below 0.01 is possible.
{ chunks hotplug 12 1000 0 1; echo "# # hotplug chunk 12: 5000 decided; idle-core 20/0/9"; echo "# # hotplug chunk 13: 5000 decided; idle-core 8/0/8"; } > "$tmp/st-rare-a"
{ chunks hotplug 12 1000 0 1; echo "# # hotplug chunk 12: 5000 decided; idle-core 19/0/0"; } > "$tmp/st-rare-b"
stock_case rare-branch 0 "^skip stock:hotplug:idle-core:inactive .*no verdict, 2 and 1 chunks" "$tmp/st-rare-a" "$tmp/st-rare-b"
echo "# # hotplug chunk 0: 5000 decided; idle-cpu 10/20/0" > "$tmp/st-bad"
stock_case bad-counts 2 "bad branch counts" "$tmp/st-bad" "$tmp/st-base"

# --- the kselftest config fragment (what 'make kselftest-merge' and CI
# systems add to their kernels) gives the tests and loads what they need.
frag=$WP_ROOT/tools/testing/selftests/sched/config
[ -f "$frag" ] || frag=$WP_TREE/tools/testing/selftests/sched/config
if [ ! -d "$WP_TREE/.git" ]; then
	ok "config-fragment # SKIP no kernel tree (make tree)"
else
	kc=$tmp/kconfig
	mkdir -p "$kc"
	make -s -C "$WP_TREE" "${KMAKE_VARS[@]}" O="$kc" KCONFIG_ALLCONFIG="$frag" allnoconfig > /dev/null 2>&1
	missing=
	for o in SMP SCHED_DEBUG SCHEDSTATS DEBUG_FS SCHED_SMT SCHED_MC NET INET; do
		grep -qx "CONFIG_$o=y" "$kc/.config" || missing+=" $o"
	done
	if [ -z "$missing" ]; then
		ok "config-fragment: allnoconfig + sched/config has SMP SCHED_DEBUG SCHEDSTATS DEBUG_FS SCHED_SMT SCHED_MC NET INET"
	else
		not_ok "config-fragment: allnoconfig + sched/config lacks:$missing"
	fi
fi

echo "1..$n"
[ "$failed" = 0 ] || { echo "# $failed of $n failed"; exit 1; }
