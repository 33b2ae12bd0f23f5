#!/usr/bin/env python3
"""Drives `offloadctl serve` with the system's Chromium through Playwright.

A desktop mouse context and a phone-sized touch context (CDP touch events) swipe left,
right and up past and short of the threshold, fling, press the buttons and the keys, undo,
review, change a decision and commit; after each step the session is read back through
`offloadctl photos status --json`. Screenshots go to --out. Recorded strokes are replayed
with `offloadctl gesture replay` and must give the same decision.

Usage: deck_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when Chromium
or Playwright is missing.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    print("SKIP: playwright for Python is not installed (pip install playwright)", file=sys.stderr)
    sys.exit(77)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    print("SKIP: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
    sys.exit(77)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def png(width, height, rgb):
    """A real RGB PNG with a darker band, compressed by zlib."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        band = height // 3 < y < height // 2
        pixel = bytes(c // 2 for c in rgb) if band else bytes(rgb)
        rows += pixel * width

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def jpeg(width, height, seed):
    """A real grayscale baseline JPEG: one grey level per 8x8 block (DC coefficients only,
    quantizer 1, the standard DC table), as TestJPEG.encode writes it in the Swift tests."""
    dc_bits = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    codes, code = [], 0
    for length, count in enumerate(dc_bits, 1):
        for _ in range(count):
            codes.append((code, length))
            code += 1
        code <<= 1
    out = b"\xff\xd8" + segment(0xDB, b"\x00" + b"\x01" * 64)
    out += segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
    out += segment(0xC4, b"\x00" + bytes(dc_bits) + bytes(range(12)))
    out += segment(0xC4, b"\x10\x01" + b"\x00" * 15 + b"\x00")  # AC: end of block only
    out += segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    bits, previous = [], 0
    for row in range((height + 7) // 8):
        for column in range((width + 7) // 8):
            dc = 8 * ((row * 37 + column * 23 + seed * 59) % 200 + 28 - 128)
            difference, previous = dc - previous, dc
            category = abs(difference).bit_length()
            value, length = codes[category]
            bits += [(value >> s) & 1 for s in range(length - 1, -1, -1)]
            if category:
                extra = difference if difference >= 0 else difference + (1 << category) - 1
                bits += [(extra >> s) & 1 for s in range(category - 1, -1, -1)]
            bits.append(0)
    bits += [1] * (-len(bits) % 8)
    data = bytearray()
    for i in range(0, len(bits), 8):
        data.append(int("".join(map(str, bits[i:i + 8])), 2))
        if data[-1] == 0xFF:
            data.append(0)
    return out + bytes(data) + b"\xff\xd9"


def with_exif_thumbnail(main, thumbnail):
    """`main` with an APP1 Exif block whose IFD1 names `thumbnail`, as cameras write it."""
    tiff = b"II" + struct.pack("<HI", 42, 8)
    tiff += struct.pack("<HHHIHHI", 1, 0x0112, 3, 1, 1, 0, 26)
    tiff += struct.pack("<HHHII", 2, 0x0201, 4, 1, 56) + struct.pack("<HHIII", 0x0202, 4, 1, len(thumbnail), 0)
    return b"\xff\xd8" + segment(0xE1, b"Exif\x00\x00" + tiff + thumbnail) + main[2:]


COLORS = [(229, 72, 77), (48, 164, 108), (62, 99, 221), (245, 166, 35), (142, 78, 198), (0, 162, 199),
          (230, 230, 230), (90, 90, 90), (214, 64, 159), (120, 180, 40), (30, 60, 120), (200, 120, 60)]


class Harness:
    def __init__(self, offloadctl, work, out):
        self.offloadctl = offloadctl
        self.work = work
        self.out = out
        self.photos = os.path.join(work, "photos")
        self.traces = os.path.join(work, "traces")
        self.env = dict(os.environ)
        self.env.update({"OFFLOAD_HOME": os.path.join(work, "store"), "XDG_DATA_HOME": os.path.join(work, "data"),
                         "HOME": work, "TZ": "UTC"})
        os.makedirs(self.photos, exist_ok=True)
        os.makedirs(out, exist_ok=True)
        # The first photo is a camera-style JPEG whose EXIF block carries a 160x120 thumbnail.
        with open(os.path.join(self.photos, "p000.jpg"), "wb") as f:
            f.write(with_exif_thumbnail(jpeg(400, 300, 1), jpeg(160, 120, 2)))
        for i in range(1, 24):
            with open(os.path.join(self.photos, "p%03d.png" % i), "wb") as f:
                f.write(png(400, 300, COLORS[i % len(COLORS)]))
        self.ctl("photos", "start", self.photos, "--order", "mtime")
        self.server = None

    def ctl(self, *arguments):
        result = subprocess.run([self.offloadctl, *arguments], env=self.env, capture_output=True, text=True, timeout=60)
        check(result.returncode == 0, "offloadctl %s failed: %s" % (" ".join(arguments), result.stderr.strip()))
        return result.stdout

    def stats(self):
        return json.loads(self.ctl("photos", "status", "--json"))["session"]["statistics"]

    def expect(self, step, **figures):
        stats = self.stats()
        for key, value in figures.items():
            check(stats.get(key) == value, "%s: the session's %s is %r, expected %r (%s)" % (step, key, stats.get(key), value, stats))
        print("ok: " + step)

    def serve(self):
        self.server = subprocess.Popen([self.offloadctl, "serve", "--port", "0", "--root", self.photos,
                                        "--record-traces", self.traces], env=self.env, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
        url = self.server.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:") and "?token=" in url, "first line is not the address: %r" % url)
        return url

    def stop(self):
        if self.server and self.server.poll() is None:
            self.server.terminate()
            code = self.server.wait(timeout=20)
            check(code == 0, "the server exited with %d after SIGTERM" % code)


def wait_ready(page, index):
    """Waits until the page shows card `index` and every queued decision was answered."""
    try:
        page.wait_for_function("i => document.body.dataset.ready === i && document.body.dataset.queue !== 'busy'",
                               arg=str(index), timeout=20000)
    except Exception:
        state = page.evaluate("() => JSON.stringify({body: document.body.dataset, card: document.getElementById('card').dataset, message: document.getElementById('message').textContent})")
        raise Failure("card %s never showed; the page is at %s" % (index, state))


def wait_idle(page):
    page.wait_for_function("() => document.getElementById('card').dataset.state === 'idle'", timeout=20000)


def frame_box(page):
    return page.locator("#frame").bounding_box()


def press_and_drag(page, dx, dy, steps=10, pause=0.02):
    """Presses the mouse on the card's centre and moves it by (dx, dy) card widths in `steps`
    moves `pause` seconds apart, still pressed; returns where it pressed."""
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(x + dx * box["width"] * i / steps, y + dy * box["width"] * i / steps)
        time.sleep(pause)
    return x, y


def mouse_swipe(page, dx, dy, steps=12, pause=0.0, hold=0.15):
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(x + dx * i / steps, y + dy * i / steps)
        if pause:
            time.sleep(pause)
    time.sleep(hold)  # resting before release: no fling
    page.mouse.up()


def touch_swipe(page, cdp, dx, dy, steps=12, pause=0.016, hold=0.15):
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y, "id": 1}]})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * i / steps, "y": y + dy * i / steps, "id": 1}]})
        time.sleep(pause)
    time.sleep(hold)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def fling(page, cdp, dx, dy, touch, steps=6, interval=0.008):
    """A fast stroke released while moving, with the event times set through CDP, so the
    speed does not depend on how busy the machine is."""
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    base = time.time()
    points = [(x + dx * i / steps, y + dy * i / steps, base + i * interval) for i in range(steps + 1)]
    if touch:
        kinds = ["touchStart"] + ["touchMove"] * steps
        for (px, py, t), kind in zip(points, kinds):
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "timestamp": t, "touchPoints": [{"x": px, "y": py, "id": 1}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "timestamp": points[-1][2] + 0.004, "touchPoints": []})
    else:
        first = points[0]
        cdp.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": first[0], "y": first[1], "timestamp": first[2] - 0.05})
        cdp.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": first[0], "y": first[1], "button": "left", "buttons": 1, "clickCount": 1, "timestamp": first[2]})
        for px, py, t in points[1:]:
            cdp.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": px, "y": py, "button": "left", "buttons": 1, "timestamp": t})
        last = points[-1]
        cdp.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": last[0], "y": last[1], "button": "left", "buttons": 0, "clickCount": 1, "timestamp": last[2] + 0.004})


def open_deck(context, url):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url.replace("/?token=", "/photos?token="))
    check(page.url.endswith("/photos"), "the token address did not redirect to /photos: %s" % page.url)
    page.wait_for_function("() => document.body.dataset.channel === 'open' && document.body.dataset.ready !== undefined", timeout=20000)
    return page, errors


def desktop(h, browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page, errors = open_deck(context, url)
    wait_ready(page, 0)
    check(page.locator("#progress").inner_text() == "Session: 1 / 24", "header: %r" % page.locator("#progress").inner_text())
    box = frame_box(page)
    check(abs(box["width"] / box["height"] - 4 / 3) < 0.02, "the photo's aspect ratio is not kept: %s" % box)
    check(box["height"] > 500, "the photo is not as large as the viewport allows: %s" % box)
    page.wait_for_function("() => [...document.images].length >= 1 && document.getElementById('photo').complete")
    page.screenshot(path=os.path.join(h.out, "desktop-deck.png"))
    width = box["width"]

    # Short of the threshold, slowly: the card snaps back, nothing is decided.
    mouse_swipe(page, -0.3 * width, 0, pause=0.02)
    wait_idle(page)
    h.expect("desktop: a slow short swipe left snaps back", reviewed=0)

    # Mid-drag screenshot: the card tilts and the red overlay shows.
    box = frame_box(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x - 0.4 * width * i / 10, y + 10 * i / 10)
        time.sleep(0.02)
    transform = page.eval_on_selector("#card", "e => e.style.transform")
    check("rotate(-" in transform, "the card does not tilt while dragged left: %r" % transform)
    page.screenshot(path=os.path.join(h.out, "desktop-drag-left.png"))
    for i in range(1, 11):
        page.mouse.move(x - 0.4 * width - 0.25 * width * i / 10, y + 10)
        time.sleep(0.02)
    time.sleep(0.15)
    page.mouse.up()
    wait_ready(page, 1)
    h.expect("desktop: a swipe left past the threshold trashes", reviewed=1, trash=1)

    mouse_swipe(page, 0.65 * width, 0, pause=0.01)
    wait_ready(page, 2)
    h.expect("desktop: a swipe right past the threshold favorites", reviewed=2, favorite=1)

    mouse_swipe(page, 0.2 * width, 0, pause=0.02)
    wait_idle(page)
    h.expect("desktop: a slow short swipe right snaps back", reviewed=2)

    # Flings. The seed's rule (the default): an action happens when the swipe crosses the
    # threshold, so a short fast fling snaps back and a fast one past the threshold commits.
    cdp = context.new_cdp_session(page)
    fling(page, cdp, 0, -0.3 * width, touch=False)
    wait_idle(page)
    h.expect("desktop: a fast short fling up snaps back (seed: only past the threshold)", reviewed=2)
    fling(page, cdp, 0, -0.7 * width, touch=False)
    wait_ready(page, 3)
    h.expect("desktop: a fast fling up past the threshold keeps", reviewed=3, keep=1)

    # Keys.
    page.keyboard.press("ArrowLeft")
    wait_ready(page, 4)
    page.keyboard.press("ArrowRight")
    wait_ready(page, 5)
    page.keyboard.press("ArrowUp")
    wait_ready(page, 6)
    h.expect("desktop: the keys ← → ↑ decide", reviewed=6, trash=2, favorite=2, keep=2)
    page.keyboard.press("u")
    wait_ready(page, 5)
    h.expect("desktop: u undoes", reviewed=5, keep=1)

    # Buttons, by their accessible names.
    page.get_by_role("button", name="Trash", exact=True).click()
    wait_ready(page, 6)
    page.get_by_role("button", name="Favorite", exact=True).click()
    wait_ready(page, 7)
    page.get_by_role("button", name="Keep", exact=True).click()
    wait_ready(page, 8)
    h.expect("desktop: the buttons decide", reviewed=8, trash=3, favorite=3, keep=2)
    # The next three photos were loaded and decoded before the card showed (seed NFR-1).
    check(page.evaluate("() => document.body.dataset.preloaded") == "yes", "the card on screen was not preloaded")
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_ready(page, 7)
    h.expect("desktop: the Undo button undoes", reviewed=7, keep=1)

    # Visible focus on the buttons.
    page.keyboard.press("Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    check(outline != "none", "no visible focus ring")
    page.screenshot(path=os.path.join(h.out, "desktop-focus.png"))

    # The terminal decides; the page shows it when it looks again.
    h.ctl("photos", "swipe", "up")
    page.reload()
    wait_ready(page, 8)
    check(page.locator("#progress").inner_text() == "Session: 9 / 24", "the page missed the terminal's decision")
    h.expect("desktop: a decision from the terminal shows in the page", reviewed=8, keep=2)
    check(not errors, "page errors: %s" % errors)
    context.close()


def phone(h, browser, url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page, errors = open_deck(context, url)
    wait_ready(page, 8)
    cdp = context.new_cdp_session(page)
    page.screenshot(path=os.path.join(h.out, "phone-deck.png"))
    width = frame_box(page)["width"]

    touch_swipe(page, cdp, -0.25 * width, 0)
    wait_idle(page)
    h.expect("phone: a short touch swipe left snaps back", reviewed=8)
    touch_swipe(page, cdp, -0.7 * width, 0)
    wait_ready(page, 9)
    h.expect("phone: a touch swipe left trashes", reviewed=9, trash=4)
    touch_swipe(page, cdp, 0.7 * width, 0)
    wait_ready(page, 10)
    h.expect("phone: a touch swipe right favorites", reviewed=10, favorite=4)
    touch_swipe(page, cdp, 0, -0.2 * width)
    wait_idle(page)
    h.expect("phone: a short touch swipe up snaps back", reviewed=10)
    touch_swipe(page, cdp, 0, -0.7 * width)
    wait_ready(page, 11)
    h.expect("phone: a touch swipe up keeps", reviewed=11, keep=3)
    fling(page, cdp, 0.3 * width, 0, touch=True)
    wait_idle(page)
    h.expect("phone: a quick short touch fling right snaps back", reviewed=11)
    time.sleep(0.8)  # past Chromium's own fling animation (see below)
    fling(page, cdp, 0.7 * width, 0, touch=True)
    wait_ready(page, 12)
    h.expect("phone: a quick touch fling right past the threshold favorites", reviewed=12, favorite=5)
    # Chromium swallows a tap that lands while its own fling animation runs (tap
    # suppression); a person's next tap comes later than this script's would. A touch on an
    # empty corner stops that animation first, as a person's thumb does.
    time.sleep(0.8)
    page.touchscreen.tap(2, 2)
    time.sleep(0.5)
    page.get_by_role("button", name="Undo", exact=True).tap()
    wait_ready(page, 11)
    h.expect("phone: tapping Undo undoes", reviewed=11, favorite=4)
    page.get_by_role("button", name="Trash", exact=True).tap()
    wait_ready(page, 12)
    h.expect("phone: tapping Trash trashes", reviewed=12, trash=5)
    page.screenshot(path=os.path.join(h.out, "phone-after.png"))
    check(not errors, "page errors: %s" % errors)
    context.close()


def review(h, browser, url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.goto(url.split("/?")[0] + "/photos/review")
    page.wait_for_function("() => document.body.dataset.ready === '12' && document.body.dataset.channel === 'open'", timeout=20000)
    # The grid's images come from /thumb (embedded thumbnail, else the photo) and are decoded:
    # each lazy image is scrolled into view, then every one must have a natural size.
    images = page.locator("#grid img")
    for i in range(images.count()):
        images.nth(i).scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)",
                           timeout=20000)
    sources = page.eval_on_selector_all("#grid img", "all => all.map(i => new URL(i.src).pathname)")
    check(len(sources) == 12 and all(s.startswith("/thumb/") for s in sources), "grid images: %s" % sources)
    sizes = page.eval_on_selector_all("#grid img", "all => all.map(i => [i.alt, i.naturalWidth, i.naturalHeight])")
    check(["p000.jpg", 160, 120] in sizes, "the JPEG's tile is not its 160x120 EXIF thumbnail: %s" % sizes)
    print("ok: review: the grid's 12 images come from /thumb and are decoded (the JPEG's is its EXIF thumbnail)")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=os.path.join(h.out, "review.png"))
    page.select_option("#filter", "trash")
    page.wait_for_function("() => document.body.dataset.ready === '5'")
    first = page.locator("#grid li").first
    first.locator("select").select_option("keep")
    page.wait_for_function("() => document.body.dataset.ready === '4'")
    h.expect("review: changing a decision", trash=4, keep=4)
    page.select_option("#filter", "")
    page.wait_for_function("() => document.body.dataset.ready === '12'")
    page.get_by_role("button", name="Commit", exact=True).click()
    page.wait_for_function("() => document.body.dataset.committed === 'yes'", timeout=30000)
    summary = page.locator("#summary").inner_text()
    check("4 moved to the Trash" in summary and "4 rated as favorites" in summary, "summary: %r" % summary)
    page.screenshot(path=os.path.join(h.out, "review-committed.png"))
    h.expect("review: commit applies every decision", pending=0, committed=12)
    trashed = os.listdir(os.path.join(h.work, "data", "Trash", "files"))
    left = [n for n in os.listdir(h.photos) if n.endswith(".png") or n.endswith(".jpg")]
    check(len(trashed) == 4 and len(left) == 20, "nothing may be deleted: %d in the Trash, %d left" % (len(trashed), len(left)))
    sidecars = [n for n in os.listdir(h.photos) if n.endswith(".xmp")]
    check(len(sidecars) == 4, "favorites get sidecars: %s" % sidecars)
    print("ok: review: nothing deleted, 4 in the Trash, 4 sidecars")
    context.close()


def demo(h, browser):
    """`serve --demo`: generated photos on a throw-away store, removed on exit; the docs'
    screenshots (Docs/Images/web-deck-*.png) come from here."""
    server = subprocess.Popen([h.offloadctl, "serve", "--demo", "--port", "0"], env=h.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:"), "demo: first line is not the address: %r" % url)
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        page = context.new_page()
        page.goto(url.replace("/?token=", "/photos?token="))
        page.wait_for_function("() => document.body.dataset.ready === '0' && document.getElementById('photo').complete")
        check(page.locator("#progress").inner_text() == "Session: 1 / 24", "demo: %r" % page.locator("#progress").inner_text())
        x, y = press_and_drag(page, 0.42, 0.02)
        page.screenshot(path=os.path.join(h.out, "web-deck-drag.png"))
        page.mouse.move(x + 0.1 * frame_box(page)["width"], y)
        time.sleep(0.2)
        page.mouse.up()
        wait_idle(page)
        context.close()
        phone = browser.new_context(viewport={"width": 390, "height": 780}, is_mobile=True, has_touch=True)
        page = phone.new_page()
        page.goto(url.replace("/?token=", "/photos?token="))
        page.wait_for_function("() => document.body.dataset.ready === '0' && document.getElementById('photo').complete")
        page.screenshot(path=os.path.join(h.out, "web-deck-phone.png"))
        phone.close()
    finally:
        server.terminate()
        code = server.wait(timeout=20)
    check(code == 0, "demo: exit status %d after SIGTERM" % code)
    check(not os.path.exists(os.path.join(os.environ.get("TMPDIR", "/tmp"), "offload-serve-demo-%d" % server.pid)), "demo: the throw-away folder was left behind")
    print("ok: serve --demo shows generated photos and removes its folder on exit")


def replay_traces(h):
    names = sorted(os.listdir(h.traces))
    check(len(names) >= 10, "expected a trace per stroke, found %d" % len(names))
    for name in names:
        expected = name[: -len(".jsonl")].split("-", 3)[3]  # stroke-<ms>-<card>-<outcome>
        replay = json.loads(h.ctl("gesture", "replay", os.path.join(h.traces, name), "--json"))
        outcomes = [s["outcome"] for s in replay["strokes"]]
        check(outcomes and outcomes[-1] == expected, "%s replays to %s" % (name, outcomes))
    print("ok: %d recorded strokes replay to the same outcome" % len(names))


def run(steps, pass_line, after=None):
    """The browser scripts' main: parses --offloadctl, --work and --out, serves the harness's
    store, runs each `step(h, browser, url)` in one Chromium, then `after(h)`; returns the exit
    status (prints `pass_line` when every check passed)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    h = Harness(args.offloadctl, args.work, args.out)
    url = h.serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for step in steps:
                step(h, browser, url)
            browser.close()
        if after:
            after(h)
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        return 1
    finally:
        h.stop()
    print(pass_line)
    return 0


def main():
    return run([desktop, phone, review, lambda h, browser, url: demo(h, browser)], "PASS: browser deck tests",
               after=replay_traces)


if __name__ == "__main__":
    sys.exit(main())
