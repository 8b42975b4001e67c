#!/bin/sh
# league-pg.sh: the league's tests again on PostgreSQL (issue 15 §1), all
# under one throwaway cluster (tests/e2e/pgcluster.sh): test-league,
# test-league-games, test-league-nodes and test-tour-migrate with
# SQLDB_PG_URL set (tests/unit/test-league-db.h; the SQLite-only tests skip,
# saying why).  Their TAP reports become one: each check renumbered and
# named after its program; a program that ends badly without saying which
# check failed is one failed check of its own.
top=${top_srcdir:-.}
if [ -z "${SQLDB_PG_URL:-}" ]; then
	exec sh "$top/tests/e2e/pgcluster.sh" run sh "$0" "$@"
fi
n=0
rc=0
for t in test-league test-league-games test-league-nodes test-tour-migrate
do
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "./tests/unit/$t" 2>&1)
	st=$?
	fails=0
	while IFS= read -r line; do
		rest=$(printf '%s\n' "$line" |
		    sed 's/^\(not \)\{0,1\}ok [0-9]* *\(- \)\{0,1\}//')
		case $line in
		1..*)	;;
		"not ok "*" # SKIP"*)
			n=$((n + 1))
			echo "ok $n - $t $rest" ;;
		"ok "*)	n=$((n + 1))
			echo "ok $n - $t: $rest" ;;
		"not ok "*)
			n=$((n + 1))
			fails=$((fails + 1))
			echo "not ok $n - $t: $rest" ;;
		*)	echo "# $line" ;;
		esac
	done <<END
$out
END
	if [ "$st" -ne 0 ]; then
		rc=1
		if [ "$fails" -eq 0 ]; then
			n=$((n + 1))
			echo "not ok $n - $t: exit status $st"
		fi
	fi
done
echo "1..$n"
exit "$rc"
