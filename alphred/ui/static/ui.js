/* alphred ui: live updates for server-rendered pages. Hand-written, no dependencies, no build step.
   The token comes from the URL printed by `alphred ui` (?token=...): the server answers that URL with an
   HttpOnly cookie, and this script only removes the token from the address bar. Actions send the cookie
   with an "X-Alphred-Request" header (which a page elsewhere cannot add). A run page follows its stream:
   new events are appended, and a change of state fetches only what changed (/runs/ID/live: the summary,
   graph, timeline, new step rows, and reports or diffs when there are new ones). Everything received is
   inserted as text (textContent) or as HTML the server rendered and escaped. */
(function () {
  "use strict";
  var body = document.body;

  function dropToken() {
    var params = new URLSearchParams(location.search);
    if (!params.has("token")) return;
    params.delete("token");
    var rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  function toast(text, bad) {
    var box = document.getElementById("toast");
    if (!box) return;
    box.textContent = text;
    box.className = "toast" + (bad ? " bad" : "");
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { box.hidden = true; }, bad ? 9000 : 4000);
  }

  function localTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d.getTime())) t.textContent = d.toLocaleString();
    });
  }

  // One refresh at a time; a change during one asks for another when it ends.
  function serial(work) {
    var running = null, again = false;
    return function run() {
      if (running) { again = true; return running; }
      running = work()
        .catch(function () { /* the stream reconnects; the next change refreshes again */ })
        .then(function () {
          running = null;
          if (again) { again = false; run(); }
        });
      return running;
    };
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(new Error("HTTP " + r.status)); });
  }

  function replaceInner(id, html) {
    var old = document.getElementById(id);
    if (!old) return;
    var keep = old.querySelector("textarea");
    var typed = keep ? keep.value : null;
    old.innerHTML = html;
    var area = old.querySelector("textarea");
    if (area && typed) area.value = typed;
    localTimes(old);
  }

  // The runs list: the whole (small) page again, its live parts swapped in.
  var refreshList = serial(function () {
    return fetch(location.pathname + location.search, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error("HTTP " + r.status)); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("[data-live][id]").forEach(function (fresh) { replaceInner(fresh.id, fresh.innerHTML); });
      });
  });

  // A run page: only what changed since what it shows.
  var refreshRun = serial(function () {
    var rows = document.getElementById("step-rows");
    var shown = rows ? Number(rows.dataset.last || 0) : 0;
    var params = new URLSearchParams({ steps: String(shown), artifact: body.dataset.artifact || "0" });
    if (rows) params.set("columns", rows.dataset.columns || "00");
    return getJson("/runs/" + body.dataset.runId + "/live?" + params.toString()).then(function (live) {
      Object.keys(live.sections).forEach(function (id) { replaceInner(id, live.sections[id]); });
      var table = document.getElementById("step-rows");
      if (live.steps && table && table.dataset.follow === "1") {
        table.insertAdjacentHTML("beforeend", live.steps);
        while (table.children.length > 1000) table.removeChild(table.firstChild);
        var last = table.lastElementChild;
        if (last) table.dataset.last = last.dataset.step;
      }
      if (live.artifact !== null && live.artifact !== undefined) body.dataset.artifact = String(live.artifact);
      body.dataset.steps = String(live.step_total);
      body.dataset.state = live.state;
      bindForms();
    });
  });

  function refresh() { return body.dataset.page === "run" ? refreshRun() : refreshList(); }

  function bindForms() {
    document.querySelectorAll("form.action").forEach(function (form) {
      if (form.dataset.bound) return;
      form.dataset.bound = "1";
      form.addEventListener("submit", onSubmit);
    });
  }

  function onSubmit(ev) {
    ev.preventDefault();
    var form = ev.currentTarget;
    var button = ev.submitter;
    var action = (button && button.value) || form.dataset.action;
    var area = form.querySelector("textarea");
    var payload = {};
    if (area && area.value.trim()) payload.comment = area.value;
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    form.classList.add("busy");
    fetch("/api/runs/" + body.dataset.runId + "/" + encodeURIComponent(action), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Alphred-Request": "1" },
      body: JSON.stringify(payload),
    })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (json) {
          if (r.ok) {
            toast(r.headers.get("X-Alphred-Message") || action + ": done", false);
            if (area) area.value = "";
          } else {
            var msg = (json.error && json.error.message) || "HTTP " + r.status;
            if (r.status === 403) msg += " (open the URL alphred ui printed, with its ?token=)";
            toast(action + " refused: " + msg, true);
          }
        });
      })
      .catch(function (e) { toast(action + " failed: " + e.message, true); })
      .then(function () {
        form.classList.remove("busy");
        buttons.forEach(function (b) { b.disabled = false; });
        return refresh();
      });
  }

  function eventItem(e) {
    var li = document.createElement("li");
    li.className = "ev ev-" + String(e.type).replace(/[^a-z_]/gi, "");
    li.dataset.id = e.id;
    var parts = [
      ["t", String(e.timestamp || "").slice(11, 19)],
      ["ph", e.phase + "#" + e.attempt],
      ["ty", e.type],
      ["c", e.content == null ? "" : String(e.content)],
    ];
    parts.forEach(function (p, i) {
      if (i) li.appendChild(document.createTextNode(" "));
      var span = document.createElement("span");
      span.className = p[0];
      span.textContent = p[1];
      li.appendChild(span);
    });
    return li;
  }

  function follow(list, add) {
    var nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    add();
    while (list.children.length > 3000) list.removeChild(list.firstChild);
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }

  // An EventSource reconnects by itself after a dropped connection, but not after an error answer (a 503
  // when the server has no stream to spare): then try again later, with a fresh URL.
  function live(makeUrl, handlers) {
    if (!window.EventSource) return;
    var badge = document.getElementById("live");
    var source = new EventSource(makeUrl());
    source.onopen = function () { if (badge) badge.hidden = false; };
    source.onerror = function () {
      if (badge) badge.hidden = true;
      if (source.readyState === EventSource.CLOSED) setTimeout(function () { live(makeUrl, handlers); }, 15000);
    };
    Object.keys(handlers).forEach(function (name) { source.addEventListener(name, handlers[name]); });
  }

  // The same string as run_page.state_key on the server.
  function stateKey(s, steps) {
    var phases = (s.phases || []).map(function (p) { return p.key + ":" + p.status + ":" + p.attempt; }).join(",");
    var text = function (v) { return v === null || v === undefined ? "None" : String(v); };
    return [text(s.status), text(s.reason), steps, text(s.tokens), text(s.pr_url), phases].join("|");
  }

  function runPage() {
    var last = Number(body.dataset.after || 0);
    var steps = Number(body.dataset.steps || 0);
    var list = document.getElementById("events");
    list.scrollTop = list.scrollHeight;  // newest events in view; new ones keep it there
    live(function () { return "/runs/" + body.dataset.runId + "/stream?after=" + last + "&steps=" + steps; }, {
      event: function (m) {
        var e = JSON.parse(m.data);
        if (e.id <= last) return;
        last = e.id;
        body.dataset.after = String(last);
        var empty = document.getElementById("no-events");
        if (empty) empty.remove();
        follow(list, function () { list.appendChild(eventItem(e)); });
      },
      steps: function (m) { steps = Math.max(steps, JSON.parse(m.data).total); },
      status: function (m) {
        var key = stateKey(JSON.parse(m.data), steps);
        if (key === body.dataset.state) return;  // the page shows this state already
        refresh();
      },
      unavailable: function (m) { toast(JSON.parse(m.data).message, true); },
    });
  }

  function runsPage() {
    live(function () { return "/runs/stream"; }, { runs: function () { refresh(); } });
  }

  dropToken();
  localTimes(document);
  bindForms();
  if (body.dataset.page === "run") runPage();
  if (body.dataset.page === "runs") runsPage();
})();
