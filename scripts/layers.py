#!/usr/bin/env python3
# The folders of src/ are layers (docs/architecture.md): a file may call
# into its own layer or one below it, never one above, and the paths, one
# folder each, never into each other (but where ALLOWED says why). Three
# checks, each printing what breaks it:
#   calls     the global symbols each object of the core library defines
#             and uses (nm), and the source each object was built from
#             (the build's CMakeFiles/ccbcore.dir): every call that goes up
#             or across, with the symbol that makes it;
#   includes  every #include of a project header, in sources and headers:
#             a header is in the layer of the module that defines what it
#             declares (HEADER_LAYERS for the few that declare only types),
#             and no file includes one of a higher layer or a sibling path's;
#   headers   a public header (include/ccbench/X.h) declares what its own
#             module defines: X.c, X.cc or X_*.c (MODULES for the rest),
#             and only where another folder uses it: a header that only
#             its own folder includes belongs in that folder.
# scripts/circles.py checks the files for circles; this checks the
# folders for direction.
#
# usage: scripts/layers.py BUILD_DIR      (e.g. build-san)
# Exit status: 0 when every check passes, 1 otherwise, 2 on bad usage.
import collections
import fnmatch
import os
import re
import subprocess
import sys

# Lowest first. A source file belongs to the first pattern it matches.
LAYERS = [
    ("base", ["src/base/*"]),
    ("options", ["src/options/*"]),
    ("undo", ["src/undo/*"]),
    ("cluster", ["src/cluster/*"]),
    ("run", ["src/run/*"]),
    ("fault", ["src/fault/*"]),
    ("explain", ["src/explain/*"]),
    ("paths-shared", ["src/paths/path_conn.*", "src/paths/child.*", "src/paths/fuse.*",
                      "src/paths/mountinfo.*", "src/paths/zerocopy*"]),
    ("path", ["src/paths/*/*"]),
    ("registry", ["src/paths/registry.c"]),
    ("command-line", ["src/cli/*"]),
    ("report", ["src/report/*"]),
    ("sweep-group", ["src/sweep/*", "src/group/*", "src/capacity/*"]),
    ("front", ["src/commands/*", "src/main.c"]),
]
# Headers that declare types only (no function of a module of theirs):
# the layer whose files define what uses them.
HEADER_LAYERS = {
    "include/ccbench/option_rows.h": "options",
    "include/ccbench/command.h": "run",
}
# Public headers whose module is not named after them: the sources that
# define what they declare, each with its reason.
MODULES = {
    "include/ccbench/sweep_report.h": (["src/report/sweep_*.c"],
                                       "the views of a sweep document, a file each"),
    "include/ccbench/path_rbd.h": (["src/paths/rbd/*.c"],
                                   "the rbd path's face: the registry's row, and krbd makes its "
                                   "temporary image through it"),
}

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


INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
# A declaration of a function or variable of ours at the start of a line
# (prototypes may wrap: the name and its parenthesis are on the first line).
DECL = re.compile(r'^(?:extern\s+)?[A-Za-z_][\w \t\*]*?\b(ccb_\w+)\s*(\(|\[|;)', re.M)


def project_files(top):
    files = []
    for d in ("src", "tools"):
        for root, _, names in os.walk(os.path.join(top, d)):
            files += [os.path.join(root, n) for n in names if n.endswith((".c", ".cc", ".h"))]
    inc = os.path.join(top, "include", "ccbench")
    files += [os.path.join(inc, n) for n in os.listdir(inc) if n.endswith(".h")]
    return sorted(os.path.relpath(f, top) for f in files)


def resolve(top, f, name):
    """The project file an #include names, or None (a system header)."""
    if name.startswith("ccbench/"):
        return "include/" + name
    cand = os.path.normpath(os.path.join(os.path.dirname(f), name))
    return cand if os.path.exists(os.path.join(top, cand)) else None


def module_sources(header, all_sources):
    """The sources of a public header's module: X.c, X.cc, X_*.c anywhere, or MODULES'."""
    if header in MODULES:
        return {c for c in all_sources if any(fnmatch.fnmatch(c, p) for p in MODULES[header][0])}
    x = os.path.basename(header)[:-2]
    own = [c for c in all_sources if os.path.basename(c) in (x + ".c", x + ".cc")]
    dirs = {os.path.dirname(c) for c in own}
    # X_*.c beside X.c (or, without an X.c, anywhere): one module split by size.
    return set(own) | {c for c in all_sources
                       if os.path.basename(c).startswith(x + "_") and c.endswith(".c") and
                       (not dirs or os.path.dirname(c) in dirs)}


def check_includes(top, defs, src_of, unknown):
    bad = []
    files = project_files(top)
    sources = [f for f in files if f.endswith((".c", ".cc"))]
    text = {f: open(os.path.join(top, f), encoding="utf-8").read() for f in files}
    includes = {f: [r for r in (resolve(top, f, n) for n in INCLUDE.findall(text[f])) if r]
                for f in files}
    users = collections.defaultdict(set)
    for f, incs in includes.items():
        for h in incs:
            users[h].add(f)
    # Each public header's layer: its module's, from what it declares.
    hlayer = {}
    for h in (f for f in files if f.startswith("include/")):
        declared = sorted({m.group(1) for m in DECL.finditer(text[h])} & set(defs))
        where = {}
        for sym in declared:
            src = src_of.get(defs[sym])
            if src:
                where.setdefault(src, []).append(sym)
        if h in HEADER_LAYERS:
            rank = [i for i, (n, _) in enumerate(LAYERS) if n == HEADER_LAYERS[h]][0]
            hlayer[h] = (rank, HEADER_LAYERS[h])
        elif where:
            ls = {layer_of(src) for src in where if layer_of(src)}
            hlayer[h] = max(ls) if ls else None
        mod = module_sources(h, sources)
        for src, syms in sorted(where.items()):
            if src not in mod:
                bad.append("header: %s declares %s, defined in %s, not its module (%s)" %
                           (h, ", ".join(syms[:3]) + (" ..." if len(syms) > 3 else ""), src,
                            ", ".join(sorted(mod)) or "no %s.c" % os.path.basename(h)[:-2]))
        if not where and h not in HEADER_LAYERS:
            bad.append("header: %s declares nothing a module defines: give it a layer in "
                       "HEADER_LAYERS" % h)
        # Used only inside one folder of src/: it belongs in that folder.
        dirs = {os.path.dirname(u) for u in users[h] if u.startswith("src/")}
        outside = {u for u in users[h] if not u.startswith("src/") and u != h}
        if len(dirs) == 1 and not outside and not any(u.startswith("include/") for u in users[h]):
            d = dirs.pop()
            if all(os.path.dirname(src) == d for src in where):
                bad.append("header: %s is used only in %s/: move it there" % (h, d))
    for f in files:
        lf = layer_of(f) if f.startswith("src/") else hlayer.get(f)
        if not lf:
            if f.startswith("src/") and f.endswith((".c", ".cc")):
                unknown.add(f)
            continue
        for h in includes[f]:
            lh = layer_of(h) if h.startswith("src/") else hlayer.get(h)
            if not lh:
                continue
            df = os.path.dirname(f) if f.startswith("src/") else None
            dh = os.path.dirname(h) if h.startswith("src/") else None
            if lh[0] > lf[0]:
                bad.append("include up: %s (%s) includes %s (%s)" % (f, lf[1], h, lh[1]))
            elif (lh[0] == lf[0] and lf[1] in SIBLINGS and df and dh and df != dh and
                  (df, dh) not in ALLOWED):
                bad.append("include across: %s includes %s" % (f, h))
    return bad


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
    bad += check_includes(top, defs, src_of, unknown)
    for u in sorted(unknown):
        bad.append("no layer for %s: add it to scripts/layers.py" % u)
    for b in bad:
        print(b)
    if bad:
        print("layers: %d calls, includes or headers out of place"
              % len(bad))
        return 1
    print("layers: every call and include goes down, every header is its module's (%d files "
          "in %d layers)" % (len(src_of), len(LAYERS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
