-- 014-roles.sql: roles are granted, never claimed (issue 25 §5; PROTOCOL.md
-- §13.1).  Each account has a stored role, 'player' or 'admin'; an admin
-- is made only by the operator (grundyd --add-admin NAME), never by the
-- name an account has.  Existing accounts become players, whatever their
-- names: one named in the admins setting was perhaps registered by a
-- stranger first, so the operator grants the role again with --add-admin
-- (which also sets its password).  Applied inside one transaction; PRAGMA
-- user_version is set by the loader.
ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'player'
    CHECK (role IN ('player', 'admin'));
