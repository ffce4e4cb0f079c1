#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# topology_test (and so sched_topology.c, shared with wakebench and the
# sis tests) on synthetic machines, in TAP.  Each case runs topology_test in
# a private mount namespace where /sys/devices/system, /proc/schedstat and
# /sys/kernel/debug are replaced by generated files, so the parsers meet
# shapes this machine does not have:
#
#  sysfs_llc2: 16 CPUs, SMT siblings n and n+8, two LLCs {0-3,8-11} and
#    {4-7,12-15} from cache/index3, two nodes; /proc/schedstat hidden:
#    the topology comes from sysfs and has exactly that shape.
#  sysfs_no_cache: the same without cache/ directories: the LLC is
#    reported unknown (expected_llcs skipped, naming the cache), not
#    guessed.
#  schedstat_v17: the llc2 shape as /proc/schedstat version 17 (6.15+:
#    domain names before the span) with debugfs domain flags, and the
#    matching sysfs: read from schedstat, and sysfs agrees.
#  long_cpulists: 256 CPUs numbered so that spans are long interleaved
#    cpulists, 8 domain levels (the most kept): no crash, every printed
#    line bounded, and the matching sysfs agrees.
#  llc_mismatch: as long_cpulists, but sysfs's LLC is half the
#    scheduler's: llc_matches_sysfs must fail.
#
# Needs root and unshare(1) (skips otherwise).
# usage: topology_fake_test.sh [-h | --help]
set -u

case ${1:-} in
-h|--help)
	sed -n '3,/^set -u/{/^#/s/^# \{0,1\}//p}' "$0"
	exit 0 ;;
esac

dir=$(cd "$(dirname "$0")" && pwd)
tt=$dir/topology_test
KSFT_SKIP=4
n=0 npass=0 nfail=0 nskip=0
# Thousands of small files: tmpfs where there is one (a guest's /tmp may
# be a 9p overlay).
base=/tmp
[ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/topology_fake_test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP
trap 'exit 141' PIPE

msg() { printf '%s\n' "$*" | sed 's/^/# /'; }
pass() { n=$((n + 1)) npass=$((npass + 1)); echo "ok $n $1"; }
fail() { n=$((n + 1)) nfail=$((nfail + 1)); echo "not ok $n $1"; }
skip() { n=$((n + 1)) nskip=$((nskip + 1)); echo "ok $n $1 # SKIP $2"; }

# gen MACHINE DIR [SCHEDSTAT_VERSION]: DIR/system (for /sys/devices/system),
# DIR/debug (for /sys/kernel/debug) and DIR/schedstat.
#
# Machines, as group keys per CPU c (CPUs with equal keys share the level):
#   llc2:     16 CPUs; SMT c%8, LLC and node (c%8)/4, NUMA all
#   big:      256 CPUs; SMT c%128, CLS c%4, MC, PKG, NUMA (x4) and node c%2
#   big-half: big, but sysfs's L3 is c%4 (the scheduler's LLC is c%2);
#             gen_awk l3 big-half DIR rewrites only the L3 spans
gen() {
	mkdir -p "$2" &&
	gen_awk dirs "$@" | xargs mkdir -p &&
	gen_awk files "$@"
}

gen_awk() {
	awk -v mode="$1" -v m="$2" -v dir="$3" -v ver="${4:-16}" -v cache="${CACHE:-1}" '
	function key(lvl, c) {
		if (m == "llc2") {
			if (lvl == "smt")
				return c % 8
			if (lvl == "all")
				return 0
			return int((c % 8) / 4)		# llc, l3, node
		}
		if (lvl == "smt")
			return c % 128
		if (lvl == "cls" || (lvl == "l3" && m == "big-half"))
			return c % 4
		return c % 2				# mc, pkg, l3, node
	}
	# The cpulist of the CPUs sharing level lvl with CPU c.
	function span(lvl, c,    o, e, out) {
		if ((lvl, key(lvl, c)) in spans)
			return spans[lvl, key(lvl, c)]
		out = ""
		for (o = 0; o < N; o++)
			in_[o] = key(lvl, o) == key(lvl, c)
		in_[N] = 0
		for (o = 0; o < N; o++) {
			if (!in_[o] || (o > 0 && in_[o - 1]))
				continue
			for (e = o; in_[e + 1]; e++)
				;
			out = out (out == "" ? "" : ",") (e == o ? o : o "-" e)
		}
		return spans[lvl, key(lvl, c)] = out
	}
	# The same as a %*pb mask: 32-bit hex groups, highest first.
	function mask(lvl, c,    g, b, v, out) {
		if ((lvl, key(lvl, c)) in masks)
			return masks[lvl, key(lvl, c)]
		out = ""
		for (g = int((N + 31) / 32) - 1; g >= 0; g--) {
			v = 0
			for (b = 31; b >= 0; b--)
				v = v * 2 + (g * 32 + b < N &&
					     key(lvl, g * 32 + b) == key(lvl, c))
			out = out (out == "" ? "" : ",") sprintf("%08x", v)
		}
		return masks[lvl, key(lvl, c)] = out
	}
	# mode "dirs" prints the directories, "files" writes the files, "l3"
	# only the L3 cache spans.
	function mk(path) {
		if (mode == "dirs")
			print dir "/" path
	}
	function put(path, text) {
		if (mode == "dirs" ||
		    (mode == "l3" && path !~ /index3\/shared_cpu_list$/))
			return
		print text > (dir "/" path)
		close(dir "/" path)
	}
	BEGIN {
		N = m == "llc2" ? 16 : 256
		if (m == "llc2") {
			nl = split("SMT MC NUMA", name, " ")
			split("smt llc all", lk, " ")
			split("SD_SHARE_CPUCAPACITY SD_SHARE_LLC|SD_SHARE_LLC|SD_NUMA", fl, "|")
		} else {
			nl = split("SMT CLS MC PKG NUMA NUMA NUMA NUMA", name, " ")
			split("smt cls mc pkg", lk, " ")
			fl[1] = "SD_SHARE_CPUCAPACITY SD_SHARE_LLC"
			fl[2] = "SD_CLUSTER SD_SHARE_LLC"
			fl[3] = "SD_SHARE_LLC"
			fl[4] = "SD_BALANCE_NEWIDLE"
			for (i = 5; i <= nl; i++) {	# the NUMA levels
				lk[i] = "node"
				fl[i] = "SD_NUMA"
			}
		}
		split("1 1 2 3", lv, " ")
		split("Data Instruction Unified Unified", ty, " ")
		mk("system/cpu")
		put("system/cpu/online", "0-" (N - 1))
		ss = dir "/schedstat"
		if (mode == "files")
			printf "version %d\ntimestamp 4294937296\n", ver > ss
		for (c = 0; c < N; c++) {
			cd = "system/cpu/cpu" c
			mk(cd "/topology")
			put(cd "/topology/thread_siblings_list", span("smt", c))
			for (i = 0; cache && i < 4; i++) {
				mk(cd "/cache/index" i)
				put(cd "/cache/index" i "/level", lv[i + 1])
				put(cd "/cache/index" i "/type", ty[i + 1])
				put(cd "/cache/index" i "/shared_cpu_list",
				    span(i < 3 ? "smt" : "l3", c))
			}
			if (mode == "files")
				print "cpu" c " 0 0 0 0 0 0 0 0 0" > ss
			for (l = 1; l <= nl; l++) {
				d = "debug/sched/domains/cpu" c "/domain" (l - 1)
				mk(d)
				put(d "/name", name[l])
				put(d "/flags", fl[l])
				if (mode != "files")
					continue
				printf("domain%d %s%s", l - 1,
				       (ver >= 17 ? name[l] " " : ""),
				       mask(lk[l], c)) > ss
				for (i = 0; i < 36; i++)
					printf " 0" > ss
				print "" > ss
			}
			k = key("node", c)
			if (!(k in seen)) {
				seen[k] = 1
				mk("system/node/node" k)
				put("system/node/node" k "/cpulist", span("node", c))
			}
		}
		close(ss)
	}'
}

# The mount namespace's setup, then the command: SCHEDSTAT (a file, "hide"
# or "-": leave), DEBUG dir or "-", SYSTEM dir or "-", command...
cat >"$tmp/inner.sh" <<'EOF'
ss=$1 dbg=$2 sys=$3 work=$4
shift 4
case $ss in
-) ;;
hide)	if [ -e /proc/schedstat ]; then
		mount --bind /dev/null /proc/schedstat || exit 125
	fi ;;
*)	if [ -e /proc/schedstat ]; then
		mount --bind "$ss" /proc/schedstat || exit 125
	else
		# Nothing to mount over: a /proc of links into the real one,
		# plus the file.
		mkdir -p "$work/realproc" "$work/fakeproc" &&
			mount --bind /proc "$work/realproc" || exit 125
		for e in /proc/*; do
			ln -s "$work/realproc/${e#/proc/}" "$work/fakeproc/" || exit 125
		done
		cp "$ss" "$work/fakeproc/schedstat" &&
			mount --bind "$work/fakeproc" /proc || exit 125
	fi ;;
esac
if [ "$dbg" != - ]; then
	mount --bind "$dbg" /sys/kernel/debug || exit 125
fi
if [ "$sys" != - ]; then
	mount --bind "$sys" /sys/devices/system || exit 125
fi
exec "$@"
EOF

# fake SCHEDSTAT DEBUG SYSTEM -- topology_test args: output in $tmp/out,
# exit code in $rc.
fake() {
	ss=$1 dbg=$2 sys=$3

	shift 4
	w=$(mktemp -d "$tmp/ns.XXXXXX")
	unshare -m --propagation private sh "$tmp/inner.sh" "$ss" "$dbg" "$sys" "$w" \
		"$tt" "$@" >"$tmp/out" 2>&1
	rc=$?
}

show() { sed 's/^/# /' "$tmp/out"; msg "exit $rc"; }
has() { grep -Eq "$1" "$tmp/out"; }

test_sysfs_llc2() {
	name=sysfs_llc2 m=$tmp/llc2

	gen llc2 "$m" || { fail $name; return; }
	fake hide - "$m/system" -- --cpus 16 --smt 2 --llcs 2 --nodes 2
	if [ $rc = 0 ] && has '^# topology: sysfs' &&
	   has '^ok [0-9]+ expected_cpus' && has '^ok [0-9]+ expected_smt' &&
	   has '^ok [0-9]+ expected_llcs' && has '^ok [0-9]+ expected_nodes'; then
		pass $name
	else
		show
		fail $name
	fi
}

test_sysfs_no_cache() {
	name=sysfs_no_cache m=$tmp/nocache

	CACHE=0 gen llc2 "$m" || { fail $name; return; }
	fake hide - "$m/system" -- --cpus 16 --smt 2 --llcs 2 --nodes 2
	if [ $rc != 1 ] && [ $rc -lt 128 ] && has '^# topology: sysfs' &&
	   has '^ok [0-9]+ expected_llcs # SKIP .*cache' &&
	   has '^ok [0-9]+ expected_smt$'; then
		pass $name
	else
		show
		fail $name
	fi
}

test_schedstat_v17() {
	name=schedstat_v17 m=$tmp/v17

	gen llc2 "$m" 17 || { fail $name; return; }
	fake "$m/schedstat" "$m/debug" "$m/system" -- --cpus 16 --smt 2 --llcs 2 --nodes 2
	if [ $rc = 0 ] && has '^# topology: schedstat' &&
	   has '^ok [0-9]+ llc_matches_sysfs$' && has '^ok [0-9]+ expected_llcs$'; then
		pass $name
	else
		show
		fail $name
	fi
}

# Longest "# cpuN ..." line of the dump.
longest() {
	awk '/^# cpu[0-9]/ { if (length($0) > m) m = length($0) }
	     END { print m + 0 }' "$tmp/out"
}

test_long_cpulists() {
	name=long_cpulists m=$tmp/big

	gen big "$m" || { fail $name; return; }
	fake "$m/schedstat" "$m/debug" "$m/system" -- --cpus 256 --smt 2 --llcs 2 --nodes 2
	len=$(longest)
	msg "$name: exit $rc, longest cpu line $len characters"
	if [ $rc = 0 ] && [ "$len" -gt 0 ] && [ "$len" -le 1100 ] &&
	   has '^ok [0-9]+ smt_matches_sysfs$' && has '^ok [0-9]+ llc_matches_sysfs$'; then
		pass $name
	else
		sed -n '1,12p' "$tmp/out" | cut -c 1-300 | sed 's/^/# /'
		tail -n 14 "$tmp/out" | cut -c 1-300 | sed 's/^/# /'
		fail $name
	fi
}

test_llc_mismatch() {
	name=llc_mismatch m=$tmp/big

	# long_cpulists' machine, with the L3 spans rewritten.
	[ -d "$m" ] || gen big "$m" || { fail $name; return; }
	gen_awk l3 big-half "$m" || { fail $name; return; }
	fake "$m/schedstat" "$m/debug" "$m/system" -- --cpus 256
	if [ $rc = 1 ] && has '^not ok [0-9]+ llc_matches_sysfs$' &&
	   has '^ok [0-9]+ smt_matches_sysfs$'; then
		pass $name
	else
		tail -n 14 "$tmp/out" | cut -c 1-300 | sed 's/^/# /'
		msg "exit $rc"
		fail $name
	fi
}

echo "TAP version 13"
if [ ! -x "$tt" ]; then
	echo "1..0 # SKIP no topology_test next to $0"
	exit $KSFT_SKIP
fi
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	echo "1..0 # SKIP needs root and unshare(1) for a private mount namespace"
	exit $KSFT_SKIP
fi
if ! unshare -m --propagation private sh -c \
	"mount --bind $tmp /sys/devices/system" 2>"$tmp/err"; then
	echo "1..0 # SKIP cannot mount over /sys/devices/system: $(cat "$tmp/err")"
	exit $KSFT_SKIP
fi
echo "1..5"
test_sysfs_llc2
test_sysfs_no_cache
test_schedstat_v17
test_long_cpulists
test_llc_mismatch
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ $nfail = 0 ] || exit 1
[ $npass = 0 ] && exit $KSFT_SKIP
exit 0
