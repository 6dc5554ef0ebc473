/// The dashboard page: one HTML document with its style and script, no external assets (the same rule as
/// `report.html`). It follows `/api/events` and asks for the token only when a control is used (kept for the tab).
enum DashboardPage {
    static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <title>ibtrader</title>
    <style>
    :root { --bg:#f6f7f9; --card:#fff; --ink:#1d2330; --mute:#6b7385; --line:#e2e5ea; --good:#137a3a; --bad:#b3261e; --warn:#a15c00; }
    * { box-sizing: border-box; }
    body { margin:0; font:14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; background:var(--bg); color:var(--ink); }
    header { display:flex; flex-wrap:wrap; align-items:center; gap:12px; padding:12px 20px; background:var(--card); border-bottom:1px solid var(--line); }
    h1 { font-size:18px; margin:0 8px 0 0; }
    .badge { padding:2px 8px; border-radius:10px; font-weight:600; font-size:12px; border:1px solid var(--line); }
    .paper { background:#e8f1ff; color:#1d4ed8; } .live { background:#fde8e8; color:var(--bad); }
    .state-active { background:#e6f4ea; color:var(--good); } .state-paused { background:#fff4e0; color:var(--warn); }
    .state-stopped { background:#fde8e8; color:var(--bad); }
    .controls { margin-left:auto; display:flex; gap:8px; }
    button { font:inherit; padding:6px 12px; border-radius:6px; border:1px solid var(--line); background:#fff; cursor:pointer; }
    button.danger { border-color:#e4a19c; color:var(--bad); }
    main { display:grid; grid-template-columns:repeat(2, minmax(0, 1fr)); gap:16px; padding:16px 20px; }
    @media (max-width: 900px) { main { grid-template-columns:minmax(0, 1fr); } }
    section { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:12px 14px; min-width:0; overflow-x:auto; }
    section.wide { grid-column:1 / -1; }
    h2 { font-size:13px; text-transform:uppercase; letter-spacing:.04em; color:var(--mute); margin:0 0 8px; }
    table { width:100%; border-collapse:collapse; font-variant-numeric:tabular-nums; }
    th, td { text-align:left; padding:4px 6px; border-bottom:1px solid var(--line); white-space:nowrap; }
    td.n, th.n { text-align:right; }
    .figures { display:grid; grid-template-columns:repeat(3, 1fr); gap:8px; }
    .figure b { display:block; font-size:18px; font-variant-numeric:tabular-nums; }
    .figure span { color:var(--mute); font-size:12px; }
    .pos { color:var(--good); } .neg { color:var(--bad); } .mute { color:var(--mute); }
    .bar { height:6px; background:var(--line); border-radius:3px; overflow:hidden; } .bar i { display:block; height:100%; background:#3b82f6; }
    .bar i.hot { background:var(--bad); }
    pre { margin:0; max-height:260px; overflow:auto; font:12px/1.35 ui-monospace, monospace; white-space:pre-wrap; }
    .warning { color:var(--warn); } .error, .critical { color:var(--bad); font-weight:600; }
    #reasons { color:var(--mute); }
    .history { white-space:normal; display:inline-block; font-size:12px; }
    #banner { display:none; padding:8px 20px; background:#fde8e8; color:var(--bad); font-weight:600; }
    </style></head>
    <body>
    <header>
      <h1>ibtrader</h1><span id="mode" class="badge">…</span><span id="account" class="mute"></span>
      <span id="strategy" class="mute"></span><span id="phase" class="badge"></span><span id="trading" class="badge"></span>
      <span id="reasons"></span>
      <div class="controls">
        <button data-action="pause">Pause entries</button><button data-action="resume">Resume</button>
        <button data-action="reload" title="Read the risk limits (risk:) from the config files again">Reload risk limits</button>
        <button data-action="kill" class="danger">Kill switch</button><button data-action="flatten" class="danger">Flatten all</button>
      </div>
    </header>
    <div id="banner"></div>
    <main>
      <section><h2>Equity and P&amp;L</h2><div class="figures" id="figures"></div><svg id="chart" width="100%" height="120" preserveAspectRatio="none"></svg></section>
      <section><h2>Connection</h2><table id="connection"></table></section>
      <section class="wide"><h2>Positions</h2><table id="positions"></table><p class="mute" id="positionsNote"></p></section>
      <section class="wide"><h2>Working orders</h2><table id="orders"></table></section>
      <section class="wide"><h2>Fills</h2><table id="fills"></table></section>
      <section><h2>Risk limits</h2><table id="limits"></table></section>
      <section><h2>Latest risk denials</h2><table id="denials"></table></section>
      <section><h2>IB budgets and latency</h2><table id="budgets"></table></section>
      <section class="wide"><h2>Log <span id="logcounts" class="mute"></span></h2><pre id="log"></pre></section>
    </main>
    <script>
    "use strict";
    const effects = {
      pause: "No new entries. Exits and working orders (protective stops among them) go on.",
      resume: "Lift the pause and the kill switch. The strategy trades again.",
      kill: "Kill switch: no new orders at all. Working orders stay at the broker; positions stay open.",
      flatten: "Kill switch, cancel every working order, then close every position at market.",
      reload: "Read the risk limits (risk:) from the config files again and trade under them from now on. A config that does not load changes nothing."
    };
    const params = new URLSearchParams(location.search);
    function token() { return params.get("token") || sessionStorage.getItem("ibtrader-token") || ""; }
    function query() { const t = params.get("token"); return t ? "?token=" + encodeURIComponent(t) : ""; }
    const $ = id => document.getElementById(id);
    const esc = s => String(s ?? "").replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;"}[c]));
    // The symbol, and the contract IB trades it as when that says more (a future's month and multiplier, a pair).
    const inst = x => esc(x.symbol) + (x.contract ? ` <span class=mute>${esc(x.contract.description)}</span>` : "");
    const money = v => v == null ? "–" : v.toLocaleString(undefined, {minimumFractionDigits:2, maximumFractionDigits:2});
    const signed = v => v == null ? "–" : `<span class="${v > 0 ? "pos" : v < 0 ? "neg" : ""}">${money(v)}</span>`;
    const qty = v => v.toLocaleString(undefined, {maximumFractionDigits:4});
    function row(cells, head) { return "<tr>" + cells.map(c => { const [v, n] = Array.isArray(c) ? c : [c, false];
      return head ? `<th${n ? ' class="n"' : ""}>${v}</th>` : `<td${n ? ' class="n"' : ""}>${v}</td>`; }).join("") + "</tr>"; }
    function render(body) {
      const s = body.status;
      if (!s) { $("banner").style.display = "block"; $("banner").textContent = "No session yet."; return; }
      $("banner").style.display = s.phase === "running" ? "none" : "block";
      $("banner").textContent = "Session " + s.phase;
      // Against the built-in simulator the page keeps to one clock, the replayed data's (issue 83).
      const sim = body.simulated === true;
      $("mode").textContent = (s.mode || "not connected") + (sim ? " · simulator: data time" : ""); $("mode").className = "badge " + (s.mode || "");
      $("mode").title = sim ? `The broker is the built-in simulator replaying bundled data: every time on this page is the data's (${s.dataTime.slice(0, 10) || "none yet"}), the log's lines too.` : "";
      $("account").textContent = s.account; $("strategy").textContent = s.strategy; $("phase").textContent = s.phase;
      const t = s.trading; $("trading").textContent = t.state + (t.flattening ? " (flattening)" : "");
      $("trading").className = "badge " + (t.state === "active" ? "state-active" : t.state === "entries paused" ? "state-paused" : "state-stopped");
      $("reasons").textContent = t.reasons.join("; ") + (t.operatorSince ? " since " + t.operatorSince : "")
        + (t.haltedSymbols.length ? (t.reasons.length ? "; " : "") + "halted by the exchange: " + t.haltedSymbols.join("; ") : "");
      const m = s.money;
      const cur = m.currency && m.currency !== "USD" ? ` (${esc(m.currency)})` : "";
      $("figures").innerHTML = [["Equity" + cur, money(m.equity)], ["Today", signed(m.todayPnL)], ["Drawdown", m.drawdownPercent == null ? "–" : m.drawdownPercent.toFixed(2) + " %"],
        ["Cash", money(m.cash) + (m.settledCash == null ? "" : ` <span class=mute>(${money(m.settledCash)} settled)</span>`)], ["Realized", signed(m.realizedPnL)], ["Unrealized", signed(m.unrealizedPnL)],
        ...(m.buyingPower == null ? [] : [["Buying power", m.buyingPower < 0 ? `<span class=neg>${money(m.buyingPower)}</span>` : money(m.buyingPower)]]),
        ...(m.balances || []).flatMap(b => [[esc(b.currency) + " cash", money(b.cash)], [esc(b.currency) + " in positions", money(b.positionsValue)],
          [esc(m.currency) + " per " + esc(b.currency), b.rate ? b.rate.toPrecision(6) : "no rate yet"]])]
        .map(([k, v]) => `<div class="figure"><span>${k}</span><b>${v}</b></div>`).join("");
      chart(body.equity);
      const c = s.connection;
      $("connection").innerHTML = [["TWS / IB Gateway", c.connected ? "connected" : "<span class=neg>disconnected</span>"],
        ["IB", c.ib === "connected" ? "connected" : `<span class=neg>interrupted since ${esc(c.ibInterruptedSince)}</span>`],
        ["Server version", c.serverVersion], ["Reconnects", c.reconnects],
        ["Last heard", c.lastHeardSecondsAgo == null ? "–" : c.lastHeardSecondsAgo.toFixed(1) + " s ago"],
        ["Round trip", c.roundTripMilliseconds == null ? "–" : c.roundTripMilliseconds.toFixed(1) + " ms" + (sim ? "" : " at " + esc(c.roundTripAt))],
        ...(sim ? [["Restarts", "<span class=mute>none: the simulator has no nightly reset or weekly logon</span>"]]
          : [["Nightly reset", until(c.nextNightlyReset, s.time)], ["Weekly logon", until(c.nextWeeklyLogon, s.time)]]),
        ...(c.gatewayDesupport == null ? [] : [["Gateway build", `<span class=neg>${esc(c.gatewayDesupport)}</span>`]]),
        ["Market data", marketData(c.marketData)],
        ...c.farms.map(f => ["Farm " + esc(f.name), esc(f.state) + (sim ? "" : " since " + esc(f.since))]), [sim ? "Data time (this page's clock)" : "Data time", esc(s.dataTime)],
        ["History", c.history.length ? `<span class=history>${c.history.slice(0, 6).map(h => `${sim ? "" : esc(h.time) + " "}${esc(h.event)}`).join("<br>")}</span>` : "–"]]
        .map(r => row(r)).join("");
      const broker = p => p.brokerQuantity == null ? "<span class=mute>–</span>"
        : !p.agreesWithBroker ? `<span class=neg title="the position check confirmed a difference with the broker">${qty(p.brokerQuantity)} ≠</span>`
        : p.changedSinceBrokerLook ? `<span class=mute title="the bot's quantity changed since the broker's last look">${qty(p.brokerQuantity)} *</span>` : qty(p.brokerQuantity);
      $("positions").innerHTML = row(["Symbol", ["Bot", 1], ["Broker", 1], ["Avg cost", 1], ["Price", 1], ["Value", 1], ["Unrealized", 1], ["Realized", 1], "Stop"], true) +
        (s.positions.length ? s.positions.map(p => row([inst(p), [qty(p.quantity), 1], [broker(p), 1], [p.quantity ? money(p.averageCost) + (p.currency ? " " + esc(p.currency) : "") : "", 1], [money(p.price) + (p.currency ? " " + esc(p.currency) : ""), 1],
          [money(p.marketValue), 1], [signed(p.unrealizedPnL), 1], [signed(p.realizedPnL), 1],
          !p.quantity ? "<span class=mute>–</span>" : p.protected ? "protected" : "<span class=warning>none</span>"])).join("")
          : row(["<span class=mute>flat</span>", "", "", "", "", "", "", "", ""])) +
        (s.externalPositions || []).map(p => row([inst(p), "", [qty(p.quantity), 1], "", "", "", "", "", "<span class=mute>not this bot's: never traded</span>"])).join("");
      $("positionsNote").textContent = s.brokerPositionsAt ? `Broker: what the broker held at its last look, ${s.brokerPositionsAt} (data time; health.positionCheck looks again). `
        + "* the bot traded since that look; ≠ the check confirmed a difference." : "";
      $("orders").innerHTML = row(["Order", "TWS id / permId", "Symbol", "Side", ["Quantity", 1], ["Filled", 1], "Type", "State", ["Age", 1]], true) +
        (s.orders.length ? s.orders.map(o => row([esc(o.orderRef), (o.brokerOrderID || "–") + " / " + (o.permID || "–"), inst(o), esc(o.side), [qty(o.quantity), 1], [qty(o.filled), 1], esc(o.type), esc(o.state),
          [Math.round(o.ageSeconds) + " s", 1]])).join("") : row(["<span class=mute>none</span>", "", "", "", "", "", "", "", ""]));
      $("fills").innerHTML = row(["Time", "Order", "Symbol", "Side", ["Quantity", 1], ["Price", 1], ["Commission", 1]], true) +
        (s.fills.length ? s.fills.map(f => row([esc(f.time), esc(f.orderRef), inst(f), esc(f.side), [qty(f.quantity), 1], [money(f.price), 1],
          [f.commissionPending ? "<span class=warning>pending</span>" : money(f.commission), 1]])).join("") : row(["<span class=mute>none yet</span>", "", "", "", "", "", ""]));
      $("limits").innerHTML = row(["Limit", ["Now", 1], ["Limit", 1], ""], true) + s.risk.limits.map(l => {
        const share = l.used == null || !l.limit ? null : Math.min(1, l.used / l.limit);
        return row([esc(l.name), [l.used == null ? "–" : qty(+l.used.toFixed(2)), 1], [qty(l.limit) + " " + esc(l.unit), 1],
          share == null ? "" : `<div class="bar"><i class="${(l.fullIsNormal ? l.used > l.limit : share > .9) ? "hot" : ""}" style="width:${(share * 100).toFixed(0)}%"></i></div>`]); }).join("") +
        (s.risk.halts.length ? row(["<span class=neg>halted</span>", "", esc(s.risk.halts.join(", ")), ""]) : "");
      $("denials").innerHTML = row(["Time", "Symbol", "Rule", "Detail"], true) + (s.risk.recentDenials.length ? s.risk.recentDenials.map(d =>
        row([esc(d.time), esc(d.symbol), esc(d.rule), esc(d.detail)])).join("") : row(["<span class=mute>none</span>", "", "", ""])) +
        row([`${s.risk.denials} this run`, "", "", ""]);
      const b = s.budgets.connection, l = s.latency;
      $("budgets").innerHTML = [["Outbound queue", `${b.queued} waiting (at most ${b.messagesPerSecond} messages/s)`],
        ["Historical data", `${b.historicalInWindow} of ${b.historicalWindowLimit} in ${Math.round(b.historicalWindowSeconds / 60)} min, ${b.historicalOpen} open`],
        ["Pacing", `${b.pacedWaiting} held now, ${b.pacingWaits} waited`],
        ["Market-data lines", `${s.budgets.marketDataLines} quote lines, ${s.budgets.realTimeBarStreams} real-time bar streams`],
        ["Bar → order", quantiles(l.barToOrder)], ["Journal write", quantiles(l.journalWrite)]].map(r => row(r)).join("");
      $("logcounts").textContent = `${body.log.warnings} warnings, ${body.log.errors} errors, ${body.log.critical} critical`;
    }
    function until(time, now) {
      if (!time) return "–";
      const h = (Date.parse(time) - Date.parse(now)) / 3600000;
      return esc(time) + ` <span class=mute>(in ${h < 48 ? h.toFixed(1) + " h" : (h / 24).toFixed(1) + " days"})</span>`;
    }
    function marketData(lines) {
      const by = {}; for (const m of lines) (by[m.type] = by[m.type] || []).push(m.symbol);
      return Object.keys(by).map(t => `<span class="${t === "live" || t === "bars only" ? "" : "warning"}">${esc(t)}</span>: ${esc(by[t].join(", "))}`).join("; ") || "–";
    }
    // The histogram's upper bound below which a share of the observations fall.
    function quantile(h, q) {
      let seen = 0;
      for (let i = 0; i < h.counts.length; i++) { seen += h.counts[i]; if (seen >= q * h.count) return i < h.bounds.length ? h.bounds[i] : Infinity; }
      return Infinity;
    }
    function ms(v) { return v === Infinity ? "&gt; 10 s" : v < 0.001 ? (v * 1000).toFixed(2) + " ms" : v < 1 ? (v * 1000).toFixed(0) + " ms" : v + " s"; }
    function quantiles(h) {
      if (!h.count) return "<span class=mute>none yet</span>";
      return `median ≤ ${ms(quantile(h, .5))}, 99 % ≤ ${ms(quantile(h, .99))} <span class=mute>(${h.count}, mean ${ms(h.sum / h.count)})</span>`;
    }
    function chart(points) {
      const svg = $("chart"); if (!points || points.length < 2) { svg.innerHTML = ""; return; }
      const w = svg.clientWidth || 400, h = 120, ys = points.map(p => p.equity), lo = Math.min(...ys), hi = Math.max(...ys), span = hi - lo || 1;
      const d = points.map((p, i) => `${(i / (points.length - 1) * w).toFixed(1)},${(h - 6 - (p.equity - lo) / span * (h - 12)).toFixed(1)}`).join(" ");
      svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
      svg.innerHTML = `<polyline fill="none" stroke="#3b82f6" stroke-width="1.5" points="${d}"/>` +
        `<text x="${w - 2}" y="10" font-size="10" text-anchor="end" fill="#6b7385">${money(hi)}</text>` +
        `<text x="${w - 2}" y="${h - 1}" font-size="10" text-anchor="end" fill="#6b7385">${money(lo)}</text>`;
    }
    async function refreshLog() {
      try { const r = await fetch("/api/log" + query()); if (!r.ok) return; const lines = await r.json();
        const el = $("log"); const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
        el.innerHTML = lines.map(l => `<span class="${esc(l.level)}">${esc(l.time)} ${esc(l.level)} ${esc(l.message)}</span>`).join("\\n");
        if (atEnd) el.scrollTop = el.scrollHeight; } catch (e) {}
    }
    async function control(action) {
      const reason = prompt(`${action.toUpperCase()}\\n\\n${effects[action]}\\n\\nWhy? (journaled with the control)`, "");
      if (reason === null) return;
      if (!confirm(`${action.toUpperCase()} now?\\n\\n${effects[action]}`)) return;
      let t = token();
      if (!t) { t = prompt("Dashboard token (the run printed where it is kept):", "") || ""; if (!t) return; sessionStorage.setItem("ibtrader-token", t); }
      const r = await fetch("/api/control/" + action, { method: "POST", headers: { "Authorization": "Bearer " + t, "Content-Type": "application/json" },
        body: JSON.stringify({ reason, by: "dashboard" }) });
      if (r.status === 401 || r.status === 403) sessionStorage.removeItem("ibtrader-token");
      const text = await r.text(); let message = text; try { message = JSON.parse(text).message || text; } catch (e) {}
      alert(`${action}: ${message}`);
    }
    document.querySelectorAll("button[data-action]").forEach(b => b.addEventListener("click", () => control(b.dataset.action)));
    function connect() {
      const source = new EventSource("/api/events" + query());
      source.onmessage = e => render(JSON.parse(e.data));
      source.onerror = () => { source.close(); $("banner").style.display = "block"; $("banner").textContent = "Lost the bot; retrying…"; setTimeout(connect, 3000); };
    }
    // ?once: one snapshot, no live updates (for a printout or a headless browser's screenshot).
    if (params.has("once")) { fetch("/api/status" + query()).then(r => r.json()).then(render); refreshLog(); }
    else { connect(); refreshLog(); setInterval(refreshLog, 3000); }
    </script></body></html>
    """
}
