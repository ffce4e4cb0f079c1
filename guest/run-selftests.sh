#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: run the installed sched kselftests with kselftest's own
# runner and keep the TAP output in the results directory.
#
# By default every test.  cs_prctl_test skips there (the guest kernel leaves
# CONFIG_SCHED_CORE off, as Debian does): scripts/expected-skips lists it.
# With --core-sched, on the kernel of guest/sched-core.config: only the
# tests that need core scheduling, cs_prctl_test and sis_sync_core_test's
# core_cookie case.  With --net-wakers, on a kernel booted with
# thread_backlog_napi (loopback's receive path in per-CPU kthreads) by
# scripts/vm.sh --net (a virtio NIC and an echo peer, $WP_ECHO): only
# sis_sync_core_test's kthread_waker and nic_waker cases.
#
# With --stress: only the stress tests, to make test-full's long goals, or
# with the options given after it (the same for all three, e.g. "-d 60").
# With --debug: the whole suite on the debug kernel (guest/debug.config),
# each test allowed six times its timeout (lockdep and KASAN slow it).
#
# usage: run-selftests.sh KSELFTEST_INSTALL_DIR [--core-sched | --net-wakers | --stress [ARGS] | --debug]
set -u
ks=${1:?usage: run-selftests.sh KSELFTEST_INSTALL_DIR [--core-sched | --net-wakers | --stress [ARGS] | --debug]}
out=${WP_RESULTS:-/tmp}/kselftest.tap
cd "$ks" || { echo "run-selftests.sh: cannot enter $ks" >&2; exit 1; }
[ -n "$(./run_kselftest.sh -l)" ] || { echo "run-selftests.sh: no tests installed in $ks" >&2; exit 1; }

# topology_test checks the shape the VM runner booted.
export KSELFTEST_TOPOLOGY_TEST_ARGS="${WP_TOPO_EXPECT:-}"

echo "# kernel $(uname -r), topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}"
case ${2:-} in
"")
	./run_kselftest.sh 2>&1 | tee "$out" ;;
--core-sched)
	export KSELFTEST_SIS_SYNC_CORE_TEST_ARGS="-t core_cookie"
	./run_kselftest.sh -t sched:cs_prctl_test -t sched:sis_sync_core_test 2>&1 |
		tee "$out" ;;
--net-wakers)
	grep -qw thread_backlog_napi /proc/cmdline ||
		{ echo "run-selftests.sh: --net-wakers: the kernel was booted without thread_backlog_napi" >&2; exit 1; }
	[ -n "${WP_ECHO:-}" ] ||
		{ echo "run-selftests.sh: --net-wakers: no echo peer (\$WP_ECHO): boot with scripts/vm.sh --net" >&2; exit 1; }
	export KSELFTEST_SIS_SYNC_CORE_TEST_ARGS="-t kthread_waker -t nic_waker -e $WP_ECHO"
	./run_kselftest.sh -t sched:sis_sync_core_test 2>&1 | tee "$out" ;;
--debug)
	[ -e /proc/lockdep ] ||
		{ echo "run-selftests.sh: --debug: not a debug kernel (no /proc/lockdep)" >&2; exit 1; }
	./run_kselftest.sh -o 1800 2>&1 | tee "$out" ;;
--stress)
	# make test-full: the stress tests alone, to their long goals (see
	# each test's -h), with no kselftest timeout (vm.sh's bounds the
	# run); ARGS replace the goals.
	export KSELFTEST_TOGGLE_STORM_TEST_ARGS="${3:--n 10000}"
	export KSELFTEST_HOTPLUG_TEST_ARGS="${3:--n 100}"
	export KSELFTEST_AFFINITY_CHURN_TEST_ARGS="${3:--n 1000000}"
	export KSELFTEST_MIXED_CLASSES_TEST_ARGS="${3:--n 20}"
	./run_kselftest.sh -o 0 -t sched:toggle_storm_test -t sched:hotplug_test \
		-t sched:affinity_churn_test -t sched:mixed_classes_test 2>&1 | tee "$out" ;;
*)
	echo "run-selftests.sh: unknown option $2" >&2
	exit 1 ;;
esac
