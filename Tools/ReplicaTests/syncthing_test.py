#!/usr/bin/env python3
"""One store on two devices, carried by two real Syncthing daemons: nothing lost (issue 28).

The scenario: the laptop creates a list Trip (Hotel, Tickets, Pack) and Syncthing carries it
to the phone. Nobody runs `offloadctl store share`: the store is shared on the laptop's first
command because Syncthing's `.stfolder` is in the store folder, and the phone joins it as it
arrives. The phone's daemon stops. The laptop adds "Passport" and moves "Pack" first;
the phone adds "Sunscreen" and ticks "Hotel". The phone's daemon starts again and the folders
meet. Then both devices must show all four edits, byte for byte the same
`collection show --json`, no `*.sync-conflict-*` file anywhere, and a clean `store verify`.
Each device runs offloadctl with its own XDG_STATE_HOME and OFFLOAD_DEVICE_NAME.

Usage: syncthing_test.py --offloadctl PATH --work DIR [--keep]
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when syncthing is
not installed (apt-get install syncthing).
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
from syncthing_pair import check, conflict_copies, script_main

COLLECTION = "Trip"
# Pack moved first, Hotel ticked, Passport and Sunscreen added.
EXPECTED = ["Pack", "Hotel", "Tickets", "Passport", "Sunscreen"]


def texts(items):
    return [item["text"] for item in items]


def scenario(pair):
    laptop, phone = pair.a, pair.b
    # No `store share`: Syncthing's .stfolder in the store folder makes the new store shared
    # on the first command, before it writes, and that command says so on stderr.
    created = laptop.run("collection", "create", COLLECTION, "--kind", "list")
    check(created.returncode == 0, "laptop: collection create exited %d: %s" % (
        created.returncode, created.stderr))
    shared = "found Syncthing's .stfolder in %s" % laptop.store
    check(shared in created.stderr and "now shared between devices" in created.stderr,
          "laptop: the first command did not say the store is now shared (%r)" % created.stderr)
    check(os.path.isdir(os.path.join(laptop.store, "replicas")),
          "laptop: the store has no replicas/ folder after its first command")
    print("ok: the laptop's first command shared the store: %s" % created.stderr.splitlines()[0])
    for text in ["Hotel", "Tickets", "Pack"]:
        added = laptop.run("item", "add", COLLECTION, text)
        check(added.returncode == 0 and "now shared" not in added.stderr,
              "laptop: item add %s: %d %r" % (text, added.returncode, added.stderr))
    check(not [n for n in os.listdir(laptop.store) if n.startswith("changes.")],
          "laptop: the single-writer journal was written at the store's root")
    seconds = pair.wait_in_sync("the new list reaches the phone")
    first = phone.run("collection", "show", COLLECTION, "--json")
    check(first.returncode == 0, "phone: collection show exited %d: %s" % (
        first.returncode, first.stderr))
    check("now shared" not in first.stderr,
          "phone: a store that arrived shared was shared again: %r" % first.stderr)
    check(texts(json.loads(first.stdout)["items"]) == ["Hotel", "Tickets", "Pack"],
          "the phone shows %r before the edits" % texts(json.loads(first.stdout)["items"]))
    print("ok: the list reached the phone in %.1f s, shared already" % seconds)

    pair.daemon_b.stop()
    print("ok: the phone's daemon stopped")
    laptop.ctl("item", "add", COLLECTION, "Passport")
    laptop.ctl("item", "move", laptop.item_id(COLLECTION, "Pack"), "--first")
    phone.ctl("item", "add", COLLECTION, "Sunscreen")
    phone.ctl("item", "done", phone.item_id(COLLECTION, "Hotel"))
    check(texts(laptop.items(COLLECTION)) == ["Pack", "Hotel", "Tickets", "Passport"],
          "the laptop's own edits: %r" % texts(laptop.items(COLLECTION)))
    print("ok: apart, the laptop added Passport and moved Pack first; the phone added Sunscreen "
          "and ticked Hotel")

    pair.daemon_b.start()
    seconds = pair.wait_in_sync("the folders meet again")
    print("ok: the folders met in %.1f s" % seconds)

    # Every check runs, so a failure lists everything that went wrong, not just the first.
    problems = []
    shown = {}
    for device in (laptop, phone):
        result = device.run("collection", "show", COLLECTION, "--json")
        check(result.returncode == 0, "%s: collection show exited %d: %s" % (
            device.name, result.returncode, result.stderr))
        shown[device.name] = result.stdout
        # The one line on stderr is the merge report: the other device's two edits.
        report = "offloadctl: 2 changes from %s" % ("phone" if device is laptop else "laptop")
        if result.stderr.strip() != report:
            problems.append("%s: collection show says %r, not the merge report %r" % (
                device.name, result.stderr.strip(), report))
    for device in (laptop, phone):
        document = json.loads(shown[device.name])
        items = document["items"]
        if document.get("repairs"):
            problems.append("%s: collection show repairs the merged list: %s" % (
                device.name, document["repairs"]))
        by_text = {item["text"]: item for item in items}
        missing = [text for text in EXPECTED if text not in by_text]
        if missing:
            problems.append("%s lost %s: it shows %r" % (device.name, missing, texts(items)))
        if not items or items[0]["text"] != "Pack":
            problems.append("%s lost the move of Pack: it shows %r" % (device.name, texts(items)))
        if "Hotel" in by_text and by_text["Hotel"]["done"] is not True:
            problems.append("%s lost the tick of Hotel" % device.name)
        if len(items) != len(EXPECTED):
            problems.append("%s shows %d items: %r" % (device.name, len(items), texts(items)))
        ids = [item["id"] for item in items]
        if len(set(ids)) != len(ids):
            problems.append("%s shows one id for two items: %r" % (device.name, ids))
    if shown[laptop.name] != shown[phone.name]:
        problems.append("collection show --json differs:\n--- %s\n%s\n--- %s\n%s" % (
            laptop.name, shown[laptop.name], phone.name, shown[phone.name]))
    copies = conflict_copies(laptop.store) + conflict_copies(phone.store)
    if copies:
        problems.append("Syncthing made conflict copies: %s" % copies)
    for device in (laptop, phone):
        result = device.run("store", "verify")
        if result.returncode != 0:
            problems.append("%s: store verify exited %d: %s%s" % (
                device.name, result.returncode, result.stdout, result.stderr))
        else:
            summary = result.stdout.strip().splitlines()[-1]
            if "%d items" % len(EXPECTED) not in summary:
                problems.append("%s: store verify counts other than the %d items shown: %s" % (
                    device.name, len(EXPECTED), summary))
            print("ok: %s: store verify: %s" % (device.name, summary))
    check(not problems, "after the folders met:\n  " + "\n  ".join(problems))
    print("ok: both devices show all four edits, byte for byte the same, no conflict copy: %s"
          % texts(json.loads(shown[laptop.name])["items"]))


def main():
    return script_main(scenario, "syncthing end to end")


if __name__ == "__main__":
    sys.exit(main())
