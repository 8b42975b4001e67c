-- 009-nodes.sql: several grundyd nodes on one database (issue 15 §2; see
-- doc/NODES.md).  Applied inside one transaction; PRAGMA user_version is
-- set by the loader, never here.  Times are milliseconds since the Unix
-- epoch from the calling node's clock (src/node.c, src/lease.c compare
-- them with the caller's now).  On SQLite there is one node.

-- One row per start of a grundyd node: its advertised HOST:PORT (where a
-- player whose game it owns is redirected), its start, its last
-- heartbeat and the moment it counts as dead unless it beats again.
CREATE TABLE nodes (
	id		INTEGER PRIMARY KEY,
	addr		TEXT NOT NULL
			    CHECK (length(addr) BETWEEN 1 AND 255),
	started_ms	INTEGER NOT NULL CHECK (started_ms >= 0),
	heartbeat_ms	INTEGER NOT NULL,
	expires_ms	INTEGER NOT NULL
);
CREATE INDEX nodes_expiry ON nodes (expires_ms);

-- The lease of a live game (games.id; no foreign key: a node takes it
-- before the writer thread commits the game's row): the node that
-- referees it, the epoch (1 for the first holder, one more at each
-- takeover), 'held' until expires_ms unless renewed, or 'released'.  The
-- row stays after the release, so that epochs never repeat for a game.
CREATE TABLE leases (
	game_id		INTEGER PRIMARY KEY,
	node_id		INTEGER NOT NULL REFERENCES nodes (id),
	epoch		INTEGER NOT NULL CHECK (epoch >= 1),
	state		TEXT NOT NULL CHECK (state IN ('held', 'released')),
	acquired_ms	INTEGER NOT NULL,
	expires_ms	INTEGER NOT NULL
);
CREATE INDEX leases_expiry ON leases (expires_ms) WHERE state = 'held';
CREATE INDEX leases_node ON leases (node_id);
