"""Small helpers for scripts/test-jhe/run.sh that bash does badly (python3 standard library only).

    tier.py ports N                 N free TCP ports on 127.0.0.1, one per line
    tier.py http-status URL         the HTTP status of GET URL (000 if nothing answers)
    tier.py get FILE PATH...        values from a JSON file (or the last JSON object of a
                                    file of lines), by dotted path: uplink.token_refreshes,
                                    sensors.0.state, sensors.*.samples_accepted (summed);
                                    null for a missing or null value
    tier.py doctor FILE             checks `doctor --json` output (see below)
    tier.py compare LOG JHE_IDS KILLS JHE_KILLS  the final verdict (see compare())

"Ever accepted" comes from the daemon's own debug lines: SampleIntake logs `accepted samples
queue=upload|held ids=...` right after each commit returns, so a line names exactly the samples
that became durable. The queue's files cannot count them: a commit goes to the ingest journal,
and only records not yet delivered when their commit retires reach SQLite's `records` table
(Sources/OfflineQueue/Ingest/); acknowledged records are deleted either way.
"""

import json
import socket
import re
import sys
import time
import urllib.error
import urllib.request

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)


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


def accepted_ids(log_path):
    """The sample ids of every `accepted samples` line of the daemon's log (both queues: a held
    sample keeps its id when the clock releases it into the upload queue)."""
    ids = set()
    with open(log_path, encoding="utf-8", errors="replace") as file:
        for line in file:
            if "accepted samples" in line and "ids=" in line:
                ids.update(match.lower() for match in UUID.findall(line.split("ids=", 1)[1]))
    return ids


def compare(log_path, jhe_ids_path, unlogged_allowance, kills_of_jhe):
    """Every sample the gateway ever accepted is in JHE exactly once, and JHE holds nothing else
    for this patient: the ids of the log's `accepted samples` lines against the identifier values
    of the patient's heart-rate Observations (one `observation_id|system|value|omh_uuid` per line,
    from psql). A kill -9 between a commit and its log line leaves samples accepted but never named:
    up to `unlogged_allowance` identifiers the log lacks are counted as that, not as a failure.

    JHE writes an Observation and then its identifier in two autocommitted statements
    (Observation.fhir_create), so killing JHE (the outage step, `kills_of_jhe` times) can leave an
    Observation without an identifier while the gateway, never answered, sends the sample again.
    Such a partial write is counted apart, not as a failure, when its OMH header uuid is an
    accepted sample stored once with its identifier, at most once per kill. Prints a JSON verdict;
    exit 1 on any difference."""
    accepted = {f"urn:uuid:{sample_id}" for sample_id in accepted_ids(log_path)}
    problems = []
    observations = {}
    identifiers = {}
    header_uuids = {}
    with open(jhe_ids_path, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            observation_id, system, value, omh_uuid = line.rstrip("\n").split("|", 3)
            observations.setdefault(observation_id, []).append((system, value))
            header_uuids[observation_id] = omh_uuid.lower()
            if value:
                identifiers.setdefault(value.lower(), []).append(observation_id)
    without = [o for o, ids in observations.items() if not any(value for _, value in ids)]
    partial = [o for o in without if f"urn:uuid:{header_uuids[o]}" in accepted and len(identifiers.get(f"urn:uuid:{header_uuids[o]}", [])) == 1]
    if len(partial) > kills_of_jhe:
        partial = []
    without = [o for o in without if o not in partial]
    for observation_id in partial:
        del observations[observation_id]
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
        problems.append(f"{len(missing)} accepted sample(s) not in JHE, e.g. {missing[:3]}")
    if len(extra) > unlogged_allowance:
        problems.append(f"{len(extra)} Observation identifier(s) the gateway never accepted, e.g. {extra[:3]}")
    verdict = {
        "accepted": len(accepted),
        "accepted_unlogged": len(extra),
        "observations": len(observations),
        "distinct_identifiers": len(identifiers),
        "jhe_partial_writes": [{"observation": o, "omh_uuid": header_uuids[o]} for o in partial],
        "problems": problems,
    }
    print(json.dumps(verdict))
    if problems or len(observations) != len(accepted) + len(extra):
        sys.exit(1)


def main(argv):
    command, args = argv[1], argv[2:]
    handlers = {
        "ports": lambda: ports(int(args[0])),
        "http-status": lambda: http_status(args[0]),
        "get": lambda: get(args[0], *args[1:]),
        "doctor": lambda: doctor(args[0]),
        "compare": lambda: compare(args[0], args[1], int(args[2]), int(args[3])),
    }
    if command not in handlers:
        sys.exit(f"tier.py: unknown command {command}")
    handlers[command]()


if __name__ == "__main__":
    main(sys.argv)
