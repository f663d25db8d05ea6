#!/usr/bin/env python3
"""The console in headless chromium (Playwright), against a running daemon.

  console.py URL BUS_ADDRESS STRAP HOSTILE_ALIAS OUT_DIR

STRAP is bound with the alias HOSTILE_ALIAS (markup that must show as text). Exits 1 with the
failed checks listed; saves console.png, console-phone.png and link-drop.png in OUT_DIR.
"""
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from checks import check, finish, wait_until

url, bus, strap, hostile, out = sys.argv[1:6]
def fetch(path, host=None, method="GET"):
    request = urllib.request.Request(url + path, method=method, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def answers():
    try:
        return fetch("/api/status")[0] == 200
    except OSError:
        return False


if not wait_until(answers, 60):
    sys.exit("test-console: the console did not answer within 60 s")

status, headers, _ = fetch("/")
check(status == 200 and "default-src 'self'" in headers.get("Content-Security-Policy", ""), "the page has Content-Security-Policy default-src 'self'")
check(headers.get("X-Content-Type-Options") == "nosniff" and headers.get("X-Frame-Options") == "DENY", "nosniff and no framing")
check(fetch("/api/status", host="rebind.example:80")[0] == 421, "a request naming another host is refused (421): no DNS rebinding")
check(fetch("/", method="POST")[0] == 403, "a POST without the page's CSRF token is refused (403)")
check(fetch("/nothing")[0] == 404, "an unknown path is 404")

row = f'#straps tbody tr[data-address="{strap}"]'
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append("a dialog opened: " + dialog.message))
    page.goto(url + "/")
    page.wait_for_selector("#link.live", timeout=15000)
    page.wait_for_selector(row, timeout=15000)

    # Each new sample on the page: how long after its notification (the sample's own stamp).
    delays, last, bpms = [], None, set()
    deadline = time.monotonic() + 12
    while time.monotonic() < deadline and len(delays) < 8:
        seen = page.evaluate(f"""() => {{
            const row = document.querySelector('{row}');
            return row ? [row.dataset.lastSample, Date.now(), row.querySelector('td.bpm').textContent] : null; }}""")
        if seen and seen[0] and seen[0] != last:
            if last is not None:
                delays.append(seen[1] - int(page.evaluate(f"() => Date.parse('{seen[0]}')")))
            last = seen[0]
            bpms.add(seen[2])
        time.sleep(0.05)
    check(len(delays) >= 5, f"the page showed {len(delays)} new samples in 12 s")
    check(delays and max(delays) <= 2000, f"each within 2 s of its notification (ms: {delays})")
    check(len(bpms) >= 2, f"the heart rate on the page changed ({sorted(bpms)})")
    points = page.evaluate(f"() => document.querySelector('{row} svg.chart polyline').getAttribute('points').trim().split(' ').length")
    check(points >= 2, f"the chart draws a line ({points} points)")
    cells = page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{row} td')].map((td) => [td.dataset.label, td.textContent]))""")
    # A frame carries RR intervals only when a beat ended since the last one (about every other
    # frame at 2 notifications/s and 60 bpm): wait for one.
    rr_cell = f"{row} td[data-label='RR (ms)']"
    rr = wait_until(lambda: re.fullmatch(r"\d+(, \d+)*", page.inner_text(rr_cell)), 10)
    check(rr, f"the RR intervals show in ms ({page.inner_text(rr_cell)!r})")
    check(cells.get("Skin contact") == "on skin", f"skin contact shows ({cells.get('Skin contact')!r})")
    check(re.fullmatch(r"-\d+ dBm", cells.get("Signal", "")), f"the RSSI the adapter saw shows ({cells.get('Signal')!r})")
    name = page.inner_text(f"{row} td:first-child")
    check(name.startswith(hostile), f"the hostile alias shows as text: {name!r}")
    check(page.locator("#straps img").count() == 0 and page.title() != "1", "its markup made no element and ran nothing")
    page.screenshot(path=f"{out}/console.png", full_page=True)

    # A link drop: the adapter powered off, then on again; the daemon reconnects.
    def power(on):
        subprocess.run(["busctl", f"--address={bus}", "set-property", "org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1",
                        "Powered", "b", "true" if on else "false"], check=True, timeout=30)
    power(False)
    dropped = wait_until(lambda: page.get_attribute(row, "data-state") != "subscribed", 15)
    check(dropped, f"the link drop shows on the page (state {page.get_attribute(row, 'data-state')!r})")
    if dropped:
        page.screenshot(path=f"{out}/link-drop.png", full_page=True)
    power(True)
    back = wait_until(lambda: page.get_attribute(row, "data-state") == "subscribed", 60)
    check(back, "the strap shows as subscribed again")

    # The upload history: the daemon uploads to the JHE simulator it is enrolled with.
    stored = wait_until(lambda: page.locator("#uploads tbody tr td[data-label='Stored']").count() > 0, 30)
    rounds = page.evaluate("""() => [...document.querySelectorAll('#uploads tbody tr')].map((row) =>
        Object.fromEntries([...row.children].map((td) => [td.dataset.label, td.textContent])))""")
    check(stored and any(int(r.get("Stored", "0")) > 0 and r.get("Left queued") == "0" and r.get("Refused") == "0" for r in rounds),
          f"the upload history shows rounds stored at the server ({rounds[:2]})")

    # The buttons: run in the daemon, with the page's CSRF token; without it, refused.
    page.click("button[data-action='retry-dead']")
    retried = wait_until(lambda: "moved back to pending" in page.inner_text("#action-result"), 15)
    check(retried, f"Retry dead letters answers ({page.inner_text('#action-result')!r})")
    page.click("button[data-action='doctor']")
    ran = wait_until(lambda: page.inner_text("#action-result").startswith("doctor:") and page.locator("#doctor li").count() >= 5, 60)
    check(ran, f"Run doctor lists its checks ({page.inner_text('#action-result')!r}, {page.locator('#doctor li').count()} checks)")
    forged = page.evaluate("() => fetch('/api/actions/retry-dead', { method: 'POST' }).then((reply) => reply.status)")
    check(forged == 403, f"an action without the CSRF token is refused ({forged})")
    page.screenshot(path=f"{out}/console-actions.png", full_page=True)

    # A page opened now charts the minutes before it from the daemon's history (one reading a
    # second), not only what it has seen itself.
    status, _, body = fetch("/api/history")
    readings = {strap_history["address"]: strap_history["readings"] for strap_history in json.loads(body)["sensors"]}
    held = len(readings.get(strap, []))
    check(status == 200 and held >= 8, f"/api/history holds the strap's last seconds ({held} readings)")
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(url + "/")
    phone.wait_for_selector(row, timeout=15000)
    phone.wait_for_timeout(1500)
    charted = phone.evaluate(f"() => document.querySelector('{row} svg.chart polyline').getAttribute('points').trim().split(' ').length")
    check(charted >= max(8, held), f"a page open 1.5 s charts the {held} seconds before it ({charted} points)")
    phone.screenshot(path=f"{out}/console-phone.png", full_page=True)
    unexpected = [e for e in errors if "status of 403" not in e]
    check(not unexpected, f"no console errors besides the refusal asked for ({unexpected})")
    browser.close()

print(f"test-console: screenshots in {out}")
finish("test-console")
