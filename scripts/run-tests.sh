#!/usr/bin/env bash
# Runs the whole Swift test suite and ends with one plain line: "N passed, N failed, N skipped".
# The counts come from the xUnit report Swift Testing writes, not from scraping the console.
# If the test process dies (a crash leaves the report cut short), the last lines name the tests
# that were running and give the crashed thread's frames, so a CI page that shows only the end
# of the log still says what broke.
set -uo pipefail

# --xunit-dir DIR (first) puts the report elsewhere, for a run with another --scratch-path.
report_dir=.build/test-results
if [[ ${1:-} == --xunit-dir ]]; then
    report_dir=$2
    shift 2
fi
mkdir -p "$report_dir"
rm -f "$report_dir"/*.xml "$report_dir"/console.log

swift test --xunit-output "$report_dir/xunit.xml" "$@" 2>&1 | tee "$report_dir/console.log"
status=${PIPESTATUS[0]}

python3 - "$report_dir" "$status" <<'PY'
import glob, re, sys, xml.etree.ElementTree as ET
directory, status = sys.argv[1], int(sys.argv[2])
passed = failed = skipped = 0
cut_short = []
for path in glob.glob(directory + "/*.xml"):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        cut_short.append(f"{path}: {error}")
        continue
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
if cut_short:
    # The test process died before writing its report: say where, from the console.
    console = open(directory + "/console.log", encoding="utf-8", errors="replace").read()
    running = {}
    for match in re.finditer(r'^◇ Test (".*?"|\S+) started\.$', console, re.M):
        running[match.group(1)] = True
    for match in re.finditer(r'^[✔✘➜] Test (".*?"|\S+) (passed|failed|skipped)', console, re.M):
        running.pop(match.group(1), None)
    print("run-tests: the test process ended before writing its report (" + "; ".join(cut_short) + ")")
    print("run-tests: tests still running then: " + (", ".join(running) or "none"))
    # The backtracer's report: "*** Program crashed: …", then each thread, the crashed one
    # marked "crashed:", then the registers and the images, which is all a log's tail shows.
    said = re.search(r"^\*\*\* Program crashed: .*$", console, re.M)
    if said:
        print("run-tests: " + said.group(0))
        thread = re.search(r"^Thread \d+.* crashed:$(.*?)(?=^Thread \d|^Registers:)", console, re.M | re.S)
        if thread:
            print("\n".join(thread.group(0).strip().splitlines()[:60]))
if status != 0 and failed == 0:
    failed = 1  # the run itself failed (crash, build error): never report it green
if passed == 0:
    print("run-tests: no test ran", file=sys.stderr)
    failed = max(failed, 1)
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
