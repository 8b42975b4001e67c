#!/bin/sh
# py-run.sh TEST.py: runs one Python test of `make check` for automake's
# tap-driver.sh (PY_LOG_COMPILER), from the build directory, as
#	python3 TEST.py BUILDDIR SRCDIR
# with its TAP on stdout and its exit status passed on.  A test whose file
# has the line `NEEDS_PG = True` (at the start of a line, module level)
# runs under a throwaway PostgreSQL cluster of its own
# (tests/e2e/pgcluster.sh run: SQLDB_PG_URL, SQLDB_PG_DIR and SQLDB_PG_CTL
# in its environment), made before it starts and removed after it ends.
top=${top_srcdir:-.}
test=$1
shift
if grep -q '^NEEDS_PG = True' "$test"; then
	exec sh "$top/tests/e2e/pgcluster.sh" run python3 "$test" . "$top" "$@"
fi
exec python3 "$test" . "$top" "$@"
