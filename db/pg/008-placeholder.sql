-- placeholder in branch lp; the real 008 comes from branch sp at merge
-- (a statement: PostgreSQL answers a script of comments only with an
-- empty query, which sqldb_exec takes for a lost connection)
SELECT 1;
