#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: run the installed sched kselftests with kselftest's own
# runner and keep the TAP output in the results directory.
#
# cs_prctl_test is not run: it fails rather than skips without
# CONFIG_SCHED_CORE, which the guest kernel leaves off as Debian does.
#
# usage: run-selftests.sh KSELFTEST_INSTALL_DIR
set -u
ks=${1:?usage: run-selftests.sh KSELFTEST_INSTALL_DIR}
out=${WP_RESULTS:-/tmp}/kselftest.tap
cd "$ks" || { echo "run-selftests.sh: cannot enter $ks" >&2; exit 1; }

# topology_test checks the shape the VM runner booted.
export KSELFTEST_TOPOLOGY_TEST_ARGS="${WP_TOPO_EXPECT:-}"

args=
for t in $(./run_kselftest.sh -l); do
	case $t in
	sched:cs_prctl_test) continue ;;
	esac
	args="$args -t $t"
done
[ -n "$args" ] || { echo "run-selftests.sh: no tests installed in $ks" >&2; exit 1; }

echo "# kernel $(uname -r), topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}"
# shellcheck disable=SC2086
./run_kselftest.sh $args 2>&1 | tee "$out"
