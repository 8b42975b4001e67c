-- 008-portable-store.sql: what the store needs to run the same SQL on
-- SQLite and PostgreSQL (issue 15 §1), and a missing index.  Applied by
-- store.c inside one transaction; PRAGMA user_version is set by the
-- loader, never here.  Its PostgreSQL twin is db/pg/008-portable-store.sql.

-- The table cache's order of storing, which its trimming evicts by (the
-- oldest first): it was the rowid, which INSERT OR REPLACE renewed; the
-- store now writes INSERT ... ON CONFLICT DO UPDATE, which keeps a row's
-- rowid, and sets seq on every store instead.
ALTER TABLE tables ADD COLUMN seq INTEGER;
UPDATE tables SET seq = rowid;
CREATE INDEX tables_seq ON tables (seq);

-- history since= without a player: the games started at or after a time,
-- newest first, without a scan of the whole table.
CREATE INDEX games_started_at ON games (started_at);
