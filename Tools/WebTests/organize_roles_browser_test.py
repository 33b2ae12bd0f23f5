#!/usr/bin/env python3
"""Sets a row's role from a plan's page in Chromium (Playwright) and checks the rule it makes.

A plan with one day header ("Boston", set by `offloadctl item add --role day`) holding a
travel segment on day 1 ("Drive", `--role segment:1-1`), and a second root row ("New York")
holding "Museum", with no role. On the page, the row's Role button opens the Role menu; Day
header is chosen for "New York". `offloadctl collection show --json` then shows the role
stored. A drag of "Drive" onto "Museum" (day 2 now) is refused, and the page's alert carries
the same reason `offloadctl item move DRIVE --into NEWYORK` gives. A bad segment (days 3–1), chosen from the keyboard (R on the focused row),
is refused with the library parser's reason, as `offloadctl item edit --role segment:3-1`.
Elements are found by role and accessible name.

Usage: organize_roles_browser_test.py --offloadctl PATH --work DIR --out DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when Chromium
or Playwright is missing.
"""
import argparse
import json
import os
import sys

sys.dont_write_bytecode = True  # importing the organize test leaves no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from organize_browser_test import (CHROMIUM, Failure, Harness, check, drag_handle, drop, eventually,  # noqa: E402
                                   open_page, row, wait_rows)
from playwright.sync_api import sync_playwright  # noqa: E402


class RolesHarness(Harness):
    def seed(self):
        # The free rows first: a free row may not be added beside a day header.
        self.create("Trip", "plan")
        self.add("Trip", "New York")
        self.add("Trip", "Museum", parent="New York")
        self.ids["Boston"] = json.loads(self.ctl("item", "add", "Trip", "Boston", "--role", "day", "--first",
                                                 "--json"))["id"]
        self.ids["Drive"] = json.loads(self.ctl("item", "add", "Trip", "Drive", "--parent", self.ids["Boston"],
                                                "--role", "segment:1-1", "--json"))["id"]

    def roles(self):
        items = json.loads(self.ctl("collection", "show", "Trip", "--json"))["items"]
        return {item["text"]: item.get("role") for item in items}

    def refusal(self, *arguments):
        """What `offloadctl ARGUMENTS` says when it refuses (its first stderr line, without the
        `Error: ` or `offloadctl: error: ` in front)."""
        import subprocess
        result = subprocess.run([self.offloadctl, *arguments], env=self.env, capture_output=True, text=True,
                                timeout=60)
        check(result.returncode != 0, "offloadctl %s was not refused" % " ".join(arguments))
        line = result.stderr.strip().splitlines()[0]
        return line.removeprefix("Error: ").removeprefix("offloadctl: error: ")


def choose_role(page, name, choice, days=None, keyboard=False):
    """Opens NAME's Role menu (its Role button, or R on the focused row) and sets CHOICE."""
    if keyboard:
        row(page, name).focus()
        page.keyboard.press("r")
    else:
        row(page, name).get_by_role("button", name="Role of " + name, exact=True).click()
    menu = page.get_by_role("dialog", name="Role of " + name, exact=True)
    menu.get_by_role("combobox", name="Role").select_option(label=choice)
    if days:
        menu.get_by_role("spinbutton", name="From day").fill(str(days[0]))
        menu.get_by_role("spinbutton", name="to day").fill(str(days[1]))
    menu.get_by_role("button", name="Set role", exact=True).click()
    return menu


def run(h, context, url):
    page, errors = open_page(context, url, "/collections/" + h.collection_ids["Trip"])
    wait_rows(page)
    check(h.roles().get("New York") is None, "New York has a role before the menu: %r" % h.roles())
    menu = choose_role(page, "New York", "Day header")
    menu.wait_for(state="detached")
    eventually("the role is stored", lambda: h.roles().get("New York") == "day" or h.roles())
    print("ok: Role menu: Day header stored for New York (%r)" % h.roles())
    page.screenshot(path=os.path.join(h.out, "desktop-role-set.png"))

    before = h.ctl("collection", "show", "Trip", "--json")
    reason = h.refusal("item", "move", h.ids["Drive"], "--into", h.ids["New York"])
    museum = row(page, "Museum").bounding_box()
    drag_handle(page, "Drive", museum["x"] + 80, museum["y"] + museum["height"] * 0.8)
    drop(page)
    alert = page.locator("#message")
    eventually("the refusal says why", lambda: reason in alert.inner_text() or
               "%r (plan %s)" % (alert.inner_text(), h.ctl("collection", "show", "Trip")))
    check(h.ctl("collection", "show", "Trip", "--json") == before, "a refused drop changed the plan")
    print("ok: a drop refused by the new day header says the CLI's reason: %r" % reason)
    page.screenshot(path=os.path.join(h.out, "desktop-role-refused.png"))

    bad = h.refusal("item", "edit", h.ids["Museum"], "--role", "segment:3-1").removeprefix("--role ")
    menu = choose_role(page, "Museum", "Segment on days…", days=(3, 1), keyboard=True)
    eventually("a bad segment says why", lambda: bad in alert.inner_text() or alert.inner_text())
    page.keyboard.press("Escape")
    menu.wait_for(state="detached")
    check(h.roles().get("Museum") is None, "a refused role was stored: %r" % h.roles())
    print("ok: a bad segment is refused with the parser's reason: %r" % bad)
    # The refused role's 400 is logged by the browser; nothing else may be.
    errors = [error for error in errors if "status of 400" not in error]
    check(not errors, "page errors: %s" % errors)
    context.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    h = RolesHarness(args.offloadctl, args.work, args.out)
    url = h.serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            run(h, browser.new_context(viewport={"width": 1280, "height": 800}), url)
            browser.close()
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        return 1
    finally:
        h.stop()
    print("PASS: browser role tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
