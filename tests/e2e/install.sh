#!/bin/sh
# install.sh: the install as a Debian administrator meets it (issue 11 §4).
#  - the man pages pass mandoc -T lint;
#  - the example configuration, `grundyd --help` and grundyd.conf(5) name
#    the same settings with the same defaults, and the example, uncommented,
#    is a valid configuration;
#  - every program's --help goes to stdout, exits 0 and shows defaults; an
#    unknown option is named in the error;
#  - `make install DESTDIR=...` installs the programs, man pages, example
#    configuration (copied to SYSCONFDIR only when there is none) and bots,
#    and the README's two-bot example works from the install.
# Run by `make check` from the build directory ($MAKE and $top_srcdir set).
set -u
top_srcdir=${top_srcdir:-.}
MAKE=${MAKE:-make}
. "$top_srcdir/tests/e2e/tap.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/grundy-install.XXXXXX") || exit 99
daemon=
cleanup() {
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon"
	rm -rf "$tmp"
}
trap cleanup EXIT

bad() { tap_fail "$*"; }
check() {
	name=$1
	shift
	if "$@"; then tap_ok "$name"; else tap_fail "$name"; fi
}

# 1. The man pages.
if command -v mandoc >/dev/null 2>&1; then
	for m in grundy.1 grundyd.conf.5 grundyd.8; do
		# -W warning: cross references to pages not installed yet are
		# only style notes.
		out=$(mandoc -T lint -W warning "$top_srcdir/doc/$m" 2>&1)
		check "mandoc -T lint $m: $out" test -z "$out"
	done
else
	tap_skip "mandoc -T lint" "mandoc is not installed (apt-get install mandoc; quickstart.sh installs it)"
fi

# 1b. grundy(1)'s synopsis: each command on its own line (a .Nm before
# it), with every option its --help lists.
awk '/^\.Sh SYNOPSIS/ { on = 1; next } /^\.Sh / { on = 0 }
    on && /^\.Nm/ { nm = 1; next }
    on && /^\.Cm / { if (nm) cmd = $2; else print "glued " $2; nm = 0 }
    on && cmd != "" { n = split($0, w, " ");
	for (i = 1; i < n; i++) if (w[i] ~ /^\.?Fl$/ && w[i + 1] ~ /^-/)
		print cmd " -" w[i + 1] }' "$top_srcdir/doc/grundy.1" |
    sort -u > "$tmp/syn"
check "grundy(1)'s synopsis has a .Nm before every command:
$(grep glued "$tmp/syn")" test -z "$(grep glued "$tmp/syn")"
for c in connect bot verify match; do
	./grundy $c --help | grep -o -- '--[a-z][a-z-]*' | grep -vx -- --help |
	    sed "s/^/$c /" | sort -u > "$tmp/help-$c"
	missing=$(comm -23 "$tmp/help-$c" "$tmp/syn")
	check "grundy $c --help's options are in grundy(1)'s synopsis:
$missing" test -z "$missing"
done
check "grundy(1) names GRUNDY_PASSWORD" \
    grep -q '^\.Ev GRUNDY_PASSWORD' "$top_srcdir/doc/grundy.1"

# 2. One list of settings: example, --help and grundyd.conf(5) agree.
./grundyd --example-config > "$tmp/example" || bad "grundyd --example-config"
check "the built doc/grundyd.conf is grundyd --example-config" \
    cmp -s "$tmp/example" doc/grundyd.conf
sed -n 's/^#\([a-z][a-z-]*\) = \(.*\)$/\1 \2/p' "$tmp/example" |
    sort > "$tmp/ex-kv"
cut -d' ' -f1 "$tmp/ex-kv" > "$tmp/ex-keys"
./grundyd --help > "$tmp/help"
sed -n 's/^  --\([a-z][a-z-]*\) .*/\1/p' "$tmp/help" |
    grep -vx 'config\|check-config\|example-config\|precompute' |
    sort > "$tmp/help-keys"
sed -n 's/^\.It Cm \([a-z][a-z-]*\) No = .*/\1/p' \
    "$top_srcdir/doc/grundyd.conf.5" | sort > "$tmp/man-keys"
check "example and --help list the same settings:
$(diff "$tmp/ex-keys" "$tmp/help-keys")" cmp -s "$tmp/ex-keys" "$tmp/help-keys"
check "example and grundyd.conf(5) list the same settings:
$(diff "$tmp/ex-keys" "$tmp/man-keys")" cmp -s "$tmp/ex-keys" "$tmp/man-keys"
check "the example lists at least the 30 settings of today" \
    test "$(wc -l < "$tmp/ex-keys")" -ge 30
# Each numeric default: the same in the example, --help and the man page.
while read -r key val; do
	case $val in
	*[!0-9]*) continue ;;
	esac
	if grep -q -- "^  --$key N " "$tmp/help"; then
		check "--help default of $key is $val" \
		    grep -q -- "^  --$key N .*(default $val;" "$tmp/help"
	fi
	check "grundyd.conf(5) default of $key is $val" \
	    awk -v k="$key" -v v="$val" '
	    $1 == ".It" && $2 == "Cm" { on = ($3 == k) }
	    on && $1 == "Default:" { found = ($2 == v || $2 == v ".") }
	    END { exit !found }' "$top_srcdir/doc/grundyd.conf.5"
done < "$tmp/ex-kv"
# Uncommented, the example is a valid configuration.
sed 's/^#\([a-z][a-z-]*\) = /\1 = /' "$tmp/example" > "$tmp/uncommented"
out=$(./grundyd --config "$tmp/uncommented" --check-config 2>&1)
check "the uncommented example is valid: $out" \
    test "$out" = "grundyd: configuration ok"

# 3. --help: stdout, status 0, defaults; unknown options named.
helps() {
	name=$1
	shift
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$name: status $rc" test "$rc" = 0
	check "$name: nothing on stderr" test ! -s "$tmp/err"
	check "$name: shows defaults" grep -qi default "$tmp/out"
}
helps "grundyd --help" ./grundyd --help
helps "grundy --help" ./grundy --help
helps "grundy analyze --help" ./grundy analyze --help
helps "grundy play --help" ./grundy play --help
helps "grundy connect --help" ./grundy connect --help
helps "grundy engine --help" ./grundy engine --help
helps "grundy bot --help" ./grundy bot --help
unknown() {
	name=$1
	shift
	"$@" > /dev/null 2> "$tmp/err" < /dev/null
	rc=$?
	check "$name: status $rc" test "$rc" = 2 -o "$rc" = 1
	check "$name: names --frobnicate" grep -q -- "--frobnicate" "$tmp/err"
}
unknown "grundyd --frobnicate" ./grundyd --frobnicate 1
unknown "grundy analyze --frobnicate" ./grundy analyze --frobnicate nim 1
unknown "grundy play --frobnicate" ./grundy play --frobnicate 1 nim 1
unknown "grundy connect --frobnicate" ./grundy connect --frobnicate
unknown "grundy bot --frobnicate" ./grundy bot --frobnicate x
unknown "grundy engine --frobnicate" ./grundy engine --frobnicate

# 4. make install DESTDIR=...
dest=$tmp/dest
if ! MAKEFLAGS= $MAKE install DESTDIR="$dest" > "$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	bad "make install DESTDIR=$dest"
fi
# where FILE: the one installed path ending in FILE.
where() {
	find "$dest" -path "*/$1" | head -n 1
}
for f in bin/grundy bin/grundyd man/man1/grundy.1 man/man5/grundyd.conf.5 \
    man/man8/grundyd.8 doc/grundy/examples/grundyd.conf \
    doc/grundy/GAMES.md doc/grundy/PROTOCOL.md etc/grundyd.conf \
    libexec/grundy/bot-perfect libexec/grundy/bot-random.py \
    systemd/system/grundyd.service; do
	check "installed: $f" test -n "$(where "$f")"
done
bindir=$(dirname "$(where bin/grundy)")
botdir=$(dirname "$(where libexec/grundy/bot-perfect)")
etc=$(where etc/grundyd.conf)
check "bots are executable" test -x "$botdir/bot-perfect" -a \
    -x "$botdir/bot-random.py"
check "etc/grundyd.conf is the example" cmp -s "$etc" doc/grundyd.conf
check "the unit reads it" grep -q "config .*/etc/grundyd.conf" \
    "$(where systemd/system/grundyd.service)"
if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -T lint -W warning "$(where man/man8/grundyd.8)" 2>&1)
	check "installed grundyd.8 lints: $out" test -z "$out"
fi
# A second install keeps an administrator's configuration.
echo "max-digits = 5000" >> "$etc"
MAKEFLAGS= $MAKE install DESTDIR="$dest" > "$tmp/install.log" 2>&1 ||
    bad "second make install"
check "a second install keeps etc/grundyd.conf" \
    grep -qx "max-digits = 5000" "$etc"
check "the installed grundyd reads it" \
    sh -c '"$0" --config "$1" --check-config > /dev/null' \
    "$bindir/grundyd" "$etc"

# The README's two bots, from the install: two seeks of one game pair.
"$bindir/grundyd" --listen 127.0.0.1:0 --port-file "$tmp/port" \
    --db "$tmp/g.db" --config "$etc" 2> "$tmp/daemon.log" &
daemon=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 300 ]; do	# 30 s: a loaded machine
	sleep 0.1
	i=$((i + 1))
done
port=$(cat "$tmp/port" 2>/dev/null)
if [ -z "$port" ]; then
	bad "the installed grundyd did not start"
	cat "$tmp/daemon.log"
else
	PATH=/usr/bin:/bin timeout 60 "$bindir/grundy" bot \
	    --server "127.0.0.1:$port" --name alice --password s3cret-pw \
	    --register --seek 'nim 3 4 5 tc=60000+1000' --games 2 \
	    -- "$botdir/bot-random.py" 2> "$tmp/alice.log" &
	alice=$!
	PATH=/usr/bin:/bin timeout 60 "$bindir/grundy" bot \
	    --server "127.0.0.1:$port" --name bob --password s3cret-pw \
	    --register --seek 'nim 3 4 5 tc=60000+1000' --games 2 \
	    -- "$botdir/bot-perfect" 2> "$tmp/bob.log"
	rb=$?
	wait $alice
	ra=$?
	check "README bots: alice (bot-random.py) exits 0" test "$ra" = 0
	check "README bots: bob (bot-perfect) exits 0" test "$rb" = 0
	n=$(cat "$tmp/alice.log" "$tmp/bob.log" | grep -c ' over: ')
	check "README bots: 2 games each, $n game-over lines" test "$n" = 4
	[ "$ra$rb" = 00 ] || cat "$tmp/alice.log" "$tmp/bob.log"
fi

# make uninstall removes all but the changed configuration.
MAKEFLAGS= $MAKE uninstall DESTDIR="$dest" > "$tmp/install.log" 2>&1 ||
    bad "make uninstall"
left=$(find "$dest" -type f | sed "s|^$dest||")
check "uninstall leaves only the changed configuration: $left" \
    test "$(printf '%s\n' "$left" | grep -c .)" = 1 -a -f "$etc"
rm -f "$etc"
MAKEFLAGS= $MAKE install DESTDIR="$dest" > "$tmp/install.log" 2>&1 &&
    MAKEFLAGS= $MAKE uninstall DESTDIR="$dest" > "$tmp/install.log" 2>&1
left=$(find "$dest" -type f | sed "s|^$dest||")
check "install then uninstall leaves no file: $left" test -z "$left"

tap_done
