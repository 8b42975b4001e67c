#!/usr/bin/env python3
"""review7.py: from an outside review's adversarial client against nodes
on one PostgreSQL (issue 15, PROTOCOL.md §13.12; its other checks, of
seeks across nodes, are on branch rv), the one of the event loop
(review7.sh runs it under a throwaway cluster, tests/pgcluster.sh):
  test_loop_blocked: while another session locks table leases, `watch`
    and a web feed of a game B does not have must not keep B from
    answering another connection (nothing on the loop waits for the
    database: the lease and the record are read on a worker).
Every wait is a poll with a deadline."""
import glob
import http.client
import os
import select
import subprocess
import threading

from e2e import *  # noqa: F401,F403
from httpapi import http_port  # noqa: E402
from xnode import fresh_db, psql  # noqa: E402

DEADLINE = 20.0                         # s: every poll's bound


class Locker:
    """A psql session holding an ACCESS EXCLUSIVE lock on table leases of
    the database of url until release()."""

    def __init__(self, url):
        bindir = os.environ.get("PG_BINDIR") or sorted(
            glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.p = subprocess.Popen([os.path.join(bindir, "psql"), "-Aqt",
                                   url], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.p.stdin.write("BEGIN;\nLOCK TABLE leases IN ACCESS EXCLUSIVE "
                           "MODE;\nSELECT 'locked';\n")
        self.p.stdin.flush()
        r, _, _ = select.select([self.p.stdout], [], [], DEADLINE)
        self.locked = bool(r) and self.p.stdout.readline().strip() == \
            "locked"

    def release(self):
        try:
            self.p.stdin.write("COMMIT;\n")
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait(30)


LEASE_GET = "SELECT node_id, epoch, state, acquired_ms, expires_ms " \
    "FROM leases WHERE game_id"


def waiting_lease_get(url):
    """Whether a lease_get statement waits for a lock (pg_stat_activity)."""
    return psql(url, "SELECT count(*) FROM pg_stat_activity WHERE "
                "wait_event_type = 'Lock' AND position('%s' in query) = 1"
                % LEASE_GET) not in ("", "0")


def test_loop_blocked():
    """Nothing on B's event loop waits for the database: while a session
    holds an exclusive lock on table leases, `watch GAME_ID` of a game B
    does not have (its lease is read, and waits for the lock), and a web
    feed request of such a game, must not keep B from answering
    protocol_version on another connection.  The lock is released at
    the end whatever happened."""
    url = fresh_db()
    b = Daemon("B", "--http", "127.0.0.1:0", "--node-ttl", "2000", db=url)
    b.hport = http_port(b)
    c = Client(b)
    answers(c, "protocol_version", "B answers before the lock", "2")
    for what in ("watch", "feed"):
        lk = Locker(url)
        check("%s: table leases locked" % what, lk.locked)
        done = []
        if what == "watch":
            w = Client(b)
            w.send("1 watch 999998")
        else:
            def req():
                try:
                    h = http.client.HTTPConnection(
                        "127.0.0.1", b.hport, timeout=3 * DEADLINE)
                    h.request("GET", "/api/games/999999/feed")
                    done.append(h.getresponse().status)
                    h.close()
                except Exception as e:          # noqa: BLE001
                    done.append(repr(e))
            t = threading.Thread(target=req, daemon=True)
            t.start()
        blocked = wait_for(lambda: waiting_lease_get(url), DEADLINE, 0.1)
        check("%s: B's read of the lease waits for the lock" % what,
              blocked)
        r = c.cmd("protocol_version", timeout=5) if blocked else "2"
        lk.release()
        check("%s: B answers protocol_version while a %s of a game it "
              "does not have waits for the database" % (what, what),
              body(r) == "2", r)
        if r is None:
            c.wait("replies", lambda x: True, DEADLINE)  # the late answer
        if what == "watch":
            rw = w.wait("replies", lambda x: x.startswith(("=1", "?1")),
                        DEADLINE)
            check("watch 999998 is refused once the lock is gone",
                  rw == "?1 no live game 999998", rw)
        else:
            t.join(DEADLINE)
            check("the feed of 999999 is refused once the lock is gone",
                  done == [404], done)


if __name__ == "__main__":
    sys.exit(run([test_loop_blocked]))
