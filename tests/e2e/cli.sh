#!/bin/sh
# cli.sh: end-to-end checks of the grundy CLI: every example of the
# notation is analysed, a scripted game is played, and bad input is refused.
set -u
GRUNDY=${GRUNDY:-./grundy}
. "${top_srcdir:-.}/tests/e2e/tap.sh"

# expect NAME WANT CMD...: CMD's output must contain every line of WANT.
expect() {
	name=$1 want=$2
	shift 2
	out=$("$@" 2>&1)
	ok=1
	printf '%s\n' "$want" | while IFS= read -r line; do
		[ -z "$line" ] && continue
		printf '%s\n' "$out" | grep -qxF -- "$line" || exit 1
	done || ok=0
	if [ "$ok" = 1 ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "$(printf -- '--- want\n%s\n--- got\n%s' \
		    "$want" "$out")"
	fi
}

expect nim "outcome N
grundy 2
winning 1
1=1" $GRUNDY analyze nim 3 4 5
expect misere "game nim misere=1 1 1 2
outcome N
winning 1
3=1" $GRUNDY analyze nim misere=1 1 1 2
expect bash "outcome P
grundy 0
winning 0" $GRUNDY analyze bash m=3 20
expect wythoff "outcome P
grundy 0
winning 0" $GRUNDY analyze wythoff 3 5
expect twythoff "game wythoff t=2 3 5
outcome N" $GRUNDY analyze wythoff t=2 3 5
expect ktwythoff "game wythoff K=3 t=5 30 40
outcome N" $GRUNDY analyze wythoff K=3 t=5 30 40
expect staircase "outcome N
grundy 1
winning 2
1=2" $GRUNDY analyze staircase 3 0 2 5
expect subtraction "game subtraction S=2,5,7 10 11
outcome N
grundy 3" $GRUNDY analyze subtraction S=2,5,7 10 11
expect klnim "game klnim k=2 l=3 turn=1 5 6 7
player 1
outcome P
winning 0" $GRUNDY analyze klnim k=2 l=3 turn=1 5 6 7
expect graph "game graph edges=0>1,0>2,1>2 0 0
outcome P
grundy 0
winning 0" $GRUNDY analyze graph 'edges=0>1,0>2,1>2' 0 0
expect sum "game sum nim 3 4 + bash m=3 10 + wythoff 3 5
outcome N
grundy 5" $GRUNDY analyze sum nim 3 4 + bash m=3 10 + wythoff 3 5
expect games "nim [misere=0|1] PILE...: Nim: lower one pile; misere=1: the last mover loses" $GRUNDY games

# A scripted game: a bad move is refused and retried, the engine wins.
expect play "illegal move: index 9 out of range: the position has 3 piles; try again
engine plays 1=1
game over: the engine wins" sh -c "printf '1=2\n9=1\n2=0\n1=0\n3=0\n' | $GRUNDY play nim 3 4 5"
expect play-engine-first "engine plays 1=1" sh -c "printf 'quit\n' | $GRUNDY play --engine-first nim 3 4 5"

refuse junk "not a non-negative decimal integer" $GRUNDY analyze nim 3 x
refuse family "unknown game" $GRUNDY analyze chess 1
refuse digits "exceeds the limit of 5" $GRUNDY analyze --max-digits 5 nim 123456
refuse cycle "cycle" $GRUNDY analyze graph 'edges=1>2,2>1' 1
refuse usage "usage" $GRUNDY frobnicate

tap_done
