#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 4: boot the guest kernel under qemu on a chosen CPU topology, run one
# command inside, and return its exit code.
#
# The guest sees the host's filesystem read-only (9p) with tmpfs overlays,
# so host-built binaries run unchanged, and the run's results directory
# writable at /run/wakeplace (exported as $WP_RESULTS).  The command's output
# goes to output.log there, the kernel console to console.log; a console that
# shows BUG/WARNING/Oops/lockdep/UBSAN/KASAN/panic fails the run.
#
# usage: vm.sh [options] -- command [args...]
#        vm.sh [options] --kunit-only
#   -t, --topology T   smt (default), llc2, flat, or a raw -smp string
#                      such as "16,sockets=2,cores=4,threads=2"
#   -o, --results DIR  results directory (default build/results/<date>-<topology>)
#   -k, --kernel FILE  bzImage (default build/obj/arch/x86/boot/bzImage)
#   -T, --timeout SEC  qemu timeout (default 1800)
#   -a, --append ARGS  extra kernel command line
#   -m, --memory MB    guest memory (default 2048)
#   -N, --net          a virtio NIC (qemu user networking, isolated from
#                      the host's network) whose peer 10.0.2.100:7 echoes
#                      what the guest sends (a host "cat" per connection);
#                      the guest gets 10.0.2.15/24 on eth0, WP_ECHO=10.0.2.100:7
#   -I, --icount       instruction-time: single-threaded TCG with -icount
#                      shift=0,sleep=off, even where KVM works (guest time
#                      counts instructions: 1 ns each; idle time skipped);
#                      the guest's durations and timeouts are then virtual
#   -K, --kunit-only   no command: the kernel powers off once its built-in
#                      KUnit suites have run (kunit_shutdown=poweroff),
#                      before init, so a kernel that cannot run the host's
#                      userspace (i386) is tested too; exit 0 when every
#                      suite the KTAP plan announced reported ok
# environment: ACCEL=kvm|tcg forces the accelerator (default: probe, cached);
#   ACCEL=kvm and --icount exclude each other
#
# Exit code: the command's; 1 if the console shows a kernel problem; 124 on
# timeout; 125 if the guest died before reporting an exit code.
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage() { sed -n '/^# usage:/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

topo=smt results= kernel=$WP_OBJ/arch/x86/boot/bzImage timeout=1800
append= mem=2048 icount= net= kunit_only=
while [ $# -gt 0 ]; do
	case $1 in
	-t|--topology) topo=${2:?}; shift 2 ;;
	-o|--results) results=${2:?}; shift 2 ;;
	-k|--kernel) kernel=${2:?}; shift 2 ;;
	-T|--timeout) timeout=${2:?}; shift 2 ;;
	-a|--append) append=${2:?}; shift 2 ;;
	-m|--memory) mem=${2:?}; shift 2 ;;
	-I|--icount) icount=1; shift ;;
	-N|--net) net=1; shift ;;
	-K|--kunit-only) kunit_only=1; shift ;;
	--) shift; break ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
if [ -n "$kunit_only" ]; then
	[ $# = 0 ] || die "--kunit-only runs no command (got: $*)"
else
	[ $# -gt 0 ] || usage
fi
[ -f "$kernel" ] || die "no kernel $kernel: run 'make build'"
case $timeout in ''|*[!0-9]*) die "--timeout wants seconds" ;; esac
case $mem in ''|*[!0-9]*) die "--memory wants MB" ;; esac
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"

# Topology presets: qemu arguments, and the shape the scheduler should build
# (checked inside the guest by topology_test).
numa_args=()
case $topo in
smt)	smp=8,sockets=1,cores=4,threads=2
	expect="--cpus 8 --smt 2 --llcs 1 --nodes 1" ;;
llc2)	smp=8,sockets=2,cores=2,threads=2
	expect="--cpus 8 --smt 2 --llcs 2 --nodes 2"
	half=$((mem / 2))
	numa_args=(-object "memory-backend-ram,id=m0,size=${half}M"
		   -object "memory-backend-ram,id=m1,size=$((mem - half))M"
		   -numa node,memdev=m0,cpus=0-3,nodeid=0
		   -numa node,memdev=m1,cpus=4-7,nodeid=1) ;;
flat)	smp=4,sockets=1,cores=4,threads=1
	expect="--cpus 4 --smt 1 --llcs 1 --nodes 1" ;;
[0-9]*)	smp=$topo expect= ;;
*)	die "unknown topology '$topo' (smt, llc2, flat or a raw -smp string)" ;;
esac

# Accelerator: KVM where it boots a guest, else TCG.  The probe boots this
# kernel once under KVM; its verdict is cached per host kernel and qemu.
probe_kvm() {
	local qver key cache dir t0 rc=0
	if [ ! -w /dev/kvm ] || [ ! -r /dev/kvm ]; then
		echo "tcg no usable /dev/kvm"
		return
	fi
	qver=$(qemu-system-x86_64 --version | awk 'NR == 1 { print $4 }')
	key="$(uname -r)-qemu$qver"
	cache=$WP_BUILD/accel-$key
	if [ -f "$cache" ]; then
		echo "$(cat "$cache") (cached in $cache)"
		return
	fi
	dir=$(mktemp -d "$WP_BUILD/kvm-probe.XXXXXX")
	log "probing KVM (one boot, up to 60 s; verdict cached for $key)"
	t0=$(date +%s)
	ACCEL=kvm "$0" -t flat -m 512 -T 60 -k "$kernel" -o "$dir" -- true \
		>/dev/null 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		echo "kvm probe booted a guest in $(($(date +%s) - t0)) s" > "$cache"
	else
		echo "tcg KVM probe failed (rc $rc after $(($(date +%s) - t0)) s; $(grep -m1 -oE '(KVM internal error|error:).*' "$dir/qemu.log" 2>/dev/null || echo 'no guest exit code'))" > "$cache"
		cp "$dir/qemu.log" "$cache.qemu.log" 2>/dev/null || true
	fi
	rm -rf "$dir"
	echo "$(cat "$cache") (probed now)"
}

if [ -n "$icount" ]; then
	[ "${ACCEL:-tcg}" = tcg ] ||
		die "--icount needs TCG (qemu refuses -icount with KVM): unset ACCEL=$ACCEL"
	accel=icount
	reason="--icount: instruction-time (path length; no cache/SMT model, no parallel speed-up)"
elif [ -n "${ACCEL:-}" ]; then
	case $ACCEL in kvm|tcg) ;; *) die "ACCEL must be kvm or tcg" ;; esac
	accel=$ACCEL reason="forced by ACCEL=$ACCEL"
else
	verdict=$(probe_kvm)
	accel=${verdict%% *} reason=${verdict#* }
fi
if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
elif [ "$accel" = icount ]; then
	# Guest time from the instruction count: 1 ns per instruction
	# (shift=0), idle periods skipped (sleep=off).  Needs one TCG thread.
	accel_args=(-accel tcg,thread=single,tb-size=512 -icount shift=0,sleep=off -cpu max)
else
	# One host thread for all vCPUs: with multi-threaded TCG, guests
	# oopsed on int3 while static keys were being patched (sched
	# feature toggles, sched_clock_stable at boot), ~1 boot in 15.
	accel_args=(-accel tcg,thread=single,tb-size=512 -cpu max)
fi

[ -n "$results" ] || results=$WP_BUILD/results/$(date +%Y%m%d-%H%M%S)-${topo%%,*}
mkdir -p "$results"
results=$(cd "$results" && pwd)
rm -f "$results/rc" "$results/output.log" "$results/console.log"

release=$(strings "$kernel" 2>/dev/null | grep -m1 -oE '^[0-9]+\.[0-9]+\.[0-9]+[^ ]* \(' | tr -d ' (' || true)
{
	printf '#!/bin/sh\n# generated by scripts/vm.sh\n'
	printf 'export PATH=%q HOME=/root TERM=dumb\n' "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	printf 'export WP_RESULTS=/run/wakeplace WP_TOPO=%q WP_TOPO_EXPECT=%q WP_ACCEL=%q\n' \
		"$topo" "$expect" "$accel"
	[ -z "$net" ] || printf 'export WP_ECHO=10.0.2.100:7\n'
	printf 'cd %q || exit 125\n' "$PWD"
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} > "$results/guest-cmd.sh"

cmdline="console=ttyS0 root=wproot rootfstype=9p ro"
cmdline="$cmdline rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose"
cmdline="$cmdline init=$WP_ROOT/guest/init panic=-1 sched_verbose lpj=10000000 $append"
[ -z "$kunit_only" ] || cmdline="$cmdline kunit_shutdown=poweroff"

qemu=(qemu-system-x86_64 "${accel_args[@]}" -m "$mem" -smp "$smp" "${numa_args[@]}"
      -kernel "$kernel" -append "$cmdline"
      -nodefaults -display none -no-reboot -monitor none
      -serial "file:$results/console.log"
      -fsdev local,id=wproot,path=/,security_model=none,readonly=on,multidevs=remap
      -device virtio-9p-pci,fsdev=wproot,mount_tag=wproot
      -fsdev "local,id=wpres,path=$results,security_model=none"
      -device virtio-9p-pci,fsdev=wpres,mount_tag=wpresults)
# restrict=on: the guest reaches nothing but the forward (guestfwd spawns
# the command once per connection, its stdin and stdout the connection).
[ -z "$net" ] || qemu+=(-netdev "user,id=wpnet,restrict=on,guestfwd=tcp:10.0.2.100:7-cmd:cat"
			-device virtio-net-pci,netdev=wpnet)

{
	echo "host: $(uname -r) $(uname -m), $(nproc) CPUs, qemu $(qemu-system-x86_64 --version | awk 'NR == 1 { print $4 }')"
	echo "kernel: $kernel ($release)"
	echo "topology: $topo (-smp $smp${numa_args:+, 2 NUMA nodes})"
	if [ -n "$net" ]; then echo "network: virtio-net, echo peer 10.0.2.100:7 (qemu user networking)"; else echo "network: none"; fi
	echo "accelerator: $accel ($reason)"
	if [ "$accel" = icount ]; then
		echo "clock: instruction-time (guest ns = instructions executed)"
	else
		echo "clock: wall-clock"
	fi
	if [ -n "$kunit_only" ]; then echo "command: none (--kunit-only)"; else echo "command: $*"; fi
	echo "wakeplace: $(git -C "$WP_ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "kernel tree: $(tgit describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)"
	printf 'qemu:'; printf ' %q' "${qemu[@]}"; echo
} > "$results/run.txt"
cfg=$(dirname "$kernel")/../../../.config
if [ -f "$cfg" ]; then
	cp "$cfg" "$results/kernel.config"
	# The options scheduling results depend on, recorded with every run.
	grep -E '^CONFIG_(PREEMPT[A-Z_]*|HZ|HZ_[0-9]+|NO_HZ[A-Z_]*|JUMP_LABEL|NR_CPUS|SCHED_[A-Z_]+|SCHEDSTATS|NUMA|CGROUP_SCHED|FAIR_GROUP_SCHED|CPUSETS|LOCALVERSION)=' \
		"$cfg" > "$results/sched-config.txt" || true
fi

log "accelerator: $accel ($reason)"
log "booting $release on '$topo' (-smp $smp), results in $results"
t0=$(date +%s)
qrc=0
# In the background (wp_child): Ctrl-C and SIGTERM stop the guest at once.
# timeout runs qemu in a process group of its own, which the terminal's
# SIGINT does not reach; it passes SIGTERM on (and SIGKILL 10 s later).
vm_stopped() {
	echo "interrupted: guest stopped after $(($(date +%s) - t0)) s" >> "$results/run.txt"
	echo "guest stopped, partial results in $results"
}
WP_ON_SIGNAL=vm_stopped
wp_child timeout --kill-after=10 "$timeout" "${qemu[@]}" > "$results/qemu.log" 2>&1 || qrc=$?
WP_ON_SIGNAL=
t1=$(date +%s)

rc=125
if [ -n "$kunit_only" ]; then
	# Every suite the kernel's .config builds in must report ok
	# (scripts/expected-kunit); "1..0" (no suite built in: nosmp) is 0 of
	# 0 ok.  No plan on the console at all: the kernel died first.
	wp_kunit_results "$results/console.log" "$results/kernel.config" > "$results/kunit.txt" || :
	ok=$(grep -c '^pass kunit-suite:' "$results/kunit.txt" || true)
	nsuites=$(grep -c ' kunit-suite:' "$results/kunit.txt" || true)
	nbad=$(grep -c '^fail ' "$results/kunit.txt" || true)
	if ! sed 's/\r$//; s/^\[[ 0-9.]*\] //' "$results/console.log" 2>/dev/null | grep -qE '^1\.\.[0-9]+'; then
		echo "kunit: no KTAP plan on the console" >> "$results/run.txt"
	else
		echo "kunit: $ok of $nsuites suites ok, $nbad failed (cases, suites missing, plan)" >> "$results/run.txt"
		grep '^fail ' "$results/kunit.txt" | sed 's/^/kunit-failed: /' >> "$results/run.txt" || true
		rc=0
		[ "$nbad" = 0 ] && [ "$ok" = "$nsuites" ] || rc=1
	fi
	[ $qrc != 124 ] && [ $qrc != 137 ] || rc=124
elif [ -f "$results/rc" ]; then
	rc=$(cat "$results/rc")
elif [ $qrc = 124 ] || [ $qrc = 137 ]; then
	rc=124
fi
echo "wall: $((t1 - t0)) s, qemu exit $qrc, guest command exit $rc" >> "$results/run.txt"

# Kernel problems fail the run whatever the command said.
bad=$(grep -E 'BUG:|WARNING:|Oops|Kernel panic|possible recursive locking|possible circular locking|INFO: lockdep|UBSAN:|KASAN:|general protection fault|Call Trace:' \
	"$results/console.log" 2>/dev/null | head -20 || true)
if [ -n "$bad" ]; then
	log "kernel console shows problems:"
	printf '  %s\n' "$bad" >&2
	echo "console: problems found" >> "$results/run.txt"
	[ "$rc" != 0 ] || rc=1
fi
echo "$rc" > "$results/exit-code"
if [ -n "$kunit_only" ]; then
	log "$(grep '^kunit:' "$results/run.txt" | tail -n 1 || echo "kunit: no result")${bad:+; kernel console problems} after $((t1 - t0)) s: exit $rc (see $results/console.log)"
	exit "$rc"
fi
# The exit code is passed on on purpose: say what it means.
case $rc in
0) log "guest command exited 0 after $((t1 - t0)) s" ;;
4) log "guest command exited 4: skipped (kselftest's skip code; see $results/output.log)" ;;
124) log "exit 124: timeout after $timeout s (see $results/console.log)" ;;
125) log "exit 125: guest died without an exit code (qemu exit $qrc; see $results/console.log, qemu.log)" ;;
*) log "exit $rc: ${bad:+kernel console problems; }guest command's code after $((t1 - t0)) s (see $results/output.log)" ;;
esac
exit "$rc"
