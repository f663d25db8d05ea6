#!/usr/bin/env python3
"""JHE's token endpoint under load, for the renewal deadline (docs/jhe-contract.md): COUNT
client-credentials token requests, CONCURRENCY at a time, to SITE_URL/o/token/ with the
practitioner's key (base64 of client_id:secret, as the gateway sends it). Prints the latencies'
median, 95th percentile and maximum in seconds; exit 1 if any request failed.

Usage: token_load.py SITE_URL KEY COUNT CONCURRENCY
"""
import concurrent.futures
import sys
import time
import urllib.parse
import urllib.request

site, key, count, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
body = urllib.parse.urlencode({"grant_type": "client_credentials"}).encode()


def one(_):
    request = urllib.request.Request(
        site.rstrip("/") + "/o/token/", data=body,
        headers={"Authorization": "Basic " + key, "Content-Type": "application/x-www-form-urlencoded"})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=120) as reply:
        reply.read()
    return time.monotonic() - started


with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
    latencies = sorted(pool.map(one, range(count)))
median = latencies[len(latencies) // 2]
p95 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))]
print(f"{count} token requests, {concurrency} at a time: median {median:.3f} s, p95 {p95:.3f} s, max {latencies[-1]:.3f} s")
