#!/usr/bin/env python3
"""roles.py: roles are granted, never claimed (issue 25 §5, PROTOCOL.md
§13.1) against a real grundyd: a stranger cannot register a reserved name
(the admins setting) nor a look-alike of it; an account registered under a
name before it was reserved stays a player (and the daemon says so at its
start); grundyd --add-admin makes a working admin (connections, account
create, tournament create), takes the name back from whoever registered it
first, reads the password from --password-file, GRUNDY_PASSWORD or
standard input and never from the command line, and refuses while a daemon
holds the database; everybody else gets `permission denied`.

Usage: roles.py BUILDDIR SRCDIR.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import *  # noqa: E402,F401,F403  (the shared client module)

DENIED = "permission denied: %s needs the admin role"
ADMIN_LINES = [("connections", "connections"),
               ("account create newbie password1", "account"),
               ("tournament create rr roundrobin players=pa,pb pairs=1 "
                "tc=60000 nim 3 4 5", "tournament")]


def role_of(c):
    r = c.cmd("whoami")
    m = re.search(r"^role (\S+)$", body(r), re.M)
    return m.group(1) if m else None


def grundyd(args, pw=None, stdin=None):
    """grundyd ARGS with GRUNDY_PASSWORD pw (None: unset); (rc, output)."""
    env = dict(os.environ)
    env.pop("GRUNDY_PASSWORD", None)
    if pw is not None:
        env["GRUNDY_PASSWORD"] = pw
    r = subprocess.run([GRUNDYD] + args, env=env, input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=WAIT)
    return r.returncode, r.stdout.decode()


def test_reserved():
    """A stranger registering the reserved name (or a look-alike) is
    refused with its own error; the operator's admin works."""
    d = Daemon("reserved", "--admins", "boss,chief")
    c = Client(d)
    for name in ("boss", "BOSS", "Chief"):
        r = refused(c, "register %s password1" % name,
                    "register %s refused" % name,
                    "name %s is reserved for an admin" % name,
                    "grundyd --add-admin")
    n = db_count(d, "SELECT COUNT(*) FROM accounts WHERE role = 'admin' "
                 "OR name IN ('BOSS', 'Chief')")
    check("only the operator's two admins", n == 2, n)
    pa, pb = login(d, "pa"), login(d, "pb")
    boss = login(d, "boss", register=False)
    check("boss is an admin", role_of(boss) == "admin", role_of(boss))
    for line, word in ADMIN_LINES:
        r = pa.cmd(line)
        check("player refused: " + word, body(r) == DENIED % word, r)
        r = Client(d).cmd(line)
        check("anonymous refused: " + word, body(r) == DENIED % word, r)
    r = boss.cmd("connections")
    check("admin: connections", ok(r) and re.search(r" pa$", body(r), re.M),
          r)
    accepted(boss, ADMIN_LINES[1][0], "admin: account create")
    r = boss.cmd(ADMIN_LINES[2][0])
    check("admin: tournament create", ok(r) and "games 2" in r, r)
    pb.close()


def test_squatter():
    """An account registered under a name before the name was reserved is
    a player; --add-admin takes the name back for the operator."""
    d = Daemon("squat")
    s = login(d, "chief", pw="strangerpw1")
    check("registered before: a player", role_of(s) == "player", role_of(s))
    s.close()
    d.stop()
    cfg = os.path.join(TMP, "squat.conf")
    with open(cfg, "w") as f:
        f.write("admins = chief\n")
    d.flags += ["--config", cfg]
    d.start()
    s = login(d, "chief", pw="strangerpw1", register=False)
    check("named in admins, not granted: a player", role_of(s) == "player",
          role_of(s))
    for line, word in ADMIN_LINES:
        r = s.cmd(line)
        check("squatter refused: " + word, body(r) == DENIED % word, r)
    check("the start warned of it", wait_for(lambda: "event=admin-not-"
          "granted name=chief" in open(d.log.name).read()))
    # One daemon per database: the operator's step waits for it to stop.
    rc, out = grundyd(["--db", d.db, "--add-admin", "chief"],
                      pw="operatorpw1")
    check("--add-admin refused while the daemon runs", rc != 0 and
          "in use by grundyd" in out, out)
    d.stop()
    pwf = os.path.join(TMP, "chief.password")
    with open(pwf, "w") as f:
        f.write("operatorpw1\n")
    rc, out = grundyd(["--db", d.db, "--add-admin", "chief",
                       "--password-file", pwf])
    check("--add-admin of an existing account", rc == 0 and "chief is an "
          "admin (an existing account: its password set)" in out, out)
    rc, out = grundyd(["--db", d.db, "--add-admin", "chief", "operatorpw1"])
    check("no password on the command line", rc == 2 and
          "unexpected argument" in out, out)
    d.start()
    answers(Client(d), "login chief strangerpw1",
            "the stranger's password no longer works",
            "wrong name or password")
    pa, pb = login(d, "pa"), login(d, "pb")
    chief = login(d, "chief", pw="operatorpw1", register=False)
    check("granted: an admin", role_of(chief) == "admin", role_of(chief))
    for line, word in ADMIN_LINES:
        r = pa.cmd(line)
        check("other refused: " + word, body(r) == DENIED % word, r)
        r = chief.cmd(line)
        check("admin: " + word, ok(r), r)
    d.stop()
    # Standard input, then a revocation: a player again at the next login.
    rc, out = grundyd(["--db", d.db, "--add-admin", "boss2"],
                      stdin=b"stdinpass1\n")
    check("--add-admin from standard input", rc == 0 and
          "boss2 is an admin (a new account)" in out, out)
    rc, out = grundyd(["--db", d.db, "--revoke-admin", "chief"])
    check("--revoke-admin", rc == 0 and "chief is a player again" in out, out)
    d.start()
    chief = login(d, "chief", pw="operatorpw1", register=False)
    check("revoked: a player", role_of(chief) == "player", role_of(chief))
    b2 = login(d, "boss2", pw="stdinpass1", register=False)
    check("stdin admin works", role_of(b2) == "admin" and
          ok(b2.cmd("connections")), role_of(b2))


if __name__ == "__main__":
    sys.exit(run([test_reserved, test_squatter]))
