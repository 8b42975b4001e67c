-- 011-seeks.sql: seeks published across nodes (issue 15 §2, PROTOCOL.md
-- §13.3).  A node's open seek that found no partner among its own is
-- published here; the node whose newer seek is compatible claims the
-- older row and deletes both in one transaction (src/lobby-xnode.c), so
-- that exactly one node pairs each seek; the claimed row keeps the
-- claiming node (owner_id) and its game (game_id) until the seek's own
-- node has redirected its player and deleted it.  On SQLite there is one node and
-- the table stays empty.  Applied inside one transaction; PRAGMA
-- user_version is set by the loader.
CREATE TABLE seeks (
	id		INTEGER PRIMARY KEY,
	node_id		INTEGER NOT NULL REFERENCES nodes (id),
	player		TEXT NOT NULL CHECK (length(player) BETWEEN 1 AND 32),
	spec		TEXT NOT NULL CHECK (length(spec) BETWEEN 1 AND 4096),
	random		INTEGER NOT NULL CHECK (random IN (0, 1)),
	rated		INTEGER NOT NULL CHECK (rated IN (0, 1)),
	base_ms		INTEGER NOT NULL CHECK (base_ms >= 0),
	inc_ms		INTEGER NOT NULL CHECK (inc_ms >= 0),
	created_ms	INTEGER NOT NULL,
	owner_id	INTEGER REFERENCES nodes (id),	-- the claiming node
	game_id		INTEGER				-- the game it started
);
CREATE INDEX seeks_node ON seeks (node_id);
