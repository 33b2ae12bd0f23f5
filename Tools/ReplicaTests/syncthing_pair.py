#!/usr/bin/env python3
"""Two Syncthing daemons on 127.0.0.1 sharing one folder each, and two offloadctl devices.

A test harness, not a tool for users. Each side (device) has a home of its own under the work
folder: `store/` (the Offload store, the folder Syncthing shares), `state/` (the device's
XDG_STATE_HOME, where offloadctl keeps the device identity) and `syncthing/` (the daemon's
home: config.xml, keys, database, log). Everything stays on the loopback interface: the GUI
and REST API on 127.0.0.1:<free port>, the sync protocol on tcp://127.0.0.1:<free port>;
global and local discovery, relays, NAT traversal, STUN, usage reporting, crash reporting and
upgrades are off. The devices know each other by static address and share one folder (the
store), rescanned every 2 s and watched (fsWatcher, 1 s delay).

`Pair.wait_in_sync()` asks each daemon to scan, then polls the REST API until both are idle,
connected, need nothing and see the other at 100 %, and the two store folders hold the same
files with the same bytes (Syncthing's own marker left out) on two polls in a row.
"""
import argparse
import copy
import ctypes
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

FOLDER_ID = "offload-store"
SYNCTHING = shutil.which("syncthing")


class Failure(Exception):
    """A check that did not hold; the message says what and where."""


def stop_on_sigterm():
    """Turns SIGTERM (a test runner's time limit) into a Failure, so `finally` stops the daemons."""
    def handler(signum, frame):
        raise Failure("stopped by SIGTERM (out of time)")
    signal.signal(signal.SIGTERM, handler)


def die_with_parent():
    """In a child before exec: SIGTERM when the harness dies (PR_SET_PDEATHSIG), so no daemon
    outlives a killed harness."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def eventually(step, condition, timeout):
    """Polls `condition` (True when done, else something that says why not) until `timeout`."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            last = condition()
        except Failure as failure:
            last = str(failure)
        if last is True:
            return
        time.sleep(0.2)
    raise Failure("%s: not true after %.0f s (%s)" % (step, timeout, last))


def is_sync_engine_file(name):
    """Names Syncthing leaves in a synced folder (decision 0010's list, Syncthing's part)."""
    return name in (".stfolder", ".stignore", ".stversions") or \
        (name.startswith(".syncthing.") and name.endswith(".tmp")) or \
        (name.startswith("~syncthing~") and name.endswith(".tmp")) or ".sync-conflict-" in name


def folder_files(root):
    """Every file under `root` (relative path -> SHA-256), Syncthing's marker folder left out."""
    files = {}
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [s for s in subfolders if s != ".stfolder"]
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                files[os.path.relpath(path, root)] = hashlib.sha256(handle.read()).hexdigest()
    return files


def conflict_copies(root):
    """Paths under `root` whose names are a sync engine's conflict copies."""
    found = []
    for folder, _, names in os.walk(root):
        found += [os.path.join(folder, n) for n in names if ".sync-conflict-" in n]
    return sorted(found)


class Daemon:
    """One Syncthing daemon with a home of its own and a REST client for it."""

    def __init__(self, name, home, folder):
        self.name = name
        self.home = home
        self.folder = folder
        self.gui_port = free_port()
        self.listen_port = free_port()
        self.process = None
        self.log = None
        os.makedirs(home, exist_ok=True)
        result = subprocess.run([SYNCTHING, "generate", "--home=" + home, "--no-default-folder"],
                                capture_output=True, text=True, timeout=60)
        check(result.returncode == 0, "syncthing generate for %s failed: %s" % (name, result.stderr))
        self.config_path = os.path.join(home, "config.xml")
        tree = ET.parse(self.config_path)
        self.device_id = tree.getroot().find("device").get("id")
        self.api_key = tree.getroot().find("gui/apikey").text

    @property
    def address(self):
        return "tcp://127.0.0.1:%d" % self.listen_port

    def configure(self, peer):
        """Writes config.xml: loopback only, nothing outside, the store shared with `peer`."""
        tree = ET.parse(self.config_path)
        root = tree.getroot()
        gui = root.find("gui")
        gui.find("address").text = "127.0.0.1:%d" % self.gui_port
        options = root.find("options")
        for element in options.findall("listenAddress"):
            options.remove(element)
        listen = ET.SubElement(options, "listenAddress")
        listen.text = self.address
        settings = {
            "globalAnnounceEnabled": "false", "localAnnounceEnabled": "false", "relaysEnabled": "false",
            "natEnabled": "false", "urAccepted": "-1", "urSeen": "3", "autoUpgradeIntervalH": "0",
            "startBrowser": "false", "crashReportingEnabled": "false", "stunKeepaliveStartS": "0",
            "reconnectionIntervalS": "1", "restartOnWakeup": "false", "setLowPriority": "false",
            "progressUpdateIntervalS": "1",
        }
        for key, value in settings.items():
            element = options.find(key)
            if element is None:
                element = ET.SubElement(options, key)
            element.text = value
        own = root.find("device")
        own.set("name", self.name)
        own.find("address").text = self.address
        other = copy.deepcopy(root.find("defaults/device"))
        other.set("id", peer.device_id)
        other.set("name", peer.name)
        other.find("address").text = peer.address
        root.insert(list(root).index(own) + 1, other)
        folder = copy.deepcopy(root.find("defaults/folder"))
        folder.attrib.update({"id": FOLDER_ID, "label": "Offload store", "path": self.folder,
                              "rescanIntervalS": "2", "fsWatcherEnabled": "true", "fsWatcherDelayS": "1"})
        for device in folder.findall("device"):
            folder.remove(device)
        for device_id in (self.device_id, peer.device_id):
            shared = ET.Element("device", {"id": device_id, "introducedBy": ""})
            ET.SubElement(shared, "encryptionPassword")
            folder.insert(1, shared)
        root.insert(0, folder)
        tree.write(self.config_path)

    def start(self):
        check(self.process is None or self.process.poll() is not None, "%s is already running" % self.name)
        self.log = open(os.path.join(self.home, "syncthing.log"), "a")
        env = dict(os.environ, STNOUPGRADE="1", STNORESTART="1", STNODEFAULTFOLDER="1",
                   HOME=self.home)
        self.process = subprocess.Popen(
            [SYNCTHING, "serve", "--home=" + self.home, "--no-browser", "--no-restart", "--no-upgrade"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent)
        eventually("%s's REST API answers" % self.name, lambda: self.get("/rest/system/ping") == {"ping": "pong"},
                   timeout=60)

    def stop(self):
        """Shuts the daemon down through the API (SIGTERM if it does not exit) and waits."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self.post("/rest/system/shutdown")
            self.process.wait(timeout=20)
        except (Failure, OSError, subprocess.TimeoutExpired):
            self.process.terminate()
            self.process.wait(timeout=20)
        self.log.close()

    def request(self, method, path):
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.gui_port, path), method=method,
                                         headers={"X-API-Key": self.api_key})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                body = response.read()
        except urllib.error.HTTPError as error:
            raise Failure("%s %s on %s: HTTP %d %s" % (method, path, self.name, error.code, error.read()[:200]))
        except (urllib.error.URLError, ConnectionError, socket.timeout) as error:
            raise Failure("%s %s on %s: %s" % (method, path, self.name, error))
        return json.loads(body) if body.strip() else None

    def get(self, path):
        return self.request("GET", path)

    def post(self, path):
        return self.request("POST", path)

    def tail(self, lines=30):
        try:
            with open(os.path.join(self.home, "syncthing.log")) as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""


class Device:
    """One device's offloadctl: its store, its own XDG_STATE_HOME and OFFLOAD_DEVICE_NAME."""

    def __init__(self, offloadctl, name, home):
        self.offloadctl = offloadctl
        self.name = name
        self.home = home
        self.store = os.path.join(home, "store")
        os.makedirs(self.store, exist_ok=True)
        os.makedirs(os.path.join(home, "state"), exist_ok=True)
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TZ": "UTC",
            "OFFLOAD_HOME": self.store, "XDG_STATE_HOME": os.path.join(home, "state"),
            "XDG_DATA_HOME": os.path.join(home, "data"), "OFFLOAD_DEVICE_NAME": name,
            "SWIFT_BACKTRACE": "enable=no",
        }

    def run(self, *arguments):
        return subprocess.run([self.offloadctl, *arguments], env=self.env, capture_output=True, text=True,
                              timeout=60)

    def ctl(self, *arguments):
        """Runs offloadctl on this device; a failure names the device and the command."""
        result = self.run(*arguments)
        check(result.returncode == 0, "%s: offloadctl %s exited %d: %s" % (
            self.name, " ".join(arguments), result.returncode, (result.stderr or result.stdout).strip()))
        return result.stdout

    def show(self, collection):
        return self.ctl("collection", "show", collection, "--json")

    def items(self, collection):
        return json.loads(self.show(collection))["items"]

    def item_id(self, collection, text):
        """The item's id as a command names it: `id:` first, so an id made of digits only is not
        read as an outline number."""
        for item in self.items(collection):
            if item["text"] == text:
                return "id:" + item["id"]
        raise Failure("%s: no item %r in %s" % (self.name, text, collection))


class Pair:
    """Two devices, `a` and `b`, each with a store shared by its own Syncthing daemon."""

    def __init__(self, offloadctl, work, names=("laptop", "phone")):
        check(SYNCTHING is not None, "syncthing is not on PATH")
        self.a = Device(offloadctl, names[0], os.path.join(work, names[0]))
        self.b = Device(offloadctl, names[1], os.path.join(work, names[1]))
        self.daemon_a = Daemon(names[0], os.path.join(work, names[0], "syncthing"), self.a.store)
        self.daemon_b = Daemon(names[1], os.path.join(work, names[1], "syncthing"), self.b.store)
        self.daemon_a.configure(self.daemon_b)
        self.daemon_b.configure(self.daemon_a)

    def start(self):
        self.daemon_a.start()
        self.daemon_b.start()
        # Each daemon marks its folder (`.stfolder`) when the folder starts; offloadctl's first
        # command looks for that marker, so nothing runs before both folders are marked.
        for device in (self.a, self.b):
            marker = os.path.join(device.store, ".stfolder")
            eventually("%s's folder is marked" % device.name, lambda: os.path.exists(marker)
                       or "no %s yet" % marker, timeout=60)

    def stop(self):
        for daemon in (self.daemon_a, self.daemon_b):
            daemon.stop()

    def daemons(self):
        return [(self.daemon_a, self.daemon_b), (self.daemon_b, self.daemon_a)]

    def in_sync(self):
        """True when both daemons are settled and the folders equal, else what is not yet."""
        for daemon, peer in self.daemons():
            connection = daemon.get("/rest/system/connections")["connections"].get(peer.device_id, {})
            if not connection.get("connected"):
                return "%s is not connected to %s" % (daemon.name, peer.name)
            status = daemon.get("/rest/db/status?folder=" + FOLDER_ID)
            if status.get("state") != "idle" or status.get("needTotalItems", 0) != 0:
                return "%s: folder %s, needs %s items" % (daemon.name, status.get("state"),
                                                          status.get("needTotalItems"))
            if status.get("pullErrors", 0):
                errors = daemon.get("/rest/folder/errors?folder=" + FOLDER_ID)
                return "%s: pull errors %s" % (daemon.name, errors)
            completion = daemon.get("/rest/db/completion?folder=%s&device=%s" % (FOLDER_ID, peer.device_id))
            if completion.get("completion") != 100 or completion.get("needItems", 0) != 0:
                return "%s sees %s at %s %%" % (daemon.name, peer.name, completion.get("completion"))
        files_a, files_b = folder_files(self.a.store), folder_files(self.b.store)
        if files_a != files_b:
            differ = sorted(set(files_a.items()) ^ set(files_b.items()))
            return "the folders differ: %s" % [path for path, _ in differ][:8]
        return True

    def wait_in_sync(self, step, timeout=60):
        """Scans both folders now, then waits until `in_sync` holds on two polls in a row."""
        started = time.time()
        for daemon, _ in self.daemons():
            daemon.post("/rest/db/scan?folder=" + FOLDER_ID)
        streak = [0]

        def settled():
            answer = self.in_sync()
            streak[0] = streak[0] + 1 if answer is True else 0
            if streak[0] >= 2:
                return True
            return "settled on one poll, waiting for the next" if answer is True else answer
        try:
            eventually(step, settled, timeout)
        except Failure as failure:
            raise Failure("%s\n--- %s's log\n%s--- %s's log\n%s" % (
                failure, self.daemon_a.name, self.daemon_a.tail(), self.daemon_b.name, self.daemon_b.tail()))
        return time.time() - started


def run_pair(offloadctl, work, body, passed):
    """Starts a pair, runs `body(pair)` and stops the daemons whatever happens; prints
    `PASS: <passed>` or the failure; returns the exit status (0 or 1)."""
    stop_on_sigterm()
    started = time.time()
    pair = None
    try:
        pair = Pair(offloadctl, work)
        pair.start()
        body(pair)
    except Failure as failure:
        print("FAIL: %s" % failure, file=sys.stderr)
        return 1
    finally:
        if pair:
            pair.stop()
    print("PASS: %s (%.1f s)" % (passed, time.time() - started))
    return 0


def script_main(body, passed):
    """A scenario script's whole run: `--offloadctl PATH --work DIR`, 77 when syncthing is not
    installed, else what `run_pair` returns."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--offloadctl", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    if SYNCTHING is None:
        print("SKIP: syncthing is not installed (apt-get install syncthing)", file=sys.stderr)
        return 77
    return run_pair(args.offloadctl, args.work, body, passed)
