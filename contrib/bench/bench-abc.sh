#!/bin/sh
# bench-abc.sh BUILD... : BENCHMARKS.md §1-4 for several builds in one
# run, interleaved, two rounds (BENCHMARKS §32).  Each BUILD is a built
# tree (./configure && make && make contrib/bench/solver-bench, or
# contrib/solver-bench in a tree from before contrib/bench/).  Starts its
# own redis-server on port 6390 and grundyd on 7600, 7601 and 7720, all on
# loopback; prints the programs' own lines.  Figures only.
set -u
[ $# -ge 1 ] || { echo "usage: $0 BUILD..." >&2; exit 2; }
tmp=$(mktemp -d /tmp/bench-abc.XXXXXX)
trap 'redis-cli -p 6390 shutdown nosave >/dev/null 2>&1; rm -rf "$tmp"' EXIT
redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize yes >/dev/null
# Waits (10 s at most) until every given loopback port accepts.
wait_ports() {
	python3 - "$@" <<'PY'
import socket, sys, time
end = time.monotonic() + 10
for p in sys.argv[1:]:
    while True:
        try:
            socket.create_connection(("127.0.0.1", int(p)), 0.2).close()
            break
        except OSError:
            if time.monotonic() > end:
                sys.exit("port %s never answered" % p)
            time.sleep(0.02)
PY
}
# bench BUILD NAME: BUILD's contrib/bench/NAME, or contrib/NAME in a tree
# from before contrib/bench/.
bench() {
	if [ -e "$1/contrib/bench/$2" ]; then
		echo "$1/contrib/bench/$2"
	else
		echo "$1/contrib/$2"
	fi
}
for round in 1 2; do
	for d in "$@"; do
		echo "== round $round $(basename "$d")"
		echo "-- §1 solver (10^4 digits)"
		"$(bench "$d" solver-bench)" 10000 2>&1 | grep -v '^$'
		"$d/grundyd" --listen 127.0.0.1:7600 --db off >/dev/null 2>&1 &
		p1=$!
		"$d/grundyd" --listen 127.0.0.1:7601 --db "$tmp/on.db" \
		    >/dev/null 2>&1 &
		p2=$!
		"$d/grundyd" --listen 127.0.0.1:7720 --db "$tmp/lb.db" \
		    >/dev/null 2>&1 &
		p3=$!
		wait_ports 7600 7601 7720 6390
		echo "-- §2 db off, vs redis"
		"$d/grundy-bench" --port 7600 --conns 50 --seconds 5 --redis 6390
		echo "-- §3 log on (short games)"
		"$d/grundy-bench" --port 7601 --conns 50 --seconds 5
		echo "-- §3 log off (short games)"
		"$d/grundy-bench" --port 7600 --conns 50 --seconds 5
		echo "-- §3 log on (long games)"
		"$d/grundy-bench" --port 7601 --conns 50 --seconds 5 --pile-max 1000
		echo "-- §3 log off (long games)"
		"$d/grundy-bench" --port 7600 --conns 50 --seconds 5 --pile-max 1000
		echo "-- §4 lobby 1 pair"
		python3 "$(bench "$d" lobby-bench.py)" 7720 --pairs 1 --seconds 5
		echo "-- §4 lobby 4 pairs"
		python3 "$(bench "$d" lobby-bench.py)" 7720 --pairs 4 --seconds 5
		kill $p1 $p2 $p3
		wait $p1 $p2 $p3 2>/dev/null
		rm -f "$tmp"/*.db*
	done
done
