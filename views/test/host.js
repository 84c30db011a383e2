// The test host: the official host side of MCP Apps (the SDK's AppBridge) showing a view in
// one `sandbox="allow-scripts"` iframe, as a strict host does. The test drives it through
// `window.showView`; a view's tool calls go to `window.callTool` (the test's MCP client of
// the real toolpack-mcp).
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

/** Host style variables per theme, as hosts send them. */
const THEMES = {
  light: { "--color-background-primary": "#ffffff", "--color-text-primary": "#1f2328" },
  dark: { "--color-background-primary": "#0d1117", "--color-text-primary": "#e6edf3" },
};

let bridge;

/** Shows `html` at `width` px in `theme`, then sends it `input` and `result`. */
window.showView = async ({ html, input, result, theme = "light", width = 640 }) => {
  if (bridge) await bridge.close().catch(() => {});
  document.getElementById("view")?.remove();
  const iframe = document.createElement("iframe");
  iframe.id = "view";
  iframe.title = "view";
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.style.cssText = `width:${width}px;height:200px;border:0;display:block`;
  document.body.append(iframe);
  const hostContext = {
    theme,
    displayMode: "inline",
    containerDimensions: { width, maxHeight: 6000 },
    styles: { variables: THEMES[theme] },
  };
  bridge = new AppBridge(null, { name: "toolpack-test-host", version: "1" }, { serverTools: {}, logging: {} }, { hostContext });
  bridge.oncalltool = (params) => window.callTool(params.name, params.arguments ?? {});
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.ceil(height)}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = resolve;
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: input });
  await bridge.sendToolResult(result);
};

/** Sends the shown view another result. */
window.sendResult = (result) => bridge.sendToolResult(result);
