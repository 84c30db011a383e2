// Digitransit alerts in brief (a plan_trip leg's, a departures board's, get_alerts' own):
// one line per alert, coloured by severity, that opens on a tap to its full text. An alert
// in brief has no text beyond its headline, so the first tap asks get_alerts through the
// host (one answer, every alert the router knows, shared by every caller) and shows the
// alert with the same id.
import { h } from "./view.js";

/** Each severity's word for people; the class that colours it is the severity itself. */
const SEVERITY = { SEVERE: "Severe", WARNING: "Warning", INFO: "Info", UNKNOWN: "Notice" };

/** The severity's word, and the class it is coloured by. */
export function severityOf(alert) {
  const key = alert?.severity in SEVERITY ? alert.severity : "UNKNOWN";
  return { key: key.toLowerCase(), word: SEVERITY[key] };
}

/** What an alert says in full: its text, when it runs, the page with more. */
export function alertText(alert) {
  const when = [alert.start ? `from ${alert.start.slice(0, 16).replace("T", " ")}` : null, alert.end ? `until ${alert.end.slice(0, 16).replace("T", " ")}` : null]
    .filter(Boolean)
    .join(" ");
  return [
    h("p", null, alert.description ?? alert.header),
    when ? h("p", { class: "muted" }, when) : null,
    alert.url ? h("p", { class: "muted" }, alert.url) : null,
  ];
}

/**
 * One alert as a line that opens to its full text: `full` when the answer has it (get_alerts),
 * else asked for once through the host's `view`. `touched` (what it affects) ends the line.
 */
export function alertLine(alert, view, full, touched) {
  const { key, word } = severityOf(alert);
  const text = h("div", { class: "alert-text" }, full ? alertText(full) : h("p", { class: "muted" }, "Loading…"));
  let asked = Boolean(full);
  const line = h(
    "details",
    {
      class: `alert ${key}`,
      "data-alert-id": alert.id,
      ontoggle: () => {
        if (!line.open || asked) return;
        asked = true;
        fullText(alert, view).then((nodes) => text.replaceChildren(...nodes));
      },
    },
    h(
      "summary",
      null,
      h("span", { class: "severity" }, word),
      h("span", { class: "header" }, alert.header),
      alert.status === "upcoming" || alert.status === "ended" ? h("span", { class: "muted when" }, ` (${alert.status})`) : null,
      touched ?? null,
    ),
    text,
  );
  return line;
}

/** The alerts in brief as a list of lines; nothing when there are none. */
export function alertLines(alerts, view, label) {
  if (!Array.isArray(alerts) || alerts.length === 0) return null;
  return h("ul", { class: "alerts", "aria-label": label }, alerts.map((a) => h("li", null, alertLine(a, view))));
}

async function fullText(alert, view) {
  try {
    // Ended ones too: a line shown a moment ago opens to its text even if it has ended since.
    const result = await view.ask("get_alerts", { maxResults: 100, includeEnded: true });
    const found = (result?.structuredContent?.alerts ?? []).find((a) => a.id === alert.id);
    return found ? alertText(found) : [h("p", { class: "muted" }, "This alert has no more text now: it may have ended.")];
  } catch (error) {
    return [h("p", { class: "muted" }, `The full text could not be fetched: ${error?.message ?? error}`)];
  }
}
