# The README and docs/ say what ccbench does, and their commands run as shown.
# Cost: about a minute (the README tour's runs, 40-90 s; the parse checks,
# ten at a time, under 15 s; the links, instant).
#
# 1. Each fenced block of README.md right after a `<!-- ccb-run -->` line
#    runs against the throwaway cluster: every `$ ` line, with bash, in a
#    scratch directory holding configs/, `ccbench` on PATH. It must exit 0,
#    and each output line shown must have its label (its first word; for
#    `status`, the first two) at the start of a line of the real stdout,
#    so a renamed field, a lost table row or a failed run shows. `...`
#    stands for lines left out.
# 2. Every other ccbench command in a sh/console block of README.md and
#    docs/*.md (docs/commands.md is generated) is parsed for real: run with
#    `-c DEAD.conf --connect-timeout 1s` appended (the last -c wins), a
#    monitor nobody listens on. It must get past the option checks: exit 0
#    (a dry run), exit 1 (the connect failed: the options were valid), or
#    exit 2 only for a file or device that the reader provides (`X: No
#    such file or directory`, X one of its arguments) or for a client this
#    host's kernel lacks (`--mount-via kernel` with no ceph in
#    /proc/filesystems: the docs show it for a host that has one). Commands that take
#    no cluster (report, explain, compare, krbd restore) run without the
#    appended options. A block after `<!-- ccb-refused -->` shows bad input:
#    each command there must exit 2, with the `ccbench: ` lines shown.
#    Left out: a block after `<!-- ccb-nocheck ... -->`, commands with
#    shell variables (templates), and commands naming a local target
#    (`--device`, `--mount`: they would read or write it for real).
# 3. Every relative link (and #anchor) in README.md and docs/*.md resolves.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$PWD/readme
mkdir -p "$scratch/bin" "$scratch/tour" "$scratch/parse" "$scratch/state"
chmod 0700 "$scratch/state"
ln -sfn "$CCBENCH" "$scratch/bin/ccbench"
for d in tour parse; do ln -sfn "$top/configs" "$scratch/$d/configs"; done
printf '[global]\nmon host = 127.0.0.1:1\n' >"$scratch/parse/dead.conf"

# Pages other branches add; linked before they land. Empty it once merged.
SCRATCH=$scratch TOP=$top python3 - <<'PY' || fail "README / docs check (above)"
import concurrent.futures, os, re, shlex, subprocess, sys, time

top, scratch = os.environ["TOP"], os.environ["SCRATCH"]
files = ["README.md"] + sorted("docs/" + f for f in os.listdir(top + "/docs") if f.endswith(".md"))
errors, notes = [], []
# Options naming a local target: such a command needs no cluster to act, so
# a parse check would read the device or write into the directory for real.
LOCAL = {"--device", "--mount"}


def blocks(path):
    """(first line number, lang, mark, lines) of each fenced block."""
    out, cur, prev = [], None, ""
    for n, raw in enumerate(open(os.path.join(top, path), encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        s = line.lstrip()
        if cur is None:
            m = re.match(r"```(\w*)\s*$", s)
            if m:
                mark = re.match(r"<!--\s*ccb-(run|nocheck|refused)\b", prev.strip())
                cur = (n + 1, m.group(1), mark.group(1) if mark else "", [], len(line) - len(s))
            elif s:
                prev = s
        elif re.match(r"```\s*$", s):
            out.append(cur[:4])
            cur, prev = None, ""
        else:
            cur[3].append(line[cur[4]:])
    return out


def commands(lang, lines):
    """(offset, command line, shown output) of a sh or console block."""
    if lang == "console":
        out = []
        for i, l in enumerate(lines):
            if l.startswith("$ "):
                out.append((i, l[2:], []))
            elif out:
                out[-1][2].append(l)
        return out
    if lang in ("sh", "bash", "shell"):
        out, cont = [], None
        for i, l in enumerate(lines):
            if cont is not None:
                out[-1] = (out[-1][0], out[-1][1] + " " + l.strip().rstrip("\\"), [])
            elif l.strip() and not l.lstrip().startswith("#"):
                out.append((i, l.rstrip("\\"), []))
            cont = "" if l.endswith("\\") else None
        return out
    return []


def segments(cmd):
    """The ccbench commands of a shell line: (env, args) or None for a template."""
    cmd = re.sub(r"\s\d?>>?&?\s*[^\s;&|]+", " ", cmd)      # redirections
    lex = shlex.shlex(cmd, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    toks, segs, cur = list(lex), [], []
    for t in toks + [";"]:
        if t and set(t) <= set(";&|"):
            segs.append(cur)
            cur = []
        else:
            cur.append(t)
    out = []
    for s in segs:
        env = {}
        while s and re.match(r"[A-Z_]+=", s[0]):
            k, v = s.pop(0).split("=", 1)
            env[k] = v
        if s and s[0] == "ccbench":
            out.append(None if any("$" in t or "`" in t for t in s) else (env, s[1:]))
    return out


# ---- 1 and 2: collect --------------------------------------------------
runs, checks, refusals, skipped = [], [], [], 0
for f in files:
    for first, lang, mark, lines in blocks(f):
        for off, cmd, shown in commands(lang, lines):
            where = "%s:%d" % (f, first + off)
            if mark == "run" and f == "README.md":
                runs.append((where, cmd, shown))
                continue
            if mark == "nocheck" or f == "docs/commands.md":
                skipped += 1
                continue
            for seg in segments(cmd):
                if seg is None or LOCAL & set(seg[1]):
                    skipped += 1
                elif mark == "refused":
                    refusals.append((where, seg[0], seg[1], shown))
                else:
                    checks.append((where, seg[0], seg[1]))
if len(runs) < 4:
    errors.append("README.md: only %d commands in <!-- ccb-run --> blocks" % len(runs))

# ---- 1: the README's tour, for real --------------------------------------
env = dict(os.environ, PATH=scratch + "/bin:" + os.environ["PATH"])
for where, cmd, shown in runs:
    t0 = time.time()
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=scratch + "/tour", env=env,
                       capture_output=True, text=True, timeout=600)
    notes.append("%s: %.0f s: %s" % (where, time.time() - t0, cmd))
    if p.returncode != 0:
        errors.append("%s: exit %d: %s\n%s" % (where, p.returncode, cmd, p.stderr[-2000:]))
        continue
    real = [l.split() for l in p.stdout.splitlines() if l.strip()]
    for l in shown:
        w = l.split()
        if not w or l.strip() == "...":
            continue
        want = w[:2] if w[0] == "status" else w[:1]
        if not any(r[:len(want)] == want for r in real):
            errors.append("%s: %s: the README shows a line '%s', the real output has none:\n%s"
                          % (where, cmd, " ".join(want), p.stdout[-3000:]))

# ---- 2: every other command, parsed against a dead monitor ---------------
penv = {k: v for k, v in os.environ.items() if k != "CEPH_ARGS"}
penv.update(CEPH_CONF="dead.conf", CCB_STATE_DIR=scratch + "/state")


def dead(extra, args):
    e = dict(penv, **extra)
    run = lambda a: subprocess.run(["timeout", "30", os.environ["CCBENCH"]] + a,
                                   cwd=scratch + "/parse", env=e, capture_output=True, text=True)
    p = run(args + ["-c", "dead.conf", "--connect-timeout", "1s"])
    if p.returncode == 2 and "--conf: not an option of this command" in p.stderr:
        p = run(args)                      # takes no cluster
    return p


def parse(item):
    where, extra, args = item
    p = dead(extra, args)
    if p.returncode in (0, 1):
        return None
    if p.returncode == 2:
        for m in re.finditer(r"(\S+): No such file or directory", p.stderr):
            if m.group(1).strip("'\"") in args:
                return None
        for m in re.finditer(r"no config '([^']+)': not a file", p.stderr):
            if m.group(1) in args:
                return None
        if "--mount-via kernel: this kernel" in p.stderr and "has no CephFS client" in p.stderr \
                and "ceph" not in open("/proc/filesystems").read().split():
            return None
    return "%s: ccbench %s: exit %d: %s" % (where, " ".join(args), p.returncode, p.stderr.strip()[:500])


def refused(item):
    """A block after <!-- ccb-refused --> shows bad input: exit 2, its message."""
    where, extra, args, shown = item
    p = dead(extra, args)
    if p.returncode != 2:
        return "%s: ccbench %s: exit %d, the docs show it refused (2)" % (where, " ".join(args), p.returncode)
    for l in shown:
        if l.startswith("ccbench: ") and l not in p.stderr.splitlines():
            return "%s: ccbench %s: the docs show '%s', it says: %s" % (where, " ".join(args), l, p.stderr.strip())
    return None


with concurrent.futures.ThreadPoolExecutor(10) as ex:
    errors += [r for r in ex.map(parse, checks) if r]
    errors += [r for r in ex.map(refused, refusals) if r]
notes.append("%d commands parsed against a dead monitor, %d refused as the docs show, %d left out"
             % (len(checks), len(refusals), skipped))

# ---- 3: links ------------------------------------------------------------
def slugs(path):
    text = re.sub(r"```.*?```", "", open(path, encoding="utf-8").read(), flags=re.S)
    out, seen = set(), {}
    for h in re.findall(r"^#+\s+(.*)$", text, flags=re.M):
        s = re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


for f in files:
    text = open(os.path.join(top, f), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(top, os.path.dirname(f), path)) if path else os.path.join(top, f)
        if not os.path.exists(full):
            errors.append("%s: link to %s: no such file" % (f, target))
            continue
        if anchor and full.endswith(".md") and anchor not in slugs(full):
            errors.append("%s: link to %s: no heading '#%s' there" % (f, target, anchor))

for n in notes:
    print("note: " + n)
for e in errors:
    print("FAIL: " + e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
echo "README and docs: commands and links ok"
