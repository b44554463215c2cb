#!/usr/bin/env python3
# No circle between source files (issue 21): each object of the core
# library may call down, never back up into a file that calls it, so that
# shared helpers sit below their users and each part reads top-down.
# Reads the global symbols each object defines and uses (nm), draws an edge
# from user to definer, and prints every strongly connected component of
# more than one file (Tarjan) with the edges inside it.
#
# usage: scripts/circles.py OBJECT.o... | LIBRARY.a
#   python3 scripts/circles.py $(find build/CMakeFiles/ccbcore.dir -name '*.o')
#   python3 scripts/circles.py build/libccbcore.a   (its members only: no
#                                                    stale object of a renamed file)
# Exit status: 0 without a circle, 1 with one.
import collections
import os
import subprocess
import sys


def symbols(path, flags):
    """{object: [symbol line fields]} of nm @flags on an object or archive."""
    out = subprocess.run(["nm", *flags, path], capture_output=True, text=True, check=True).stdout
    res = collections.defaultdict(list)
    member = path
    for line in out.splitlines():
        if path.endswith(".a") and line.endswith(":") and " " not in line:
            member = line[:-1]  # an archive prints "member.o:" before each member
        elif line.split():
            res[member].append(line.split())
    return res


defs, uses, objs = {}, collections.defaultdict(set), []
for arg in sys.argv[1:]:
    for o, lines in symbols(arg, ["--defined-only", "-g"]).items():
        objs.append(o)
        for f in lines:
            if len(f) >= 3 and f[1] in "TDBRV":
                defs[f[2]] = o
    for o, lines in symbols(arg, ["-u"]).items():
        uses[o].update(f[-1] for f in lines)
graph = {o: {defs[s] for s in uses[o] if defs.get(s, o) != o} for o in objs}

index, low, stack, on, sccs = {}, {}, [], set(), []
sys.setrecursionlimit(10000)


def connect(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in graph.get(v, ()):
        if w not in index:
            connect(w)
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
            sccs.append(comp)


for v in objs:
    if v not in index:
        connect(v)
for c in sccs:
    print("circle:", " ".join(sorted(os.path.basename(x) for x in c)))
    for a in sorted(c):
        for s in sorted(uses[a]):
            d = defs.get(s)
            if d in c and d != a:
                print("   %s -> %s (%s)" % (os.path.basename(a), os.path.basename(d), s))
sys.exit(1 if sccs else 0)
