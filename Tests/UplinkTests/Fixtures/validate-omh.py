#!/usr/bin/env python3
"""Validates OMH data points against the real IEEE/OMH JSON schemas shipped beside this script.

Usage: validate-omh.py (--bundle FILE | --point FILE)...
  --bundle: a FHIR batch Bundle; each entry's valueAttachment.data is decoded the way JHE does
            (base64 -> ASCII -> JSON) and its header and body are validated.
  --point:  one OMH data point {header, body}.
Prints one line per data point ("ok" or the first error) and exits 1 if any failed.
Needs python3 with jsonschema (the Makefile installs it when missing).
"""
import base64
import json
import sys
from pathlib import Path

from jsonschema import validators
from referencing import Registry, Resource

SCHEMAS = Path(__file__).resolve().parent / "schemas"
BASES = {
    "ieee": "https://w3id.org/ieee/ieee-1752-schema",
    "omh": "https://w3id.org/openmhealth/schemas/omh",
}


def load(path):
    text = path.read_text()
    try:
        return json.loads(text)
    except ValueError:
        # The upstream "*-1.x.json" files are git symlinks checked out as text: follow them.
        return load(path.parent / text.strip())


def registry():
    reg = Registry()
    for ns, base in BASES.items():
        for p in (SCHEMAS / ns).rglob("*.json"):
            res = Resource.from_contents(load(p))
            reg = reg.with_resource(f"{base}/{p.name}", res)
            if res.id() and res.id() != f"{base}/{p.name}":
                reg = reg.with_resource(res.id(), res)
    return reg.crawl()


REG = registry()


def errors(instance, ns, name, version):
    schema = {"$ref": f"{BASES[ns]}/{name}-{version}.json"}
    validator = validators.validator_for(schema)(schema, registry=REG, format_checker=validators.Draft7Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(instance)]


def check_point(point):
    header = point.get("header")
    body = point.get("body")
    problems = errors(header, "ieee", "header", "1.0")
    sid = (header or {}).get("schema_id") or {}
    if (sid.get("namespace"), sid.get("name"), sid.get("version")) not in {("omh", "heart-rate", "2.0"), ("omh", "rr-interval", "1.0")}:
        problems.append(f"unexpected schema_id {sid}")
    else:
        problems += errors(body, sid["namespace"], sid["name"], sid["version"])
    return problems


def main(argv):
    failed = 0
    points = []
    for flag, name in zip(argv[::2], argv[1::2]):
        doc = json.loads(Path(name).read_text())
        if flag == "--point":
            points.append((name, doc))
        elif flag == "--bundle":
            for i, entry in enumerate(doc["entry"]):
                raw = base64.b64decode(entry["resource"]["valueAttachment"]["data"], validate=True)
                points.append((f"{name}#entry{i}", json.loads(raw.decode("ascii"))))
        else:
            print(f"unknown flag {flag}", file=sys.stderr)
            return 2
    for label, point in points:
        problems = check_point(point)
        failed += bool(problems)
        print(f"{label}: {'ok' if not problems else '; '.join(problems)}")
    print(f"{len(points) - failed} passed, {failed} failed")
    return 1 if failed or not points else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
