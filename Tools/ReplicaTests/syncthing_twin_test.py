#!/usr/bin/env python3
"""A device's identity copied to a second device, carried by two real Syncthing daemons (issue 28).

The scenario: the laptop creates a list Trip (Hotel, Tickets) and Syncthing carries the store
to the second device. Before that device runs anything, the laptop's state folder is copied
onto it (its identity for the store put under the key of the second device's store path, as a
home folder restored from the laptop's backup brings it): both now hold one replica id and one
claim token. The second device's daemon stops; the laptop adds "Passport"; the second device
adds "Sunscreen" and ticks "Hotel", and its first command must say, in one line, that it now
writes as a new replica id, and exit 0. The daemon starts again and the folders meet. Then both
devices must show all four edits, byte for byte the same `collection show --json`, the old
replica id's folder written by the laptop alone, and no `*.sync-conflict-*` file anywhere.

Usage: syncthing_twin_test.py --offloadctl PATH --work DIR
Exit status 0 when every check passed; 1 with the failed check on stderr; 77 when syncthing is
not installed (apt-get install syncthing).
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
from syncthing_pair import check, conflict_copies, script_main

COLLECTION = "Trip"
EXPECTED = ["Hotel", "Passport", "Sunscreen", "Tickets"]


def identity_key(path):
    """The identity file's name for a store's real path, as DeviceIdentityStore.key makes it."""
    value = 0xCBF29CE484222325
    for byte in path.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    base = path.rstrip("/").split("/")[-1] or "store"
    safe = "".join(c for c in base if c.isascii() and (c == "-" or c.isalnum()))[:32]
    return "%s-%016x" % (safe or "store", value)


def copy_identity(source, target):
    """Puts `source`'s identity for its store into `target`'s state folder, keyed by `target`'s
    store path: the identity a restored home folder brings."""
    folder = os.path.join(source.home, "state", "offload", "replicas")
    names = [name for name in os.listdir(folder) if name.endswith(".json")]
    check(len(names) == 1, "%s: expected one identity file, found %r" % (source.name, names))
    with open(os.path.join(folder, names[0])) as file:
        document = json.load(file)
    store = os.path.realpath(target.store)
    document["data"]["store"] = store
    replicas = os.path.join(target.home, "state", "offload", "replicas")
    os.makedirs(replicas, exist_ok=True)
    with open(os.path.join(replicas, identity_key(store) + ".json"), "w") as file:
        json.dump(document, file)
    return document["data"]["replica"]


def replica_ids(store):
    folder = os.path.join(store, "replicas")
    # A replica id is lowercase letters and digits; one made of digits only is one too.
    return sorted(name for name in os.listdir(folder) if re.fullmatch(r"[0-9a-z]+", name))


def scenario(pair):
    laptop, twin = pair.a, pair.b
    laptop.ctl("collection", "create", COLLECTION, "--kind", "list")
    for text in ["Hotel", "Tickets"]:
        laptop.ctl("item", "add", COLLECTION, text)
    pair.wait_in_sync("the new list reaches the second device")
    old = copy_identity(laptop, twin)
    print("ok: the laptop's identity (replica %s) copied onto the second device" % old)

    pair.daemon_b.stop()
    laptop.ctl("item", "add", COLLECTION, "Passport")
    first = twin.run("item", "add", COLLECTION, "Sunscreen")
    check(first.returncode == 0, "twin: item add exited %d: %s" % (first.returncode, first.stderr))
    lines = [line for line in first.stderr.splitlines() if "now writes as" in line]
    check(len(lines) == 1, "twin: its first command did not say it moves: %r" % first.stderr)
    new = [replica for replica in replica_ids(twin.store) if replica != old]
    check(len(new) == 1, "twin: expected one new replica folder, found %r" % replica_ids(twin.store))
    check(lines[0].startswith("offloadctl: this device (laptop) now writes as %s instead of %s:"
                              % (new[0], old)), "twin: the line names the wrong ids: %r" % lines[0])
    print("ok: the second device's first command said: %s" % lines[0])
    twin.ctl("item", "done", twin.item_id(COLLECTION, "Hotel"))
    again = twin.run("collection", "show", COLLECTION)
    check("now writes as" not in again.stderr, "twin: moved twice: %r" % again.stderr)

    pair.daemon_b.start()
    seconds = pair.wait_in_sync("the folders meet again")
    print("ok: the folders met in %.1f s" % seconds)

    problems = []
    shown = {}
    for device in (laptop, twin):
        document = json.loads(device.show(COLLECTION))
        shown[device.name] = json.dumps(document, sort_keys=True)
        texts = sorted(item["text"] for item in document["items"])
        if texts != EXPECTED:
            problems.append("%s shows %r, not %r" % (device.name, texts, EXPECTED))
        hotel = [item for item in document["items"] if item["text"] == "Hotel"]
        if not hotel or hotel[0]["done"] is not True:
            problems.append("%s lost the tick of Hotel" % device.name)
    if shown[laptop.name] != shown[twin.name]:
        problems.append("collection show --json differs:\n%s\n%s" % (
            shown[laptop.name], shown[twin.name]))
    copies = conflict_copies(laptop.store) + conflict_copies(twin.store)
    if copies:
        problems.append("Syncthing made conflict copies: %s" % copies)
    for device in (laptop, twin):
        if replica_ids(device.store) != sorted([old, new[0]]):
            problems.append("%s holds replica folders %r" % (device.name, replica_ids(device.store)))
    check(not problems, "after the folders met:\n  " + "\n  ".join(problems))
    print("ok: both devices show all four edits, byte for byte the same, no conflict copy")


def main():
    return script_main(scenario, "syncthing twin")


if __name__ == "__main__":
    sys.exit(main())
