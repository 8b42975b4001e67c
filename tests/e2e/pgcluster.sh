#!/bin/sh
# pgcluster.sh: a throwaway PostgreSQL cluster for the tests (issue 15 §3).
#
#   pgcluster.sh run CMD [ARG...]
#	makes a cluster in a new temporary directory DIR (initdb), starts it
#	on a Unix socket in DIR only (no TCP), runs CMD with
#	    SQLDB_PG_URL  postgresql:///postgres?host=DIR&user=grundy
#	    SQLDB_PG_DIR  DIR
#	    SQLDB_PG_CTL  "sh /path/of/pgcluster.sh" (for start and stop)
#	in its environment, then stops the cluster and removes DIR, whatever
#	CMD did (trap: also on failure, INT, TERM); exits with CMD's status.
#   pgcluster.sh start DIR
#   pgcluster.sh stop DIR [fast|immediate]
#	start or stop the cluster of DIR again (for the reconnection tests).
#   pgcluster.sh standby DIR
#	makes DIR/standby a streaming standby of DIR's cluster (pg_basebackup
#	-R, as the cluster's owner), starts it on a Unix socket in
#	DIR/standby, and makes it synchronous (synchronous_standby_names on
#	DIR's cluster, waiting until pg_stat_replication says sync): a commit
#	the primary acknowledged is on the standby.  A URL naming both:
#	    postgresql:///postgres?host=DIR,DIR/standby&user=grundy&
#	    target_session_attrs=read-write
#	run's cleanup stops and removes it with DIR.
#   pgcluster.sh promote DIR/standby
#	promotes the standby (pg_ctl promote -w): it becomes a primary.
#   pgcluster.sh sql DIR SQL
#	runs SQL on the cluster of DIR (psql, as its superuser) and prints
#	what it returns, unaligned, without headers.
#	Wrong arguments (a missing or extra one, a DIR that holds no cluster
#	made by run, another mode) are refused with the usage and status 2.
#
# initdb refuses to run as root: as root, the cluster runs as nobody
# (runuser), in a directory that nobody owns.  Start-up is bounded by
# pg_ctl -w -t (it polls; no fixed sleeps).  The binaries: PG_BINDIR, else
# the newest /usr/lib/postgresql/*/bin (Debian), else the PATH.
set -eu
LC_ALL=C
export LC_ALL

START_TIMEOUT=30	# seconds, for pg_ctl start and stop

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && bindir=$d
	done
fi
if [ -z "$bindir" ]; then
	bindir=$(dirname "$(command -v initdb 2>/dev/null || echo /x/initdb)")
fi
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
	echo "pgcluster.sh: initdb and pg_ctl not found: install postgresql" \
	    "(Debian), or set PG_BINDIR" >&2
	exit 1
fi

# Runs a command as the cluster's owner.
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u nobody -- "$@"
	else
		"$@"
	fi
}

start() {
	as_owner "$bindir/pg_ctl" -D "$1/data" -l "$1/log" -w \
	    -t "$START_TIMEOUT" -o "-k $1 -c listen_addresses= \
	    -c max_connections=100 -c shared_buffers=16MB" start >/dev/null ||
	    { cat "$1/log" >&2; return 1; }
}

stop() {
	[ -f "$1/data/postmaster.pid" ] || return 0
	as_owner "$bindir/pg_ctl" -D "$1/data" -m "${2:-fast}" -w \
	    -t "$START_TIMEOUT" stop >/dev/null
}

usage() {
	[ -z "${1:-}" ] || echo "pgcluster.sh: $1" >&2
	echo "usage: pgcluster.sh run CMD [ARG...] | start DIR |" \
	    "stop DIR [fast|immediate] | standby DIR | promote DIR |" \
	    "sql DIR SQL" >&2
	exit 2
}

# One value of SQL on the cluster of $1 (as its superuser, over its socket).
psql1() {
	as_owner "$bindir/psql" -X -q -A -t -h "$1" -U grundy -d postgres \
	    -c "$2"
}

# Makes $1/standby a synchronous streaming standby of $1's cluster.
standby() {
	sb=$1/standby
	[ ! -e "$sb" ] || usage "$sb exists: one standby per cluster"
	mkdir "$sb"
	[ "$(id -u)" -eq 0 ] && chown nobody "$sb"
	chmod 700 "$sb"
	as_owner "$bindir/pg_basebackup" -h "$1" -U grundy -D "$sb/data" -R \
	    -X stream -c fast >"$sb/basebackup.log" 2>&1 ||
	    { cat "$sb/basebackup.log" >&2; return 1; }
	start "$sb"
	psql1 "$1" "ALTER SYSTEM SET synchronous_standby_names = '*'" \
	    >/dev/null
	psql1 "$1" "SELECT pg_reload_conf()" >/dev/null
	# Poll, bounded: the standby connects and catches up by itself.
	i=0
	until [ "$(psql1 "$1" "SELECT count(*) FROM pg_stat_replication \
	    WHERE sync_state = 'sync'")" = 1 ]; do
		i=$((i + 1))
		[ "$i" -le $((START_TIMEOUT * 10)) ] ||
		    { echo "pgcluster.sh: the standby never became" \
		    "synchronous" >&2; return 1; }
		sleep 0.1
	done
}

# DIR must be a cluster's directory that run made (its data/PG_VERSION).
cluster_dir() {
	[ -f "$1/data/PG_VERSION" ] ||
	    usage "$1: not a cluster's directory made by run"
}

case ${1:-} in
start)
	[ $# -eq 2 ] || usage "start takes one DIR"
	cluster_dir "$2"
	start "$2"
	exit
	;;
stop)
	[ $# -eq 2 ] || [ $# -eq 3 ] || usage "stop takes DIR and a mode"
	case ${3:-fast} in
	fast|immediate)	;;
	*)	usage "bad mode $3: fast or immediate" ;;
	esac
	cluster_dir "$2"
	stop "$2" "${3:-fast}"
	exit
	;;
standby)
	[ $# -eq 2 ] || usage "standby takes one DIR"
	cluster_dir "$2"
	standby "$2"
	exit
	;;
promote)
	[ $# -eq 2 ] || usage "promote takes one DIR"
	cluster_dir "$2"
	[ -f "$2/data/standby.signal" ] || usage "$2: not a standby"
	as_owner "$bindir/pg_ctl" -D "$2/data" -w -t "$START_TIMEOUT" \
	    promote >/dev/null
	exit
	;;
sql)
	[ $# -eq 3 ] || usage "sql takes DIR and SQL"
	cluster_dir "$2"
	psql1 "$2" "$3"
	exit
	;;
run)
	[ $# -ge 2 ] || usage "run needs a command"
	shift
	;;
*)
	usage ""
	;;
esac

# As root, /tmp: nobody must reach the directory (TMPDIR may be root's
# own), and a socket's path must stay short.
tmp=${TMPDIR:-/tmp}
[ "$(id -u)" -eq 0 ] && tmp=/tmp
dir=$(mktemp -d "$tmp/grundy-pg.XXXXXX")
cleanup() {
	[ ! -f "$dir/standby/data/PG_VERSION" ] ||
	    stop "$dir/standby" immediate || true
	stop "$dir" immediate || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ "$(id -u)" -eq 0 ] && chown nobody "$dir"
chmod 700 "$dir"
as_owner "$bindir/initdb" -D "$dir/data" -U grundy -A trust --no-locale \
    -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
start "$dir"

SQLDB_PG_URL="postgresql:///postgres?host=$dir&user=grundy"
SQLDB_PG_DIR=$dir
SQLDB_PG_CTL="sh $(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
export SQLDB_PG_URL SQLDB_PG_DIR SQLDB_PG_CTL
rc=0
"$@" || rc=$?
exit "$rc"
