#!/usr/bin/env python3
"""The photo deck's latency as a person sees it, in Chromium.

Starts `offloadctl serve` on a generated session of 240 photos, opens the deck and:

- swipes: --swipes mouse strokes past the threshold (left, right, up in turn), each released
  after a rest; for each, the time from the `pointerup` event's `timeStamp` to the first frame
  painted after the page drew the next photo (the card leaving as a copy). The page records it
  as `deck:input-to-drawn` in its performance timeline; the server decides and journals the
  stroke in between (the `decided` answer comes after the journal's sync).
- bursts: --bursts bursts of 20 keys (← → ↑ in turn) pressed as fast as the browser takes
  them; for each, the time from just before the first key to the queue having sent every
  decision and received every answer, the last one drawn (the end of the last
  `deck:queue-drained` measure).

Usage: deck_latency.py [--offloadctl PATH] [--swipes 200] [--bursts 5] [--json]
Build first: swift build -c release (the default binary is .build/release/offloadctl); a debug
build works too (--offloadctl .build/debug/offloadctl) and is slower on the server's side.
Exit status 0 with the figures on stdout; 1 on a failure; 77 when Chromium or Playwright is
missing.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.join(REPOSITORY, "Tools", "WebTests"))
from deck_browser_test import CHROMIUM, Failure, Harness, frame_box, png, COLORS  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def percentile(values, p):
    """The nearest-rank percentile, as offload-bench computes it."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, len(ordered) * p // 100)]


def summary(values):
    if not values:
        return {"count": 0, "p50": 0.0, "p99": 0.0, "max": 0.0}
    return {"count": len(values), "p50": percentile(values, 50), "p99": percentile(values, 99), "max": max(values)}


class BigHarness(Harness):
    """The browser tests' harness with 240 photos instead of 24."""

    def __init__(self, offloadctl, work, photos):
        os.makedirs(os.path.join(work, "photos"), exist_ok=True)
        for i in range(24, photos):
            with open(os.path.join(work, "photos", "p%03d.png" % i), "wb") as f:
                f.write(png(400, 300, COLORS[i % len(COLORS)]))
        super().__init__(offloadctl, work, os.path.join(work, "out"))


def measures(page, name):
    return page.evaluate("n => performance.getEntriesByName(n).map(e => e.duration)", name)


def swipe(page, dx, dy):
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(x + dx * box["width"] * i / 8, y + dy * box["width"] * i / 8)
    time.sleep(0.12)  # a rest before the release: a drag, not a fling
    page.mouse.up()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", default=os.path.join(REPOSITORY, ".build", "release", "offloadctl"))
    parser.add_argument("--swipes", type=int, default=200)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.access(args.offloadctl, os.X_OK):
        print("no offloadctl at %s; run `swift build -c release` first" % args.offloadctl, file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="offload-deck-latency-")
    h = BigHarness(args.offloadctl, work, args.swipes + 20 * args.bursts + 10)
    try:
        url = h.serve()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.goto(url.replace("/?token=", "/photos?token="))
            page.wait_for_function("() => document.body.dataset.ready === '0' && document.body.dataset.channel === 'open'", timeout=20000)
            moves = [(-0.7, 0), (0.7, 0), (0, -0.7)]
            for i in range(args.swipes):
                swipe(page, *moves[i % 3])
                page.wait_for_function("i => document.body.dataset.ready === i && document.body.dataset.queue === 'idle'",
                                       arg=str(i + 1), timeout=20000)
            drawn = measures(page, "deck:input-to-drawn")
            if len(drawn) != args.swipes:
                raise Failure("%d swipes but %d drawn measures" % (args.swipes, len(drawn)))
            answered = measures(page, "deck:input-to-answer")
            page.evaluate("() => performance.clearMeasures()")
            keys = ["ArrowLeft", "ArrowRight", "ArrowUp"]
            at = args.swipes
            bursts = []
            for _ in range(args.bursts):
                began = page.evaluate("() => performance.now()")
                for k in range(20):
                    page.keyboard.press(keys[k % 3])
                at += 20
                page.wait_for_function("i => document.body.dataset.ready === i && document.body.dataset.queue === 'idle'",
                                       arg=str(at), timeout=20000)
                ends = page.evaluate("() => performance.getEntriesByName('deck:queue-drained').map(e => e.startTime + e.duration)")
                bursts.append(max(ends) - began)
                time.sleep(0.2)
            browser.close()
        reviewed = json.loads(h.ctl("photos", "status", "--json"))["session"]["statistics"]["reviewed"]
        if reviewed != at:
            raise Failure("the store holds %d decisions, the page made %d" % (reviewed, at))
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        return 1
    finally:
        h.stop()
        shutil.rmtree(work, ignore_errors=True)
    rows = [
        {"name": "deck: pointer-up to next photo drawn (ms)", **summary(drawn)},
        {"name": "deck: pointer-up to the server's decision (ms)", **summary(answered)},
        {"name": "deck: 20 keys to all journaled and drawn (ms)", **summary(bursts)},
    ]
    if args.json:
        print(json.dumps(rows))
    else:
        print("%-48s %6s %8s %8s %8s" % ("figure", "count", "p50", "p99", "max"))
        for row in rows:
            print("%-48s %6d %8.1f %8.1f %8.1f" % (row["name"], row["count"], row["p50"], row["p99"], row["max"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
