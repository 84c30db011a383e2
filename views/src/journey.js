// The journey view (planJourney, plan_trip): one row per option with its times, duration
// and a strip of legs coloured by line or mode; selecting a row opens its legs; plan_trip's
// route is drawn as a schematic SVG from the stops' coordinates (no map tiles).
import { clock, delayText, duration, errorBox, failure, h, minutesBetween, startView, svg } from "./view.js";
import { tflColour } from "./tfl.js";
import { alertLines } from "./alert-lines.js";

/** HSL's mode colours. */
const HSL_COLOURS = {
  BUS: "#007AC9",
  TRAM: "#00985F",
  SUBWAY: "#FF6319",
  RAIL: "#8C4799",
  FERRY: "#00B9E4",
  BICYCLE: "#FCB919",
  WALK: "#8A8F98",
};

const isWalk = (mode) => /^walk/i.test(mode ?? "");

/** TfL's answer as options. */
function tflOptions(body) {
  return (body.topJourneys ?? []).map((journey) => ({
    start: journey.startDateTime,
    end: journey.arrivalDateTime,
    minutes: journey.durationMinutes,
    fare: Number.isFinite(journey.totalFarePence) ? `£${(journey.totalFarePence / 100).toFixed(2)}` : undefined,
    disrupted: journey.isDisrupted,
    legs: (journey.legs ?? []).map((leg) => ({
      mode: leg.mode,
      walk: isWalk(leg.mode),
      line: leg.routeName || undefined,
      colour: tflColour(leg.routeName, leg.mode),
      minutes: leg.durationMinutes,
      start: leg.departureTime,
      end: leg.arrivalTime,
      instruction: leg.instruction,
      board: leg.departurePoint ?? undefined,
      alight: leg.arrivalPoint ?? undefined,
      disruptions: leg.disruptions ?? [],
    })),
  }));
}

/** Digitransit's answer as options. */
function digitransitOptions(body) {
  return (body.itineraries ?? []).map((itinerary) => ({
    start: itinerary.start,
    end: itinerary.end,
    minutes: Math.round((itinerary.durationSeconds ?? 0) / 60),
    disrupted: Boolean(itinerary.disruptionFlag),
    transfers: itinerary.numberOfTransfers,
    legs: (itinerary.legs ?? []).map((leg) => {
      const start = leg.realtimeDeparture ?? leg.scheduledDeparture;
      const end = leg.realtimeArrival ?? leg.scheduledArrival;
      const to = leg.to?.name ?? "";
      const what = isWalk(leg.mode) ? "Walk" : [leg.mode, leg.line].filter(Boolean).join(" ");
      return {
        mode: leg.mode,
        walk: isWalk(leg.mode),
        line: leg.line,
        colour: HSL_COLOURS[leg.mode] ?? "#5A6270",
        minutes: minutesBetween(start, end),
        start,
        end,
        instruction: `${what}${leg.headsign ? ` towards ${leg.headsign}` : ""} from ${leg.from?.name ?? ""} to ${to}`,
        board: leg.from?.name,
        alight: to || undefined,
        towards: leg.headsign,
        delay: leg.realtimeDelaySeconds,
        cancelled: leg.status === "cancelled",
        disruptions: [],
        alerts: leg.alerts ?? [],
        from: leg.from?.coordinate,
        to: leg.to?.coordinate,
      };
    }),
  }));
}

/** The strip of legs: widths by duration, walking hatched. */
function strip(option) {
  const total = option.legs.reduce((sum, leg) => sum + Math.max(leg.minutes || 0, 1), 0) || 1;
  return h(
    "div",
    { class: "strip", "aria-hidden": "true" },
    option.legs.map((leg) =>
      h(
        "span",
        {
          class: `leg${leg.walk ? " walk" : ""}${leg.cancelled ? " cancelled" : ""}`,
          style: `flex-grow:${Math.max(leg.minutes || 0, 1) / total};--leg:${leg.colour}`,
          title: leg.walk ? "Walk" : leg.line ?? leg.mode,
        },
        leg.walk ? "" : leg.line ?? "",
      ),
    ),
  );
}

/** Where to board, where to change and where to get off, without a click: one line per
 * transit leg ("Central: Bank → Mile End", "towards" when the leg says). */
function ways(option) {
  const transit = option.legs.filter((leg) => !leg.walk && (leg.board || leg.alight));
  if (transit.length === 0) return null;
  return transit.map((leg) =>
    h(
      "span",
      { class: "way" },
      h("span", { class: "badge", style: `--leg:${leg.colour}` }, leg.line ?? leg.mode ?? ""),
      ` ${leg.board ?? "?"} → ${leg.alight ?? "?"}`,
      leg.towards ? h("span", { class: "muted" }, ` (towards ${leg.towards})`) : null,
    ),
  );
}

/** The legs of one option, in words, each with its alerts (Digitransit's, in brief). */
function legList(option, view) {
  return h(
    "ol",
    { class: "legs" },
    option.legs.map((leg) =>
      h(
        "li",
        { class: leg.cancelled ? "cancelled" : null },
        h("span", { class: "badge", style: `--leg:${leg.colour}` }, leg.walk ? "Walk" : leg.line ?? leg.mode),
        h("span", { class: "times" }, `${clock(leg.start)}–${clock(leg.end)}`),
        h("span", { class: "text" }, leg.instruction ?? ""),
        leg.cancelled ? h("strong", { class: "flag" }, "Cancelled") : null,
        leg.delay ? h("span", { class: "flag late" }, delayText(leg.delay)) : null,
        leg.disruptions.map((d) => h("p", { class: "disruption" }, `⚠ ${d}`)),
        alertLines(leg.alerts, view, "Alerts on this leg"),
      ),
    ),
  );
}

/** plan_trip's route, drawn from the legs' coordinates into a 320×180 box. */
function routeMap(option) {
  const points = option.legs.flatMap((leg) => [leg.from, leg.to]).filter((p) => p && Number.isFinite(p.lat));
  if (points.length < 2) return null;
  const lats = points.map((p) => p.lat);
  const lons = points.map((p) => p.lon);
  // Equirectangular: a degree of longitude shrinks by cos(latitude).
  const shrink = Math.cos((((Math.min(...lats) + Math.max(...lats)) / 2) * Math.PI) / 180);
  const [west, east] = [Math.min(...lons) * shrink, Math.max(...lons) * shrink];
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const scale = 280 / Math.max(east - west, (north - south) * (280 / 140), 1e-9);
  const x = (p) => (20 + (p.lon * shrink - west) * scale).toFixed(1);
  const y = (p) => (160 - (p.lat - south) * scale).toFixed(1);
  const legs = option.legs.filter((leg) => leg.from && leg.to);
  return svg(
    "svg",
    { class: "route", viewBox: "0 0 320 180", role: "img", "aria-label": "Route sketch" },
    legs.map((leg) =>
      svg("line", {
        x1: x(leg.from),
        y1: y(leg.from),
        x2: x(leg.to),
        y2: y(leg.to),
        stroke: leg.colour,
        "stroke-width": leg.walk ? 2 : 5,
        "stroke-dasharray": leg.walk ? "4 4" : null,
        "stroke-linecap": "round",
      }),
    ),
    [legs[0].from, ...legs.map((leg) => leg.to)].map((p) =>
      svg("circle", { cx: x(p), cy: y(p), r: 3.5, class: "stop" }),
    ),
  );
}

startView("journey", (result, view) => {
  const error = failure(result);
  if (error?.code === "DISAMBIGUATION_REQUIRED") return disambiguation(error.body, view);
  if (error) return errorBox(error.message, error.code);
  const body = result.structuredContent ?? {};
  const options = body.itineraries ? digitransitOptions(body) : tflOptions(body);
  if (options.length === 0) return h("p", { class: "empty" }, body.message ?? "No journeys were found.");
  return h(
    "section",
    { "aria-label": "Journey options" },
    h("ul", { class: "options" }, options.map((option, index) => optionRow(option, index, view))),
  );
});

/** One option: a button row that opens its legs (and, for Digitransit, its route). */
function optionRow(option, index, view) {
  const details = h("div", { class: "details", id: `option-${index}`, hidden: true }, legList(option, view), routeMap(option));
  const delayed = option.legs.some((leg) => leg.delay > 0 || leg.cancelled);
  const alerts = new Set(option.legs.flatMap((leg) => (leg.alerts ?? []).map((a) => a.id))).size;
  const button = h(
    "button",
    {
      class: "option",
      "aria-expanded": "false",
      "aria-controls": `option-${index}`,
      onclick: () => {
        const open = button.getAttribute("aria-expanded") !== "true";
        button.setAttribute("aria-expanded", String(open));
        details.hidden = !open;
      },
    },
    h(
      "span",
      { class: "summary" },
      h("strong", { class: "times" }, `${clock(option.start)} → ${clock(option.end)}`),
      h("span", { class: "duration" }, duration(option.minutes)),
      option.fare ? h("span", { class: "fare" }, option.fare) : null,
      option.disrupted ? h("span", { class: "flag" }, "Disrupted") : null,
      delayed ? h("span", { class: "flag late" }, "Delays") : null,
      alerts ? h("span", { class: "flag late alerts-count" }, alerts === 1 ? "1 alert" : `${alerts} alerts`) : null,
    ),
    strip(option),
    ways(option),
  );
  return h("li", null, button, details);
}

/** TfL's suggestions for an ambiguous place: each one plans again with it. */
function disambiguation(body, view) {
  const sides = [
    ["from", body.fromLocationDisambiguation],
    ["to", body.toLocationDisambiguation],
  ].filter(([, list]) => Array.isArray(list) && list.length > 0);
  return h(
    "section",
    { class: "choose", "aria-label": "Choose a place" },
    h("p", null, body.message ?? "Choose a place."),
    sides.map(([side, list]) =>
      h(
        "div",
        null,
        h("h2", null, side === "from" ? "From" : "To"),
        h(
          "ul",
          null,
          list.map((place) =>
            h(
              "li",
              null,
              h(
                "button",
                { onclick: () => view.call("planJourney", { ...view.input, [side]: place.parameterValue }) },
                place.commonName ?? place.parameterValue,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
