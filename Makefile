# SPDX-License-Identifier: GPL-2.0
#
# wakeplace: one target per stage; each is a script in scripts/.
# usage: make TARGET [ARGS='...'] [HOST=1] [PRESETS=...] [BOOT_JOBS=N]
#   make test            everything, from a bare Debian 12 machine (CI)
#   make test-full       the stress tests to their long goals, series and
#                        tracepoint-only kernels, and the build matrix
#                        (test.sh --full)
#   make bench           A/B verdict on the features in a guest (HOST=1: on the
#                        running kernel; ARGS='-h' lists options)
#   make tree            build/linux: pinned baseline + patches/ on branch wakeplace
#   make patches         regenerate patches/ from the branch
#   make check-patches   patches/ == branch, applies without fuzz, checkpatch
#   make build           guest kernel + sched kselftests
#   make kselftest-tar   the sched kselftests as kselftest.tar.gz (LAVA, KernelCI)
#   make check-series    every commit of the series builds on its own
#   make matrix [ARGS='nosmp i386 ...']   the series' head under other configs
#                        (SMP, SMT, SCHED_DEBUG, SCHEDSTATS, tracing off, core
#                        scheduling, i386, Debian's with W=1)
#   make vm ARGS='-t llc2 -- cmd'   boot the guest and run a command
#   make rebase          move the series to the 6.12.y apt now offers
#   make fresh-check     .ci/run in a bare Debian 12 root (mmdebstrap; root, ~30 min)
#   make cost ARGS='layout|keys|clocks|worst|scale|v1 [-I]'   what the series costs

# Recipes run their script directly, with no shell in between, so that a
# signal to make reaches it; variables given on the command line (HOST=1,
# BOOT_JOBS=2) reach the scripts through the environment.
S := scripts

.PHONY: help deps tree patches check-patches check-series build kselftest-tar vm test test-full matrix bench rebase fresh-check cost clean distclean

help:
	@sed -n '3,/^$$/{/^#/s/^# \{0,1\}//p}' Makefile

deps:
	$(S)/deps.sh

tree:
	$(S)/tree.sh

patches:
	$(S)/patches.sh

check-patches:
	$(S)/check-patches.sh

build:
	$(S)/build.sh

kselftest-tar:
	$(S)/build.sh --selftests

check-series:
	$(S)/check-series.sh

vm:
	$(S)/vm.sh $(ARGS)

test:
	$(S)/test.sh $(PRESETS)

test-full:
	$(S)/test.sh --full $(PRESETS)

matrix:
	$(S)/matrix.sh $(ARGS)

bench:
	$(S)/bench.sh $(ARGS)

rebase:
	$(S)/rebase.sh $(VERSION)

fresh-check:
	$(S)/fresh-check.sh $(ARGS)

cost:
	$(S)/cost.sh $(ARGS)

# Keeps build/linux (it may hold unexported work) and the ccache.
clean:
	rm -rf build/obj build/baseline/obj build/kselftest build/kselftest-obj build/selftests-repo build/results build/series build/cost

# Never while a fresh-check root still has /dev bound in build/fresh.
distclean: clean
	@! grep -qF " $(CURDIR)/build/" /proc/mounts || \
		{ echo "distclean: file systems still mounted under build/ (see /proc/mounts)"; exit 1; }
	$(S)/tree.sh --check-exported
	rm -rf build
