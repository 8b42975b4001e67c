#!/usr/bin/env python3
"""layers.py: the layer checker (issue 10 §1).  Reads the symbols of the
object files of src/ in the build directory (nm) to find which .c file
calls into which, then checks, in TAP through e2e.py:
  - every .c file of src/ has a layer in doc/layers.txt;
  - no cycle between .c files (Tarjan's strongly connected components);
  - no upward edge: no file calls into a file of a higher layer.
The known violations that other branches are fixing are the commented
ALLOWED edges below: they are left out of both checks (remove an entry
once its edge is gone; an entry whose edge is gone is only noted).

Usage: layers.py BUILDDIR SRCDIR (as the other end-to-end tests).
"""
import collections
import fnmatch
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import BUILD, SRC, check, note, run  # noqa: E402

# Known violations, each an edge "caller.c -> callee.c" with the reason.
ALLOWED = {
    # None left: issue 10 removed the last ones.  An entry is an edge
    # ("caller.c", "callee.c") with the reason it is tolerated.
}


def read_layers(path):
    """[(layer, name, [patterns])] from doc/layers.txt, in order."""
    layers = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"(\d+)\s+([^:]+):\s*(.*)$", line)
        if m is None:
            raise ValueError("%s: bad line %r" % (path, line))
        layers.append((int(m.group(1)), m.group(2), m.group(3).split()))
    return layers


def layer_of(layers, name):
    for n, _, pats in layers:
        if any(fnmatch.fnmatchcase(name, p) for p in pats):
            return n
    return None


def nm(obj, *flags):
    return subprocess.run(["nm"] + list(flags) + [obj], check=True,
                          capture_output=True, text=True).stdout


def objects(sources):
    """{source name: object file} for the sources of src/ built in BUILD.
    An object names its source in its FILE symbol; of several objects of
    one source (per-target flags), a test's or a fuzzer's is the last
    choice, and of the others the newest (an object left by an earlier
    build, when a source moved to another library, is older)."""
    found = {}
    for obj in sorted(glob.glob(os.path.join(BUILD, "src", "*.o"))):
        m = re.search(r" [aF] (\S+\.c)$", nm(obj, "-a"), re.M)
        name = os.path.basename(m.group(1)) if m else None
        if name not in sources:
            continue            # not a source of src/ (any more)
        alt = os.path.basename(obj).startswith(("tests_", "fuzz"))
        key = (not alt, os.path.getmtime(obj))
        if name not in found or key > found[name][1]:
            found[name] = (obj, key)
    return {name: obj for name, (obj, _) in found.items()}


def graph(objs):
    """{file: set of files it calls into}, from defined and undefined
    global symbols."""
    defs = collections.defaultdict(set)
    undef = collections.defaultdict(set)
    for name, obj in objs.items():
        for line in nm(obj).splitlines():
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
    layers = read_layers(os.path.join(SRC, "doc", "layers.txt"))
    sources = {os.path.basename(p) for p in
               glob.glob(os.path.join(SRC, "src", "*.c"))}
    sources.add("migrations.c")             # generated in the build
    objs = objects(sources)
    missing = sorted(sources - set(objs))
    if missing:
        note("not built here, not checked: " + " ".join(missing))
    if not check("object files of src/ found", len(objs) > 0,
                 "no src/*.o in %s: run make first" % BUILD):
        return
    nolayer = sorted(n for n in objs if layer_of(layers, n) is None)
    check("every file has a layer in doc/layers.txt", not nolayer,
          "add a pattern for: " + " ".join(nolayer))
    g = graph(objs)
    for (a, b), why in sorted(ALLOWED.items()):
        if b in g.get(a, ()):
            g[a].discard(b)
            note("allowed for now: %s -> %s (%s)" % (a, b, why))
        else:
            note("allowed edge gone, remove it from ALLOWED: %s -> %s"
                 % (a, b))
    found = cycles(g)
    check("no cycle between .c files", not found,
          "\n".join("cycle: " + " ".join(c) for c in found))
    up = sorted((a, layer_of(layers, a), b, layer_of(layers, b))
                for a in g for b in g[a]
                if layer_of(layers, a) is not None and
                layer_of(layers, b) is not None and
                layer_of(layers, b) > layer_of(layers, a))
    check("no upward edge against doc/layers.txt", not up,
          "\n".join("upward: %s (layer %d) -> %s (layer %d)" % e
                    for e in up))
    edges = sum(len(v) for v in g.values())
    note("%d files, %d edges checked" % (len(g), edges))


if __name__ == "__main__":
    sys.exit(run([test_layers]))
