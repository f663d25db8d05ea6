"""What the console's browser scripts share: checks that print and collect failures, and
waiting for a condition under a deadline (never a fixed sleep)."""
import sys
import time

failures = []


def check(condition, what):
    print(("ok      " if condition else "FAILED  ") + what)
    if not condition:
        failures.append(what)


def wait_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def finish(name):
    """Exits 1 with the count of failed checks, else says every check passed."""
    if failures:
        print(f"{name}: {len(failures)} check(s) failed")
        sys.exit(1)
    print(f"{name}: every check passed")
