-- pg/009-nodes.sql: db/009-nodes.sql for PostgreSQL (issue 15 §2; see
-- doc/NODES.md): the node registry and the leases of live games, the same
-- columns, checks and indexes.

CREATE TABLE nodes (
	id		BIGSERIAL PRIMARY KEY,
	addr		TEXT NOT NULL
			    CHECK (length(addr) BETWEEN 1 AND 255),
	started_ms	BIGINT NOT NULL CHECK (started_ms >= 0),
	heartbeat_ms	BIGINT NOT NULL,
	expires_ms	BIGINT NOT NULL
);
CREATE INDEX nodes_expiry ON nodes (expires_ms);

CREATE TABLE leases (
	game_id		BIGINT PRIMARY KEY,
	node_id		BIGINT NOT NULL REFERENCES nodes (id),
	epoch		BIGINT NOT NULL CHECK (epoch >= 1),
	state		TEXT NOT NULL CHECK (state IN ('held', 'released')),
	acquired_ms	BIGINT NOT NULL,
	expires_ms	BIGINT NOT NULL
);
CREATE INDEX leases_expiry ON leases (expires_ms) WHERE state = 'held';
CREATE INDEX leases_node ON leases (node_id);
