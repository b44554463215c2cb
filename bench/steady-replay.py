#!/usr/bin/env python3
# bench/steady-replay.py FULL.json [RULE ...] - replay --until-steady rules
# on a full-length sweep's own per-second series (what each run would have
# measured had it stopped there), and judge each rule as `compare
# --same-answer` does: a point is the same when the replayed mean is within
# 10 % of the full mean or within its own 95 % interval. Prints, per rule,
# the seconds the runs would have taken (set-up and tradeoffs come on top)
# and the points that differ. It separates the rule from the sweep-to-sweep
# drift that a second, real sweep adds (issue #23). RULE: bw:20%/2s or
# bw_slope:10%/3s; default: a few. The ramp is librbd's and krbd's
# automatic one for seed 002's grid (readahead capped at a 32M cache for
# librbd, 10 x 64K before readahead starts). Not a test.
import json, math, sys
T95 = {1: 12.706, 2: 4.303, 3: 3.182}
def size(s):
    m = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * m[s[-1]] if s[-1] in m else int(s)
def ramp_bytes(mat):
    ra = size(mat["readahead"]); obj = 1 << mat["order"]
    if mat["path"] == "librbd":
        return 2 * max(min(ra, 32 << 20), obj) + 10 * 65536
    return 2 * max(ra, obj)
def replay(series, rb, tol, W, slope, ramp_s=1):
    bw = [s["bandwidth_mib_s"] for s in series]
    whole = bw[:-1] if len(bw) > 1 else bw
    cum = 0; T = None
    for i, x in enumerate(whole):
        cum += x * 1048576
        if i + 1 >= ramp_s and cum >= rb:
            T = i + 1; break
    if T is None: return None
    for end in range(T + W, len(whole) + 1):
        w = whole[end - W:end]; m = sum(w) / W
        if m <= 0: continue
        if slope:
            xs = range(W); mx = (W - 1) / 2
            b = sum((x - mx) * (y - m) for x, y in zip(xs, w)) / sum((x - mx) ** 2 for x in xs)
            ok = abs(b) * (W - 1) / m * 100 <= tol
        else:
            ok = max(abs(y - m) for y in w) / m * 100 <= tol
        if ok: return end, m
    return None
if len(sys.argv) < 2:
    sys.exit("usage: bench/steady-replay.py FULL.json [RULE ...]  (RULE: bw:20%/2s, bw_slope:10%/3s)")
d = json.load(open(sys.argv[1]))
def rule(s):
    m, rest = s.split(":")
    tol, w = rest.split("/")
    return int(float(tol.rstrip("%"))), int(w.rstrip("s")), m == "bw_slope"
rules = [rule(a) for a in sys.argv[2:]] or [(20, 2, False), (20, 3, False), (10, 3, False), (10, 3, True)]
for tol, W, slope in rules:
    tsum = 0; bad = []; n = 0
    for p in d["points"]:
        mat = p["matrix"]; rb = ramp_bytes(mat)
        full = [r["bandwidth_mib_s"] for r in p["runs"] if r["status"] == "ok"]
        st = []
        for r in p["runs"]:
            res = replay(r["series"], rb, tol, W, slope)
            if res: st.append(res[1]); tsum += res[0] + 0.1
            else: st.append(r["bandwidth_mib_s"]); tsum += r["seconds"]
        fm = sum(full)/len(full); sm = sum(st)/len(st); k = len(st)
        sd = math.sqrt(sum((x-sm)**2 for x in st)/(k-1)) if k > 1 else 0
        half = T95[k-1]*sd/math.sqrt(k)
        ok = abs(sm-fm) <= 0.1*fm or abs(sm-fm) <= half
        if not ok: bad.append("%s/%d/%s %.1f->%.1f" % (mat["path"], mat["order"], mat["readahead"], fm, sm))
    print("%s:%d%%/%ds run-time %.0f s (+~140 s overhead) differs %d: %s" % ("bw_slope" if slope else "bw", tol, W, tsum, len(bad), "; ".join(bad)))
