#!/usr/bin/env python3
"""layers.py: the layer checker.  Reads the symbols of the object files of
src/ in the build directory (nm) to find which .c file calls into which,
then checks, in TAP through tests/e2e/e2e.py:
  - src/ has no .c file at its top level, and every folder of src/ has a
    rank in doc/layers.txt;
  - no cycle between .c files (Tarjan's strongly connected components),
    inside a folder or across folders;
  - no upward edge: no file calls into a file of a folder of higher rank;
  - no extern function without a caller outside its file (test_externs):
    a function of src/ that no other file of src/, tests/ or fuzz/ calls
    is static, or deleted if nothing calls it.
There is no allow-list: a violation is fixed, not tolerated (PENDING
names the few left to the work that moves their files).

Usage: layers.py BUILDDIR SRCDIR (as the other end-to-end tests).
"""
import collections
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "e2e"))
from e2e import BUILD, SRC, check, note, run  # noqa: E402

# Extern functions with no caller outside their file, left to the work
# that moves or rewrites their files (issue 24): remove each with it.
PENDING = {
}

# Generated in the build directory: their folders.
GENERATED = {"migrations.c": "store", "migrations-pg.c": "db",
             "web-assets.c": "server"}


def read_layers(path):
    """{folder: rank} from doc/layers.txt."""
    ranks = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"(\d+)\s+([a-z0-9_-]+):", line)
        if m is None:
            raise ValueError("%s: bad line %r" % (path, line))
        if m.group(2) in ranks:
            raise ValueError("%s: %s twice" % (path, m.group(2)))
        ranks[m.group(2)] = int(m.group(1))
    return ranks


def nm_all(objs):
    """{object: its nm -a lines}, from one run of nm over all of objs."""
    out = collections.defaultdict(list)
    if objs:
        text = subprocess.run(["nm", "-A", "-a"] + list(objs), check=True,
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            path, _, rest = line.partition(":")
            out[path].append(rest)
    return out


def source_of(lines):
    """The name of the .c file an object was compiled from (its FILE
    symbol, in its nm -a lines), or None."""
    for line in lines:
        m = re.search(r" [aF] (\S+\.c)$", line)
        if m:
            return os.path.basename(m.group(1))
    return None


def objects(sources, table):
    """{source name: object file} for the sources of src/ built in BUILD.
    An object names its source in its FILE symbol; of several objects of
    one source (per-target flags), a test's or a fuzzer's is the last
    choice, and of the others the newest (an object left by an earlier
    build, when a source moved to another library, is older).  table:
    nm_all's answer for the objects of src/."""
    found = {}
    for obj in sorted(glob.glob(os.path.join(BUILD, "src", "*", "*.o"))):
        name = source_of(table[obj])
        if name not in sources:
            continue            # not a source of src/ (any more)
        alt = os.path.basename(obj).startswith(("tests_", "fuzz"))
        key = (not alt, os.path.getmtime(obj))
        if name not in found or key > found[name][1]:
            found[name] = (obj, key)
    return {name: obj for name, (obj, _) in found.items()}


def graph(objs, table):
    """{file: set of files it calls into}, from defined and undefined
    global symbols (table: nm_all's answer)."""
    defs = collections.defaultdict(set)
    undef = collections.defaultdict(set)
    for name, obj in objs.items():
        for line in table[obj]:
            f = line.split()
            if len(f) == 3 and f[1] in "TDRBCGSVW":
                defs[f[2]].add(name)
            elif len(f) == 2 and f[0] == "U":
                undef[name].add(f[1])
    return {name: {d for s in undef[name] for d in defs.get(s, ())
                   if d != name} for name in objs}


def cycles(g):
    """The strongly connected components of g with more than one file
    (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_layers():
    ranks = read_layers(os.path.join(SRC, "doc", "layers.txt"))
    top = sorted(os.path.basename(p) for p in
                 glob.glob(os.path.join(SRC, "src", "*.[ch]")))
    check("no file at the top level of src/", not top,
          "move into a folder: " + " ".join(top))
    folders = sorted(os.path.basename(os.path.dirname(p)) for p in
                     glob.glob(os.path.join(SRC, "src", "*", "")))
    unranked = [f for f in folders if f not in ranks]
    check("every folder of src/ has a rank in doc/layers.txt", not unranked,
          "add a line for: " + " ".join(unranked))
    folder = dict(GENERATED)
    twice = []
    for p in sorted(glob.glob(os.path.join(SRC, "src", "*", "*.c"))):
        name, where = os.path.basename(p), os.path.dirname(p)
        if name in GENERATED:
            continue            # an in-tree build's generated file
        if name in folder:
            twice.append(name)
        folder[name] = os.path.basename(where)
    check("no two files of src/ share a name", not twice,
          "named twice: " + " ".join(twice))
    table = nm_all(sorted(glob.glob(os.path.join(BUILD, "src", "*",
                                                  "*.o"))))
    objs = objects(set(folder), table)
    missing = sorted(set(folder) - set(objs))
    if missing:
        note("not built here, not checked: " + " ".join(missing))
    if not check("object files of src/ found", len(objs) > 0,
                 "no src/*/*.o in %s: run make first" % BUILD):
        return
    g = graph(objs, table)
    found = cycles(g)
    check("no cycle between .c files", not found,
          "\n".join("cycle: " + " ".join(c) for c in found))

    def rank(name):
        return ranks.get(folder[name], -1)
    up = sorted((a, folder[a], b, folder[b]) for a in g for b in g[a]
                if folder[a] != folder[b] and rank(b) >= rank(a))
    check("no upward edge against doc/layers.txt", not up,
          "\n".join("upward: %s (%s) -> %s (%s)" % e for e in up))
    across = collections.defaultdict(set)
    for a in g:
        for b in g[a]:
            if folder[a] != folder[b]:
                across[folder[a]].add(folder[b])
    for f in sorted(across, key=lambda f: ranks.get(f, -1)):
        note("%s -> %s" % (f, " ".join(sorted(across[f], key=ranks.get))))
    edges = sum(len(v) for v in g.values())
    note("%d files in %d folders, %d edges checked"
         % (len(g), len(folders), edges))


def test_externs():
    """Every extern (T) function of src/ has a caller in another file: an
    undefined symbol of an object of src/, tests/ or fuzz/ compiled from
    another source.  A source with no object here (a program this build
    leaves out) counts as a caller of every name its text holds."""
    srcs = set(GENERATED)
    for p in glob.glob(os.path.join(SRC, "src", "*", "*.c")):
        srcs.add(os.path.basename(p))
    found = []
    for d in (os.path.join("src", "*"), "tests", os.path.join("tests", "*"),
              "fuzz"):
        found += glob.glob(os.path.join(BUILD, d, "*.o"))
    table = nm_all(sorted(found))
    objs = objects(srcs, table)
    if not check("object files of src/ found", len(objs) > 0,
                 "no src/*/*.o in %s: run make first" % BUILD):
        return
    defs = {}
    for name, obj in objs.items():
        for line in table[obj]:
            f = line.split()
            if len(f) == 3 and f[1] == "T" and f[2] != "main":
                defs[f[2]] = name
    callers = collections.defaultdict(set)
    built = set()
    for obj in found:
        name = source_of(table[obj]) or obj
        built.add(name)
        for line in table[obj]:
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                callers[f[1]].add(name)
    texts = [p for d in (os.path.join("src", "*"), "tests",
                         os.path.join("tests", "*"), "fuzz")
             for p in glob.glob(os.path.join(SRC, d, "*.c"))
             if os.path.basename(p) not in built]
    words = set()
    for p in texts:
        words |= set(re.findall(r"\w+", open(p).read()))
    if texts:
        note("not built here, read as text: " + " ".join(
            sorted(os.path.basename(p) for p in texts)))

    def called(f):
        return bool(callers[f] - {defs[f]}) or f in words
    alone = sorted((defs[f], f) for f in defs
                   if f not in PENDING and not called(f))
    check("no extern function without a caller outside its file",
          not alone, "\n".join("make static or delete: %s %s()" % a
                                for a in alone))
    stale = sorted(f for f in PENDING if f not in defs or called(f))
    check("PENDING lists only functions still without a caller",
          not stale, "remove from PENDING: " + " ".join(stale))
    note("%d extern functions checked, %d pending: %s" % (
        len(defs), len(PENDING), " ".join(sorted(PENDING))))


if __name__ == "__main__":
    sys.exit(run([test_layers, test_externs]))
