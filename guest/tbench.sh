#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tbench (Debian's dbench package) over loopback, as a load for ab.sh -w:
# starts tbench_srv, runs CLIENTS clients for SECONDS and prints tbench's
# "Throughput X MB/sec" line; the server is stopped on exit, whatever
# happens.  tbench was one of the loads SIS_CACHE v1 regressed.
#
# usage: tbench.sh CLIENTS SECONDS
set -u
die() { echo "tbench.sh: $*" >&2; exit 1; }
[ $# = 2 ] || die "usage: tbench.sh CLIENTS SECONDS"
command -v tbench >/dev/null && command -v tbench_srv >/dev/null ||
	die "tbench missing (Debian: apt-get install dbench)"
tbench_srv >/dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null' EXIT
trap 'exit 130' INT TERM
sleep 0.2
kill -0 $srv 2>/dev/null || die "tbench_srv did not start"
out=$(tbench -t "$2" "$1" 127.0.0.1 2>&1) || die "tbench failed: $(echo "$out" | tail -n 2)"
echo "$out" | grep '^Throughput' || die "no throughput line from tbench"
