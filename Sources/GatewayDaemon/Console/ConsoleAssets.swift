/// The console's page, style and script, served from the binary (no CDN, no file to install).
/// The chart is drawn by the script as SVG: a charting library would add a dependency and a
/// file to serve for one line per strap.
enum ConsoleAssets {
    static let page = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>edge-gateway</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/console.css">
        <script src="/console.js" defer></script>
        </head>
        <body>
        <header>
        <h1><span id="gateway-name">edge-gateway</span></h1>
        <p id="link" role="status">connecting…</p>
        <button id="logout" type="button" hidden>Log out</button>
        </header>
        <main>
        <section aria-labelledby="alerts-title">
        <h2 id="alerts-title">Alerts</h2>
        <ul id="alerts" aria-live="polite"><li class="ok">none</li></ul>
        </section>
        <section aria-labelledby="straps-title">
        <h2 id="straps-title">Straps</h2>
        <div class="scroll"><table id="straps">
        <thead><tr><th scope="col">Strap</th><th scope="col">Patient</th><th scope="col">Adapter</th><th scope="col">State</th><th scope="col">Heart rate</th><th scope="col">Last 10 minutes</th><th scope="col">RR (ms)</th><th scope="col">Skin contact</th><th scope="col">Battery</th><th scope="col">Signal</th><th scope="col">Last sample</th></tr></thead>
        <tbody></tbody>
        </table></div>
        </section>
        <section aria-labelledby="adapters-title">
        <h2 id="adapters-title">Adapters</h2>
        <div class="scroll"><table id="adapters">
        <thead><tr><th scope="col">Adapter</th><th scope="col">Address</th><th scope="col">Powered</th><th scope="col">Slots used</th><th scope="col">Slots free</th><th scope="col">Straps</th></tr></thead>
        <tbody></tbody>
        </table></div>
        </section>
        <section aria-labelledby="queue-title">
        <h2 id="queue-title">Queue</h2>
        <dl id="queue"></dl>
        </section>
        <section aria-labelledby="uploads-title">
        <h2 id="uploads-title">Upload history</h2>
        <div class="scroll"><table id="uploads">
        <thead><tr><th scope="col">When</th><th scope="col">Samples</th><th scope="col">Stored</th><th scope="col">Already stored</th><th scope="col">Refused</th><th scope="col">Left queued</th><th scope="col">Took</th><th scope="col">Why left queued</th></tr></thead>
        <tbody></tbody>
        </table></div>
        </section>
        <section aria-labelledby="uplink-title">
        <h2 id="uplink-title">Uplink</h2>
        <dl id="uplink"></dl>
        </section>
        <section aria-labelledby="actions-title">
        <h2 id="actions-title">Actions</h2>
        <p class="actions"><button type="button" data-action="retry-dead">Retry dead letters</button>
        <button type="button" data-action="release-held">Release held samples</button>
        <button type="button" data-action="doctor">Run doctor</button></p>
        <p id="action-result" role="status" aria-live="polite"></p>
        <ul id="doctor"></ul>
        </section>
        </main>
        </body>
        </html>
        """

    static let style = """
        :root { --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --bad: #a40000; --warn: #7a4a00; --good: #1d5e20; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.4 system-ui, sans-serif; color: var(--ink); background: #fff; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 1rem; padding: 0.5rem 1rem; border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.3rem; margin: 0; }
        h2 { font-size: 1.1rem; margin: 1rem 0 0.4rem; }
        main { padding: 0 1rem 2rem; }
        #link.live { color: var(--good); }
        #link.lost { color: var(--bad); font-weight: bold; }
        #alerts { list-style: none; padding: 0; margin: 0; }
        #alerts li { padding: 0.3rem 0.6rem; margin: 0.2rem 0; border-left: 4px solid var(--bad); background: #fbeaea; }
        #alerts li.ok { border-left-color: var(--good); background: #eaf4ea; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
        th { color: var(--muted); font-weight: 600; }
        td.bpm { font-size: 1.6rem; font-variant-numeric: tabular-nums; font-weight: 700; }
        td.unit { white-space: nowrap; }
        td.none { color: var(--muted); }
        td .detail { display: block; color: var(--muted); font-size: 0.85rem; }
        .state-subscribed { color: var(--good); }
        .state-other { color: var(--warn); }
        svg.chart { width: 12rem; height: 2.5rem; display: block; }
        svg.chart polyline { fill: none; stroke: #b00020; stroke-width: 2; vector-effect: non-scaling-stroke; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; }
        #logout { margin-left: auto; }
        p.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
        #doctor { list-style: none; padding: 0; }
        #doctor li { padding: 0.2rem 0; }
        #doctor li.bad { color: var(--bad); }
        #doctor .detail { display: block; color: var(--muted); font-size: 0.9rem; }
        button, input { font: inherit; padding: 0.4rem 0.8rem; }
        form.login { max-width: 22rem; margin: 2rem auto; display: grid; gap: 0.5rem; }
        form.login .alert { margin: 0; padding: 0.3rem 0.6rem; border-left: 4px solid var(--bad); background: #fbeaea; }
        @media (max-width: 40rem) {
          body { font-size: 15px; }
          table thead { position: absolute; left: -10000px; }
          table tr { display: grid; grid-template-columns: 1fr 1fr; gap: 0.1rem 0.8rem; padding: 0.5rem 0; border-bottom: 1px solid var(--line); }
          table td { border: none; padding: 0.1rem 0; }
          table td::before { content: attr(data-label); display: block; color: var(--muted); font-size: 0.8rem; }
          svg.chart { width: 100%; }
        }
        """

    static let script = """
        "use strict";
        // The console: one EventSource on /api/events: a snapshot of the daemon ("status") every 10
        // seconds, and between them the straps' live figures ("live") as samples arrive, a second at
        // most apart. Every value is written with textContent, never as HTML, so names, patient
        // ids and server errors cannot inject markup. The heart-rate chart is drawn here as SVG: the daemon's last 10 minutes
        // (/api/history, one reading a second) when the page opens, then each sample the events bring.
        const WINDOW_MS = 10 * 60 * 1000;
        const SILENT_MS = 30 * 1000;
        const history = new Map();
        const SVG = "http://www.w3.org/2000/svg";

        function el(tag, text, className) {
          const node = document.createElement(tag);
          if (text !== undefined && text !== null) node.textContent = String(text);
          if (className) node.className = className;
          return node;
        }

        function age(iso, now) {
          if (!iso) return "never";
          const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
          if (seconds < 120) return seconds + " s ago";
          if (seconds < 7200) return Math.round(seconds / 60) + " min ago";
          return Math.round(seconds / 3600) + " h ago";
        }

        function record(sensor, now) {
          let points = history.get(sensor.address);
          if (!points) { points = []; history.set(sensor.address, points); }
          if (sensor.bpm != null && sensor.lastSampleAt) {
            const at = Date.parse(sensor.lastSampleAt);
            if (!points.length || points[points.length - 1][0] !== at) points.push([at, sensor.bpm]);
          }
          while (points.length && points[0][0] < now - WINDOW_MS) points.shift();
          return points;
        }

        // Readings from /api/history ([second, bpm]) go before the points the events brought already.
        function seed(straps) {
          for (const strap of straps) {
            const points = history.get(strap.address) || [];
            const first = points.length ? points[0][0] : Infinity;
            history.set(strap.address, strap.readings.map(([second, bpm]) => [second * 1000, bpm]).filter((p) => p[0] < first).concat(points));
          }
        }

        const CONTACT = { "detected": "on skin", "not-detected": "off skin", "not-supported": "not reported" };

        function chart(points, now) {
          const svg = document.createElementNS(SVG, "svg");
          svg.setAttribute("class", "chart");
          svg.setAttribute("viewBox", "0 0 600 100");
          svg.setAttribute("preserveAspectRatio", "none");
          svg.setAttribute("role", "img");
          const bpms = points.map((p) => p[1]);
          svg.setAttribute("aria-label", points.length
            ? "heart rate over the last 10 minutes, " + Math.min(...bpms) + " to " + Math.max(...bpms) + " bpm"
            : "no heart rate yet");
          const line = document.createElementNS(SVG, "polyline");
          const low = 30, high = 210;
          line.setAttribute("points", points.map(([at, bpm]) => {
            const x = 600 - (now - at) / WINDOW_MS * 600;
            const y = 100 - (Math.min(high, Math.max(low, bpm)) - low) / (high - low) * 100;
            return x.toFixed(1) + "," + y.toFixed(1);
          }).join(" "));
          svg.appendChild(line);
          return svg;
        }

        function alerts(snapshot, now) {
          const report = snapshot.report, list = [];
          for (const sensor of report.sensors) {
            const last = sensor.lastSampleAt ? Date.parse(sensor.lastSampleAt) : null;
            if (last === null || now - last > SILENT_MS) {
              list.push("Strap " + (sensor.alias || sensor.address) + " silent: last sample " + age(sensor.lastSampleAt, now) + " (" + sensor.stateDetail + ")");
            }
          }
          const uplink = report.uplink;
          if (uplink.reenrolmentRequired) list.push("Re-enrolment required: " + uplink.reenrolmentRequired + " — run edge-gateway enroll with a new invitation link");
          if (uplink.currentError) list.push("Uploads failing since " + age(uplink.failingSince, now) + ": " + uplink.currentError);
          if (report.samplesAwaitingClock > 0) list.push("Clock not synchronised: " + report.samplesAwaitingClock + " samples held until it is");
          else if (!report.clockSynchronized) list.push("Clock not synchronised (check NTP: timedatectl)");
          if (report.storageFault) list.push("The queue cannot write to its disk: " + report.storageFault);
          for (const file of snapshot.movedAside || []) {
            list.push("A damaged queue file was moved aside: " + file.path + " (" + file.bytes + " bytes); import its records with edge-gateway queue import");
          }
          if (snapshot.disk && (snapshot.disk.readOnly || snapshot.disk.freeBytes < 256 * 1024 * 1024)) {
            list.push("Disk nearly full or read-only: " + Math.round(snapshot.disk.freeBytes / 1048576) + " MB free");
          }
          return list;
        }

        function noRows(text, columns) {
          const row = el("tr"), cell = el("td", text, "none");
          cell.colSpan = columns;
          row.appendChild(cell);
          return row;
        }

        // Each cell carries its column's name, which a phone's layout shows beside it (cards, not columns).
        function labelCells(row, table) {
          const names = [...document.querySelectorAll(table + " thead th")].map((th) => th.textContent);
          [...row.children].forEach((cell, index) => { cell.dataset.label = names[index]; });
        }

        function render(snapshot) {
          const now = Date.now(), report = snapshot.report;
          document.getElementById("gateway-name").textContent = report.gatewayName;
          document.title = report.gatewayName + " — edge-gateway";

          const alertList = document.getElementById("alerts");
          const found = alerts(snapshot, now);
          alertList.replaceChildren(...(found.length ? found.map((text) => el("li", text)) : [el("li", "none", "ok")]));

          const straps = document.querySelector("#straps tbody");
          straps.replaceChildren(...report.sensors.map((sensor) => {
            const row = el("tr");
            row.dataset.address = sensor.address;
            row.dataset.state = sensor.state;
            row.dataset.lastSample = sensor.lastSampleAt || "";
            const name = el("td", sensor.alias || sensor.address);
            if (sensor.alias) name.appendChild(el("span", sensor.address, "detail"));
            const state = el("td", sensor.state, sensor.state === "subscribed" ? "state-subscribed" : "state-other");
            if (sensor.stateDetail !== sensor.state) state.appendChild(el("span", sensor.stateDetail, "detail"));
            const chartCell = el("td");
            chartCell.appendChild(chart(record(sensor, now), now));
            row.append(name, el("td", sensor.patientID || "—"), el("td", sensor.adapter || "—"), state,
              el("td", sensor.bpm == null ? "—" : sensor.bpm, "bpm"), chartCell,
              el("td", sensor.rrIntervalsMs && sensor.rrIntervalsMs.length ? sensor.rrIntervalsMs.map((ms) => Math.round(ms)).join(", ") : "—"),
              el("td", CONTACT[sensor.skinContact] || "—", sensor.skinContact === "not-detected" ? "state-other" : ""),
              el("td", sensor.batteryPercent == null ? "—" : sensor.batteryPercent + " %", "unit"),
              el("td", sensor.rssi == null ? "—" : sensor.rssi + " dBm", "unit"), el("td", age(sensor.lastSampleAt, now)));
            labelCells(row, "#straps");
            return row;
          }));

          const adapters = document.querySelector("#adapters tbody");
          adapters.replaceChildren(...report.adapters.map((adapter) => {
            const row = el("tr");
            row.append(el("td", adapter.name), el("td", adapter.address || "—"), el("td", adapter.powered ? "yes" : "no"),
              el("td", adapter.straps.length + " of " + adapter.slots), el("td", Math.max(0, adapter.slots - adapter.straps.length)),
              el("td", adapter.straps.join(", ") || "—"));
            labelCells(row, "#adapters");
            return row;
          }));

          const uploads = document.querySelector("#uploads tbody");
          const rounds = (snapshot.uploads || []).slice(0, 10);
          uploads.replaceChildren(...(rounds.length ? rounds.map((round) => {
            const row = el("tr");
            row.append(el("td", age(round.at, now)), el("td", round.samples), el("td", round.delivered), el("td", round.duplicate),
              el("td", round.rejected, round.rejected ? "state-other" : ""), el("td", round.unsettled, round.unsettled ? "state-other" : ""),
              el("td", Math.round(round.seconds * 1000) + " ms", "unit"), el("td", round.error || "—"));
            labelCells(row, "#uploads");
            return row;
          }) : [noRows("no upload round since the daemon started", 8)]));

          const pairs = (id, entries) => document.getElementById(id).replaceChildren(...entries.flatMap(([term, value]) => [el("dt", term), el("dd", value)]));
          const queue = snapshot.queue;
          pairs("queue", queue ? [["pending", queue.pending], ["leased", queue.leased], ["dead letters", queue.dead],
            ["held for the clock", report.samplesAwaitingClock], ["evicted", queue.evicted],
            ["oldest pending", queue.pending ? queue.oldestPendingAgeSeconds + " s" : "—"]] : [["queue", "cannot be read"]]);
          const uplink = report.uplink;
          pairs("uplink", [["server", uplink.server || "not enrolled"], ["last success", age(uplink.lastSuccessAt, now)],
            ["current error", uplink.currentError ? uplink.currentError + " (since " + age(uplink.failingSince, now) + ")" : "none"],
            ["token expires", uplink.tokenExpiresAt || "—"], ["re-enrolment", uplink.reenrolmentRequired || "not required"]]);
        }

        function connect() {
          const link = document.getElementById("link");
          fetch("/api/history").then((reply) => reply.json()).then((data) => seed(data.sensors)).catch(() => {});
          const source = new EventSource("/api/events");
          let latest = null;
          const shown = (snapshot) => {
            link.textContent = "live";
            link.className = "live";
            latest = snapshot;
            render(snapshot);
          };
          source.addEventListener("status", (event) => shown(JSON.parse(event.data)));
          // Between snapshots, each strap's live figures laid over its entry in the last snapshot.
          source.addEventListener("live", (event) => {
            if (!latest) return;
            const live = new Map(JSON.parse(event.data).sensors.map((sensor) => [sensor.address, sensor]));
            const sensors = latest.report.sensors.map((sensor) => Object.assign({}, sensor, live.get(sensor.address)));
            shown(Object.assign({}, latest, { report: Object.assign({}, latest.report, { sensors }) }));
          });
          // Ages and the silent-strap alert move with the clock, not with the events (the gateway
          // sends only when a figure moves): the page renders itself again each second.
          setInterval(() => { if (latest) render(latest); }, 1000);
          source.onerror = () => {
            link.textContent = "connection to the gateway lost; retrying…";
            link.className = "lost";
            // Beyond loopback a session ends (logout elsewhere, 12 hours, a new password): log in again.
            fetch("/api/session").then((reply) => { if (reply.status === 401) location.assign("/login"); }).catch(() => {});
          };
        }

        // Every state-changing request carries the CSRF token /api/session gives (a page elsewhere
        // cannot read it); beyond loopback the page also has a session to log out of.
        let csrf = "";
        function session() {
          fetch("/api/session").then((reply) => (reply.ok ? reply.json() : null)).then((data) => {
            if (!data) return;
            csrf = data.csrf;
            if (!data.session) return;
            const button = document.getElementById("logout");
            button.hidden = false;
            button.onclick = () =>
              fetch("/logout", { method: "POST", headers: { "X-CSRF-Token": csrf } }).then(() => location.assign("/login"));
          }).catch(() => {});
        }

        function describe(name, ok, data) {
          if (!ok) return "failed: " + (data.error || "the gateway refused");
          if (name === "retry-dead") return data.moved + " dead letter(s) moved back to pending";
          if (name === "release-held") {
            return data.released + " held sample(s) released: " + data.repaired + " queued, " + data.unrepairable
              + " from an earlier boot to dead letters, " + data.undecodable + " undecodable";
          }
          return data.failed === 0 ? "doctor: all " + data.passed + " checks passed"
            : "doctor: " + data.failed + " of " + (data.passed + data.failed) + " checks failed";
        }

        function doctor(checks) {
          document.getElementById("doctor").replaceChildren(...checks.map((check) => {
            const item = el("li", (check.ok ? "✓ " : "✗ ") + check.check + ": " + check.detail, check.ok ? "ok" : "bad");
            if (check.fix) item.append(el("span", "fix: " + check.fix, "detail"));
            return item;
          }));
        }

        function actions() {
          for (const button of document.querySelectorAll("button[data-action]")) {
            button.onclick = () => {
              const name = button.dataset.action;
              const result = document.getElementById("action-result");
              result.textContent = button.textContent + "…";
              button.disabled = true;
              fetch("/api/actions/" + name, { method: "POST", headers: { "X-CSRF-Token": csrf } })
                .then((reply) => ((reply.headers.get("Content-Type") || "").startsWith("application/json")
                  ? reply.json() : reply.text().then((text) => ({ error: text.trim() }))).then((data) => [reply.ok, data]))
                .then(([ok, data]) => {
                  result.textContent = describe(name, ok, data);
                  if (name === "doctor" && ok) doctor(data.checks);
                })
                .catch((error) => { result.textContent = "failed: " + error; })
                .finally(() => { button.disabled = false; });
            };
          }
        }

        connect();
        session();
        actions();
        """
}
