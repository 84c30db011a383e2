// The arrivals board (arrivals), in the family of the departures board: the stop, then one
// row per arrival with line, destination, platform and minutes; Refresh asks TfL again
// through the host, and while the board is visible it refreshes itself every 30 s.
import { errorBox, failure, h, startView } from "./view.js";
import { tflBadge } from "./tfl.js";

/** How often the board refreshes itself while visible. */
const EVERY_MS = 30_000;

let autoRefresh = true;
let timer;

/** "due" under a minute, else whole minutes. */
function minutes(seconds) {
  return seconds < 60 ? "due" : `${Math.floor(seconds / 60)} min`;
}

/** The London clock time of a UTC instant. */
function londonTime(iso) {
  const date = new Date(iso ?? "");
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit" });
}

function row(arrival) {
  return h(
    "tr",
    null,
    h("td", null, h("span", { class: "badge", style: tflBadge(arrival.lineId, /^[a-z]?\d+$/i.test(arrival.lineId) ? "bus" : undefined) }, arrival.lineName)),
    h(
      "td",
      { class: "destination" },
      arrival.destination ?? arrival.towards ?? "",
      arrival.platform ? h("small", { class: "platform" }, arrival.platform) : null,
      arrival.currentLocation ? h("small", { class: "muted where" }, arrival.currentLocation) : null,
    ),
    h(
      "td",
      { class: "time" },
      h("strong", null, minutes(arrival.secondsToArrival)),
      h("span", { class: "muted" }, ` ${londonTime(arrival.expectedArrival)}`),
    ),
  );
}

function choose(error, view) {
  return h(
    "section",
    { class: "choose", "aria-label": "Choose a stop" },
    h("p", null, error.message ?? "Choose a stop."),
    h(
      "ul",
      null,
      error.body.stopDisambiguation.map((stop) =>
        h(
          "li",
          null,
          h(
            "button",
            { onclick: () => view.call("arrivals", { ...view.input, stop: stop.id }) },
            stop.name,
            h("small", { class: "muted" }, ` ${[stop.lines.join(", "), stop.modes.join(", ")].find(Boolean) ?? stop.id}`),
          ),
        ),
      ),
    ),
  );
}

const view = startView("arrivals", (result, view) => {
  const error = failure(result);
  if (error?.body?.stopDisambiguation?.length) return choose(error, view);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const arrivals = body.arrivals ?? [];
  schedule(view);
  return h(
    "section",
    { class: "board", "aria-label": `Arrivals at ${body.stop?.name ?? "the stop"}` },
    h(
      "header",
      null,
      h("h1", null, body.stop?.name ?? "Arrivals"),
      body.stop?.id ? h("small", { class: "muted" }, body.stop.id) : null,
      h("span", { class: "flag live" }, "Live"),
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
    arrivals.length === 0
      ? h("p", { class: "empty" }, "No arrivals predicted now.")
      : h(
          "table",
          null,
          h(
            "thead",
            null,
            h("tr", null, ["Line", "To, platform", "Due"].map((t) => h("th", { scope: "col" }, t))),
          ),
          h("tbody", null, arrivals.map(row)),
        ),
  );
});

function refresh(view) {
  if (view.input?.stop) view.call("arrivals", view.input);
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
