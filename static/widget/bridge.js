/*
 * GiftGenius widget bridge, contract v1.
 *
 * The server renders every state as an HTML fragment; this script only decides the transport:
 *  - in an MCP Apps host (framed, the host answers ui/initialize) an action is a JSON-RPC
 *    tools/call over postMessage, and the fragment comes from the result's widget-only _meta.html;
 *  - where a host offers only window.openai (older ChatGPT) the same goes through callTool;
 *  - in a plain browser htmx POSTs the same action to /widget/actions/<tool> and swaps the answer.
 * The host resource carries no htmx (it is most of the size budget): in a host this script
 * delegates the clicks and submits itself.
 * Every action with side effects carries an idempotency key that lives in widget state, so a
 * repeated click, a "Try again" or a reload re-sends the same key; a new action gets a new one.
 * CSP-strict: no eval, no inline handlers or styles, DOM built with textContent only.
 */
(function () {
  "use strict";

  var CONTRACT = "v1";
  var REQUEST_TIMEOUT_MS = 30000; // never an endless spinner
  var POLL_FIRST_MS = 2000; // a waiting order is asked about again after this, then less often
  var POLL_MAX_MS = 30000;
  var MAX_KEYS = 30;
  var MAX_DRAFTS = 5;

  var app = document.getElementById("gg-app");
  var root = document.getElementById("gg-root");
  if (!app || !root || app.getAttribute("data-gg-contract") !== CONTRACT) {
    return;
  }
  var htmx = window.htmx;
  var openai = window.openai || null;
  var framed = window.parent !== window;
  // A host mode starts as window.openai where it is injected and becomes "mcp" once the host
  // answers ui/initialize: the standard wins wherever a host speaks it.
  var mode = htmx ? "browser" : openai ? "openai" : framed ? "mcp-pending" : "browser";
  var hosted = mode !== "browser";
  app.setAttribute("data-gg-mode", mode);

  var actionBase = app.getAttribute("data-gg-action-url") || "/widget/actions/";
  var storeBase = "gg:" + CONTRACT + ":" + (app.getAttribute("data-gg-instance") || location.pathname);
  // Which widget this is decides what a reload may restore. The browser page names itself
  // (data-gg-instance) and window.openai keeps widget state per widget, but a plain MCP Apps host
  // keeps nothing for the app, and every widget of an app in a tab shares one origin, hence one
  // sessionStorage: there a widget is the tool result it was given, so its state is stored under
  // that result (adoptResult) and nothing is read or written before the result arrives.
  var perResult = mode === "mcp-pending";
  var storeKey = perResult ? null : storeBase;
  var i18n = readJSON(document.getElementById("gg-i18n")) || {};
  var state = loadState();
  var busy = null; // the call in flight (host modes), or null
  var shownHtml = null; // the last fragment put on screen, whatever brought it
  var hostHtml = null; // the last fragment the host handed over in toolResponseMetadata
  var hostInput = null; // the arguments of the call that opened the widget (MCP Apps tool-input)
  var hostLocale = null;
  var hostTimeZone = null; // the MCP Apps host context's timeZone, where the host gives it
  var restored = false; // a reload put the person's last view back

  // ---------------------------------------------------------------- helpers

  function readJSON(node) {
    if (!node) return null;
    try {
      return JSON.parse(node.textContent || "null");
    } catch (e) {
      return null;
    }
  }

  function parse(text) {
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function stable(value) {
    // Canonical JSON (sorted keys): the identity of an action's arguments.
    if (Array.isArray(value)) return "[" + value.map(stable).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) {
        return JSON.stringify(k) + ":" + stable(value[k]);
      }).join(",") + "}";
    }
    return JSON.stringify(value);
  }

  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function language() {
    var tag = hostLocale || (openai && openai.locale) || document.documentElement.lang || "en";
    tag = String(tag).toLowerCase().replace("_", "-");
    if (tag.indexOf("zh") === 0) return "zh-hans";
    var primary = tag.split("-")[0];
    return i18n[primary] ? primary : "en";
  }

  // The person's IANA time zone: the host's word where it gives one, else the browser's. The
  // server writes times in it (it checks the name).
  function timeZone() {
    if (hostTimeZone) return hostTimeZone;
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";
    }
  }

  function t(key) {
    var table = i18n[language()] || i18n.en || {};
    return table[key] || (i18n.en && i18n.en[key]) || key;
  }

  // ---------------------------------------------------------------- widget state

  function sessionGet(key) {
    if (!storeKey) return null; // not yet known which widget this is
    try {
      return window.sessionStorage.getItem(key);
    } catch (e) {
      return null; // storage can be unavailable in a sandboxed frame
    }
  }

  function sessionSet(key, value) {
    if (!storeKey) return;
    try {
      window.sessionStorage.setItem(key, value);
    } catch (e) {
      /* storage unavailable or full: the host's widget state still has the keys */
    }
  }

  // What the host keeps (window.openai.widgetState is visible to the model): only the versioned
  // idempotency keys, under hashed action identities. The actions' arguments (shipping address,
  // confirmation token), the forms' typed fields (drafts) and the rendered HTML stay in this
  // tab's sessionStorage.
  function loadState() {
    var fresh = { v: CONTRACT, sid: uuid(), keys: {}, order: [], prefs: {}, last: null, ctx: null, drafts: {} };
    var saved = openai ? openai.widgetState : parse(sessionGet(storeKey));
    if (!saved || saved.v !== CONTRACT) return fresh;
    var tab = parse(sessionGet(storeKey + ":tab:" + saved.sid)) || {};
    return {
      v: CONTRACT,
      sid: saved.sid || fresh.sid,
      keys: saved.keys || {},
      order: saved.order || [],
      prefs: saved.prefs || {},
      last: tab.last || null,
      ctx: tab.ctx || null,
      drafts: tab.drafts || {},
    };
  }

  function saveTab() {
    sessionSet(
      storeKey + ":tab:" + state.sid,
      JSON.stringify({ last: state.last, ctx: state.ctx, drafts: state.drafts })
    );
  }

  function saveState() {
    var small = { v: CONTRACT, sid: state.sid, keys: state.keys, order: state.order, prefs: state.prefs };
    saveTab();
    var done = Promise.resolve();
    if (openai && typeof openai.setWidgetState === "function") {
      try {
        done = Promise.resolve(openai.setWidgetState(small)).catch(function () {});
      } catch (e) {
        done = Promise.resolve();
      }
    } else {
      sessionSet(storeKey, JSON.stringify(small));
    }
    return done;
  }

  function saveView(html) {
    sessionSet(storeKey + ":view:" + state.sid, html);
  }

  function savedView() {
    return sessionGet(storeKey + ":view:" + state.sid);
  }

  function digest(text) {
    // Two 32-bit FNV-style passes: a stable, opaque name for an action's identity, so the
    // arguments themselves never enter the model-visible widget state.
    var a = 0x811c9dc5, b = 0x01000193 ^ 0x5bd1e995;
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193) >>> 0;
      b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
      b ^= b >>> 13;
    }
    return ("00000000" + a.toString(16)).slice(-8) + ("00000000" + (b >>> 0).toString(16)).slice(-8);
  }

  function keyFor(viewId, tool, args) {
    var id = digest(viewId + "|" + tool + "|" + stable(args));
    if (!state.keys[id]) {
      state.keys[id] = uuid();
      state.order.push(id);
      while (state.order.length > MAX_KEYS) {
        delete state.keys[state.order.shift()];
      }
    }
    return state.keys[id];
  }

  // ---------------------------------------------------------------- drafts (typed fields)

  // A form named by data-gg-draft keeps what the person typed in widget state: going back and
  // coming to the form again (a new view of it) finds the fields as they were left. Once its
  // action succeeded the server knows the values itself and the draft goes.
  function saveDraft(form) {
    var name = form.getAttribute("data-gg-draft");
    var fields = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.name && (input.tagName === "INPUT" || input.tagName === "SELECT")) fields[input.name] = input.value;
    });
    delete state.drafts[name];
    state.drafts[name] = fields; // the newest last: the oldest goes first
    var names = Object.keys(state.drafts);
    while (names.length > MAX_DRAFTS) delete state.drafts[names.shift()];
    saveTab();
  }

  function restoreDrafts() {
    root.querySelectorAll("form[data-gg-draft]").forEach(function (form) {
      var fields = state.drafts[form.getAttribute("data-gg-draft")];
      if (!fields) return;
      Array.prototype.forEach.call(form.elements, function (input) {
        if (!input.name || !Object.prototype.hasOwnProperty.call(fields, input.name)) return;
        if (input.tagName === "SELECT" && !input.querySelector('option[value="' + CSS.escape(fields[input.name]) + '"]')) return;
        input.value = fields[input.name];
      });
    });
  }

  function forgetDone(view) {
    // The review of an order: the checkout form's values are on the server now.
    if (view && view.getAttribute("data-gg-state") === "summary") {
      delete state.drafts["checkout:" + view.getAttribute("data-gg-workflow")];
    }
  }

  function onFieldEdit(evt) {
    var form = evt.target && evt.target.form;
    if (form && root.contains(form) && form.hasAttribute("data-gg-draft")) saveDraft(form);
  }
  document.addEventListener("input", onFieldEdit);
  document.addEventListener("change", onFieldEdit);

  // ---------------------------------------------------------------- actions

  function typed(input) {
    var value = input.value;
    var kind = input.getAttribute("data-gg-type");
    if (kind === "int") return value === "" ? undefined : parseInt(value, 10);
    if (kind === "optional") return value === "" ? undefined : value;
    if (kind === "number") return value === "" ? undefined : Number(value);
    if (kind === "list") {
      return value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
    }
    return value;
  }

  function setPath(target, dotted, value) {
    var parts = dotted.split(".");
    var node = target;
    for (var i = 0; i < parts.length - 1; i++) {
      if (!node[parts[i]] || typeof node[parts[i]] !== "object") node[parts[i]] = {};
      node = node[parts[i]];
    }
    node[parts[parts.length - 1]] = value;
  }

  function formArgs(form) {
    var args = {};
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.disabled) return;
      if ((input.type === "checkbox" || input.type === "radio") && !input.checked) return;
      var value = typed(input);
      if (value === undefined) return;
      setPath(args, input.name, value);
    });
    return args;
  }

  function actionFor(elt) {
    var tool = elt.getAttribute("data-gg-tool");
    var args = parse(elt.getAttribute("data-gg-args")) || {};
    if (elt.tagName === "FORM") {
      var fields = formArgs(elt);
      Object.keys(fields).forEach(function (k) { args[k] = fields[k]; });
    }
    if (elt.hasAttribute("data-gg-idem") && !args.idempotency_key) {
      var view = elt.closest("[data-gg-view]");
      args.idempotency_key = keyFor(view ? view.getAttribute("data-gg-view") : "", tool, args);
    }
    return { tool: tool, args: args };
  }

  // The action whose answer is on screen (retry and "inherit" read its arguments).
  function contextAction() {
    if (state.ctx) return state.ctx;
    var view = root.querySelector("[data-gg-view]");
    if (hosted && view) {
      return { tool: view.getAttribute("data-gg-tool"), args: toolInput() || {} };
    }
    return null;
  }

  // A filter the person chose (a category, a sort) stays chosen in this widget's own state,
  // not in the workflow: a screen that does not say which is chosen shows the last choice.
  function restoreChoices() {
    root.querySelectorAll("select[data-gg-remember]").forEach(function (select) {
      var name = select.getAttribute("data-gg-remember");
      var prefs = state.prefs || {};
      if (select.querySelector("option[selected]") || prefs[name] === undefined) return;
      var known = Array.prototype.some.call(select.options, function (o) {
        return o.value === prefs[name];
      });
      if (known) select.value = prefs[name];
    });
  }

  function rememberChoice(event) {
    var select = event.target;
    if (!select.matches || !select.matches("select[data-gg-remember]")) return;
    state.prefs = state.prefs || {};
    state.prefs[select.getAttribute("data-gg-remember")] = select.value;
    saveState();
  }

  function hydrate() {
    restoreChoices();
    var ctx = contextAction();
    var view = root.querySelector("[data-gg-view]");
    var workflow = view ? view.getAttribute("data-gg-workflow") : null;
    forgetDone(view);
    restoreDrafts();
    root.querySelectorAll("[data-gg-inherit]").forEach(function (elt) {
      var args = parse(elt.getAttribute("data-gg-args")) || {};
      var complete = true;
      elt.getAttribute("data-gg-inherit").split(",").forEach(function (name) {
        name = name.trim();
        if (args[name] !== undefined) return;
        if (name === "workflow_id" && workflow) args[name] = workflow;
        else if (ctx && ctx.args && ctx.args[name] !== undefined) args[name] = ctx.args[name];
        else complete = false;
      });
      elt.setAttribute("data-gg-args", JSON.stringify(args));
      elt.hidden = !complete; // an action we cannot address is not offered
    });
    root.querySelectorAll("[data-gg-retry]").forEach(function (button) {
      var tool = button.getAttribute("data-gg-tool");
      var args = null;
      if (ctx && ctx.tool === tool) args = ctx.args;
      else if (toolInput()) args = toolInput();
      if (!args) {
        button.hidden = true;
        return;
      }
      // The same arguments, idempotency key included: a retry is the same action again.
      button.setAttribute("data-gg-args", JSON.stringify(args));
      button.setAttribute("hx-post", actionBase + encodeURIComponent(tool));
    });
    if (htmx) htmx.process(root);
    openOnShow();
    schedulePoll(false);
  }

  function render(html, ctx, options) {
    state.ctx = ctx || null;
    shownHtml = html;
    root.innerHTML = html;
    hydrate();
    saveView(html);
    saveState();
    if (options && options.focus) focusView();
  }

  function setBusy(on) {
    root.setAttribute("aria-busy", on ? "true" : "false");
    app.classList.toggle("gg-busy", !!on);
    if (!on) root.classList.remove("gg-inplace");
  }

  // A button that names what it is doing (data-gg-busy-label) keeps its view on screen while
  // its call runs, as a hosted payment page keeps the order in sight while it pays.
  function pressing(elt) {
    var label = elt && elt.getAttribute && elt.getAttribute("data-gg-busy-label");
    root.classList.toggle("gg-inplace", !!label);
    if (!label) return;
    elt.textContent = label;
    elt.setAttribute("aria-disabled", "true");
  }

  // ---------------------------------------------------------------- waiting orders, other tabs

  // A view that waits for something outside the widget (a payment being confirmed, a payment
  // page in another tab) names the read that shows its progress in data-gg-poll (the tool) and
  // data-gg-args. It is asked again with growing pauses while the widget is visible, never
  // while it is hidden, and at once when the person comes back; an answer in another state
  // (data-gg-state) replaces the view.
  var poll = { timer: null, delay: POLL_FIRST_MS, key: null };

  function pollTarget() {
    return root.querySelector("[data-gg-poll]");
  }

  function shownState() {
    var view = root.querySelector("[data-gg-view]");
    return view ? view.getAttribute("data-gg-state") : "";
  }

  function stopPoll() {
    window.clearTimeout(poll.timer);
    poll.timer = null;
  }

  function schedulePoll(reset) {
    stopPoll();
    var elt = pollTarget();
    if (!elt || document.visibilityState === "hidden") return;
    var key = shownState() + "|" + elt.getAttribute("data-gg-args");
    if (reset || key !== poll.key) poll.delay = POLL_FIRST_MS;
    poll.key = key;
    poll.timer = window.setTimeout(pollNow, poll.delay);
    poll.delay = Math.min(POLL_MAX_MS, Math.round(poll.delay * 1.6));
  }

  function pollNow() {
    poll.timer = null;
    var elt = pollTarget();
    if (!elt || document.visibilityState === "hidden") return;
    if (busy || app.classList.contains("gg-busy")) return schedulePoll(false); // the person's call first
    var action = { tool: elt.getAttribute("data-gg-poll"), args: parse(elt.getAttribute("data-gg-args")) || {} };
    quietCall(action).then(function (html) {
      if (pollTarget() !== elt) return; // the person moved on meanwhile
      var probe = document.createElement("template");
      probe.innerHTML = html;
      var next = probe.content.querySelector("[data-gg-view]");
      var now = next && next.getAttribute("data-gg-state");
      // A read that failed for now (an error view) is not news: the wait goes on.
      if (now && now !== "error" && now !== shownState()) render(html, action, { focus: true });
      else schedulePoll(false);
    }, function () {
      if (pollTarget() === elt) schedulePoll(false);
    });
  }

  // A read without the busy state: the view stays as it is until the answer differs.
  function quietCall(action) {
    if (hosted) {
      return Promise.resolve().then(function () {
        if (mode === "mcp-pending") throw new Error("the host has not answered yet");
        return hostCall(action);
      }).then(function (result) {
        var html = htmlFrom(result);
        if (!html) throw new Error("no fragment");
        return html;
      });
    }
    var headers = { "Content-Type": "application/json", "X-GG-Contract": CONTRACT, "X-GG-Locale": language() };
    var zone = timeZone();
    if (zone) headers["X-GG-Time-Zone"] = zone;
    var csrf = app.getAttribute("data-gg-csrf");
    if (csrf) headers["X-CSRFToken"] = csrf;
    return window.fetch(actionBase + encodeURIComponent(action.tool), {
      method: "POST",
      headers: headers,
      body: JSON.stringify(action.args),
      credentials: "same-origin",
    }).then(function (response) {
      if (response.status !== 200 || response.headers.get("X-GG-Fragment") !== CONTRACT) {
        throw new Error("not a fragment");
      }
      return response.text();
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") stopPoll();
    else if (pollTarget()) {
      poll.delay = POLL_FIRST_MS;
      pollNow(); // the person is back (from a payment page, say): look now
    }
  });

  // A link marked data-gg-open-on-show (a hosted payment page) opens once when its view is
  // first shown; a re-mount of the same view does not open it again, the person's click does.
  var opened = {};

  function openOnShow() {
    var link = root.querySelector("a[data-gg-open-on-show]");
    if (!link) return;
    var mark = digest(link.href);
    if (opened[mark] || sessionGet(storeBase + ":opened:" + mark)) return;
    opened[mark] = true;
    sessionSet(storeBase + ":opened:" + mark, "1");
    openLink(link.href);
  }

  // After the person's action the keyboard focus goes to the new view's heading (or banner
  // text). A busy view is display:none (widget.css) and cannot take focus: callers clear the
  // busy state first.
  function focusView() {
    var heading = root.querySelector("[data-gg-focus]");
    if (heading) heading.focus({ preventScroll: false });
  }

  // A banner built in the browser when the server could not be reached at all; `focus` when it
  // answers the person's own action.
  function fallbackBanner(kind, action, focus) {
    var box = document.createElement("div");
    box.className = "gg-banner gg-banner--error";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "error-banner");
    box.setAttribute("data-error-code", kind === "slow" ? "CLIENT_TIMEOUT" : "CLIENT_UNREACHABLE");
    var text = document.createElement("p");
    text.className = "gg-banner__text";
    text.tabIndex = -1; // as in the server's banner: the focus target
    text.setAttribute("data-gg-focus", "");
    text.textContent = t(kind);
    box.appendChild(text);
    if (action && action.tool) {
      var retry = document.createElement("button");
      retry.type = "button";
      retry.className = "gg-btn gg-btn--primary";
      retry.setAttribute("data-testid", "retry");
      retry.setAttribute("data-gg-tool", action.tool);
      retry.setAttribute("data-gg-args", JSON.stringify(action.args || {}));
      retry.setAttribute("hx-post", actionBase + encodeURIComponent(action.tool));
      retry.textContent = t("retry");
      box.appendChild(retry);
    }
    var wrapper = document.createElement("section");
    wrapper.className = "gg-view";
    wrapper.appendChild(box);
    root.replaceChildren(wrapper);
    if (htmx) htmx.process(root);
    if (focus) focusView();
  }

  function remember(action) {
    state.last = action;
    return saveState();
  }

  function toolInput() {
    return hostInput || (openai && openai.toolInput) || null;
  }

  // ---------------------------------------------------------------- MCP Apps JSON-RPC (postMessage)

  var PROTOCOL = "2026-01-26"; // @modelcontextprotocol/ext-apps 2.x
  var nextId = 1;
  var pending = {};
  var initId = null;
  var hostOrigin = null; // pinned by the answer to ui/initialize
  var sizeWatched = false;
  var warned = {};

  // A bad host message changes nothing; each kind is reported once, not once per message.
  function ignore(reason, data) {
    if (warned[reason]) return;
    warned[reason] = true;
    console.warn("GiftGenius widget ignored a host message: " + reason, data);
  }

  function post(message) {
    // The host's origin is unknown until it answers (a host may serve the frame from a sandbox
    // origin); replies are accepted only from window.parent, and from its origin once pinned.
    window.parent.postMessage(message, hostOrigin || "*");
  }

  function rpc(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject };
      post({ jsonrpc: "2.0", id: id, method: method, params: params || {} });
    });
  }

  function notify(method, params) {
    post({ jsonrpc: "2.0", method: method, params: params || {} });
  }

  var hostHandlers = {
    "ui/notifications/tool-input": function (params) {
      if (params.arguments && typeof params.arguments === "object") hostInput = params.arguments;
    },
    "ui/notifications/tool-input-partial": function () {},
    "ui/notifications/tool-result": function (params) {
      var html = htmlFrom(params);
      if (!html) {
        fallbackBanner("unreachable", null); // never a blank widget
        return;
      }
      if (perResult) {
        adoptResult(html);
        return;
      }
      // As with window.openai: the host repeating a result (after a reload, too) must not undo
      // the person's steps. (hostHtml is null after a restore only where window.openai gave the
      // widget state but no fragment yet: that state belongs to this widget.)
      if (html !== hostHtml && html !== shownHtml && !(restored && hostHtml === null)) render(html, null);
      hostHtml = html;
    },
    "ui/notifications/tool-cancelled": function () {
      setBusy(false);
    },
    "ui/notifications/host-context-changed": applyContext,
    "ui/resource-teardown": function () {
      return saveState().then(function () { return {}; });
    },
    ping: function () {
      return {};
    },
  };

  function onHostMessage(evt) {
    if (evt.source !== window.parent) return ignore("not from the host window", evt.origin);
    if (hostOrigin && evt.origin !== hostOrigin) return ignore("wrong origin", evt.origin);
    var m = evt.data;
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return ignore("not JSON-RPC 2.0", m);
    if (m.method === undefined) {
      var call = pending[m.id];
      if (!call) return ignore("a response to a request never sent", m.id);
      if (!("result" in m) && !("error" in m)) return ignore("a response without result", m.id);
      delete pending[m.id];
      if (m.id === initId && !m.error) hostOrigin = evt.origin;
      if (m.error) call.reject(m.error);
      else call.resolve(m.result);
      return;
    }
    var handler = typeof m.method === "string" && hostHandlers.hasOwnProperty(m.method) && hostHandlers[m.method];
    var params = m.params === undefined ? {} : m.params;
    var isRequest = m.id !== undefined && m.id !== null;
    if (!handler || !params || typeof params !== "object") {
      if (isRequest) post({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
      return ignore(handler ? "bad params" : "unknown method", m.method);
    }
    var answer;
    try {
      answer = handler(params);
    } catch (e) {
      return ignore("a message the widget could not apply", m.method);
    }
    if (isRequest) {
      Promise.resolve(answer).then(function (result) {
        post({ jsonrpc: "2.0", id: m.id, result: result || {} });
      });
    }
  }

  function connectHost() {
    window.addEventListener("message", onHostMessage);
    initId = nextId;
    rpc("ui/initialize", {
      protocolVersion: PROTOCOL,
      appInfo: { name: "giftgenius-widget", version: CONTRACT },
      appCapabilities: { availableDisplayModes: ["inline", "fullscreen"] },
    }).then(function (result) {
      mode = "mcp";
      app.setAttribute("data-gg-mode", mode);
      applyContext((result && result.hostContext) || {});
      notify("ui/notifications/initialized", {});
      watchSize();
    }, function (error) {
      ignore("ui/initialize refused", error);
    });
  }

  function applyContext(context) {
    if (!context || typeof context !== "object") return;
    if ("theme" in context) applyTheme(context.theme);
    if ("locale" in context) {
      hostLocale = typeof context.locale === "string" ? context.locale : hostLocale;
      applyLocale(context.locale);
    }
    if ("displayMode" in context) applyDisplayMode(context.displayMode);
    if (typeof context.timeZone === "string" && context.timeZone) hostTimeZone = context.timeZone;
  }

  function applyDisplayMode(value) {
    if (value === "inline" || value === "fullscreen" || value === "pip") {
      document.documentElement.setAttribute("data-display-mode", value);
    }
  }

  // Ask the host for the height the content needs, whenever it changes.
  function watchSize() {
    if (sizeWatched) return;
    sizeWatched = true;
    var last = 0;
    var report = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      if (mode === "mcp") notify("ui/notifications/size-changed", { height: height });
      else if (openai && typeof openai.notifyIntrinsicHeight === "function") openai.notifyIntrinsicHeight(height);
    };
    if (window.ResizeObserver) new ResizeObserver(report).observe(document.documentElement);
    report();
  }

  function hostCall(action) {
    if (mode === "mcp") {
      var meta = {};
      var zone = timeZone();
      if (zone) meta["giftgenius/timeZone"] = zone;
      return rpc("tools/call", { name: action.tool, arguments: action.args, _meta: meta });
    }
    return openai.callTool(action.tool, action.args);
  }

  // ---------------------------------------------------------------- ChatGPT transport

  function htmlFrom(payload) {
    if (!payload || typeof payload !== "object") return null;
    var candidates = [payload, payload._meta, payload.meta, payload.metadata, payload.toolResponseMetadata];
    ["call_tool_result", "mcp_tool_result", "result"].forEach(function (k) {
      if (payload[k] && typeof payload[k] === "object") {
        candidates.push(payload[k]._meta, payload[k].meta);
      }
    });
    for (var i = 0; i < candidates.length; i++) {
      var c = candidates[i];
      if (c && typeof c === "object") {
        if (typeof c.html === "string") return c.html;
        if (typeof c["giftgenius/html"] === "string") return c["giftgenius/html"];
      }
    }
    return null;
  }

  function viaCallTool(action) {
    if (busy) return; // one action at a time; a repeat carries the same key anyway
    var call = { action: action }; // this call's own identity: `busy` holds the one in flight
    busy = call;
    setBusy(true);
    // The first of answer, failure and timeout ends the call, and only while it is still the
    // call in flight: after the timeout the person may try again, and the late answer of the
    // call given up on must neither end the retry's busy state (a second click would run the
    // action twice at once) nor draw over its view. The busy state goes before the view is
    // drawn: a busy view is display:none and cannot take the focus.
    function end(show) {
      if (busy !== call) return;
      window.clearTimeout(timer);
      busy = null;
      setBusy(false);
      show();
    }
    var timer = window.setTimeout(function () {
      end(function () { fallbackBanner("slow", action, true); });
    }, REQUEST_TIMEOUT_MS);
    remember(action)
      .then(function () { return hostCall(action); })
      .then(function (result) {
        end(function () {
          var html = htmlFrom(result);
          if (html) render(html, action, { focus: true });
          else fallbackBanner("unreachable", action, true);
        });
      }, function () {
        end(function () { fallbackBanner("unreachable", action, true); });
      });
  }

  // ChatGPT's payment sheet (a private beta, on only where the server put the session on the
  // button): the host takes the payment and ChatGPT calls complete_checkout itself; the widget
  // then shows the order as it stands. Closing the sheet keeps the summary on screen.
  function viaPaymentSheet(elt, action) {
    var session = parse(elt.getAttribute("data-gg-checkout-session"));
    if (!session || !openai || typeof openai.requestCheckout !== "function") return false;
    var call = { action: action };
    busy = call;
    setBusy(true);
    function end() {
      if (busy !== call) return false;
      busy = null;
      setBusy(false);
      return true;
    }
    Promise.resolve()
      .then(function () { return openai.requestCheckout(session); })
      .then(function () {
        if (end()) viaCallTool({ tool: "get_order", args: { order_id: action.args.order_id } });
      }, function () {
        if (end()) render(shownHtml, state.ctx, { focus: true });
      });
    return true;
  }

  // A follow-up is a message from the person into the chat; only a host has a chat.
  function followUp(elt) {
    var prompt = elt.getAttribute("data-gg-follow-up") || elt.getAttribute("data-gg-followup");
    if (!prompt) return false;
    if (mode === "mcp") {
      rpc("ui/message", { role: "user", content: [{ type: "text", text: prompt }] }).catch(function (e) {
        ignore("ui/message refused", e);
      });
      return true;
    }
    if (openai && typeof openai.sendFollowUpMessage === "function") {
      openai.sendFollowUpMessage({ prompt: prompt });
      return true;
    }
    return false;
  }

  function requestDisplayMode(wanted) {
    if (mode === "mcp") {
      rpc("ui/request-display-mode", { mode: wanted }).then(function (result) {
        applyDisplayMode(result && result.mode);
      }, function (e) {
        ignore("ui/request-display-mode refused", e);
      });
    } else if (openai && typeof openai.requestDisplayMode === "function") {
      Promise.resolve(openai.requestDisplayMode({ mode: wanted })).then(function (result) {
        applyDisplayMode((result && result.mode) || wanted);
      }, function () {});
    } else {
      applyDisplayMode(wanted); // a plain page is its own host
    }
  }

  function openLink(url) {
    if (mode === "mcp") {
      rpc("ui/open-link", { url: url }).catch(function (e) { ignore("ui/open-link refused", e); });
    } else if (openai && typeof openai.openExternal === "function") {
      openai.openExternal({ href: url });
    } else {
      window.open(url, "_blank", "noopener");
    }
  }

  // ---------------------------------------------------------------- host-mode delegation (no htmx)

  document.addEventListener("click", function (evt) {
    var elt = evt.target.closest && evt.target.closest(
      "[data-gg-display-mode],[data-gg-follow-up],[data-gg-followup],button[data-gg-tool],a[href]"
    );
    if (!elt || !root.contains(elt)) return;
    if (elt.hasAttribute("data-gg-display-mode")) {
      evt.preventDefault();
      requestDisplayMode(elt.getAttribute("data-gg-display-mode"));
      return;
    }
    if (!hosted) {
      // A plain page: htmx runs the actions; a follow-up without a tool has no chat to go to.
      if (elt.hasAttribute("data-gg-follow-up") && !elt.hasAttribute("data-gg-tool")) evt.preventDefault();
      return;
    }
    if (elt.tagName === "A") {
      // A web link leaves the widget through the host (a sandboxed frame cannot navigate the
      // chat); an in-page anchor keeps its default.
      if (/^https?:\/\//i.test(elt.getAttribute("href"))) {
        evt.preventDefault();
        openLink(elt.href);
      }
      return;
    }
    if (elt.type === "submit") return; // its form's submit event carries the action
    evt.preventDefault();
    if (followUp(elt) || !elt.hasAttribute("data-gg-tool") || busy) return;
    pressing(elt);
    var action = actionFor(elt);
    if (!viaPaymentSheet(elt, action)) viaCallTool(action);
  });

  document.addEventListener("change", rememberChoice);

  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!hosted || !root.contains(form) || !form.hasAttribute("data-gg-tool")) return;
    evt.preventDefault(); // the browser has validated the fields; the host runs the tool
    viaCallTool(actionFor(form));
  });

  // ---------------------------------------------------------------- htmx transport

  if (htmx) {
    htmx.defineExtension("gg", {
      onEvent: function (name, evt) {
        if (name === "htmx:configRequest") {
          var headers = evt.detail.headers;
          headers["Content-Type"] = "application/json";
          headers["X-GG-Contract"] = CONTRACT;
          headers["X-GG-Locale"] = language();
          var zone = timeZone();
          if (zone) headers["X-GG-Time-Zone"] = zone;
          var csrf = app.getAttribute("data-gg-csrf");
          if (csrf) headers["X-CSRFToken"] = csrf;
        }
      },
      encodeParameters: function (xhr, parameters, elt) {
        xhr.overrideMimeType("text/html");
        var action = actionFor(elt);
        remember(action); // synchronous in a browser: stored before the request leaves
        return JSON.stringify(action.args);
      },
    });

    document.addEventListener("htmx:confirm", function (evt) {
      var elt = evt.detail.elt;
      if (!root.contains(elt)) return;
      if (elt.hasAttribute("data-gg-followup") && followUp(elt)) evt.preventDefault();
    });

    document.addEventListener("htmx:beforeRequest", function (evt) {
      if (!root.contains(evt.detail.elt)) return;
      pressing(evt.detail.elt);
      setBusy(true);
    });

    document.addEventListener("htmx:beforeSwap", function (evt) {
      if (evt.detail.target !== root) return;
      var xhr = evt.detail.xhr;
      if (xhr.status !== 200 || xhr.getResponseHeader("X-GG-Fragment") !== CONTRACT) {
        evt.detail.shouldSwap = false; // never swap a login page or an error page into the widget
      }
    });

    document.addEventListener("htmx:afterRequest", function (evt) {
      if (!root.contains(evt.detail.elt) && evt.detail.target !== root) return;
      setBusy(false);
      var xhr = evt.detail.xhr;
      if (!xhr || xhr.status !== 200 || xhr.getResponseHeader("X-GG-Fragment") !== CONTRACT) {
        fallbackBanner("unreachable", state.last, true);
      }
    });

    document.addEventListener("htmx:timeout", function () {
      setBusy(false);
      fallbackBanner("slow", state.last, true);
    });

    document.addEventListener("htmx:afterSwap", function (evt) {
      if (evt.detail.target !== root) return;
      state.ctx = state.last;
      hydrate();
      saveView(root.innerHTML);
      saveState();
      setBusy(false); // the answer is here; htmx:afterRequest (which says so too) comes later
      focusView();
    });
  }

  // ---------------------------------------------------------------- host globals

  function applyTheme(theme) {
    if (theme === "dark" || theme === "light") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  }

  function applyLocale(tag) {
    if (typeof tag === "string" && tag) document.documentElement.lang = tag;
  }

  function renderFromHost() {
    var html = htmlFrom(openai.toolResponseMetadata);
    if (html) {
      hostHtml = html;
      render(html, null);
      return true;
    }
    var output = openai.toolOutput;
    if (output && output.ok === false) {
      fallbackBanner("unreachable", null);
      return true;
    }
    return false;
  }

  if (openai) {
    applyTheme(openai.theme);
    applyLocale(openai.locale);
    applyDisplayMode(openai.displayMode);
    window.addEventListener("openai:set_globals", function (evt) {
      if (mode === "mcp") return; // the host speaks MCP Apps: its notifications are the truth
      var globals = (evt.detail && evt.detail.globals) || {};
      if ("theme" in globals) applyTheme(globals.theme);
      if ("locale" in globals) applyLocale(globals.locale);
      if ("displayMode" in globals) applyDisplayMode(globals.displayMode);
      if ("toolResponseMetadata" in globals || "toolOutput" in globals) {
        var html = htmlFrom(openai.toolResponseMetadata);
        // Only a new answer from the model's own call replaces the view: the host repeating its
        // old metadata, or echoing the widget's last callTool, must not undo the person's steps.
        if (html && html !== hostHtml && html !== shownHtml) render(html, null);
        if (html) hostHtml = html;
      }
    });
  }

  // ---------------------------------------------------------------- start

  // A re-mount (a reload, the widget scrolled back into view): show where the person was; a
  // repeated click re-sends the same key.
  function restoreView(view) {
    root.innerHTML = view;
    shownHtml = view;
    restored = true;
    hydrate();
  }

  // A plain MCP Apps host: the first tool result says which widget this is. State saved for
  // this same result is a re-mount of this widget and comes back; any other result, whatever
  // an earlier widget in this tab left behind, is shown as it came.
  function adoptResult(html) {
    perResult = false;
    storeKey = storeBase + ":result:" + digest(html);
    state = loadState();
    hostHtml = html;
    var view = savedView();
    if (view && (state.ctx || state.last)) restoreView(view);
    else render(html, null);
  }

  function start() {
    var view = savedView();
    if (view && (state.ctx || state.last)) {
      restoreView(view);
      hostHtml = openai ? htmlFrom(openai.toolResponseMetadata) : null;
    } else if (hosted) {
      if (!(openai && renderFromHost())) {
        root.replaceChildren();
        var wait = document.createElement("p");
        wait.className = "gg-loading";
        wait.setAttribute("data-testid", "loading");
        wait.textContent = t("loading");
        root.appendChild(wait);
      }
    } else {
      hydrate();
      saveView(root.innerHTML);
    }
    if (!document.documentElement.hasAttribute("data-display-mode")) applyDisplayMode("inline");
    app.setAttribute("data-gg-ready", "true");
    if (framed && hosted) connectHost();
    if (mode === "openai") watchSize();
  }

  start();
})();
