#!/usr/bin/env python3
"""The organize page's latency as a person sees it, in Chromium: pointer move to insertion line
drawn, and drop to saved, on a 1,000-row plan.

`offload-bench web` times the same two things at the WebSocket (the server's side). This
script adds the browser's: it starts the release `offloadctl serve` on a generated plan (100
steps of 9 tasks each), opens the plan with `?measure` (organize.js then keeps its latency
probes in `window.offloadLatency`) and drags with the mouse:

- moves: a row lifted by its handle and swept up and down across the rows in view, one mouse
  move every 16 ms (the sweep); the drags of the drops below add their moves too, and are
  printed with them. For each move, the time from the pointer event's `timeStamp` to the first
  animation frame after the page applied the server's answer (the insertion line's new
  place, or the invalid tint). The page draws a lifted row's lines from the cells of the
  server's last answer, in the same frame as the row, and the server's answer confirms them
  (the counts of lines drawn ahead, confirmed and corrected are printed). Moves whose line
  changed place are the figure, split into the moves of a row already lifted on the page and
  each stroke's first line, whose move went out before the lift was answered (the script
  moves the mouse at once after pressing; that line comes with the lift). Every answered
  move is printed beside it, and so is the lifted row's own time from the pointer event to
  the frame that moves it: the floor the browser's frame clock sets (at 60 frames a second a
  move waits up to 16.7 ms for the next frame, whatever the page does).
- drops: rows dragged a few rows down or up and released; the time from the `pointerup`
  event's `timeStamp` to the `dropped` answer, which the server sends once the move is on
  stable storage (the figure), and to the frame that draws the rows the server sends next.

Usage: organize_latency.py [--offloadctl PATH] [--moves 400] [--drops 200] [--steps 100] [--json]
(--steps 1000 makes a 10,000-row plan.)
(200 drops, so that p99 is not simply the largest of a few dozen.)
Build first: swift build -c release (the default binary is .build/release/offloadctl).
Exit status 0 with the figures on stdout; 1 on a failure; 77 when Chromium or Playwright is
missing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    print("SKIP: playwright for Python is not installed (pip install playwright)", file=sys.stderr)
    sys.exit(77)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    print("SKIP: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
    sys.exit(77)

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def percentile(values, p):
    """The nearest-rank percentile, as offload-bench computes it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * p // 100)]


def summary(values):
    if not values:
        return {"count": 0, "p50": 0.0, "p99": 0.0, "max": 0.0}
    return {"count": len(values), "p50": percentile(values, 50), "p99": percentile(values, 99), "max": max(values)}


class Server:
    """`offloadctl serve` on a store holding one collection made from `outline` (by default a
    plan of `steps` steps of 9 tasks each)."""

    def __init__(self, offloadctl, work, steps, outline=None, kind="plan"):
        self.offloadctl = offloadctl
        self.env = dict(os.environ)
        self.env.update({"OFFLOAD_HOME": os.path.join(work, "store"), "XDG_DATA_HOME": os.path.join(work, "data"),
                         "HOME": work, "TZ": "UTC"})
        if outline is None:
            outline = "".join("- Step %d\n" % step + "".join("  - Task %d.%d\n" % (step, task) for task in range(1, 10))
                              for step in range(1, steps + 1))
        path = os.path.join(work, "plan.md")
        with open(path, "w") as file:
            file.write(outline)
        self.ctl("collection", "import", "Plan", path, "--kind", kind, "--quiet")
        collections = json.loads(self.ctl("collection", "list", "--json"))["collections"]
        self.plan = next(c["id"] for c in collections if c["name"] == "Plan")
        self.process = subprocess.Popen([offloadctl, "serve", "--port", "0"], env=self.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if "?token=" not in self.url:
            raise SystemExit("offloadctl serve did not print its address: %r" % self.url)

    def ctl(self, *arguments):
        result = subprocess.run([self.offloadctl, *arguments], env=self.env, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise SystemExit("offloadctl %s failed: %s" % (" ".join(arguments), result.stderr.strip()))
        return result.stdout

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def open_plan(context, server, rows):
    page = context.new_page()
    base, token = server.url.split("/?token=")
    page.goto("%s/collections/%s?token=%s" % (base, server.plan, token))  # sets the cookie
    page.goto("%s/collections/%s?measure=1" % (base, server.plan))
    page.wait_for_function("() => document.body.dataset.connected === 'true'", timeout=30000)
    page.wait_for_function("() => document.getElementById('rows').children.length === %d" % rows, timeout=120000)
    page.wait_for_function("() => window.offloadLatency !== undefined", timeout=30000)
    return page


def grab(page, name):
    """Presses the mouse on NAME's handle and waits until the row is lifted."""
    handle = page.get_by_role("button", name="Reorder " + name, exact=True)
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y + 2)
    page.wait_for_function("() => document.querySelector('.row.lifted')", timeout=10000)
    return x, y


def sweep_moves(page, count):
    """One lifted row swept up and down between 150 and 650 pt (clear of the auto-scroll edges)."""
    x, y = grab(page, "Task 1.1")
    position, step = y, 6
    for _ in range(count):
        position += step
        if position > 650 or position < 150:
            step = -step
            position += 2 * step
        page.mouse.move(x, position)
        time.sleep(0.016)
    time.sleep(0.3)  # the last answers
    page.mouse.up()
    page.wait_for_function("() => !document.querySelector('.row.lifted')", timeout=10000)


def drops(page, count):
    rows = lambda: page.evaluate(
        "() => [...document.getElementById('rows').children].slice(0, 14).map(e => e.getAttribute('aria-label'))")
    for index in range(count):
        names = rows()
        before = page.evaluate("() => window.offloadLatency.drops.length")
        name = names[3 + index % 6]
        x, y = grab(page, name)
        direction = 1 if index % 2 == 0 else -1
        target = y + direction * 48 * 2.75
        for i in range(1, 9):
            page.mouse.move(x, y + (target - y) * i / 8)
            time.sleep(0.016)
        time.sleep(0.1)
        page.mouse.up()
        page.wait_for_function("(n) => window.offloadLatency.drops.length > n", arg=before, timeout=20000)
        page.wait_for_function("() => !document.querySelector('.row.lifted')", timeout=10000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", default=os.path.join(REPOSITORY, ".build/release/offloadctl"))
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--drops", type=int, default=200)
    parser.add_argument("--steps", type=int, default=100,
                        help="steps of 9 tasks each in the plan (100: 1,000 rows; 1000: 10,000)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.access(args.offloadctl, os.X_OK):
        print("no offloadctl at %s; run `swift build -c release` first" % args.offloadctl, file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="offload-latency-")
    server = Server(args.offloadctl, work, args.steps)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = open_plan(context, server, args.steps * 10)
            sweep_moves(page, args.moves)
            swept = page.evaluate("() => window.offloadLatency.moves.length")
            drops(page, args.drops)
            probe = page.evaluate(
                "() => { const p = window.offloadLatency; return { moves: p.moves, rows: p.rows, drops: p.drops, drawn: p.drawn, ends: p.ends, predictions: window.offloadPredictions } }")
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    moved = [m["ms"] for m in probe["moves"] if m["moved"]]
    swept_moved = [m["ms"] for m in probe["moves"][:swept] if m["moved"]]
    answered = [m["ms"] for m in probe["moves"]]
    lifted = [m["ms"] for m in probe["moves"] if m["moved"] and m["lifted"]]
    ahead = [m["ms"] for m in probe["moves"] if m["moved"] and m["predicted"]]
    waited = [m["ms"] for m in probe["moves"] if m["moved"] and not m["predicted"] and m["lifted"]]
    first = [m["ms"] for m in probe["moves"] if m["moved"] and not m["lifted"]]
    if not swept_moved or not moved or not probe["drops"] or not probe["rows"] or not probe["drawn"]:
        print("no figures: %d moves answered, %d drops" % (len(answered), len(probe["drops"])), file=sys.stderr)
        return 1
    plan = "{:,}".format(args.steps * 10)
    rows = [
        ("pointer move → insertion line drawn at its new place, the sweep (browser, %s-row plan)" % plan,
         summary(swept_moved)),
        ("pointer move → insertion line drawn at its new place, sweep and drops (browser)", summary(moved)),
        ("  of which moves of a lifted row (the row already up on the page)", summary(lifted)),
        ("    drawn from the last answer's cells (then confirmed)", summary(ahead)),
        ("    drawn when the answer came (no cell held the pointer)", summary(waited)),
        ("  of which a stroke's first line, its move sent before the lift was answered", summary(first)),
        ("pointer move → answer drawn, every answered move (browser, %s-row plan)" % plan, summary(answered)),
        ("pointer move → lifted row drawn (the frame clock's floor)", summary(probe["rows"])),
        ("drop (pointerup) → saved and answered (browser, %s-row plan)" % plan, summary(probe["drops"])),
        ("  of which pointerup → the page's handler runs (the page busy)", summary([e["waited"] for e in probe["ends"]])),
        ("  of which pointerup → the ended sample sent", summary([e["sent"] for e in probe["ends"]])),
        ("drop (pointerup) → new rows drawn (browser, %s-row plan)" % plan, summary(probe["drawn"])),
    ]
    load = os.getloadavg()
    if args.json:
        print(json.dumps([dict(case=case, **figures) for case, figures in rows]
                         + [{"predictions": probe["predictions"]}, {"loadAverage": load}], indent=1))
    else:
        for case, figures in rows:
            print("%-90s n=%4d  p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms" % (
                case, figures["count"], figures["p50"], figures["p99"], figures["max"]))
        counts = probe["predictions"]
        print("lines drawn ahead: %d (confirmed by the server %d, corrected %d)" % (
            counts["drawn"], counts["confirmed"], counts["corrected"]))
        print("load average: %.2f %.2f %.2f" % load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
