#!/usr/bin/env python3
"""The deck loses no input: fast keys, button presses, swipes and undo, in Chromium.

Against the built `offloadctl serve` (the harness of deck_browser_test.py, 24 photos):

- 20 decisions, keys and button presses mixed, 30 ms apart: the session holds 20 decisions,
  each on the photo that was on screen when it was given (read back with
  `offloadctl photos review --json`), and the page shows photo 21.
- A decision and U (and the Undo button) right after it: the decision is taken back.
- S (skip) then ← 30 ms later: the trash lands on the photo that came up; U, U takes back
  the decision and the skip (the skipped photo is on screen again); the Skip button too.
- A swipe past the threshold followed at once by two keys: three decisions, in order.
- The overlay while dragging: red with the trash icon left, green with the heart right, blue
  with the check up, stronger with the distance; and the same with reduced motion and with
  more contrast (screenshots in --out).

Usage: deck_queue_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when Chromium
or Playwright is missing.
"""
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deck_browser_test import check, frame_box, open_deck, press_and_drag, run, wait_ready  # noqa: E402

KEYS = {"trash": "ArrowLeft", "favorite": "ArrowRight", "keep": "ArrowUp"}
BUTTONS = {"trash": "Trash", "favorite": "Favorite", "keep": "Keep"}


def decisions(h):
    """The session's decisions by photo index, from the CLI."""
    items = json.loads(h.ctl("photos", "review", "--json"))["items"]
    return {item["index"]: (item["decision"], item["photo"]) for item in items}


def settle(page, index):
    """Waits until the page shows photo `index` and sent every queued step."""
    wait_ready(page, index)
    page.wait_for_function("() => document.body.dataset.queue === 'idle'", timeout=20000)


def burst(page, plan, gap=0.03):
    """Gives each (decision, by key or button) of `plan` `gap` seconds after the one before,
    on a fixed clock (a late step does not push the later ones back)."""
    centres = {}
    for decision, name in BUTTONS.items():
        box = page.get_by_role("button", name=name, exact=True).bounding_box()
        centres[decision] = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    start = time.monotonic()
    for i, (decision, by_key) in enumerate(plan):
        delay = start + i * gap - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if decision == "undo":
            page.keyboard.press("u")
        elif decision == "skip":
            page.keyboard.press("s")
        elif by_key:
            page.keyboard.press(KEYS[decision])
        else:
            page.mouse.click(*centres[decision])
    return time.monotonic() - start


def no_input_lost(h, browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = open_deck(context, url)
    settle(page, 0)
    names = ["trash", "favorite", "keep"]
    plan = [(names[(i * 7 + i // 3) % 3], i % 2 == 0) for i in range(20)]
    took = burst(page, plan)
    check(took < 1.5, "the burst itself took %.2f s" % took)
    settle(page, 20)
    found = decisions(h)
    check(len(found) == 20, "20 inputs gave %d decisions: %s" % (len(found), found))
    for index, (decision, _) in enumerate(plan):
        check(found[index][0] == decision, "photo %d has %s, expected %s (%s)" % (index, found[index], decision, found))
    photos = [found[i][1] for i in range(20)]
    check(len(set(photos)) == 20, "the decisions are not on 20 different photos: %s" % photos)
    progress = page.locator("#progress").inner_text()
    check(progress == "Session: 21 / 24", "after 20 decisions the page says %r" % progress)
    h.expect("20 keys and buttons 30 ms apart: 20 decisions in order on the 20 right photos",
             reviewed=20, trash=plan.count(("trash", True)) + plan.count(("trash", False)))
    drained = page.evaluate("() => performance.getEntriesByName('deck:queue-drained').map(e => e.duration)")
    print("ok: the burst was drawn and journaled %.0f ms after its first input" % max(drained))

    # Undo right after a decision takes that decision back (U, then the button).
    burst(page, [("favorite", True), ("undo", True)], gap=0.0)
    settle(page, 20)
    check(20 not in decisions(h), "U right after a decision left it: %s" % decisions(h).get(20))
    burst(page, [("trash", False)], gap=0.0)
    page.get_by_role("button", name="Undo", exact=True).click()
    settle(page, 20)
    check(20 not in decisions(h), "Undo right after a decision left it: %s" % decisions(h).get(20))
    h.expect("a decision and undo at once: the decision is taken back", reviewed=20)
    skips(h, page)

    # A swipe past the threshold, then two keys while its answer is on its way.
    press_and_drag(page, -0.7, 0, steps=12, pause=0.01)
    time.sleep(0.15)
    page.mouse.up()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    settle(page, 23)
    found = decisions(h)
    got = [found.get(i, (None,))[0] for i in (20, 21, 22)]
    check(got == ["trash", "keep", "favorite"], "swipe then two keys gave %s" % got)
    print("ok: a swipe and two keys at once: three decisions in order")
    check(not errors, "page errors: %s" % errors)
    context.close()


def skips(h, page):
    """Skip (S and the button) goes through the same queue: a key 30 ms after a skip decides
    the photo that came up; U takes back that decision, then the skip, as `offloadctl photos
    undo` does (the skipped photo is on screen again)."""
    def state():
        return page.evaluate("() => fetch('/api/state').then(r => r.json())")
    before = state()
    first, second = before["current"]["name"], before["next"][0]["name"]
    burst(page, [("skip", True), ("trash", True)])
    settle(page, 21)
    found = decisions(h)
    check(found.get(20) == ("trash", second), "S then ← 30 ms later: photo 20 is %s, expected trash on %s"
          % (found.get(20), second))
    check(first not in [photo for _, photo in found.values()], "the skipped photo got a decision")
    last = state()["session"]["total"] - 1
    burst(page, [("undo", True), ("undo", True)])
    settle(page, 20)
    check(20 not in decisions(h), "U after the skipped photo's neighbour left a decision")
    now = state()
    check(now["current"]["name"] == first, "U, U after S, ←: photo %r is on screen, not the skipped %r"
          % (now["current"]["name"], first))
    page.get_by_role("button", name="Skip", exact=True).click()
    settle(page, 20)
    check(state()["current"]["name"] == second, "the Skip button did not bring up %r" % second)
    page.keyboard.press("u")
    settle(page, 20)
    check(state()["current"]["name"] == first, "U after the Skip button did not bring back %r" % first)
    check(last == 23, "the session has %d photos" % (last + 1))
    h.expect("skip by key and button, through the queue; undo takes a skip back", reviewed=20)


def overlay_state(page):
    return page.evaluate("""() => {
        const o = document.getElementById('overlay');
        const shown = [...o.querySelectorAll('svg')].filter(s => getComputedStyle(s).display !== 'none');
        return {direction: o.dataset.direction || null, opacity: parseFloat(o.style.getPropertyValue('--strength') || '0'),
                icons: shown.map(s => s.getAttribute('class')), tint: getComputedStyle(o).backgroundColor};
    }""")


def overlays(h, browser, url, suffix, **options):
    """Drags left, right and up, short and far: the tint and icon of each side, rising."""
    context = browser.new_context(viewport={"width": 900, "height": 700}, **options)
    page, errors = open_deck(context, url)
    wait_ready(page, 23)
    for name, (dx, dy), icon in (("left", (-1, 0), "icon-left"), ("right", (1, 0), "icon-right"), ("up", (0, -1), "icon-up")):
        x, y = press_and_drag(page, 0.12 * dx, 0.12 * dy, steps=8, pause=0.015)
        near = overlay_state(page)
        width = frame_box(page)["width"]
        for i in range(1, 5):
            reach = (0.12 + 0.3 * i / 4) * width
            page.mouse.move(x + dx * reach, y + dy * reach)
            time.sleep(0.015)
        far = overlay_state(page)
        check(near["direction"] == name and far["direction"] == name, "%s: overlay direction %s / %s" % (name, near, far))
        check(near["icons"] == ["icon " + icon] and far["icons"] == ["icon " + icon], "%s: icons %s / %s" % (name, near, far))
        check(0 < near["opacity"] < far["opacity"], "%s: the overlay does not grow with the distance: %s -> %s" % (name, near, far))
        page.screenshot(path=os.path.join(h.out, "overlay-%s%s.png" % (name, suffix)))
        page.mouse.move(x, y)
        time.sleep(0.1)
        page.mouse.up()
        page.wait_for_function("() => document.getElementById('card').dataset.state === 'idle'", timeout=20000)
    h.expect("overlays%s: nothing decided by short drags" % suffix, reviewed=23)
    print("ok: overlay%s: red trash left, green heart right, blue check up, growing" % suffix)
    check(not errors, "page errors: %s" % errors)
    context.close()


def main():
    return run([no_input_lost,
                lambda h, browser, url: overlays(h, browser, url, ""),
                lambda h, browser, url: overlays(h, browser, url, "-reduced-motion", reduced_motion="reduce"),
                lambda h, browser, url: overlays(h, browser, url, "-more-contrast", contrast="more")],
               "PASS: browser deck queue tests")


if __name__ == "__main__":
    sys.exit(main())
