#!/usr/bin/env python3
"""The home page, the links home and the installable app, in Chromium.

Against the built `offloadctl serve` (the harness of deck_browser_test.py: 24 photos in a
session) with two collections made through the CLI:

- The printed address opens the home page: the session's progress, a link to the photos, and
  each list and plan as a link that opens it. Every page links home.
- The progress follows the session (decisions made with the CLI show after a reload).
- The web app manifest parses with no error (Chromium's own parser, over CDP), names the app,
  display standalone, start_url /, a theme colour and 192, 512 and maskable PNG icons that load
  at their sizes; every page links it with an apple-touch-icon.
- Text follows the browser's font size (rem): a larger root size scales the page's text.
- `serve --demo` holds lists, a nested plan and an itinerary beside the photos.

Usage: home_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when Chromium
or Playwright is missing.
"""
import json
import os
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deck_browser_test import check, press_and_drag, run  # noqa: E402

PAGES = ["/photos", "/photos/review", "/collections"]


def open_home(context, url):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    check(page.url.split("?")[0].endswith(":%s/" % url.split(":")[2].split("/")[0]), "the address did not open the home page: %s" % page.url)
    page.wait_for_function("() => document.body.dataset.ready === 'yes'", timeout=20000)
    return page, errors


def home(h, browser, url):
    groceries = json.loads(h.ctl("collection", "create", "Groceries", "--kind", "list", "--json"))["id"]
    for text in ["Milk", "Eggs"]:
        h.ctl("item", "add", "Groceries", text)
    h.ctl("collection", "create", "House", "--kind", "plan")
    paint = json.loads(h.ctl("item", "add", "House", "Paint", "--json"))["id"]
    h.ctl("item", "add", "House", "Buy rollers", "--parent", paint)

    context = browser.new_context(viewport={"width": 1000, "height": 760})
    page, errors = open_home(context, url)
    check(page.get_by_role("heading", name="Offload").count() == 1, "no Offload heading")
    progress = page.locator("#photos-progress").inner_text()
    check(progress == "0 of 24 photos decided · 24 to go", "progress: %r" % progress)
    check(page.get_by_role("link", name="Cull photos").count() == 1, "no link to the photos")
    lists = page.get_by_role("list", name="Lists and plans")
    names = lists.get_by_role("link").all_inner_texts()
    check(any(n.startswith("Groceries") and "list · 2 items" in n for n in names), "lists: %s" % names)
    check(any(n.startswith("House") and "plan · 2 items" in n for n in names), "lists: %s" % names)
    check(any(n.startswith("Inbox") for n in names), "no inbox: %s" % names)
    print("ok: home: the session's progress, a link to the photos, the lists and plans")

    lists.get_by_role("link", name="Groceries").click()
    page.wait_for_url("**/collections/" + groceries)
    page.get_by_role("link", name="Home").click()
    page.wait_for_url(url.split("/?")[0] + "/")
    for path in PAGES + ["/collections/" + groceries]:
        page.goto(url.split("/?")[0] + path)
        home_link = page.get_by_role("link", name="Home", exact=True)
        check(home_link.count() == 1 and home_link.get_attribute("href") == "/", "%s has no link home" % path)
        check(page.locator('link[rel="manifest"]').count() == 1, "%s does not link the manifest" % path)
        check(page.locator('link[rel="apple-touch-icon"]').count() == 1, "%s has no apple-touch-icon" % path)
    print("ok: every page links home, the manifest and the apple-touch-icon")

    h.ctl("photos", "swipe", "left")
    h.ctl("photos", "swipe", "up")
    page.goto(url.split("/?")[0] + "/")
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    progress = page.locator("#photos-progress").inner_text()
    check(progress == "2 of 24 photos decided · 22 to go · 2 to commit", "progress after two decisions: %r" % progress)
    check(page.get_by_role("link", name="Continue culling").count() == 1, "no Continue link")
    check(page.get_by_role("link", name="Review and commit").is_visible(), "no review link")
    page.screenshot(path=os.path.join(h.out, "home-desktop.png"))
    print("ok: home: the progress follows the session")

    manifest(h, context, page)
    font_size(page)
    check(not errors, "page errors: %s" % errors)
    context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page, errors = open_home(phone, url)
    page.screenshot(path=os.path.join(h.out, "home-phone.png"))
    page.get_by_role("link", name="Continue culling").tap()
    page.wait_for_url("**/photos")
    page.wait_for_function("() => document.body.dataset.ready === '2'", timeout=20000)
    page.screenshot(path=os.path.join(h.out, "phone-deck-home-link.png"))
    check(not errors, "phone page errors: %s" % errors)
    phone.close()


def png_size(data):
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    return struct.unpack(">II", data[16:24])


def manifest(h, context, page):
    cdp = context.new_cdp_session(page)
    answer = cdp.send("Page.getAppManifest")
    check(answer.get("errors") == [], "manifest errors: %s" % answer.get("errors"))
    check(answer["url"].endswith("/manifest.webmanifest"), "manifest address: %s" % answer["url"])
    data = json.loads(answer["data"])
    check(data["name"] == "Offload" and data["display"] == "standalone" and data["start_url"] == "/", "manifest: %s" % data)
    check(data["theme_color"].startswith("#"), "no theme colour: %s" % data)
    icons = {(i["sizes"], i.get("purpose", "any")): i["src"] for i in data["icons"]}
    for key in [("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]:
        check(key in icons, "no %s icon: %s" % (key, icons))
        response = context.request.get(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + icons[key])
        check(response.status == 200 and response.headers["content-type"] == "image/png", "%s: %s" % (icons[key], response.status))
        size = int(key[0].split("x")[0])
        check(png_size(response.body()) == (size, size), "%s is not %dx%d" % (icons[key], size, size))
    touch = context.request.get(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + "/assets/apple-touch-icon.png")
    check(touch.status == 200 and png_size(touch.body()) == (180, 180), "apple-touch-icon: %s" % touch.status)
    installable = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    print("ok: the manifest parses with no error; icons 192, 512, maskable 512 and 180 load at their sizes"
          " (Chromium's installability notes: %s)" % ([e["errorId"] for e in installable] or "none"))


def font_size(page):
    sizes = page.evaluate("""() => {
        const read = () => ['.title', '#photos-progress', '.home-row .about'].map(s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize));
        const before = read();
        document.documentElement.style.fontSize = '24px';
        const after = read();
        document.documentElement.style.fontSize = '';
        return [before, after];
    }""")
    before, after = sizes
    for b, a in zip(before, after):
        check(abs(a / b - 1.5) < 0.02, "text does not follow the root font size: %s -> %s" % (before, after))
    print("ok: text sizes follow the browser's font size (%s px -> %s px)" % (before, after))


def demo(h, browser):
    server = subprocess.Popen([h.offloadctl, "serve", "--demo", "--port", "0"], env=h.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        check(url.startswith("http://127.0.0.1:"), "demo: first line is not the address: %r" % url)
        context = browser.new_context(viewport={"width": 900, "height": 820})
        page, errors = open_home(context, url)
        names = page.get_by_role("list", name="Lists and plans").get_by_role("link").all_inner_texts()
        for name, about in [("Inbox", "inbox · 2 items"), ("Groceries", "list · 6 items"), ("House", "plan · 8 items"), ("Trip", "plan · 10 items")]:
            check(any(n.startswith(name) and about in n for n in names), "demo: no %s (%s): %s" % (name, about, names))
        check(page.locator("#photos-progress").inner_text().startswith("0 of 24"), "demo: photos")
        page.screenshot(path=os.path.join(h.out, "web-home.png"))
        page.get_by_role("link", name="Trip").click()
        page.wait_for_function("() => document.querySelectorAll('[role=treeitem]').length >= 10", timeout=20000)
        page.screenshot(path=os.path.join(h.out, "web-demo-trip.png"))
        check(not errors, "demo page errors: %s" % errors)
        context.close()
        for name, options, (dx, dy) in (("web-deck-overlay-trash.png", {}, (-0.35, 0)),
                                        ("web-deck-overlay-contrast.png", {"contrast": "more"}, (0, -0.22))):
            context = browser.new_context(viewport={"width": 900, "height": 700}, **options)
            page = context.new_page()
            page.goto(url.replace("/?token=", "/photos?token="))
            page.wait_for_function("() => /^[0-9]+$/.test(document.body.dataset.ready || '') && document.getElementById('photo').complete")
            if not options:  # a blue-green photo, against which the red tint reads
                for _ in range(11):
                    page.keyboard.press("ArrowUp")
                page.wait_for_function("() => document.body.dataset.ready === '11' && document.body.dataset.queue === 'idle'"
                                       " && document.getElementById('photo').complete")
            x, y = press_and_drag(page, dx, dy)
            page.screenshot(path=os.path.join(h.out, name))
            page.mouse.move(x, y)
            time.sleep(0.2)
            page.mouse.up()
            context.close()
    finally:
        server.terminate()
        code = server.wait(timeout=20)
    check(code == 0, "demo: exit status %d after SIGTERM" % code)
    print("ok: serve --demo holds the inbox, a list, a nested plan and an itinerary beside the photos")


def main():
    return run([home, lambda h, browser, url: demo(h, browser)], "PASS: browser home tests")


if __name__ == "__main__":
    sys.exit(main())
