// An app built from the ext-apps SDK's own App class, for the browser tests only: it stands in
// for our widget inside the QA preview, so the preview's host side is checked by the SDK (its
// schemas validate every message the preview sends).
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";

const seen = { inputs: [], results: [], contexts: [] };
window.sdkApp = seen;

// No automatic size reports: the test sends the height itself and checks the preview applies it.
const app = new App({ name: "ext-apps-sdk-test-app", version: "1" }, {}, { autoResize: false });
app.ontoolinput = (params) => seen.inputs.push(params);
app.ontoolresult = (params) => seen.results.push(params);
app.onhostcontextchanged = (params) => seen.contexts.push(params);
await app.connect(new PostMessageTransport(window.parent, window.parent));
seen.host = app.getHostVersion();
seen.context = app.getHostContext();
window.sdkCall = (name, args) => app.callServerTool({ name, arguments: args });
window.sdkDisplayMode = (mode) => app.requestDisplayMode({ mode });
window.sdkMessage = (text) => app.sendMessage({ role: "user", content: [{ type: "text", text }] });
window.sdkSize = (height) => app.sendSizeChanged({ height });
document.documentElement.setAttribute("data-app-connected", "true");
