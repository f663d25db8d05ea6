"""Small helpers for scripts/test-jhe/run.sh that bash does badly (python3 standard library only).

    tier.py ports N                 N free TCP ports on 127.0.0.1, one per line
    tier.py http-status URL         the HTTP status of GET URL (000 if nothing answers)
    tier.py get FILE PATH...        values from a JSON file (or the last JSON object of a
                                    file of lines), by dotted path: uplink.token_refreshes,
                                    sensors.0.state, sensors.*.samples_accepted (summed);
                                    null for a missing or null value
    tier.py doctor FILE             checks `doctor --json` output (see below)
    tier.py audit-install DB        adds the audit table and trigger to queue.sqlite
    tier.py audit DB                JSON: records ever appended, by the audit table
    tier.py compare AUDIT_DB JHE_IDS  the final verdict (see compare())

The audit table: the queue allocates record ids in blocks of 65,536 reserved ahead
(Sources/OfflineQueue/IDAllocator.swift); a process that ends without using its block (kill -9,
or any restart) leaves a gap, so id_allocation.next_limit is not a count of records appended.
Acknowledged records are deleted, so after the drain queue.sqlite holds nothing to count either.
So the tier adds, before the first sample, an AFTER INSERT trigger on `records` that copies each
new record's id and sample id into a table of its own. It runs inside the queue's own commit
transaction, so a row exists exactly when the record was accepted (committed); retry-dead
re-inserts a record under the same id, which INSERT OR IGNORE absorbs.
"""

import json
import socket
import sqlite3
import sys
import time
import urllib.error
import urllib.request

AUDIT_TABLE = "test_jhe_appended"


def ports(count):
    sockets = []
    for _ in range(count):  # all held open at once, so they differ
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
    for s in sockets:
        print(s.getsockname()[1])
        s.close()


def http_status(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            print(reply.status)
    except urllib.error.HTTPError as error:
        print(error.code)
    except (OSError, ValueError):
        print("000")


def load_json(path):
    with open(path, encoding="utf-8") as file:
        text = file.read().strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return json.loads(text.splitlines()[-1])


def lookup(value, parts):
    if not parts:
        return value
    head, rest = parts[0], parts[1:]
    if head == "*":
        items = [lookup(item, rest) for item in (value or [])]
        return sum(item for item in items if isinstance(item, (int, float)))
    if isinstance(value, list):
        index = int(head)
        return lookup(value[index], rest) if index < len(value) else None
    if isinstance(value, dict):
        return lookup(value.get(head), rest)
    return None


def get(path, *paths):
    document = load_json(path)
    for dotted in paths:
        value = lookup(document, dotted.split("."))
        if value is None:
            print("null")
        elif isinstance(value, bool):
            print("true" if value else "false")
        elif isinstance(value, (dict, list)):
            print(json.dumps(value))
        else:
            print(value)


def doctor(path):
    """Every check of `doctor --json` must pass, except `clock` when the kernel says the clock is
    not synchronised (this machine may have no NTP; the tier then runs with
    hold_until_clock_sync = false). Prints one line per check; exit 1 if any required one failed."""
    with open(path, encoding="utf-8") as file:
        checks = [json.loads(line) for line in file if line.strip().startswith('{"check"')]
    failed = []
    names = []
    for check in checks:
        mark = "✓" if check["ok"] else "✗"
        print(f"  {mark} {check['check']}: {check['detail']}" + ("" if check["ok"] else f" — {check.get('fix')}"))
        names.append(check["check"])
        if not check["ok"] and check["check"] != "clock":
            failed.append(check["check"])
    for required in ("bluetoothd", "adapter", "sensors", "jhe", "token", "consent"):
        if not any(name == required or name.startswith(required + " ") for name in names):
            failed.append(f"{required} (missing)")
    if failed:
        print("doctor: failed: " + ", ".join(failed))
        sys.exit(1)


def audit_install(db_path):
    db = sqlite3.connect(db_path, timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    # The daemon creates the file, then its migrations create the tables: wait for `records`.
    until = time.time() + 60
    while not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").fetchone():
        if time.time() > until:
            sys.exit(f"audit-install: {db_path} has no records table after 60 s")
        time.sleep(0.2)
    with db:
        db.execute(
            f"CREATE TABLE IF NOT EXISTS {AUDIT_TABLE} (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, sample_id TEXT)"
        )
        # Version 2 records are binary samples: the 16 bytes after the format byte are the
        # sample id (Sources/GATTHeartRate/HeartRateSample+Binary.swift), which the Observation's
        # identifier urn:uuid:<sample id> is built from.
        db.execute(
            f"""CREATE TRIGGER IF NOT EXISTS {AUDIT_TABLE}_insert AFTER INSERT ON records BEGIN
                INSERT OR IGNORE INTO {AUDIT_TABLE} (id, version, sample_id) VALUES (
                    NEW.id, NEW.version,
                    CASE WHEN NEW.version = 2 THEN lower(hex(substr(NEW.payload, 2, 16))) END);
            END"""
        )
    count = db.execute("SELECT count(*) FROM records").fetchone()[0]
    db.close()
    if count:
        sys.exit(f"audit-install: the queue already holds {count} record(s); the audit must start before the first")


def audit_rows(db_path):
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=30)
    rows = db.execute(f"SELECT id, version, sample_id FROM {AUDIT_TABLE} ORDER BY id").fetchall()
    db.close()
    return rows


def id_runs(ids):
    """Consecutive id ranges: one per daemon process (each starts a new reserved block)."""
    runs = []
    for record_id in ids:
        if runs and record_id == runs[-1][1] + 1:
            runs[-1][1] = record_id
        else:
            runs.append([record_id, record_id])
    return runs


def audit(db_path):
    rows = audit_rows(db_path)
    print(json.dumps({"appended": len(rows), "id_runs": id_runs([row[0] for row in rows])}))


def uuid_text(hex32):
    return f"{hex32[0:8]}-{hex32[8:12]}-{hex32[12:16]}-{hex32[16:20]}-{hex32[20:32]}"


def compare(db_path, jhe_ids_path):
    """Every record the gateway ever accepted is in JHE exactly once, and JHE holds nothing else
    for this patient: the sample ids of the audit table against the identifier values of the
    patient's heart-rate Observations (one `observation_id|system|value` per line, from psql).
    Prints a JSON verdict; exit 1 on any difference."""
    rows = audit_rows(db_path)
    accepted = {}
    problems = []
    for record_id, version, sample_id in rows:
        if version != 2 or sample_id is None:
            problems.append(f"record {record_id} has version {version}; only binary samples (2) are expected")
            continue
        accepted[f"urn:uuid:{uuid_text(sample_id)}"] = record_id
    observations = {}
    identifiers = {}
    with open(jhe_ids_path, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            observation_id, system, value = line.rstrip("\n").split("|", 2)
            observations.setdefault(observation_id, []).append((system, value))
            if value:
                identifiers.setdefault(value, []).append(observation_id)
    without = [o for o, ids in observations.items() if not any(value for _, value in ids)]
    several = {o: ids for o, ids in observations.items() if len(ids) > 1}
    duplicated = {value: o for value, o in identifiers.items() if len(o) > 1}
    wrong_system = sorted({system for ids in observations.values() for system, _ in ids if system != "urn:ietf:rfc:3986"})
    missing = sorted(set(accepted) - set(identifiers))
    extra = sorted(set(identifiers) - set(accepted))
    if without:
        problems.append(f"{len(without)} Observation(s) without an identifier, e.g. {without[:3]}")
    if several:
        problems.append(f"{len(several)} Observation(s) with several identifiers, e.g. {list(several.items())[:2]}")
    if duplicated:
        problems.append(f"{len(duplicated)} identifier(s) on several Observations, e.g. {list(duplicated.items())[:2]}")
    if wrong_system:
        problems.append(f"identifier systems other than urn:ietf:rfc:3986: {wrong_system}")
    if missing:
        problems.append(f"{len(missing)} accepted sample(s) not in JHE, e.g. " + ", ".join(f"{m} (record {accepted[m]})" for m in missing[:3]))
    if extra:
        problems.append(f"{len(extra)} Observation identifier(s) the gateway never accepted, e.g. {extra[:3]}")
    verdict = {
        "accepted": len(rows),
        "observations": len(observations),
        "distinct_identifiers": len(identifiers),
        "id_runs": id_runs([row[0] for row in rows]),
        "problems": problems,
    }
    print(json.dumps(verdict))
    if problems or len(observations) != len(rows):
        sys.exit(1)


def main(argv):
    command, args = argv[1], argv[2:]
    handlers = {
        "ports": lambda: ports(int(args[0])),
        "http-status": lambda: http_status(args[0]),
        "get": lambda: get(args[0], *args[1:]),
        "doctor": lambda: doctor(args[0]),
        "audit-install": lambda: audit_install(args[0]),
        "audit": lambda: audit(args[0]),
        "compare": lambda: compare(args[0], args[1]),
    }
    if command not in handlers:
        sys.exit(f"tier.py: unknown command {command}")
    handlers[command]()


if __name__ == "__main__":
    main(sys.argv)
