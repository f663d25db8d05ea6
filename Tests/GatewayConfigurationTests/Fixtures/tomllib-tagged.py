#!/usr/bin/env python3
"""Reads every *.toml file in DIRECTORY with Python's tomllib (a second, independent TOML 1.0
reader) and writes, beside each, NAME.json: toml-test's tagged JSON of what it read
({"type": "integer", "value": "1"} for each value), or NAME.refused: tomllib's message.

Used by TOMLDifferentialTests, which compares the gateway's reader with it file by file.
Usage: tomllib-tagged.py DIRECTORY
"""
import datetime
import json
import math
import sys
import tomllib
from pathlib import Path


def tagged(value):
    if isinstance(value, bool):
        return {"type": "bool", "value": "true" if value else "false"}
    if isinstance(value, int):
        return {"type": "integer", "value": str(value)}
    if isinstance(value, float):
        text = "nan" if math.isnan(value) else repr(value)
        return {"type": "float", "value": text}
    if isinstance(value, str):
        return {"type": "string", "value": value}
    if isinstance(value, datetime.datetime):
        kind = "datetime" if value.tzinfo is not None else "datetime-local"
        return {"type": kind, "value": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"type": "date-local", "value": value.isoformat()}
    if isinstance(value, datetime.time):
        return {"type": "time-local", "value": value.isoformat()}
    if isinstance(value, list):
        return [tagged(element) for element in value]
    if isinstance(value, dict):
        return {key: tagged(element) for key, element in value.items()}
    raise TypeError(type(value))


for path in sorted(Path(sys.argv[1]).glob("*.toml")):
    try:
        # utf-8-sig: TOML allows a byte order mark at the start, which tomllib refuses.
        document = tomllib.loads(path.read_bytes().decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, ValueError, RecursionError) as error:
        path.with_suffix(".refused").write_text(f"{type(error).__name__}: {error}")
        continue
    path.with_suffix(".json").write_text(json.dumps(tagged(document)))
