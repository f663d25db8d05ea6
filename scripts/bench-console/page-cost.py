#!/usr/bin/env python3
"""What one open console page costs the daemon, measured inside one daemon's life.

  page-cost.py LAB GATEWAY [--scenario S] [--pairs N] [--slice SECONDS]

Runs `LAB footprint` on GATEWAY (the shipped binary) with the console on a loopback port, and
while its straps stream, cuts the daemon's life into 2N slices of SECONDS: without a page and
with one (a client reading /api/events), in the order closed, open, open, closed, closed, open …
(so a slow drift of the machine weighs on both sides alike). Each slice's CPU is the sum of the
daemon's threads' run time (/proc/PID/task/*/schedstat, in ns). Prints each pair's ratio and
their median: the page's cost as a share of the daemon's CPU at that load (the load is steady,
so CPU per second stands for CPU per sample). Processes measured one after another, as the
footprint benchmark does, differ by more than the page costs on a shared 2-core machine; slices
of one process do not.
"""
import argparse
import glob
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("lab")
parser.add_argument("gateway")
parser.add_argument("--scenario", default="1x10hz-properties")
parser.add_argument("--pairs", type=int, default=6)
parser.add_argument("--slice", type=float, default=20.0)
arguments = parser.parse_args()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_ns(pid):
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as file:
                total += int(file.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


class Page:
    """One client reading the event stream, as an open page does, until closed."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.socket.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.events = 0
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        try:
            while data := self.socket.recv(65536):
                self.events += data.count(b"event: ")
        except OSError:
            pass

    def close(self):
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.thread.join(5)
        return self.events


port = free_port()
window = int(2 * arguments.pairs * arguments.slice + 60)
environment = dict(os.environ, EDGE_GATEWAY_WEB_LISTEN=f"127.0.0.1:{port}")
footprint = subprocess.Popen(
    [arguments.lab, "footprint", "--scenario", arguments.scenario, "--runs", "1", "--seconds", str(window), "--gateway", arguments.gateway],
    env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

pid = None
deadline = time.monotonic() + 180
while pid is None and time.monotonic() < deadline:
    found = subprocess.run(["pgrep", "-f", f"^{arguments.gateway} run"], capture_output=True, text=True).stdout.split()
    pid = int(found[0]) if found else None
    time.sleep(0.5)
while time.monotonic() < deadline:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=5).read()
        break
    except OSError:
        time.sleep(0.5)
if pid is None or time.monotonic() >= deadline:
    footprint.kill()
    sys.exit("page-cost: the daemon or its console did not come up within 180 s")
time.sleep(20)  # the footprint run's first sample and warm-up

slices = []
for index in range(2 * arguments.pairs):
    opened = index % 4 in (1, 2)
    page = Page(port) if opened else None
    start, began = cpu_ns(pid), time.monotonic()
    time.sleep(arguments.slice)
    used, elapsed = cpu_ns(pid) - start, time.monotonic() - began
    events = page.close() if page else 0
    slices.append((opened, used / 1e3 / elapsed, events))
    print(f"slice {index + 1:2}: {'page open  ' if opened else 'no page    '} {used / 1e3 / elapsed:8.1f} µs CPU/s"
          + (f"  ({events} events)" if opened else ""), flush=True)

ratios = []
for pair in range(arguments.pairs):
    first, second = slices[2 * pair], slices[2 * pair + 1]
    closed, opened = (first, second) if not first[0] else (second, first)
    ratios.append(opened[1] / closed[1] - 1)
output, _ = footprint.communicate(timeout=900)
load = open("/proc/loadavg").read().split()[:3]
print(f"pairs: {', '.join(f'{100 * r:+.1f} %' for r in ratios)}")
print(f"page-cost: one open page costs {100 * statistics.median(ratios):+.1f} % CPU (median of {len(ratios)} pairs of {arguments.slice:.0f} s, "
      f"{arguments.scenario}, load {' '.join(load)}); no page {statistics.median(s[1] for s in slices if not s[0]):.1f} µs/s, "
      f"page open {statistics.median(s[1] for s in slices if s[0]):.1f} µs/s")
print("footprint: " + next((line for line in output.splitlines() if "exactly once" in line or "µs/sample" in line), output.strip().splitlines()[-1]))
sys.exit(footprint.returncode)
