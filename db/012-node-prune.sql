-- 012-node-prune.sql: the rows of dead nodes are pruned (issue 15 §2;
-- doc/NODES.md, "Pruning the nodes' rows").  A released lease keeps its
-- row (so that an epoch never repeats for its game) but no longer needs
-- its last holder: leases.node_id may be NULL once released, and the node
-- thread sets it so just before it deletes that holder's row.  A held
-- lease always names its holder.  SQLite cannot drop a NOT NULL: the
-- table is made again, with the same rows and indexes.  Applied inside
-- one transaction; PRAGMA user_version is set by the loader.
CREATE TABLE leases_012 (
	game_id		INTEGER PRIMARY KEY,
	node_id		INTEGER REFERENCES nodes (id),
	epoch		INTEGER NOT NULL CHECK (epoch >= 1),
	state		TEXT NOT NULL CHECK (state IN ('held', 'released')),
	acquired_ms	INTEGER NOT NULL,
	expires_ms	INTEGER NOT NULL,
	CHECK (node_id IS NOT NULL OR state = 'released')
);
INSERT INTO leases_012 (game_id, node_id, epoch, state, acquired_ms,
    expires_ms)
    SELECT game_id, node_id, epoch, state, acquired_ms, expires_ms
    FROM leases;
DROP TABLE leases;
ALTER TABLE leases_012 RENAME TO leases;
CREATE INDEX leases_expiry ON leases (expires_ms) WHERE state = 'held';
CREATE INDEX leases_node ON leases (node_id);
