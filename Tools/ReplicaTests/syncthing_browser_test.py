#!/usr/bin/env python3
"""An organize page open on one device shows another device's change once Syncthing carries it.

Two devices share one store through two Syncthing daemons on 127.0.0.1 (syncthing_pair.py).
The laptop serves its store (`offloadctl serve`) and Chromium (through Playwright) opens the
list Trip. The phone's daemon stops; on the page the laptop adds "Passport"; on the phone,
offloadctl adds "Sunscreen" and ticks "Hotel". The phone's daemon starts again. Without a
reload (a marker set in the page's window must survive) the page then shows Sunscreen, Hotel
ticked and its own Passport, and the laptop's offloadctl agrees.

Usage: syncthing_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when syncthing,
Chromium or Playwright is missing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository
from syncthing_pair import SYNCTHING, Failure, check, eventually, run_pair

COLLECTION = "Trip"


def serve(device):
    """Starts `offloadctl serve` on the device's store; returns the process and its address."""
    server = subprocess.Popen([device.offloadctl, "serve", "--port", "0"], env=device.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    check(url.startswith("http://127.0.0.1:") and "?token=" in url,
          "serve's first line is not its address: %r (%s)" % (url, server.poll()))
    return server, url


def open_list(context, url, collection_id):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "409" not in m.text else None)
    base, token = url.split("/?token=")
    page.goto("%s/collections/%s?token=%s" % (base, collection_id, token))
    page.wait_for_function("() => document.body.dataset.connected === 'true'", timeout=20000)
    page.wait_for_function("() => document.getElementById('rows').children.length > 0", timeout=20000)
    return page, errors


def row(page, name):
    return page.get_by_role("treeitem", name=name, exact=True).or_(page.get_by_role("listitem", name=name, exact=True))


def page_rows(page):
    """The rows the page shows, by accessible name."""
    return page.locator("#rows > *").evaluate_all(
        "rows => rows.map(r => r.getAttribute('aria-label') || r.textContent.trim())")


def scenario(pair, page_context, out):
    laptop, phone = pair.a, pair.b
    collection_id = json.loads(laptop.ctl("collection", "create", COLLECTION, "--kind", "list", "--json"))["id"]
    for text in ["Hotel", "Tickets", "Pack"]:
        laptop.ctl("item", "add", COLLECTION, text)
    # No `store share`: Syncthing's .stfolder made the store shared on its first command.
    check(os.path.isdir(os.path.join(laptop.store, "replicas")),
          "laptop: the store in Syncthing's folder was not shared on its first command")
    pair.wait_in_sync("the new list reaches the phone")
    print("ok: the list reached the phone")

    server, url = serve(laptop)
    try:
        page, errors = open_list(page_context, url, collection_id)
        page.evaluate("() => { window.__sameDocument = true }")
        pair.daemon_b.stop()
        print("ok: the phone's daemon stopped")
        page.get_by_label("New item").fill("Passport")
        page.keyboard.press("Enter")
        row(page, "Passport").wait_for(timeout=10000)
        eventually("the page's Passport is saved on the laptop",
                   lambda: "Passport" in [i["text"] for i in laptop.items(COLLECTION)], timeout=10)
        phone.ctl("item", "add", COLLECTION, "Sunscreen")
        phone.ctl("item", "done", phone.item_id(COLLECTION, "Hotel"))
        check(row(page, "Sunscreen").count() == 0, "the page shows Sunscreen before the folders met")
        print("ok: apart, the page added Passport on the laptop; the phone added Sunscreen and ticked Hotel")

        pair.daemon_b.start()
        seconds = pair.wait_in_sync("the folders meet again")
        print("ok: the folders met in %.1f s" % seconds)
        started = time.time()
        try:
            row(page, "Sunscreen").wait_for(timeout=15000)
        except Exception:
            raise Failure("the page does not show the phone's Sunscreen 15 s after the folders met; "
                          "the laptop's offloadctl shows %r; the page shows %r" % (
                              [i["text"] for i in laptop.items(COLLECTION)],
                              page_rows(page)))
        print("ok: the page shows the phone's Sunscreen %.1f s after the folders met" % (time.time() - started))
        # The push that brought it says what arrived and from which device, in the status area.
        status = page.get_by_role("status").first
        eventually("the page's status names the phone's changes",
                   lambda: re.match(r"Updated: [12] changes? from ", status.text_content() or "")
                   is not None or (status.text_content() or "(empty)"), timeout=10)
        print("ok: the page's status says %r" % status.text_content())
        hotel = page.get_by_role("checkbox", name="Done: Hotel")
        eventually("the page shows Hotel ticked", lambda: hotel.is_checked() or "not ticked", timeout=10)
        check(row(page, "Passport").count() == 1, "the page lost its own Passport: %r" % (
            page_rows(page)))
        check(page.evaluate("() => window.__sameDocument === true"), "the page was reloaded")
        print("ok: without a reload the page shows Sunscreen, Hotel ticked and its own Passport")
        texts = [i["text"] for i in laptop.items(COLLECTION)]
        check(sorted(texts) == sorted(["Hotel", "Tickets", "Pack", "Passport", "Sunscreen"]),
              "the laptop's offloadctl shows %r" % texts)
        os.makedirs(out, exist_ok=True)
        page.screenshot(path=os.path.join(out, "replica-page.png"))
        check(not errors, "page errors: %s" % errors)
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=20)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    missing = [name for name, present in [("syncthing", SYNCTHING), ("chromium", chromium),
                                          ("playwright for Python", sync_playwright)] if not present]
    if missing:
        print("SKIP: %s not installed" % ", ".join(missing), file=sys.stderr)
        return 77
    def body(pair):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            try:
                scenario(pair, browser.new_context(viewport={"width": 1280, "height": 800}), args.out)
            finally:
                browser.close()
    return run_pair(args.offloadctl, args.work, body, "syncthing in the browser")

if __name__ == "__main__":
    sys.exit(main())
