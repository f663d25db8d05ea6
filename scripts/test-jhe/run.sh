#!/bin/bash
# make test-jhe: the shipped gateway against a REAL JupyterHealth Exchange on loopback.
#
# Starts a throwaway PostgreSQL 15 cluster and JHE (from the vendored sources in vendor/, with
# `uv sync`), provisions a study, a consenting patient, a personal_device data source and a
# public OAuth client through JHE's own models (jhe_admin.py), and runs the shipped
# `edge-gateway` with simulated straps (`edge-gateway-lab simulate`) through a scenario that
# checks each step and fails loudly naming it:
#   enrol (invitation link alone) → daemon (samples reach JHE) → doctor → kill -9 and restart
#   → short-lived tokens refreshed several times, no 401 loop → JHE paused through a renewal:
#   the lost grant is explained (REFRESH_TOKEN_GRACE_PERIOD_SECONDS) → tokens revoked server-side:
#   re-enrolment required, samples buffer, a new link drains them → consent withdrawn: 403s
#   become dead letters, consent restored + retry-dead delivers them → JHE stopped and
#   restarted: the error is reported, the backlog drains → graceful stop → JHE's database
#   holds every sample the gateway ever accepted exactly once → a clinic gateway enrolled with a
#   practitioner's client credentials uploads for two patients, renews with its key, and says
#   so when the client is deleted.
# See docs/testing.md, "make test-jhe".
#
# Environment: EGW_BIN (a directory holding the edge-gateway to test and edge-gateway-lab; default:
# scripts/tier-binaries.sh's, the gateway as shipped and the lab's debug build), EGW_KEEP=1 (keep the work directory; it is kept anyway on failure),
# EGW_SENSORS (simulated straps, default 3), EGW_TOKEN_SECONDS (JHE's access-token lifetime,
# default 25), EGW_OUTAGE_S (how long JHE is down, default 40), EGW_DEADLINE_S (the longest
# wait for any one condition, default 180).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
here=$repo/scripts/test-jhe
started=$SECONDS

sensors=${EGW_SENSORS:-3}
token_seconds=${EGW_TOKEN_SECONDS:-25}
outage_seconds=${EGW_OUTAGE_S:-40}
deadline=${EGW_DEADLINE_S:-180}
jhe_tarball=$here/vendor/jupyterhealth-exchange-0339e9e.tar.gz

say() { echo "test-jhe: $*"; }
step=setup
declare -A timing=()   # seconds per phase, for the summary
passed=()              # "enrol ✓" …, for the summary line
mark() { timing[$1]=$(($SECONDS - $2)); }

# PostgreSQL refuses to run as root: as root, its commands run as user postgres.
pgbin=/usr/lib/postgresql/15/bin
as_postgres() { if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi; }

# Everything this script starts, killed at exit (newest first); the work directory is removed
# unless EGW_KEEP is set or something failed.
work=
pids=()
pg_data=
failed=1
cleanup() {
    local status=$?
    set +e
    local pid tries
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill "$pid" 2>/dev/null || continue
        for ((tries = 0; tries < 50; tries++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    [[ -n $pg_data && -f $pg_data/postmaster.pid ]] && as_postgres "$pgbin/pg_ctl" -D "$pg_data" -m immediate -w stop >/dev/null 2>&1
    if [[ -n $work ]]; then
        if ((failed)) || [[ -n ${EGW_KEEP:-} ]]; then say "kept $work"; else rm -rf "$work"; fi
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The failing step, what went wrong, and the end of the logs that tell why.
fail() {
    echo "test-jhe: FAILED in step '$step' after $((SECONDS - started)) s: $*" >&2
    for log in gateway.log jhe.log; do
        [[ -f $work/$log ]] && { echo "---- $work/$log (last 25 lines)" >&2; tail -n 25 "$work/$log" >&2; }
    done
    exit 1
}

# Prefixes each line with the wall-clock time (the gateway's and runserver's own lines carry
# none), so the logs kept in the work directory can be read against each other.
stamp() {
    python3 -u -c 'import sys, datetime
for line in sys.stdin:
    sys.stdout.write(datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3] + " " + line)'
}

# wait_for SECONDS WHAT COMMAND…: polls COMMAND once a second until it succeeds; the deadline
# is generous (the machine has 2 cores and may be busy), never a fixed sleep.
wait_for() {
    local limit=$1 what=$2
    shift 2
    poll_until "$limit" "$@" || fail "no $what within $limit s"
}
# poll_until SECONDS COMMAND…: the same, but returns 1 at the deadline instead of failing.
poll_until() {
    local until=$((SECONDS + $1))
    shift
    until "$@"; do
        ((SECONDS < until)) || return 1
        sleep 1
    done
}

# ---------------------------------------------------------------------------------------------
# Packages: PostgreSQL 15 from Debian; uv from PyPI (through pip, as `make pydeps` does).
sudo=()
((EUID == 0)) || sudo=(sudo)
missing=()
for package in postgresql-15 postgresql-client-15 dbus-daemon; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    # Debian creates and may start a default cluster ("main", port 5432); the tier never uses it.
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v uv >/dev/null && ! python3 -m uv --version >/dev/null 2>&1; then
    say "installing uv (pip)"
    python3 -m pip install --quiet uv 2>/dev/null || python3 -m pip install --quiet --break-system-packages uv
fi
if command -v uv >/dev/null; then uv=(uv); else uv=(python3 -m uv); fi
# JHE runs on the machine's python3 (3.11); uv must never try to download an interpreter.
export UV_PYTHON_DOWNLOADS=never UV_PYTHON=python3
say "packages ready after $((SECONDS - started)) s"

# The work directory: PostgreSQL runs as user postgres when we are root, so it must be able to
# reach its data directory inside.
work=$(mktemp -d /tmp/test-jhe.XXXXXX)
chmod 755 "$work"
say "work directory $work"

if [[ -z ${EGW_BIN:-} ]]; then
    EGW_BIN=$work/bin
    scripts/tier-binaries.sh "$EGW_BIN"
fi
gw=$(realpath "$EGW_BIN")/edge-gateway
lab=$(realpath "$EGW_BIN")/edge-gateway-lab
[[ -x $gw ]] || fail "no edge-gateway in $EGW_BIN"
[[ -x $lab ]] || fail "no edge-gateway-lab in $EGW_BIN"
say "gateway $gw, ready after $((SECONDS - started)) s"
phase_started=$SECONDS
mapfile -t ports < <(python3 "$here/tier.py" ports 2)
pg_port=${ports[0]} jhe_port=${ports[1]}
site_url=http://127.0.0.1:$jhe_port

# ---------------------------------------------------------------------------------------------
# PostgreSQL 15: a throwaway cluster in the work directory, trust auth, loopback only, its
# socket in the work directory too (initdb + pg_ctl, so nothing is left in /etc/postgresql).
step=postgresql
t=$SECONDS
pg_data=$work/pg/data
mkdir -p "$work/pg"
((EUID == 0)) && chown postgres: "$work/pg"
as_postgres "$pgbin/initdb" -D "$pg_data" -U postgres --auth=trust -E UTF8 --no-sync >"$work/pg/initdb.log" 2>&1 \
    || fail "initdb failed (see $work/pg/initdb.log)"
as_postgres "$pgbin/pg_ctl" -D "$pg_data" -l "$work/pg/postgres.log" -w -t 60 \
    -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1" start >/dev/null \
    || fail "PostgreSQL did not start on port $pg_port (see $work/pg/postgres.log)"
psql_jhe() { psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres -d jhe_dev -At "$@"; }
createdb -h 127.0.0.1 -p "$pg_port" -U postgres jhe_dev || fail "createdb jhe_dev failed"
mark postgresql "$t"

# ---------------------------------------------------------------------------------------------
# JHE from the vendored sources. The settings come from the environment (JHE's settings.py
# reads os.getenv after load_dotenv, which never overrides what is already set), so there is no
# .env to quote: the RSA key keeps its real newlines. SITE_URL is exactly the URL the gateway
# uses, and is set before `seed`, which copies it into the database (real-jhe.md, step 2).
step=jhe-setup
t=$SECONDS
tar -xzf "$jhe_tarball" -C "$work"
jhe=$work/jupyterhealth-exchange
cp "$here/test_jhe_settings.py" "$jhe/jhe/test_jhe_settings.py"
(cd "$jhe" && "${uv[@]}" sync --frozen --no-dev --quiet) >"$work/uv-sync.log" 2>&1 || fail "uv sync failed (see $work/uv-sync.log)"
mark uv_sync "$t"
py=$jhe/.venv/bin/python
export DEBUG=True SITE_URL=$site_url DB_NAME=jhe_dev DB_USER=postgres DB_PASSWORD= DB_HOST=127.0.0.1 DB_PORT=$pg_port
export SECRET_KEY=test-jhe-$RANDOM$RANDOM$RANDOM$RANDOM
export OIDC_RSA_PRIVATE_KEY=$("$py" -c '
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode())')
export DJANGO_SETTINGS_MODULE=jhe.test_jhe_settings EGW_TOKEN_SECONDS=$token_seconds PYTHONUNBUFFERED=1
export PYTHONPATH=$jhe
jhe_manage() { (cd "$jhe" && "$py" manage.py "$@"); }
jhe_admin() { (cd "$jhe" && "$py" "$here/jhe_admin.py" "$@"); }

t=$SECONDS
jhe_manage migrate --no-input >"$work/jhe-migrate.log" 2>&1 || fail "migrate failed (see $work/jhe-migrate.log)"
mark migrate "$t"
t=$SECONDS
jhe_manage seed >"$work/jhe-seed.log" 2>&1 || fail "seed failed (see $work/jhe-seed.log)"
mark seed "$t"
t=$SECONDS
jhe_admin provision "$site_url" >"$work/provision.json" 2>"$work/provision.log" || fail "provisioning failed (see $work/provision.log)"
read -r patient_id device_id application_id user_id concept_id < <(python3 "$here/tier.py" get "$work/provision.json" \
    patient_id device_id application_id user_id heart_rate_concept_id | paste -sd' ')
first_link=$(jhe_admin invite "$patient_id" "$application_id" 2>>"$work/provision.log") || fail "no invitation link (see $work/provision.log)"
mark provisioning "$t"
say "JHE provisioned: patient $patient_id, device $device_id, OAuth application $application_id"

# runserver, as real-jhe.md runs it: --noreload (no autoreloader polling); the python process
# itself is the one killed in the outage step.
jhe_pid=
# start_jhe [--nothreading]: runserver in the background.
start_jhe() {
    (cd "$jhe" && exec "$py" manage.py runserver "127.0.0.1:$jhe_port" --noreload "$@") > >(stamp >>"$work/jhe.log") 2>&1 &
    jhe_pid=$!
    pids+=("$jhe_pid")
}
jhe_up() { [[ $(python3 "$here/tier.py" http-status "$site_url/health") == 200 ]]; }
t=$SECONDS
start_jhe
wait_for "$deadline" "answer from JHE's /health on $site_url" jhe_up
mark runserver "$t"
timing[jhe_total]=$((SECONDS - phase_started))
say "JHE up at $site_url after $((SECONDS - started)) s ($(python3 "$here/tier.py" http-status "$site_url/health"))"

# ---------------------------------------------------------------------------------------------
# The gateway: simulated straps on a private bus, a throwaway state directory and config.
step=gateway-setup
state=$work/state
cfg=$work/gateway.toml
cat >"$cfg" <<TOML
# make test-jhe: keys from deploy/gateway.toml.example.
[gateway]
name = "test-jhe"
state_dir = "$state"
# This machine's clock may never report itself synchronised (no NTP); holding samples until it
# does would hold them forever.
hold_until_clock_sync = $(python3 -c '
import ctypes, ctypes.util
libc = ctypes.CDLL(ctypes.util.find_library("c"))
print("true" if 0 <= libc.adjtimex(ctypes.create_string_buffer(512)) <= 4 else "false")')  # 5: TIME_ERROR

[queue]
commit_interval_ms = 500

[uplink]
# Every sample becomes one Observation, so JHE's count can be compared with the queue's.
drop_no_contact = false
interval_s = 2
timeout_s = 20
TOML
mkdir -p "$state"
"$gw" config check --config "$cfg" >"$work/config-check.log" 2>&1 || fail "config check: $(cat "$work/config-check.log")"
grep -q 'hold_until_clock_sync = false' "$cfg" && say "clock not synchronised (adjtimex): hold_until_clock_sync = false"

"$lab" simulate --sensors "$sensors" --print-address >"$work/simulate.out" 2>"$work/simulate.log" &
pids+=($!)
simulated() { [[ -s $work/simulate.out ]] && (($(wc -l <"$work/simulate.out") >= sensors + 1)); }
wait_for 60 "bus address and $sensors strap addresses from edge-gateway-lab simulate" simulated
export "$(head -1 "$work/simulate.out")"
mapfile -t straps < <(tail -n +2 "$work/simulate.out")
say "simulated bluetoothd with straps ${straps[*]}"

# Helpers over the gateway's own reporting.
status() { "$gw" status --json --config "$cfg" >"$work/status.json" 2>"$work/status.err" || fail "status --json: $(cat "$work/status.err")"; }
field() { python3 "$here/tier.py" get "$work/status.json" "$@"; }
queue_stats() { "$gw" queue stats --json --config "$cfg" >"$work/queue.json" 2>"$work/queue.err" || fail "queue stats: $(cat "$work/queue.err")"; }
queue_field() { python3 "$here/tier.py" get "$work/queue.json" "$@"; }
# This patient's heart-rate Observations in JHE's own database.
stored() { psql_jhe -c "SELECT count(*) FROM core_observation WHERE subject_patient_id = $patient_id AND codeable_concept_id = $concept_id"; }
now() { date +%s.%N; }

daemon_pid=
daemon_started=
start_daemon() {
    echo "---- test-jhe: edge-gateway run started $(date -u +%FT%TZ)" >>"$work/gateway.log"
    "$gw" run --config "$cfg" --log-level debug > >(stamp >>"$work/gateway.log") 2>&1 &
    daemon_pid=$!
    daemon_started=$SECONDS
    pids+=("$daemon_pid")
}
daemon_alive() {
    kill -0 "$daemon_pid" 2>/dev/null && return 0
    local code=0
    wait "$daemon_pid" || code=$?
    fail "the daemon exited by itself with status $code"
}
stored_beyond() { daemon_alive; (($(stored) > $1)); }

# ---------------------------------------------------------------------------------------------
# 1. enrol: the invitation link alone; the device must be found from the patient's consents.
step=enrol
t=$SECONDS
"$gw" enroll "$first_link" --config "$cfg" >"$work/enroll-1.log" 2>&1 || fail "enroll '$first_link': $(cat "$work/enroll-1.log")"
status
[[ $(field uplink.patient_id) == "$patient_id" ]] || fail "enrolled as patient $(field uplink.patient_id), expected $patient_id"
[[ $(field uplink.device_id) == "$device_id" ]] || fail "enrolled with device $(field uplink.device_id), expected $device_id (from the consents)"
mark enrol "$t"
passed+=("enrol ✓")
say "1. enrolled with the link alone: patient $patient_id, device $device_id ($(grep -m1 'token expires' "$work/enroll-1.log" || true))"

# ---------------------------------------------------------------------------------------------
# 2. daemon: started before any strap is bound, then the straps are bound while it runs.
step=daemon
t=$SECONDS
start_daemon
wait_for 60 "queue.sqlite from the daemon" test -f "$state/queue.sqlite"
for i in "${!straps[@]}"; do
    "$gw" pair "${straps[i]}" --patient "$patient_id" --alias "strap-$((i + 1))" --config "$cfg" >>"$work/pair.log" 2>&1 \
        || fail "pair ${straps[i]}: $(tail -3 "$work/pair.log")"
done
wait_for "$deadline" "Observations in JHE from the running daemon" stored_beyond 0
status
say "2. daemon running; straps bound; $(stored) Observations in JHE after $((SECONDS - t)) s"
mark daemon "$t"
passed+=("daemon ✓")

# ---------------------------------------------------------------------------------------------
# 3. doctor: every check passes against the simulated bluetoothd and the real JHE (the clock
# check only if the kernel says the clock is synchronised).
step=doctor
t=$SECONDS
# The daemon renews the 25 s token every ~20 s and JHE revokes the old one at once, so a doctor
# that read credentials.json just before a renewal sees its token refused: only then (the file
# changed during the run) is doctor run once more.
doctor_ok() {
    local before
    before=$(stat -c %i.%Y "$state/credentials.json")
    "$gw" doctor --json --config "$cfg" >"$work/doctor.json" 2>"$work/doctor.err" || true
    python3 "$here/tier.py" doctor "$work/doctor.json" >"$work/doctor.txt" && return 0
    [[ $(stat -c %i.%Y "$state/credentials.json") != "$before" ]] && return 2
    return 1
}
if ! { doctor_ok || { [[ $? == 2 ]] && say "doctor: the token was renewed during the check; once more" && doctor_ok; }; }; then
    cat "$work/doctor.txt" "$work/doctor.err"
    fail "$(tail -1 "$work/doctor.txt")"
fi
cat "$work/doctor.txt"
mark doctor "$t"
passed+=("doctor ✓")
say "3. doctor passed"

# ---------------------------------------------------------------------------------------------
# 4. kill -9 mid-run, then start again: uploads resume.
step=kill-9
t=$SECONDS
before=$(stored)
wait_for "$deadline" "more Observations before the kill" stored_beyond "$before"
kill -9 "$daemon_pid"
wait "$daemon_pid" 2>/dev/null || true
at_kill=$(stored)
start_daemon
wait_for "$deadline" "Observations after the restart (the kill left $at_kill)" stored_beyond "$at_kill"
status
[[ $(field daemon.running) == true ]] || fail "status says the restarted daemon is not running: $(field daemon.detail)"
mark kill9 "$t"
passed+=("kill -9 ✓")
say "4. killed with -9 at $at_kill Observations; restarted; $(stored) now"

# ---------------------------------------------------------------------------------------------
# 5. short-lived tokens: JHE issues $token_seconds s tokens; the daemon must renew them several
# times while uploading, without a 401 loop (JHE's log would show a burst of 401s).
step=tokens
t=$SECONDS
tokens_before=$(jhe_admin tokens "$user_id")
stored_before_tokens=$(stored)
unauthorized_before=$(grep -c '" 401 ' "$work/jhe.log" || true)
want_refreshes=3
refreshes() { daemon_alive; status; (($(field uplink.token_refreshes) >= want_refreshes)); }
wait_for $((deadline + want_refreshes * token_seconds)) "$want_refreshes token refreshes (status: uplink.token_refreshes)" refreshes
refreshed=$(field uplink.token_refreshes)
since_start=$((SECONDS - daemon_started))
elapsed=$((SECONDS - t))
unauthorized=$(($(grep -c '" 401 ' "$work/jhe.log" || true) - unauthorized_before))
tokens_after=$(jhe_admin tokens "$user_id")
server_refreshes=$(($(echo "$tokens_after" | python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_tokens"])') \
    - $(echo "$tokens_before" | python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_tokens"])')))
# A token is renewed when a fifth of its lifetime is left, so a 25 s token every ~20 s while
# uploads run. More than one renewal per half lifetime (plus one) is renewing on every upload;
# more 401s than renewals is a 401 loop.
max_refreshes=$((1 + 2 * since_start / token_seconds))
((refreshed <= max_refreshes)) || fail "$refreshed token refreshes in the $since_start s since the daemon started, with $token_seconds s tokens (at most $max_refreshes expected): the token is renewed far too often (JHE's log: $(grep -c 'POST /o/token/' "$work/jhe.log") token requests, $(grep -c 'POST /FHIR/R5/' "$work/jhe.log") uploads)"
((unauthorized <= refreshed + 1)) || fail "JHE answered 401 $unauthorized times in $elapsed s with $refreshed refreshes: a 401 loop"
((server_refreshes >= want_refreshes - 1)) || fail "JHE saw $server_refreshes refreshes (oauth2_provider_refreshtoken rows) while the gateway counted $refreshed"
[[ $(field uplink.reenrolment_required) == null ]] || fail "re-enrolment required after refreshes: $(field uplink.reenrolment_required)"
stored_after_tokens=$(stored)
((stored_after_tokens > stored_before_tokens)) || fail "no upload reached JHE while the tokens were renewed ($stored_before_tokens Observations before and after)"
mark tokens "$t"
passed+=("tokens ✓ ($refreshed refreshes)")
say "5. $refreshed token refreshes in the $since_start s since the restart (JHE: $server_refreshes new refresh tokens, $unauthorized 401 replies); $((stored_after_tokens - stored_before_tokens)) Observations stored meanwhile"

# ---------------------------------------------------------------------------------------------
# 5b. a renewal cut short: JHE paused (SIGSTOP) until a renewal has gone out and timed out
# unanswered: the gateway's log shows its 60 s deadline passing on a connection JHE's kernel
# accepted ("Operation timed out"; a renewal that never connected would not be answered later).
# The pause is waited on, not timed: how soon a renewal goes out depends on where the token and
# the upload round stood when JHE stopped. Resumed, JHE completes that renewal nobody waits for
# and revokes the refresh token the gateway still holds (no REFRESH_TOKEN_GRACE_PERIOD_SECONDS
# here); the gateway's next renewal gets invalid_grant.
# The grant is lost; the gateway must say why: re-enrolment required, naming the unanswered
# renewal and the setting, and an error line in its log. A new link drains the backlog.
# runserver serves this step one connection at a time (--nothreading), in the order they came:
# threaded, it may run the gateway's retry before the stale renewal, and the retry then wins
# the grant (seen in a run: 13 renewals, no invalid_grant).
step=renewal-cut-short
t=$SECONDS
kill "$jhe_pid"
wait "$jhe_pid" 2>/dev/null || true
start_jhe --nothreading
wait_for "$deadline" "answer from JHE (one connection at a time) on $site_url" jhe_up
log_offset=$(stat -c %s "$work/gateway.log")
renewal_unanswered() {
    daemon_alive
    tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep -q 'within 60.0 seconds (Operation timed out'
}
paused_at=$SECONDS
kill -STOP "$jhe_pid"
poll_until $((token_seconds + 240)) renewal_unanswered || {
    kill -CONT "$jhe_pid"
    fail "no token renewal timed out unanswered in the $((SECONDS - paused_at)) s JHE was paused (the gateway's log: $(tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep -c 'uploads.*failing') failed rounds)"
}
kill -CONT "$jhe_pid"
pause=$((SECONDS - paused_at))
cut_short() { daemon_alive; status; [[ $(field uplink.reenrolment_required) == *"got no answer"* ]]; }
wait_for "$deadline" "re-enrolment required naming the unanswered renewal, after JHE was paused $pause s" cut_short
cut_reason=$(field uplink.reenrolment_required)
[[ $cut_reason == *REFRESH_TOKEN_GRACE_PERIOD_SECONDS* ]] || fail "the re-enrolment reason does not name REFRESH_TOKEN_GRACE_PERIOD_SECONDS: $cut_reason"
tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep ' <3>' | grep -q 're-enrolment required' \
    || fail "the daemon's log has no error line (<3>) saying re-enrolment is required"
cut_link=$(jhe_admin invite "$patient_id" "$application_id") || fail "no invitation link after the cut-short renewal"
"$gw" enroll "$cut_link" --config "$cfg" >"$work/enroll-cut.log" 2>&1 || fail "enroll after the cut-short renewal: $(cat "$work/enroll-cut.log")"
cut_stored=$(stored)
wait_for "$deadline" "uploads after enrolling again" stored_beyond "$cut_stored"
kill "$jhe_pid"
wait "$jhe_pid" 2>/dev/null || true
start_jhe
wait_for "$deadline" "answer from JHE's /health on $site_url (threaded again)" jhe_up
mark renewal_cut_short "$t"
passed+=("renewal cut short ✓")
say "5b. JHE paused $pause s during a renewal → \"${cut_reason:0:200}…\"; enrolled again, uploads resumed"

# ---------------------------------------------------------------------------------------------
# 6. tokens revoked in JHE: re-enrolment required, samples keep buffering; a new invitation
# link enrolled while the daemon runs drains the backlog.
step=revoke
t=$SECONDS
revoked=$(jhe_admin revoke "$user_id") || fail "could not delete the user's tokens in JHE"
reenrolment() { daemon_alive; status; [[ $(field uplink.reenrolment_required) != null ]]; }
wait_for "$deadline" "re-enrolment required in status --json after the tokens were revoked ($revoked)" reenrolment
reason=$(field uplink.reenrolment_required)
if "$gw" enroll --status --config "$cfg" >"$work/enroll-status.log" 2>&1; then
    fail "enroll --status exits 0 while re-enrolment is required: $(cat "$work/enroll-status.log")"
fi
grep -qi 're-enrol' "$work/enroll-status.log" || fail "enroll --status does not say re-enrolment is required: $(cat "$work/enroll-status.log")"
queue_stats
pending_at_revocation=$(queue_field pending)
stored_at_revocation=$(stored)
# Samples keep being accepted while nothing can be uploaded: the backlog grows.
backlog_grows() { daemon_alive; queue_stats; (($(queue_field pending) >= pending_at_revocation + 15 * sensors)); }
wait_for "$deadline" "a growing backlog while re-enrolment is required" backlog_grows
backlog=$(queue_field pending)
(($(stored) == stored_at_revocation)) || fail "JHE stored Observations while the gateway's grant was revoked ($stored_at_revocation, then $(stored))"
second_link=$(jhe_admin invite "$patient_id" "$application_id") || fail "no second invitation link"
"$gw" enroll "$second_link" --config "$cfg" >"$work/enroll-2.log" 2>&1 || fail "enroll with a new link: $(cat "$work/enroll-2.log")"
drained() { daemon_alive; queue_stats; (($(queue_field pending) < 5 * sensors)) && (($(stored) > stored_at_revocation)); }
wait_for "$deadline" "the backlog of $backlog samples to drain after re-enrolment" drained
# status takes re-enrolment from the daemon's report (rewritten every 5 s) too: poll.
reenrolled() { status; [[ $(field uplink.reenrolment_required) == null ]]; }
wait_for 30 "status --json to stop saying re-enrolment is required after enrolling again" reenrolled
mark revoke "$t"
passed+=("re-enrol ✓")
say "6. revoked → \"$reason\"; backlog $backlog; new link enrolled; pending now $(queue_field pending)"

# ---------------------------------------------------------------------------------------------
# 7. consent withdrawn: entries answered 403 become dead letters; consent restored and
# `queue retry-dead` delivers them.
step=consent
t=$SECONDS
jhe_admin consent "$patient_id" false >/dev/null || fail "could not withdraw consent"
dead_letters() { daemon_alive; queue_stats; (($(queue_field dead) >= 2 * sensors)); }
wait_for "$deadline" "dead letters after consent was withdrawn" dead_letters
"$gw" queue dead --json --config "$cfg" >"$work/dead.json" 2>"$work/dead.err" || fail "queue dead: $(cat "$work/dead.err")"
dead_reason=$(python3 "$here/tier.py" get "$work/dead.json" reason)
grep -qi 'consent' <<<"$dead_reason" || fail "the dead letters' reason does not mention consent: $dead_reason"
jhe_admin consent "$patient_id" true >/dev/null || fail "could not restore consent"
# New samples are delivered again once consent is back; only then retry the dead ones.
consent_back=$(stored)
wait_for "$deadline" "deliveries after consent was restored" stored_beyond "$consent_back"
"$gw" queue retry-dead --config "$cfg" >"$work/retry-dead.log" 2>&1 || fail "queue retry-dead: $(cat "$work/retry-dead.log")"
moved=$(grep -o '[0-9]\+' "$work/retry-dead.log" | head -1)
((moved > 0)) || fail "retry-dead moved nothing: $(cat "$work/retry-dead.log")"
no_dead() { daemon_alive; queue_stats; (($(queue_field dead) == 0)) && (($(queue_field pending) < 5 * sensors)); }
wait_for "$deadline" "the $moved retried dead letters to be delivered" no_dead
mark consent "$t"
passed+=("consent ✓ ($moved dead letters retried)")
say "7. consent withdrawn → $moved dead letters (\"$dead_reason\"); restored; retry-dead delivered them"

# ---------------------------------------------------------------------------------------------
# 8. JHE down for $outage_seconds s: status shows the error and the log warns while it is down;
# after the restart the backlog drains. The outage length is the scenario itself (the one
# deliberate sleep); every check inside it polls.
step=outage
t=$SECONDS
log_offset=$(stat -c %s "$work/gateway.log")
down_at=$(now)
kill "$jhe_pid"
wait "$jhe_pid" 2>/dev/null || true
! jhe_up || fail "JHE still answers after its runserver was stopped"
# The current error: `current_error` where the build reports one, else `last_error` (with
# `last_error_at` from after JHE went down, so it is not an older error).
error_reported() {
    daemon_alive; status
    [[ $(field uplink.current_error) != null ]] || return 1
    uplink_error=$(field uplink.current_error)
}
uplink_error=
# Both must appear while JHE is still down (within the outage), not only some time later.
poll_until "$outage_seconds" error_reported \
    || fail "JHE has been down for $outage_seconds s and status --json shows no current uplink error (last_error: $(field uplink.last_error))"
error_after=$(python3 -c "import time; print(f'{time.time() - $down_at:.0f}')")
# "Since when" (`failing_since`) must be a time within the outage.
since=$(python3 - "$work/status.json" "$down_at" 2>&1 <<'PY'
import datetime, json, sys
uplink = json.load(open(sys.argv[1]))["uplink"]
down_at = float(sys.argv[2])
if "failing_since" not in uplink:
    sys.exit(f"status --json shows the error but not since when (uplink keys: {', '.join(uplink)})")
for key, value in [("failing_since", uplink["failing_since"])]:
    when = datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp() if value else None
    if when is None or not (down_at - 2 <= when <= datetime.datetime.now().timestamp() + 1):
        sys.exit(f"uplink.{key} = {value}, but JHE went down at {datetime.datetime.fromtimestamp(down_at, datetime.timezone.utc).isoformat()}")
    print(f"{key}={value}")
PY
) || fail "$since"
# The warning must be about this error: it names the error's code (e.g. uplink.connection-failed).
error_code=$(grep -o '\[uplink\.[a-z-]*\]' <<<"$uplink_error" | head -1 || true)
warned() { tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep ' <4>' | grep -qF "${error_code:-<4>}"; }
poll_until "$(python3 -c "import time; print(max(1, int($outage_seconds - (time.time() - $down_at))))")" warned \
    || fail "JHE has been down for $outage_seconds s and the daemon's log has no warning (<4>) about it"
warning=$(tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep ' <4>' | grep -m1 -F "${error_code:-<4>}")
warning_after=$(python3 -c "import time; print(f'{time.time() - $down_at:.0f}')")
remaining=$(python3 -c "import time; print(max(0, $outage_seconds - (time.time() - $down_at)))")
sleep "$remaining"
start_jhe
# /health is polled every 0.2 s here: the time it first answers is "JHE is back".
python3 - "$site_url/health" "$deadline" <<'PY' || fail "JHE's /health did not answer within $deadline s of the restart"
import sys, time, urllib.request
until = time.time() + float(sys.argv[2])
while time.time() < until:
    try:
        with urllib.request.urlopen(sys.argv[1], timeout=2) as reply:
            if reply.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit(1)
PY
up_at=$(now)
outage_real=$(python3 -c "print(f'{$up_at - $down_at:.0f}')")
# The first Observation JHE stored after it went down (nothing can be stored while it is down),
# by JHE's own clock (the same machine's).
first_since_down() { psql_jhe -c "SELECT coalesce(extract(epoch FROM min(last_updated)), 0) FROM core_observation WHERE subject_patient_id = $patient_id AND last_updated > to_timestamp($down_at)"; }
first_upload() { daemon_alive; [[ $(first_since_down) != 0 ]]; }
wait_for $((deadline + 300)) "an upload after JHE came back" first_upload
resume_s=$(python3 -c "print(f'{$(first_since_down) - $up_at:.1f}')")
no_backlog() { daemon_alive; queue_stats; (($(queue_field pending) < 5 * sensors)); }
wait_for "$deadline" "the outage backlog to drain" no_backlog
recovered=$(tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep ' <5>' | grep -m1 'uploads recovered') \
    || fail "uploads resumed but the daemon's log has no notice (<5>) 'uploads recovered'"
warnings=$(tail -c +"$((log_offset + 1))" "$work/gateway.log" | grep -c ' <4>edge-gateway: uploads are failing' || true)
((warnings == 1)) || fail "the outage was logged at warning $warnings times; once per outage is expected"
mark outage "$t"
passed+=("outage ✓ (first upload ${resume_s} s after JHE was back)")
say "8. JHE down $outage_real s; status --json showed the error ${error_after} s after it went down (since: $since): \"${uplink_error:0:160}\""
say "   daemon log warned within ${warning_after} s: ${warning:0:200}"
say "   JHE back: first upload landed $resume_s s later; backlog drained; log: ${recovered:0:120}"

# ---------------------------------------------------------------------------------------------
# 9. drain and graceful stop: unbind the straps (no new samples), let the queue empty, then
# SIGTERM must end the daemon with status 0.
step=drain
t=$SECONDS
for strap in "${straps[@]}"; do
    "$gw" forget "$strap" --config "$cfg" >>"$work/forget.log" 2>&1 || fail "forget $strap: $(tail -3 "$work/forget.log")"
done
# Empty: nothing pending, leased or dead, and nothing held for the clock.
queue_empty() { [[ "$(queue_field pending leased dead held | paste -sd' ')" == "0 0 0 0" ]]; }
# The daemon notices `forget` when it next reads sensors.json; until its report lists no
# strap, samples may still arrive. Once it lists none, the queue must be seen empty in a
# report written after that (the last samples a supervisor handed over before it stopped are
# committed within commit_interval_ms, well inside one report period).
straps_gone() {
    daemon_alive; status
    [[ $(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["sensors"]))' "$work/status.json") == 0 ]] || return 1
    gone_report=$(field daemon.last_report_at)
}
wait_for "$deadline" "the daemon to drop the forgotten straps" straps_gone
empty() { daemon_alive; status; [[ $(field daemon.last_report_at) != "$gone_report" ]] && queue_stats && queue_empty; }
wait_for "$((deadline + 120))" "an empty queue (pending, leased, dead, held all 0)" empty
stop_offset=$(stat -c %s "$work/gateway.log")
kill -TERM "$daemon_pid"
code=0
wait "$daemon_pid" || code=$?
((code == 0)) || fail "SIGTERM ended the daemon with status $code, expected 0"
# A graceful stop is not a failure: nothing at warning or worse after SIGTERM.
stop_warnings=$(tail -c +"$((stop_offset + 1))" "$work/gateway.log" | grep -E ' <[0-4]>' || true)
[[ -z $stop_warnings ]] || fail "the graceful stop logged warnings or errors: ${stop_warnings:0:300}"
queue_stats
queue_empty || fail "the queue is not empty after the stop: $(cat "$work/queue.json")"
mark drain "$t"
passed+=("graceful stop ✓")
say "9. straps unbound, queue empty, SIGTERM → exit 0"

# ---------------------------------------------------------------------------------------------
# 10. JHE's own database: every sample the gateway ever accepted (its `accepted samples` debug
# lines; tier.py explains why) is an Observation of this patient, exactly once, with its urn:uuid
# identifier (core_observationidentifier), and there is nothing else. The one kill -9 (step 4)
# may fall between a commit and its log line: up to two samples per strap may be in JHE unnamed.
step=stored-once
t=$SECONDS
# With each Observation's OMH header uuid (the gateway's sample id): JHE writes an Observation and
# then its identifier in two statements, so the outage step's kill can leave the first without
# the second (tier.py compare tells that partial write apart from a sample stored twice).
psql_jhe -F '|' -c "SELECT o.id, coalesce(i.system, ''), coalesce(i.value, ''), coalesce(o.omh_data->'header'->>'uuid', '')
    FROM core_observation o LEFT JOIN core_observationidentifier i ON i.observation_id = o.id
    WHERE o.subject_patient_id = $patient_id AND o.codeable_concept_id = $concept_id" >"$work/jhe-identifiers.txt"
python3 "$here/tier.py" compare "$work/gateway.log" "$work/jhe-identifiers.txt" "$((2 * sensors))" 1 >"$work/verdict.json" \
    || fail "JHE's database does not hold every accepted sample exactly once: $(cat "$work/verdict.json")"
accepted=$(python3 "$here/tier.py" get "$work/verdict.json" accepted)
# Samples held for the clock (held.sqlite) are moved into the upload queue; none may be left
# behind.
if [[ -f $state/held.sqlite ]]; then
    left=$(python3 -c "import sqlite3, sys; db = sqlite3.connect(f'file:{sys.argv[1]}?mode=ro', uri=True)
print(sum(db.execute(f'SELECT count(*) FROM {t}').fetchone()[0] for t in ('records', 'dead_letters')))" "$state/held.sqlite")
    ((left == 0)) || fail "$left record(s) left in held.sqlite"
fi
mark stored "$t"
say "10. $accepted samples accepted by the gateway ($(python3 "$here/tier.py" get "$work/verdict.json" accepted_unlogged) more in the kill's window); $(python3 "$here/tier.py" get "$work/verdict.json" observations) Observations in JHE, identifiers unique"

# ---------------------------------------------------------------------------------------------
# 11. a clinic gateway (contract §2b): enrolled with a practitioner's client-credentials key,
# two straps bound to two patients, uploads for both, its 25 s tokens renewed with the same key
# (no refresh token), and the practitioner deleting the client: the key is refused, said in
# status, samples keep buffering, SIGTERM still stops it with 0.
step=clinic
t=$SECONDS
read -r organization_id study_id < <(python3 "$here/tier.py" get "$work/provision.json" organization_id study_id | paste -sd' ')
jhe_admin clinic "$organization_id" "$study_id" >"$work/clinic.json" 2>>"$work/provision.log" || fail "could not provision the clinic (see $work/provision.log)"
read -r second_patient clinic_application < <(python3 "$here/tier.py" get "$work/clinic.json" patient_id application_id | paste -sd' ')
clinic_key=$(python3 "$here/tier.py" get "$work/clinic.json" key)
clinic_cfg=$work/clinic.toml
sed -e "s|^name = \"test-jhe\"|name = \"test-jhe-clinic\"|" -e "s|^state_dir = .*|state_dir = \"$work/clinic-state\"|" "$cfg" >"$clinic_cfg"
"$gw" enroll --client-credentials "$clinic_key" --base-url "$site_url" --device "$device_id" --config "$clinic_cfg" >"$work/enroll-clinic.log" 2>&1 \
    || fail "enroll --client-credentials: $(cat "$work/enroll-clinic.log")"
stored_for() { psql_jhe -c "SELECT count(*) FROM core_observation WHERE subject_patient_id = $1 AND codeable_concept_id = $concept_id"; }
first_before=$(stored_for "$patient_id")
"$gw" pair "${straps[0]}" --patient "$patient_id" --alias bed-1 --config "$clinic_cfg" >>"$work/pair.log" 2>&1 || fail "clinic pair ${straps[0]}"
"$gw" pair "${straps[1]}" --patient "$second_patient" --alias bed-2 --config "$clinic_cfg" >>"$work/pair.log" 2>&1 || fail "clinic pair ${straps[1]}"
echo "---- test-jhe: clinic edge-gateway run started $(date -u +%FT%TZ)" >>"$work/gateway.log"
"$gw" run --config "$clinic_cfg" --log-level debug > >(stamp >>"$work/gateway.log") 2>&1 &
clinic_pid=$!
pids+=("$clinic_pid")
clinic_status() {
    kill -0 "$clinic_pid" 2>/dev/null || fail "the clinic daemon exited by itself"
    "$gw" status --json --config "$clinic_cfg" >"$work/status.json" 2>"$work/status.err" || fail "clinic status --json: $(cat "$work/status.err")"
}
both_patients() { clinic_status; (($(stored_for "$patient_id") > first_before)) && (($(stored_for "$second_patient") > 0)); }
wait_for "$deadline" "Observations for both patients from the clinic gateway" both_patients
clinic_renewed() { clinic_status; (($(field uplink.token_refreshes) >= 2)); }
wait_for $((deadline + 2 * token_seconds)) "2 renewals of the clinic's $token_seconds s token with its key" clinic_renewed
clinic_renewals=$(field uplink.token_refreshes)
# The token endpoint under load while the gateways upload: what a renewal's deadline (60 s at
# least) must cover.
token_load=$(python3 "$here/token_load.py" "$site_url" "$clinic_key" 200 20 2>"$work/token-load.err") \
    || fail "token requests under load failed: $(tail -3 "$work/token-load.err")"
jhe_admin delete-client "$clinic_application" >/dev/null || fail "could not delete the practitioner client"
key_refused() { clinic_status; [[ $(field uplink.current_error) == *"client-credentials key"* ]]; }
wait_for "$deadline" "status to say the client-credentials key is refused after the client was deleted" key_refused
clinic_error=$(field uplink.current_error)
kill -TERM "$clinic_pid"
code=0
wait "$clinic_pid" || code=$?
((code == 0)) || fail "SIGTERM ended the clinic daemon with status $code, expected 0"
mark clinic "$t"
passed+=("clinic ✓ (client credentials, 2 patients, $clinic_renewals renewals, client deleted)")
say "11. clinic gateway: $(stored_for "$second_patient") Observations for patient $second_patient and more for $patient_id; $clinic_renewals renewals with the key; client deleted → \"${clinic_error:0:160}\""
say "11. JHE's token endpoint under load: $token_load"

failed=0
timings=""
for name in postgresql uv_sync migrate seed provisioning runserver jhe_total enrol daemon doctor kill9 tokens renewal_cut_short revoke consent outage drain stored clinic; do
    timings+=" $name=${timing[$name]:-?}"
done
say "timings (s):$timings"
summary=$(IFS=,; echo "${passed[*]}" | sed 's/,/ · /g')
echo "test-jhe: passed in $((SECONDS - started)) s: $summary · $accepted samples stored once"
