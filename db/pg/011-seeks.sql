-- pg/011-seeks.sql: db/011-seeks.sql for PostgreSQL (issue 15 §2): the
-- seeks published across nodes, the same columns, checks and index.
CREATE TABLE seeks (
	id		BIGSERIAL PRIMARY KEY,
	node_id		BIGINT NOT NULL REFERENCES nodes (id),
	player		TEXT NOT NULL CHECK (length(player) BETWEEN 1 AND 32),
	spec		TEXT NOT NULL CHECK (length(spec) BETWEEN 1 AND 4096),
	random		INTEGER NOT NULL CHECK (random IN (0, 1)),
	rated		INTEGER NOT NULL CHECK (rated IN (0, 1)),
	base_ms		BIGINT NOT NULL CHECK (base_ms >= 0),
	inc_ms		BIGINT NOT NULL CHECK (inc_ms >= 0),
	created_ms	BIGINT NOT NULL,
	owner_id	BIGINT REFERENCES nodes (id),	-- the claiming node
	game_id		BIGINT				-- the game it started
);
CREATE INDEX seeks_node ON seeks (node_id);
