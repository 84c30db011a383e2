// The departures board (get_departures): the stop, then one row per departure with line,
// destination and time, "in N min", the realtime delay, and cancelled rows struck through;
// above them, the stop's alerts, one line each, the full text on a tap.
// Refresh calls get_departures again through the host; while the board is visible it can
// refresh itself every 30 s.
import { clock, delayText, errorBox, failure, h, startView } from "./view.js";
import { alertLines } from "./alert-lines.js";

/** HSL's mode colours. */
const MODE_COLOURS = { BUS: "#007AC9", TRAM: "#00985F", SUBWAY: "#FF6319", RAIL: "#8C4799", FERRY: "#00B9E4" };
/** How often the board refreshes itself while visible. */
const EVERY_MS = 30_000;

let autoRefresh = true;
let timer;

/** "in N min" when the departure is within the next hour of this clock, else nothing. */
function inMinutes(iso) {
  const minutes = Math.round((Date.parse(iso) - Date.now()) / 60000);
  if (!Number.isFinite(minutes) || minutes < 0 || minutes > 60) return "";
  return minutes === 0 ? "now" : `in ${minutes} min`;
}

function row(departure) {
  const cancelled = departure.status === "cancelled";
  const time = departure.realtimeTime ?? departure.scheduledTime;
  return h(
    "tr",
    { class: cancelled ? "cancelled" : null },
    h(
      "td",
      null,
      h("span", { class: "badge", style: `--leg:${MODE_COLOURS[departure.mode] ?? "#5A6270"}` }, departure.line),
    ),
    h("td", { class: "destination" }, departure.destination, departure.platform ? h("small", null, ` · platform ${departure.platform}`) : null),
    h(
      "td",
      { class: "time" },
      cancelled ? h("s", null, clock(departure.scheduledTime)) : h("strong", null, clock(time)),
      cancelled ? h("span", { class: "flag" }, " Cancelled") : null,
      !cancelled && departure.delaySeconds ? h("span", { class: "flag late" }, ` ${delayText(departure.delaySeconds)}`) : null,
      !cancelled && departure.status === "scheduled_only" ? h("span", { class: "muted" }, " scheduled") : null,
      !cancelled ? h("span", { class: "muted soon" }, ` ${inMinutes(time)}`) : null,
    ),
  );
}

const view = startView("departures", (result, view) => {
  const error = failure(result);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const departures = body.departures ?? [];
  schedule(view);
  return h(
    "section",
    { class: "board", "aria-label": `Departures from ${body.stopName ?? body.stopId ?? "the stop"}` },
    h(
      "header",
      null,
      h("h1", null, body.stopName ?? body.stopId ?? "Departures"),
      body.stopName && body.stopId ? h("small", { class: "muted" }, body.stopId) : null,
      body.realtimeUsed ? h("span", { class: "flag live" }, "Live") : null,
      h("button", { class: "refresh", onclick: () => refresh(view) }, "Refresh"),
      h(
        "label",
        { class: "auto" },
        h("input", {
          type: "checkbox",
          checked: autoRefresh,
          onchange: (event) => {
            autoRefresh = event.target.checked;
            schedule(view);
          },
        }),
        " every 30 s",
      ),
    ),
    alertLines(body.alerts, view, "Alerts at this stop"),
    departures.length === 0
      ? h("p", { class: "empty" }, "No departures in this window.")
      : h(
          "table",
          null,
          h("thead", null, h("tr", null, h("th", { scope: "col" }, "Line"), h("th", { scope: "col" }, "To"), h("th", { scope: "col" }, "Time"))),
          h("tbody", null, departures.map(row)),
        ),
  );
});

function refresh(view) {
  if (view.input?.stop) view.call("get_departures", view.input);
}

/** Refreshes every 30 s while the board is visible and the box is ticked. */
function schedule(view) {
  clearTimeout(timer);
  if (!autoRefresh) return;
  timer = setTimeout(() => {
    if (document.visibilityState === "visible") refresh(view);
    else schedule(view);
  }, EVERY_MS);
}

document.addEventListener("visibilitychange", () => schedule(view));
