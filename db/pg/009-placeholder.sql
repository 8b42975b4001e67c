-- placeholder in branch lp; the real 009 comes from branch nd at merge
-- (a statement: PostgreSQL answers a script of comments only with an
-- empty query, which sqldb_exec takes for a lost connection)
SELECT 1;
