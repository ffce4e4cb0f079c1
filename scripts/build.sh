#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 3: build the guest kernel and install the sched kselftests.
#
# The kernel config is tinyconfig + guest/guest.config + the selftests'
# config fragment; every requested value is checked after olddefconfig.
# ccache is keyed so that a fresh extraction elsewhere still hits.
#
# Output: build/obj/arch/x86/boot/bzImage, build/obj/.config,
#         build/kselftest/ (run_kselftest.sh and the sched tests).
# With --baseline: the unpatched baseline kernel, same config, from a
# worktree at build/baseline/linux into build/baseline/obj (release
# suffix -baseline), for kernel-vs-kernel benchmarks; no selftests.
#
# With --tracepoint: the kernel with only the series up to its first
# kernel patch, the select_task_rq_fair() tracepoint (no feature), from a
# worktree at build/tracepoint/linux into build/tracepoint/obj (release
# suffix -tracepoint): the A/A reference wakestat can trace.
#
# With --variant NAME: the series' kernel with guest/NAME.config merged last
# (it may turn guest.config's choices round), into build/variants/NAME/obj
# (release suffix -NAME); no selftests.  guest/sched-core.config is the
# core-scheduling kernel (CONFIG_SCHED_CORE=y) the cookie tests boot;
# guest/i386.config alone builds for ARCH=i386 (a 32-bit kernel); the
# others are the build matrix's configs (scripts/matrix.sh).
#
# With --selftests: the sched kselftests only (no kernel), e.g. for
# make bench HOST=1 on a machine that runs its own kernel.  The kselftests
# are also packed as kselftest's standard archive (gen_tar), for test
# fleets: build/kselftest/kselftest-packages/kselftest.tar.gz.
#
# With --tracepoint --variant NAME: the tracepoint-only kernel with that
# config, into build/tracepoint/variants/NAME/obj (suffix -tracepoint-NAME).
#
# usage: build.sh [--baseline | --tracepoint [--variant NAME] | --variant NAME | --selftests]
set -euo pipefail
. "$(dirname "$0")/common.sh"

baseline= selftests_only= variant= tracepoint=
usage="usage: $WP_ME [--baseline | --tracepoint [--variant NAME] | --variant NAME | --selftests]"
case ${1:-} in
"") ;;
--baseline) baseline=1 ;;
--tracepoint) tracepoint=1 ;;
--variant) ;;
--selftests) selftests_only=1 ;;
*) die "$usage" ;;
esac
# --variant NAME, alone or after --tracepoint (the tracepoint-only kernel
# with that config, e.g. the debug kernel's reference for make test-full).
if [ "${1:-}" = --variant ] || { [ -n "$tracepoint" ] && [ $# -gt 1 ]; }; then
	[ "${1:-}" = --variant ] || shift
	[ "${1:-}" = --variant ] && [ $# -le 2 ] || die "$usage"
	variant=${2:-}
	[ -n "$variant" ] && [ -f "$WP_ROOT/guest/$variant.config" ] ||
		die "--variant: no guest/${variant:-NAME}.config; variants: $(cd "$WP_ROOT/guest" &&
			ls -- *.config | grep -vx guest.config | sed 's/\.config$//' | tr '\n' ' ')"
elif [ $# -gt 1 ]; then
	die "$usage"
fi
require_tree
"$WP_ROOT/scripts/deps.sh" --check

FRAGMENTS=("$WP_ROOT/guest/guest.config"
	   "$WP_TREE/tools/testing/selftests/sched/config")
SRC=$WP_TREE OBJ=$WP_OBJ LV=
if [ -n "$variant" ]; then
	FRAGMENTS+=("$WP_ROOT/guest/$variant.config")
	OBJ=$WP_BUILD/variants/$variant/obj LV=-$variant
	[ "$variant" != i386 ] || KMAKE_VARS=(ARCH=i386 RUSTC=false)
fi
if [ -n "$baseline" ]; then
	SRC=$WP_BUILD/baseline/linux OBJ=$WP_BUILD/baseline/obj LV=-baseline
	if [ ! -d "$SRC" ]; then
		tgit worktree add -q --detach "$SRC" "$WP_BASE_TAG" ||
			die "cannot check out $WP_BASE_TAG at $SRC"
	fi
	git -C "$SRC" checkout -q --detach "$WP_BASE_TAG"
fi
if [ -n "$tracepoint" ]; then
	SRC=$WP_BUILD/tracepoint/linux OBJ=$WP_BUILD/tracepoint/obj LV=-tracepoint
	[ -z "$variant" ] || OBJ=$WP_BUILD/tracepoint/variants/$variant/obj LV=-tracepoint-$variant
	tp=$(tgit log --reverse --format=%H --grep="^sched/fair: Add a tracepoint where select_task_rq_fair" \
		"$WP_BASE_TAG..$WP_BRANCH" | head -n 1)
	[ -n "$tp" ] || die "--tracepoint: no commit \"sched/fair: Add a tracepoint where select_task_rq_fair...\" on $WP_BRANCH"
	if [ ! -d "$SRC" ]; then
		tgit worktree add -q --detach "$SRC" "$tp" ||
			die "cannot check out $tp at $SRC"
	fi
	git -C "$SRC" checkout -q --detach "$tp"
fi
KMAKE=(make -C "$SRC" "${KMAKE_VARS[@]}" -j"$(nproc)")

kbuild_env

# Generate the config in a scratch directory, install it only if it changed:
# rewriting an identical .config would still cost a rebuild.
make_config() {
	local kc=$WP_BUILD/kconfig bad= line opt val
	local known=
	# The baseline lacks the series' own options (its KUnit test): check
	# only the options its Kconfig files define.
	if [ -n "$baseline$tracepoint" ]; then
		known=$(grep -rhoE '^(menu)?config [A-Z0-9_]+' --include='Kconfig*' "$SRC" |
			awk '{ print "CONFIG_" $2 }' | sort -u)
	fi
	rm -rf "$kc"
	mkdir -p "$kc" "$OBJ"
	"${KMAKE[@]}" -s O="$kc" tinyconfig >/dev/null
	(cd "$kc" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$kc" \
		.config "${FRAGMENTS[@]}" >/dev/null)
	"${KMAKE[@]}" -s O="$kc" olddefconfig >/dev/null
	# A later fragment's word on an option overrides an earlier one's.
	while read -r line; do
		case $line in
		CONFIG_*=*)
			opt=${line%%=*}
			[ -z "$known" ] || grep -qxF "$opt" <<<"$known" || continue
			grep -qxF "$line" "$kc/.config" || bad="$bad $line(got:$(grep "^$opt=" "$kc/.config" || echo unset))" ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			! grep -q "^$opt=" "$kc/.config" || bad="$bad $opt(should be unset)" ;;
		esac
	done < <(cat "${FRAGMENTS[@]}" | awk '
		/^CONFIG_[A-Z0-9_]+=/ { o = $0; sub(/=.*/, "", o) }
		/^# CONFIG_[A-Z0-9_]+ is not set$/ { o = $2 }
		o != "" { if (!(o in last)) ord[++n] = o; last[o] = $0; o = "" }
		END { for (i = 1; i <= n; i++) print last[ord[i]] }')
	[ -z "$bad" ] || die "kconfig did not honour:$bad"
	# The same config on every machine: nothing taken from a rustc on PATH.
	grep -qx 'CONFIG_RUSTC_VERSION=0' "$kc/.config" ||
		die "the config depends on the host's rustc ($(grep '^CONFIG_RUSTC_VERSION=' "$kc/.config")): RUSTC=false not in effect"
	if ! cmp -s "$kc/.config" "$OBJ/.config"; then
		cp "$kc/.config" "$OBJ/.config"
		log "new kernel config installed in $OBJ"
	fi
	rm -rf "$kc"
}

# The sched kselftests, installed and packed (gen_tar installs first).
build_selftests() {
	log "building sched kselftests"
	rm -rf "$WP_BUILD/kselftest"
	make -s -C "$WP_TREE/tools/testing/selftests" TARGETS=sched \
		O="$WP_BUILD/kselftest-obj" INSTALL_PATH="$WP_BUILD/kselftest" \
		gen_tar >/dev/null || die "kselftest build failed"
	log "kselftest archive: $WP_BUILD/kselftest/kselftest-packages/kselftest.tar.gz (run_kselftest.sh -c sched)"
}

start=$(date +%s)
if [ -n "$selftests_only" ]; then
	build_selftests
	log "built in $(($(date +%s) - start)) s (selftests only)"
	exit 0
fi
ccache_mark
make_config
log "building bzImage ($(git -C "$SRC" describe --always --dirty --abbrev=12))"
rm -f "$OBJ/.wakeplace-built"
"${KMAKE[@]}" -s O="$OBJ" CC="ccache gcc" olddefconfig >/dev/null
"${KMAKE[@]}" -s O="$OBJ" CC="ccache gcc" LOCALVERSION="$LV" bzImage ||
	die "kernel build failed"
kdone=$(date +%s)
log "kernel: $(ccache_delta)"
if [ -n "$baseline$variant$tracepoint" ]; then
	log "built in $((kdone - start)) s: $(cat "$OBJ/include/config/kernel.release") (${variant:-${LV#-}})"
	exit 0
fi

build_selftests
end=$(date +%s)
# What was built, for check-series.sh: the commit, when the tree had no
# uncommitted changes, with the config and compiler.
if [ -z "$(tgit status --porcelain --untracked-files=no)" ]; then
	echo "$(tgit rev-parse HEAD) $(build_key "$OBJ/.config")" > "$OBJ/.wakeplace-built"
fi
log "built in $((end - start)) s (kernel $((kdone - start)) s, selftests $((end - kdone)) s): $(cat "$WP_OBJ/include/config/kernel.release")"
