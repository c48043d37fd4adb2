/* alphred ui: live updates for server-rendered pages. Hand-written, no dependencies, no build step.
   The token comes from the URL printed by `alphred ui` (?token=...), is kept in localStorage, removed
   from the address bar, and sent as "Authorization: Bearer" with every action. Everything received is
   inserted as text (textContent) or as HTML the server rendered and escaped. */
(function () {
  "use strict";
  var KEY = "alphred-ui-token";
  var body = document.body;

  function takeToken() {
    var params = new URLSearchParams(location.search);
    if (!params.has("token")) return;
    try { localStorage.setItem(KEY, params.get("token")); } catch (e) { window.__alphredToken = params.get("token"); }
    params.delete("token");
    var rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  function token() {
    try { return localStorage.getItem(KEY) || window.__alphredToken || ""; } catch (e) { return window.__alphredToken || ""; }
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

  var refreshing = null, again = false;
  function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = fetch(location.pathname + location.search, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(new Error("HTTP " + r.status)); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        doc.querySelectorAll("[data-live][id]").forEach(function (fresh) {
          var old = document.getElementById(fresh.id);
          if (!old) return;
          var keep = old.querySelector("textarea");
          var typed = keep ? keep.value : null;
          var imported = document.importNode(fresh, true);
          old.replaceWith(imported);
          var area = imported.querySelector("textarea");
          if (area && typed) area.value = typed;
          localTimes(imported);
        });
        bindForms();
      })
      .catch(function () { /* the stream reconnects; the next change refreshes again */ })
      .then(function () {
        refreshing = null;
        if (again) { again = false; refresh(); }
      });
    return refreshing;
  }

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
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token() },
      body: JSON.stringify(payload),
    })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (json) {
          if (r.ok) {
            toast(r.headers.get("X-Alphred-Message") || action + ": done", false);
            if (area) area.value = "";
          } else {
            var msg = (json.error && json.error.message) || "HTTP " + r.status;
            if (r.status === 403 && !token()) msg += " (open the URL alphred ui printed, with its ?token=)";
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

  function live(url, handlers) {
    if (!window.EventSource) return;
    var badge = document.getElementById("live");
    var source = new EventSource(url);
    source.onopen = function () { if (badge) badge.hidden = false; };
    source.onerror = function () { if (badge) badge.hidden = true; };
    Object.keys(handlers).forEach(function (name) { source.addEventListener(name, handlers[name]); });
  }

  // The same string as run_page.state_key on the server.
  function stateKey(s) {
    var phases = (s.phases || []).map(function (p) { return p.key + ":" + p.status + ":" + p.attempt; }).join(",");
    var text = function (v) { return v === null || v === undefined ? "None" : String(v); };
    return [text(s.status), text(s.reason), (s.steps || []).length, text(s.tokens), text(s.pr_url), phases].join("|");
  }

  function runPage() {
    var last = Number(body.dataset.after || 0);
    var list = document.getElementById("events");
    list.scrollTop = list.scrollHeight;  // newest events in view; new ones keep it there
    live("/runs/" + body.dataset.runId + "/stream?after=" + last, {
      event: function (m) {
        var e = JSON.parse(m.data);
        if (e.id <= last) return;
        last = e.id;
        body.dataset.after = String(last);
        var empty = document.getElementById("no-events");
        if (empty) empty.remove();
        follow(list, function () { list.appendChild(eventItem(e)); });
      },
      status: function (m) {
        var key = stateKey(JSON.parse(m.data));
        if (key === body.dataset.state) return;  // the page shows this state already
        body.dataset.state = key;
        refresh();
      },
    });
  }

  function runsPage() {
    live("/runs/stream", { runs: function () { refresh(); } });
  }

  takeToken();
  localTimes(document);
  bindForms();
  if (body.dataset.page === "run") runPage();
  if (body.dataset.page === "runs") runsPage();
})();
