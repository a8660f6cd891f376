/*
 * GiftGenius QA preview: plays the host for the widget shell in the iframe.
 *  - the host: by default an MCP Apps host (postMessage JSON-RPC: ui/initialize, tool-input,
 *    tool-result, host-context-changed; the frame's tools/call → real /mcp JSON-RPC), or with
 *    ?dialect=openai the older window.openai (globals, widgetState, callTool);
 *  - the model: the QA panel starts a workflow and asks for suggestions through /mcp;
 *  - the log: every tool call, what the model sees (structuredContent + content) beside what
 *    only the widget sees (_meta).
 * CSP-strict: no inline handlers or styles; the DOM is built with textContent.
 */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("qa-config").textContent);
  var MOUNT_KEY = "gg-preview:mount";
  var rpcId = 0;
  var callNo = 0;
  var frameNo = 0;

  var el = {
    brief: document.getElementById("qa-brief"),
    briefError: document.getElementById("qa-brief-error"),
    start: document.getElementById("qa-start"),
    search: document.getElementById("qa-search"),
    searchStart: document.getElementById("qa-search-start"),
    locale: document.getElementById("qa-locale"),
    theme: document.getElementById("qa-theme"),
    fault: document.getElementById("qa-fault"),
    displayMode: document.getElementById("qa-display-mode"),
    log: document.getElementById("qa-log"),
    stage: document.getElementById("qa-stage"),
    placeholder: document.getElementById("qa-placeholder"),
    state: document.getElementById("qa-widget-state"),
    exitFullscreen: document.getElementById("qa-exit-fullscreen"),
  };

  // ------------------------------------------------------------------ host globals

  var globals = {
    theme: config.theme,
    locale: config.locale,
    displayMode: "inline",
    maxHeight: 900,
    safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
    userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
    view: { mode: "inline" },
    toolInput: null,
    toolOutput: null,
    toolResponseMetadata: null,
    widgetState: null,
    // The person's time zone, as ChatGPT hints it (openai/userLocation) and an MCP Apps host
    // puts it in its context: ?tz= where the tester set one, else this browser's.
    timeZone: config.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone,
  };
  var frame = null;

  function clone(value) {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }

  function faultPlan() {
    return config.faultEnabled ? config.faults[el.fault.value] || "" : "";
  }

  function persistMount() {
    try {
      window.sessionStorage.setItem(MOUNT_KEY, JSON.stringify({
        toolInput: globals.toolInput,
        toolOutput: globals.toolOutput,
        toolResponseMetadata: globals.toolResponseMetadata,
        widgetState: globals.widgetState,
        instance: frameNo,
      }));
    } catch (e) {
      /* storage full or blocked: the preview still works, only reload-restore is lost */
    }
  }

  function showWidgetState() {
    el.state.textContent = globals.widgetState ? JSON.stringify(globals.widgetState, null, 2) : "(empty)";
  }

  function setGlobals(partial) {
    Object.keys(partial).forEach(function (k) { globals[k] = partial[k]; });
    if (config.dialect === "mcp-apps") {
      var changed = {};
      ["theme", "locale", "displayMode"].forEach(function (k) { if (k in partial) changed[k] = partial[k]; });
      if (Object.keys(changed).length) appNotify("ui/notifications/host-context-changed", changed);
      return;
    }
    if (frame && frame.contentWindow) {
      var win = frame.contentWindow;
      try {
        var detail = { globals: clone(partial) };
        win.dispatchEvent(new win.CustomEvent("openai:set_globals", { detail: detail }));
      } catch (e) {
        /* the frame is navigating; it reads the new globals when it loads */
      }
    }
  }

  function uuid() {
    return window.crypto.randomUUID();
  }

  // ------------------------------------------------------------------ /mcp (JSON-RPC, stateless)

  function callMcp(name, args, caller, widgetMeta) {
    var correlationId = "qa-" + uuid();
    var meta = {
      "openai/locale": globals.locale,
      "openai/userLocation": { timezone: globals.timeZone },
      "giftgenius/correlationId": correlationId,
    };
    // What the widget itself sends with its call goes through, as a host passes it on.
    if (widgetMeta && typeof widgetMeta["giftgenius/timeZone"] === "string") {
      meta["giftgenius/timeZone"] = widgetMeta["giftgenius/timeZone"];
    }
    var fault = faultPlan();
    if (fault) meta["giftgenius/fault"] = fault;
    var request = {
      jsonrpc: "2.0",
      id: ++rpcId,
      method: "tools/call",
      params: { name: name, arguments: args, _meta: meta },
    };
    return window.fetch(config.mcpUrl, {
      method: "POST",
      credentials: "omit", // the bearer token is the only credential, as for ChatGPT
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: "Bearer " + config.token,
        "MCP-Protocol-Version": "2025-06-18",
      },
      body: JSON.stringify(request),
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (answer.error || !answer.result) {
          logEntry(name, args, caller, null, answer.error || { message: "no result" }, meta);
          // The server's JSON-RPC error (an unknown tool is -32602) goes to the app as it is.
          var failure = new Error((answer.error && answer.error.message) || "MCP error");
          failure.code = answer.error && answer.error.code;
          throw failure;
        }
        logEntry(name, args, caller, answer.result, null, meta);
        return answer.result;
      });
  }

  // ------------------------------------------------------------------ the log

  function pre(value) {
    var node = document.createElement("pre");
    node.className = "qa-pre";
    node.tabIndex = 0; // a scrollable region must be reachable by keyboard
    node.textContent = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    return node;
  }

  function column(title, value) {
    var box = document.createElement("div");
    box.className = "qa-col";
    var h = document.createElement("h4");
    h.textContent = title;
    box.appendChild(h);
    box.appendChild(pre(value));
    return box;
  }

  function logEntry(name, args, caller, result, rpcError, requestMeta) {
    callNo += 1;
    var item = document.createElement("li");
    item.className = "qa-entry";
    item.setAttribute("data-testid", "qa-log-entry");
    item.setAttribute("data-tool", name);
    item.setAttribute("data-caller", caller);
    var failed = !!rpcError || !!(result && result.isError);
    item.setAttribute("data-is-error", failed ? "true" : "false");
    var head = document.createElement("p");
    head.className = "qa-entry__head";
    var code = result && result.structuredContent && result.structuredContent.error
      ? " — " + result.structuredContent.error.code : "";
    head.textContent = "#" + callNo + " " + name + " · called by the " + caller +
      (failed ? " · isError" + code : " · ok") + (requestMeta["giftgenius/fault"] ? " · fault " + requestMeta["giftgenius/fault"] : "");
    item.appendChild(head);
    var details = document.createElement("details");
    var summary = document.createElement("summary");
    summary.textContent = "arguments and request _meta";
    details.appendChild(summary);
    details.appendChild(pre({ arguments: args, _meta: requestMeta }));
    item.appendChild(details);
    var cols = document.createElement("div");
    cols.className = "qa-cols";
    if (rpcError) {
      cols.appendChild(column("JSON-RPC error", rpcError));
    } else {
      cols.appendChild(column("Model sees: structuredContent + content", {
        structuredContent: result.structuredContent,
        content: result.content,
        isError: !!result.isError,
      }));
      var meta = clone(result._meta || {});
      var html = meta.html;
      if (typeof html === "string") meta.html = "(" + html.length + " characters of HTML, below)";
      var widgetCol = column("Widget only: _meta", meta);
      if (typeof html === "string") {
        var more = document.createElement("details");
        var s = document.createElement("summary");
        s.textContent = "_meta.html";
        more.appendChild(s);
        more.appendChild(pre(html));
        widgetCol.appendChild(more);
      }
      cols.appendChild(widgetCol);
    }
    item.appendChild(cols);
    el.log.insertBefore(item, el.log.firstChild);
  }

  function logNote(text) {
    var item = document.createElement("li");
    item.className = "qa-entry qa-entry--note";
    item.setAttribute("data-testid", "qa-log-note");
    item.textContent = text;
    el.log.insertBefore(item, el.log.firstChild);
  }

  // As a host does: a web page the widget asks for opens in a new tab (a hosted payment page),
  // never in the chat's own.
  function openForWidget(url) {
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
      logNote("The widget asked the host to open something that is not a web page; ignored.");
      return;
    }
    logNote("The widget asked the host to open " + url);
    window.open(url, "_blank", "noopener");
  }

  // ------------------------------------------------------------------ the payment sheet

  // ChatGPT's payment sheet as OpenAI's monetization reference describes it: requestCheckout
  // takes an ACP checkout session; the sheet takes the payment (here a test Shared Payment Token
  // from Stripe's test helper, through the preview's own endpoint), ChatGPT calls the app's
  // complete_checkout tool with it, and the promise resolves with the order (or rejects when
  // the sheet is closed or the payment did not complete).
  var checkoutRequests = [];

  function sessionTotal(session) {
    var totals = (session && session.totals) || [];
    for (var i = 0; i < totals.length; i++) if (totals[i].type === "total") return totals[i].amount;
    return null;
  }

  // ACP amounts are in the currency's minor units; the sheet shows them as money.
  function formatMinor(amount, currency) {
    var code = String(currency || "").toUpperCase();
    if (amount === null || !/^[A-Z]{3}$/.test(code)) return String(amount) + " " + code;
    var format = new Intl.NumberFormat("en", { style: "currency", currency: code });
    return format.format(amount / Math.pow(10, format.resolvedOptions().maximumFractionDigits));
  }

  function requestCheckout(session) {
    checkoutRequests.push(clone(session));
    logNote("The widget asked for the payment sheet (requestCheckout), session " + (session && session.id));
    var sheet = document.getElementById("qa-sheet");
    var pay = document.getElementById("qa-sheet-pay");
    var close = document.getElementById("qa-sheet-close");
    var error = document.getElementById("qa-sheet-error");
    var amount = sessionTotal(session);
    document.getElementById("qa-sheet-summary").textContent =
      "Total " + formatMinor(amount, session.currency) +
      " · " + ((session.payment_provider || {}).provider || "?") + " · " + session.payment_mode;
    error.textContent = "";
    sheet.hidden = false;
    return new Promise(function (resolve, reject) {
      function finish() {
        sheet.hidden = true;
        pay.onclick = null;
        close.onclick = null;
      }
      close.onclick = function () {
        finish();
        reject(new Error("The person closed the payment sheet."));
      };
      pay.onclick = function () {
        pay.disabled = true;
        window.fetch(config.paymentTokenUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": config.csrf },
          body: JSON.stringify({ amount: amount, currency: session.currency }),
        })
          .then(function (response) { return response.json(); })
          .then(function (granted) {
            if (!granted.token) throw new Error(granted.error || "no test token");
            return callMcp("complete_checkout", {
              checkout_session_id: session.id,
              payment_data: { token: granted.token, provider: (session.payment_provider || {}).provider || "stripe" },
            }, "chatgpt");
          })
          .then(function (result) {
            pay.disabled = false;
            var done = result && result.structuredContent;
            if (done && done.status === "completed") {
              finish();
              resolve(clone(done.order));
              return;
            }
            var messages = (done && done.messages) || [];
            error.textContent = messages.length ? messages[0].content : "The payment did not complete.";
          }, function (e) {
            pay.disabled = false;
            error.textContent = String((e && e.message) || e);
          });
      };
    });
  }

  // ------------------------------------------------------------------ window.openai for the frame

  function connect(frameWindow) {
    var api = {
      callTool: function (name, args) {
        return callMcp(name, clone(args || {}), "widget").then(function (result) {
          return clone(result);
        });
      },
      setWidgetState: function (state) {
        globals.widgetState = clone(state);
        persistMount();
        showWidgetState();
        return Promise.resolve();
      },
      sendFollowUpMessage: function (message) {
        logNote("The widget sent a follow-up message to the model: " + ((message && message.prompt) || ""));
        return Promise.resolve();
      },
      requestDisplayMode: function (request) {
        // As ChatGPT does: the host itself goes full screen (or back) and says so in its globals.
        var mode = request && request.mode === "fullscreen" ? "fullscreen" : "inline";
        hostSetsDisplayMode(mode);
        return Promise.resolve({ mode: mode });
      },
      notifyIntrinsicHeight: function () {},
      openExternal: function (request) {
        openForWidget(request && request.href);
      },
      requestClose: function () {},
      requestCheckout: requestCheckout,
    };
    ["theme", "locale", "displayMode", "maxHeight", "safeArea", "userAgent", "view",
      "toolInput", "toolOutput", "toolResponseMetadata", "widgetState"].forEach(function (name) {
      Object.defineProperty(api, name, {
        enumerable: true,
        get: function () { return clone(globals[name]); },
      });
    });
    frameWindow.addEventListener("load", function () { fitFrame(frameWindow); });
    return api;
  }

  // connect: used by host-emulator.js in the frame. setGlobals/snapshot: for QA in the console
  // (and the browser tests), e.g. to replay a host update the way ChatGPT sends it.
  window.GiftGeniusPreviewHost = {
    connect: connect,
    setGlobals: setGlobals,
    snapshot: function () { return clone(globals); },
    checkoutRequests: function () { return clone(checkoutRequests); },
  };

  // ------------------------------------------------------------------ MCP Apps host (postMessage)

  var appReady = false;

  function hostContext() {
    return {
      theme: globals.theme,
      locale: globals.locale,
      timeZone: globals.timeZone,
      displayMode: globals.displayMode,
      availableDisplayModes: ["inline", "fullscreen"],
      platform: "web",
      deviceCapabilities: { hover: true, touch: false },
      containerDimensions: { maxHeight: globals.maxHeight },
    };
  }

  function toApp(message) {
    if (frame && frame.contentWindow) frame.contentWindow.postMessage(message, window.location.origin);
  }

  function appNotify(method, params) {
    if (appReady) toApp({ jsonrpc: "2.0", method: method, params: params });
  }

  function setDisplayMode(mode) {
    globals.displayMode = mode;
    el.stage.classList.toggle("qa-stage__frame--fullscreen", mode === "fullscreen");
    if (el.displayMode) el.displayMode.value = mode;
    if (frame) fitFrame(frame.contentWindow);
  }

  var appMethods = {
    "ui/initialize": function () {
      return {
        protocolVersion: "2026-01-26",
        hostInfo: { name: "giftgenius-qa-preview", version: "1" },
        hostCapabilities: { openLinks: {}, serverTools: {}, message: { text: {} } },
        hostContext: hostContext(),
      };
    },
    "ui/notifications/initialized": function () {
      appReady = true;
      appNotify("ui/notifications/tool-input", { arguments: clone(globals.toolInput) || {} });
      if (globals.toolResult) appNotify("ui/notifications/tool-result", clone(globals.toolResult));
    },
    "tools/call": function (params) {
      return callMcp(params.name, clone(params.arguments || {}), "widget", params._meta);
    },
    "ui/message": function (params) {
      var text = (params.content || []).map(function (c) { return c.text || ""; }).join(" ");
      logNote("The widget sent a follow-up message to the model: " + text);
      return {};
    },
    "ui/open-link": function (params) {
      openForWidget(params.url);
      return {};
    },
    "ui/request-display-mode": function (params) {
      var mode = params.mode === "fullscreen" ? "fullscreen" : "inline";
      setDisplayMode(mode);
      appNotify("ui/notifications/host-context-changed", { displayMode: mode });
      return { mode: mode };
    },
    "ui/notifications/size-changed": function (params) {
      if (typeof params.height === "number") appHeight = params.height;
      fitFrame(frame.contentWindow);
    },
    ping: function () {
      return {};
    },
  };

  window.addEventListener("message", function (evt) {
    if (config.dialect !== "mcp-apps") return; // playing a host that offers only window.openai
    if (!frame || evt.source !== frame.contentWindow || evt.origin !== window.location.origin) return;
    var m = evt.data;
    if (!m || m.jsonrpc !== "2.0" || typeof m.method !== "string") return;
    var handler = appMethods.hasOwnProperty(m.method) ? appMethods[m.method] : null;
    var isRequest = m.id !== undefined && m.id !== null;
    if (!handler) {
      if (isRequest) toApp({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
      return;
    }
    Promise.resolve()
      .then(function () { return handler(m.params || {}); })
      .then(function (result) {
        if (isRequest) toApp({ jsonrpc: "2.0", id: m.id, result: result || {} });
      }, function (error) {
        var code = error && typeof error.code === "number" ? error.code : -32603;
        if (isRequest) toApp({ jsonrpc: "2.0", id: m.id, error: { code: code, message: String((error && error.message) || error) } });
      });
  });

  // ------------------------------------------------------------------ the frame

  var resizeObserver = null;
  var appHeight = 0; // what the MCP App asked for (ui/notifications/size-changed)

  function fitFrame(frameWindow) {
    if (!frame || frame.contentWindow !== frameWindow) return;
    // CSSOM (allowed under style-src 'self'), not a style attribute.
    if (config.dialect === "mcp-apps") {
      // A host sizes the frame from the app's request, never by reading into it.
      frame.style.height = globals.displayMode === "fullscreen" ? "" : Math.max(240, appHeight) + "px";
      return;
    }
    var body = frameWindow.document.body;
    var apply = function () { frame.style.height = Math.max(240, body.scrollHeight + 8) + "px"; };
    apply();
    if (resizeObserver) resizeObserver.disconnect();
    resizeObserver = new ResizeObserver(apply);
    resizeObserver.observe(frameWindow.document.body);
  }

  function mount(toolInput, result, widgetState) {
    globals.toolInput = clone(toolInput);
    globals.toolOutput = result ? clone(result.structuredContent) : null;
    globals.toolResponseMetadata = result ? clone(result._meta || {}) : null;
    globals.toolResult = result ? clone(result) : null;
    appReady = false;
    globals.widgetState = widgetState || null; // a new tool result is a new widget instance
    frameNo += 1;
    persistMount();
    showWidgetState();
    var next = document.createElement("iframe");
    next.className = "qa-frame";
    next.title = "GiftGenius widget";
    next.setAttribute("data-testid", "qa-frame");
    next.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
    next.src = config.frameUrl + "?instance=" + frameNo + (config.dialect === "openai" ? "&dialect=openai" : "");
    if (frame) frame.remove();
    if (el.placeholder) el.placeholder.hidden = true;
    el.stage.appendChild(next);
    frame = next;
    next.addEventListener("load", function () {
      // Esc while the widget has focus reaches the frame's document, not this one; a host's
      // chrome sees it either way (the preview's frame is same-origin, so it can listen there).
      try {
        next.contentWindow.addEventListener("keydown", function (evt) { escapeLeavesFullscreen(evt); });
      } catch (e) {
        /* not reachable: the bar's button still works */
      }
    });
  }

  // ------------------------------------------------------------------ the QA panel (the "model")

  function readBrief() {
    el.briefError.textContent = "";
    try {
      var brief = JSON.parse(el.brief.value);
      if (!brief || typeof brief !== "object" || Array.isArray(brief)) throw new Error("not an object");
      return brief;
    } catch (e) {
      el.briefError.textContent = "The brief is not a JSON object: " + e.message;
      return null;
    }
  }

  // The model's opening moves: a new workflow, then ideas for the brief or a search by name.
  function startWith(button, tool, extraArgs) {
    if (!extraArgs) return;
    button.disabled = true;
    callMcp("start_gift_workflow", {}, "model")
      .then(function (started) {
        var workflow = started.structuredContent && started.structuredContent.workflow_id;
        if (started.isError || !workflow) {
          mount({}, started);
          return null;
        }
        var args = Object.assign({}, extraArgs, { workflow_id: workflow });
        return callMcp(tool, args, "model").then(function (result) { mount(args, result); });
      })
      .catch(function () { logNote("The call failed before the tool ran (see the entry above)."); })
      .then(function () { button.disabled = false; });
  }

  function start() {
    startWith(el.start, "suggest_gifts", readBrief());
  }

  function startSearch() {
    var query = el.search.value.trim();
    startWith(el.searchStart, "search_products", query ? { query: query } : null);
  }

  function applyPanelTheme(theme) {
    document.documentElement.setAttribute("data-theme", theme);
  }

  el.start.addEventListener("click", start);
  el.searchStart.addEventListener("click", startSearch);
  el.locale.addEventListener("change", function () { setGlobals({ locale: el.locale.value }); });
  el.theme.addEventListener("change", function () {
    applyPanelTheme(el.theme.value);
    setGlobals({ theme: el.theme.value });
  });
  // The host changes the display mode and tells the app (host-context-changed / set_globals).
  function hostSetsDisplayMode(mode) {
    setDisplayMode(mode);
    setGlobals({ displayMode: mode });
  }
  el.displayMode.addEventListener("change", function () { hostSetsDisplayMode(el.displayMode.value); });
  // Full screen covers the panel: the host's own bar and Esc lead back inline.
  el.exitFullscreen.addEventListener("click", function () { hostSetsDisplayMode("inline"); });
  function escapeLeavesFullscreen(evt) {
    if (evt.key === "Escape" && globals.displayMode === "fullscreen") hostSetsDisplayMode("inline");
  }
  document.addEventListener("keydown", escapeLeavesFullscreen);
  el.fault.addEventListener("change", function () {
    logNote("Fault for this preview session: " + (faultPlan() || "none"));
  });

  // A reload of the preview keeps the widget where it was (ChatGPT persists widget state too).
  try {
    var saved = JSON.parse(window.sessionStorage.getItem(MOUNT_KEY) || "null");
    if (saved && saved.toolOutput) {
      frameNo = saved.instance || 0;
      frameNo -= 1;
      mount(saved.toolInput, { structuredContent: saved.toolOutput, _meta: saved.toolResponseMetadata }, saved.widgetState);
    }
  } catch (e) {
    /* nothing to restore */
  }
  showWidgetState();
  document.documentElement.setAttribute("data-qa-ready", "true");
})();
