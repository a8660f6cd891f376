// A host built from the ext-apps SDK's own host side (AppBridge + PostMessageTransport), for the
// browser tests only: it renders our ui:// resource and answers the app's requests. The test
// (Python) hands over the opening tool call and runs the app's tools/call against the live /mcp.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

const frame = document.getElementById("app");
const seen = [];
window.hostSeen = seen;

const opening = await window.__hostOpening();
const bridge = new AppBridge(
  null,
  { name: "ext-apps-sdk-test-host", version: "1" },
  { serverTools: {}, openLinks: {}, message: { text: {} } },
  {
    hostContext: {
      theme: opening.theme,
      locale: opening.locale,
      displayMode: "inline",
      availableDisplayModes: ["inline", "fullscreen"],
      platform: "web",
    },
  },
);
bridge.oncalltool = async (params) => {
  seen.push({ method: "tools/call", name: params.name });
  return window.__hostCallTool(params.name, params.arguments || {});
};
bridge.onmessage = async (params) => {
  seen.push({ method: "ui/message", params });
  return {};
};
bridge.onopenlink = async (params) => {
  seen.push({ method: "ui/open-link", params });
  return {};
};
bridge.onrequestdisplaymode = async ({ mode }) => {
  seen.push({ method: "ui/request-display-mode", mode });
  bridge.setHostContext({ displayMode: mode });
  return { mode };
};
bridge.onsizechange = (params) => {
  seen.push({ method: "ui/notifications/size-changed", params });
  if (params.height) frame.height = String(params.height);
};
bridge.oninitialized = async () => {
  seen.push({ method: "ui/notifications/initialized" });
  await bridge.sendToolInput({ arguments: opening.input });
  await bridge.sendToolResult(opening.result);
};
window.hostBridge = bridge;

// Connect before the frame loads, so the app's ui/initialize finds the bridge listening.
await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
frame.src = opening.appUrl;
document.documentElement.setAttribute("data-host-ready", "true");
