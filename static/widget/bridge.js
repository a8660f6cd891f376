/*
 * GiftGenius widget bridge, contract v1 (SPEC §9).
 *
 * The server renders every state as an HTML fragment; this script only decides the transport:
 *  - in ChatGPT (window.openai present) an action calls window.openai.callTool(name, args) and
 *    swaps in the fragment from the result's widget-only _meta.html;
 *  - in a plain browser htmx POSTs the same action to /widget/actions/<tool> and swaps the answer.
 * Every action with side effects carries an idempotency key that lives in widget state, so a
 * repeated click, a "Try again" or a reload re-sends the same key; a new action gets a new one.
 * CSP-strict: no eval, no inline handlers or styles, DOM built with textContent only.
 */
(function () {
  "use strict";

  var CONTRACT = "v1";
  var REQUEST_TIMEOUT_MS = 30000; // never an endless spinner
  var MAX_KEYS = 30;

  var app = document.getElementById("gg-app");
  var root = document.getElementById("gg-root");
  if (!app || !root || app.getAttribute("data-gg-contract") !== CONTRACT) {
    return;
  }
  var htmx = window.htmx;
  var openai = window.openai || null;
  var mode = openai ? "openai" : "browser";
  app.setAttribute("data-gg-mode", mode);

  var actionBase = app.getAttribute("data-gg-action-url") || "/widget/actions/";
  var storeKey = "gg:" + CONTRACT + ":" + (app.getAttribute("data-gg-instance") || location.pathname);
  var i18n = readJSON(document.getElementById("gg-i18n")) || {};
  var state = loadState();
  var busy = null; // the action in flight (openai mode), or null
  var shownHtml = null; // the last fragment put on screen, whatever brought it
  var hostHtml = null; // the last fragment the host handed over in toolResponseMetadata

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
    var tag = (openai && openai.locale) || document.documentElement.lang || "en";
    tag = String(tag).toLowerCase().replace("_", "-");
    if (tag.indexOf("zh") === 0) return "zh-hans";
    var primary = tag.split("-")[0];
    return i18n[primary] ? primary : "en";
  }

  function t(key) {
    var table = i18n[language()] || i18n.en || {};
    return table[key] || (i18n.en && i18n.en[key]) || key;
  }

  // ---------------------------------------------------------------- widget state

  function sessionGet(key) {
    try {
      return window.sessionStorage.getItem(key);
    } catch (e) {
      return null; // storage can be unavailable in a sandboxed frame
    }
  }

  function sessionSet(key, value) {
    try {
      window.sessionStorage.setItem(key, value);
    } catch (e) {
      /* storage unavailable or full: the host's widget state still has the keys */
    }
  }

  // What the host keeps (window.openai.widgetState is visible to the model): only the versioned
  // idempotency keys, under hashed action identities. The actions' arguments (shipping address,
  // confirmation token) and the rendered HTML stay in this tab's sessionStorage.
  function loadState() {
    var fresh = { v: CONTRACT, sid: uuid(), keys: {}, order: [], last: null, ctx: null };
    var saved = openai ? openai.widgetState : parse(sessionGet(storeKey));
    if (!saved || saved.v !== CONTRACT) return fresh;
    var tab = parse(sessionGet(storeKey + ":tab:" + saved.sid)) || {};
    return {
      v: CONTRACT,
      sid: saved.sid || fresh.sid,
      keys: saved.keys || {},
      order: saved.order || [],
      last: tab.last || null,
      ctx: tab.ctx || null,
    };
  }

  function saveState() {
    var small = { v: CONTRACT, sid: state.sid, keys: state.keys, order: state.order };
    sessionSet(storeKey + ":tab:" + state.sid, JSON.stringify({ last: state.last, ctx: state.ctx }));
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

  // ---------------------------------------------------------------- actions

  function typed(input) {
    var value = input.value;
    var kind = input.getAttribute("data-gg-type");
    if (kind === "int") return value === "" ? undefined : parseInt(value, 10);
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
    if (openai && view) {
      return { tool: view.getAttribute("data-gg-tool"), args: openai.toolInput || {} };
    }
    return null;
  }

  function hydrate() {
    var ctx = contextAction();
    var view = root.querySelector("[data-gg-view]");
    var workflow = view ? view.getAttribute("data-gg-workflow") : null;
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
      else if (openai && openai.toolInput) args = openai.toolInput;
      if (!args) {
        button.hidden = true;
        return;
      }
      // The same arguments, idempotency key included: a retry is the same action again.
      button.setAttribute("data-gg-args", JSON.stringify(args));
      button.setAttribute("hx-post", actionBase + encodeURIComponent(tool));
    });
    if (htmx) htmx.process(root);
  }

  function render(html, ctx, options) {
    state.ctx = ctx || null;
    shownHtml = html;
    root.innerHTML = html;
    hydrate();
    saveView(html);
    saveState();
    if (options && options.focus) {
      var heading = root.querySelector("[data-gg-focus]");
      if (heading) heading.focus({ preventScroll: false });
    }
  }

  function setBusy(on) {
    root.setAttribute("aria-busy", on ? "true" : "false");
    app.classList.toggle("gg-busy", !!on);
  }

  // A banner built in the browser when the server could not be reached at all.
  function fallbackBanner(kind, action) {
    var box = document.createElement("div");
    box.className = "gg-banner gg-banner--error";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "error-banner");
    box.setAttribute("data-error-code", kind === "slow" ? "CLIENT_TIMEOUT" : "CLIENT_UNREACHABLE");
    var text = document.createElement("p");
    text.className = "gg-banner__text";
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
  }

  function remember(action) {
    state.last = action;
    return saveState();
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
    busy = action;
    setBusy(true);
    var settled = false;
    var timer = window.setTimeout(function () {
      if (settled) return;
      settled = true;
      busy = null;
      setBusy(false);
      fallbackBanner("slow", action);
    }, REQUEST_TIMEOUT_MS);
    remember(action)
      .then(function () { return openai.callTool(action.tool, action.args); })
      .then(function (result) {
        if (settled) return;
        settled = true;
        var html = htmlFrom(result);
        if (html) render(html, action, { focus: true });
        else fallbackBanner("unreachable", action);
      }, function () {
        if (settled) return;
        settled = true;
        fallbackBanner("unreachable", action);
      })
      .then(function () {
        window.clearTimeout(timer);
        busy = null;
        setBusy(false);
      });
  }

  function followUp(elt) {
    var prompt = elt.getAttribute("data-gg-followup");
    if (openai && typeof openai.sendFollowUpMessage === "function" && prompt) {
      openai.sendFollowUpMessage({ prompt: prompt });
      return true;
    }
    return false;
  }

  // ---------------------------------------------------------------- htmx transport

  if (htmx) {
    htmx.defineExtension("gg", {
      onEvent: function (name, evt) {
        if (name === "htmx:configRequest") {
          var headers = evt.detail.headers;
          headers["Content-Type"] = "application/json";
          headers["X-GG-Contract"] = CONTRACT;
          headers["X-GG-Locale"] = language();
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
      if (elt.hasAttribute("data-gg-followup") && followUp(elt)) {
        evt.preventDefault();
        return;
      }
      if (mode === "openai") {
        evt.preventDefault(); // ChatGPT: the host calls the tool, not htmx
        viaCallTool(actionFor(elt));
      }
    });

    document.addEventListener("htmx:beforeRequest", function (evt) {
      if (root.contains(evt.detail.elt)) setBusy(true);
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
        fallbackBanner("unreachable", state.last);
      }
    });

    document.addEventListener("htmx:timeout", function () {
      setBusy(false);
      fallbackBanner("slow", state.last);
    });

    document.addEventListener("htmx:afterSwap", function (evt) {
      if (evt.detail.target !== root) return;
      state.ctx = state.last;
      hydrate();
      saveView(root.innerHTML);
      saveState();
      var heading = root.querySelector("[data-gg-focus]");
      if (heading) heading.focus();
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
    window.addEventListener("openai:set_globals", function (evt) {
      var globals = (evt.detail && evt.detail.globals) || {};
      if ("theme" in globals) applyTheme(globals.theme);
      if ("locale" in globals) applyLocale(globals.locale);
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

  function start() {
    var restored = savedView();
    if (restored && (state.ctx || state.last)) {
      // A reload: show where the person was; a repeated click re-sends the same key.
      root.innerHTML = restored;
      shownHtml = restored;
      hostHtml = openai ? htmlFrom(openai.toolResponseMetadata) : null;
      hydrate();
    } else if (openai) {
      if (!renderFromHost()) {
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
    app.setAttribute("data-gg-ready", "true");
  }

  start();
})();
