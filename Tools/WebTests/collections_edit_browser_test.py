#!/usr/bin/env python3
"""The collections list's edit mode, in Chromium (the seeds' collections pattern).

Against the built `offloadctl serve` with three lists made through the CLI:

- A tap (a click, a touch tap) anywhere on a row opens the collection.
- Edit shows a checkmark on each list and plan (not the inbox) and the bottom toolbar; a tap
  toggles a checkmark; Delete removes the selected ones in one change, so one Undo brings
  them all back; Move up and Move down reorder the one selected; Done leaves edit mode.
  Each step is read back with `offloadctl collection list --json`.

Usage: collections_edit_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when Chromium
or Playwright is missing.
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deck_browser_test import check, run  # noqa: E402


def names(h):
    return [c["name"] for c in json.loads(h.ctl("collection", "list", "--json"))["collections"]]


def expect(h, step, wanted):
    found = names(h)
    check(found == wanted, "%s: the collections are %s, expected %s" % (step, found, wanted))
    print("ok: " + step)


def open_collections(context, url):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url.replace("/?token=", "/collections?token="))
    page.wait_for_function("() => document.querySelectorAll('#collections li').length >= 4", timeout=20000)
    return page, errors


def wait_rows(page, count):
    page.wait_for_function("n => document.querySelectorAll('#collections li').length === n && document.body.dataset.busy !== 'true'",
                           arg=count, timeout=20000)


def edit_mode(h, browser, url):
    for name in ["Alpha", "Beta", "Gamma"]:
        h.ctl("collection", "create", name, "--kind", "list")
    context = browser.new_context(viewport={"width": 1000, "height": 760})
    page, errors = open_collections(context, url)
    rows = page.get_by_role("list", name="Collections")

    # A tap on the row, beside its name, opens the collection.
    rows.get_by_role("listitem", name="Beta").locator(".about").click()
    page.wait_for_url("**/collections/*")
    # The page draws its heading once its script has the collection: wait for it, not the URL.
    try:
        page.get_by_role("heading", name="Beta").wait_for(timeout=10000)
    except Exception:
        pass
    check(page.get_by_role("heading", name="Beta").count() == 1, "the tap did not open Beta: %s" % page.url)
    page.go_back()
    wait_rows(page, 4)
    print("ok: a tap anywhere on a row opens the collection")

    page.get_by_role("button", name="Edit").click()
    toolbar = page.get_by_role("toolbar", name="Selected collections")
    check(toolbar.is_visible(), "edit mode shows no toolbar")
    check(rows.get_by_role("button", name="Delete Alpha").count() == 0, "edit mode still shows the row's Delete")
    rows.get_by_role("listitem", name="Alpha").click()
    rows.get_by_role("listitem", name="Gamma").click()
    check(rows.get_by_role("listitem", name="Alpha").get_attribute("aria-selected") == "true", "Alpha is not ticked")
    check(rows.get_by_role("listitem", name="Beta").get_attribute("aria-selected") == "false", "Beta is ticked")
    check(rows.get_by_role("listitem", name="Inbox").get_attribute("aria-selected") is None, "the inbox can be ticked")
    check(toolbar.get_by_text("2 selected").count() == 1, "the toolbar does not count 2")
    check(page.url.endswith("/collections"), "a tap in edit mode navigated: %s" % page.url)
    page.screenshot(path=os.path.join(h.out, "collections-edit.png"))
    toolbar.get_by_role("button", name="Delete").click()
    wait_rows(page, 2)
    expect(h, "edit mode: Delete removes the two ticked lists in one change", ["Inbox", "Beta"])
    check(page.get_by_role("button", name="Edit").get_attribute("aria-pressed") == "false", "Delete did not leave edit mode")
    page.get_by_role("button", name="Undo").click()
    wait_rows(page, 4)
    expect(h, "one Undo brings both back", ["Inbox", "Alpha", "Beta", "Gamma"])

    page.get_by_role("button", name="Edit").click()
    rows.get_by_role("listitem", name="Alpha").click()
    check(toolbar.get_by_role("button", name="Move up").is_disabled(), "the first list can move up")
    toolbar.get_by_role("button", name="Move down").click()
    page.wait_for_function("() => document.querySelectorAll('#collections li')[2].dataset.id && document.body.dataset.busy !== 'true'")
    expect(h, "edit mode: Move down reorders the ticked list", ["Inbox", "Beta", "Alpha", "Gamma"])
    page.get_by_role("button", name="Done").click()
    check(toolbar.is_hidden(), "Done does not hide the toolbar")
    check(rows.get_by_role("button", name="Delete Alpha").count() == 1, "Done does not bring the row's buttons back")
    print("ok: Done leaves edit mode")
    check(not errors, "page errors: %s" % errors)
    context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page, errors = open_collections(phone, url)
    rows = page.get_by_role("list", name="Collections")
    page.get_by_role("button", name="Edit").tap()
    rows.get_by_role("listitem", name="Gamma").tap()
    check(rows.get_by_role("listitem", name="Gamma").get_attribute("aria-selected") == "true", "a touch tap does not tick")
    page.screenshot(path=os.path.join(h.out, "phone-collections-edit.png"))
    page.get_by_role("button", name="Done").tap()
    rows.get_by_role("listitem", name="Gamma").locator(".about").tap()
    page.wait_for_url("**/collections/*")
    print("ok: phone: a tap ticks in edit mode and opens outside it")
    check(not errors, "phone page errors: %s" % errors)
    phone.close()


def main():
    return run([edit_mode], "PASS: browser collections edit tests")


if __name__ == "__main__":
    sys.exit(main())
