#!/usr/bin/env bash
# Runs the whole Swift test suite and ends with one plain line: "N passed, N failed, N skipped".
# The counts come from the xUnit report Swift Testing writes, not from scraping the console.
set -uo pipefail

# --xunit-dir DIR (first) puts the report elsewhere, for a run with another --scratch-path.
report_dir=.build/test-results
if [[ ${1:-} == --xunit-dir ]]; then
    report_dir=$2
    shift 2
fi
mkdir -p "$report_dir"
rm -f "$report_dir"/*.xml

swift test --xunit-output "$report_dir/xunit.xml" "$@"
status=$?

python3 - "$report_dir" "$status" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
directory, status = sys.argv[1], int(sys.argv[2])
passed = failed = skipped = 0
for path in glob.glob(directory + "/*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
if status != 0 and failed == 0:
    failed = 1  # the run itself failed (crash, build error): never report it green
if passed == 0:
    print("run-tests: no test ran", file=sys.stderr)
    failed = max(failed, 1)
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
