// The arrivals board (arrivals), in the family of the departures board: the stop, then one
// row per line, platform and destination with the minutes of its next arrivals; Refresh asks TfL again
// through the host, and while the board is visible it refreshes itself every 30 s.
import { errorBox, failure, h, startView } from "./view.js";
import { tflBadge } from "./tfl.js";

/** How often the board refreshes itself while visible. */
const EVERY_MS = 30_000;

let autoRefresh = true;
let timer;

/** "due" under a minute, else whole minutes. */
function minutes(m) {
  return m < 1 ? "due" : `${m} min`;
}

/** TfL's id of a group's line: its `lineId`, else its name in lower case. */
const lineId = (group) => group.lineId ?? group.line.toLowerCase();

function row(group) {
  const id = lineId(group);
  return h(
    "tr",
    null,
    h("td", null, h("span", { class: "badge", style: tflBadge(id, /^[a-z]?\d+$/i.test(id) ? "bus" : undefined) }, group.line)),
    h(
      "td",
      { class: "destination" },
      group.destination ?? group.towards ?? "",
      group.platform ? h("small", { class: "platform" }, group.platform) : null,
      group.destination && group.towards ? h("small", { class: "muted where" }, group.towards) : null,
    ),
    h(
      "td",
      { class: "time" },
      h("strong", null, minutes(group.minutes[0])),
      group.minutes.length > 1 ? h("span", { class: "muted" }, `, then ${group.minutes.slice(1).map(minutes).join(", ")}`) : null,
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
