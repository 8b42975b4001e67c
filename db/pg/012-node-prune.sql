-- pg/012-node-prune.sql: db/012-node-prune.sql for PostgreSQL (issue 15
-- §2): a released lease may forget its last holder (node_id NULL), so
-- that a dead node's row can be deleted; a held lease names its holder.
ALTER TABLE leases ALTER COLUMN node_id DROP NOT NULL;
ALTER TABLE leases ADD CONSTRAINT leases_holder
    CHECK (node_id IS NOT NULL OR state = 'released');
