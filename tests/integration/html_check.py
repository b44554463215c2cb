#!/usr/bin/python3
# Loads ccbench's HTML pages in a real browser (Debian's headless Chromium
# through Selenium) and checks what a reader sees, from the rendered DOM:
#   - no text element of a chart reaches outside its SVG;
#   - no two text elements of a chart overlap (their bounding boxes);
#   - every legend entry is shown, inside its SVG, and no two entries of a
#     legend, nor two series of a panel, share colour, marker and dash;
#   - the page fits a 1280-pixel-wide window (no horizontal scrolling);
#   - the browser logs no error; the page has no script and fetches nothing.
# It saves a screenshot of each whole page (PAGE.png in --shots DIR) and
# prints one line per page: "ok PAGE: ..." or "FAIL PAGE: why".
#
# usage: /usr/bin/python3 html_check.py [--shots DIR] PAGE.html...
# Exit status: 0 when every page passed, 1 otherwise, 2 on bad usage.
import argparse
import os
import re
import shutil
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

WIDTH = 1280
# Less than this many pixels of overlap is two boxes touching (rounding).
SLACK = 0.5

# Everything the checks need, measured in one call per page.
MEASURE = r"""
const out = {svgs: [], scrollWidth: document.documentElement.scrollWidth,
             innerWidth: window.innerWidth, height: document.documentElement.scrollHeight};
const box = r => ({x0: r.left, y0: r.top, x1: r.right, y1: r.bottom});
const style = g => {
  const line = g.querySelector(':scope > line, :scope > polyline, :scope > rect');
  const mk = g.querySelector('path.mk');
  return {
    color: line ? (line.getAttribute('stroke') || g.getAttribute('stroke') || '') : '',
    dash: line && line.tagName !== 'rect' ? (line.getAttribute('stroke-dasharray') || 'solid') : 'bar',
    marker: mk ? mk.getAttribute('d') + '|' + mk.getAttribute('fill') : '',
    shown: g.getBoundingClientRect().width > 0 && g.getBoundingClientRect().height > 0,
    box: box(g.getBoundingClientRect()),
    text: (g.querySelector('text') || {textContent: ''}).textContent};
};
document.querySelectorAll('svg').forEach((svg, si) => {
  const s = {box: box(svg.getBoundingClientRect()), texts: [], legends: [], panels: []};
  svg.querySelectorAll('text').forEach(t => {
    const r = t.getBoundingClientRect();
    s.texts.push({box: box(r), text: t.textContent.slice(0, 80)});
  });
  svg.querySelectorAll('g.legend').forEach(lg => {
    s.legends.push(Array.from(lg.querySelectorAll('g.legend-entry')).map(style));
  });
  svg.querySelectorAll('g.panel').forEach(p => {
    s.panels.push(Array.from(p.querySelectorAll('g.series')).map(g => {
      const l = g.querySelector('polyline, rect');
      const mk = g.querySelector('path.mk');
      return {color: g.getAttribute('stroke'),
              dash: l && l.tagName === 'polyline' ? (l.getAttribute('stroke-dasharray') || 'solid') : 'bar',
              marker: mk ? mk.getAttribute('d') + '|' + mk.getAttribute('fill') : '',
              name: (g.querySelector('title') || {textContent: ''}).textContent};
    }));
  });
  out.svgs.push(s);
});
return out;
"""


def overlap(a, b):
    return (min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > SLACK and
            min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > SLACK)


def inside(a, outer):
    return (a["x0"] >= outer["x0"] - SLACK and a["y0"] >= outer["y0"] - SLACK and
            a["x1"] <= outer["x1"] + SLACK and a["y1"] <= outer["y1"] + SLACK)


def check_svg(i, s):
    """The problems of SVG number i, as lines."""
    bad = []
    texts = [t for t in s["texts"] if t["box"]["x1"] > t["box"]["x0"]]
    for t in texts:
        if not inside(t["box"], s["box"]):
            bad.append("chart %d: text %r reaches outside its SVG (%s, SVG %s)" % (
                i + 1, t["text"], fmt(t["box"]), fmt(s["box"])))
    for a in range(len(texts)):
        for b in range(a + 1, len(texts)):
            if overlap(texts[a]["box"], texts[b]["box"]):
                bad.append("chart %d: texts %r and %r overlap (%s, %s)" % (
                    i + 1, texts[a]["text"], texts[b]["text"], fmt(texts[a]["box"]),
                    fmt(texts[b]["box"])))
    for k, entries in enumerate(s["legends"]):
        seen = {}
        for e in entries:
            if not e["shown"] or not inside(e["box"], s["box"]):
                bad.append("chart %d legend %d: entry %r not shown inside the SVG" % (
                    i + 1, k + 1, e["text"]))
            key = (e["color"], e["marker"], e["dash"])
            if not e["color"] or not e["marker"]:
                bad.append("chart %d legend %d: entry %r has no colour or marker" % (
                    i + 1, k + 1, e["text"]))
            if key in seen:
                bad.append("chart %d legend %d: entries %r and %r look the same (%s)" % (
                    i + 1, k + 1, seen[key], e["text"], key))
            seen[key] = e["text"]
    for k, series in enumerate(s["panels"]):
        seen = {}
        for e in series:
            key = (e["color"], e["marker"], e["dash"])
            if key in seen:
                bad.append("chart %d panel %d: series %r and %r look the same (%s)" % (
                    i + 1, k + 1, seen[key], e["name"], key))
            seen[key] = e["name"]
    return bad


def fmt(b):
    return "%.0f,%.0f-%.0f,%.0f" % (b["x0"], b["y0"], b["x1"], b["y1"])


def static_checks(path):
    """What the page's text must not hold: a script, a fetch."""
    text = open(path, encoding="utf-8").read()
    bad = []
    if re.search(r"<script", text, re.I):
        bad.append("has a <script>")
    for url in re.findall(r"""\b(?:src|href)\s*=\s*["']?([^"'\s>]*)|url\(\s*([^)]*)\)""", text,
                          re.I):
        bad.append("fetches %s" % (url[0] or url[1]))
    if "\x1b" in text:
        bad.append("holds a raw escape character (not shown as \\x1b)")
    return bad


def driver(tmp):
    o = Options()
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--hide-scrollbars", "--window-size=%d,900" % WIDTH]:
        o.add_argument(a)
    o.add_argument("--user-data-dir=" + tmp)
    o.binary_location = "/usr/bin/chromium"
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", default=".")
    ap.add_argument("pages", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ccb-chromium.")
    failed = 0
    d = driver(tmp)
    try:
        for page in a.pages:
            bad = static_checks(page)
            d.set_window_size(WIDTH, 900)
            d.get("file://" + os.path.abspath(page))
            m = d.execute_script(MEASURE)
            if m["scrollWidth"] > m["innerWidth"]:
                bad.append("wider than the %d-px window: scrollWidth %d" % (m["innerWidth"],
                                                                          m["scrollWidth"]))
            for i, s in enumerate(m["svgs"]):
                bad += check_svg(i, s)
            for e in d.get_log("browser"):
                if e.get("level") in ("SEVERE", "ERROR", "WARNING"):
                    bad.append("browser says: %s %s" % (e.get("level"), e.get("message")))
            # The whole page in one screenshot, at the window's width.
            d.set_window_size(WIDTH, min(m["height"] + 120, 16000))
            shot = os.path.join(a.shots, os.path.basename(page) + ".png")
            d.save_screenshot(shot)
            if bad:
                failed += 1
                for b in bad[:20]:
                    print("FAIL %s: %s" % (page, b))
                if len(bad) > 20:
                    print("FAIL %s: and %d more" % (page, len(bad) - 20))
            else:
                print("ok %s: %d charts, %d texts, %d legend entries, screenshot %s" % (
                    page, len(m["svgs"]), sum(len(s["texts"]) for s in m["svgs"]),
                    sum(len(e) for s in m["svgs"] for e in s["legends"]), os.path.abspath(shot)))
    finally:
        d.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
