// The timetable view (timetable): the answer's words, then for each direction the first and
// last departure of the day asked (or of each day type) with "next day" past midnight, then
// the departures inside the asked window, and, when asked for, the stops that follow with
// their running times (folded). A name that fits several stations lists them to choose from; a stop the line
// does not call at shows TfL's nearest stops by name.
import { errorBox, failure, h, startView } from "./view.js";
import { tflBadge } from "./tfl.js";

/** A departure's time of day, "(next day)" when it runs past midnight. */
function at(departure) {
  if (!departure) return "—";
  return `${departure.time}${departure.nextDay ? " (next day)" : ""}`;
}

/** The first and last departure of each day type, one row each. */
function days(direction) {
  return h(
    "table",
    { class: "days" },
    h("thead", null, h("tr", null, h("th", null, "Days"), h("th", null, "First"), h("th", null, "Last"), h("th", null, "Departures"))),
    h(
      "tbody",
      null,
      direction.schedules.map((schedule) =>
        h(
          "tr",
          null,
          h("td", null, schedule.name),
          h("td", { class: "time first" }, at(schedule.first)),
          h("td", { class: "time last" }, at(schedule.last)),
          h("td", null, String(schedule.count)),
        ),
      ),
    ),
  );
}

/** The departures inside the asked window, per day type that has any. */
function next(direction) {
  const withDepartures = direction.schedules.filter((s) => (s.departures ?? []).length > 0);
  if (withDepartures.length === 0) return null;
  return withDepartures.map((schedule) =>
    h(
      "div",
      { class: "window" },
      h("h3", null, `${schedule.name}: departures in the window`),
      h("ul", { class: "next" }, schedule.departures.map((d) => h("li", { class: "time" }, at(d), d.towards ? h("small", { class: "muted" }, ` to ${d.towards}`) : null))),
    ),
  );
}

/** The stops after this one on each route, folded. */
function stopsAfter(direction) {
  return (direction.patterns ?? [])
    .filter((pattern) => pattern.stops.length > 0)
    .map((pattern) => {
      const last = pattern.stops[pattern.stops.length - 1];
      return h(
        "details",
        { class: "stops-after" },
        h("summary", null, `To ${last.name}: ${pattern.stops.length} stops, ${Math.round(last.minutes)} min`),
        h("ol", null, pattern.stops.map((stop) => h("li", null, `${stop.name} · ${Math.round(stop.minutes)} min`))),
      );
    });
}

/** The stations a name fits: each asks for the timetable again with its id. */
function choose(error, view) {
  return h(
    "section",
    { class: "choose", "aria-label": "Choose a station" },
    h("p", null, error.message),
    h(
      "ul",
      null,
      error.body.stopDisambiguation.map((stop) =>
        h("li", null, h("button", { onclick: () => view.call("timetable", { ...view.input, stop: stop.id }) }, stop.title ?? stop.name)),
      ),
    ),
  );
}

startView("timetable", (result, view) => {
  const error = failure(result);
  if (error?.body?.stopDisambiguation?.length) return choose(error, view);
  if (error) {
    const nearest = error.body?.suggestions ?? [];
    return h("div", null, errorBox(error.message, error.code), nearest.length ? h("p", { class: "suggestions" }, `Nearest: ${nearest.join(", ")}`) : null);
  }
  const body = result.structuredContent ?? {};
  const directions = body.directions ?? [];
  return h(
    "section",
    { class: "timetable", "aria-label": `Timetable of ${body.line?.name ?? "the line"} from ${body.stop?.name ?? "the stop"}` },
    h(
      "header",
      null,
      h("span", { class: "badge", style: tflBadge(body.line?.id, body.line?.id) }, body.line?.name ?? ""),
      h("h1", null, body.stop?.name ?? "Timetable"),
      body.day ? h("small", { class: "muted day" }, body.day) : null,
    ),
    body.message ? h("p", { class: "summary" }, body.message) : null,
    directions.length === 0 ? h("p", { class: "empty" }, body.message ?? "No timetable was found.") : null,
    directions.map((direction) =>
      h(
        "article",
        { class: "direction" },
        h("h2", null, direction.direction),
        days(direction),
        next(direction),
        stopsAfter(direction),
      ),
    ),
  );
});
