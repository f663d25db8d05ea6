#!/usr/bin/env python3
"""The console beyond loopback in headless chromium (Playwright), against a running daemon.

  console-tls.py URL PASSWORD FINGERPRINT OUT_DIR

URL is the console's https:// address, PASSWORD the one `web set-password` stored, FINGERPRINT
the certificate's SHA-256 as `edge-gateway status --json` prints it. Exits 1 with the failed
checks listed; saves login.png and console-tls.png in OUT_DIR.
"""
import hashlib
import ssl
import sys
import urllib.parse

from playwright.sync_api import sync_playwright

from checks import check, finish, wait_until

url, password, fingerprint, out = sys.argv[1:5]
def arrives(page, target):
    """Whether the page gets to `target` within 10 s (page.url alone is not refreshed while
    this script sleeps: Playwright's sync API handles events only inside its calls)."""
    try:
        page.wait_for_url(target, timeout=10000)
        return True
    except Exception:
        return False


parts = urllib.parse.urlsplit(url)
served = ssl.PEM_cert_to_DER_cert(ssl.get_server_certificate((parts.hostname, parts.port)))
seen = ":".join(f"{byte:02X}" for byte in hashlib.sha256(served).digest())
check(seen == fingerprint, f"the certificate served is the one status names ({seen})")

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    # The browser cannot know a self-signed certificate: the fingerprint check above stands for
    # the technician comparing it.
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    reply = page.goto(url + "/")
    check(page.url == url + "/login", f"no page without a login: / leads to the login page ({page.url})")
    check(reply.headers.get("content-security-policy", "").startswith("default-src 'self'"), "the login page has Content-Security-Policy default-src 'self'")
    check(reply.headers.get("strict-transport-security") == "max-age=31536000", "and HSTS")
    page.screenshot(path=f"{out}/login.png")

    page.fill("#password", "not the password")
    with page.expect_response(lambda r: r.url == url + "/login" and r.request.method == "POST") as refused:
        page.click("button[type=submit]")
    check(refused.value.status == 401 and page.locator("[role=alert]").inner_text() == "Wrong password.",
          f"a wrong password is refused (401), said on the page ({refused.value.status}, {page.url})")
    page.fill("#password", password)
    with page.expect_response(lambda r: r.url == url + "/login" and r.request.method == "POST") as slowed:
        page.click("button[type=submit]")
    retry = int(slowed.value.headers.get("retry-after", "0"))
    check(slowed.value.status == 429 and retry >= 1 and "Too many tries" in page.locator("[role=alert]").inner_text(),
          f"right after it even the right password waits (429, Retry-After {retry})")


    def log_in():
        page.fill("#password", password)
        with page.expect_navigation():
            page.click("button[type=submit]")
        return page.url == url + "/"

    # Tried again until the brake lets it through (429 until Retry-After has passed).
    live = wait_until(log_in, 30) and wait_until(lambda: page.locator("#link.live").count() == 1, 15)
    check(live, "after the wait the right password opens the live page")
    cookies = {cookie["name"]: cookie for cookie in context.cookies()}
    session = cookies.get("egw_session", {})
    check(session.get("httpOnly") and session.get("secure") and session.get("sameSite") == "Strict",
          f"the session cookie is HttpOnly, Secure, SameSite=Strict ({ {k: session.get(k) for k in ('httpOnly', 'secure', 'sameSite')} })")
    check(page.evaluate("() => document.cookie") == "", "the page's script cannot read it")
    forged = page.evaluate("() => fetch('/logout', { method: 'POST' }).then((reply) => reply.status)")
    check(forged == 403, f"a state change without the CSRF token is refused ({forged})")
    check(wait_until(lambda: page.locator("#logout").is_visible(), 10), "the page offers a logout")
    page.screenshot(path=f"{out}/console-tls.png", full_page=True)
    page.click("#logout")
    check(arrives(page, url + "/login"), f"logout leads back to the login page ({page.url})")
    page.goto(url + "/")
    check(page.url == url + "/login", "and the session is over")
    unexpected = [e for e in errors if "status of 401" not in e and "status of 403" not in e and "status of 429" not in e]
    check(not unexpected, f"no console errors besides the refusals asked for ({unexpected})")
    browser.close()

finish("test-console (TLS)")
