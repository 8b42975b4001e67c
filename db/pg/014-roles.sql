-- pg/014-roles.sql: db/014-roles.sql for PostgreSQL (issue 25 §5): each
-- account's stored role, 'player' (every existing account) or 'admin'
-- (granted by grundyd --add-admin only).  The accounts table is shared by
-- every node, so every node sees a role as soon as it is granted.
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'player'
    CHECK (role IN ('player', 'admin'));
