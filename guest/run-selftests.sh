#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Inside a guest: run every installed sched kselftest with kselftest's own
# runner and keep the TAP output in the results directory.  cs_prctl_test
# skips there (the guest kernel leaves CONFIG_SCHED_CORE off, as Debian
# does): scripts/expected-skips lists it.
#
# usage: run-selftests.sh KSELFTEST_INSTALL_DIR
set -u
ks=${1:?usage: run-selftests.sh KSELFTEST_INSTALL_DIR}
out=${WP_RESULTS:-/tmp}/kselftest.tap
cd "$ks" || { echo "run-selftests.sh: cannot enter $ks" >&2; exit 1; }
[ -n "$(./run_kselftest.sh -l)" ] || { echo "run-selftests.sh: no tests installed in $ks" >&2; exit 1; }

# topology_test checks the shape the VM runner booted.
export KSELFTEST_TOPOLOGY_TEST_ARGS="${WP_TOPO_EXPECT:-}"

echo "# kernel $(uname -r), topology ${WP_TOPO:-?}, accelerator ${WP_ACCEL:-?}"
./run_kselftest.sh 2>&1 | tee "$out"
