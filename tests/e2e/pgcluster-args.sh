#!/bin/sh
# pgcluster-args.sh: tests/e2e/pgcluster.sh refuses wrong arguments with its
# usage and status 2, and does nothing then: a stop with its arguments in
# the wrong order, an unknown mode, a missing or extra argument, a DIR
# that holds no cluster made by run.  The right ones still stop and start
# the cluster.  TAP; runs under a throwaway cluster of its own.
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
ctl=$SQLDB_PG_CTL
dir=$SQLDB_PG_DIR
n=0
fails=0
err=$(mktemp "${TMPDIR:-/tmp}/pgcluster-args.XXXXXX")
trap 'rm -f "$err"' EXIT

check() {		# check NAME: the status of the last test
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		fails=$((fails + 1))
		echo "not ok $n - $2"
		sed 's/^/# /' "$err"
	fi
}

running() {
	[ -f "$dir/data/postmaster.pid" ]
}

# refused WHAT ARG...: status 2, the usage on stderr, still running.
refused() {
	what=$1
	shift
	$ctl "$@" >/dev/null 2>"$err"
	st=$?
	[ "$st" -eq 2 ] && grep -q '^usage: pgcluster.sh' "$err" && running
	check $? "$what: status $st, usage, the cluster still runs"
}

running
check $? "the cluster runs"
refused "stop MODE DIR" stop fast "$dir"
refused "stop MODE DIR (immediate)" stop immediate "$dir"
refused "stop DIR with a bad mode" stop "$dir" slow
refused "stop DIR MODE extra" stop "$dir" fast extra
refused "stop alone" stop
refused "stop a directory with no cluster" stop "$dir/data/base"
refused "stop a missing directory" stop "$dir/none"
refused "start alone" start
refused "start DIR extra" start "$dir" fast
refused "start a directory with no cluster" start /
refused "run with no command" run
refused "an unknown verb" restart "$dir"
refused "standby alone" standby
refused "standby DIR extra" standby "$dir" extra
refused "standby of a directory with no cluster" standby /
refused "promote alone" promote
refused "promote a primary" promote "$dir"
refused "sql DIR alone" sql "$dir"
refused "sql DIR SQL extra" sql "$dir" "SELECT 1" extra

[ "$($ctl sql "$dir" "SELECT 6 * 7" 2>"$err")" = 42 ]
check $? "sql DIR SQL prints its answer"
$ctl stop "$dir" fast 2>"$err" && ! running
check $? "stop DIR fast stops it"
$ctl stop "$dir" 2>"$err"
check $? "stop DIR of a stopped cluster: status 0"
$ctl start "$dir" 2>"$err" && running
check $? "start DIR starts it again"
$ctl stop "$dir" immediate 2>"$err" && ! running
check $? "stop DIR immediate stops it"
$ctl start "$dir" 2>"$err" && running
check $? "start DIR starts it again"

echo "1..$n"
[ "$fails" -eq 0 ]
