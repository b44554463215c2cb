#!/usr/bin/env python3
# The folders of src/ are layers (docs/architecture.md): a file may call
# into its own layer or one below it, never one above, and the paths, one
# folder each, never into each other (but where ALLOWED says why). Reads
# the global symbols each object of the core library defines and uses (nm)
# and the source path each object was built from (the build's
# CMakeFiles/ccbcore.dir), and prints every call that goes up or across
# with the symbol that makes it. scripts/circles.py checks the files for
# circles; this checks the folders for direction.
#
# usage: scripts/layers.py BUILD_DIR      (e.g. build-san)
# Exit status: 0 when every call goes down, 1 otherwise, 2 on bad usage.
import collections
import fnmatch
import os
import subprocess
import sys

# Lowest first. A source file belongs to the first pattern it matches.
LAYERS = [
    ("base", ["src/units.c", "src/clock.c", "src/host.c", "src/spawn.c", "src/redact.c", "src/escape.c",
              "src/undo*.c", "src/options*.c", "src/steady.c", "src/secret_opts.c",
              "src/configs.c", "src/zerocopy*", "src/slo.c"]),
    ("cluster", ["src/cluster/*"]),
    ("run", ["src/run/*"]),
    ("fault", ["src/fault/*"]),
    ("explain", ["src/explain/*"]),
    ("paths-shared", ["src/paths/path_conn.c", "src/paths/child.c", "src/paths/fuse.c",
                      "src/paths/mountinfo.c"]),
    ("path", ["src/paths/*/*"]),
    ("registry", ["src/paths/registry.c"]),
    ("command-line", ["src/cli.c", "src/help.c", "src/point.c"]),
    ("report", ["src/report/*"]),
    ("sweep-group", ["src/sweep/*", "src/group/*", "src/capacity/*"]),
    ("front", ["src/restore.c", "src/gendoc.c"]),
]
# Layers whose folders are siblings: none calls another.
SIBLINGS = {"path"}
# The calls across siblings that are the design, each with its reason.
ALLOWED = {
    ("src/paths/krbd", "src/paths/rbd"): "krbd reads an rbd image: its temporary image is made "
                                         "through the rbd path's own code",
}


def layer_of(src):
    for rank, (name, pats) in enumerate(LAYERS):
        if any(fnmatch.fnmatch(src, p) for p in pats):
            return rank, name
    return None


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: scripts/layers.py BUILD_DIR", file=sys.stderr)
        return 2
    build = sys.argv[1]
    objdir = os.path.join(build, "CMakeFiles", "ccbcore.dir")
    lib = os.path.join(build, "libccbcore.a")
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # The library's members are exactly this build's objects; CMakeFiles/
    # may keep a stale one of a moved file, so only members count.
    members = set(subprocess.run(["ar", "t", lib], capture_output=True, text=True,
                                 check=True).stdout.split())
    src_of = {}
    for root, _, files in os.walk(objdir):
        for f in files:
            if f.endswith(".o") and f in members:
                rel = os.path.relpath(os.path.join(root, f), objdir)
                src = rel[:-2]  # "src/run/engine.c.o" -> "src/run/engine.c"
                if os.path.exists(os.path.join(top, src)):
                    src_of[f] = src
    out = subprocess.run(["nm", "-A", lib], capture_output=True, text=True, check=True).stdout
    defs, uses = {}, collections.defaultdict(set)
    for line in out.splitlines():
        f = line.split()
        if len(f) != 3:
            continue
        # "LIB:MEMBER.o:ADDRESS T sym" and "LIB:MEMBER.o: U sym"
        obj = f[0][len(lib) + 1:].split(":")[0]
        if f[1] in "TDBRV":
            defs[f[2]] = obj
        elif f[1] == "U":
            uses[obj].add(f[2])
    bad, unknown = [], set()
    for obj, syms in sorted(uses.items()):
        a = src_of.get(obj)
        if not a:
            continue
        la = layer_of(a)
        if not la:
            unknown.add(a)
            continue
        for s in sorted(syms):
            b = src_of.get(defs.get(s, ""))
            if not b or b == a:
                continue
            lb = layer_of(b)
            if not lb:
                unknown.add(b)
                continue
            da, db = os.path.dirname(a), os.path.dirname(b)
            if lb[0] > la[0]:
                bad.append("up: %s (%s) -> %s (%s): %s" % (a, la[1], b, lb[1], s))
            elif lb[0] == la[0] and la[1] in SIBLINGS and da != db and (da, db) not in ALLOWED:
                bad.append("across: %s -> %s: %s" % (a, b, s))
    for u in sorted(unknown):
        bad.append("no layer for %s: add it to scripts/layers.py" % u)
    for b in bad:
        print(b)
    if bad:
        print("layers: %d calls that do not go down" % len(bad))
        return 1
    print("layers: every call goes down (%d files in %d layers)" % (len(src_of), len(LAYERS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
