/*
 * QA preview only: inside the preview's iframe, stand in for ChatGPT's injected window.openai.
 * Loaded before the bridge (as ChatGPT injects its global before the widget's scripts run);
 * the real state and the /mcp calls live in the parent page (preview.js), which plays the host.
 */
(function () {
  "use strict";
  var host = null;
  try {
    host = window.parent !== window ? window.parent.GiftGeniusPreviewHost : null;
  } catch (e) {
    host = null; // not framed by the preview (cross-origin): behave like a plain browser
  }
  if (host && typeof host.connect === "function") {
    window.openai = host.connect(window);
  }
})();
