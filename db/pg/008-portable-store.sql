-- pg/008-portable-store.sql: db/008-portable-store.sql for PostgreSQL
-- (issue 15 §1): the table cache's order of storing, the index on
-- games(started_at), and the sequence that game ids come from.

ALTER TABLE tables ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
UPDATE tables SET seq = o.k
	FROM (SELECT kind, key, ROW_NUMBER() OVER (ORDER BY created_at, kind,
	    key) AS k FROM tables) AS o
	WHERE tables.kind = o.kind AND tables.key = o.key;
CREATE INDEX tables_seq ON tables (seq);

CREATE INDEX games_started_at ON games (started_at);

-- Several nodes begin games at once: every node takes its game ids from
-- this sequence (a few at a time, ahead of need), never from a counter of
-- its own.  It starts after the games there are.  SQLite keeps its
-- counter from MAX(id) (one grundyd per file).
CREATE SEQUENCE games_id_seq;
SELECT setval('games_id_seq', COALESCE((SELECT MAX(id) FROM games), 0) + 1,
    false);
-- A game inserted without an id gets the next one, as SQLite's INTEGER
-- PRIMARY KEY gives it (tools and tests insert games so).
ALTER TABLE games ALTER COLUMN id SET DEFAULT nextval('games_id_seq');
