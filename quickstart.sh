#!/bin/sh
# quickstart.sh: install what Grundy needs on Debian, build it, then run the
# main job.  './quickstart.sh check' does the same set-up, then 'make check'
# (mandoc is needed there: the tests lint the manual pages).
# './quickstart.sh fuzz' also installs clang and libFuzzer (libclang-rt-dev),
# configures with --enable-fuzzing and runs 'make fuzz' (fuzz/README.md);
# these packages are not needed otherwise.
set -eu
cd "$(dirname "$0")"

mode=${1:-run}
case "$mode" in
run|check|fuzz) ;;
*) echo "usage: ./quickstart.sh [check|fuzz]" >&2; exit 2 ;;
esac

# Debian packages: the toolchain, autotools, every library we link,
# python3 for the bot tests (tests/e2e/bots.sh) and contrib/bots/bot-random.py,
# mandoc for the manual pages' lint (tests/e2e/install.sh), and iproute2 (ip)
# for the vanished-peer test in a network namespace (tests/e2e/accounts.py).
# libpq-dev for the store on PostgreSQL, and postgresql (initdb, pg_ctl)
# for the throwaway cluster of its tests (tests/e2e/pgcluster.sh).
# bubblewrap and libseccomp-dev for the sandbox of player programs
# (grundy match --sandbox, tests/e2e/sandbox.py).
pkgs="build-essential autoconf automake pkg-config python3 mandoc
	libgmp-dev libevent-dev libsqlite3-dev libcmocka-dev libcrypt-dev
	iproute2 libedit-dev tmux libpq-dev postgresql bubblewrap
	libseccomp-dev"
[ "$mode" = fuzz ] && pkgs="$pkgs clang libclang-rt-dev"
# chromium (headless) for the web pages' test, tests/e2e/web.py.
[ "$mode" = check ] && pkgs="$pkgs chromium"
missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "quickstart: installing:$missing"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing
fi

# Bootstrap, configure and build (again only when the inputs changed).
if [ ! -x configure ] || [ configure.ac -nt configure ] ||
    [ Makefile.am -nt configure ]; then
	autoreconf -fi
fi
if [ "$mode" = fuzz ]; then
	grep -q -- '--enable-fuzzing' config.status 2>/dev/null ||
	    ./configure --enable-fuzzing
elif [ ! -f Makefile ] || [ configure -nt Makefile ]; then
	./configure
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs"

if [ "$mode" = fuzz ]; then
	exec make fuzz
fi
if [ "$mode" = check ]; then
	rc=0
	make -j"$jobs" check || rc=$?
	# Show every test's own output (the cmocka summaries) in this log.
	for f in tests/*.log tests/unit/*.log tests/e2e/*.log; do
		[ -f "$f" ] || continue
		echo "==> $f"
		cat "$f"
	done
	exit "$rc"
fi

# The main job: grundyd in the foreground on 127.0.0.1:7559, its state
# under ./var/, with the web view and the JSON API on 127.0.0.1:7560.
# Play from another terminal: ./grundy connect
mkdir -p var
echo "quickstart: grundyd on 127.0.0.1:7559 (Ctrl-C stops it);" \
    "from another terminal: ./grundy connect"
echo "quickstart: watch in a browser: http://127.0.0.1:7560/"
exec ./grundyd --listen 127.0.0.1:7559 --http 127.0.0.1:7560
