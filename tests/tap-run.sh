#!/bin/sh
# tap-run.sh PROGRAM [ARG...]: runs one test program of `make check` for
# automake's tap-driver.sh (LOG_COMPILER).  A cmocka test (tests/unit/test-*)
# reports each of its tests in TAP itself (CMOCKA_MESSAGE_OUTPUT=TAP);
# cmocka prints a skipped test as `not ok N # SKIP`, which TAP counts as
# a failure, so it becomes `ok N # SKIP`.  Any other program (the fuzz
# replays) is one check named after it, from its exit status (77: skip).
# The program's exit status is passed on.
prog=$1
shift
case $prog in
*tests/unit/test-*)
	exec 4>&1
	rc=$({ { CMOCKA_MESSAGE_OUTPUT=TAP "$prog" "$@"; echo $? >&3; } |
	    sed 's/^not ok \([0-9][0-9]*\) # SKIP/ok \1 # SKIP/' >&4; } 3>&1)
	exec 4>&-
	exit "$rc"
	;;
esac
"$prog" "$@"
rc=$?
case $rc in
0)	printf '1..1\nok 1 - %s\n' "$prog" ;;
77)	printf '1..0 # SKIP %s\n' "$prog"; rc=0 ;;
*)	printf '1..1\nnot ok 1 - %s: exit status %d\n' "$prog" "$rc" ;;
esac
exit "$rc"
