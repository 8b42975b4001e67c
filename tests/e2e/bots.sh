#!/bin/sh
# bots.sh: checks the player programs and `grundy bot` without grundyd:
# `grundy engine` answers a scripted session; contrib/bots/bot-random.py plays
# only legal moves against `grundy engine`, refereed by a third one
# (tests/e2e/bot-match.py); `grundy bot` relays, resumes and re-seeks against a
# scripted server (tests/e2e/bot-fake-server.py) and refuses a bad address.
set -u
GRUNDY=${GRUNDY:-./grundy}
top_srcdir=${top_srcdir:-.}
. "$top_srcdir/tests/e2e/tap.sh"

# same NAME WANT GOT: GOT must equal WANT.
same() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_fail "$1" "$(printf -- '--- want\n%s\n--- got\n%s' "$2" "$3")"
	fi
}

# succeed NAME CMD...: CMD must exit 0.
succeed() {
	name=$1
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$name"
		tap_note "$out"
	else
		tap_fail "$name" "$out"
	fi
}

# (a) grundy engine: the player role's commands, clock tokens, gameover.
got=$(printf '%s\n' '1 new nim 3 4 5' '2 play 1=1 time1=100 time2=200' \
    '3 genmove time2=5 time1=6' '4 play 2=3 time1=1' '5 genmove' \
    'play 1=0 time1=x' '6 genmove now' '7 gameover first no-legal-move' \
    'gameover' '8 new wythoff 3 5' '9 genmove time1=0 time2=0' \
    '10 new graph 5' '11 genmove time1=1 time2=1' 'quit' 'name' |
    $GRUNDY engine; echo "rc=$?")
same engine "=1 nim 3 4 5

=2

=3 1=0

=4

=5 3=3

? time1 'x': not a non-negative decimal integer

?6 usage: genmove [time1=MS] [time2=MS]

=7

=

=8 wythoff 3 5

=9 1=2

=10 graph 5

?11 the game is over: the player to move has no legal move

=

rc=0" "$got"
got=$(printf '1 new nim 1\n' | $GRUNDY engine; echo "rc=$?")
same engine-eof "=1 nim 1

rc=0" "$got"
# grundy engine frames lines exactly as grundyd does: the same golden
# transcript (answer blocks, stray answers, an unterminated last line).
got=$($GRUNDY engine < "$top_srcdir/proto/transcripts/answers.in"; echo x)
same engine-answers "$(cat "$top_srcdir/proto/transcripts/answers.out"; echo x)" \
    "$got"
got=$(printf '1 new nim 7\n2 genmove\n' |
    GRUNDY=$GRUNDY "$top_srcdir/contrib/bots/bot-perfect")
same bot-perfect "=1 nim 7

=2 1=0" "$got"

# (c) grundy bot: bad arguments and an address nobody listens on.
refuse bot-usage "are required" $GRUNDY bot --server 127.0.0.1:1 -- true
refuse bot-name "without control" $GRUNDY bot --server 127.0.0.1:1 \
    --name 'a b' --password secret123 -- true
refuse bot-games "expected a number" $GRUNDY bot --server 127.0.0.1:1 \
    --name a --password secret123 --games x -- true
refuse bot-address "could not connect to 127.0.0.1:1 within 1 s" \
    $GRUNDY bot --server 127.0.0.1:1 --name alice --password secret123 \
    --reconnect-for 1 -- $GRUNDY engine
refuse bot-host "expected HOST:PORT" $GRUNDY bot --server '[::1' \
    --name alice --password secret123 -- $GRUNDY engine

# (b) and the scripted server: Python 3 drivers.
if command -v python3 >/dev/null 2>&1; then
	succeed bot-match python3 "$top_srcdir/tests/e2e/bot-match.py" "$GRUNDY" \
	    "$top_srcdir/contrib/bots/bot-random.py"
	succeed bot-fake-server python3 "$top_srcdir/tests/e2e/bot-fake-server.py" \
	    "$GRUNDY"
else
	tap_skip bot-match "python3 is not installed"
	tap_skip bot-fake-server "python3 is not installed"
fi

tap_done
