// What every view shares: the MCP Apps connection (the SDK's App), the host's theme and
// styles, a safe element builder (text only, never HTML), the error box, and times.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from "@modelcontextprotocol/ext-apps";

/**
 * Starts a view: connects to the host, follows its theme, and renders every tool result
 * the host sends (and every result of a call the view makes) with `render`.
 *
 * `render(result, view)` returns the nodes to show; `view.call(tool, args)` calls a tool
 * through the host and renders its answer, `view.refresh(tool, args)` does so quietly,
 * `view.ask(tool, args)` only returns it;
 * `view.input` is the last tool input.
 */
export function startView(name, render) {
  const root = document.getElementById("root");
  const app = new App({ name: `toolpack-${name}`, version: "1" });
  const view = {
    input: {},
    tool: undefined,
    app,
    /** Calls `tool` through the host and returns its answer; the view stays as it is. */
    ask(tool, args) {
      return app.callServerTool({ name: tool, arguments: args });
    },
    /** Calls `tool` through the host and shows its answer in place of this one. */
    async call(tool, args) {
      root.setAttribute("aria-busy", "true");
      try {
        const result = await app.callServerTool({ name: tool, arguments: args });
        view.tool = tool;
        view.input = args;
        show(result);
      } catch (error) {
        root.replaceChildren(errorBox(`The call to ${tool} failed: ${error?.message ?? error}`));
      } finally {
        root.removeAttribute("aria-busy");
      }
    },
    /** Calls `tool` again through the host and shows its answer, quietly: a failed call
     * leaves the view as it is (a live view's refresh). */
    async refresh(tool, args) {
      try {
        show(await app.callServerTool({ name: tool, arguments: args }));
      } catch {
        // The next refresh tries again.
      }
    },
  };
  const show = (result) => {
    const started = performance.now();
    let nodes;
    try {
      nodes = render(result ?? {}, view);
    } catch (error) {
      nodes = [errorBox(`This answer could not be shown: ${error?.message ?? error}`)];
    }
    root.replaceChildren(...[nodes].flat());
    // Laid out before the clock stops: what the reader waits for.
    void root.offsetHeight;
    root.dataset.renderMs = (performance.now() - started).toFixed(2);
    root.dataset.rendered = String(Number(root.dataset.rendered ?? 0) + 1);
  };
  const follow = (context) => {
    if (!context) return;
    if (context.theme) applyDocumentTheme(context.theme);
    if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
    if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  };
  app.ontoolinput = (params) => {
    view.input = params?.arguments ?? {};
  };
  app.ontoolresult = (result) => {
    view.tool = app.getHostContext()?.toolInfo?.tool?.name ?? view.tool;
    show(result);
  };
  app.onhostcontextchanged = follow;
  app.onteardown = async () => ({});
  app.connect().then(() => follow(app.getHostContext()));
  return view;
}

/**
 * An element: `h("li", { class: "row", onclick: f }, "text", child)`. Children are nodes or
 * text (set as text, never parsed); `null`, `undefined` and `false` are skipped.
 */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** An SVG element, with attributes. */
export function svg(tag, attributes, ...children) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value !== undefined && value !== null) element.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child) element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** The box an error answer (or a failure to show one) is shown in: never a blank frame. */
export function errorBox(message, code) {
  return h(
    "div",
    { class: "error", role: "alert" },
    code ? h("strong", { class: "code" }, code) : null,
    h("p", null, message || "The tool answered with an error."),
  );
}

/**
 * The contract error of a result, if it is one: `{code, message}` from the loko and
 * Digitransit envelopes (`error: {code, message}`) and TfL's (`success: false`).
 */
export function failure(result) {
  const body = result.structuredContent ?? {};
  if (body.error && typeof body.error === "object") {
    return { code: body.error.code, message: body.error.message, body };
  }
  if (body.success === false) return { code: body.code, message: body.message, body };
  if (result.isError) {
    const text = result.content?.find((c) => c.type === "text")?.text;
    return { code: undefined, message: text, body };
  }
  return undefined;
}

/** `HH:MM` of an ISO 8601 time, in the time zone it is written in (the place's own); `—` when there is none. */
export function clock(iso) {
  return typeof iso === "string" && iso.length >= 16 ? iso.slice(11, 16) : "—";
}

/** Minutes between two ISO 8601 times. */
export function minutesBetween(from, to) {
  return Math.round((Date.parse(to) - Date.parse(from)) / 60000);
}

/** `1 h 5 min`, `12 min`. */
export function duration(minutes) {
  if (!Number.isFinite(minutes)) return "";
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/** A signed delay in minutes, for people: `+2 min late`, `1 min early`. */
export function delayText(seconds) {
  if (!seconds) return "";
  const minutes = Math.round(Math.abs(seconds) / 60) || 1;
  return seconds > 0 ? `+${minutes} min late` : `${minutes} min early`;
}
