"""benchutil.py: helpers shared by the Python benchmarks in contrib/."""
import socket
import sys


def die(prog, msg):
    """Exits 1 with "PROG: MSG" on stderr."""
    sys.stderr.write("%s: %s\n" % (prog, msg))
    sys.exit(1)


def free_port():
    """A loopback TCP port free right now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
