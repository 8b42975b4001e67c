#!/bin/sh
# pgstore.sh: the store's own test programs a second time, on PostgreSQL
# (issue 15 §1): one throwaway cluster (tests/e2e/pgcluster.sh) for all of
# them, each program in turn with SQLDB_PG_URL set (tests/unit/testdb.c then
# opens that database and empties it before each test), their TAP as one
# stream for make check: checks numbered on, named after their program,
# the plan at the end.  A test about an SQLite-only feature is a TAP skip
# that says why.  A program that exits with a failure is a failed check.
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0"
fi
n=0
for p in test-store test-store-writer test-store-rating test-store-migrate \
    test-store-fail test-record; do
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "./tests/unit/$p" 2>&1)
	rc=$?
	printf '%s\n' "$out" | awk -v n="$n" -v p="$p" '
	/^1\.\.[0-9]+/ { next }
	/^(not )?ok [0-9]+/ {
		ok = $1 == "ok" ? "ok" : "not ok"
		sub(/^(not )?ok [0-9]+ ?/, "")
		if (ok == "not ok" && $0 ~ /^# SKIP/)
			ok = "ok"		# cmocka prints skips so
		printf "%s %d %s: %s\n", ok, ++n, p, $0
		next
	}
	{ print "# " $0 }
	END { print n > "/dev/stderr" }' 2>"${TMPDIR:-/tmp}/pgstore.$$"
	n=$(cat "${TMPDIR:-/tmp}/pgstore.$$")
	rm -f "${TMPDIR:-/tmp}/pgstore.$$"
	n=$((n + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $n - $p exited 0"
	else
		echo "not ok $n - $p exited $rc"
	fi
done
echo "1..$n"
