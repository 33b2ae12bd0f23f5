#!/usr/bin/env python3
"""A row swipe on a touch screen as a person sees it, in Chromium: touch move to the row's swipe
decided and drawn.

Starts the release `offloadctl serve` on a list of 40 rows, opens it with `?measure` in a
390 x 844 phone context with touch (organize.js then keeps its latency probes in
`window.offloadLatency`) and swipes rows left with CDP `Input.dispatchTouchEvent`, one touch
move every 16 ms, a partial swipe of 90 pt (the server's arena decides each sample: scroll,
swipe or press; past 90 pt at that pace the row rests open on its quick actions, and the
next swipe, on another row, closes it). For each move the arena answered with a swipe frame,
the time from the pointer event's `timeStamp` to the first animation frame after the page
drew it (the quick actions at their new place):

- decided: the move on which the arena decided the swipe (its first frame), one per stroke;
  and the same move to the server's answer arriving (`decided, answered`), the rest being
  the browser's wait for its next frame;
- all: every answered move of every swipe (the figure);
- release: the lift (`pointerup`) to the frame that draws the row open (or closed).

Usage: row_swipe_latency.py [--offloadctl PATH] [--swipes 200] [--json]
Build first: swift build -c release --product offloadctl (the default binary is
.build/release/offloadctl).
Exit status 0 with the figures on stdout; 1 on a failure; 77 when Chromium or Playwright is
missing.
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from organize_latency import CHROMIUM, REPOSITORY, Server, summary, sync_playwright  # noqa: E402


def touch(cdp, kind, x=None, y=None):
    points = [] if x is None else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def swipe(page, cdp, name):
    box = page.locator(".row[aria-label='%s'] .text" % name).bounding_box()
    x, y = box["x"] + box["width"] / 2 + 60, box["y"] + box["height"] / 2
    touch(cdp, "touchStart", x, y)
    for step in range(1, 7):
        time.sleep(0.016)
        touch(cdp, "touchMove", x - 15 * step, y)
    time.sleep(0.016)
    touch(cdp, "touchEnd")
    page.wait_for_function("() => !document.querySelector('.row.swiping')", timeout=10000)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", default=os.path.join(REPOSITORY, ".build/release/offloadctl"))
    parser.add_argument("--swipes", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(args.offloadctl):
        print("no %s: swift build -c release --product offloadctl" % args.offloadctl, file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="offload-row-swipe-")
    server = Server(args.offloadctl, work, 0, "".join("- Row %02d\n" % row for row in range(1, 41)), "list")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                          is_mobile=True, has_touch=True)
            page = context.new_page()
            base, token = server.url.split("/?token=")
            page.goto("%s/collections/%s?token=%s" % (base, server.plan, token))  # sets the cookie
            page.goto("%s/collections/%s?measure=1" % (base, server.plan))
            page.wait_for_function("() => document.body.dataset.connected === 'true'", timeout=30000)
            page.wait_for_function("() => document.getElementById('rows').children.length === 40", timeout=30000)
            cdp = context.new_cdp_session(page)
            for index in range(args.swipes):
                swipe(page, cdp, "Row %02d" % (1 + index % 10))
            time.sleep(0.5)
            probe = page.evaluate("() => ({swipes: window.offloadLatency.swipes, releases: window.offloadLatency.releases})")
            opened = page.locator(".row.open").count()
            browser.close()
    finally:
        server.stop()
    every = [entry["ms"] for entry in probe["swipes"]]
    decided = [entry["ms"] for entry in probe["swipes"] if entry["first"]]
    answered = [entry["answered"] for entry in probe["swipes"] if entry["first"]]
    figures = {"swipes": args.swipes, "decided": summary(decided), "decided, answered": summary(answered),
               "all": summary(every), "release": summary(probe["releases"]), "open at the end": opened}
    if len(decided) < args.swipes:
        print("only %d of %d swipes were decided as swipes" % (len(decided), args.swipes), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print("row swipe on touch, %d swipes of 90 pt (Chromium, 390 x 844, CDP touch):" % args.swipes)
        for name in ["decided", "decided, answered", "all", "release"]:
            f = figures[name]
            print("  %-17s n=%4d  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms" % (name, f["count"], f["p50"], f["p99"], f["max"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
