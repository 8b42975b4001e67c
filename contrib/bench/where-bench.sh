#!/bin/sh
# where-bench.sh: the cost of a login's look-up of the account's games on
# other nodes (src/store/store-where.c, PROTOCOL.md §13.12 "At login on a
# node"; BENCHMARKS.md §28): the statement store_where_player runs, timed
# by pgbench (prepared, one client) on a log of HIST finished games of
# the player and LIVE live games of others, against a login of a player
# without any game.
#
#   sh tests/e2e/pgcluster.sh run sh contrib/bench/where-bench.sh BUILDDIR \
#       [LIVE [HIST [N]]]            (defaults 2000 100000 5000)
set -eu
build=${1:?usage: where-bench.sh BUILDDIR [LIVE [HIST [N]]]}
live=${2:-2000}
hist=${3:-100000}
n=${4:-5000}
bin=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin | tail -1)}
url=${SQLDB_PG_URL:?run under tests/e2e/pgcluster.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The schema: a grundyd node starts once on the database (migrations).
"$build/grundyd" --db "$url" --listen 127.0.0.1:0 --node-ttl 3000 \
    >"$tmp/grundyd.log" 2>&1 &
pid=$!
i=0
until "$bin/psql" -X -A -t -d "$url" -c "SELECT count(*) FROM nodes" \
    2>/dev/null | grep -q '^[1-9]'; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat "$tmp/grundyd.log"; exit 1; }
	sleep 0.1
done
kill "$pid"
wait "$pid" || true
"$bin/psql" -X -q -d "$url" <<SQL
INSERT INTO games (id, family, game, player1, player2, started_at, status)
  SELECT nextval('games_id_seq'), 'nim', 'nim 1', 'p', 'q' || (i % 1000),
    'x', 'finished' FROM generate_series(1, $hist) AS i;
INSERT INTO games (id, family, game, player1, player2, started_at, status)
  SELECT nextval('games_id_seq'), 'nim', 'nim 1', 'r' || i, 's' || i, 'x',
    'live' FROM generate_series(1, $live) AS i;
INSERT INTO games (id, family, game, player1, player2, started_at, status)
  VALUES (nextval('games_id_seq'), 'nim', 'nim 1', 'p', 'z', 'x', 'live');
ANALYZE;
SQL
# store-where.c's statement as bound (from: as there, the live games
# behind OFFSET 0), and without the fence (plain: the planner may take the
# player's history through games_player1/2).
cols="g.id, CASE WHEN g.player1 = '@' THEN 1 WHEN g.player2 = '@' THEN 2 \
ELSE 0 END, COALESCE(l.node_id, 0), CASE WHEN l.state = 'held' AND \
l.expires_ms > 1 THEN 1 ELSE 0 END, CASE WHEN n.heartbeat_ms + \
(n.expires_ms - n.heartbeat_ms) * 2 / 3 > 1 THEN 1 ELSE 0 END, \
COALESCE(n.addr, '')"
join="LEFT JOIN leases AS l ON l.game_id = g.id LEFT JOIN nodes AS n ON \
n.id = l.node_id"
for form in fenced plain; do
	for who in p nobody; do
		if [ $form = fenced ]; then
			from="(SELECT id, player1, player2 FROM games WHERE \
status = 'live' OFFSET 0) AS g $join WHERE"
		else
			from="games AS g $join WHERE g.status = 'live' AND"
		fi
		echo "SELECT $cols FROM $from (g.player1 = '@' OR g.player2 = \
'@') ORDER BY g.id LIMIT 64;" | sed "s/@/$who/g" >"$tmp/q.sql"
		printf '%s, player %s (live games %s, finished %s): ' $form \
		    "$who" "$live" "$hist"
		"$bin/pgbench" -n -M prepared -c 1 -t "$n" -f "$tmp/q.sql" \
		    "$url" 2>/dev/null | sed -n 's/^latency average = //p'
	done
done
