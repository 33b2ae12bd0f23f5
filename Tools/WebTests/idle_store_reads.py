#!/usr/bin/env python3
"""Counts the store calls of an idle `offloadctl serve` with organize pages open.

Usage: idle_store_reads.py OFFLOADCTL [SECONDS] [PAGES]

Makes a store with one list in a temporary folder, starts `OFFLOADCTL serve` over it, opens
PAGES organize WebSockets (2 by default) that watch the list, waits a moment, then traces the
server with `strace -f -y` for SECONDS (10 by default) and prints how many open, stat, list
and read calls named a file of the store. Needs strace (`apt-get install -y strace`).
"""
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def frame(text):
    payload = text.encode()
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def page(port, cookie, watch):
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (f"GET /ws/organize HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
         f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
         f"Origin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    if not answer.startswith(b"HTTP/1.1 101"):
        sys.exit("the organize WebSocket did not open: " + answer[:80].decode())
    sock.sendall(frame(json.dumps(watch)))
    return sock


def main():
    ctl = os.path.abspath(sys.argv[1])
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    pages = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    folder = tempfile.mkdtemp(prefix="offload-idle")
    store = os.path.join(folder, "store")
    env = dict(os.environ, OFFLOAD_HOME=store, HOME=folder, TZ="UTC",
               XDG_DATA_HOME=os.path.join(folder, "data"))
    run = lambda *args: subprocess.run([ctl, *args], env=env, check=True, capture_output=True)
    run("collection", "create", "Groceries", "--kind", "list")
    run("item", "add", "Groceries", "Milk")
    os.makedirs(os.path.join(folder, "photos"))
    server = subprocess.Popen([ctl, "serve", "--port", "0", "--root",
                               os.path.join(folder, "photos")],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = server.stdout.readline().decode().strip()
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})", line)
        if not match:
            sys.exit("the server's first line is not its address: " + line)
        port, token = int(match.group(1)), match.group(2)
        cookie = f"offload_{port}={token}"

        def get(path):
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                             headers={"Cookie": cookie})
            return json.load(urllib.request.urlopen(request))

        entries = get("/api/collections")["collections"]
        ident = next(e["id"] for e in entries if e["name"] == "Groceries")
        version = get(f"/api/collection?id={ident}")["version"]
        sockets = [page(port, cookie, {"type": "watch", "collection": ident, "version": version})
                   for _ in range(pages)]
        time.sleep(1)
        log = os.path.join(folder, "trace")
        trace = subprocess.Popen(
            ["strace", "-f", "-y", "-qq", "-o", log, "-p", str(server.pid), "-e",
             "trace=openat,open,stat,lstat,newfstatat,statx,getdents64,read,pread64"],
            stderr=subprocess.DEVNULL)
        time.sleep(seconds)
        trace.send_signal(signal.SIGINT)
        trace.wait()
        with open(log) as text:
            calls = [l for l in text if store in l]
        print(f"idle offloadctl serve, {pages} organize pages open, {seconds} s: "
              f"{len(calls)} store calls (open, stat, list, read)")
        for sock in sockets:
            sock.close()
    finally:
        server.terminate()
        server.wait()
        subprocess.run(["rm", "-rf", folder])


if __name__ == "__main__":
    main()
