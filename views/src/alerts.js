// The alerts view (get_alerts): every alert as one line, most severe first, coloured by
// severity, with the lines and stops it touches; a tap opens its full text, when it runs
// and the page with more.
import { errorBox, failure, h, startView } from "./view.js";
import { alertLine } from "./alert-lines.js";

/** HSL's mode colours. */
const MODE_COLOURS = { BUS: "#007AC9", TRAM: "#00985F", METRO: "#FF6319", SUBWAY: "#FF6319", RAIL: "#8C4799", FERRY: "#00B9E4" };

/** The lines (badges) and stops an alert touches, once each. */
function touched(alert) {
  const routes = new Map((alert.routes ?? []).map((r) => [r.gtfsId, r]));
  const stops = new Map((alert.stops ?? []).map((s) => [s.gtfsId, s]));
  if (routes.size === 0 && stops.size === 0) return null;
  return h(
    "span",
    { class: "touched" },
    [...routes.values()].map((r) =>
      h("span", { class: "badge", style: `--leg:${MODE_COLOURS[r.mode] ?? "#5A6270"}`, title: r.gtfsId }, r.shortName ?? r.gtfsId),
    ),
    [...stops.values()].map((s) => h("small", null, `${s.name ?? s.gtfsId}${s.code ? ` (${s.code})` : ""}`)),
  );
}

startView("alerts", (result, view) => {
  const error = failure(result);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const alerts = body.alerts ?? [];
  return h(
    "section",
    { class: "alerts-view", "aria-label": "Service alerts" },
    h("h1", null, "Service alerts ", h("small", null, alerts.length === 1 ? "1 alert" : `${alerts.length} alerts`)),
    (body.warnings ?? []).map((w) => h("p", { class: "muted warning" }, w.message)),
    alerts.length === 0
      ? h("p", { class: "empty" }, "No alerts in effect.")
      : h(
          "ul",
          { class: "alerts" },
          alerts.map((alert) => h("li", null, alertLine(alert, view, alert, touched(alert)))),
        ),
  );
});
